# Journal format, flush/commit order and torn-write handling (felt.recovery.journal, hardware/journal.md).
# Power loss is modelled by MemFlash(cut_after=N): the write crossing byte N stores only its first
# part and raises PowerCut; a copy of the flash is what the board finds after the reboot.
from check import eq, raises

from felt.recovery import journal as jr
from felt.errors import FormatError


def fresh():
    flash = jr.MemFlash()
    j = jr.Journal(flash)
    eq(j.open(), [])
    return flash, j


def reopen(flash):
    j = jr.Journal(flash.copy())
    records = j.open()
    return j, records


def test_record_bytes_are_as_documented():
    blob = jr.encode(0x01020304, jr.CONSOLE, b"fold 3")
    eq(blob[0], 0xA5, "sync")
    eq(blob[1], 0x13, "kind CONSOLE")
    eq(blob[2:4], b"\x06\x00", "payload length, little endian")
    eq(blob[4:8], b"\x04\x03\x02\x01", "sequence number, little endian")
    eq(blob[8:14], b"fold 3", "payload")
    import binascii
    import struct

    eq(struct.unpack("<I", blob[14:])[0], binascii.crc32(blob[:14]) & 0xFFFFFFFF, "CRC32 of header+payload")
    eq(len(blob), jr.OVERHEAD + 6)
    eq(jr.OVERHEAD, 12)


def test_encode_refuses_bad_records():
    with raises(ValueError, match="kind"):
        jr.encode(1, 0, b"")
    with raises(ValueError, match="kind"):
        jr.encode(1, 256, b"")
    with raises(ValueError, match="payload"):
        jr.encode(1, jr.CARD, bytes(jr.MAX_PAYLOAD + 1))
    with raises(ValueError, match="sequence"):
        jr.encode(-1, jr.CARD, b"")


def test_blank_flash_starts_generation_one_with_empty_snapshot():
    flash, j = fresh()
    eq(j.gen, 1)
    eq(j.snapshot_value(), None)
    eq(flash.names(), ["j00000001.log"])
    eq(j.next_seq, 2, "snapshot seq 0, commit seq 1")


def test_appended_records_survive_a_reboot_in_order():
    flash, j = fresh()
    seqs = [j.append(jr.CARD, b"\x04\x11\x22\x33\x44"), j.append_value(jr.CONSOLE, {"verb": "fold", "seat": 3}),
            j.append(jr.BUTTON, b"")]
    eq(seqs, [2, 3, 4])
    j2, records = reopen(flash)
    eq([(r.seq, r.kind) for r in records], [(2, jr.CARD), (3, jr.CONSOLE), (4, jr.BUTTON)])
    eq(records[1].value(), {"seat": 3, "verb": "fold"})
    eq(records[1].payload, b'{"seat":3,"verb":"fold"}', "canonical JSON: sorted keys, no spaces")
    eq(j2.damage, None)
    eq(j2.append(jr.TICK, b"1"), 5, "numbering continues after the reboot")


def test_every_byte_of_a_torn_append_keeps_all_earlier_records():
    flash, j = fresh()
    for i in range(5):
        j.append_value(jr.CONSOLE, {"n": i})
    before = flash.copy()
    blob_len = len(jr.encode(7, jr.CONSOLE, jr.dumps({"n": 5})))
    for cut in range(blob_len):
        f = before.copy()
        f.cut_after = cut
        j = jr.Journal(f)
        j.open()
        with raises(jr.PowerCut):
            j.append_value(jr.CONSOLE, {"n": 5})
        j2, records = reopen(f)
        eq([r.value() for r in records], [{"n": i} for i in range(5)], "cut at %d" % cut)
        if cut == 0:
            eq(j2.damage, None, "nothing written, nothing lost")
            continue
        eq(j2.damage.reason, "torn")
        if cut >= jr.HEADER:
            eq((j2.damage.kind, j2.damage.seq), (jr.CONSOLE, 7), "header intact: kind and seq known")
        # The repaired copy's COMMIT takes the torn record's number; the next input follows it.
        eq(j2.append_value(jr.CONSOLE, {"n": 5}), 8)
        j3, records = reopen(j2.flash)
        eq([r.value() for r in records], [{"n": i} for i in range(6)])
        eq(j3.damage, None)


def test_bit_flip_in_an_earlier_record_is_corruption_not_a_torn_tail():
    flash, j = fresh()
    for i in range(4):
        j.append_value(jr.CONSOLE, {"n": i})
    buf = flash.files["j00000001.log"]
    second = jr.scan(bytes(buf))[0][3].offset  # records: snapshot, commit, n=0, n=1 ...
    buf[second + jr.HEADER + 2] ^= 0x40
    j2, records = reopen(flash)
    eq([r.value() for r in records], [{"n": 0}])
    eq(j2.damage.reason, "corrupt")
    eq(j2.damage.later, 2, "two valid records after the damage are reported, not replayed")
    eq(j2.damage.detail, "CRC32 mismatch")


