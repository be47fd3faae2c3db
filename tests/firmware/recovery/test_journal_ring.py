# The journal on a raw flash ring (felt.recovery.ring): sector layout, records across sectors and
# around the ring, power cuts at every byte of a record, a compaction, a sector header and an
# erase; hand histories in the ring; erases spread evenly (wear levelling by construction).
from check import eq, raises

from felt.recovery import journal as jr
from felt.recovery.ring import SECTOR_HEADER, MemBlockDevice, RingHandLog, RingJournal


def fresh(blocks=8, bs=512):
    dev = MemBlockDevice(blocks, bs)
    j = RingJournal(dev)
    eq(j.open(), [])
    return dev, j


def reopen(dev):
    j = RingJournal(dev.copy())
    return j, j.open()


def test_sector_header_and_first_records_are_as_documented():
    dev, j = fresh()
    raw = bytes(dev.data[:SECTOR_HEADER])
    eq(raw[0:4], b"FJR1", "magic")
    eq(raw[4:8], b"\x00\x00\x00\x00", "sector sequence 0")
    import binascii
    import struct

    eq(struct.unpack("<I", raw[8:12])[0], binascii.crc32(raw[0:8]) & 0xFFFFFFFF)
    eq(raw[12:16], b"\xff\xff\xff\xff")
    eq(dev.data[SECTOR_HEADER], jr.SYNC, "the blank snapshot record follows")
    eq(dev.data[SECTOR_HEADER + 1], jr.SNAPSHOT)


def test_records_cross_sectors_and_survive_a_reboot():
    dev, j = fresh(blocks=8, bs=256)
    for i in range(40):
        j.append_value(jr.CONSOLE, {"n": i})
    j2, records = reopen(dev)
    eq([r.value()["n"] for r in records], list(range(40)))
    eq(j2.damage, None)
    eq(j2.append(jr.CARD, b"x"), j.next_seq)


def test_compaction_lets_the_ring_wrap_and_spreads_the_erases():
    dev, j = fresh(blocks=6, bs=256)
    for hand in range(200):
        j.compact({"hand": hand}, (jr.CONSOLE, b"new_hand"))
        for i in range(4):
            j.append_value(jr.CARD, {"c": i})
    j2, records = reopen(dev)
    eq(j2.snapshot_value(), {"hand": 199})
    eq([r.payload for r in records], [b"new_hand"] + [jr.dumps({"c": i}).encode() for i in range(4)])
    counts = dev.erase_counts
    eq(max(counts) - min(counts) <= 1, True, "round robin: %r" % counts)


def test_a_hand_bigger_than_the_ring_is_refused_not_overwritten():
    dev, j = fresh(blocks=3, bs=256)
    with raises(jr.JournalError, match="ring full"):
        for i in range(100):
            j.append_value(jr.CONSOLE, {"n": i})
    j2, records = reopen(dev)
    eq(records[0].value(), {"n": 0}, "nothing of the current hand was erased")


def test_every_byte_of_a_torn_append():
    dev, j = fresh(blocks=4, bs=512)
    for i in range(3):
        j.append_value(jr.CONSOLE, {"n": i})
    blob_len = len(jr.encode(j.next_seq, jr.CONSOLE, jr.dumps({"n": 3})))
    for cut in range(blob_len + 1):
        d = dev.copy()
        d.cut_after = cut
        jj = RingJournal(d)
        jj.open()
        try:
            jj.append_value(jr.CONSOLE, {"n": 3})
        except jr.PowerCut:
            pass
        j2, records = reopen(d)
        got = [r.value()["n"] for r in records]
        if cut == blob_len:
            eq(got, [0, 1, 2, 3])
            continue
        eq(got, [0, 1, 2], "cut %d" % cut)
        eq(j2.damage is not None, cut > 0, "cut %d: a torn record is reported" % cut)
        # writing goes on in a fresh sector; the next boot is clean and in order
        j2.append_value(jr.CONSOLE, {"n": 3})
        j3, records = reopen(j2.bdev)
        eq([r.value()["n"] for r in records], [0, 1, 2, 3])
        eq(j3.damage, None)


