# Hand evaluation for every game the table deals (engine layer, pure; RULES.md RANK-1..20).
# Every value is one int, LARGER IS BETTER, below 2**30 so it stays a MicroPython small int,
# and nothing here allocates per call (proved with micropython.heap_lock in test_rank.py).
#
# High values: CATEGORY << 26 | PRIMARY << 13 | KICKERS, where PRIMARY and KICKERS are rank
# bit masks (bit 0 = deuce). Comparing two such masks of equal size as ints compares their
# ranks from the top down, which is exactly RANK-3..11; suits never enter (DECK-3), so equal
# ranks tie (RANK-12). Straights keep 1 + the rank of their top card in the low bits.
# Low values (low27, lowA5) are LOW_BASE - the high value in that game's own ranking;
# 8-or-better lows are 255 - (mask of the five low ranks, ace = bit 0), -1 when none qualifies.
from felt.engine import evaltables as _t

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, \
    STRAIGHT_FLUSH = range(9)
NO_LOW = -1
LOW_BASE = (1 << 30) - 1

_STD = 0  # standard high: A-2-3-4-5 is a straight (RANK-7)
_NOWHEEL = 1  # 2-7 lowball (pokerkit StandardLowHand): the ace is only high
_SHORT = 2  # short deck: A-6-7-8-9 is the lowest straight, a flush beats a full house
_A5 = 3  # A-5 lowball: ace low, straights and flushes do not count

_RK = _t.RANK_KEY
_XK = _t.SUIT_KEY
_C0 = _t.CHUNK0
_C1 = _t.CHUNK1
_C2 = _t.CHUNK2
_C3 = _t.CHUNK3
_C4 = _t.CHUNK4
_STR = _t.STRAIGHT
_BIX = _t.BIT_INDEX
_LB = _t.LOW_BIT
_L5 = _t.LOWEST5
_L3 = _t.LOWEST3
_COMBOS = _t.COMBOS
_FADD = _t.FLUSH_ADD
_FBITS = _t.FLUSH_BITS


def _count(bit, r, x):
    # how many cards of the rank whose bit is `bit`, read from the count fields
    i = _BIX[bit % 37]
    if i < 9:
        return (r >> (3 * i)) & 7
    return (x >> (3 * i - 27)) & 7


def _top(m):
    # the highest set bit of m
    while m & (m - 1):
        m &= m - 1
    return m


def _keep(m, k):
    # m with only its k highest set bits
    n = 0
    t = m
    while t:
        t &= t - 1
        n += 1
    while n > k:
        m &= m - 1
        n -= 1
    return m


def _sets(u, r, x, fh):
    # Full house or four of a kind (any hand whose P holds a rank with 3+ cards); fh is the
    # full-house category number (it differs in short deck). RANK-4, RANK-5.
    p = (u >> 13) & 8191
    q = 0
    t = 0
    m = p
    while m:
        b = m & -m
        m ^= b
        n = _count(b, r, x)
        if n == 4:
            q = b
        elif n == 3:
            t = b  # bits come lowest first, so the last one is the highest trips
    if q:
        return 0x1C000000 | (q << 13) | _top((u & 8191) ^ q)
    return (fh << 26) | (t << 13) | _top(p ^ t)


def _straight(d, mode):
    s = _STR[d]
    if mode == _NOWHEEL and s == 4:
        return 0
    if mode == _SHORT and not s and d & 0x10F0 == 0x10F0:
        return 8  # A-6-7-8-9: the ace plays low, nine high
    return s


def _five(r, x, mode):
    # value of exactly five cards given their key sums (r, x) in one of the modes above
    u = _C0[r & 511] + _C1[(r >> 9) & 511] + _C2[r >> 18] + _C3[x & 511] + _C4[(x >> 9) & 7]
    sh = u >> 26
    d = u & 8191
    if sh == 0:
        if mode == _A5:
            return d
        s = _straight(d, mode)
        if (x + _FADD) & _FBITS:
            if s:
                return 0x20000000 | s
            return (0x18000000 if mode == _SHORT else 0x14000000) | d
        if s:
            return 0x10000000 | s
        return d
    p = u & 0x3FFE000
    if sh == 1:
        return 0x4000000 | p | (d ^ (p >> 13))
    if sh == 2:
        return 0x8000000 | p | (d ^ (p >> 13))
    if sh == 4:
        return 0xC000000 | p | (d ^ (p >> 13))
    return _sets(u, r, x, 5 if mode == _SHORT else 6)


