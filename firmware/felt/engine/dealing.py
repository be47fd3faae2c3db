# Dealing check (engine layer, pure): follows each card leaving the shoe and where it lands against a
# dealing plan (dealplan.py) and reports RULES.md §6 findings (DEAL-1..49): misdeals, fouled deck,
# boxed / exposed / extra / foreign cards, burn errors, premature and four-card boards, rabbit hunting.
# ASSIST findings are proposals: confirm() / reject() apply them and return the dealer's instructions.
from felt.engine.dealplan import (APPLIED, ASSIST, BOARD, BURN, CONFIRMED, ENGINE, FAMILY_BOARD, FAMILY_DRAW,  # noqa: F401
                                   FAMILY_STUD, FLOOR, FOREIGN, INFO, LAPSED, MUCK, PROPOSED, REJECTED, STUB,
                                   Finding, Plan, StreetPlan, card_text, cards_text, plan_from_dict,
                                   seventh_street)
from felt.engine.settings import CASH, HouseRules, from_dict
from felt.errors import RuleError

# DealCheck.phase
DEALING = "dealing"  # the current street's cards are being dealt
BETTING = "betting"  # the current street's cards are out; its betting is open
SHOWDOWN = "showdown"  # the last street's betting closed
OVER = "over"  # the hand ended; a draw now is rabbit hunting (DEAL-49)
MISDEALT = "misdealt"  # a confirmed misdeal: redeal with redeal_plan() (DEAL-14)
VOID = "void"  # a confirmed fouled deck or void hand: every bet returned (DEAL-18, DEAL-19)

ACTIONS = ("fold", "check", "call", "bet", "raise", "complete", "allin")
FORCED = ("post", "bring_in")  # forced bets are not actions for SA (DEAL-6)
_CHIP_ACTIONS = ("call", "bet", "raise", "complete", "allin")

_FOREIGN_KINDS = ("foreign_replace", "foreign_scrap", "void_hand")


