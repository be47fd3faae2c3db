# Who opens a street (engine layer, pure): position order for blind games (GAME-3/4, BLIND-6); the
# stud bring-in by lowest upcard (GAME-11, GAME-14) and the best showing hand on later streets
# (GAME-12, RANK-20; razz the other way round, as pokerkit 0.7.7) are in stud_openers.py, which
# opener() imports on first use. Cards are ints rank*4+suit, so int order is DECK-4 order.
from felt.engine import games


def position_opener(street_index, nominal_blinds, later_ties=False):
    """GAME-3: preflop the first player left of the big blind, or of the straddle (BLIND-20),
    i.e. of the largest blind; GAME-4: later streets (and blind-less games) position 0.
    A tie in the largest blind: the EARLIER position is the big blind and a later live post of
    the same size is a make-up (BLIND-14) or new player's BB (BLIND-16), which acts in turn and
    keeps the option (BLIND-11, GAME-3: left of the big blind; RULES.md BLIND-14 example "may
    check when the action reaches them"; S3 «Правила использования жалюзи»). later_ties=True
    is pokerkit 0.7.7's reading of a PHH file (the later position wins a tie): PHH cannot tell
    a make-up from a straddle, so a replayed file opens as pokerkit opens it."""
    if street_index != 0:
        return 0
    best = 0
    who = -1
    for p in range(len(nominal_blinds)):
        b = nominal_blinds[p]
        if b > best or (later_ties and b == best and b > 0):
            best = b
            who = p
    if who < 0:
        return 0
    return (who + 1) % len(nominal_blinds)


def opener(street, street_index, nominal_blinds, upcards, live, later_ties=False):
    """Position that opens the betting of `street` (a games.Street); later_ties: see
    position_opener."""
    kind = street.opening
    if kind == games.OPEN_POSITION:
        return position_opener(street_index, nominal_blinds, later_ties)
    from felt.engine.hand import stud_openers

    if kind == games.OPEN_LOW_CARD:
        return stud_openers.low_card_opener(upcards, live)
    if kind == games.OPEN_HIGH_CARD:
        return stud_openers.high_card_opener(upcards, live)
    if kind == games.OPEN_HIGH_HAND:
        return stud_openers.high_hand_opener(upcards, live)
    return stud_openers.low_hand_opener(upcards, live)

