# Basic strategy for multi-deck blackjack (host side; the reference check of issue 17 item 6). The
# common 4-8 deck chart (total-dependent, double after split allowed, dealer peeks), with the cells
# that differ when the dealer hits soft 17 and the late-surrender cells. It answers from the
# decisions the firmware's round says are legal (Round.legal), so a restriction of the house rules
# (no double after split, 10-11 only, one card to split aces) falls back as the chart says:
# "double, else hit" or "double, else stand". Insurance and even money: never.
from felt.engine.blackjack import totals
from felt.engine.blackjack.round import DOUBLE, HIT, SPLIT, STAND, SURRENDER

_A = 11  # an ace up


def _split(v, up, das):
    # pair of cards worth v (2..11) against up card worth up (2..11): split?
    if v == 11 or v == 8:
        return True
    if v == 10 or v == 5:
        return False
    if v == 9:
        return up in (2, 3, 4, 5, 6, 8, 9)
    if v == 7:
        return up <= 7
    if v == 6:
        return up <= 6 if das else 3 <= up <= 6
    if v == 4:
        return das and up in (5, 6)
    return up <= 7 if das else 4 <= up <= 7  # 2s and 3s


def _surrender(t, up, pair8, h17):
    if pair8:
        return h17 and up == _A
    if t == 16:
        return up >= 9
    if t == 15:
        return up == 10 or (h17 and up == _A)
    return h17 and t == 17 and up == _A


def _soft(t, up, h17):
    # (first choice, fallback when a double is not allowed)
    if t >= 20:
        return STAND, STAND
    if t == 19:
        return (DOUBLE, STAND) if h17 and up == 6 else (STAND, STAND)
    if t == 18:
        if up <= 6:
            return (DOUBLE, STAND) if (up >= 3 or h17) else (STAND, STAND)
        return (STAND, STAND) if up <= 8 else (HIT, HIT)
    if t == 17:
        return (DOUBLE, HIT) if 3 <= up <= 6 else (HIT, HIT)
    if t >= 15:
        return (DOUBLE, HIT) if 4 <= up <= 6 else (HIT, HIT)
    if t >= 13:
        return (DOUBLE, HIT) if 5 <= up <= 6 else (HIT, HIT)
    return HIT, HIT


def _hard(t, up, h17):
    if t >= 17:
        return STAND, STAND
    if t >= 13:
        return (STAND, STAND) if up <= 6 else (HIT, HIT)
    if t == 12:
        return (STAND, STAND) if 4 <= up <= 6 else (HIT, HIT)
    if t == 11:
        return (DOUBLE, HIT) if (up <= 10 or h17) else (HIT, HIT)
    if t == 10:
        return (DOUBLE, HIT) if up <= 9 else (HIT, HIT)
    if t == 9:
        return (DOUBLE, HIT) if 3 <= up <= 6 else (HIT, HIT)
    return HIT, HIT


def decide(cards, up_card, legal, rules):
    """The basic-strategy decision for a hand of `cards` against the dealer's `up_card`, chosen
    among `legal` (Round.legal of the acting box)."""
    up = totals.value(up_card)
    h17 = rules.soft17 == "hit"
    t, soft = totals.total(cards)
    pair = len(cards) == 2 and totals.value(cards[0]) == totals.value(cards[1])
    if SURRENDER in legal and not soft and _surrender(t, up, pair and totals.value(cards[0]) == 8, h17):
        return SURRENDER
    if SPLIT in legal and pair and _split(totals.value(cards[0]), up, rules.double_after_split):
        return SPLIT
    first, fallback = _soft(t, up, h17) if soft else _hard(t, up, h17)
    choice = first if first in legal else fallback
    if choice not in legal:  # a hand that may not draw (split aces): it stands
        choice = STAND
    return choice