def test_power_cut_anywhere_in_a_compaction_or_a_sector_change():
    dev, j = fresh(blocks=4, bs=256)
    for i in range(3):
        j.append_value(jr.CONSOLE, {"n": i})
    for cut in range(0, 420, 3):
        d = dev.copy()
        d.cut_after = cut
        jj = RingJournal(d)
        jj.open()
        try:
            jj.compact({"hand": 2}, (jr.CONSOLE, b"new_hand"))
            for i in range(5):
                jj.append_value(jr.CARD, {"c": i})
        except jr.PowerCut:
            pass
        j2, records = reopen(d)
        if j2.snapshot_value() is None:
            eq([r.value()["n"] for r in records], [0, 1, 2], "old hand whole (cut %d)" % cut)
        else:
            eq(j2.snapshot_value(), {"hand": 2})
            eq(records[0].payload, b"new_hand", "cut %d" % cut)
            eq([r.value()["c"] for r in records[1:]], list(range(len(records) - 1)))


def test_hand_histories_in_the_ring():
    dev, j = fresh(blocks=6, bs=512)
    log = RingHandLog(j)
    log.open()
    j.append(jr.CARD, b"a")
    log.append("hand = 1\n")
    j.append(jr.CARD, b"b")
    log.append("hand = 2\n")
    eq([r.payload for r in j.records()], [b"a", b"b"], "histories are not inputs")
    j2, records = reopen(dev)
    log2 = RingHandLog(j2)
    eq(log2.open(), 2)
    eq(log2.histories(), ["hand = 1\n", "hand = 2\n"])
    eq(log2.contains("hand = 2\n"), True)
    eq(log2.contains("hand = 3\n"), False)
    eq(log2.last(), "hand = 2\n")
    eq([r.payload for r in records], [b"a", b"b"])


def test_garbage_flash_is_a_blank_journal():
    dev = MemBlockDevice(4, 256)
    for i in range(len(dev.data)):
        dev.data[i] = (i * 37) & 0xFF
    j = RingJournal(dev)
    eq(j.open(), [])
    j.append(jr.CARD, b"x")
    eq([r.payload for r in reopen(dev)[1]], [b"x"])


def _appended(j, n, start=0):
    out = []
    for i in range(start, start + n):
        payload = ("card %d " % i).encode() + bytes(120)
        out.append((j.append(jr.CARD, payload), jr.CARD, payload))
    return out


def test_a_running_ring_keeps_its_records_on_flash_not_in_ram():
    # hardware/memory.md, "A board as it boots": a ten-seat hand's records held in RAM until the next
    # hand's compaction were ~36 KB on a 32-bit board; records() reads them back from the sectors
    dev, j = fresh(blocks=8, bs=1024)
    j.compact({"hand": 1}, (jr.CONSOLE, b"new_hand"))
    want = [(j.snapshot.seq, jr.CONSOLE, b"new_hand")] + _appended(j, 20)
    RingHandLog(j).append("hand history")  # a PHH record between the inputs is not one of them
    want += _appended(j, 20, 20)
    eq([k for k in j.__dict__ if isinstance(j.__dict__[k], list) and len(j.__dict__[k]) >= 40], [])
    eq([(r.seq, r.kind, r.payload) for r in j.records()], want)
    j2, records = reopen(dev)
    eq(records, j.records())
    eq(j2.records(), records)


def test_a_ring_reopened_after_a_torn_record_reads_back_what_open_returned():
    dev, j = fresh(blocks=8, bs=1024)
    _appended(j, 5)
    dev.cut_after = 7  # the 6th record torn after 7 bytes
    try:
        j.append(jr.CARD, b"torn")
    except jr.PowerCut:
        pass
    j2, records = reopen(dev)
    eq(len(records), 5)
    eq(j2.records(), records)
    j2.append(jr.CARD, b"after")  # in a fresh sector: the torn one is closed
    eq([r.payload for r in j2.records()], [r.payload for r in records] + [b"after"])


def test_a_ring_of_a_hand_costs_no_ram_per_record_on_micropython():
    # unix port (64-bit), 40 records of 128 B: 11,712 B held before (a Record and its payload each), 0 now
    from check import MICROPYTHON, Skip

    if not MICROPYTHON:
        raise Skip("gc.mem_alloc() measures MicroPython's heap")
    import gc
    import sys

    if sys.platform == "webassembly":
        raise Skip("the WebAssembly port collects only between calls from JS, never inside a test")
    dev, j = fresh(blocks=8, bs=4096)
    _appended(j, 1)
    gc.collect()
    before = gc.mem_alloc()
    _appended(j, 40, 1)
    gc.collect()
    grown = gc.mem_alloc() - before
    assert grown < 512, "40 records held %d bytes" % grown