def _flush7(cards, x):
    # 7 cards holding 5+ of one suit: a flush or straight flush (with 7 cards neither a full
    # house nor quads can exist beside it, so this is the hand). RANK-3, RANK-6.
    f = ((x + _FADD) & _FBITS) >> 15
    s = 0
    while f > 1:
        f >>= 4
        s += 1
    m = 0
    for c in cards:
        if c & 3 == s:
            m |= 1 << (c >> 2)
    st = _STR[m]
    if st:
        return 0x20000000 | st
    return 0x14000000 | _keep(m, 5)


def high(cards, RK=_RK, XK=_XK, C0=_C0, C1=_C1, C2=_C2, C3=_C3, C4=_C4, STR=_STR):
    """Best five-card high hand of 5..7 cards (RANK-1..13, RANK-19)."""
    if len(cards) != 7:
        return _high_other(cards)
    a, b, c, d, e, f, g = cards
    r = RK[a] + RK[b] + RK[c] + RK[d] + RK[e] + RK[f] + RK[g]
    x = XK[a] + XK[b] + XK[c] + XK[d] + XK[e] + XK[f] + XK[g]
    if (x + 0x3333000) & 0x8888000:
        return _flush7(cards, x)
    u = C0[r & 511] + C1[(r >> 9) & 511] + C2[r >> 18] + C3[x & 511] + C4[(x >> 9) & 7]
    a = u >> 26
    d = u & 8191
    # 7 cards, by frequency: one pair 2111 11 (6 ranks), two pair 22111 (5), no pair (7),
    # trips 31111 (5), three pairs 2221 (4); the rest are full houses and quads.
    if a == 1:
        s = STR[d]
        if s:
            return 0x10000000 | s
        p = u & 0x3FFE000
        d ^= p >> 13
        d &= d - 1
        return 0x4000000 | p | (d & (d - 1))
    if a == 2:
        s = STR[d]
        if s:
            return 0x10000000 | s
        p = u & 0x3FFE000
        d ^= p >> 13
        d &= d - 1
        return 0x8000000 | p | (d & (d - 1))
    if a == 0:
        s = STR[d]
        if s:
            return 0x10000000 | s
        d &= d - 1
        return d & (d - 1)
    if a == 4:
        s = STR[d]
        if s:
            return 0x10000000 | s
        p = u & 0x3FFE000
        d ^= p >> 13
        d &= d - 1
        return 0xC000000 | p | (d & (d - 1))
    if a == 3:
        p = (u >> 13) & 8191
        p &= p - 1
        d ^= p
        return 0x8000000 | (p << 13) | (d & (d - 1))
    return _sets(u, r, x, 6)


def _best(cards, mode, rk, xk):
    # best of every five-card subset of 5..7 cards in `mode` (high-is-better scale)
    n = len(cards)
    if n < 5 or n > 7:
        raise ValueError("RANK-1: a hand is made of 5 to 7 cards, not %d" % n)
    combos = _COMBOS[n * 8 + 5]
    best = -1
    for i in range(0, len(combos), 5):
        a = cards[combos[i]]
        b = cards[combos[i + 1]]
        c = cards[combos[i + 2]]
        d = cards[combos[i + 3]]
        e = cards[combos[i + 4]]
        v = _five(rk[a] + rk[b] + rk[c] + rk[d] + rk[e], xk[a] + xk[b] + xk[c] + xk[d] + xk[e], mode)
        if v > best:
            best = v
    return best


def _worst(cards, mode, rk, xk):
    # lowball: the five-card subset with the lowest high-scale value
    n = len(cards)
    if n < 5 or n > 7:
        raise ValueError("RANK-1: a hand is made of 5 to 7 cards, not %d" % n)
    combos = _COMBOS[n * 8 + 5]
    worst = LOW_BASE
    for i in range(0, len(combos), 5):
        a = cards[combos[i]]
        b = cards[combos[i + 1]]
        c = cards[combos[i + 2]]
        d = cards[combos[i + 3]]
        e = cards[combos[i + 4]]
        v = _five(rk[a] + rk[b] + rk[c] + rk[d] + rk[e], xk[a] + xk[b] + xk[c] + xk[d] + xk[e], mode)
        if v < worst:
            worst = v
    return worst


