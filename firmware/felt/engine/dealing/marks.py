# Dealing check, part 3 of 4 (engine layer, pure): console marks and rulings during a hand --
# boxed and exposed cards (DEAL-7, DEAL-11, DEAL-17, DEAL-21/22, DEAL-42/43), foreign cards (DEAL-13,
# DEAL-19/20), absent players (DEAL-39), killed hands, draws (DEAL-47), reshuffles (DEAL-34/35) and
# the hand-for-hand hold (TOUR-10). A base of dealing.DealCheck.
from felt.engine.dealing.remedies import DealFixes
from felt.engine.dealing.plan import (APPLIED, BOARD, BURN, DEALING, ENGINE, FAMILY_STUD, FLOOR, FOREIGN, MUCK, OVER,
                                   PROPOSED, SHOWDOWN, STUB, Finding, card_text, place_text)
from felt.engine.house.rules import CASH
from felt.errors import RuleError


class DealMarks(DealFixes):
    """Console marks for DealCheck (see dealing.py for the whole interface)."""

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
                n, place_text(place)), out, draw=n, seat=seat)
            f.detail["place"] = place
        else:
            self._foreign_after_sa(seat, place, out)
        self._derive(out)
        return out

    def _foreign_after_sa(self, seat, place, out):
        where = place_text(place)
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
