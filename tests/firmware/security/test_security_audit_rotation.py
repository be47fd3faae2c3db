# The audit log's bounded rotation (felt.security.audit): the live file is renamed after its first
# record when full, only `keep` rotated files stay, every new file opens with a MACed record naming
# the file before and its tail hash, and verify_files proves the chain across the set -- naming the
# file that was edited, truncated or removed. CPython and MicroPython.
import os

from check import eq, raises

from felt.errors import ConfigError
from felt.security import AuditError
from felt.security import audit as al

KEY = al.signer(b"\x42" * 32)
SMALL = al.Rotation(max_bytes=1024, keep=3)  # 3-4 records a file


def _folder(tag):
    pid = os.getpid() if hasattr(os, "getpid") else 0
    d = "/tmp/felt_audit_rot_%s_%d" % (tag, pid)
    try:
        names = os.listdir(d)
    except OSError:
        os.mkdir(d)
        names = []
    for n in names:
        os.remove(d + "/" + n)
    return d


def _clear(d):
    for n in os.listdir(d):
        os.remove(d + "/" + n)
    os.rmdir(d)


def _log(d, n, rotation=SMALL):
    log = al.AuditLog(al.FileStore(d + "/audit.log", rotation), KEY)
    for i in range(n):
        log.append("alert", "DECK-5 unknown tag %04d on the burn antenna, padding the record" % i,
                   who="shoe", t_ms=i * 10)
    return log


def _set(d):
    """[(name, lines)] of the log in folder d, oldest first (what feltctl audit verify reads)."""
    out = []
    for name in al.order(os.listdir(d), "audit.log"):
        with open(d + "/" + name) as f:
            out.append((name, [ln for ln in f.read().split("\n") if ln]))
    return out


def _middle(tag):
    """A log of 30 records in a fresh folder: (folder, name and lines of its second file)."""
    d = _folder(tag)
    _log(d, 30)
    name, lines = _set(d)[1]
    return d, name, lines


def _rewrite(d, name, lines):
    with open(d + "/" + name, "w") as f:
        for ln in lines:
            f.write(ln + "\n")


def test_rotation_keeps_n_files_each_opening_with_the_tail_of_the_one_before():
    d = _folder("keep")
    log = _log(d, 40)
    files = _set(d)
    eq(len(files), SMALL.keep + 1)  # three rotated files and the live one
    eq(files[-1][0], "audit.log")
    recs = al.verify_files(files, KEY)
    eq(recs[-1].seq, log.seq)
    eq([r.seq for r in recs], list(range(recs[0].seq, log.seq + 1)))  # one unbroken run
    assert recs[0].seq > 1  # the oldest files rolled off
    for k in range(1, len(files)):
        name, lines = files[k]
        first = al.parse_line(lines[0], 0)
        prev_name, prev_lines = files[k - 1]
        eq(al.continues(first), (prev_name, al.file_number(prev_name), al.parse_line(prev_lines[-1], 0).seq,
                                 al.line_hash(prev_lines[-1])))
        eq(first.prev, al.line_hash(prev_lines[-1]))
    for name, lines in files[:-1]:
        eq(al.file_number(name), al.parse_line(lines[0], 0).seq)  # the name says where it starts
    _clear(d)


def test_rotation_boundary_the_file_that_reaches_the_limit_keeps_its_record():
    d = _folder("edge")
    store = al.FileStore(d + "/audit.log", SMALL)
    log = al.AuditLog(store, KEY)
    sizes = []
    while not store.rotated():
        sizes.append(store.size)
        log.append("floor", "stack 3 %d" % len(sizes), who="alice", t_ms=len(sizes))
    rotated = store.rotated()
    eq(len(rotated), 1)
    with open(d + "/" + rotated[0]) as f:
        size = len(f.read())
    # sizes[-1]: the full file before the append that rotated it; sizes[-2]: before its last record
    eq(size, sizes[-1])
    assert size >= SMALL.max_bytes and sizes[-2] < SMALL.max_bytes, (size, sizes[-2])
    live = store.lines()
    eq(len(live), 2)  # the opening record, then the record that did not fit
    eq(al.continues(al.parse_line(live[0], 0))[0], rotated[0])
    eq(al.parse_line(live[1], 0).text, "stack 3 %d" % len(sizes))
    eq(len(al.verify_files(_set(d), KEY)), log.seq)
    # reopened, the log carries on in the live file
    again = al.AuditLog(al.FileStore(d + "/audit.log", SMALL), KEY)
    again.append("floor", "void", who="alice")
    eq(al.verify_files(_set(d), KEY)[-1].seq, log.seq + 1)
    _clear(d)


def test_tamper_inside_a_rotated_file_is_found_and_named():
    d, name, lines = _middle("tamper")
    edited = list(lines)
    edited[1] = edited[1].replace("DECK-5", "DECK-6")
    _rewrite(d, name, edited)
    seq = al.parse_line(lines[1], 0).seq
    with raises(AuditError, match="%s: audit record %d: its signature does not verify" % (name, seq)):
        al.verify_files(_set(d), KEY)
    # without the key, the chain alone still shows it: the next record no longer links
    with raises(AuditError, match="%s: audit record %d: the hash of the previous record" % (name, seq + 1)):
        al.verify_files(_set(d))
    _clear(d)