def _high_other(cards):
    return _best(cards, _STD, _RK, _XK)


def short_deck_high(cards):
    """Short-deck (6..A) hold'em high of 5..7 cards, ranked as pokerkit 0.7.7 does: a flush
    beats a full house and A-6-7-8-9 is the lowest straight."""
    return _best(cards, _SHORT, _RK, _XK)


def low27(cards):
    """2-7 lowball, best five of 5..7: straights and flushes count, the ace is high."""
    return LOW_BASE - _worst(cards, _NOWHEEL, _RK, _XK)


def lowA5(cards):
    """A-5 lowball (razz), best five of 5..7: ace low, straights and flushes ignored, pairs
    count against the hand, no qualifier."""
    return LOW_BASE - _worst(cards, _A5, _t.RANK_KEY_A5, _t.SUIT_KEY_A5)


def low8(cards, LB=_LB, L5=_L5):
    """8-or-better low of 5..7 cards (RANK-15, RANK-16): 255 - mask of the five lowest
    distinct ranks A..8, or NO_LOW (-1) when fewer than five qualify."""
    m = 0
    for c in cards:
        m |= LB[c]
    m = L5[m]
    if m:
        return 255 - m
    return NO_LOW


def omaha_high(hole, board):
    """Omaha high: exactly two hole cards and three board cards (RANK-14)."""
    nh = len(hole)
    nb = len(board)
    if nh < 2 or nb < 3 or nh > 7 or nb > 5:
        raise ValueError("RANK-14: Omaha needs 2+ hole cards and 3..5 board cards")
    pairs = _COMBOS[nh * 8 + 2]
    triples = _COMBOS[nb * 8 + 3]
    rk = _RK
    xk = _XK
    best = -1
    for i in range(0, len(pairs), 2):
        a = hole[pairs[i]]
        b = hole[pairs[i + 1]]
        hr = rk[a] + rk[b]
        hx = xk[a] + xk[b]
        for j in range(0, len(triples), 3):
            c = board[triples[j]]
            d = board[triples[j + 1]]
            e = board[triples[j + 2]]
            v = _five(hr + rk[c] + rk[d] + rk[e], hx + xk[c] + xk[d] + xk[e], _STD)
            if v > best:
                best = v
    return best


def omaha_low8(hole, board, LB=_LB, L3=_L3):
    """Omaha 8-or-better low: two hole cards of distinct low ranks plus the three lowest
    board ranks not among them (RANK-14, RANK-15, RANK-17); NO_LOW when impossible (RANK-18)."""
    bm = 0
    for c in board:
        bm |= LB[c]
    best = 256
    n = len(hole)
    for i in range(n - 1):
        a = LB[hole[i]]
        if not a:
            continue
        for j in range(i + 1, n):
            h = LB[hole[j]]
            if not h or h == a:
                continue
            h |= a
            m = L3[bm & ~h]
            if m:
                m |= h
                if m < best:
                    best = m
    if best == 256:
        return NO_LOW
    return 255 - best


def badugi(cards):
    """Badugi value of up to 4 cards: more cards of distinct suits and ranks is better, then
    the lower highest card (ace low). pokerkit 0.7.7 BadugiHand order."""
    n = len(cards)
    best = 0
    for s in range(1, 1 << n):
        suits = 0
        ranks = 0
        k = 0
        ok = True
        for i in range(n):
            if s >> i & 1:
                c = cards[i]
                sb = 1 << (c & 3)
                rb = 1 << ((c >> 2) + 1) % 13
                if suits & sb or ranks & rb:
                    ok = False
                    break
                suits |= sb
                ranks |= rb
                k += 1
        if ok:
            v = (k << 13) | (8191 - ranks)
            if v > best:
                best = v
    return best