def test_scan_rejects_a_sequence_gap():
    buf = jr.encode(0, jr.SNAPSHOT, b"null") + jr.encode(1, jr.COMMIT, b"{}") + jr.encode(3, jr.CARD, b"x")
    records, damage = jr.scan(buf)
    eq(len(records), 2)
    eq(damage.detail, "sequence 3 after 1")


def test_compaction_keeps_only_the_snapshot_and_the_new_hand():
    flash, j = fresh()
    for i in range(3):
        j.append(jr.CARD, bytes([i]))
    seq = j.compact({"stacks": [100, 200], "button": 2})
    eq(seq, 5)
    eq(flash.names(), ["j00000002.log"], "old generation deleted after the new one is committed")
    j.append(jr.CONSOLE, b"x")
    j2, records = reopen(flash)
    eq(j2.snapshot_value(), {"button": 2, "stacks": [100, 200]})
    eq([r.payload for r in records], [b"x"])
    eq(j2.snapshot.seq, 5)


def test_power_loss_at_every_byte_of_a_compaction_leaves_one_whole_generation():
    flash, j = fresh()
    j.append(jr.CARD, b"a")
    j.append(jr.CARD, b"b")
    before = flash.copy()
    total = len(jr.encode(4, jr.SNAPSHOT, jr.dumps({"s": 1}))) + len(jr.encode(5, jr.COMMIT, jr.dumps({"gen": 2})))
    outcomes = {}
    for cut in range(total + 1):
        f = before.copy()
        f.cut_after = cut
        j = jr.Journal(f)
        j.open()
        try:
            j.compact({"s": 1})
        except jr.PowerCut:
            pass
        j2, records = reopen(f)
        if j2.gen == 1:
            eq([r.payload for r in records], [b"a", b"b"], "old hand still whole (cut %d)" % cut)
            eq(j2.snapshot_value(), None)
        else:
            eq(records, [], "new generation: snapshot only (cut %d)" % cut)
            eq(j2.snapshot_value(), {"s": 1})
        eq(j2.damage, None, "an uncommitted generation is no damage")
        eq(len(j2.flash.names()), 1, "leftovers removed (cut %d)" % cut)
        outcomes[j2.gen] = True
    eq(sorted(outcomes), [1, 2])


def test_power_loss_at_every_byte_of_a_repair_copy():
    flash, j = fresh()
    for i in range(3):
        j.append_value(jr.CONSOLE, {"n": i})
    flash.files["j00000001.log"].extend(b"\xa5\x13\x05")  # a torn record
    torn = flash.copy()
    for cut in range(0, 200, 3):
        f = torn.copy()
        f.cut_after = cut
        j = jr.Journal(f)
        try:
            j.open()
        except jr.PowerCut:
            pass
        j2, records = reopen(f)
        eq([r.value() for r in records], [{"n": i} for i in range(3)], "cut %d" % cut)
        eq(j2.append(jr.CARD, b"z"), 6, "after the inputs 2..4 and the repair COMMIT 5")
        eq(reopen(j2.flash)[1][-1].payload, b"z")


def test_appending_housekeeping_kinds_or_oversize_is_refused_and_writes_nothing():
    flash, j = fresh()
    size = flash.size("j00000001.log")
    for kind in (jr.SNAPSHOT, jr.COMMIT, jr.FILLER):
        with raises(ValueError):
            j.append(kind, b"")
    with raises(ValueError):
        j.append(jr.CARD, bytes(jr.MAX_PAYLOAD + 1))
    eq(flash.size("j00000001.log"), size)
    eq(j.next_seq, 2)


def test_unopened_journal_refuses_appends():
    with raises(jr.JournalError):
        jr.Journal(jr.MemFlash()).append(jr.CARD, b"")
    with raises(FormatError):
        jr.Journal(jr.MemFlash()).compact(None)


def test_record_value_names_a_non_json_payload():
    with raises(jr.JournalError, match="record 9"):
        jr.Record(9, jr.CARD, b"\xff{").value()


def test_dumps_is_canonical():
    eq(jr.dumps({"b": [1, None, True], "a": "x\"\\\n\u00e9"}), '{"a":"x\\"\\\\\\u000a\\u00e9","b":[1,null,true]}')
    eq(jr.dumps(b"\x01\xab"), '"01ab"')
    with raises(ValueError):
        jr.dumps(1.5)
    with raises(ValueError):
        jr.dumps({1: 2})


def test_hand_log_stores_rotates_and_drops_a_torn_history():
    flash = jr.MemFlash()
    log = jr.HandLog(flash, max_bytes=120)
    eq(log.open(), 0)
    eq(log.last(), None)
    texts = ["variant = 'NT'\nhand = %d\n" % i + "x" * 40 for i in range(5)]
    for t in texts:
        log.append(t)
    eq(log.histories()[-1], texts[-1])
    eq(log.last(), texts[-1])
    eq(len(log.histories()) < 5, True, "rotation keeps at most about 2 x max_bytes")
    eq(sorted(flash.names()), ["hands.log", "hands.old"])
    kept = log.histories()
    flash.files["hands.log"].extend(jr.encode(99, jr.PHH, "torn")[:9])
    log2 = jr.HandLog(flash)
    log2.open()
    eq(log2.damage.reason, "torn")
    eq(log2.histories(), kept)
    log2.append("next")
    eq(log2.histories()[-1], "next")


