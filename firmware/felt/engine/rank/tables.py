# Lookup tables of the hand evaluator (engine layer, pure). On a board running from its ROMFS
# image they are data files beside this module (written by feltctl.board.romfs from ROM_FILES): the big
# ones are read in place from flash, the small hot ones copied into RAM arrays, and no table is
# computed there (see _rom). Anywhere else (CPython, plain files) build.py builds them, about
# 22 KB of heap on the 64-bit unix port (tests/benchmarks/bench_evaluate.py measures it).
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

def _rom(table, size, kind, hot=True):
    # On a board that runs from a ROMFS image (hardware/memory.md) the host put this table beside
    # the module as a data file: table.lower() + ".bin" for bytes, + ".table" for 2- and 4-byte
    # entries (feltctl.board.romfs, ROM_FILES); VfsRom
    # files export their bytes as a buffer, so it can be read in place from flash at no RAM cost.
    # kind "B": the bytes in place (a memoryview); "I" of 2 KB and more: 4-byte entries in place
    # (a memoryview has no typecode for them: a uctypes array over the same bytes reads them,
    # measured ~7 % slower per lookup than array('I')); smaller "I" and "H": copied into a RAM
    # array (the small tables every evaluation reads), unless not `hot` (read by the ace-to-five
    # lows alone: in place, 0.5 KB less RAM on a 32-bit port). Anywhere else (plain files, CPython): None.
    # (The file name is made here, not written out: every long text constant of a module costs
    # ~40 bytes of RAM on this port, hardware/memory.md.)
    try:
        f = open(__file__.rsplit("/", 1)[0] + "/" + table.lower() + (".bin" if kind == "B" else ".table"), "rb")
    except (OSError, NameError):
        return None
    try:
        m = memoryview(f)
    except TypeError:  # an ordinary file: no buffer
        f.close()
        return None
    if len(m) != size:
        return None
    if kind == "B":
        return m
    if size < 2048 and hot:
        return array.array(kind, bytearray(m))  # a bytearray is copied raw, a memoryview is not
    try:
        import uctypes
    except ImportError:
        return None
    _ROM_VIEWS.append(m)  # the uctypes array holds only the address: keep the view (and file) alive
    layout = {"t": (uctypes.ARRAY | 0, uctypes.UINT32 | (size // 4))}
    return uctypes.struct(uctypes.addressof(m), layout, uctypes.LITTLE_ENDIAN).t


_ROM_VIEWS = []  # the views under the uctypes arrays
# The data files feltctl.board.romfs writes beside this module in the image: file, table, entry type
# ("B" bytes, "H" / "I" 2- / 4-byte little-endian), as one text (no tuples kept in RAM).
ROM_FILES = ("straight.bin STRAIGHT B chunk0.table CHUNK0 I chunk1.table CHUNK1 I chunk2.table CHUNK2 I "
             "chunk3.table CHUNK3 I chunk4.table CHUNK4 I rank_key.table RANK_KEY I suit_key.table SUIT_KEY I "
             "rank_key_a5.table RANK_KEY_A5 I suit_key_a5.table SUIT_KEY_A5 I bit_index.bin BIT_INDEX B "
             "low_bit.table LOW_BIT H lowest5.bin LOWEST5 B lowest3.bin LOWEST3 B")
STRAIGHT = _rom("STRAIGHT", 8192, "B")  # STRAIGHT[mask of ranks] = 1 + top rank of its best straight
CHUNK0 = _rom("CHUNK0", 2048, "I")  # r bits 0..8: ranks 2 3 4
CHUNK1 = _rom("CHUNK1", 2048, "I")  # r bits 9..17: ranks 5 6 7
CHUNK2 = _rom("CHUNK2", 2048, "I")  # r bits 18..26: ranks 8 9 T
CHUNK3 = _rom("CHUNK3", 2048, "I")  # x bits 0..8: ranks J Q K
CHUNK4 = _rom("CHUNK4", 32, "I")  # x bits 9..11: rank A
RANK_KEY = _rom("RANK_KEY", 212, "I")  # 53 entries: the 52 cards and UNKNOWN (-1)
SUIT_KEY = _rom("SUIT_KEY", 212, "I")
RANK_KEY_A5 = _rom("RANK_KEY_A5", 212, "I", False)  # ace low (razz, ace-to-five lows)
SUIT_KEY_A5 = _rom("SUIT_KEY_A5", 212, "I", False)
BIT_INDEX = _rom("BIT_INDEX", 37, "B")  # BIT_INDEX[(1 << i) % 37] == i
LOW_BIT = _rom("LOW_BIT", 106, "H")  # 8-or-better: the bit of a card's rank, ace = bit 0
LOWEST5 = _rom("LOWEST5", 256, "B")  # the 5 (3) lowest bits of a low mask, 0 when it has fewer
LOWEST3 = _rom("LOWEST3", 256, "B")
if None in (STRAIGHT, CHUNK0, CHUNK1, CHUNK2, CHUNK3, CHUNK4, RANK_KEY, SUIT_KEY, RANK_KEY_A5, SUIT_KEY_A5,
            BIT_INDEX, LOW_BIT, LOWEST5, LOWEST3):
    # not running from an image with every data file: build them all (build.py)
    from felt.engine.rank.build import (BIT_INDEX, CHUNK0, CHUNK1, CHUNK2, CHUNK3, CHUNK4,  # noqa: F811
                                       LOW_BIT, LOWEST3, LOWEST5, RANK_KEY, RANK_KEY_A5, STRAIGHT, SUIT_KEY,
                                       SUIT_KEY_A5)

# The board triples of an Omaha board of n cards (key n * 8 + 3): every 3-subset of its positions
# as consecutive index bytes (tests/firmware/engine/test_rank.py checks them). Bytes literals: a tuple
# constant would be built in RAM with the module (8 bytes an item on 64-bit).
COMBOS = {27: b"\x00\x01\x02",
          35: b"\x00\x01\x02\x00\x01\x03\x00\x02\x03\x01\x02\x03",
          43: b"\x00\x01\x02\x00\x01\x03\x00\x01\x04\x00\x02\x03\x00\x02\x04\x00\x03\x04\x01\x02\x03\x01\x02\x04"
              b"\x01\x03\x04\x02\x03\x04"}

del _rom
