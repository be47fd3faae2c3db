# The card half of a Hand (engine layer, pure): what the shoe may deliver now -- hole cards,
# burns, board cards and draws (GAME-2, GAME-8, GAME-10, GAME-14, GAME-15, DECK-1, DECK-5) --
# checked in full before anything changes. Hand (machine.py) inherits it; `self` is that Hand.
from felt.compat import const
from felt.errors import DuplicateCard, RuleError

_UNKNOWN = const(-1)
_DEAL = const("deal")
_DRAW = const("draw")
_DONE = const("done")


class HandDealing:
    """Dealing methods of Hand; needs the Hand's fields (hole, up, board, pending_hole ...)."""

    def next_hole_position(self):
        """Whom the next hole card should go to (round-robin from position 0, BLIND-6), or None."""
        best = -1
        who = None
        for p in range(self.n):
            if self.pending_hole[p] > best and self.pending_hole[p] > 0:
                best = self.pending_hole[p]
                who = p
        return who

    def drawer(self):
        """Position due to discard next in a draw (GAME-15: from the button's left), or None."""
        if self.phase != _DRAW:
            return None
        for p in range(self.n):
            if self.to_draw[p]:
                return p
        return None

    def _start_street(self, s):
        self.street = s
        st = self.game.streets[s]
        self.burned = False
        self.pending_board = st.board
        for p in range(self.n):
            self.pending_hole[p] = len(st.hole) if self.live[p] else 0
            self.to_draw[p] = st.draw and self.live[p]
        self.phase = _DRAW if st.draw else _DEAL
        self._dealing_done()

    def _check_card(self, card, fresh=True):
        if not isinstance(card, int) or card < _UNKNOWN or card > 51:
            raise RuleError("DECK-1: %r is not a card" % (card,))
        if card != _UNKNOWN:
            if card < 16 and self.game.deck == "short":  # ranks 2-5 are cards 0..15
                raise RuleError("DECK-1: %s deck has no card below a six" % self.game.name)
            if fresh and card in self.seen:
                raise DuplicateCard("DECK-5: card %d is already in this hand" % card)

    def _check_cards(self, cards):
        # _check_card(c) for each card of one entry, in one call: the common card (an int in
        # range, new to the hand, in the deck) costs a few comparisons
        seen = self.seen
        short = self.game.deck == "short"
        for c in cards:
            if not isinstance(c, int) or c < _UNKNOWN or c > 51 or c in seen or (short and 0 <= c < 16):
                self._check_card(c)  # raises the rule that applies

    def _cards_arg(self, cards):
        if isinstance(cards, int):
            return [cards]
        cards = list(cards)
        if len(cards) == 2:  # two hole cards: one comparison, no set
            if cards[0] == cards[1] and cards[0] != _UNKNOWN:
                raise DuplicateCard("DECK-5: the same card twice in one entry")
        elif len(cards) > 1:  # one card cannot repeat itself: no set built for it
            known = [c for c in cards if c != _UNKNOWN]
            if len(set(known)) != len(known):
                raise DuplicateCard("DECK-5: the same card twice in one entry")
        return cards

    def _check_dealing(self):
        if self.phase == _DONE:
            raise RuleError("DEAL-49: the hand is over; no more cards are dealt")
        if self.phase not in (_DEAL, _DRAW):
            raise RuleError("GAME-2: no cards are due now: the %s is in progress" %
                            ("betting" if self.phase == "bet" else self.phase))

    def check_deal_hole(self, p, cards):
        phase = self.phase
        if phase != _DEAL and phase != _DRAW:
            self._check_dealing()  # raises the rule that applies
        cards = self._cards_arg(cards)
        if p < 0 or p >= self.n or not self.live[p]:
            raise RuleError("GAME-2: %s holds no live hand" % self.who(p))
        if len(cards) > self.pending_hole[p]:
            raise RuleError("GAME-2: %s is due %d more hole card(s), not %d" %
                            (self.who(p), self.pending_hole[p], len(cards)), legal=self.pending_hole[p])
        if phase == _DRAW:
            if self.to_draw[p]:
                raise RuleError("GAME-15: %s has not discarded yet" % self.who(p))
            for c in cards:
                self._check_card(c, not self._reshuffled(c))
        else:
            self._check_cards(cards)  # only a draw may reuse dead cards (_reshuffled)
        return cards

    def _reshuffled(self, card):
        # Triple draw can outrun the stub: the dead cards (discards, burns, folded hands) are
        # then shuffled into a new stub, as pokerkit does; only draw replacements may reuse them
        if self.phase != _DRAW or card == _UNKNOWN or card not in self.seen:
            return False
        if card in self.discards or card in self.burns:
            return True
        for q in range(self.n):
            if not self.live[q] and card in self.hole[q]:
                return True
        return False

    def _reuse(self, card):
        if card in self.discards:
            self.discards.remove(card)
        elif card in self.burns:
            self.burns.remove(card)
        else:
            for q in range(self.n):
                if not self.live[q] and card in self.hole[q]:
                    k = self.hole[q].index(card)
                    self.hole[q].pop(k)
                    self.up[q].pop(k)
                    break

    def can_deal_hole(self, p, cards):
        return self._can(self.check_deal_hole, p, cards)

    def deal_hole(self, p, cards):
        """Hole card(s) from the shoe to position p (one int or a list)."""
        cards = self.check_deal_hole(p, cards)
        ups = self.game.streets[self.street].hole  # up-flag per card of this street
        k = len(ups) - self.pending_hole[p]
        hole = self.hole[p]
        up = self.up[p]
        if self.phase == _DRAW:
            for c in cards:
                if self._reshuffled(c):
                    self._reuse(c)
                hole.append(c)
                up.append(ups[k] if ups else False)
                k += 1
                if c != _UNKNOWN:
                    self.seen.add(c)
        else:  # the deal: checked fresh cards, added in one go (check_deal_hole bounds k)
            hole.extend(cards)
            up.extend(ups[k:k + len(cards)] if ups else [False] * len(cards))
            self.seen.update(cards)
            self.seen.discard(_UNKNOWN)  # unknown cards are not tracked (never in seen)
        self.pending_hole[p] -= len(cards)
        op = self._note("hole", p, 0, 0, cards, False) if self.log is not None else None
        self._dealing_done()
        return op

    def check_burn(self, card):
        self._check_dealing()
        st = self.game.streets[self.street]
        if not st.burn:
            raise RuleError("GAME-2: no burn card on this street")
        if self.burned:
            raise RuleError("GAME-2: this street's card is already burned")
        self._check_card(card)

    def can_burn(self, card):
        return self._can(self.check_burn, card)

    def burn(self, card):
        """The burn before a street (recorded; the dealing checks judge missing burns)."""
        self.check_burn(card)
        self.burned = True
        self.burns.append(card)
        if card != _UNKNOWN:
            self.seen.add(card)
        return self._note("burn", None, 0, 0, (card,), False)

    def _community_card_ok(self):
        # DEAL-46: when the stub is short for a stud street, one community card is dealt face
        # up instead of a card to each player -- only before anyone got this street's card
        st = self.game.streets[self.street]
        if self.game.family != "stud" or self.street == 0 or not st.hole or self.board_street is not None:
            return False
        for p in range(self.n):
            if self.live[p] and self.pending_hole[p] != len(st.hole):
                return False
        return True

    def check_deal_board(self, cards):
        self._check_dealing()
        cards = self._cards_arg(cards)
        if len(cards) == 1 and not self.pending_board and self._community_card_ok():
            self._check_card(cards[0])
            return cards
        if len(cards) > self.pending_board or not cards:
            raise RuleError("GAME-2: %d board card(s) due, not %d" % (self.pending_board, len(cards)),
                            legal=self.pending_board)
        self._check_cards(cards)
        return cards

    def can_deal_board(self, cards):
        return self._can(self.check_deal_board, cards)

    def deal_board(self, cards):
        cards = self.check_deal_board(cards)
        if not self.pending_board:
            # a stud community card (DEAL-46): every remaining player's card of this street
            self.board_street = self.street
            for p in range(self.n):
                self.pending_hole[p] = 0
        else:
            self.pending_board -= len(cards)
        for c in cards:
            self.board.append(c)
            if c != _UNKNOWN:
                self.seen.add(c)
        op = self._note("board", None, 0, 0, cards, False) if self.log is not None else None
        self._dealing_done()
        return op

    def check_draw(self, p, discards, new_cards=None):
        if self.phase != _DRAW:
            raise RuleError("GAME-15: there is no draw now")
        if p != self.drawer():
            raise RuleError("GAME-15: %s draws next, not %s" % (self.who(self.drawer()), self.who(p)),
                            legal=self.drawer())
        discards = self._cards_arg(discards)
        limit = self.rules.draw_max_replace
        if len(discards) > limit:
            raise RuleError("GAME-15: at most %d cards may be replaced" % limit, legal=(0, limit))
        left = list(self.hole[p])
        for c in discards:
            if c in left:
                left.remove(c)
            else:
                raise RuleError("GAME-15: %s does not hold card %d" % (self.who(p), c))
        if new_cards is not None:
            new_cards = self._cards_arg(new_cards)
            if len(new_cards) != len(discards):
                raise RuleError("GAME-15: %d discarded, %d dealt" % (len(discards), len(new_cards)),
                                legal=len(discards))
            for c in new_cards:
                if c in discards:
                    raise DuplicateCard("DECK-5: card %d was just discarded" % c)
                self._check_card(c, not self._reshuffled(c))
        return discards, new_cards

    def can_draw(self, p, discards, new_cards=None):
        return self._can(self.check_draw, p, discards, new_cards)

    def draw(self, p, discards, new_cards=None):
        """p discards `discards` (GAME-15); replacements now (new_cards) or later by deal_hole."""
        discards, new_cards = self.check_draw(p, discards, new_cards)
        for c in discards:
            k = self.hole[p].index(c)
            self.hole[p].pop(k)
            self.up[p].pop(k)
            self.discards.append(c)
        self.to_draw[p] = False
        self.pending_hole[p] += len(discards)
        op = self._note("discard", p, 0, 0, discards, False)
        if new_cards:
            self.deal_hole(p, new_cards)
        else:
            self._dealing_done()
        return op

    def stand_pat(self, p):
        return self.draw(p, ())

    def can_stand_pat(self, p):
        return self.can_draw(p, ())

    def _dealing_done(self):
        if self.pending_board or (self.phase != _DEAL and self.phase != _DRAW):
            return
        if any(self.pending_hole) or any(self.to_draw):
            return
        self._begin_betting()

    def _can(self, check, *args):
        try:
            check(*args)
        except RuleError:
            return False
        return True