def showing(upcards):
    """Stud: value of 1..4 showing cards for the first action (RANK-20): quads > trips > two
    pair > pair > high card with kickers as RANK-4..11, no straights or flushes, and the
    highest card by suit (DECK-4) breaking what the ranks leave tied. Compare only hands with
    the same number of upcards (all players have that on one street)."""
    hi = -1
    r = 0
    x = 0
    for c in upcards:
        if c > hi:
            hi = c
        k = c >> 2
        if k < 9:
            r += 1 << (3 * k)
        else:
            x += 1 << (3 * k - 27)
    # the ranks four bits each, by (count, rank) from the top; shape = sum of (count-1)**2 is
    # 0 high card, 1 pair, 2 two pair, 4 trips, 9 quads -- already in RANK-20 order
    v = 0
    shape = 0
    for want in range(4, 0, -1):
        for k in range(12, -1, -1):
            n = (r >> (3 * k)) & 7 if k < 9 else (x >> (3 * k - 27)) & 7
            if n == want:
                v = (v << 4) | k
                shape += (n - 1) * (n - 1)
    return (shape << 22) | (v << 6) | hi


def category(value):
    """0..8 (HIGH_CARD .. STRAIGHT_FLUSH) of a high() / omaha_high() value."""
    return value >> 26


_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
          "queen", "king", "ace")
_PLURAL = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
           "jacks", "queens", "kings", "aces")
_LOW_CHARS = "A2345678"


def _index(bit):
    return _BIX[bit % 37]


def _ranks_desc(mask):
    out = []
    for i in range(12, -1, -1):
        if mask >> i & 1:
            out.append(i)
    return out


def _describe_high(v, short, shift=0):
    # shift: bit i of the masks is rank (i + shift) % 13 (12 for ace-low masks)
    cat = v >> 26
    prim = (v >> 13) & 8191
    kick = v & 8191
    if short and cat in (5, 6):
        cat = 11 - cat  # short deck stores a flush as 6 and a full house as 5
    if cat == STRAIGHT_FLUSH:
        if kick == 13:
            return "a royal flush"
        return "a straight flush, %s high" % _NAMES[kick - 1]
    if cat == FOUR_OF_A_KIND:
        return "four of a kind, %s" % _PLURAL[(_index(prim) + shift) % 13]
    if cat == FULL_HOUSE:
        return "a full house, %s full of %s" % (_PLURAL[(_index(prim) + shift) % 13],
                                                 _PLURAL[(_index(kick) + shift) % 13])
    if cat == FLUSH:
        return "a flush, %s high" % _NAMES[_ranks_desc(kick)[0]]
    if cat == STRAIGHT:
        return "a straight, %s high" % _NAMES[kick - 1]
    if cat == THREE_OF_A_KIND:
        return "three of a kind, %s" % _PLURAL[(_index(prim) + shift) % 13]
    if cat == TWO_PAIR:
        hi, lo = _ranks_desc(prim)
        return "two pair, %s and %s" % (_PLURAL[(hi + shift) % 13], _PLURAL[(lo + shift) % 13])
    if cat == PAIR:
        return "a pair of %s" % _PLURAL[(_index(prim) + shift) % 13]
    return "%s high" % _NAMES[(_ranks_desc(kick)[0] + shift) % 13]


def _low_text(ranks):
    text = "-".join(ranks)
    return ("an " if text[0] in "8A" else "a ") + text + " low"


def describe(value, kind="high"):
    """Words for a value: 'a flush, ace high', 'two pair, kings and sevens', 'a full house,
    sevens full of kings', 'an 8-6-4-2-A low'. kind: high low8 low27 lowA5 badugi short."""
    if kind == "high":
        return _describe_high(value, False)
    if kind == "short":
        return _describe_high(value, True)
    if kind == "low8":
        if value < 0:
            return "no low"
        m = 255 - value
        return _low_text([_LOW_CHARS[i] for i in range(7, -1, -1) if m >> i & 1])
    if kind == "low27":
        v = LOW_BASE - value
        if v >> 26 == HIGH_CARD:
            return _low_text(["23456789TJQKA"[i] for i in _ranks_desc(v)])
        return _describe_high(v, False)
    if kind == "lowA5":
        v = LOW_BASE - value
        if v >> 26 == HIGH_CARD:
            return _low_text(["A23456789TJQK"[i] for i in _ranks_desc(v)])
        return _describe_high(v, False, 12)
    if kind == "badugi":
        k = value >> 13
        ranks = ["A23456789TJQK"[i] for i in _ranks_desc(8191 - (value & 8191))]
        word = ("", "one", "two", "three", "four")[k]
        if k == 4:
            return "a badugi, " + "-".join(ranks)
        return "a %s-card hand, %s" % (word, "-".join(ranks))
    raise ValueError("unknown hand kind %r" % (kind,))
