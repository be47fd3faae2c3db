# Who opens a stud or razz street (engine layer, pure): the bring-in by lowest upcard (GAME-11,
# GAME-14) and the best showing hand on later streets (GAME-12, RANK-20), razz the other way round
# (as pokerkit 0.7.7). Imported where used (openers.opener, the Hand's first stud street): blind
# games never load it.
from felt.engine.rank import evaluate

UNKNOWN = -1


def _razz_rank(card):
    # ace low for razz: A=0, 2=1 ... K=12
    return (card // 4 + 1) % 13


def _first_best(upcards, live, key):
    # the live position holding the upcard with the largest key (a tie: the first one met)
    who = 0
    best = None
    for p in range(len(upcards)):
        if not live[p]:
            continue
        for c in upcards[p]:
            if c == UNKNOWN:
                continue
            k = key(c)
            if best is None or k > best:
                best = k
                who = p
    return who


def low_card_opener(upcards, live):
    """GAME-11: the lowest upcard, ace high, clubs lowest -- the smallest card int."""
    return _first_best(upcards, live, _negated)


def _negated(card):
    return -card


def high_card_opener(upcards, live):
    """Razz 3rd street: the highest upcard with the ace low, ties by suit (pokerkit)."""
    return _first_best(upcards, live, _razz_key)


def _razz_key(card):
    return _razz_rank(card) * 4 + card % 4


def highest_upcard_opener(upcards, live):
    """GAME-14 under hr.stud5_first_action = highest_card: the highest upcard by rank opens;
    a tie in rank goes to the tied player first clockwise from the button."""
    who = 0
    best = -1
    for p in range(len(upcards)):
        if not live[p]:
            continue
        for c in upcards[p]:
            if c != UNKNOWN and c // 4 > best:
                best = c // 4
                who = p
    return who


def partial_key(cards, ace_low):
    """Razz order of a partial (1..4 card) showing hand, as pokerkit's low-hand opening:
    quads > trips > two pair > pair > high cards, then the ranks of the groups (bigger groups
    first, then higher rank), ace low. Returns a tuple; the smallest is the best razz hand."""
    counts = [0] * 13
    for c in cards:
        if c != UNKNOWN:
            counts[_razz_rank(c) if ace_low else c // 4] += 1
    groups = []
    for r in range(12, -1, -1):
        if counts[r]:
            groups.append((counts[r], r))
    groups.sort(key=lambda g: (-g[0], -g[1]))  # full keys: no reliance on a stable sort
    shape = [g[0] for g in groups]
    if 4 in shape:
        cat = 5
    elif 3 in shape:
        cat = 4
    elif shape.count(2) >= 2:
        cat = 3
    elif 2 in shape:
        cat = 2
    else:
        cat = 1
    return (cat,) + tuple(g[1] for g in groups)


def high_hand_opener(upcards, live):
    """GAME-12: the best showing hand acts first (RANK-20, evaluate.showing: ties go to the
    hand holding the highest single upcard by suit, DECK-4)."""
    who = 0
    best = -1
    for p in range(len(upcards)):
        if not live[p]:
            continue
        known = [c for c in upcards[p] if c != UNKNOWN]
        if not known:
            continue
        v = evaluate.showing(known)
        if v > best:
            best = v
            who = p
    return who


def low_hand_opener(upcards, live):
    """Razz later streets: the lowest showing hand (ace low, pairs bad); ties to the first
    position, as pokerkit does."""
    who = 0
    best = None
    for p in range(len(upcards)):
        if not live[p]:
            continue
        key = partial_key(upcards[p], True)
        if best is None or key < best:
            best = key
            who = p
    return who
