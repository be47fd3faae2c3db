# Hand evaluation for every game the table deals (engine layer, pure; RULES.md RANK-1..20). Every
# value is one int, LARGER IS BETTER, below 2**30 so it stays a MicroPython small int. Nothing here
# allocates per call, not even a heap frame: hot functions stay within 11 words of arguments, locals
# and stack (hardware/memory.md, Idioms; test_rank.py checks with heap_lock and mem_total).
#
# High values: CATEGORY << 26 | PRIMARY << 13 | KICKERS, where PRIMARY and KICKERS are rank
# bit masks (bit 0 = deuce). Comparing two such masks of equal size as ints compares their
# ranks from the top down, which is exactly RANK-3..11; suits never enter (DECK-3), so equal
# ranks tie (RANK-12). Straights keep 1 + the rank of their top card in the low bits.
# Low values (low27, lowA5) are LOW_BASE - the high value in that game's own ranking;
# 8-or-better lows are 255 - (mask of the five low ranks, ace = bit 0), -1 when none qualifies.
# Cards must be known (0..51): an UNKNOWN (-1) card raises IndexError or ValueError.
import array

from felt.compat import const
from felt.engine.rank.tables import BIT_INDEX, CHUNK0, CHUNK1, CHUNK2, CHUNK3, CHUNK4, COMBOS, LOW_BIT, \
    LOWEST3, LOWEST5, RANK_KEY, RANK_KEY_A5, SUIT_KEY, SUIT_KEY_A5
from felt.engine.rank.tables import STRAIGHT as _STR  # here STRAIGHT is the category

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, \
    STRAIGHT_FLUSH = range(9)
NO_LOW = -1
LOW_BASE = (1 << 30) - 1

# The tables keep their tables.py names (no module-level aliases) and the modes are const() (RAM: hardware/memory.md, Idioms).
_STD = const(0)  # standard high: A-2-3-4-5 is a straight (RANK-7)
_NOWHEEL = const(1)  # 2-7 lowball (pokerkit StandardLowHand): the ace is only high
_SHORT = const(2)  # short deck: A-6-7-8-9 is the lowest straight, a flush beats a full house
_A5 = const(3)  # A-5 lowball: ace low, straights and flushes do not count
_FADD = const(0x3333 << 12)  # a suit field reaches 8 (bit 3) exactly when it holds 5+ cards
_FBITS = const(0x8888 << 12)

# Scratch space, allocated once (evaluation never yields, so one set is enough; CPython
# callers must not evaluate from two threads at once):
_KR = array.array("i", [0] * 8)  # per-card keys of the hand being ranked by _best
_KX = array.array("i", [0] * 8)
_OB = array.array("i", [-1] * 6)  # Omaha board cache: card count, then the cards
_OTR = array.array("i", [0] * 10)  # per board triple: key sums, chunk sum, flush mask
_OTX = array.array("i", [0] * 10)
_OTU = array.array("i", [0] * 10)
_OTF = array.array("i", [0] * 10)
# the board's suit with 3+ cards (or -1), distinct rank triples, generation, all triples
_OSUIT = array.array("i", [-1, 0, 0, 0])
# best non-flush value per hole rank pair (high rank h >= low rank l at h * (h + 1) // 2 + l: 91
# pairs), valid when its byte in _OPG equals the board generation _OSUIT[2] (1..255)
_OPV = array.array("i", [0] * 91)
_OPG = bytearray(91)


def _chunks(r, x):
    # D | P << 13 | SHAPE << 26 of the hand whose key sums are r, x (see tables.py)
    return CHUNK0[r & 511] + CHUNK1[(r >> 9) & 511] + CHUNK2[r >> 18] + CHUNK3[x & 511] + CHUNK4[(x >> 9) & 7]


def _count(bit, r, x):
    # how many cards of the rank whose bit is `bit`, read from the count fields
    bit = BIT_INDEX[bit % 37]
    if bit < 9:
        return (r >> (3 * bit)) & 7
    return (x >> (3 * bit - 27)) & 7


