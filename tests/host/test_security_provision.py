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
    return [store.role_key(device, "release").hex(), k.broadcast.hex()] + [v.hex() for v in k.floor.values()]


def test_provision_writes_once_and_never_shows_the_keys(board, tmp_path, capsys):
    keys = str(tmp_path / "keys")
    rc = feltctl(["provision", board.device, "--device", "table1", "--floor", "alice", "--floor", "bob",
                  "--keys", keys])
    out = capsys.readouterr()
    assert rc == 0, out.err
    store = KeyStore(keys)
    on_board = open(os.path.join(board.flash_dir, "felt.keys")).read()
    # issue 16 items 1 and 6: the board added its own device signing key, drawn on the board; the
    # key store holds only its public half (feed.pub), no file there can sign a record
    assert on_board.startswith(store.device_text("table1")) and "\nsign " in on_board
    from felt.security import keys as keylib
    board_keys = keylib.decode(on_board)
    assert store.load("table1").sign is None
    assert board_keys.signer().public == store.feed_public("table1")
    seed = board_keys.sign.hex()
    for name in os.listdir(store.folder("table1")):
        assert seed not in open(os.path.join(store.folder("table1"), name)).read(), name
    assert seed not in out.out and seed not in out.err
    assert store.role_key("table1", "release").hex() not in on_board  # the board holds no release secret
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
    on_board = open(os.path.join(board.flash_dir, "felt.keys")).read()
    from felt.security import keys as keylib
    signer = keylib.decode(on_board).signer()  # the board's own key (in the test: read off its flash)
    # where felt.runtime.app writes it (<data root>/audit.log; "/" on a Pico), rotated into several files
    path = os.path.join(board.flash_dir, al.PATH.lstrip("/"))
    log = al.AuditLog(al.FileStore(path, al.Rotation(max_bytes=2048, keep=8)), signer)
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
    assert open(os.path.join(board.flash_dir, "felt.keys")).read().startswith(KeyStore(keys).device_text("table1"))


def test_issue16_item6_a_board_without_a_true_entropy_source_refuses_to_provision(tmp_path, capsys):
    # Attack: provision a board whose MicroPython has no os.urandom. Before issue 16 the keys were
    # made on the host and written anyway, and the board then drew its floor-challenge nonces and
    # hole-card salts from `random` seeded at boot (felt.runtime.app._nonce): predictable. Now the
    # board makes its own signing key from its checked entropy source, and with none it refuses.
    b = SimBoard(str(tmp_path / "flash"), link=str(tmp_path / "board.tty"), capacity=2 * 1024 * 1024)
    b.entropy = False
    b.start()
    b.wait_idle()
    try:
        keys = str(tmp_path / "keys")
        rc = feltctl(["provision", b.device, "--device", "table1", "--floor", "alice", "--keys", keys])
        err = capsys.readouterr().err
        assert rc == 1, err
        assert "no true entropy source" in err and "refused" in err
        assert not os.path.exists(os.path.join(b.flash_dir, "felt.keys"))
        assert not KeyStore(keys).exists("table1")
    finally:
        b.stop()
