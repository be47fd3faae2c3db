# Dealing check, part 2 of 4 (engine layer, pure): each card leaving the shoe and where it lands --
# the initial deal (DEAL-2, DEAL-8, DEAL-9, DEAL-23), burns and board cards (DEAL-3, DEAL-27..29),
# premature cards (DEAL-30..33, DEAL-45), stud streets, replacements, a fouled deck (DEAL-18) and
# rabbit hunting (DEAL-49). A base of dealing.DealCheck. The console marks (dealmarks.py) and the
# confirm/reject remedies (dealfix.py) join this class on their first call: a hand dealt without
# incident never loads them (~39 KB of MicroPython heap).
from felt.engine.dealing.plan import (ASSIST, BETTING, BOARD, BURN, DEALING, ENGINE, FAMILY_BOARD, FAMILY_STUD, MUCK,
                                   OVER, PROPOSED, SHOWDOWN, Finding, card_text, place_text, premature_rules)
from felt.engine.house.rules import CASH
from felt.errors import RuleError


# The entry points of dealmarks.DealMarks / dealfix.DealFixes that other code calls.
_RARE = ("hold", "release", "mark_boxed", "mark_exposed", "foreign", "absent", "present", "kill", "discard",
         "end_of_deal", "reshuffled", "_foreign_after_sa", "confirm", "reject")


def _load_rare():
    """Puts every method of DealFixes and DealMarks on DealDraws (as if it inherited them, which it did
    before): called once, by the first stub below that runs."""
    from felt.engine.dealing.remedies import DealFixes
    from felt.engine.dealing.marks import DealMarks

    for cls in (DealFixes, DealMarks):  # DealMarks last: it subclasses DealFixes, so its methods win
        for name in cls.__dict__:
            if not name.startswith("__"):
                setattr(DealDraws, name, cls.__dict__[name])


def _rare(name):
    def call(self, *args, **kw):
        _load_rare()
        return getattr(self, name)(*args, **kw)
    return call


