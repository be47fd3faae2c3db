# Lookup tables of the hand evaluator (engine layer, pure): built once at import, about 22 KB
# of heap on the 64-bit unix port (tests/bench/bench_evaluate.py measures it; 18 KB of it is
# table data), 16 KB less on a board running from ROMFS (STRAIGHT and CHUNK0..3 read in place
# from flash, see _rom).
# Only evaluate.py reads them.
#
# Each card adds one entry of RANK_KEY and one of SUIT_KEY to two running sums that stay
# below 2**30, so they remain MicroPython small ints (no heap) even on a 32-bit port:
#   r: a 3-bit count field per rank 2..T (ranks 0..8, bits 3*rank)
#   x: a 3-bit count field per rank J..A (bits 0..11) and a 4-bit count per suit (bits 12..27)
# CHUNK0..4 turn three count fields at a time into D | P << 13 | SHAPE << 26, where D has a
# bit per rank present, P a bit per rank held twice or more, and SHAPE = sum of (count-1)**2,
# which tells the count pattern of 5..7 cards apart (2111=1, 221=2, 2221=3, 311=4, 3211=5,
# 322=6, 331=8, 41=9, 421=10, 43=13). Adding the five chunk entries gives the whole hand.
import array
import sys

_CPYTHON = sys.implementation.name != "micropython"
# (the flush test's constants, a suit field reaching 8 = 5+ cards, are const() in evaluate.py)


def _table(code, values):
    # MicroPython keeps packed arrays (4 bytes an entry); CPython reads tuples faster.
    return tuple(values) if _CPYTHON else array.array(code, values)


def _card_keys(rank_of):
    rk = []
    xk = []
    for c in range(52):
        r = rank_of(c >> 2)
        rk.append((1 << (3 * r)) if r < 9 else 0)
        xk.append(((1 << (3 * (r - 9))) if r >= 9 else 0) + (1 << (12 + 4 * (c & 3))))
    # Entry 52 is what UNKNOWN (-1) indexes: it pushes r past every chunk table, so an
    # unknown card raises IndexError instead of passing for the ace of spades.
    rk.append(1 << 29)
    xk.append(0)
    return _table("I", rk), _table("I", xk)


RANK_KEY, SUIT_KEY = _card_keys(lambda r: r)  # ranks 2..A -> 0..12 (high hands, 2-7)
RANK_KEY_A5, SUIT_KEY_A5 = _card_keys(lambda r: (r + 1) % 13)  # ace low: A..K -> 0..12


def _chunk(first, fields):
    out = []
    for i in range(1 << (3 * fields)):
        v = 0
        for j in range(fields):
            n = (i >> (3 * j)) & 7
            if n > 4:
                n = 4  # never happens with one deck; keeps the table total
            if n:
                v += (1 << (first + j)) + ((n - 1) * (n - 1) << 26)
            if n >= 2:
                v += 1 << (13 + first + j)
        out.append(v)
    return _table("I", out)


def _rom(name, size, u32=False):
    # On a board that runs from a ROMFS image (hardware/memory.md) the host put this table beside
    # the module as a data file (feltctl.romfs, ROM_FILES); VfsRom files export their bytes as a
    # buffer, so it is read in place from flash and costs no RAM. A memoryview has no typecode for
    # 4-byte entries (u32): a uctypes array over the same bytes reads them (measured ~7 % slower per
    # lookup than array('I')). Anywhere else (plain files, CPython): None, the table is built in RAM.
    try:
        f = open(__file__.rsplit("/", 1)[0] + "/" + name, "rb")
    except (OSError, NameError):
        return None
    try:
        m = memoryview(f)
    except TypeError:  # an ordinary file: no buffer
        f.close()
        return None
    if len(m) != size:
        return None
    if not u32:
        return m
    try:
        import uctypes
    except ImportError:
        return None
    _ROM_VIEWS.append(m)  # the uctypes array holds only the address: keep the view (and file) alive
    layout = {"t": (uctypes.ARRAY | 0, uctypes.UINT32 | (size // 4))}
    return uctypes.struct(uctypes.addressof(m), layout, uctypes.LITTLE_ENDIAN).t


_ROM_VIEWS = []
CHUNK0 = _rom("chunk0.table", 2048, True) or _chunk(0, 3)  # r bits 0..8: ranks 2 3 4
CHUNK1 = _rom("chunk1.table", 2048, True) or _chunk(3, 3)  # r bits 9..17: ranks 5 6 7
CHUNK2 = _rom("chunk2.table", 2048, True) or _chunk(6, 3)  # r bits 18..26: ranks 8 9 T
CHUNK3 = _rom("chunk3.table", 2048, True) or _chunk(9, 3)  # x bits 0..8: ranks J Q K
CHUNK4 = _chunk(12, 1)  # x bits 9..11: rank A


def _straights():
    # STRAIGHT[mask of ranks] = 1 + rank of the top card of the best straight, 0 = none;
    # the wheel A-2-3-4-5 is a five-high straight (4), DECK-2 / RANK-7 (no wrap-around).
    t = bytearray(8192)
    for top in range(4, 13):
        m = 31 << (top - 4)
        for d in range(8192):
            if d & m == m:
                t[d] = top + 1
    for d in range(8192):
        if not t[d] and d & 0x100F == 0x100F:
            t[d] = 4
    return tuple(t) if _CPYTHON else t


STRAIGHT = _rom("straight.bin", 8192) or _straights()
# The data files feltctl.romfs writes beside this module in the image: file, table, entry type
# ("B" bytes, "I" 4-byte little-endian), as one text (no tuples kept in RAM).
ROM_FILES = ("straight.bin STRAIGHT B chunk0.table CHUNK0 I chunk1.table CHUNK1 I "
             "chunk2.table CHUNK2 I chunk3.table CHUNK3 I lowest5.bin LOWEST5 B lowest3.bin LOWEST3 B")

# BIT_INDEX[(1 << i) % 37] == i: 2 is a primitive root mod 37, so i < 36 never collide.
_bi = bytearray(37)
for _i in range(30):
    _bi[(1 << _i) % 37] = _i
BIT_INDEX = bytes(_bi)

# 8-or-better lows: LOW_BIT[card] = bit of its rank with the ace as bit 0 (A..8), 0 for 9..K
# (entry 52, for UNKNOWN, is out of every mask table's range); LOWEST5/LOWEST3[mask] = the 5 (3)
# lowest bits of the mask, 0 when it has fewer.
LOW_BIT = _table("H", [(1 << ((c >> 2) + 1)) if (c >> 2) < 7 else (1 if (c >> 2) == 12 else 0)
                       for c in range(52)] + [256])


def _lowest(k):
    t = bytearray(256)
    for m in range(256):
        got = 0
        left = m
        for _ in range(k):
            if not left:
                got = 0
                break
            b = left & -left
            got |= b
            left ^= b
        t[m] = got
    return bytes(t)


LOWEST5 = _rom("lowest5.bin", 256) or _lowest(5)
LOWEST3 = _rom("lowest3.bin", 256) or _lowest(3)


def _triples(n):
    # every 3-subset of range(n) as consecutive index bytes
    out = bytearray()
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                out.extend(bytes((a, b, c)))
    return bytes(out)


COMBOS = {}  # n * 8 + 3 -> the board triples of an Omaha board of n cards
for _n in (3, 4, 5):
    COMBOS[_n * 8 + 3] = _triples(_n)

# the builders are not needed after import: free their code
del _table, _card_keys, _chunk, _straights, _lowest, _triples, _bi, _i, _n, _rom
