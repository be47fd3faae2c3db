# Signed deploys on the simulated board (real MicroPython, real `feltctl provision` and
# `feltctl flash`): on a provisioned board the deploy agent activates only a tree signed with the
# board's release key; an unsigned tree, another key, an older counter (also by --rollback) and a
# file altered in transit-to-activation are refused with the reason while the running firmware
# stays. `feltctl info` shows the signed manifest's hash; the keys are never read back.
import os

import pytest

from feltctl.cli import main as feltctl
from feltctl.board.deploy import Deployer, DeployError, Tree
from feltctl.paths import FIRMWARE
from feltctl.board.signing import KeyStore, sign_tree
from feltctl.board_sim.simboard import SimBoard
from feltctl.board.transport import Transport
from simboard_boot import active_files

# the part of the firmware the check needs (a whole tree would only make the test slower)
FILES = ["boot.py", "felt/__init__.py", "felt/errors.py", "felt/deploy_agent.py", "felt/security/__init__.py",
         "felt/security/hmac.py", "felt/security/keys.py", "felt/security/manifest.py",
         "felt/security/bootcheck.py", "felt/security/ed25519.py"]


@pytest.fixture
def board(tmp_path):
    b = SimBoard(str(tmp_path / "flash"), link=str(tmp_path / "board.tty"), capacity=2 * 1024 * 1024)
    b.start()
    b.wait_idle()
    yield b
    b.stop()


@pytest.fixture
def store(board, tmp_path):
    path = str(tmp_path / "keys")
    assert feltctl(["provision", board.device, "--device", "table1", "--floor", "alice", "--keys", path]) == 0
    return KeyStore(path)


def small_tree(extra=b""):
    files = {}
    for rel in FILES:
        with open(os.path.join(FIRMWARE, *rel.split("/")), "rb") as f:
            files[rel] = f.read()
    files["main.py"] = b"print('table firmware')\n" + extra
    return Tree(files)


def deploy(board, tree, layout=None):
    with Transport(board.device, timeout_s=5.0) as t:
        return Deployer(t).deploy(tree, layout=layout)


def booted(board):
    slot = open(os.path.join(board.flash_dir, "felt.slot")).read().strip()
    return slot, active_files(board.flash_dir)["main.py"]


# "pack": packed slots (a 2 MB Pico's layout, hardware/flashing.md): the staged pack is mounted
# (deploy_agent.VIEW) for the same signature check
@pytest.mark.parametrize("layout", [None, "pack"])
def test_only_signed_trees_are_activated(board, store, layout):
    owner = store.release_signer("table1")
    deploy = lambda board, tree: globals()["deploy"](board, tree, layout)  # noqa: E731
    rep = deploy(board, sign_tree(small_tree(), "table1", owner, "1.0.0", 3))
    assert rep.active == "a"
    assert os.path.exists(os.path.join(board.flash_dir, "felt_a", "pack")) == (layout == "pack")
    before = booted(board)
    for tree, why in ((small_tree(b"#unsigned\n"), "unsigned"),
                      (sign_tree(small_tree(b"#k\n"), "table1", b"\x01" * 32, "1.0.1", 4), "wrong key"),
                      (sign_tree(small_tree(b"#old\n"), "table1", owner, "0.9.0", 2), "older than 3"),
                      (sign_tree(small_tree(b"#other\n"), "table2", owner, "1.0.1", 4), "for board 'table2'")):
        with pytest.raises(DeployError, match=why):
            deploy(board, tree)
        assert booted(board) == before  # the running firmware stays
    rep = deploy(board, sign_tree(small_tree(b"#new\n"), "table1", owner, "1.1.0", 4))
    assert booted(board)[1].endswith(b"#new\n")
    assert open(os.path.join(board.flash_dir, "felt.counter")).read().strip() == "4"


@pytest.mark.parametrize("layout", [None, "pack"])
def test_rollback_below_the_counter_is_refused(board, store, layout):
    owner = store.release_signer("table1")
    deploy(board, sign_tree(small_tree(), "table1", owner, "1.0.0", 3), layout)
    deploy(board, sign_tree(small_tree(b"#2\n"), "table1", owner, "1.1.0", 4), layout)
    before = booted(board)
    with Transport(board.device, timeout_s=5.0) as t:
        with pytest.raises(DeployError, match="older than 4"):
            Deployer(t).rollback()
    assert booted(board) == before


