# Builds the hand evaluator's lookup tables (engine layer, pure). tables.py imports them from here
# only when it cannot read them from the data files of a ROMFS image (CPython, MicroPython running
# plain files), so a board running from its image never loads this module. What they hold: tables.py.
import array

from felt.compat import MICROPYTHON


def _table(code, values):
    # MicroPython keeps packed arrays (4 bytes an entry); CPython reads tuples faster.
    return tuple(values) if not MICROPYTHON else array.array(code, values)


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


CHUNK0 = _chunk(0, 3)  # r bits 0..8: ranks 2 3 4
CHUNK1 = _chunk(3, 3)  # r bits 9..17: ranks 5 6 7
CHUNK2 = _chunk(6, 3)  # r bits 18..26: ranks 8 9 T
CHUNK3 = _chunk(9, 3)  # x bits 0..8: ranks J Q K
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
    return tuple(t) if not MICROPYTHON else t


STRAIGHT = _straights()

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


LOWEST5 = _lowest(5)
LOWEST3 = _lowest(3)