def test_missing_middle_file_is_named():
    d, gone, lines = _middle("missing")
    first = al.file_number(gone)
    last = al.parse_line(lines[-1], 0).seq
    os.remove(d + "/" + gone)
    with raises(AuditError, match="%s is missing (records %d..%d" % (gone, first, last)):
        al.verify_files(_set(d), KEY)
    _clear(d)


def test_truncated_rotated_file_is_named():
    d, name, lines = _middle("trunc")
    _rewrite(d, name, lines[:-1])  # its last record cut off
    with raises(AuditError, match="%s was truncated: it ends at record %d" % (name, al.parse_line(lines[-2], 0).seq)):
        al.verify_files(_set(d), KEY)
    _clear(d)


def test_edited_tail_of_a_rotated_file_is_named():
    d, name, lines = _middle("tail")
    _rewrite(d, name, lines[:-1] + [lines[-1].replace("DECK-5", "DECK-7")])
    last = al.parse_line(lines[-1], 0).seq
    with raises(AuditError, match="%s: audit record %d: its signature" % (name, last)):
        al.verify_files(_set(d), KEY)
    # no key: the next file's opening record holds the tail hash, so the edit still shows
    with raises(AuditError, match="%s was edited: its last record %d does not match the tail hash" % (name, last)):
        al.verify_files(_set(d))
    _clear(d)


def test_renamed_file_and_removed_live_records_are_found():
    d = _folder("rename")
    _log(d, 30)
    files = _set(d)
    name = files[0][0]
    wrong = al.rotated_name("audit.log", al.file_number(name) + 1)
    os.rename(d + "/" + name, d + "/" + wrong)
    with raises(AuditError, match="%s: its first record is" % wrong):
        al.verify_files(_set(d), KEY)
    os.rename(d + "/" + wrong, d + "/" + name)
    live = _set(d)[-1][1]
    _rewrite(d, "audit.log", live[1:])  # the opening record of the live file removed
    with raises(AuditError, match="audit.log does not continue"):
        al.verify_files(_set(d), KEY)
    _clear(d)


def test_power_cut_between_rename_and_the_opening_record():
    d = _folder("cut")
    log = _log(d, 12)
    seq = log.seq
    os.rename(d + "/audit.log", d + "/" + al.rotated_name("audit.log", log.store.first))  # rotate() cut short
    again = al.AuditLog(al.FileStore(d + "/audit.log", SMALL), KEY)
    eq(again.seq, seq + 1)  # it wrote the opening record first
    again.append("floor", "void", who="alice")
    recs = al.verify_files(_set(d), KEY)
    eq(recs[-1].text, "void")
    assert al.continues(recs[-2]) is not None
    _clear(d)


def test_anchor_across_rotation():
    d = _folder("anchor")
    _log(d, 10)
    files = _set(d)
    recs = al.verify_files(files, KEY)
    mid = recs[len(recs) // 2]
    eq(len(al.verify_files(files, KEY, (mid.seq, al.line_hash(mid.line)))), len(recs))
    old = recs[0]
    _log(d, 0)  # nothing new: fine
    log = al.AuditLog(al.FileStore(d + "/audit.log", SMALL), KEY)
    for i in range(40):  # enough to roll every file verified so far off the board
        log.append("alert", "DECK-5 unknown tag %04d on the burn antenna, padding the record" % i, who="shoe")
    with raises(AuditError, match="rolled off the board"):
        al.verify_files(_set(d), KEY, (old.seq, al.line_hash(old.line)))
    # the last record of a file that rolled off is still anchored by the next file's opening record
    now = al.verify_files(_set(d), KEY)
    before = now[0].seq - 1
    eq(len(al.verify_files(_set(d), KEY, (before, now[0].prev))), len(now))
    with raises(AuditError, match="history rewritten"):
        al.verify_files(_set(d), KEY, (before, "0" * 64))
    _clear(d)


def test_rotation_setting_is_checked():
    eq(al.Rotation.from_config({}).keep, al.DEFAULT_KEEP)
    eq(al.Rotation.from_config({"audit_keep": 2, "audit_max_bytes": 4096}).max_bytes, 4096)
    with raises(ConfigError, match="audit_max_bytes"):
        al.Rotation(max_bytes=100)
    with raises(ConfigError, match="audit_keep"):
        al.Rotation(keep=0)
    with raises(ConfigError, match="audit_keep"):
        al.Rotation.from_config({"audit_keep": "3"})
    with raises(ConfigError, match="audit_keep"):
        al.Rotation(keep=True)


def test_record_numbers_are_ascii_digits_only():
    line = "\t".join(["1", "0", "board", "boot", "x", al.GENESIS, "-"])
    eq(al.parse_line(line, 1).seq, 1)
    for bad in ("\u0661", " 1", "+1", "1_0", ""):
        with raises(AuditError, match="not a number"):
            al.parse_line(line.replace("1", bad, 1), 1)
    eq(al.file_number("audit.log.0000001\u0662"), None)
    eq(al.file_number("audit.log.00000012"), 12)
    eq(al.order(["audit.log", "x.txt", "audit.log.00000009", "audit.log.00000003"], "audit.log"),
       ["audit.log.00000003", "audit.log.00000009", "audit.log"])