class DealDraws:
    """Shoe draws for DealCheck: card(card, place) (see dealing.py for the whole interface)."""

    def _foreign_acted(self, seat, out):
        # DEAL-20 needs a proposed foreign_replace finding, which only DealMarks.foreign() makes: until
        # it is loaded (and this stub replaced by DealMarks._foreign_acted) there is nothing to lapse
        return None

    def card(self, card, place=None):
        """A card left the shoe and landed at `place`: a seat number, BOARD, BURN, MUCK, or None (reached
        no antenna: classed as a burn, DEAL-3). Returns the new findings."""
        self._alive()
        if isinstance(card, bool) or not isinstance(card, int) or card not in self.plan.deck:
            raise RuleError("DECK-1", "%r is not a card of the deck in play" % (card,), legal=(0, 51))
        place = self._check_place(place)
        self.draws.append((card, place))
        n = len(self.draws)
        out = []
        if self.phase in (OVER, SHOWDOWN):
            # DEAL-49: logged as a violation; the card is named nowhere
            self._add(Finding("rabbit_hunt", ("DEAL-49",), ENGINE, "draw %d after the end of the hand" % n,
                              "no rabbit hunting: put the card back unseen; it is not displayed", draw=n), out)
            return out
        if card in self._out:
            self._fouled(n, card, place, out)
            return out
        if self.held:
            self._add(Finding("held_draw", ("TOUR-10",), ENGINE, "draw %d while the hand is held for the TD" % n,
                              "hand-for-hand all-in: no card is dealt until the TD says continue; put the card "
                              "back on the stub unseen", draw=n), out)
            return out
        self._out[card] = True
        self._place(n, card, place, out)
        self._derive(out)
        return out

    def _check_place(self, place):
        if place is None or place in (BOARD, BURN, MUCK):
            return place
        if isinstance(place, bool) or not isinstance(place, int) or place < 1 or place > 10:
            raise RuleError("DEAL-2", "place %r is not a seat 1..10, board, burn, muck or None" % (place,))
        return place

    def _place(self, n, card, place, out):
        if place is None or place == BURN or place == MUCK:
            if place == MUCK:
                self._note(("muck_burn", n), Finding("burn_on_muck", ("DEAL-3",), ENGINE,
                           "draw %d went to the muck" % n, "keep burns apart from the muck until the hand ends",
                           draw=n), out)
            self._burn_draw(n, card, out)
        elif place == BOARD:
            self._board_draw(n, card, out)
        else:
            self._seat_draw(n, card, place, out)

    def _fouled(self, n, card, place, out):
        first = self.where(card)
        self._propose("fouled_deck", ("DEAL-18",),
                      "%s drawn again (draw %d) while it is already at %s: the deck is fouled" % (
                          card_text(card), n, place_text(first)),
                      "stop play; every bet of the hand is returned (a player who knew of the defect and kept "
                      "quiet gets no refund); bring in a new deck and register it",
                      out, draw=n, cards=(card,))

    def _burn_draw(self, n, card, out):
        s = self.street
        if self.phase == DEALING and s == 0:
            # DEAL-2: nothing is burned before or during the initial deal
            self.aside.append(card)
            self._add(Finding("stray_card", ("DEAL-2", "DEAL-17", "DEAL-22"), ASSIST,
                              "draw %d reached no seat during the initial deal" % n,
                              "set it aside; if it was face up in the deck mark it boxed, if the dealer exposed "
                              "or dropped it mark it exposed", draw=n, cards=(card,)), out)
            return
        if self.phase == BETTING:
            if self._setting_aside == s + 1:
                self.aside.append(card)  # DEAL-45 tda2017: that street's cards go aside
                return
            t = s + 1
            self.burns.append(card)
            self._street_burns.setdefault(t, []).append(card)
            if t < len(self.plan.streets) and self._credit.get(t, 0) < self.street_plan(t).burn:
                self._credit[t] = self._credit.get(t, 0) + 1
                self._add(Finding("early_burn", premature_rules(self.plan.family, t), ENGINE,
                                  "draw %d burned before the %s betting is complete" % (n, self.street_name()),
                                  "the burn stays a burn: the %s is dealt without another burn" % self.street_name(t),
                                  draw=n), out)
            else:
                self._add(Finding("extra_burn", ("DEAL-3",), ENGINE, "draw %d is a second burn" % n,
                                  "one burn per street: it stays with the burns", draw=n), out)
            return
        self._street_draws.append((n, card, BURN))
        self.burns.append(card)
        self._street_burns.setdefault(s, []).append(card)
        if self.plan.family != FAMILY_BOARD or s in self._override:
            got = len(self._street_burns[s]) + self._credit.get(s, 0)
            if got > self.street_plan(s).burn:
                self._add(Finding("extra_burn", ("DEAL-3",), ENGINE, "draw %d is a second burn on %s" % (
                    n, self.street_name()), "exactly one burn per street: it stays with the burns", draw=n), out)

    def _board_draw(self, n, card, out):
        s = self.street
        has_board = False
        for i in range(len(self.plan.streets)):
            if self.street_plan(i).board:
                has_board = True
        if not has_board:
            self.aside.append(card)
            self._add(Finding("stray_card", ("GAME-1",), ENGINE, "draw %d reached the board; %s has no board" % (
                n, self.plan.family), "take it off the board and set it aside", draw=n, cards=(card,)), out)
            return
        if self.phase == DEALING and s == 0:
            self._premature(s + 1, n, card, None, out)
        elif self.phase == BETTING:
            flop_done = len(self.board) == self._board_target(s)
            if (self.plan.family == FAMILY_BOARD and s == 1 and flop_done and not self._street_acted
                    and n == self._complete_draw + 1 and self._four is None):
                self.board.append(card)
                self._four = self._propose(
                    "four_card_flop", ("DEAL-27",), "a fourth card (%s, draw %d) came with the flop" % (
                        card_text(card), n),
                    "call the floor: scramble the four cards face down; the floor picks one as the turn burn and "
                    "the other three are the flop; the turn is then dealt without a new burn", out, draw=n,
                    cards=tuple(self.board[-4:]))
            else:
                self._premature(s + 1, n, card, None, out)
        else:
            self._street_draws.append((n, card, BOARD))
            self.board.append(card)
            if self._rebuild is None or self._rebuild.status != PROPOSED:
                self._check_burns(n, card, out)
            self._maybe_complete(out)

    def _board_target(self, street):
        total = 0
        for i in range(street + 1):
            total += self.street_plan(i).board
        return total

    def _check_burns(self, n, card, out):
        # DEAL-28 / DEAL-29: the first board card of a street tells whether its burn was right
        s = self.street
        burns = 0
        boards = 0
        for d, c, p in self._street_draws:
            if p == BURN:
                burns += 1
            else:
                boards += 1
        if boards != 1:
            return
        need = self._need_burn(s)
        if burns == need:
            return
        name = self.street_name(s)
        if s == 1 and burns < need:
            if self.rules.noburn_flop == "restore_order":
                remedy = ("if nobody has acted on the flop: %s becomes the burn and the next card completes the "
                          "flop; once betting has begun the cards stand" % card_text(card))
            else:
                remedy = ("if nobody has acted on the flop: scramble the flop face down, pick one card at random "
                          "as the burn, and complete the flop with the next card; once anyone acts the cards "
                          "stand; either way the turn gets one burn")
            self._rebuild = self._propose("noburn_flop", ("DEAL-28",), "the flop was dealt without a burn (draw %d)"
                                          % n, remedy, out, draw=n, cards=(card,))
        else:
            rules = ("DEAL-29",) if s >= 2 else ("DEAL-3", "DEAL-29")
            what = "without a burn" if burns < need else "with %d burns" % burns
            self._rebuild = self._propose(
                "burn_error", rules, "the %s was dealt %s (draw %d)" % (name, what, n),
                "if no betting has happened on the %s: rebuild the order the cards should have had (one burn, then "
                "the %s cards; surplus cards become burns); once betting on the %s has begun the cards stand" % (
                    name, name, name), out, draw=n, cards=(card,))
        self._rebuild.street = s

    def _premature(self, t, n, card, seat, out):
        # DEAL-30/31/32/45 (+ DEAL-33): cards for street t before the betting on t-1 is complete
        f = self._early_f
        if seat is None:
            self._early_board.append(card)
        else:
            self._early_seat.append((seat, card))
        if f is not None and f.status == PROPOSED and f.street == t:
            f.cards = f.cards + (card,)
            return
        fam = self.plan.family
        prev = self.street_name(t - 1)
        last = len(self.plan.streets)
        if t >= last:
            kind = "extra_board"
            text = "%s (draw %d) is dealt after the last street" % (card_text(card), n)
            remedy = "it is not part of the hand: put it back into the stub"
            rules = ("DEAL-4", "DEAL-33")
        elif fam == FAMILY_STUD and seat is not None:
            kind = "premature_stud"
            rules = ("DEAL-45", "DEAL-33")
            text = "%s (draw %d) dealt to seat %d for %s before the %s betting is complete" % (
                card_text(card), n, seat, self.street_name(t), prev)
            if self.rules.premature_stud == "tda2017":
                remedy = ("deal the rest of %s face down and put it aside with this card; after the betting burn "
                          "and deal %s normally; before the last street shuffle the put-aside cards into the stub "
                          "and deal the last street without a burn" % (self.street_name(t), self.street_name(t)))
            else:
                remedy = ("put the card back into the stub, reshuffle the stub face down; after the %s betting "
                          "deal %s without a new burn" % (prev, self.street_name(t)))
        else:
            name = self.street_name(t)
            kind = "premature_" + name if fam == FAMILY_BOARD and name in ("flop", "turn", "river") else "premature_board"
            rules = (premature_rules(fam, t)[0], "DEAL-33")
            text = "%s (draw %d) reached the board before the %s betting is complete" % (card_text(card), n, prev)
            burn = self._credit.get(t, 0) >= self.street_plan(t).burn
            if name == "turn" and self.rules.premature_turn == "tda2017":
                remedy = ("set the premature turn aside face up; after the flop betting burn and deal the turn; "
                          "after the turn betting shuffle the set-aside card into the stub (not the burns) and deal "
                          "the river without a burn")
            else:
                remedy = ("%sput the premature %s back into the stub, reshuffle the stub face down; after the %s "
                          "betting deal the %s %s" % ("the burn stays a burn; " if burn else "", name, prev, name,
                                                      "without a burn" if burn else "with its burn"))
        f = self._propose(kind, rules, text, remedy, out, draw=n, seat=seat, cards=(card,))
        f.street = t
        self._early_f = f

    def _seat_draw(self, n, card, seat, out):
        s = self.street
        if seat not in self.plan.seats:
            self.holes.setdefault(seat, []).append(card)
            if self._first_seat is None and s == 0:
                self._first_seat = seat  # the derived DEAL-9 misdeal names DEAL-8 as well
            return
        if seat not in self.live and (s > 0 or self.deal_done):
            # a folded or killed hand gets no more cards (DEAL-44 in stud; DEAL-5 in general)
            self.aside.append(card)
            rules = ("DEAL-44",) if self.plan.family == FAMILY_STUD else ("DEAL-5",)
            self._add(Finding("card_to_dead_hand", rules, ENGINE,
                              "draw %d went to seat %d, which holds no live hand" % (n, seat),
                              "a dead hand gets no more cards: take the card away; the floor decides its use",
                              draw=n, seat=seat, cards=(card,)), out)
            return
        if self._owed.get(seat, 0) > 0:
            self._owed[seat] -= 1
            self.holes[seat].append(card)
            if self.phase == DEALING and s > 0 and self.street_plan(s).hole and not self.street_plan(s).draw:
                self._served[seat] = True
            self._last_seat = seat if s == 0 else self._last_seat
            self._maybe_complete(out)
            return
        if s == 0 and self.phase == BETTING and not self._street_acted and len(self.holes[seat]) < self._expect[seat]:
            # the deal ended at the button's last card with this seat short (DEAL-2): a late card fills
            # its count -- a pending give_card (DEAL-10 cash) then lapses; a misdeal stays (DEAL-9)
            self.holes[seat].append(card)
            return
        if self.phase == DEALING and s == 0:
            self._initial_card(n, card, seat, out)
            return
        if self.phase == BETTING:
            t = s + 1
            if (t < len(self.plan.streets) and self.plan.family == FAMILY_STUD and self.street_plan(t).hole
                    and seat in self.live):
                self._premature(t, n, card, seat, out)
                return
        elif self.street_plan(s).hole and not self.street_plan(s).draw:
            self._stud_card(n, card, seat, out)
            return
        self._extra_card(seat, card)

    def _extra_card(self, seat, card):
        self.holes[seat].append(card)
        self._extra.setdefault(seat, []).append(card)

    def _initial_card(self, n, card, seat, out):
        seats = self.plan.seats
        if self._first_seat is None:
            self._first_seat = seat
            if seat != seats[0]:
                btn = seats[seats.index(seat) - 1]
                self._misdeal(("DEAL-8", "DEAL-12"), "the first card (draw %d) went to seat %d, not seat %d: the deal "
                              "started as if the button were on seat %d" % (n, seat, seats[0], btn), out, draw=n,
                              seat=seat)
        else:
            expected = self._next_seat()
            btn = self.plan.button
            skip_ok = expected == btn or (seat == btn and self._last_seat == btn)  # DEAL-23
            if expected is not None and seat != expected and not skip_ok and not self._misdeal_pending():
                self._add(Finding("out_of_order", ("DEAL-2",), ENGINE, "draw %d went to seat %d, expected seat %d" % (
                    n, seat, expected), "continue; the seat counts are checked at the end of the deal",
                    draw=n, seat=seat), out)
        if len(self.holes[seat]) >= self._expect[seat]:
            self._extra_card(seat, card)
        else:
            self.holes[seat].append(card)
        two = seat == self._last_seat
        self._last_seat = seat
        self._maybe_complete(out)
        self._button_last_card(n, seat, two, out)

    def _button_last_card(self, n, seat, two, out):
        # DEAL-2: the button receives the last card of every round, so its last card ends the initial
        # deal even when a seat was passed over: the counts are checked now (DEAL-26) and a seat left
        # short is a misdeal before SA (DEAL-9, DEAL-10) instead of a card the table waits for forever.
        # DEAL-23: the button's last two cards in a row are no misdeal.
        btn = self.plan.button
        if seat != btn or len(self.holes[btn]) < self._expect[btn]:
            return
        if two and self.draws[n - 2][1] == btn and self.plan.rounds > 1 and not self._extra.get(btn):
            self._add(Finding("button_two_cards", ("DEAL-23",), ENGINE, "the button (seat %d) received two cards "
                              "in a row (draws %d and %d)" % (btn, n - 1, n), "no misdeal: the deal stands", draw=n,
                              seat=btn), out)
        if not self.deal_done:
            self._deal_complete(out)

    def _next_seat(self):
        # DEAL-2: clockwise from the seat after the last one served, skipping seats already full
        seats = self.plan.seats
        start = 0 if self._last_seat is None else seats.index(self._last_seat) + 1
        for i in range(len(seats)):
            seat = seats[(start + i) % len(seats)]
            if len(self.holes[seat]) + self._owed.get(seat, 0) < self._expect[seat]:
                return seat
        return None

    def _stud_card(self, n, card, seat, out):
        s = self.street
        if len(self._street_burns.get(s, ())) < self._need_burn(s):
            self._note(("noburn", s), Finding("missing_burn", ("DEAL-3",), ENGINE, "%s dealt without a burn" %
                                              self.street_name(), "one burn precedes every later street", draw=n), out)
        if self._served.get(seat):
            self._extra_card(seat, card)
            return
        expected = None
        for live_seat in self.plan.seats:
            if live_seat in self.live and not self._served.get(live_seat):
                expected = live_seat
                break
        if expected is not None and seat != expected:
            self._add(Finding("out_of_order", ("DEAL-2",), ENGINE, "draw %d went to seat %d, expected seat %d" % (
                n, seat, expected), "continue; every live seat gets one card", draw=n, seat=seat), out)
        self._served[seat] = True
        self.holes[seat].append(card)
        self._maybe_complete(out)

    def _maybe_complete(self, out):
        if self.phase != DEALING:
            return
        s = self.street
        plan = self.street_plan(s)
        if s == 0:
            total = 0
            for seat in self.plan.seats:
                total += len(self.holes[seat]) + self._owed.get(seat, 0)
            if total >= self.plan.rounds * len(self.plan.seats):
                self._deal_complete(out)
            return
        if self._rebuild is not None and self._rebuild.status == PROPOSED:
            return
        if plan.draw:
            for seat in self.live:
                if not self._drew.get(seat) or self._owed.get(seat, 0):
                    return
        elif plan.hole:
            for seat in self.live:
                if not self._served.get(seat):
                    return
        if plan.board and len(self.board) < self._board_target(s):
            return
        self.phase = BETTING
        self._complete_draw = len(self.draws)

    def _deal_complete(self, out):
        if self.deal_done:
            return
        self.deal_done = True
        if self.phase == DEALING and self.street == 0:
            self.phase = BETTING
            self._complete_draw = len(self.draws)
        counts = {}
        for seat in self.plan.seats:
            counts[seat] = len(self.holes[seat])
        self._add(Finding("deal_complete", ("DEAL-2", "DEAL-26"), ENGINE, "initial deal complete: " + ", ".join(
            "seat %d %d" % (s, counts[s]) for s in self.plan.seats), detail={"counts": counts}), out)
        if self.rules.presence_check == "seat_button" and self.rules.mode != CASH:
            for seat in self.live:
                if not self._present.get(seat):
                    self.absent(seat, _out=out)


for _name in _RARE:
    setattr(DealDraws, _name, _rare(_name))