def _top(m):
    # the highest set bit of m
    while m & (m - 1):
        m &= m - 1
    return m


def _sets(u, r, x):
    # Full house or four of a kind (P holds a rank with 3+ cards): quads first, else the
    # highest trips over the highest other pair. RANK-4, RANK-5.
    t = 4096
    while t:
        if _count(t, r, x) == 4:
            return 0x1C000000 | (t << 13) | _top((u & 8191) ^ t)
        t >>= 1
    t = 4096
    while _count(t, r, x) != 3:
        t >>= 1
    return 0x18000000 | (t << 13) | _top(((u >> 13) & 8191) ^ t)


def _five(r, x, mode):
    # value of exactly five cards given their key sums (r, x) in one of the modes above
    u = CHUNK0[r & 511] + CHUNK1[(r >> 9) & 511] + CHUNK2[r >> 18] + CHUNK3[x & 511] + CHUNK4[(x >> 9) & 7]
    if u < 0x4000000:  # five different ranks
        if mode == _A5:
            return u
        r = _STR[u]
        if mode == _NOWHEEL and r == 4:
            r = 0  # 2-7: A-2-3-4-5 is only ace high
        elif mode == _SHORT and not r and u & 0x10F0 == 0x10F0:
            r = 8  # short deck: A-6-7-8-9, nine high
        if (x + _FADD) & _FBITS:
            if r:
                return 0x20000000 | r
            if mode == _SHORT:
                return 0x18000000 | u  # flush above full house
            return 0x14000000 | u
        if r:
            return 0x10000000 | r
        return u
    if u < 0xC000000:  # one pair, two pair: the shape is the category
        return u ^ ((u >> 13) & 8191)
    if u < 0x14000000:  # trips (shape 4 -> category 3)
        return (u ^ ((u >> 13) & 8191)) - 0x4000000
    u = _sets(u, r, x)
    if mode == _SHORT and u < 0x1C000000:
        return u - 0x4000000  # short deck full house is category 5
    return u


def _flush7(cards, x):
    # 7 cards holding 5+ of one suit: a flush or straight flush (with 7 cards neither a full
    # house nor quads can exist beside it, so this is the hand). RANK-3, RANK-6.
    x = BIT_INDEX[(((x + _FADD) & _FBITS) >> 15) % 37] >> 2  # the suit: its field bit 3 was set
    m = 0
    i = 0
    while i < 7:
        if cards[i] & 3 == x:
            m |= 1 << (cards[i] >> 2)
        i += 1
    if _STR[m]:
        return 0x20000000 | _STR[m]
    x = m
    i = 0
    while x:
        x &= x - 1
        i += 1
    while i > 5:
        m &= m - 1
        i -= 1
    return 0x14000000 | m


