# One blackjack round (engine layer, pure; hardware/rules-blackjack.md): bets on up to 7 boxes, the
# initial deal, insurance and even money, each hand's decisions, the dealer's draw and the
# settlement. Cards come from outside (the shoe, through the table) with the box they went to;
# every input is checked first and an illegal one raises a named error (errors.py) and changes
# nothing. Round.log is the round's inputs as history tokens (hardware/blackjack-history.md).
from felt.engine.cards import DECK_SIZE, card_text
from felt.engine.blackjack import totals
from felt.engine.blackjack.errors import (
    BetError, CardError, CardOwed, DoubleNotAllowed, HitNotAllowed, InsuranceNotAllowed, MissedHoleCard,
    OutOfTurn, RedoubleNotAllowed, SplitNotAllowed, SurrenderNotAllowed, WrongBox)
from felt.engine.blackjack.rules import BlackjackRules

DEALER = 0  # the dealer's spot, where a box number goes

BETTING = "betting"
DEALING = "dealing"  # the initial two rounds of cards
INSURANCE = "insurance"
PLAYING = "playing"
DEALER_PLAY = "dealer"
DONE = "done"

HIT = "hit"
STAND = "stand"
DOUBLE = "double"
SPLIT = "split"
SURRENDER = "surrender"
REDOUBLE = "redouble"
DECISIONS = (HIT, STAND, DOUBLE, SPLIT, SURRENDER, REDOUBLE)
_LETTER = {HIT: "h", STAND: "s", DOUBLE: "d", SPLIT: "p", SURRENDER: "r", REDOUBLE: "x"}

# outcomes of a settled hand (BJ-19)
BLACKJACK = "blackjack"
WIN = "win"
PUSH = "push"
LOSE = "lose"
BUST = "bust"
SURRENDERED = "surrender"
EVEN_MONEY = "even_money"


def where_text(box):
    return "the dealer" if box == DEALER else "box %d" % box


class Hand:
    """One player hand: a box's first hand or one made by a split. stake: chips on it (the bet,
    plus each double); paid: chips handed back at settlement, stake included."""

    def __init__(self, box, stake, cards, split):
        self.box = box
        self.stake = stake
        self.cards = cards
        self.split = split  # made by a split (BJ-2: 21 is then no blackjack)
        self.aces = False  # one of a split pair of aces (BJ-12)
        self.doubles = 0  # 1 doubled, 2 re-doubled (BJ-8, BJ-10)
        self.decided = False  # any decision taken (BJ-14: surrender is the first decision)
        self.surrendered = False
        self.even_money = False
        self.done = False
        self.outcome = None
        self.paid = 0

    def total(self):
        return totals.total(self.cards)

    def natural(self):
        """BJ-2: a blackjack -- two cards, 21, not from a split."""
        return not self.split and totals.is_natural(self.cards)

    def busted(self):
        return totals.total(self.cards)[0] > 21


