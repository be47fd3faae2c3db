# `feltctl provision` against the simulated board: keys written once into /felt.keys, never
# printed, never read back (the board's answers and the command output hold no key bytes); a
# second provision is refused and the board's keys stay; the host key store is owner-only.
import os
import stat

import pytest

from feltctl.cli import main as feltctl
from feltctl.board.signing import KeyStore
from feltctl.board_sim.simboard import SimBoard


@pytest.fixture
def board(tmp_path):
    b = SimBoard(str(tmp_path / "flash"), link=str(tmp_path / "board.tty"), capacity=2 * 1024 * 1024)
    b.start()
    b.wait_idle()
    yield b
    b.stop()


def _secret_hexes(store, device):
    k = store.load(device)
    return [k.owner.hex(), k.broadcast.hex()] + [v.hex() for v in k.floor.values()]


def test_provision_writes_once_and_never_shows_the_keys(board, tmp_path, capsys):
    keys = str(tmp_path / "keys")
    rc = feltctl(["provision", board.device, "--device", "table1", "--floor", "alice", "--floor", "bob",
                  "--keys", keys])
    out = capsys.readouterr()
    assert rc == 0, out.err
    store = KeyStore(keys)
    on_board = open(os.path.join(board.flash_dir, "felt.keys")).read()
    assert on_board == store.device_text("table1")
    for h in _secret_hexes(store, "table1"):
        assert h not in out.out and h not in out.err
    assert "floor:alice" in out.out and "key id" in out.out
    folder = store.folder("table1")
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    for name in os.listdir(folder):
        assert stat.S_IMODE(os.stat(os.path.join(folder, name)).st_mode) == 0o600, name

    # a second provision (new key store) is refused; the board keeps its keys
    keys2 = str(tmp_path / "keys2")
    rc = feltctl(["provision", board.device, "--device", "table1", "--floor", "eve", "--keys", keys2])
    out = capsys.readouterr()
    assert rc == 1
    assert "already has keys" in out.err
    assert open(os.path.join(board.flash_dir, "felt.keys")).read() == on_board
    assert not KeyStore(keys2).exists("table1")
    # and the same key store refuses to mint a second key set for the board
    rc = feltctl(["provision", board.device, "--device", "table1", "--floor", "alice", "--keys", keys])
    assert rc == 1
    assert "provisioned once" in capsys.readouterr().err


def test_provision_needs_a_floor_key(tmp_path, capsys):
    rc = feltctl(["provision", "/dev/null-no-board", "--device", "t", "--keys", str(tmp_path / "k")])
    assert rc == 1
    assert "floor key" in capsys.readouterr().err


def test_audit_verify_reads_the_log_straight_off_the_board(board, tmp_path, capsys):
    from felt.security import audit as al
    keys = str(tmp_path / "keys")
    assert feltctl(["provision", board.device, "--device", "table1", "--floor", "alice", "--keys", keys]) == 0
    owner = KeyStore(keys).load("table1").owner
    # where felt.runtime.app writes it (<data root>/audit.log; "/" on a Pico), rotated into several files
    path = os.path.join(board.flash_dir, al.PATH.lstrip("/"))
    log = al.AuditLog(al.FileStore(path, al.Rotation(max_bytes=2048, keep=8)), al.audit_key(owner))
    for i in range(40):  # more than one read piece, and more than one file
        log.append("alert", "DECK-5 unknown tag number %d on the burn antenna" % i, who="shoe", t_ms=i * 1000)
    rotated = log.store.rotated()
    assert len(rotated) >= 2
    capsys.readouterr()
    assert feltctl(["audit", "verify", "--port", board.device, "--device", "table1", "--keys", keys]) == 0
    out = capsys.readouterr().out
    assert "audit log intact: %d records" % log.seq in out and "number 39" in out
    assert rotated[0] in out and "audit.log " in out  # the per-file lines
    os.remove(os.path.join(board.flash_dir, rotated[1]))  # a middle file gone from the board
    assert feltctl(["audit", "verify", "--port", board.device, "--device", "table1", "--keys", keys,
                    "--no-anchor"]) == 1
    assert "%s is missing" % rotated[1] in capsys.readouterr().err


def test_a_port_that_does_not_open_leaves_no_keys_behind_and_the_name_stays_usable(board, tmp_path, capsys):
    # A mistyped port: the keys were made first and kept "in case the board stored them" though
    # nothing had been sent, so the retry on the right port was refused ("a board is provisioned
    # once") until the user deleted the key store folder by hand.
    keys = str(tmp_path / "keys")
    argv = ["--device", "table1", "--floor", "alice", "--keys", keys]
    assert feltctl(["provision", str(tmp_path / "no-such.tty")] + argv) == 1
    err = capsys.readouterr().err
    assert "no serial port" in err and "nothing was sent" in err, err
    assert not os.path.exists(os.path.join(keys, "table1"))
    assert feltctl(["provision", board.device] + argv) == 0, capsys.readouterr().err
    assert open(os.path.join(board.flash_dir, "felt.keys")).read() == KeyStore(keys).device_text("table1")
