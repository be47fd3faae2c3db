# Named errors of the blackjack engine (engine layer): every illegal bet, decision or card is one of
# these, a RuleError carrying its BJ-* rule ID (hardware/rules-blackjack.md). The round that raised
# it is unchanged. Kept out of felt/errors.py so a poker table never loads them.
from felt.errors import RuleError


class BlackjackError(RuleError):
    """Any blackjack rule broken (BJ-*)."""


class BetError(BlackjackError):
    """A bet outside the table limits, on a box that does not exist, or after betting closed (BJ-3, BJ-20)."""


class OutOfTurn(BlackjackError):
    """A decision for a box or hand that is not the one to act, or in the wrong phase (BJ-5)."""


class IllegalDecision(BlackjackError):
    """A decision the rules do not allow for the acting hand; subclasses name which."""


class HitNotAllowed(IllegalDecision):
    """Hit on a hand that may take no more cards: 21, doubled, split aces (BJ-6, BJ-8, BJ-12)."""


class DoubleNotAllowed(IllegalDecision):
    """Double on a total the house does not allow, after a hit, or after a split without DAS (BJ-8, BJ-9)."""


class RedoubleNotAllowed(IllegalDecision):
    """Re-double where the house does not allow it or the hand was not just doubled (BJ-10)."""


class SplitNotAllowed(IllegalDecision):
    """Split of unequal cards, past the re-split limit, or re-split of aces (BJ-11, BJ-12, BJ-13)."""


class SurrenderNotAllowed(IllegalDecision):
    """Surrender where the house has none, after the first decision, after a split (BJ-14)."""


class InsuranceNotAllowed(IllegalDecision):
    """Insurance or even money when not offered, above half the bet, or answered twice (BJ-15, BJ-16)."""


class CardError(BlackjackError):
    """A card that does not fit the round: nothing asked for it (BJ-7) or it went to the wrong place."""


class WrongBox(CardError):
    """A card dealt to a box (or the dealer) other than the one the round expects (BJ-25).
    `expected` is the box that should have had it (0 = the dealer)."""

    def __init__(self, rule, message=None, expected=None):
        super().__init__(rule, message)
        self.expected = expected


class MissedHoleCard(WrongBox):
    """The dealer's hole card was skipped: the card meant for it went to a box (BJ-26)."""


class CardOwed(IllegalDecision):
    """A decision while the acting hand still waits for the card it asked for: a card once taken
    cannot be refused (BJ-7)."""


class ShoeError(BlackjackError):
    """A shoe that cannot be used: wrong number of decks, a deck not registered, a finished shoe (BJ-22, BJ-23)."""
