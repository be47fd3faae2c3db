# Signed firmware manifests (felt.security.manifest): each refusal -- unsigned, altered manifest,
# altered / added / missing file, wrong key, other board, rolled back -- on a real directory tree.
# Runs under CPython and MicroPython.
import os

from check import eq, raises

from felt.security import ManifestError
from felt.security import manifest as mf
from felt.security import ed25519

OWNER = b"\x42" * 32  # the release key's seed (the host's)
PUB = ed25519.public_key(OWNER)  # what the board holds
OTHER = b"\x43" * 32


def _rmtree(path):
    try:
        entries = list(os.ilistdir(path))
    except (OSError, AttributeError):
        try:
            entries = [(n, 0x4000 if os.stat(path + "/" + n)[0] & 0x4000 else 0x8000) for n in os.listdir(path)]
        except OSError:
            return
    for e in entries:
        p = path + "/" + e[0]
        if e[1] & 0x4000:
            _rmtree(p)
        else:
            os.remove(p)
    os.rmdir(path)


def _tree(tag, files):
    root = "/tmp/felt_sec_%s_%d" % (tag, os.getpid() if hasattr(os, "getpid") else 0)
    _rmtree(root)
    os.mkdir(root)
    for rel in sorted(files):
        parts = rel.split("/")
        for i in range(1, len(parts)):
            d = root + "/" + "/".join(parts[:i])
            try:
                os.mkdir(d)
            except OSError:
                pass
        with open(root + "/" + rel, "wb") as f:
            f.write(files[rel])
    return root


FILES = {"main.py": b"import felt\n", "felt/__init__.py": b"VERSION = '1.0'\n", "felt/table.py": b"x = 1\n" * 50}


def _signed(tag, counter=5, key=OWNER, device="table1"):
    root = _tree(tag, FILES)
    entries = [[rel] + list(mf.file_hash(root + "/" + rel)) for rel in mf.walk(root)]
    text = mf.sign(device, key, "1.0", counter, entries)
    with open(root + "/" + mf.NAME, "w") as f:
        f.write(text)
    return root, text


def test_signed_tree_is_accepted():
    root, text = _signed("ok")
    m = mf.check_tree(root, PUB, "table1", stored=5)
    eq(m.version, "1.0")
    eq(m.counter, 5)
    eq([f[0] for f in m.files], ["felt/__init__.py", "felt/table.py", "main.py"])
    eq(len(m.hash()), 64)
    # deploy bookkeeping in a slot is not firmware and does not count as an added file
    with open(root + "/.felt-ok", "w") as f:
        f.write("x")
    mf.check_tree(root, PUB, "table1")
    _rmtree(root)


def test_unsigned_tree_is_refused():
    root = _tree("nosig", FILES)
    with raises(ManifestError, match="unsigned"):
        mf.check_tree(root, PUB)
    entries = [[rel] + list(mf.file_hash(root + "/" + rel)) for rel in mf.walk(root)]
    with open(root + "/" + mf.NAME, "w") as f:
        f.write(mf.body_text("table1", OWNER, "1.0", 5, entries))  # a manifest without its sig line
    with raises(ManifestError, match="manifest is unsigned"):
        mf.check_tree(root, PUB)
    _rmtree(root)


def test_altered_manifest_is_refused():
    root, text = _signed("altman")
    forged = text.replace("counter 5", "counter 9")
    with raises(ManifestError, match="was altered"):
        mf.verify(forged, PUB)


def test_altered_file_is_refused():
    root, text = _signed("altfile")
    with open(root + "/felt/table.py", "ab") as f:
        f.write(b"steal = True\n")
    with raises(ManifestError, match="felt/table.py was altered"):
        mf.check_tree(root, PUB)
    _rmtree(root)


def test_added_and_missing_files_are_refused():
    root, text = _signed("added")
    with open(root + "/felt/evil.py", "w") as f:
        f.write("x = 2\n")
    with raises(ManifestError, match="felt/evil.py is not in the signed manifest"):
        mf.check_tree(root, PUB)
    os.remove(root + "/felt/evil.py")
    os.remove(root + "/main.py")
    with raises(ManifestError, match="main.py is in the signed manifest but missing"):
        mf.check_tree(root, PUB)
    _rmtree(root)


def test_wrong_key_is_refused():
    root, text = _signed("wrongkey", key=OTHER)
    with raises(ManifestError, match="wrong key"):
        mf.check_tree(root, PUB)
    _rmtree(root)


def test_other_board_is_refused():
    root, text = _signed("otherboard", device="table2")
    with raises(ManifestError, match="for board 'table2'"):
        mf.check_tree(root, PUB, "table1")
    _rmtree(root)


def test_rolled_back_tree_is_refused():
    root, text = _signed("rollback", counter=4)
    with raises(ManifestError, match="counter 4, older than 5"):
        mf.check_tree(root, PUB, stored=5)
    _rmtree(root)


def test_counter_file_only_rises():
    path = "/tmp/felt_sec_counter_%d" % (os.getpid() if hasattr(os, "getpid") else 0)
    try:
        os.remove(path)
    except OSError:
        pass
    eq(mf.read_counter(path), 0)
    mf.write_counter(7, path)
    mf.write_counter(3, path)
    eq(mf.read_counter(path), 7)
    with open(path, "w") as f:
        f.write("garbage")
    with raises(ManifestError, match="damaged"):
        mf.read_counter(path)
    os.remove(path)


def test_malformed_manifests_name_the_problem():
    with raises(ManifestError, match="not a Felt firmware manifest"):
        mf.parse("hello\n")
    with raises(ManifestError, match="line 3 is malformed"):
        mf.parse("felt-manifest 2\ndevice t\nfile a\n")
    with raises(ManifestError, match="no counter line"):
        mf.parse("felt-manifest 2\ndevice t\nkey k\nversion 1\n")
    with raises(ManifestError, match="bad file path"):
        mf.sign("t", OWNER, "1", 1, [("../boot.py", 1, "00")])