def high(cards):
    """Best five-card high hand of 5..7 cards (RANK-1..13, RANK-19)."""
    if len(cards) != 7:
        if len(cards) == 5:
            return _five(RANK_KEY[cards[0]] + RANK_KEY[cards[1]] + RANK_KEY[cards[2]] + RANK_KEY[cards[3]]
                         + RANK_KEY[cards[4]],
                         SUIT_KEY[cards[0]] + SUIT_KEY[cards[1]] + SUIT_KEY[cards[2]] + SUIT_KEY[cards[3]]
                         + SUIT_KEY[cards[4]],
                         _STD)
        return _best(cards, _STD)
    r = (RANK_KEY[cards[0]] + RANK_KEY[cards[1]] + RANK_KEY[cards[2]] + RANK_KEY[cards[3]] + RANK_KEY[cards[4]]
         + RANK_KEY[cards[5]] + RANK_KEY[cards[6]])
    x = (SUIT_KEY[cards[0]] + SUIT_KEY[cards[1]] + SUIT_KEY[cards[2]] + SUIT_KEY[cards[3]] + SUIT_KEY[cards[4]]
         + SUIT_KEY[cards[5]] + SUIT_KEY[cards[6]])
    if (x + 0x3333000) & 0x8888000:
        return _flush7(cards, x)
    u = CHUNK0[r & 511] + CHUNK1[(r >> 9) & 511] + CHUNK2[r >> 18] + CHUNK3[x & 511] + CHUNK4[(x >> 9) & 7]
    d = u & 8191
    # 7 cards by frequency: one pair 211111 (6 ranks), two pair 22111 (5), no pair (7),
    # trips 31111 (5), three pairs 2221 (4); the rest are full houses and quads. A straight
    # beats each of the first four and cannot occur beside the others.
    if u < 0x8000000:
        if _STR[d]:
            return 0x10000000 | _STR[d]
        if u < 0x4000000:  # no pair: the five highest ranks
            d &= d - 1
            return d & (d - 1)
        u &= 0x3FFE000  # one pair and the three highest other ranks
        d ^= u >> 13
        d &= d - 1
        return 0x4000000 | u | (d & (d - 1))
    if u < 0xC000000:  # two pair and the highest other rank
        if _STR[d]:
            return 0x10000000 | _STR[d]
        u &= 0x3FFE000
        d ^= u >> 13
        d &= d - 1
        return 0x8000000 | u | (d & (d - 1))
    if u < 0x10000000:  # three pairs: the two highest, kicker from the rest
        u = (u >> 13) & 8191
        u &= u - 1
        d ^= u
        return 0x8000000 | (u << 13) | (d & (d - 1))
    if u < 0x14000000:  # trips and the two highest other ranks
        if _STR[d]:
            return 0x10000000 | _STR[d]
        u &= 0x3FFE000
        d ^= u >> 13
        d &= d - 1
        return 0xC000000 | u | (d & (d - 1))
    return _sets(u, r, x)


def _load(cards, mode):
    # the hand's keys into _KR/_KX[0..n-1], their sums into [7]; returns n (5..7)
    n = len(cards)
    if n < 5 or n > 7:
        raise ValueError("RANK-1: a hand is made of 5 to 7 cards, not %d" % n)
    _KR[7] = 0
    _KX[7] = 0
    while n:
        n -= 1
        if mode == _A5:
            _KR[n] = RANK_KEY_A5[cards[n]]
            _KX[n] = SUIT_KEY_A5[cards[n]]
        else:
            _KR[n] = RANK_KEY[cards[n]]
            _KX[n] = SUIT_KEY[cards[n]]
        _KR[7] += _KR[n]
        _KX[7] += _KX[n]
    return len(cards)


def _val(r, x, mode):
    # _five on the larger-is-better scale of its game
    if mode == _STD or mode == _SHORT:
        return _five(r, x, mode)
    return LOW_BASE - _five(r, x, mode)


def _drop1(mode, best):
    # best value over the 6 five-card subsets of the 6 cards in _KR/_KX
    i = 6
    while i:
        i -= 1
        v = _val(_KR[7] - _KR[i], _KX[7] - _KX[i], mode)
        if v > best:
            best = v
    return best


def _drop2(mode, best):
    # best value over the 21 five-card subsets of the 7 cards in _KR/_KX
    i = 7
    while i:
        i -= 1
        j = i
        while j:
            j -= 1
            v = _val(_KR[7] - _KR[i] - _KR[j], _KX[7] - _KX[i] - _KX[j], mode)
            if v > best:
                best = v
    return best


def _best(cards, mode):
    # best five of 5..7 cards in `mode`, larger is better
    n = _load(cards, mode)
    if n == 5:
        return _val(_KR[7], _KX[7], mode)
    if n == 6:
        return _drop1(mode, -1)
    return _drop2(mode, -1)


def short_deck_high(cards):
    """Short-deck (6..A) hold'em high of 5..7 cards, ranked as pokerkit 0.7.7 does: a flush
    beats a full house and A-6-7-8-9 is the lowest straight."""
    return _best(cards, _SHORT)


