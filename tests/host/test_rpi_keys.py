# Where a Raspberry Pi keeps its keys: one place, said the same way by the code (keys.RPI_PATH,
# manifest.RPI_COUNTER_PATH), the installer, the systemd unit and the docs. Fails when any of them
# drifts (the code once said /var/lib/felt while hardware/security.md said /etc/felt).
import os
import re

from felt.security import keys as keylib
from felt.security import manifest as mf
from feltctl.paths import REPO

PI = os.path.join(REPO, "hardware", "raspberry-pi")


def _read(*parts):
    with open(os.path.join(REPO, *parts)) as f:
        return f.read()


def _shell_var(text, name):
    m = re.search(r'^%s="([^"]*)"$' % name, text, re.M)
    assert m, "install.sh has no %s=\"...\" line" % name
    return m.group(1)


def test_code_keeps_the_pi_keys_root_only_outside_the_data_folder():
    assert keylib.RPI_PATH == keylib.RPI_DIR + "/" + keylib.CREDENTIAL
    assert os.path.dirname(mf.RPI_COUNTER_PATH) == keylib.RPI_DIR
    assert not keylib.RPI_DIR.startswith("/var/lib/felt")


def test_installer_uses_the_code_paths():
    sh = _read("hardware", "raspberry-pi", "install.sh")
    keys_dir = _shell_var(sh, "KEYS_DIR")
    assert keys_dir == "$DESTDIR" + keylib.RPI_DIR
    assert _shell_var(sh, "KEYS") == "$KEYS_DIR/" + os.path.basename(keylib.RPI_PATH)
    assert _shell_var(sh, "COUNTER") == "$KEYS_DIR/" + os.path.basename(mf.RPI_COUNTER_PATH)
    assert 'chmod 0700 "$KEYS_DIR"' in sh and 'chmod 0600 "$f"' in sh


def test_unit_hands_the_service_the_root_only_key_file():
    unit = _read("hardware", "raspberry-pi", "felt.service")
    assert "LoadCredential=%s:%s" % (keylib.CREDENTIAL, keylib.RPI_PATH) in unit.splitlines()
    assert "Environment=FELT_KEYS=%%d/%s" % keylib.CREDENTIAL in unit.splitlines()
    assert "InaccessiblePaths=-%s" % keylib.RPI_DIR in unit.splitlines()
    rw = [ln for ln in unit.splitlines() if ln.startswith("ReadWritePaths=")]
    assert rw and all(keylib.RPI_DIR not in ln for ln in rw)
    assert "User=felt" in unit.splitlines()  # why the credential is needed: the service is not root


def test_docs_name_the_same_place_and_no_other():
    for doc in (("hardware", "security.md"), ("hardware", "raspberry-pi", "README.md")):
        text = _read(*doc)
        assert keylib.RPI_PATH in text, "%s does not say where the Pi keeps its keys" % "/".join(doc)
        assert "/var/lib/felt/felt.keys" not in text, "/".join(doc)
    assert mf.RPI_COUNTER_PATH in _read("hardware", "security.md")


def test_provision_out_writes_the_pi_key_file_once_and_never_shows_a_key(tmp_path, capsys):
    from feltctl.cli import main as feltctl
    from feltctl.board.signing import KeyStore

    store = KeyStore(str(tmp_path / "keys"))
    out = tmp_path / "pi.keys"
    assert feltctl(["provision", "--device", "pi1", "--floor", "alice", "--keys", store.root, "--out", str(out)]) == 0
    shown = capsys.readouterr()
    k = store.load("pi1")
    pi = keylib.decode(out.read_text())  # the Pi's key file: its device key made here, kept nowhere else
    for secret in (pi.sign.hex(), store.role_key("pi1", "release").hex(), k.broadcast.hex(), k.floor["alice"].hex()):
        assert secret not in shown.out and secret not in shown.err
    assert out.read_text().startswith(store.device_text("pi1")) and keylib.RPI_PATH in shown.out
    assert k.sign is None and pi.signer().public == store.feed_public("pi1")
    for name in os.listdir(store.folder("pi1")):
        assert pi.sign.hex() not in open(os.path.join(store.folder("pi1"), name)).read(), name
    first = out.read_text()
    # an existing file is never overwritten, and the key set minted for it is not kept
    store2 = KeyStore(str(tmp_path / "keys2"))
    assert feltctl(["provision", "--device", "pi2", "--floor", "bob", "--keys", store2.root, "--out", str(out)]) == 1
    assert "never overwritten" in capsys.readouterr().err
    assert out.read_text() == first and not store2.exists("pi2")
    # a port and --out together, or neither, is a usage error
    assert feltctl(["provision", "/dev/ttyACM0", "--device", "x", "--floor", "a", "--out", str(tmp_path / "x")]) == 2
    assert feltctl(["provision", "--device", "x", "--floor", "a"]) == 2


def test_sign_covers_what_install_copies_and_no_bytecode(tmp_path, capsys):
    from feltctl.cli import main as feltctl
    from feltctl.board.signing import KeyStore

    store = KeyStore(str(tmp_path / "keys"))
    store.create("pi1", ["alice"])
    src = tmp_path / "fw"
    (src / "felt" / "__pycache__").mkdir(parents=True)
    (src / "main.py").write_text("print(1)\n")
    (src / "felt" / "__init__.py").write_text("VERSION = \"9.9\"\n")
    (src / "felt" / "__pycache__" / "x.cpython-312.pyc").write_bytes(b"\0")
    (src / "stray.pyc").write_bytes(b"\0")
    assert feltctl(["sign", "--device", "pi1", "--src", str(src), "--keys", store.root]) == 0
    m = mf.verify((src / mf.NAME).read_text(), [store.release_signer("pi1").public], "pi1")
    assert [f[0] for f in m.files] == ["felt/__init__.py", "main.py"]
    assert m.version == "9.9" and m.counter == 1
    # issue 16 item 2: the service's data-folder configuration is signed with the release
    (tmp_path / "pi.json").write_text('{"board": "rpi"}\n')
    assert feltctl(["sign", "--device", "pi1", "--src", str(src), "--keys", store.root,
                    "--config", "board.json=%s" % (tmp_path / "pi.json")]) == 0
    m = mf.verify((src / mf.NAME).read_text(), [store.release_signer("pi1").public], "pi1")
    assert [c[0] for c in m.configs] == ["board.json"] and m.counter == 2
    assert feltctl(["sign", "--device", "nobody", "--src", str(src), "--keys", store.root]) == 1
    assert "no readable release key" in capsys.readouterr().err


def test_sign_of_a_folder_that_is_not_a_firmware_tree_is_refused_and_spends_no_counter(tmp_path, capsys):
    # An existing folder that is not the firmware (an empty one, or the wrong one: ~ would have been
    # walked whole) was signed: "signed 0 files ... counter 2", a felt.manifest written into it and
    # an anti-rollback counter used up. Refused as `feltctl flash --src` refuses it (no main.py).
    from feltctl.cli import main as feltctl
    from feltctl.board.signing import KeyStore

    store = KeyStore(str(tmp_path / "keys"))
    store.create("pi1", ["alice"])
    wrong = tmp_path / "photos"
    wrong.mkdir()
    (wrong / "a.txt").write_text("not firmware\n")
    assert feltctl(["sign", "--device", "pi1", "--src", str(wrong), "--keys", store.root]) == 1
    assert "not a firmware tree (no main.py in it)" in capsys.readouterr().err
    assert sorted(os.listdir(str(wrong))) == ["a.txt"]
    assert store.next_counter("pi1") == 1
