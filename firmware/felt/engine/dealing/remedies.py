# Dealing check, part 4 of 4 (engine layer, pure): the dealer's answers to ASSIST proposals --
# confirm() applies the prescribed remedy (misdeal, fouled deck, boxed/exposed/extra card, burn
# rebuilds, premature cards, 7th street on a short stub) and reject() keeps the cards as dealt.
# A base of dealing.DealCheck; it works on the DealCheck fields set up in dealing.py.
from felt.engine.dealing.plan import (APPLIED, BOARD, BURN, CONFIRMED, ENGINE, FAMILY_BOARD, FOREIGN, MISDEALT, PROPOSED,
                                   REJECTED, VOID, Finding, StreetPlan, card_text, cards_text)
from felt.engine.house.rules import CASH
from felt.errors import RuleError


class DealFixes:
    """confirm(id, card=None) / reject(id) for DealCheck (see dealing.py for the whole interface)."""

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
