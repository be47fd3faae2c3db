# Signed deploys on the simulated board (real MicroPython, real `feltctl provision` and flash
# transport): a tree signed with the board's owner key passes the board's own activation check
# (felt.security.bootcheck running on the board); an altered file, an unsigned tree, a tree
# signed with another key and an older counter are each refused by the board with the reason.
import os

import pytest

from felt.security import manifest as mf
from feltctl.cli import main as feltctl
from feltctl.deploy import Deployer, Tree
from feltctl.paths import FIRMWARE
from feltctl.signing import KeyStore, sign_tree
from feltctl.simboard import SimBoard
from feltctl.transport import Transport

# the part of the firmware the check needs (a whole tree would only make the test slower)
FILES = ["boot.py", "felt/__init__.py", "felt/errors.py", "felt/security/__init__.py", "felt/security/hmac.py",
         "felt/security/keys.py", "felt/security/manifest.py", "felt/security/bootcheck.py"]


@pytest.fixture
def board(tmp_path):
    b = SimBoard(str(tmp_path / "flash"), link=str(tmp_path / "board.tty"), capacity=2 * 1024 * 1024)
    b.start()
    b.wait_idle()
    yield b
    b.stop()


def small_tree(extra=b""):
    files = {}
    for rel in FILES:
        with open(os.path.join(FIRMWARE, *rel.split("/")), "rb") as f:
            files[rel] = f.read()
    files["main.py"] = b"print('table firmware')\n" + extra
    return Tree(files)


def deploy(board, tree):
    with Transport(board.device, timeout_s=5.0) as t:
        return Deployer(t).deploy(tree)


def board_check(board):
    """Run the activation check ON the board against the slot it boots (active() comes from
    the deploy agent that connect() loads into the REPL)."""
    code = ("import json\nfrom felt.security import bootcheck, ManifestError\n"
            "try:\n m = bootcheck.check_slot('/felt_' + active())\n"
            " print('FELT ' + json.dumps({'ok': m.version, 'counter': m.counter}))\n"
            "except ManifestError as e:\n print('FELT ' + json.dumps({'refused': str(e)}))\n")
    with Transport(board.device, timeout_s=5.0) as t:
        d = Deployer(t)
        d.connect()
        r = d.call(code)
        t.soft_reset_to_friendly()
    return r


@pytest.fixture
def keys(board, tmp_path):
    path = str(tmp_path / "keys")
    assert feltctl(["provision", board.device, "--device", "table1", "--floor", "alice", "--keys", path]) == 0
    return KeyStore(path).load("table1")


def test_signed_tree_verifies_on_the_board_and_each_tamper_is_refused(board, keys):
    deploy(board, sign_tree(small_tree(), "table1", keys.owner, "1.0.0", 3))
    assert board_check(board) == {"ok": "1.0.0", "counter": 3}
    slot = open(os.path.join(board.flash_dir, "felt.slot")).read().strip()
    root = os.path.join(board.flash_dir, "felt_" + slot)
    # altered on the board's flash behind the deploy's back
    with open(os.path.join(root, "main.py"), "ab") as f:
        f.write(b"cheat = 1\n")
    assert "main.py was altered" in board_check(board)["refused"]


def test_unsigned_wrong_key_and_older_trees_are_refused_by_the_board(board, keys):
    deploy(board, small_tree())
    assert "unsigned" in board_check(board)["refused"]
    deploy(board, sign_tree(small_tree(b"#2\n"), "table1", b"\x01" * 32, "1.0.1", 4))
    assert "wrong key" in board_check(board)["refused"]
    deploy(board, sign_tree(small_tree(b"#3\n"), "table1", keys.owner, "1.0.2", 2))
    ok = board_check(board)
    assert ok == {"ok": "1.0.2", "counter": 2}
    # the counter on the board rises on activation (bootcheck.activate); then 2 is too old
    with open(os.path.join(board.flash_dir, "felt.counter"), "w") as f:
        f.write("5\n")
    assert "counter 2, older than 5" in board_check(board)["refused"]
    assert mf.read_counter(os.path.join(board.flash_dir, "felt.counter")) == 5