def test_flash_sign_and_info_show_the_manifest(board, store, tmp_path, capsys):
    src = tmp_path / "src"
    for rel, data in small_tree().files.items():
        os.makedirs(os.path.dirname(str(src / rel)), exist_ok=True)
        (src / rel).write_bytes(data)
    assert feltctl(["flash", board.device, "--src", str(src), "--sign", "table1", "--keys", store.root]) == 0
    assert feltctl(["flash", board.device, "--src", str(src), "--sign", "table1", "--keys", store.root]) == 0
    assert store.next_counter("table1") == 3  # counters 1 and 2 were used
    capsys.readouterr()
    assert feltctl(["info", board.device]) == 0
    out = capsys.readouterr().out
    slot = open(os.path.join(board.flash_dir, "felt.slot")).read().strip()
    import hashlib
    want = hashlib.sha256(open(os.path.join(board.flash_dir, "felt_" + slot, "felt.manifest"), "rb").read())
    assert "manifest sha256 %s" % want.hexdigest() in out
    assert feltctl(["flash", board.device, "--src", str(src), "--keys", store.root]) == 1  # unsigned
    assert "unsigned" in capsys.readouterr().err


def test_the_keys_are_never_read_back(board, store):
    with Transport(board.device, timeout_s=5.0) as t:
        d = Deployer(t)
        d.connect()
        with pytest.raises(DeployError, match="never read back"):
            d.call("read('/felt.keys', 0, 64)")
        t.soft_reset_to_friendly()


def test_a_file_altered_on_the_board_is_found_by_the_board_itself(board, store):
    deploy(board, sign_tree(small_tree(), "table1", store.release_signer("table1"), "1.0.0", 3))
    slot = booted(board)[0]
    with open(os.path.join(board.flash_dir, "felt_" + slot, "main.py"), "ab") as f:
        f.write(b"cheat = 1\n")  # behind the deploy's back (e.g. through a REPL in maintenance mode)
    code = ("import json\nfrom felt.security import bootcheck, ManifestError\n"
            "try:\n bootcheck.check_slot('/felt_' + active())\n print('FELT \"ok\"')\n"
            "except ManifestError as e:\n print('FELT ' + json.dumps(str(e)))\n")
    with Transport(board.device, timeout_s=5.0) as t:
        d = Deployer(t)
        d.connect()
        verdict = d.call(code)  # the main program's bootcheck.start() runs this same check
        t.soft_reset_to_friendly()
    assert "main.py was altered" in verdict


def test_flash_sign_dry_run_lists_the_manifest_and_spends_no_counter(board, store, tmp_path, capsys):
    # --sign --dry-run skipped signing (right: a counter must not be spent) and so listed no
    # felt.manifest: the dry run said "0 to add" where the real run adds the manifest, and a
    # --sign name without a key was not noticed until the real run
    src = tmp_path / "src"
    for rel, data in small_tree().files.items():
        os.makedirs(os.path.dirname(str(src / rel)), exist_ok=True)
        (src / rel).write_bytes(data)
    before = sorted(os.listdir(board.flash_dir))
    assert feltctl(["flash", board.device, "--src", str(src), "--sign", "table1", "--keys", store.root,
                    "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "+ felt.manifest" in out, out
    assert store.next_counter("table1") == 1
    assert sorted(os.listdir(board.flash_dir)) == before
    assert feltctl(["flash", board.device, "--src", str(src), "--sign", "nobody", "--keys", store.root,
                    "--dry-run"]) == 1
    assert "no readable release key" in capsys.readouterr().err


def test_issue16_item1_no_key_on_the_board_can_sign_firmware_it_accepts(board, store):
    # Attack: copy the board's key file (a technician with the REPL in maintenance mode, or a
    # flash dump) and sign a tree with every secret in it. Before issue 16 the board held the
    # symmetric owner key that signed its manifests (HMAC), so the copy signed firmware the board
    # accepted. Now it holds only the release PUBLIC key: each forgery is refused.
    from felt.security import keys as keylib
    from felt.security import manifest as mf
    from felt.security.hmac import hmac_hex

    deploy(board, sign_tree(small_tree(), "table1", store.release_signer("table1"), "1.0.0", 3))
    before = booted(board)
    stolen = keylib.decode(open(os.path.join(board.flash_dir, "felt.keys")).read())
    secrets = [stolen.sign, stolen.broadcast] + list(stolen.floor.values())
    for secret in secrets:
        with pytest.raises(DeployError, match="wrong key"):
            deploy(board, sign_tree(small_tree(b"#evil\n"), "table1", secret, "6.6.6", 99))
        assert booted(board) == before
    # nor the old form: an HMAC over the manifest under any of them, however it names its key
    tree = sign_tree(small_tree(b"#evil\n"), "table1", store.release_signer("table1"), "6.6.6", 99)
    body = tree.files[mf.NAME].decode().split("sig ")[0]
    for secret in secrets:
        files = dict(tree.files)
        files[mf.NAME] = (body + "sig " + hmac_hex(secret, "felt-manifest\0" + body) + "\n").encode()
        with pytest.raises(DeployError, match="does not verify"):
            deploy(board, Tree(files))
        assert booted(board) == before
    # the key file holds no release secret at all, only public keys
    assert stolen.release == [store.release_signer("table1").public]
