# Boot-time security (felt.security.bootcheck) and deck enrollment (felt.security.deckmap):
# slot choice on a provisioned board (unsigned / rolled-back slots skipped, counter raised on
# activation), maintenance entries audited, console closed in production; signed deck maps
# registered, unsigned / altered / foreign-key maps refused. CPython and MicroPython.
import os

from check import eq, raises

from felt.engine.cards import parse_card
from felt.engine.deck import DeckRegistry
from felt.errors import DeckError, UnknownTag
from felt.security import ManifestError, SecurityError
from felt.security import audit as al
from felt.security import bootcheck, deckmap
from felt.security import keys as keylib
from felt.security import manifest as mf
from felt.security import ed25519

OWNER = b"\x42" * 32  # the release key's seed (host) and, in the key file, the device seed
FLOOR = b"\x21" * 32
PID = os.getpid() if hasattr(os, "getpid") else 0
BASE = "/tmp/felt_sec_boot_%d" % PID


def _write(path, data):
    with open(path, "w") as f:
        f.write(data)


def _clean():
    for name in ("a/main.py", "a/felt.manifest", "b/main.py", "b/felt.manifest", "keys", "counter"):
        try:
            os.remove(BASE + "/" + name)
        except OSError:
            pass
    for d in (BASE, BASE + "/a", BASE + "/b"):
        try:
            os.mkdir(d)
        except OSError:
            pass


def _slot(name, counter, key=OWNER, signed=True):
    root = BASE + "/" + name
    _write(root + "/main.py", "print('slot %s')\n" % name)
    if signed:
        entries = [[rel] + list(mf.file_hash(root + "/" + rel)) for rel in mf.walk(root)]
        _write(root + "/" + mf.NAME, mf.sign("table1", key, "v%d" % counter, counter, entries))
    return root


def _provision():
    _write(BASE + "/keys", keylib.encode(keylib.Keys("table1", OWNER, {"alice": FLOOR}, b"\x33" * 32,
                                                     [ed25519.public_key(OWNER)])))


def test_unprovisioned_board_accepts_any_tree():
    _clean()
    root = _slot("a", 1, signed=False)
    eq(bootcheck.check_slot(root, BASE + "/keys", BASE + "/counter"), None)


def test_provisioned_board_checks_and_raises_the_counter():
    _clean()
    _provision()
    root = _slot("a", 3)
    m = bootcheck.activate(root, BASE + "/keys", BASE + "/counter")
    eq(m.counter, 3)
    eq(mf.read_counter(BASE + "/counter"), 3)
    old = _slot("b", 2)
    with raises(ManifestError, match="older than 3"):
        bootcheck.activate(old, BASE + "/keys", BASE + "/counter")
    eq(mf.read_counter(BASE + "/counter"), 3)


def test_boot_skips_a_refused_slot_and_says_why():
    _clean()
    _provision()
    a = _slot("a", 5, signed=False)
    b = _slot("b", 5)
    root, refused = bootcheck.choose_slot([a, b], BASE + "/keys", BASE + "/counter")
    eq(root, b)
    eq(len(refused), 1)
    assert "unsigned" in refused[0][1], refused
    _slot("b", 5, key=b"\x99" * 32)
    root, refused = bootcheck.choose_slot([a, b], BASE + "/keys", BASE + "/counter")
    eq(root, None)
    assert "wrong key" in refused[1][1], refused


def test_damaged_key_file_refuses_without_showing_the_key():
    _clean()
    _write(BASE + "/keys", "felt-keys 1\ndevice t\nowner 1234\n")
    root = _slot("a", 1)
    with raises(ManifestError) as e:
        bootcheck.check_slot(root, BASE + "/keys", BASE + "/counter")
    assert "1234" not in str(e.value)


def test_maintenance_mode_is_audited_production_is_default():
    log = al.AuditLog(al.MemStore(), al.signer(OWNER))
    eq(bootcheck.boot_mode(False, log), bootcheck.PRODUCTION)
    eq(log.seq, 0)
    eq(bootcheck.boot_mode(True, log, control="GP28 key switch", t_ms=7), bootcheck.MAINTENANCE)
    r = al.verify(log.store.lines(), al.signer(OWNER))[0]
    eq((r.who, r.kind, r.t_ms), ("board", "maintenance", 7))
    assert "GP28 key switch" in r.text


def test_production_closes_the_console():
    class FakeMicropython:
        got = None

        def kbd_intr(self, c):
            self.got = c
    fake = FakeMicropython()
    assert bootcheck.close_console(fake)
    eq(fake.got, -1)