def _tmpdir(tag):
    import os

    base = "/tmp/felt_journal_%s_%d" % (tag, os.getpid() if hasattr(os, "getpid") else 0)
    try:
        for name in os.listdir(base):
            os.remove(base + "/" + name)
    except OSError:
        pass
    return base


def test_dir_flash_on_a_real_file_system():
    path = _tmpdir("dir")
    flash = jr.DirFlash(path)
    j = jr.Journal(flash)
    j.open()
    j.append(jr.CARD, b"\x01\x02")
    j.compact({"hand": 1})
    j.append(jr.CONSOLE, b"call 2")
    flash.close()
    # a torn append, as a power cut leaves it
    with open(path + "/j00000002.log", "ab") as f:
        f.write(jr.encode(j.next_seq, jr.CONSOLE, b"fold 4")[:10])
    j2 = jr.Journal(jr.DirFlash(path))
    records = j2.open()
    eq([r.payload for r in records], [b"call 2"])
    eq(j2.damage.reason, "torn")
    eq(j2.snapshot_value(), {"hand": 1})
    eq(j2.flash.names(), ["j00000003.log"], "repaired into a new generation")
    j2.append(jr.CONSOLE, b"fold 4")
    j2.flash.close()
    j3 = jr.Journal(jr.DirFlash(path))
    eq([r.payload for r in j3.open()], [b"call 2", b"fold 4"])
    eq(j3.damage, None)
    j3.flash.close()
    for name in j3.flash.names():
        j3.flash.remove(name)


def test_bytes_written_counts_flash_wear():
    flash, j = fresh()
    start = flash.bytes_written
    j.append(jr.CARD, b"\x04\x01\x02\x03\x04")
    eq(flash.bytes_written - start, jr.OVERHEAD + 5)


def test_only_exact_generation_names_count_other_files_are_left_alone():
    # str.isdigit() took '\u00b2' (then int() crashed the boot) and int() takes Arabic-Indic digits;
    # 'j1.log' or a ninth digit would alias generation 1. None of them is a generation now.
    flash, j = fresh()
    j.append(jr.CARD, b"\x04\x11\x22\x33\x44")
    strays = ["j\u00b2.log", "j\u0660\u0660\u0660\u0660\u0660\u0660\u0660\u0662.log", "j1.log",
              "j000000001.log", "j.log", "j0000000x.log", "j+0000001.log"]
    for name in strays:
        flash.append(name, b"not a journal")
    j2, records = reopen(flash)
    eq(j2.gen, 1)
    eq([r.kind for r in records], [jr.CARD])
    eq(j2.discarded, [])
    for name in strays:
        eq(jr._gen_of(name), None)
    eq(jr._gen_of("j00000001.log"), 1)
    eq(jr._gen_of("j123456789.log"), 123456789)  # past eight digits the name just grows


def _held_lists(obj, n):
    # lists of n or more items the object keeps (a copy of the records it wrote)
    return [k for k in obj.__dict__ if isinstance(obj.__dict__[k], list) and len(obj.__dict__[k]) >= n]


def _appended(j, n):
    out = []
    for i in range(n):
        payload = ("card %d " % i).encode() + bytes(120)
        out.append((j.append(jr.CARD, payload), jr.CARD, payload))
    return out


def test_a_running_journal_keeps_its_records_on_flash_not_in_ram():
    # hardware/memory.md, "A board as it boots": a ten-seat hand's records held in RAM until the next
    # hand's compaction were ~36 KB on a 32-bit board; records() reads them back from the generation
    flash, j = fresh()
    j.compact({"hand": 1}, (jr.CONSOLE, b"new_hand"))
    want = [(j.snapshot.seq + 1, jr.CONSOLE, b"new_hand")] + _appended(j, 40)
    eq(_held_lists(j, 40), [])
    eq([(r.seq, r.kind, r.payload) for r in j.records()], want)
    j2, records = reopen(flash)
    eq(records, j.records())
    eq(j2.records(), records)


def test_a_repaired_journal_reads_back_the_records_open_returned():
    flash, j = fresh()
    _appended(j, 5)
    flash.cut_after = 7  # the 6th record torn after 7 bytes
    with raises(jr.PowerCut):
        j.append(jr.CARD, b"torn")
    j2, records = reopen(flash)
    eq(j2.damage.reason, "torn")
    eq(len(records), 5)
    eq(j2.records(), records)
    j2.append(jr.CARD, b"after")
    eq([r.payload for r in j2.records()], [r.payload for r in records] + [b"after"])