class DealCheck:
    """Checks one hand's dealing. plan: a dealplan.Plan or its plain dict; rules: settings.HouseRules
    (or a dict for settings.from_dict; default cash defaults). One DealCheck per hand (a redeal after a
    misdeal gets a new one built from redeal_plan()).

    Feed the physical events in the order they happen; each call returns the list of new or changed
    Findings (a proposal that lapses is returned again with status LAPSED):
      card(card, place)        a shoe draw landing at a seat, BOARD, BURN, MUCK or None (nowhere = burn)
      foreign(place)           a draw of a non-standard card (or one found in the STUB)
      action(seat, kind, chips)  an in-turn action (ACTIONS; FORCED posts do not count for SA)
      betting_closed()         the current street's betting is complete (GAME-5)
      discard(seat, cards)     draw games: a player's discards (() = stands pat)
      mark_boxed(draw) / mark_exposed(draw)   console marks on a shoe draw (1-based index)
      absent(seat) / present(seat) / kill(seat) / reshuffled(include) / end_of_deal() / hold() /
      release() / hand_over()
    ASSIST findings come with status PROPOSED: confirm(id, card=None) applies the remedy and returns the
    resulting instructions (APPLIED findings); reject(id) keeps the cards as they are. Queries: phase,
    street, sa, live, holding(seat), board, burns, where(card), stub_candidates(), pending()."""

    def __init__(self, plan, rules=None):
        self.plan = plan if isinstance(plan, Plan) else plan_from_dict(plan)
        if rules is None:
            rules = HouseRules(CASH)
        elif isinstance(rules, dict):
            rules = from_dict(rules)
        self.rules = rules
        self.findings = []
        self.draws = []  # [(card, place)] in shoe order; draw n is draws[n - 1]
        self.holes = {}  # seat -> logical cards (FOREIGN for a foreign card)
        self.board = []  # logical board
        self.burns = []  # logical burns, all streets
        self.muck = []
        self.aside = []  # boxed, set-aside premature, scrapped cards
        self.phase = DEALING
        self.street = 0
        self.deal_done = False
        self.sa = False
        self.live = [s for s in self.plan.seats if s not in self.plan.dead]
        self._killed = list(self.plan.dead)
        self._absent_killed = []
        self._out = {}  # card -> True while out of the stub (DEAL-18, DEAL-34)
        self._expect = {}
        for s in self.plan.seats:
            self._expect[s] = self.plan.rounds
            self.holes[s] = []
        self._owed = {}  # seat -> replacement cards the seat is due
        self._extra = {}  # seat -> cards that arrived when the seat was already full
        self._credit = {}  # street -> burns already supplied before it starts (DEAL-16/21/27/30..32)
        self._street_draws = []  # [(draw, card, place)] burns/board cards of the current street
        self._street_burns = {}  # street -> burn cards drawn for it
        self._early_board = []  # premature board cards, physically on the board, not counting
        self._early_seat = []  # premature stud cards [(seat, card)], physically at the seat
        self._keep_early = {}  # street -> True: a rejected premature proposal, its cards stand
        self._aside_return = {}  # street -> cards shuffled back into the stub when it starts
        self._setting_aside = None  # DEAL-45 tda2017: street whose cards go aside while betting
        self._override = {}  # street -> StreetPlan (DEAL-46 community card)
        self._served = {}  # seat -> True: got its card on the current stud street
        self._drew = {}  # seat -> True: drew on the current draw street
        self._drawer = None
        self._first_seat = None
        self._last_seat = None
        self._boxed = []
        self._exposed = []
        self._stud_up = {}  # seat -> count of exposed downcards that became upcards (DEAL-42)
        self._problems = {}  # key -> derived proposal
        self._rejected = {}
        self._early_f = None  # the open premature-cards proposal
        self._rebuild = None  # pending DEAL-28/29 proposal of the current street
        self._four = None
        self._complete_draw = 0  # draw count when the current street's cards were complete
        self._n = 0
        self._chips = 0
        self._acted = {}
        self._street_acted = False
        self._noted = {}
        self._present = {}
        self.held = False  # TOUR-10: hand-for-hand all-in, no cards until the TD says continue

    # ---------------------------------------------------------------- queries

    def street_plan(self, street=None):
        street = self.street if street is None else street
        return self._override.get(street) or self.plan.streets[street]

    def street_name(self, street=None):
        return self.plan.street_name(self.street if street is None else street)

    def holding(self, seat):
        return tuple(self.holes.get(seat, ()))

    def pending(self):
        return [f for f in self.findings if f.status == PROPOSED]

    def stub_candidates(self):
        """DEAL-34: the cards that can still come out of the shoe (deck minus every card seen)."""
        return [c for c in self.plan.deck if c not in self._out]

    def where(self, card):
        """DEAL-37/40/48: where the tag log puts `card`: a seat number, BOARD, BURN, MUCK, "aside", or
        None (in the stub)."""
        for seat in sorted(self.holes):
            if card in self.holes[seat]:
                return seat
        for seat, c in self._early_seat:
            if c == card:
                return seat
        if card in self.board or card in self._early_board:
            return BOARD
        if card in self.burns:
            return BURN
        if card in self.muck:
            return MUCK
        if card in self.aside:
            return "aside"
        return None

    def redeal_plan(self):
        """DEAL-14: the plan of the redeal after a confirmed misdeal: same seats, same button, and the
        seats on penalty or absent for the original deal dealt in again and killed."""
        dead = list(self.plan.dead)
        for s in self._absent_killed:
            if s not in dead:
                dead.append(s)
        dead.sort()
        return Plan(self.plan.seats, self.plan.streets, self.plan.button, tuple(dead), self.plan.deck,
                    self.plan.family)

    # ---------------------------------------------------------------- helpers

    def _add(self, f, out):
        f.id = len(self.findings) + 1
        if f.street is None:
            f.street = self.street
        self.findings.append(f)
        out.append(f)
        return f

    def _note(self, key, f, out):
        # an INFO finding given once per key
        if key in self._noted:
            return None
        self._noted[key] = True
        return self._add(f, out)

    def _alive(self):
        if self.phase == MISDEALT:
            raise RuleError("DEAL-14", "the hand was misdealt; deal it again with a new check (redeal_plan())")
        if self.phase == VOID:
            raise RuleError("DEAL-18", "the hand is void; every bet is returned")

    def _lapse(self, f, why, out):
        if f.status == PROPOSED:
            f.status = LAPSED
            f.remedy = why
            out.append(f)

    def _need_burn(self, street):
        return max(0, self.street_plan(street).burn - self._credit.get(street, 0))

    def _take_out(self, card, where):
        if card in where:
            where.remove(card)
            return True
        return False

    def _remove_logical(self, card):
        # take `card` out of wherever the log puts it; returns the place it was in
        for seat in sorted(self.holes):
            if card in self.holes[seat]:
                self.holes[seat].remove(card)
                if card in self._extra.get(seat, ()):
                    self._extra[seat].remove(card)
                return seat
        if self._take_out(card, self.board):
            return BOARD
        if self._take_out(card, self._early_board):
            return BOARD
        if self._take_out(card, self.burns):
            for s in self._street_burns:
                self._take_out(card, self._street_burns[s])
            return BURN
        if self._take_out(card, self.muck):
            return MUCK
        if self._take_out(card, self.aside):
            return "aside"
        return None  # in the stub (e.g. reshuffled back): nothing to move

    def _seat_of(self, card):
        for seat in sorted(self.holes):
            if card in self.holes[seat]:
                return seat
        return None

    def _to_stub(self, cards):
        for c in cards:
            if c in self._out:
                del self._out[c]

    def _propose(self, kind, rules, text, remedy, out, draw=None, seat=None, cards=(), misdeal=False, detail=None):
        f = Finding(kind, rules, ASSIST, text, remedy, PROPOSED, draw, seat, cards, detail)
        f.misdeal = misdeal
        return self._add(f, out)

    def _misdeal(self, rules, text, out, draw=None, seat=None, cards=()):
        remedy = ("misdeal: collect all cards and redeal the same hand -- button stays on seat %d, blinds "
                  "returned and re-posted, same stakes, nobody new dealt in (DEAL-14)" % self.plan.button)
        return self._propose("misdeal", rules, text, remedy, out, draw, seat, cards, misdeal=True)

    def _misdeal_pending(self):
        for f in self.findings:
            if f.misdeal and f.status == PROPOSED:
                return True
        return False

    # ---------------------------------------------------------------- shoe draws

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
                          card_text(card), n, _place_text(first)),
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
                self._add(Finding("early_burn", _premature_rules(self.plan.family, t), ENGINE,
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
            rules = (_premature_rules(fam, t)[0], "DEAL-33")
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
        self._last_seat = seat
        self._maybe_complete(out)

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

    # ---------------------------------------------------------------- derived count problems

    def _derive(self, out):
        if self.phase in (MISDEALT, VOID, OVER, SHOWDOWN):
            return
        want = {}
        self._count_problems(want)
        for key in sorted(self._problems):
            if key not in want:
                f = self._problems.pop(key)
                self._lapse(f, "no longer applies: the seat counts changed", out)
        for key in sorted(want):
            if key in self._problems or key in self._rejected:
                continue
            f = want[key](out)
            f.key = key
            self._problems[key] = f

    def _count_problems(self, want):
        for seat in sorted(self.holes):
            if seat not in self.plan.seats and self.holes[seat]:
                want[("not_dealt_in", seat)] = self._builder_not_dealt_in(seat)
        if not (self.deal_done or self.street > 0):
            return
        plan = self.street_plan()
        in_progress = self.phase == DEALING and self.street > 0 and (plan.hole or plan.draw)
        over = []
        under = []
        foreign = {}
        for f in self.findings:  # a pending foreign-card proposal settles that seat's count itself
            if f.status == PROPOSED and f.seat is not None and (f.kind in _FOREIGN_KINDS or "DEAL-13" in f.rules):
                foreign[f.seat] = True
        for seat in self.plan.seats:
            if seat not in self.live or seat in foreign:
                continue
            have = len(self.holes[seat]) + self._owed.get(seat, 0)
            if have > self._expect[seat]:
                over.append((seat, have - self._expect[seat]))
            elif have < self._expect[seat] and not in_progress:
                under.append((seat, self._expect[seat] - have))
        if not over and not under:
            return
        btn = self.plan.button
        if self.sa:
            for seat, k in over:
                want[("dead", seat)] = self._builder_dead(seat, "holds %d card(s) too many" % k, ("DEAL-25",))
            for seat, k in under:
                if seat == btn and not self._acted.get(seat):
                    want[("button_short", seat)] = self._builder_give(seat, k, ("DEAL-24",))
                else:
                    rules = ("DEAL-24",) if seat == btn else ("DEAL-25",)
                    want[("dead", seat)] = self._builder_dead(seat, "holds %d card(s) too few" % k, rules)
            return
        extra = 0
        for seat, k in over:
            extra += k
        if over and not under and extra == 1 and self._n == 0 and self.street == 0:
            want[("extra_card", over[0][0])] = self._builder_extra(over[0][0])
            return
        misdeal = []
        for seat, k in under:
            if seat == btn:
                if self._acted.get(seat):
                    want[("button_dead", seat)] = self._builder_dead(seat, "acted holding too few cards", ("DEAL-24",))
                else:
                    want[("button_short", seat)] = self._builder_give(seat, k, ("DEAL-24",))
            elif self.rules.mode == CASH and not over and self.holes[seat]:
                # DEAL-10 cash exception; a seat left with no card at all was skipped (DEAL-9)
                want[("give", seat)] = self._builder_give(seat, k, ("DEAL-10",))
            else:
                misdeal.append((seat, -k))
        for seat, k in over:
            misdeal.append((seat, k))
        if misdeal:
            misdeal.sort()
            want[("misdeal", tuple(misdeal))] = self._builder_count_misdeal(misdeal)

    def _builder_not_dealt_in(self, seat):
        def build(out):
            if self.sa:
                return self._add(Finding("not_dealt_in", ("DEAL-5",), ENGINE, "seat %d is not dealt in but holds "
                                         "cards" % seat, "take the cards away from seat %d" % seat, seat=seat), out)
            rules = ("DEAL-8", "DEAL-9") if seat == self._first_seat else ("DEAL-9",)
            return self._misdeal(rules, "a card went to seat %d, which is not dealt in" % seat, out, seat=seat)
        return build

    def _builder_dead(self, seat, why, rules):
        def build(out):
            return self._propose("dead_hand", rules, "seat %d %s after substantial action" % (seat, why),
                                 "seat %d's hand is dead: muck it; the hand goes on from the stub with one burn per "
                                 "street, and no card of the dead hand is used as a burn" % seat, out, seat=seat)
        return build

    def _builder_give(self, seat, k, rules):
        def build(out):
            return self._propose("give_card", rules, "seat %d is %d card(s) short" % (seat, k),
                                 "deal seat %d %d card(s) from the stub now, before the next burn" % (seat, k), out,
                                 seat=seat, detail={"count": k})
        return build

    def _builder_extra(self, seat):
        def build(out):
            extra = self._extra.get(seat) or self.holes[seat][-1:]
            card = extra[0]
            text = "one extra card (%s) dealt to seat %d before any action" % (card_text(card), seat)
            if self.rules.single_extra_card == "misdeal":
                return self._misdeal(("DEAL-16", "DEAL-10"), text, out, seat=seat, cards=(card,))
            return self._propose("extra_card_burn", ("DEAL-16",), text,
                                 "take %s from seat %d; it is the next burn: deal the %s without burning another "
                                 "card" % (card_text(card), seat, self.street_name(1)), out, seat=seat, cards=(card,))
        return build

    def _builder_count_misdeal(self, problems):
        def build(out):
            parts = []
            rules = ["DEAL-10"]
            for seat, k in problems:
                have = len(self.holes[seat])
                if have == 0 and "DEAL-9" not in rules:
                    rules.append("DEAL-9")
                parts.append("seat %d holds %d card(s) (%s%d)" % (seat, have, "+" if k > 0 else "", k))
            return self._misdeal(tuple(rules), "wrong number of cards before substantial action: " + ", ".join(parts),
                                 out)
        return build

    # ---------------------------------------------------------------- actions and streets

    def action(self, seat, kind, chips=0):
        """An in-turn action (GAME-16) by `seat`; forced bets ("post", "bring_in") do not count for SA.
        Out-of-turn actions are not fed here."""
        self._alive()
        if kind not in ACTIONS and kind not in FORCED:
            raise RuleError("GAME-16", "unknown action %r" % (kind,), legal=ACTIONS + FORCED)
        if seat not in self.plan.seats:
            raise RuleError("DEAL-5", "seat %r is not dealt in" % (seat,), legal=self.plan.seats)
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise RuleError("BET-49", "chips must be a whole amount >= 0, got %r" % (chips,))
        out = []
        if self.phase in (OVER, SHOWDOWN):
            return out
        if not self.deal_done:
            self._deal_complete(out)
        if kind in FORCED:
            self._derive(out)
            return out
        self._n += 1
        if kind in _CHIP_ACTIONS or chips > 0:
            self._chips += 1
        self._acted[seat] = True
        self._street_acted = True
        if self._rebuild is not None and self._rebuild.status == PROPOSED:
            self._lapse(self._rebuild, "betting has begun on the %s: the cards stand; the next street gets one burn"
                        % self.street_name(), out)
            self._maybe_complete(out)
        self._foreign_acted(seat, out)
        if kind == "fold" and seat in self.live:
            self.live.remove(seat)
        if not self.sa and self._sa_reached():
            self._on_sa(out)
        if len(self.live) <= 1:
            self._end(out, "the hand is over: one live hand remains (GAME-6)")
            return out
        self._derive(out)
        return out

    def _sa_reached(self):
        # DEAL-6: tda = two actions of which one commits chips, or any three; two_actions = any two
        if self.rules.sa_definition == "two_actions":
            return self._n >= 2
        return self._n >= 3 or (self._n >= 2 and self._chips >= 1)

    def _on_sa(self, out):
        self.sa = True
        self._add(Finding("substantial_action", ("DEAL-6", "DEAL-15"), ENGINE,
                          "substantial action (%s)" % self.rules.sa_definition,
                          "no misdeal can be declared from now on (except a fouled deck)"), out)
        for f in self.findings:
            if f.misdeal and f.status == PROPOSED:
                self._lapse(f, "substantial action: no misdeal (DEAL-15)", out)
                if f.kind == "misdeal" and "DEAL-13" in f.rules:
                    self._foreign_after_sa(f.seat, f.detail.get("place"), out)

    def betting_closed(self):
        """The current street's betting round is complete (GAME-5); the next street may be dealt."""
        self._alive()
        out = []
        if self.phase in (OVER, SHOWDOWN):
            return out
        if not self.deal_done:
            self._deal_complete(out)
        s = self.street
        if s + 1 >= len(self.plan.streets):
            self.phase = SHOWDOWN
            return out
        t = s + 1
        self.street = t
        self.phase = DEALING
        self._street_draws = []
        self._served = {}
        self._drew = {}
        self._drawer = None
        self._street_acted = False
        self._rebuild = None
        self._four = None
        if self._setting_aside == t:
            self._setting_aside = None
        back = self._aside_return.pop(t, None)
        if back:
            for c in back:
                self._take_out(c, self.aside)
            self._to_stub(back)
            self._add(Finding("reshuffle", ("DEAL-31", "DEAL-34"), ENGINE, "before the %s" % self.street_name(t),
                              "shuffle %s into the stub (not the burns), reload the shoe, and deal the %s without a "
                              "burn" % (cards_text(back), self.street_name(t)), status=APPLIED, cards=back), out)
        if self._keep_early.pop(t, False):
            self._adopt_early(t)
        plan = self.street_plan(t)
        if plan.hole and self.plan.family == FAMILY_STUD:
            if t == len(self.plan.streets) - 1:
                self._check_short_stub(out)
            plan = self.street_plan(t)
            if plan.hole:
                for seat in self.live:
                    self._expect[seat] += len(plan.hole)
        self._maybe_complete(out)
        self._derive(out)
        return out

    def _adopt_early(self, t):
        # a rejected premature proposal: its cards stand as the street's cards
        for c in self._early_board:
            self.board.append(c)
        self._early_board = []
        for seat, c in self._early_seat:
            self.holes[seat].append(c)
            self._served[seat] = True
        self._early_seat = []

    def _check_short_stub(self, out):
        stub = len(self.stub_candidates())
        players = len(self.live)
        branch = seventh_street(stub, players)
        if branch == "deal":
            return
        texts = {
            "A": "scramble the stub with the 4th-6th street burns and cut; burn one card and deal each player one",
            "B": "burn the top card and deal the next face up as a community card for every player",
            "C": "scramble the stub with the 4th-6th street burns and cut; burn one card and deal one community card",
        }
        f = self._propose("short_stub", ("DEAL-46",), "%s: the stub holds %d cards for %d players (need %d)" % (
            self.street_name(), stub, players, players + 2), texts[branch] + "; the first to act on 6th street acts "
            "first again" if branch != "A" else texts[branch], out, detail={"branch": branch})
        f.street = self.street

    def hold(self):
        """TOUR-10: hand-for-hand, an all-in was called: cards stay face down and nothing more is dealt
        until release(). Every draw meanwhile is alarmed and not placed."""
        self._alive()
        self.held = True
        return [self._add(Finding("hold", ("TOUR-10",), ENGINE, "all-in during hand-for-hand", "HOLD -- await "
                                  "the TD; cards stay face down", status=APPLIED), [])]

    def release(self):
        """TOUR-10: the TD says continue."""
        self._alive()
        self.held = False
        return []

    def hand_over(self):
        """The hand has ended (pot awarded or everyone folded); later draws are rabbit hunting (DEAL-49)."""
        self._alive()
        out = []
        self._end(out, "the hand is over")
        return out

    def _end(self, out, why):
        self.phase = OVER
        for f in self.findings:
            if f.status == PROPOSED:
                self._lapse(f, why, out)
        self._problems = {}

    # ---------------------------------------------------------------- console marks

    def _draw(self, draw):
        if isinstance(draw, bool) or not isinstance(draw, int) or draw < 1 or draw > len(self.draws):
            raise RuleError("DEAL-17", "draw %r does not exist" % (draw,), legal=(1, len(self.draws)))
        return self.draws[draw - 1]

    def mark_boxed(self, draw):
        """The dealer marks shoe draw `draw` as found face up in the deck (DEAL-7, DEAL-17)."""
        self._alive()
        card, place = self._draw(draw)
        if draw in self._boxed:
            raise RuleError("DEAL-17", "draw %d is already marked boxed" % draw)
        self._boxed.append(draw)
        out = []
        initial = self.street == 0 and not self.sa
        if initial and len(self._boxed) >= self.rules.boxed_misdeal_threshold:
            self._misdeal(("DEAL-7",), "%d boxed cards on the initial deal (draws %s)" % (
                len(self._boxed), ", ".join(str(d) for d in self._boxed)), out, draw=draw, cards=(card,))
            return out
        if isinstance(place, int):
            remedy = ("set %s aside; seat %d receives a replacement at the end of the dealing round" % (
                card_text(card), place))
        else:
            remedy = "set %s aside as if it were not there; the next card takes its place" % card_text(card)
        self._propose("boxed_card", ("DEAL-17",), "%s (draw %d) was face up in the deck" % (card_text(card), draw),
                      remedy, out, draw=draw, seat=place if isinstance(place, int) else None, cards=(card,))
        return out

    def mark_exposed(self, draw, betting_remains=True):
        """The dealer marks that draw `draw` was exposed by a dealer error (DEAL-11, DEAL-21, DEAL-22,
        DEAL-42, DEAL-43). `betting_remains`: for stud 7th street (DEAL-43)."""
        self._alive()
        card, place = self._draw(draw)
        out = []
        seat = place if isinstance(place, int) else None
        if seat is None or card not in self.holes.get(seat, ()):
            self._add(Finding("exposed_recorded", ("DEAL-22",), FLOOR, "%s (draw %d) recorded as exposed" % (
                card_text(card), draw), "no mechanical remedy; the floor rules", draw=draw, cards=(card,)), out)
            return out
        initial = self.street == 0
        if self.plan.family == FAMILY_STUD:
            self._stud_exposed(draw, card, seat, initial, betting_remains, out)
            return out
        if initial and not self.sa:
            self._exposed.append(draw)
            if draw <= 2 or len(self._exposed) >= 2:
                why = "one of the first two cards off the deck" if draw <= 2 else "a second exposed downcard"
                self._misdeal(("DEAL-11",), "%s (draw %d) was exposed: %s" % (card_text(card), draw, why), out,
                              draw=draw, seat=seat, cards=(card,))
            else:
                self._propose("exposed_card", ("DEAL-21",), "%s (draw %d, seat %d) was exposed during the deal" % (
                    card_text(card), draw, seat),
                    "finish the deal; then seat %d receives the next card and %s becomes the %s burn (no extra burn)"
                    % (seat, card_text(card), self.street_name(1)), out, draw=draw, seat=seat, cards=(card,))
            return out
        self._add(Finding("exposed_recorded", ("DEAL-22",), FLOOR, "%s (draw %d, seat %d) recorded as exposed" % (
            card_text(card), draw, seat), "the card stays in play; the floor rules", draw=draw, seat=seat,
            cards=(card,)), out)
        return out

    def _stud_exposed(self, draw, card, seat, initial, betting_remains, out):
        idx = self.holes[seat].index(card)
        pattern = []
        for i in range(len(self.plan.streets)):
            pattern.extend(self.street_plan(i).hole)
        up = pattern[idx] if idx < len(pattern) else False
        last = self.street == len(self.plan.streets) - 1
        if up:
            self._add(Finding("exposed_recorded", ("DEAL-22",), FLOOR, "%s is an upcard anyway" % card_text(card),
                              "nothing to do", draw=draw, seat=seat, cards=(card,)), out)
        elif initial and not self.sa:
            mode = self.rules.stud_exposed_downcard
            before = self._stud_up.get(seat, 0)
            self._stud_up[seat] = before + 1
            if mode == "tda2004" or (mode == "tda2017" and before >= 1):
                self._misdeal(("DEAL-42",), "%s (draw %d), a downcard of seat %d, was exposed (%s)" % (
                    card_text(card), draw, seat, mode), out, draw=draw, seat=seat, cards=(card,))
            else:
                self._propose("stud_exposed_downcard", ("DEAL-42",), "%s (draw %d), a downcard of seat %d, was exposed"
                              % (card_text(card), draw, seat),
                              "%s becomes seat %d's upcard and its 3rd-street card is dealt face down; seat %d may "
                              "be the bring-in" % (card_text(card), seat, seat), out, draw=draw, seat=seat,
                              cards=(card,))
        elif last and betting_remains:
            self._propose("seventh_street_exposed", ("DEAL-43",), "%s (draw %d), seat %d's 7th-street card, was "
                          "exposed" % (card_text(card), draw, seat),
                          "set %s aside and give seat %d the next card face down" % (card_text(card), seat), out,
                          draw=draw, seat=seat, cards=(card,))
        else:
            self._add(Finding("exposed_recorded", ("DEAL-22", "DEAL-43"), FLOOR, "%s (draw %d) recorded as exposed"
                              % (card_text(card), draw), "the card stays in play", draw=draw, seat=seat,
                              cards=(card,)), out)

    def foreign(self, place):
        """A non-standard card (joker, other deck or back; UnknownTag / ForeignDeckCard from the deck
        registry) was drawn to `place` (a seat, BOARD, BURN or None), or found in the STUB (DEAL-13,
        DEAL-19, DEAL-20)."""
        self._alive()
        out = []
        if place == STUB:
            self._add(Finding("foreign_in_stub", ("DEAL-19",), ENGINE, "a foreign card was found in the stub",
                              "remove it; play continues", status=APPLIED), out)
            return out
        place = self._check_place(place)
        self.draws.append((FOREIGN, place))
        n = len(self.draws)
        if isinstance(place, int):
            if self.phase == DEALING and self.street == 0 and place in self.plan.seats:
                self._initial_card(n, FOREIGN, place, out)
            else:
                self.holes.setdefault(place, []).append(FOREIGN)
        elif place == BOARD:
            self.board.append(FOREIGN)
        else:
            self.aside.append(FOREIGN)
            self._add(Finding("foreign_card", ("DEAL-19",), ENGINE, "draw %d is a foreign card" % n,
                              "remove it; it is not a burn", draw=n, status=APPLIED), out)
            return out
        seat = place if isinstance(place, int) else None
        cash = self.rules.mode == CASH
        if seat is not None and cash and not self._acted.get(seat):
            self._propose("foreign_replace", ("DEAL-20",), "seat %d holds a foreign card (draw %d)" % (seat, n),
                          "remove the foreign card; seat %d receives the next card from the stub" % seat, out,
                          draw=n, seat=seat)
        elif not self.sa:
            f = self._misdeal(("DEAL-13",), "a foreign card (draw %d) at %s before substantial action" % (
                n, _place_text(place)), out, draw=n, seat=seat)
            f.detail["place"] = place
        else:
            self._foreign_after_sa(seat, place, out)
        self._derive(out)
        return out

    def _foreign_after_sa(self, seat, place, out):
        where = _place_text(place)
        if self.rules.foreign_card_after_sa == "void_refund":
            self._propose("void_hand", ("DEAL-19",), "a foreign card at %s after substantial action" % where,
                          "the hand is void: every player gets back what they put in", out, seat=seat)
        else:
            self._propose("foreign_scrap", ("DEAL-19",), "a foreign card at %s after substantial action" % where,
                          "disregard it like a scrap of paper: remove it%s" % (
                              " (seat %d is then short and dead, DEAL-25)" % seat if seat is not None else
                              "; the next stub card takes its place"), out, seat=seat, detail={"place": place})

    def _foreign_acted(self, seat, out):
        for f in self.findings:
            if f.kind == "foreign_replace" and f.status == PROPOSED and f.seat == seat:
                self._lapse(f, "seat %d acted holding the foreign card" % seat, out)
                self._propose("dead_hand", ("DEAL-20",), "seat %d bet with a foreign card" % seat,
                              "seat %d's hand is dead: muck it" % seat, out, seat=seat)

    def absent(self, seat, _out=None):
        """DEAL-39: seat `seat` was not at the table when the last card of the initial deal landed."""
        self._alive()
        out = [] if _out is None else _out
        if seat not in self.plan.seats:
            raise RuleError("DEAL-39", "seat %r is not dealt in" % (seat,), legal=self.plan.seats)
        if self.rules.mode == CASH:
            remedy = "absent players are not dealt in: remove seat %d's cards" % seat
        else:
            remedy = "seat %d's hand is dead; its blinds and antes stay in the pot" % seat
        self._propose("absent", ("DEAL-39",), "seat %d is absent at the end of the deal" % seat, remedy, out,
                      seat=seat)
        return out

    def present(self, seat):
        """DEAL-39 under hr.presence_check = seat_button: seat `seat` pressed its button during the deal."""
        self._present[seat] = True
        return []

    def kill(self, seat, rule="DEAL-38"):
        """A hand killed by a console ruling (DEAL-38 and others): it gets no further cards (DEAL-44)."""
        self._alive()
        if seat not in self.plan.seats:
            raise RuleError(rule, "seat %r is not dealt in" % (seat,), legal=self.plan.seats)
        out = []
        self._kill(seat)
        self._add(Finding("hand_killed", (rule,), ENGINE, "seat %d's hand is dead" % seat, "", seat=seat,
                          status=APPLIED), out)
        if len(self.live) <= 1 and self.phase not in (OVER, SHOWDOWN):
            self._end(out, "the hand is over: one live hand remains (GAME-6)")
        else:
            self._derive(out)
        return out

    def _kill(self, seat):
        if seat not in self._killed:
            self._killed.append(seat)
        if seat in self.live:
            self.live.remove(seat)
        for c in self.holes.get(seat, ()):
            if c != FOREIGN:
                self.muck.append(c)
        if seat in self.holes:
            self.holes[seat] = []
        self._owed[seat] = 0

    def discard(self, seat, cards):
        """DEAL-47: on a draw street, `seat` discards `cards` (() = stands pat)."""
        self._alive()
        s = self.street
        if not self.street_plan(s).draw or self.phase != DEALING:
            raise RuleError("DEAL-47", "no draw is in progress")
        if seat not in self.live:
            raise RuleError("DEAL-47", "seat %r holds no live hand" % (seat,), legal=tuple(self.live))
        if self._drew.get(seat):
            raise RuleError("DEAL-47", "seat %d has already drawn" % seat)
        for c in cards:
            if c not in self.holes[seat]:
                raise RuleError("DEAL-47", "%s is not in seat %d's hand" % (card_text(c), seat))
        out = []
        if len(self._street_burns.get(s, ())) < self._need_burn(s):
            self._note(("draw_noburn", s), Finding("missing_burn", ("DEAL-47", "DEAL-3"), ENGINE,
                                                   "the draw began without a burn",
                                                   "burn one card before the first replacement"), out)
        expected = None
        for live_seat in self.plan.seats:
            if live_seat in self.live and not self._drew.get(live_seat):
                expected = live_seat
                break
        if seat != expected:
            self._add(Finding("out_of_order", ("DEAL-47",), ENGINE, "seat %d draws before seat %d" % (seat, expected),
                              "players draw in turn from the first seat left of the button", seat=seat), out)
        if self._drawer is not None and self._owed.get(self._drawer, 0):
            self._add(Finding("out_of_order", ("DEAL-47",), ENGINE, "seat %d still waits for %d card(s)" % (
                self._drawer, self._owed[self._drawer]), "each player receives all replacements before the next "
                "player draws", seat=self._drawer), out)
        top = self.rules.draw_max_replace
        if len(cards) > top:
            self._add(Finding("too_many_discards", ("DEAL-47", "GAME-15"), ENGINE, "seat %d discards %d cards" % (
                seat, len(cards)), "the house allows at most %d" % top, seat=seat), out)
        for c in cards:
            self.holes[seat].remove(c)
            self.muck.append(c)
        self._owed[seat] = self._owed.get(seat, 0) + len(cards)
        self._drew[seat] = True
        self._drawer = seat
        self._maybe_complete(out)
        self._derive(out)
        return out

    def end_of_deal(self):
        """The dealer declares the initial deal finished (normally it ends by itself)."""
        self._alive()
        out = []
        if not self.deal_done:
            self._deal_complete(out)
        self._derive(out)
        return out

    def reshuffled(self, include=()):
        """DEAL-34 / DEAL-35: the stub was reshuffled face down and reloaded (include "muck" and/or "burn"
        when those cards were mixed in). Returns a finding whose detail holds the candidate cards."""
        self._alive()
        for what in include:
            if what not in (MUCK, BURN):
                raise RuleError("DEAL-35", "include %r: only muck and burn can be mixed in" % (what,))
        out = []
        if MUCK in include:
            self._to_stub(self.muck)
            self.muck = []
        if BURN in include:
            self._to_stub(self.burns)
            self.burns = []
            self._street_burns = {}
        cands = self.stub_candidates()
        rules = ("DEAL-34", "DEAL-35") if include else ("DEAL-34",)
        self._add(Finding("reshuffle", rules, ENGINE, "the stub was reshuffled: %d candidate cards" % len(cands),
                          "the next draws come from these cards in unknown order", status=APPLIED,
                          detail={"candidates": cands}), out)
        return out

    # ---------------------------------------------------------------- confirm / reject

    def _pending_finding(self, fid):
        if isinstance(fid, Finding):
            fid = fid.id
        if isinstance(fid, bool) or not isinstance(fid, int) or fid < 1 or fid > len(self.findings):
            raise RuleError("DEAL-15", "no finding #%r" % (fid,))
        f = self.findings[fid - 1]
        if f.status != PROPOSED:
            raise RuleError("DEAL-15", "finding #%d is %s, not a pending proposal" % (fid, f.status))
        return f

    def _forget_problem(self, f):
        if f.key is not None and self._problems.get(f.key) is f:
            del self._problems[f.key]

    def confirm(self, fid, card=None):
        """The dealer confirms proposal `fid` (an id or the Finding). `card`: the card the floor picked at
        random (DEAL-27 four-card flop, DEAL-28 tda_random). Returns the resulting instructions."""
        self._alive()
        f = self._pending_finding(fid)
        out = []
        handler = getattr(self, "_do_" + f.kind, None)
        if handler is None:
            raise RuleError(f.rules[0], "proposal %s has no mechanical remedy" % f.kind)
        handler(f, card, out)  # may raise RuleError before any change (random pick missing)
        f.status = CONFIRMED
        self._forget_problem(f)
        if self.phase not in (MISDEALT, VOID):
            self._maybe_complete(out)
            self._derive(out)
        return out

    def reject(self, fid):
        """The dealer rejects proposal `fid`: nothing changes except what the rule says follows."""
        self._alive()
        f = self._pending_finding(fid)
        out = []
        f.status = REJECTED
        if f.key is not None:
            self._rejected[f.key] = True
            self._forget_problem(f)
        if f is self._early_f:
            self._keep_early[f.street] = True
            if f.street == self.street:
                self._adopt_early(f.street)
        if f is self._four:
            # not a four-card flop: the fourth card is a premature turn
            c = self.board.pop()
            self._premature(2, f.draw, c, None, out)
        if f is self._rebuild:
            self._add(Finding("cards_stand", f.rules, ENGINE, "the %s stands as dealt" % self.street_name(f.street),
                              "", status=APPLIED), out)
        self._maybe_complete(out)
        self._derive(out)
        return out

    def _instruct(self, f, kind, text, out, cards=(), detail=None):
        return self._add(Finding(kind, f.rules, ENGINE, text, f.remedy, APPLIED, f.draw, f.seat, cards, detail), out)

    def _do_misdeal(self, f, card, out):
        self.phase = MISDEALT
        for g in self.findings:
            if g is not f and g.status == PROPOSED:
                self._lapse(g, "the hand was misdealt", out)
        self._add(Finding("redeal", ("DEAL-14",), ENGINE, "misdeal confirmed", f.remedy, APPLIED, seat=None,
                          detail={"button": self.plan.button, "seats": self.plan.seats, "same_stakes": True,
                                  "blinds_reposted": True, "counts_as_one_hand": True}), out)

    def _do_fouled_deck(self, f, card, out):
        self.phase = VOID
        for g in self.findings:
            if g is not f and g.status == PROPOSED:
                self._lapse(g, "the deck is fouled", out)
        self._instruct(f, "void_hand", "fouled deck: the hand is void", out, detail={"refund": True})

    def _do_void_hand(self, f, card, out):
        self._do_fouled_deck(f, card, out)

    def _do_extra_card_burn(self, f, card, out):
        c = f.cards[0]
        if self._seat_of(c) is not None:  # still in a live holding (a dead hand's card is never a burn)
            self._remove_logical(c)
            self.burns.append(c)
            self._street_burns.setdefault(1, []).append(c)
            self._credit[1] = self._credit.get(1, 0) + 1
        self._instruct(f, "move_card", "%s is the %s burn" % (card_text(c), self.street_name(1)), out, cards=(c,))

    def _do_give_card(self, f, card, out):
        k = f.detail.get("count", 1)
        self._owed[f.seat] = self._owed.get(f.seat, 0) + k
        self._instruct(f, "deal_replacement", "deal seat %d %d card(s)" % (f.seat, k), out)

    def _do_dead_hand(self, f, card, out):
        self._kill(f.seat)
        self._instruct(f, "kill_hand", "seat %d's hand is dead" % f.seat, out)
        if len(self.live) <= 1:
            self._end(out, "the hand is over: one live hand remains (GAME-6)")

    def _do_absent(self, f, card, out):
        if self.rules.mode != CASH and f.seat not in self._absent_killed:
            self._absent_killed.append(f.seat)
        self._do_dead_hand(f, card, out)

    def _do_boxed_card(self, f, card, out):
        c = f.cards[0]
        where = self._remove_logical(c)
        if where is not None:
            self.aside.append(c)
        self._street_draws = [x for x in self._street_draws if x[1] != c]  # as if it were not there
        if isinstance(where, int):
            self._owed[where] = self._owed.get(where, 0) + 1
        self._instruct(f, "move_card", "%s is set aside" % card_text(c), out, cards=(c,))

    def _do_exposed_card(self, f, card, out):
        c = f.cards[0]
        if self._seat_of(c) == f.seat:
            self._remove_logical(c)
            self._owed[f.seat] = self._owed.get(f.seat, 0) + 1
            self.burns.append(c)
            self._street_burns.setdefault(1, []).append(c)
            self._credit[1] = self._credit.get(1, 0) + 1
        self._instruct(f, "move_card", "%s is the %s burn; seat %d gets the next card after the deal" % (
            card_text(c), self.street_name(1), f.seat), out, cards=(c,))

    def _do_stud_exposed_downcard(self, f, card, out):
        self._instruct(f, "upcard", "%s plays as seat %d's upcard" % (card_text(f.cards[0]), f.seat), out,
                       cards=f.cards, detail={"upcard": f.cards[0]})

    def _do_seventh_street_exposed(self, f, card, out):
        self._do_boxed_card(f, card, out)

    def _do_foreign_replace(self, f, card, out):
        self._take_out(FOREIGN, self.holes[f.seat])
        self._owed[f.seat] = self._owed.get(f.seat, 0) + 1
        self._instruct(f, "deal_replacement", "seat %d gets the next card in place of the foreign card" % f.seat,
                       out)

    def _do_foreign_scrap(self, f, card, out):
        place = f.detail.get("place")
        if isinstance(place, int):
            self._take_out(FOREIGN, self.holes[place])
        else:
            self._take_out(FOREIGN, self.board)
        self._instruct(f, "remove_card", "the foreign card is disregarded", out)

    def _do_four_card_flop(self, f, card, out):
        flop = list(f.cards)
        if card is None or card not in flop:
            raise RuleError("DEAL-27", "name the card the floor picked (one of %s)" % cards_text(flop),
                            legal=tuple(flop))
        if self._take_out(card, self.board):
            self.burns.append(card)
            self._street_burns.setdefault(2, []).append(card)
            self._credit[2] = self._credit.get(2, 0) + 1
        self._instruct(f, "move_card", "%s is the turn burn; the flop is %s; deal the turn without a burn" % (
            card_text(card), cards_text([c for c in flop if c != card])), out, cards=(card,))

    def _do_noburn_flop(self, f, card, out):
        if self.rules.noburn_flop == "tda_random":
            flop = [c for d, c, p in self._street_draws if p == BOARD]
            if card is None or card not in flop:
                raise RuleError("DEAL-28", "name the card picked at random as the burn (one of %s)" %
                                cards_text(flop), legal=tuple(flop))
            if self._take_out(card, self.board):
                self.burns.append(card)
                self._street_burns.setdefault(1, []).append(card)
            rest = [(d, c, BOARD) for d, c, p in self._street_draws if c != card]
            self._street_draws = [(f.draw, card, BURN)] + rest
            self._instruct(f, "move_card", "%s is the flop burn; complete the flop from the stub" % card_text(card),
                           out, cards=(card,))
            return
        self._rebuild_street(f, out)

    def _do_burn_error(self, f, card, out):
        self._rebuild_street(f, out)

    def _rebuild_street(self, f, out):
        # DEAL-28 restore_order / DEAL-29: the order the cards would have had; surplus cards become burns
        s = self.street
        need = self._need_burn(s)
        n_board = self.street_plan(s).board
        order = []
        for d, c, p in self._street_draws:
            if self._remove_logical(c) is not None:  # a card reshuffled back into the stub drops out
                order.append((d, c))
        burns = [c for d, c in order[:need]]
        board = [c for d, c in order[need:need + n_board]]
        surplus = [c for d, c in order[need + n_board:]]
        for c in burns + surplus:
            self.burns.append(c)
            self._street_burns.setdefault(s, []).append(c)
        for c in board:
            self.board.append(c)
        self._street_draws = ([(d, c, BURN) for d, c in order[:need]] +
                              [(d, c, BOARD) for d, c in order[need:need + n_board]] +
                              [(d, c, BURN) for d, c in order[need + n_board:]])
        if surplus and s + 1 < len(self.plan.streets):
            self._credit[s + 1] = self._credit.get(s + 1, 0) + 1
        text = "burn %s; %s %s" % (cards_text(burns) or "-", self.street_name(s), cards_text(board) or "-")
        if surplus:
            text += "; %s become(s) burn(s)" % cards_text(surplus)
        if len(board) < n_board:
            text += "; deal %d more %s card(s)" % (n_board - len(board), self.street_name(s))
        self._instruct(f, "rebuild", text, out, detail={"burns": burns, "board": board, "surplus": surplus})

    def _do_short_stub(self, f, card, out):
        branch = f.detail["branch"]
        s = f.street
        if branch in ("A", "C"):
            earlier = []
            for i in range(1, s):
                earlier.extend(self._street_burns.get(i, ()))
            for c in earlier:
                self._take_out(c, self.burns)
            self._to_stub(earlier)
        if branch in ("B", "C"):
            for seat in self.live:
                self._expect[seat] -= len(self.plan.streets[s].hole)
            self._override[s] = StreetPlan(burn=1, hole=(), board=1)
        self._instruct(f, "seventh_street", "7th street: case %s" % branch, out, detail={"branch": branch})

    def _do_premature_stud(self, f, card, out):
        t = f.street
        cards = []
        for seat, c in self._early_seat:
            cards.append(c)
            if self.rules.premature_stud == "tda2017":
                self.aside.append(c)
        self._early_seat = []
        if self.rules.premature_stud == "tda2017":
            last = len(self.plan.streets) - 1
            self._setting_aside = t
            self._aside_return[last] = self._aside_return.get(last, []) + cards
            self._credit[t] = 0
            self._credit[last] = self._credit.get(last, 0) + 1
        else:
            self._to_stub(cards)
            self._credit[t] = self.street_plan(t).burn
        self._instruct(f, "premature", "premature %s handled" % self.street_name(t), out, cards=cards)

    def _do_premature_board(self, f, card, out):
        t = f.street
        cards = list(self._early_board)
        self._early_board = []
        name = self.street_name(t)
        early_burn = self._credit.get(t, 0) >= self.street_plan(t).burn if t < len(self.plan.streets) else False
        if name == "turn" and self.plan.family == FAMILY_BOARD and self.rules.premature_turn == "tda2017":
            for c in cards:
                self.aside.append(c)
            self._credit[t] = 0  # the turn gets a new burn; the early burn stays with the burns
            self._credit[t + 1] = self._credit.get(t + 1, 0) + 1
            self._aside_return[t + 1] = self._aside_return.get(t + 1, []) + cards
            self._instruct(f, "premature", "%s set aside face up until the river" % cards_text(cards), out,
                           cards=cards)
            return
        self._to_stub(cards)
        text = "%s back into the stub; reshuffle the stub face down and reload the shoe" % cards_text(cards)
        if t < len(self.plan.streets):
            text += "; then the %s is dealt %s" % (name, "without a burn" if early_burn else "with its burn")
        self._instruct(f, "reshuffle_stub", text, out, cards=cards)

    def _do_premature_flop(self, f, card, out):
        self._do_premature_board(f, card, out)

    def _do_premature_turn(self, f, card, out):
        self._do_premature_board(f, card, out)

    def _do_premature_river(self, f, card, out):
        self._do_premature_board(f, card, out)

    def _do_extra_board(self, f, card, out):
        self._do_premature_board(f, card, out)


def _premature_rules(family, street):
    if family == FAMILY_STUD:
        return ("DEAL-45",)
    if street == 1:
        return ("DEAL-30",)
    if street == 2:
        return ("DEAL-31",)
    return ("DEAL-32",)


def _place_text(place):
    if place is None:
        return "the stub"
    if isinstance(place, int):
        return "seat %d" % place
    return "the " + place