def test_key_file_round_trip_and_ids_hide_keys():
    pub = ed25519.public_key(b"\x52" * 32)
    k = keylib.Keys("table1", OWNER, {"alice": FLOOR, "bob": b"\x22" * 32}, b"\x33" * 32, [pub])
    back = keylib.decode(keylib.encode(k))
    eq((back.device, back.sign, back.floor, back.broadcast, back.release),
       (k.device, k.sign, k.floor, k.broadcast, [pub]))
    ids = k.ids()
    eq(sorted(ids), ["broadcast", "device", "floor:alice", "floor:bob", "release:" + keylib.public_id(pub)])
    assert "4242" not in repr(k) and "4242" not in str(ids)
    with raises(SecurityError, match="line 3"):
        keylib.decode("felt-keys 2\ndevice t\nsign zz\n")
    with raises(SecurityError, match="re-provision"):  # the symmetric owner key of version 1
        keylib.decode("felt-keys 1\ndevice t\nowner " + "42" * 32 + "\n")


def _uids(deck="A"):
    return [bytes([0x04, 0x10, ord(deck), 0, 0, 0, i]) for i in range(52)]


def _enrolled():
    e = deckmap.Enrollment()
    eq(e.next_card(), "2c")
    for u in _uids():
        e.add(u)
        e.add(u)  # a double read of the same tag is ignored
    assert e.complete
    return e


def test_DECK_1_deck_enroll_sign_and_register():
    e = _enrolled()
    eq(e.scan.mapping[_uids()[0]], parse_card("2c"))
    eq(e.scan.mapping[_uids()[51]], parse_card("As"))
    text = deckmap.sign("table1", "A", "alice", FLOOR, e.scan.mapping)
    reg = DeckRegistry()
    eq(deckmap.register(reg, text, {"alice": FLOOR}, "table1"), "A")
    eq(reg.lookup(_uids()[13], "A"), parse_card("2d"))
    with raises(UnknownTag):
        reg.lookup(bytes([4, 9, 9, 9, 9, 9, 9]), "A")


def test_deck_records_unsigned_altered_or_wrong_key_are_refused():
    e = _enrolled()
    text = deckmap.sign("table1", "A", "alice", FLOOR, e.scan.mapping)
    keys = {"alice": FLOOR}
    with raises(SecurityError, match="unsigned"):
        deckmap.verify(text[:text.find("sig ")], keys, "table1")
    swapped = text.replace(" 2c\n", " 2X\n").replace(" 3c\n", " 2c\n").replace(" 2X\n", " 3c\n")
    with raises(SecurityError, match="does not verify"):
        deckmap.verify(swapped, keys, "table1")
    with raises(SecurityError, match="does not verify"):
        deckmap.verify(deckmap.sign("table1", "A", "alice", b"\x66" * 32, e.scan.mapping), keys, "table1")
    with raises(SecurityError, match="not a floor key"):
        deckmap.verify(deckmap.sign("table1", "A", "mallory", FLOOR, e.scan.mapping), keys, "table1")
    with raises(SecurityError, match="for board 'table2'"):
        deckmap.verify(deckmap.sign("table2", "A", "alice", FLOOR, e.scan.mapping), keys, "table1")
    reg = DeckRegistry()
    with raises(SecurityError):
        deckmap.register(reg, swapped, keys, "table1")
    with raises(UnknownTag):  # nothing was registered
        reg.lookup(_uids()[0], "A")


def test_DECK_1_enrollment_refuses_a_53rd_tag():
    e = _enrolled()
    with raises(DeckError, match="53rd"):
        e.add(bytes([4, 1, 2, 3, 4, 5, 6]))


def test_start_production_closes_console_and_checks_the_running_tree():
    _clean()
    _provision()
    _slot("a", 2)
    here = os.getcwd()

    class Fake:
        got = None

        def kbd_intr(self, c):
            self.got = c
    fake = Fake()
    log = al.AuditLog(al.MemStore(), al.signer(OWNER))
    try:
        os.chdir(BASE + "/a")
        mode, m = bootcheck.start(False, log, micropython_module=fake, keys_path=BASE + "/keys",
                                  counter_path=BASE + "/counter")
        eq((mode, m.counter, fake.got, log.seq), (bootcheck.PRODUCTION, 2, -1, 0))
        fake.got = None
        mode, m = bootcheck.start(True, log, control="GP28 key switch", micropython_module=fake,
                                  keys_path=BASE + "/keys", counter_path=BASE + "/counter")
        eq((mode, fake.got, log.seq), (bootcheck.MAINTENANCE, 3, 1))  # main.py locked first: reopened
        with open("main.py", "a") as f:
            f.write("# changed\n")
        with raises(ManifestError, match="main.py was altered"):
            bootcheck.start(False, log, micropython_module=fake, keys_path=BASE + "/keys",
                            counter_path=BASE + "/counter")
    finally:
        os.chdir(here)