def low27(cards):
    """2-7 lowball, best five of 5..7: straights and flushes count, the ace is high."""
    return _best(cards, _NOWHEEL)


def lowA5(cards):
    """A-5 lowball (razz), best five of 5..7: ace low, straights and flushes ignored, pairs
    count against the hand, no qualifier."""
    return _best(cards, _A5)


def _lowmask(cards):
    # ranks A..8 present among the cards, ace = bit 0
    m = 0
    i = len(cards)
    while i:
        i -= 1
        m |= LOW_BIT[cards[i]]
    return m


def low8(cards):
    """8-or-better low of 5..7 cards (RANK-15, RANK-16): 255 - mask of the five lowest
    distinct ranks A..8, or NO_LOW (-1) when fewer than five qualify."""
    m = LOWEST5[_lowmask(cards)]
    if m:
        return 255 - m
    return NO_LOW


def _olow(a, h, bm, best):
    # hole low bits a, h with board low mask bm: the smaller of best and their low mask
    if not a or not h or a == h:
        return best  # both hole cards must be low and of different ranks (RANK-15)
    h |= a
    a = LOWEST3[bm & ~h]  # the three lowest board ranks that do not pair the hole cards
    if a and a | h < best:
        return a | h
    return best


def omaha_low8(hole, board):
    """Omaha 8-or-better low: two hole cards of distinct low ranks plus the three lowest
    board ranks not among them (RANK-14, RANK-15, RANK-17); NO_LOW when impossible (RANK-18)."""
    board = _lowmask(board)
    if not LOWEST3[board]:
        return NO_LOW  # fewer than three low ranks on board (RANK-18)
    if _lowmask(hole) > 255:
        raise ValueError("an unknown hole card (-1) cannot be ranked")
    best = 256
    i = len(hole) - 1
    while i:
        j = i
        while j:
            j -= 1
            best = _olow(LOW_BIT[hole[i]], LOW_BIT[hole[j]], board, best)
        i -= 1
    if best == 256:
        return NO_LOW
    return 255 - best


def _ofill(board, combos, t):
    # board triple t: its flush mask into _OTF[t]; its key sums and chunk sum into the next
    # free slot of _OTR/_OTX/_OTU unless a triple of the same ranks is already there
    a = board[combos[3 * t]]
    b = board[combos[3 * t + 1]]
    c = board[combos[3 * t + 2]]
    if a & 3 == _OSUIT[0] and b & 3 == _OSUIT[0] and c & 3 == _OSUIT[0]:
        _OTF[t] = (1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2))
    else:
        _OTF[t] = 0
    t = _OSUIT[1]
    _OTR[t] = RANK_KEY[a] + RANK_KEY[b] + RANK_KEY[c]
    _OTX[t] = SUIT_KEY[a] + SUIT_KEY[b] + SUIT_KEY[c]
    _OTU[t] = _chunks(_OTR[t], _OTX[t])
    while t:
        t -= 1
        if _OTR[t] == _OTR[_OSUIT[1]] and _OTX[t] & 4095 == _OTX[_OSUIT[1]] & 4095:
            return  # same ranks: the hole pairs would score the same
    _OSUIT[1] += 1


