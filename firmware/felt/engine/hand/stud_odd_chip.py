# Stud odd chips (engine layer, pure): which tied winner gets the odd chip, by the highest (or
# lowest) single card of each contender's five-card hand (RULES.md POT-12). Loaded by settle.py
# only for a stud showdown with tied values: board games never import it
# (RAM: hardware/memory.md, Idioms).
from felt.compat import const
from felt.engine.rank import evaluate

_UNKNOWN = const(-1)


def _fives(k):
    out = []
    for a in range(k):
        for b in range(a + 1, k):
            for c in range(b + 1, k):
                for d in range(c + 1, k):
                    for e in range(d + 1, k):
                        out.append((a, b, c, d, e))
    return tuple(out)


_FIVES = {}  # card count -> its five-card index sets, built on first use (stud only)

# the evaluators a stud hand's five cards are picked by, as one text (RAM: hardware/memory.md, Idioms)
_FIVE_KINDS = const("high low27 lowA5 low8")


def five_card_hand(cards, kind="high"):
    """The five cards of a stud hand's best five-card hand under evaluator `kind` ("high", "low8",
    "low27", "lowA5"), for POT-12. When several five-card sets make the same value (a spare card
    of an equal rank), the set holding the highest card by suit is taken: the player tables the
    five cards that give them the odd chip. None when the cards make no hand of that kind
    (no qualifying 8-or-better low)."""
    cards = [c for c in cards if c != _UNKNOWN]
    if len(cards) < 5 or len(cards) > 7:
        return None
    if kind not in _FIVE_KINDS.split():
        raise KeyError(kind)
    fn = getattr(evaluate, kind)
    best = fn(cards)
    if best < 0:
        return None
    pick = None
    top = -1
    sets = _FIVES.get(len(cards))
    if sets is None:
        sets = _FIVES[len(cards)] = _fives(len(cards))
    for idx in sets:
        five = [cards[i] for i in idx]
        if fn(five) != best:
            continue
        t = max([_ace_low(c) for c in five]) if kind in ("lowA5", "low8") else max(five)
        if pick is None or t > top:
            top = t
            pick = five
    return sorted(pick, reverse=True)


def _ace_low(card):
    # in a low hand (stud/8 low half, razz) the ace is the lowest card (RANK-15), so it maps below
    # the deuces, keeping its suit order (DECK-4)
    return card - 52 if card >= 48 else card


def orders(hand, left, hi, lo):
    """POT-12: odd-chip orders for a stud showdown, by the highest single card (by suit, DECK-4)
    of each contender's FIVE-CARD hand -- not of all seven cards. Returns (order for the high
    half / whole pot, order for a stud/8 low half or None). The low half follows
    hr.stud_odd_chip_low: high_card_by_suit (TDA19: the highest card of the five-card low hand)
    or lowest_card (S3: the lowest card of the low hand, ace low)."""
    kind = hand.game.hi
    tops = [None] * hand.n
    for p in left:
        five = five_card_hand(hand.hole[p], kind if kind in _FIVE_KINDS.split() else "high")
        if five is None:  # unread cards: fall back to the highest card held
            five = [c for c in hand.hole[p] if c != _UNKNOWN] or [-1]
        tops[p] = max([_ace_low(c) for c in five]) if kind == "lowA5" else max(five)
    order = odd_order_by_card(tops)
    if lo is None:
        return order, None
    lowest = hand.rules.stud_odd_chip_low == "lowest_card"
    marks = [None] * hand.n
    for p in left:
        if lo[p] is None:
            continue
        five = five_card_hand(hand.hole[p], "low8")
        if five is None:
            continue
        if lowest:
            marks[p] = min([_ace_low(c) for c in five])
        else:
            marks[p] = max([_ace_low(c) for c in five])
    return order, odd_order_by_card(marks, lowest=lowest)


def odd_order_by_card(cards, lowest=False):
    """Stud odd-chip order (POT-12): positions by the highest single card of their five-card
    hand, by rank then suit (card ints compare in DECK-4 order), highest first. cards: per
    position that card (int) or None for a position not contesting. lowest=True orders by
    the lowest card, lowest first (hr.stud_odd_chip_low = lowest_card, S3)."""
    ps = [p for p in range(len(cards)) if cards[p] is not None]
    if lowest:
        return sorted(ps, key=lambda p: (cards[p], p))
    return sorted(ps, key=lambda p: (-cards[p], p))
