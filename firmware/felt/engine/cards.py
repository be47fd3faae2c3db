# Card codec of the rules engine (engine layer, pure): a card is one small int,
# rank * 4 + suit, rank 0..12 = 2..A, suit 0..3 = c d h s (the DECK-4 suit order), so plain
# int comparison IS the DECK-4 "rank, then suit" order. UNKNOWN (-1) is a face-down card,
# written "??" as in PHH files.
from felt.errors import FormatError

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # DECK-4: clubs < diamonds < hearts < spades
UNKNOWN = -1
DECK_SIZE = 52  # DECK-1

# card words as one text, split when a message needs them (RAM: hardware/memory.md, Idioms)
_NAMES = "two three four five six seven eight nine ten jack queen king ace clubs diamonds hearts spades"


def rank_of(card):
    """Rank index 0..12 (2..A) of a known card."""
    return card >> 2


def suit_of(card):
    """Suit index 0..3 (c d h s) of a known card."""
    return card & 3


def make_card(rank, suit):
    return rank * 4 + suit


def parse_card(text):
    """'Ah' -> 50, '??' -> UNKNOWN. Anything else raises FormatError."""
    if not isinstance(text, str) or len(text) != 2:
        raise FormatError("a card is two characters like 'Ah', not %r" % (text,))
    if text == "??":
        return UNKNOWN
    r = RANKS.find(text[0])
    s = SUITS.find(text[1])
    if r < 0 or s < 0:
        raise FormatError("%r is not a card (ranks %s, suits %s)" % (text, RANKS, SUITS))
    return r * 4 + s


def parse_cards(text):
    """'AhKd' or 'Ah Kd' or 'Ah,Kd' -> [50, 45]; '' -> []. Bad text raises FormatError."""
    if not isinstance(text, str):
        raise FormatError("cards must be text, not %r" % (text,))
    compact = text.replace(" ", "").replace(",", "")
    if len(compact) % 2:
        raise FormatError("%r is not a list of two-character cards" % (text,))
    return [parse_card(compact[i:i + 2]) for i in range(0, len(compact), 2)]


def card_text(card):
    """50 -> 'Ah', UNKNOWN -> '??'."""
    if card == UNKNOWN:
        return "??"
    if not isinstance(card, int) or card < 0 or card >= DECK_SIZE:
        raise FormatError("%r is not a card number (0..51 or -1)" % (card,))
    return RANKS[card >> 2] + SUITS[card & 3]


def cards_text(cards, sep=""):
    """[50, 45] -> 'AhKd' (sep=' ' gives 'Ah Kd')."""
    if sep:
        return sep.join([card_text(c) for c in cards])
    # the common case (every hand shown at the showdown, the board line of every display refresh)
    # written into one buffer: a text per card, a list and the join were ~5x the garbage
    # (hardware/memory.md, showdown round)
    out = bytearray(2 * len(cards))
    i = 0
    for c in cards:
        if c == UNKNOWN:
            out[i] = out[i + 1] = 63  # "??"
        else:
            if not isinstance(c, int) or c < 0 or c >= DECK_SIZE:
                card_text(c)  # raises its FormatError
            out[i] = ord(RANKS[c >> 2])
            out[i + 1] = ord(SUITS[c & 3])
        i += 2
    return out.decode()


def card_name(card):
    """50 -> 'ace of hearts' (for messages a person reads)."""
    if card == UNKNOWN:
        return "an unknown card"
    card_text(card)  # range check
    names = _NAMES.split()
    return names[card >> 2] + " of " + names[13 + (card & 3)]


def highest_card(cards):
    """The highest single card by rank, then suit (DECK-4): button draw, stud first action
    ties (RANK-20) and the stud odd chip. UNKNOWN cards are ignored; -1 if none is known."""
    best = UNKNOWN
    for c in cards:
        if c > best:
            best = c
    return best


def lowest_card(cards):
    """The lowest single known card by rank, then suit (DECK-4): the stud bring-in
    (3c below 3d below 9s). -1 if no card is known."""
    best = UNKNOWN
    for c in cards:
        if c != UNKNOWN and (best == UNKNOWN or c < best):
            best = c
    return best