def _oboard(board):
    # refresh the per-board cache unless it already holds this board (a showdown ranks
    # every player against the same board, so this runs once per hand)
    n = len(board)
    if n < 3 or n > 5:
        raise ValueError("RANK-14: an Omaha board has 3 to 5 cards, not %d" % n)
    same = _OB[0] == n
    i = n
    while same and i:
        i -= 1
        same = _OB[i + 1] == board[i]
    if same:
        return
    _OB[0] = -1  # invalid while being filled
    i = n
    while i:
        i -= 1
        if not 0 <= board[i] < 52:
            raise ValueError("board card %r is not a known card (0..51)" % (board[i],))
    i = _OSUIT[2] + 1  # a new generation forgets every rank pair's value
    if i > 255:  # one byte a pair: on wrapping, clear them so that no old entry matches
        i = 91
        while i:
            i -= 1
            _OPG[i] = 0
        i = 1
    _OSUIT[2] = i
    x = 0
    i = 0
    while i < n:
        _OB[i + 1] = board[i]
        x += SUIT_KEY[board[i]]
        i += 1
    _OSUIT[0] = -1
    i = 4
    while i:
        i -= 1
        if (x >> (12 + 4 * i)) & 15 >= 3:
            _OSUIT[0] = i  # at most one suit can have 3 of 5 board cards
    i = n * (n - 1) * (n - 2) // 6  # triples: 1, 4 or 10
    _OSUIT[3] = i
    _OSUIT[1] = 0  # distinct rank triples, counted by _ofill
    while i:
        i -= 1
        _ofill(board, COMBOS[n * 8 + 3], i)
    _OB[0] = n


def _opair(up, best):
    # the best of `best` and the hole pair whose key sums are in _KR[0]/_KX[0] (chunk sum up) with each board triple,
    # flushes aside. Chunk sums add up when pair and triple share no rank; a shared rank held
    # once on each side turns two single bits into one pair (D bit off, P bit on, shape +1);
    # anything else is counted again from the key sums.
    j = _OSUIT[1]
    while j:
        j -= 1
        u = _OTU[j]
        if u & up & 8191:
            if ((u | up) >> 13) & u & up & 8191:
                u = _chunks(_OTR[j] + _KR[0], _OTX[j] + _KX[0])
            elif (u & up & 8191) & ((u & up & 8191) - 1):
                u += up + 0x8000000 + ((u & up & 8191) << 13) - (u & up & 8191)
            else:
                u += up + 0x4000000 + ((u & up & 8191) << 13) - (u & up & 8191)
        else:
            u += up
        if u < 0x4000000:
            if _STR[u]:
                u = 0x10000000 | _STR[u]
        elif u < 0xC000000:  # one pair, two pair
            u ^= (u >> 13) & 8191
        elif u < 0x14000000:  # trips
            u = (u ^ ((u >> 13) & 8191)) - 0x4000000
        else:
            u = _sets(u, _OTR[j] + _KR[0], _OTX[j] + _KX[0])
        if u > best:
            best = u
    return best


def _orank_pair(a, b):
    # best non-flush value of hole cards a, b on the cached board; it depends on their ranks
    # only, so it is kept per rank pair for the other seats of the same showdown
    if a >> 2 > b >> 2:
        k = ((a >> 2) * ((a >> 2) + 1) >> 1) + (b >> 2)
    else:
        k = ((b >> 2) * ((b >> 2) + 1) >> 1) + (a >> 2)
    if _OPG[k] == _OSUIT[2]:
        return _OPV[k]
    _KR[0] = RANK_KEY[a] + RANK_KEY[b]  # the pair's key sums, for _opair's recounts
    _KX[0] = SUIT_KEY[a] + SUIT_KEY[b]
    if a >> 2 == b >> 2:
        _OPV[k] = _opair(0x4000000 | (1 << (a >> 2)) | (1 << (13 + (a >> 2))), 0)
    else:
        _OPV[k] = _opair((1 << (a >> 2)) | (1 << (b >> 2)), 0)
    _OPG[k] = _OSUIT[2]
    return _OPV[k]


def _oflush(a, b, best):
    # hole cards a, b of the board's flush suit with each all-suited board triple
    j = _OSUIT[3]
    while j:
        j -= 1
        if _OTF[j]:
            m = _OTF[j] | (1 << (a >> 2)) | (1 << (b >> 2))
            if _STR[m]:
                m = 0x20000000 | _STR[m]
            else:
                m |= 0x14000000
            if m > best:
                best = m
    return best


