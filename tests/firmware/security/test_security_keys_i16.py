# Issue 16 item 1 on the board's boot check: firmware manifests are signed with a release PRIVATE
# key the board never holds; the board trusts release PUBLIC keys (provisioned, or added by a
# signed manifest) and refuses revoked ones for good. Rotation: a tree signed by the old key that
# trusts the new one and revokes the old; after it, the old key signs nothing the board accepts.
# CPython and MicroPython (plain-Python Ed25519 there).
import os

from check import eq, raises

from felt.security import ManifestError
from felt.security import bootcheck, ed25519
from felt.security import keys as keylib
from felt.security import manifest as mf

R1 = b"\x61" * 32  # release seeds (the owner's key store holds them, never the board)
R2 = b"\x62" * 32
PID = os.getpid() if hasattr(os, "getpid") else 0
BASE = "/tmp/felt_sec_keys16_%d" % PID


def _write(path, text):
    with open(path, "w") as f:
        f.write(text)


def _fresh():
    for name in ("slot/main.py", "slot/felt.manifest", "felt.keys", "felt.trust", "felt.counter"):
        try:
            os.remove(BASE + "/" + name)
        except OSError:
            pass
    for d in (BASE, BASE + "/slot"):
        try:
            os.mkdir(d)
        except OSError:
            pass
    _write(BASE + "/felt.keys", keylib.encode(keylib.Keys("table1", b"\x42" * 32, {"alice": b"\x21" * 32},
                                                          b"\x33" * 32, [ed25519.public_key(R1)])))


def _deploy(release, counter, trust=(), revoke=()):
    """A tree signed with `release`, activated as the deploy agent does; the reason if refused."""
    slot = BASE + "/slot"
    _write(slot + "/main.py", "print(%d)\n" % counter)
    try:
        os.remove(slot + "/" + mf.NAME)
    except OSError:
        pass
    entries = [[rel] + list(mf.file_hash(slot + "/" + rel)) for rel in mf.walk(slot)]
    _write(slot + "/" + mf.NAME, mf.sign("table1", release, "v%d" % counter, counter, entries, trust, revoke))
    try:
        bootcheck.activate(slot, BASE + "/felt.keys", BASE + "/felt.counter")
        return None
    except ManifestError as e:
        return str(e)


def test_item1_release_key_rotation_and_revocation():
    _fresh()
    p1, p2 = ed25519.public_key(R1), ed25519.public_key(R2)
    eq(_deploy(R1, 1), None)
    assert "wrong key" in _deploy(R2, 2)  # a new key is not trusted until a trusted tree says so
    # rotation: the last tree signed with R1 trusts R2 and revokes R1
    eq(_deploy(R1, 2, trust=[p2], revoke=[keylib.public_id(p1)]), None)
    added, revoked = keylib.read_trust(BASE + "/felt.trust")
    eq((added, revoked), ([p2], [keylib.public_id(p1)]))
    why = _deploy(R1, 3)  # R1 (e.g. leaked) signs nothing the board accepts any more
    assert why is not None and "revoked" in why, why
    eq(_deploy(R2, 3), None)
    # a revocation is never undone, not even by a tree the new key signs
    eq(_deploy(R2, 4, trust=[p1]), None)
    why = _deploy(R1, 5)
    assert why is not None and "revoked" in why, why
    # the provisioned key file itself never changes, and holds no release secret
    text = open(BASE + "/felt.keys").read()
    assert R1.hex() not in text and R2.hex() not in text and p1.hex() in text


def test_item1_the_trust_file_is_read_strictly():
    _fresh()
    _write(BASE + "/felt.trust", "release zz\n")
    with raises(ManifestError, match="release key"):
        bootcheck.check_slot(BASE + "/slot", BASE + "/felt.keys", BASE + "/felt.counter")
    _write(BASE + "/felt.trust", "revoke %s\n" % keylib.public_id(ed25519.public_key(R1)))
    eq(_deploy(R1, 1) is not None, True)  # the provisioned key revoked: refused
