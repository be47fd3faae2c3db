# Card values and hand totals of blackjack (engine layer, pure; BJ-1, BJ-2): 2-9 count their
# number, ten and pictures 10, an ace 1 or 11. Cards are felt.engine.cards ints (rank * 4 + suit,
# rank 0..12 = 2..A).

ACE = 12  # rank index of an ace
_TEN = 8  # rank index of a ten; 8..11 = T J Q K


def value(card):
    """BJ-1: the count of one card, an ace as 11."""
    r = card >> 2
    if r == ACE:
        return 11
    return 10 if r >= _TEN else r + 2


def total(cards):
    """BJ-1: (best total, soft) -- an ace counts 11 while that keeps the hand at 21 or under,
    and the total is then soft."""
    hard = 0
    aces = 0
    for c in cards:
        r = c >> 2
        if r == ACE:
            aces += 1
            hard += 1
        else:
            hard += 10 if r >= _TEN else r + 2
    if aces and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def is_natural(cards):
    """BJ-2: an ace and a ten-count card as a hand's first two cards."""
    return len(cards) == 2 and total(cards)[0] == 21


def is_picture(card):
    """J, Q or K (BJ-11: 'две картинки, даже неодинаковые')."""
    return 9 <= (card >> 2) <= 11


def split_pair(a, b, match):
    """BJ-11: may cards a and b be split under bj.split_match? 'rank': the same rank; 'pictures':
    the same rank or two picture cards (the seed's queen and king); 'value': the same count
    (a ten and a king too)."""
    if (a >> 2) == (b >> 2):
        return True
    if match == "pictures":
        return is_picture(a) and is_picture(b)
    if match == "value":
        return value(a) == value(b)
    return False


def text(cards):
    """'soft 17', 'hard 12', 'BJ', 'bust 24' for a display line (BJ-1)."""
    t, soft = total(cards)
    if t > 21:
        return "bust %d" % t
    if is_natural(cards):
        return "BJ"
    return ("soft %d" if soft else "%d") % t