def omaha_high(hole, board):
    """Omaha high: exactly two hole cards and three board cards (RANK-14)."""
    _oboard(board)
    best = 0
    i = len(hole)
    if i < 2:
        raise ValueError("RANK-14: Omaha needs at least two hole cards")
    while i:
        i -= 1
        if not 0 <= hole[i] < 52:
            raise ValueError("hole card %r is not a known card (0..51)" % (hole[i],))
    i = len(hole) - 1
    while i:
        j = i
        while j:
            j -= 1
            v = _orank_pair(hole[i], hole[j])
            if v > best:
                best = v
        i -= 1
    if _OSUIT[0] >= 0:
        return _oflushes(hole, best)
    return best


def _oflushes(hole, best):
    # flushes of two hole cards of the board's 3+ suit with three board cards of it
    i = len(hole) - 1
    while i:
        j = i
        while j:
            j -= 1
            if hole[i] & 3 == _OSUIT[0] and hole[j] & 3 == _OSUIT[0]:
                best = _oflush(hole[i], hole[j], best)
        i -= 1
    return best


def _badugi_subset(cards, s):
    # value of the subset s (bit i = cards[i]), or 0 if two of its cards share a suit or rank
    suits = 0
    ranks = 0
    i = len(cards)
    while i:
        i -= 1
        if s >> i & 1:
            if suits & (1 << (cards[i] & 3)) or ranks & (1 << ((cards[i] >> 2) + 1) % 13):
                return 0
            suits |= 1 << (cards[i] & 3)
            ranks |= 1 << ((cards[i] >> 2) + 1) % 13  # ace low: A = bit 0 .. K = bit 12
    i = 0
    while suits:
        suits &= suits - 1
        i += 1
    return (i << 13) | (8191 - ranks)


def badugi(cards):
    """Badugi value of 1..4 cards: more cards of distinct suits and ranks is better, then
    the lower highest card (ace low). pokerkit 0.7.7 BadugiHand order."""
    if not 0 < len(cards) < 5:
        raise ValueError("a badugi hand has 1 to 4 cards, not %d" % len(cards))
    best = 0
    s = (1 << len(cards)) - 1
    while s:
        v = _badugi_subset(cards, s)
        if v > best:
            best = v
        s -= 1
    return best


def _show_ranks(r, x):
    # the ranks of 1..4 upcards four bits each, ordered by (count, rank) from the top
    v = 0
    want = 4
    while want:
        k = 4096
        while k:
            if _count(k, r, x) == want:
                v = (v << 4) | BIT_INDEX[k % 37]
            k >>= 1
        want -= 1
    return v


def showing(upcards):
    """Stud: value of 1..4 showing cards for the first action (RANK-20): quads > trips > two
    pair > pair > high card with kickers as RANK-4..11, no straights or flushes, and the
    highest card by suit (DECK-4) breaking what the ranks leave tied. Compare only hands with
    the same number of upcards (all players have that on one street)."""
    r = 0
    x = 0
    hi = -1
    i = len(upcards)
    if not 0 < i < 5:
        raise ValueError("RANK-20: 1 to 4 upcards, not %d" % i)
    while i:
        i -= 1
        r += RANK_KEY[upcards[i]]
        x += SUIT_KEY[upcards[i]]
        if upcards[i] > hi:
            hi = upcards[i]
    # shape = sum of (count - 1) ** 2: 0 high card, 1 pair, 2 two pair, 4 trips, 9 quads,
    # already in RANK-20 order
    ranks = _show_ranks_of(upcards)
    if ranks < 0:  # an unknown card: the rank scan reads it as the table does
        ranks = _show_ranks(r, x)
    return ((_chunks(r, x) >> 26) << 22) | (ranks << 6) | hi