class Round:
    """One round at a blackjack table. Inputs: bet(), close_bets(), deal(card, box), insure(),
    even_money(), decline_insurance(), close_insurance(), decide(box, decision). expect() says what
    the round waits for; legal(box) the decisions the acting hand may take."""

    def __init__(self, rules=None):
        self.rules = rules if rules is not None else BlackjackRules()
        self.phase = BETTING
        self.bets = {}  # box -> the original bet
        self.hands = []  # every player hand in playing order (boxes ascending, split hands in order)
        self.dealer = []  # the dealer's cards, up card first
        self.insurance = {}  # box -> chips insured (0: declined); a box absent has not answered
        self.insurance_paid = {}  # box -> chips returned for insurance at settlement
        self.at = 0  # index in hands of the acting hand (PLAYING)
        self.owed = False  # the acting hand asked for a card (hit, double, split) and waits for it
        self._order = []  # the initial deal: the box of each card, DEALER for the dealer's
        self.log = []  # the round's inputs as history tokens

    # ---- what the round waits for -----------------------------------------------------------------

    def expect(self):
        """('bet', None), ('card', box) with box DEALER for the dealer, ('insurance', [boxes]),
        ('decision', box) or ('done', None)."""
        if self.phase == DEALING:
            return "card", self._order[len(self._dealt_cards())]
        if self.phase == INSURANCE:
            return "insurance", self.insurance_pending()
        if self.phase == PLAYING:
            return ("card" if self.owed else "decision"), self.hands[self.at].box
        if self.phase == DEALER_PLAY:
            return "card", DEALER
        return ("bet" if self.phase == BETTING else "done"), None

    def acting(self):
        """The hand to act (PLAYING), else None."""
        return self.hands[self.at] if self.phase == PLAYING else None

    def box_hands(self, box):
        return [h for h in self.hands if h.box == box]

    def boxes(self):
        """Boxes with a bet, ascending (BJ-4: the dealing order)."""
        return sorted(self.bets)

    def _dealt_cards(self):
        out = []
        for h in self.hands:
            out.extend(h.cards)
        return out + self.dealer

    def cards(self):
        """Every card of the round (player hands, then the dealer's)."""
        return self._dealt_cards()

    # ---- bets (BJ-3, BJ-20) ---------------------------------------------------------------------

    def bet(self, box, amount):
        """Place, change or (amount 0) take back the bet on `box` before the deal."""
        r = self.rules
        if self.phase != BETTING:
            raise BetError("BJ-3: bets are closed -- the cards are out")
        if not isinstance(box, int) or isinstance(box, bool) or box < 1 or box > r.boxes:
            raise BetError("BJ-3: there is no box %r (boxes 1..%d)" % (box, r.boxes), legal=(1, r.boxes))
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise BetError("BJ-3: a bet is a whole number of chips, not %r" % (amount,))
        if amount and (amount < r.min_bet or amount > r.max_bet):
            raise BetError("BJ-3: box %d bets %d, outside the table limits %d..%d" % (box, amount, r.min_bet, r.max_bet),
                           legal=(r.min_bet, r.max_bet))
        if amount < 0:
            raise BetError("BJ-3: a bet cannot be negative (%d)" % amount)
        step = self._bet_step()
        if amount % step:
            raise BetError("BJ-20: payouts are exact at this table, so a bet is a multiple of %d (box %d bets %d)"
                           % (step, box, amount), legal=step)
        if amount:
            self.bets[box] = amount
        else:
            self.bets.pop(box, None)
        self.log.append("b%d=%d" % (box, amount))

    def _bet_step(self):
        # BJ-20 'exact': every payout a bet can earn is a whole number of chips
        r = self.rules
        if r.payout_rounding != "exact":
            return 1
        step = 2 if r.blackjack_pays == "3:2" else 5
        if r.surrender != "none" or r.insurance or r.even_money:
            step = 2 * step if step == 5 else step
        return step

    def close_bets(self):
        """No more bets: the initial deal starts (BJ-4)."""
        if self.phase != BETTING:
            raise BetError("BJ-3: bets are already closed")
        if not self.bets:
            raise BetError("BJ-3: no box has a bet")
        boxes = self.boxes()
        self.hands = [Hand(b, self.bets[b], [], False) for b in boxes]
        # BJ-4: a card to each box from box 1, the dealer's up card, a second card to each box,
        # then the hole card -- none with no hole card (BJ-17, ENHC)
        self._order = boxes + [DEALER] + boxes + ([DEALER] if self.rules.hole_card == "peek" else [])
        self.phase = DEALING
        self.log.append("go")

    # ---- cards ------------------------------------------------------------------------------------

    def deal(self, card, box):
        """A card from the shoe has landed on `box` (DEALER for the dealer's spot)."""
        if not isinstance(card, int) or isinstance(card, bool) or card < 0 or card >= DECK_SIZE:
            raise CardError("BJ-7: %r is not a card" % (card,))
        kind, want = self.expect()
        if kind != "card":
            raise CardError("BJ-7: %s reached %s but no card is due (%s)" % (card_text(card), where_text(box), self._waiting()))
        if box != want:
            if self.phase == DEALING and want == DEALER and len(self._dealt_cards()) == len(self._order) - 1:
                raise MissedHoleCard("BJ-26: %s reached %s before the dealer's hole card -- the hole card was missed"
                                     % (card_text(card), where_text(box)), expected=DEALER)
            raise WrongBox("BJ-25: %s reached %s, but the card is due to %s" % (card_text(card), where_text(box), where_text(want)),
                           expected=want)
        self.log.append("%s:%s" % ("D" if box == DEALER else box, card_text(card)))
        if self.phase == DEALING:
            self._initial(card, box)
        elif self.phase == PLAYING:
            hand = self.hands[self.at]
            hand.cards.append(card)
            self.owed = False
            self._after_card(hand)
        else:
            self.dealer.append(card)
            self._dealer_next()

    def _waiting(self):
        kind, box = self.expect()
        if kind == "insurance":
            return "insurance answers from box " + ", ".join([str(b) for b in box])
        if kind == "decision":
            return "a decision from box %d" % box
        return {"bet": "bets", "done": "the round is over"}.get(kind, kind)

    def _initial(self, card, box):
        if box == DEALER:
            self.dealer.append(card)
        else:
            for h in self.hands:
                if h.box == box:
                    h.cards.append(card)
        if len(self._dealt_cards()) < len(self._order):
            return
        for h in self.hands:
            h.done = h.natural()  # BJ-2: a blackjack has nothing to decide
        if self._up_rank() == totals.ACE and self.insurance_pending():
            self.phase = INSURANCE  # BJ-15, BJ-16
        else:
            self._after_insurance()

    def _up_rank(self):
        return self.dealer[0] >> 2

    # ---- insurance and even money (BJ-15, BJ-16) --------------------------------------------------

    def insurance_pending(self):
        """Boxes that may still answer the insurance offer: every box when the house offers
        insurance, else the boxes with a blackjack when it offers even money."""
        if not self.dealer or self._up_rank() != totals.ACE:
            return []
        out = []
        for h in self.hands:
            if h.box in self.insurance:
                continue
            if self.rules.insurance or (self.rules.even_money and h.natural()):
                out.append(h.box)
        return out

    def _offer(self, box):
        if self.phase != INSURANCE:
            raise InsuranceNotAllowed("BJ-15: insurance is offered only while the dealer's ace is up, before play")
        if box not in self.insurance_pending():
            raise InsuranceNotAllowed("BJ-15: box %r has %s" % (box, "answered already" if box in self.insurance else "no offer"))

    def max_insurance(self, box):
        """BJ-15: at most half the bet, in whole chips."""
        return self.bets.get(box, 0) // 2

    def insure(self, box, amount=None):
        """Box `box` insures for `amount` chips (default: half its bet)."""
        self._offer(box)
        if not self.rules.insurance:
            raise InsuranceNotAllowed("BJ-15: this table offers no insurance")
        top = self.max_insurance(box)
        if amount is None:
            amount = top
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1 or amount > top:
            raise InsuranceNotAllowed("BJ-15: insurance is 1..%d chips (half the bet of %d), not %r"
                                      % (top, self.bets[box], amount), legal=(1, top))
        self.insurance[box] = amount
        self.log.append("%di%d" % (box, amount))
        self._insurance_answered()

    def even_money(self, box):
        """BJ-16: a box with a blackjack takes 1:1 now instead of the blackjack payout."""
        self._offer(box)
        hand = self.box_hands(box)[0]
        if not self.rules.even_money:
            raise InsuranceNotAllowed("BJ-16: this table offers no even money")
        if not hand.natural():
            raise InsuranceNotAllowed("BJ-16: even money is for a blackjack; box %d has %s" % (box, totals.text(hand.cards)))
        hand.even_money = True
        self.insurance[box] = 0
        self.log.append("%de" % box)
        self._insurance_answered()

    def decline_insurance(self, box):
        self._offer(box)
        self.insurance[box] = 0
        self.log.append("%dn" % box)
        self._insurance_answered()

    def close_insurance(self):
        """The dealer closes the offer: every box that has not answered declines."""
        if self.phase != INSURANCE:
            raise InsuranceNotAllowed("BJ-15: no insurance offer is open")
        for box in self.insurance_pending():
            self.insurance[box] = 0
        self.log.append("ic")
        self._after_insurance()

    def _insurance_answered(self):
        if not self.insurance_pending():
            self._after_insurance()

    def _after_insurance(self):
        # BJ-17: with a hole card the dealer peeks under an ace or a ten; a blackjack ends the round
        if self.rules.hole_card == "peek" and totals.value(self.dealer[0]) >= 10 and totals.is_natural(self.dealer):
            self._settle()
            return
        self.phase = PLAYING
        self.at = 0
        self._next_hand()

    # ---- decisions (BJ-5 .. BJ-14) ----------------------------------------------------------------

    def _problem(self, hand, decision):
        # the error a decision on the acting hand would raise, or None when it is legal
        r = self.rules
        n = len(hand.cards)
        if decision == STAND:
            return None
        if decision == HIT:
            if hand.doubles:
                return HitNotAllowed("BJ-8: a doubled hand takes exactly one card")
            if hand.aces and r.split_aces_one_card:
                return HitNotAllowed("BJ-12: split aces take one card each")
            return None
        if decision == DOUBLE:
            return self._double_problem(hand, n)
        if decision == REDOUBLE:
            if not r.redouble:
                return RedoubleNotAllowed("BJ-10: this table does not allow re-doubling")
            if hand.doubles != 1 or n != 3:
                return RedoubleNotAllowed("BJ-10: re-double only right after a double's card")
            return None
        if decision == SPLIT:
            return self._split_problem(hand, n)
        if decision == SURRENDER:
            return self._surrender_problem(hand, n)
        return OutOfTurn("BJ-5: %r is no decision (%s)" % (decision, ", ".join(DECISIONS)))

    def _double_problem(self, hand, n):
        r = self.rules
        if n != 2 or hand.doubles:
            return DoubleNotAllowed("BJ-8: double only on the first two cards of a hand")
        if hand.aces and r.split_aces_one_card:
            return DoubleNotAllowed("BJ-12: split aces take one card each")
        if hand.split and not r.double_after_split:
            return DoubleNotAllowed("BJ-9: no double after a split at this table")
        t = hand.total()[0]
        if (r.double_on == "9_11" and not 9 <= t <= 11) or (r.double_on == "10_11" and not 10 <= t <= 11):
            return DoubleNotAllowed("BJ-8: double only on %s; this hand is %s" % (r.double_on.replace("_", "-"), totals.text(hand.cards)))
        return None

    def _split_problem(self, hand, n):
        r = self.rules
        if n != 2 or hand.doubles:
            return SplitNotAllowed("BJ-11: split only a hand of two cards")
        a, b = hand.cards
        if not totals.split_pair(a, b, r.split_match):
            return SplitNotAllowed("BJ-11: %s and %s are no pair (bj.split_match=%s)" % (card_text(a), card_text(b), r.split_match))
        if len(self.box_hands(hand.box)) >= r.split_max_hands:
            return SplitNotAllowed("BJ-13: box %d already has %d hands, the most this table allows"
                                   % (hand.box, len(self.box_hands(hand.box))), legal=r.split_max_hands)
        if hand.aces and not r.resplit_aces:
            return SplitNotAllowed("BJ-12: aces are split only once at this table")
        return None

    def _surrender_problem(self, hand, n):
        r = self.rules
        if r.surrender == "none":
            return SurrenderNotAllowed("BJ-14: this table has no surrender")
        if hand.split or n != 2 or hand.decided:
            return SurrenderNotAllowed("BJ-14: surrender only as the first decision on the first two cards")
        if self._up_rank() == totals.ACE and not r.surrender_vs_ace:
            return SurrenderNotAllowed("BJ-14: no surrender against the dealer's ace at this table")
        return None

    def legal(self, box):
        """The decisions the acting hand of `box` may take ([] if it is not acting)."""
        hand = self.acting()
        if hand is None or hand.box != box or self.owed:
            return []
        return [d for d in DECISIONS if self._problem(hand, d) is None]

    def problem(self, decision):
        """The named error `decision` on the acting hand would raise now, or None (BJ-21)."""
        hand = self.acting()
        if hand is None or self.owed:
            return OutOfTurn("BJ-5: no hand decides now")
        return self._problem(hand, decision)

    def can(self, box, decision):
        return decision in self.legal(box)

    def decide(self, box, decision):
        """The acting hand of `box` takes `decision` (HIT .. REDOUBLE)."""
        hand = self.acting()
        if hand is None:
            if self.phase == DEALING and self.expect()[1] == DEALER and len(self.dealer) == 1:
                raise MissedHoleCard("BJ-26: a decision from box %r before the dealer's hole card -- deal the hole card first"
                                     % (box,), expected=DEALER)
            raise OutOfTurn("BJ-5: no hand is to act (%s)" % self._waiting())
        if box != hand.box:
            raise OutOfTurn("BJ-5: box %r is not to act -- box %d is" % (box, hand.box), legal=hand.box)
        if self.owed:
            raise CardOwed("BJ-7: box %d asked for a card -- a card once asked for is dealt before the next decision" % box)
        err = self._problem(hand, decision)
        if err is not None:
            raise err
        self.log.append("%d%s" % (box, _LETTER[decision]))
        hand.decided = True
        bet = self.bets[box]
        if decision == STAND:
            hand.done = True
        elif decision == SURRENDER:
            hand.surrendered = True
            hand.done = True
        elif decision == SPLIT:
            self._split(hand, bet)
        else:
            if decision != HIT:
                hand.stake += bet  # BJ-8, BJ-10: the original bet again
                hand.doubles += 1
            self.owed = True
        if hand.done:
            self._next_hand()

    def _split(self, hand, bet):
        # BJ-11: the second card makes a new hand with a bet equal to the first; each gets a card
        second = Hand(hand.box, bet, [hand.cards.pop()], True)
        hand.split = True
        if (second.cards[0] >> 2) == totals.ACE:
            hand.aces = second.aces = True
        self.hands.insert(self.at + 1, second)
        self.owed = True

    def _after_card(self, hand):
        r = self.rules
        t = hand.total()[0]
        if t >= 21:
            hand.done = True  # BJ-6: bust, or 21 stands
        elif hand.doubles:
            # BJ-8: one card for a double; BJ-10: a re-double may follow the first
            hand.done = hand.doubles > 1 or not r.redouble
        elif hand.aces and r.split_aces_one_card:
            # BJ-12: one card each; only a new pair of aces may go on (re-split)
            hand.done = self._split_problem(hand, 2) is not None
        if hand.done:
            self._next_hand()

    def _next_hand(self):
        while self.at < len(self.hands):
            hand = self.hands[self.at]
            if len(hand.cards) < 2 and not hand.done:
                self.owed = True  # a split hand's second card (BJ-11)
                return
            if not hand.done:
                return
            self.at += 1
        self.owed = False
        self.phase = DEALER_PLAY
        self._dealer_next()

    # ---- the dealer (BJ-17, BJ-18) ------------------------------------------------------------------

    def _contest(self):
        # hands the dealer's total decides: not bust, surrendered, settled by even money, or a blackjack
        for h in self.hands:
            if not (h.busted() or h.surrendered or h.even_money or h.natural()):
                return True
        return False

    def dealer_draws(self):
        """Does the dealer take another card? BJ-17: with no hole card the second card comes once
        play is over (when any hand or insurance waits on a dealer blackjack); BJ-18: then to 17,
        hitting a soft 17 under bj.soft17=hit, and not at all when no hand is in contest."""
        if len(self.dealer) < 2:
            for h in self.hands:
                if not (h.busted() or h.even_money):
                    return True
            for box in self.insurance:
                if self.insurance[box]:
                    return True
            return False
        if totals.is_natural(self.dealer) or not self._contest():
            return False
        t, soft = totals.total(self.dealer)
        return t < 17 or (t == 17 and soft and self.rules.soft17 == "hit")

    def _dealer_next(self):
        if not self.dealer_draws():
            self._settle()

    # ---- settlement (BJ-15, BJ-16, BJ-17, BJ-19, BJ-20) ------------------------------------------------

    def _part(self, amount, num, den):
        # amount * num / den in whole chips, rounded as bj.payout_rounding says (BJ-20)
        if self.rules.payout_rounding == "up":
            return -((-amount * num) // den)
        return (amount * num) // den

    def _settle(self):
        dealer_bj = totals.is_natural(self.dealer)
        dealer_total = totals.total(self.dealer)[0]
        first = {}
        for h in self.hands:
            if h.box not in first:
                first[h.box] = h
            self._settle_hand(h, dealer_bj, dealer_total, first[h.box] is h)
        for box in self.insurance:
            self.insurance_paid[box] = 3 * self.insurance[box] if dealer_bj else 0  # 2:1, stake back
        self.at = len(self.hands)
        self.phase = DONE

    def _settle_hand(self, h, dealer_bj, dealer_total, first):
        r = self.rules
        stake = h.stake
        if h.even_money:
            h.outcome, h.paid = EVEN_MONEY, 2 * stake
        elif h.natural():
            if dealer_bj:
                h.outcome, h.paid = PUSH, stake
            else:
                num, den = (3, 2) if r.blackjack_pays == "3:2" else (6, 5)
                h.outcome, h.paid = BLACKJACK, stake + self._part(stake, num, den)
        elif h.busted():
            h.outcome, h.paid = BUST, 0
        elif dealer_bj:
            # BJ-17: only reached without a peek; 'original' hands back all but the original bet
            h.outcome = LOSE
            h.paid = 0 if r.enhc_loses == "all" else stake - (self.bets[h.box] if first else 0)
        elif h.surrendered:
            h.outcome, h.paid = SURRENDERED, self._part(stake, 1, 2)
        else:
            p = h.total()[0]
            if dealer_total > 21 or p > dealer_total:
                h.outcome, h.paid = WIN, 2 * stake
            elif p == dealer_total:
                h.outcome, h.paid = PUSH, stake
            else:
                h.outcome, h.paid = LOSE, 0

    # ---- results ---------------------------------------------------------------------------------------

    def staked(self, box):
        """Chips the box put in this round: its hands' stakes and its insurance."""
        return sum([h.stake for h in self.box_hands(box)]) + self.insurance.get(box, 0)

    def returned(self, box):
        """Chips handed back to the box at settlement (stakes included)."""
        return sum([h.paid for h in self.box_hands(box)]) + self.insurance_paid.get(box, 0)

    def net(self, box):
        """The box's win (+) or loss (-) for the round, once it is settled."""
        if self.phase != DONE:
            raise OutOfTurn("BJ-19: the round is not settled yet")
        return self.returned(box) - self.staked(box)

    def results(self):
        """{box: net} once settled."""
        return dict([(b, self.net(b)) for b in self.boxes()])