def _show_ranks_of(cards):
    # _show_ranks straight from 1..4 cards (-1 when one is unknown). Each card's key is
    # count << 4 | rank (< 128), packed seven bits apart into one small int (under 2 ** 28: no
    # long int on a 32-bit port); then the distinct keys from the largest down give four bits
    # of rank each. Index loops, no builtins but len and few locals (i steps by the shift):
    # no iterator and no heap frame, so evaluation still allocates nothing.
    keys = 0
    i = 7 * len(cards)
    while i:
        i -= 7
        k = cards[i // 7] >> 2  # the rank; k & 15 stays the rank as the count is added
        if k < 0:
            return -1
        j = len(cards)
        while j:
            j -= 1
            if cards[j] >> 2 == k & 15:
                k += 16
        keys |= k << i
    v = 0
    last = 256  # above every key
    while True:
        top = -1
        i = 7 * len(cards)
        while i:
            i -= 7
            k = (keys >> i) & 127
            if top < k < last:
                top = k
        if top < 0:
            return v
        v = (v << 4) | (top & 15)
        last = top


def category(value):
    """0..8 (HIGH_CARD .. STRAIGHT_FLUSH) of a high() / omaha_high() value."""
    return value >> 26


# Rank words as texts split on use (describe runs once per award) (RAM: hardware/memory.md, Idioms).
_NAMES = const("two three four five six seven eight nine ten jack queen king ace")
_PLURAL = const("twos threes fours fives sixes sevens eights nines tens jacks queens kings aces")
_LOW_CHARS = const("A2345678")


def _index(bit):
    return BIT_INDEX[bit % 37]


def _ranks_desc(mask):
    out = []
    for i in range(12, -1, -1):
        if mask >> i & 1:
            out.append(i)
    return out


def _word(words, i):
    # words.split()[i], the one word sliced out instead of a list of all 13 made (describe runs in the
    # showdown's main-loop step; hardware/memory.md, showdown round)
    n = words.count(" ") + 1
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError  # as the list would (no message: one interned text less)
    a = 0
    while i:
        a = words.find(" ", a) + 1
        i -= 1
    b = words.find(" ", a)
    return words[a:] if b < 0 else words[a:b]


def _describe_high(v, short, shift=0):
    # shift: bit i of the masks is rank (i + shift) % 13 (12 for ace-low masks)
    names = _NAMES
    plural = _PLURAL
    cat = v >> 26
    prim = (v >> 13) & 8191
    kick = v & 8191
    if short and cat in (5, 6):
        cat = 11 - cat  # short deck stores a flush as 6 and a full house as 5
    if cat == STRAIGHT_FLUSH:
        if kick == 13:
            return "a royal flush"
        return "a straight flush, %s high" % _word(names, kick - 1)
    if cat == FOUR_OF_A_KIND:
        return "four of a kind, %s" % _word(plural, (_index(prim) + shift) % 13)
    if cat == FULL_HOUSE:
        return "a full house, %s full of %s" % (_word(plural, (_index(prim) + shift) % 13),
                                                 _word(plural, (_index(kick) + shift) % 13))
    if cat == FLUSH:
        return "a flush, %s high" % _word(names, _ranks_desc(kick)[0])
    if cat == STRAIGHT:
        return "a straight, %s high" % _word(names, kick - 1)
    if cat == THREE_OF_A_KIND:
        return "three of a kind, %s" % _word(plural, (_index(prim) + shift) % 13)
    if cat == TWO_PAIR:
        hi, lo = _ranks_desc(prim)
        return "two pair, %s and %s" % (_word(plural, (hi + shift) % 13), _word(plural, (lo + shift) % 13))
    if cat == PAIR:
        return "a pair of %s" % _word(plural, (_index(prim) + shift) % 13)
    return "%s high" % _word(names, (_ranks_desc(kick)[0] + shift) % 13)


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
        ranks = []  # a loop: a comprehension made a closure and a cell (the showdown's step)
        for i in range(7, -1, -1):
            if m >> i & 1:
                ranks.append(_LOW_CHARS[i])
        return _low_text(ranks)
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
        word = " one two three four".split(" ")[k]
        if k == 4:
            return "a badugi, " + "-".join(ranks)
        return "a %s-card hand, %s" % (word, "-".join(ranks))
    raise ValueError("unknown hand kind %r" % (kind,))
