# The other board tools on the simulated board: `feltctl info`, `feltctl export` (hand
# histories off the board, verified, incremental) and `feltctl monitor` (the live event log).
import os

import pytest

from feltctl.cli import main as feltctl
from feltctl.board.deploy import Deployer, build_tree
from feltctl.paths import FIRMWARE
from feltctl.board_sim.simboard import SimBoard
from feltctl.board.transport import Transport


@pytest.fixture
def board(tmp_path):
    b = SimBoard(str(tmp_path / "flash"), link=str(tmp_path / "board.tty"), capacity=4 * 1024 * 1024)
    b.start()
    b.wait_idle()
    yield b
    b.stop()


def test_info_shows_version_manifest_slot_and_free_space(board, capsys):
    assert feltctl(["info", board.device]) == 0
    assert "firmware     none (not flashed by feltctl)" in capsys.readouterr().out
    tree = build_tree(FIRMWARE)
    with Transport(board.device) as t:
        Deployer(t).deploy(tree)
    assert feltctl(["info", board.device]) == 0
    out = capsys.readouterr().out
    from felt import VERSION
    assert "firmware     %s" % VERSION in out
    assert "manifest     %s, %d files\n" % (tree.hash, len(tree.entries)) in out
    assert "active slot  a" in out and "free flash" in out


def test_info_notices_files_changed_behind_the_deploys_back(board, capsys):
    with Transport(board.device) as t:
        Deployer(t).deploy(build_tree(FIRMWARE))
    with open(os.path.join(board.flash_dir, "felt_a", "felt", "errors.py"), "a") as f:
        f.write("# edited on the board\n")
    assert feltctl(["info", board.device]) == 0
    assert "MODIFIED since flashing" in capsys.readouterr().out


def test_export_copies_hand_histories_verified_and_only_once(board, tmp_path, capsys):
    hands = os.path.join(board.flash_dir, "hands", "2026")
    os.makedirs(hands)
    texts = {"h1.phh": "variant = 'NT'\nactions = ['d dh p1 AcKd']\n", "h2.phh": "x" * 9000}
    for name, text in texts.items():
        with open(os.path.join(hands, name), "w") as f:
            f.write(text)
    dest = tmp_path / "out"
    assert feltctl(["export", board.device, str(dest)]) == 0
    assert "2 copied, 0 already there" in capsys.readouterr().out
    for name, text in texts.items():
        assert (dest / "2026" / name).read_text() == text
    assert feltctl(["export", board.device, str(dest)]) == 0
    assert "0 copied, 2 already there" in capsys.readouterr().out


def test_export_of_a_board_without_hands_copies_nothing(board, tmp_path, capsys):
    assert feltctl(["export", board.device, str(tmp_path / "out")]) == 0
    assert "0 copied, 0 already there" in capsys.readouterr().out


def test_monitor_follows_the_event_log_from_a_restart(board, capsys):
    with open(os.path.join(board.flash_dir, "main.py"), "w") as f:
        f.write("for i in range(3):\n    print('{\"event\": \"deal\", \"n\": %d}' % i)\n")
    assert feltctl(["monitor", board.device, "--restart", "--until", '"n": 2', "--duration", "10"]) == 0
    out = capsys.readouterr().out
    assert '{"event": "deal", "n": 0}' in out and '{"event": "deal", "n": 2}' in out
    assert out.splitlines()[-1].startswith("[") and out.splitlines()[-1].endswith('"n": 2}')


def test_monitor_gives_up_after_its_duration_when_nothing_matches(board):
    assert feltctl(["monitor", board.device, "--until", "never printed", "--duration", "0.5"]) == 3


def _feltctl_process(argv, timeout_s):
    import subprocess
    import sys

    from feltctl.paths import REPO

    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "host_tools"))
    return subprocess.run([sys.executable, "-m", "feltctl"] + list(argv), capture_output=True, text=True,
                          env=env, timeout=timeout_s)


def test_monitor_on_a_port_that_does_not_exist_says_so_instead_of_waiting_forever(tmp_path):
    # A mistyped port used to wait silently for ever (no --duration): the same one-line error as
    # every other board command, exit code 1, within seconds.
    out = _feltctl_process(["monitor", str(tmp_path / "no-such.tty")], timeout_s=20)
    assert out.returncode == 1
    assert "no serial port %s" % (tmp_path / "no-such.tty") in out.stderr
    assert "Traceback" not in out.stderr


def test_monitor_whose_board_goes_away_ends_at_its_duration_with_a_message(board, capsys):
    # The board vanishes (unplugged) and does not come back before --duration: a clear message
    # and exit code 1, not a pyserial traceback.
    import threading

    threading.Timer(0.5, board.stop).start()
    assert feltctl(["monitor", board.device, "--duration", "2"]) == 1
    err = capsys.readouterr().err
    assert "went away" in err and "did not come back" in err


def test_monitor_until_that_is_not_a_regular_expression_is_named_before_the_port_is_opened(tmp_path, capsys):
    assert feltctl(["monitor", str(tmp_path / "no-such.tty"), "--until", "deal(("]) == 2
    err = capsys.readouterr().err
    assert "--until 'deal((' is not a regular expression" in err


def test_simboard_stopped_twice_writes_to_no_recycled_descriptor(tmp_path):
    # stop() used to write its wake-up byte to a pipe it had already closed: OSError, or worse,
    # a byte into whatever file had been given that descriptor number since.
    b = SimBoard(str(tmp_path / "flash2"), link=str(tmp_path / "b2.tty"))
    b.start()
    b.stop()
    r, w = os.pipe()  # likely to reuse the numbers the board just closed
    try:
        b.stop()
        os.set_blocking(r, False)
        with pytest.raises(BlockingIOError):
            os.read(r, 1)
    finally:
        os.close(r)
        os.close(w)
    assert not os.path.lexists(str(tmp_path / "b2.tty"))


class _ScriptedBoard(Deployer):
    """A board whose agent answers files() with the given manifest and read() with the bytes."""

    def __init__(self, entries, data):
        self.entries = entries
        self.data = data
        self.t = None
        self.work_timeout_s = 1.0

    def connect(self, tree=None):
        pass

    def call(self, code, timeout_s=None, feed=None, progress=None):
        import base64

        if code.startswith("files("):
            return self.entries
        return base64.b64encode(self.data).decode()


@pytest.mark.parametrize("rel", ["../escaped.phh", "a/../../escaped.phh", "/tmp/escaped.phh", "", "a//b.phh", "."])
def test_export_refuses_a_board_file_name_that_leaves_the_folder(tmp_path, rel):
    # The names come from the board: a name climbing out of DIR (or absolute) would have been
    # written wherever it pointed. Refused by name, nothing written.
    from feltctl.board.deploy import DeployError, sha256_hex

    dest = tmp_path / "out"
    board = _ScriptedBoard([[rel, 3, sha256_hex(b"abc")]], b"abc")
    with pytest.raises(DeployError, match="refused"):
        board.export("/hands", str(dest), reset=False)
    assert not (tmp_path / "escaped.phh").exists()
    assert not dest.exists() or not any(dest.iterdir())


def test_export_into_a_folder_it_cannot_write_is_one_error_line(board, tmp_path, capsys):
    # DIR under a plain file (or without permission): the OSError escaped as a traceback.
    os.makedirs(os.path.join(board.flash_dir, "hands"))
    with open(os.path.join(board.flash_dir, "hands", "h1.phh"), "w") as f:
        f.write("variant = 'NT'\n")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert feltctl(["export", board.device, str(blocker / "out")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("feltctl export: error: ") and str(blocker) in err, err


def test_monitor_port_failing_with_a_bare_oserror_is_handled_like_a_board_gone(monkeypatch, capsys):
    # pyserial's in_waiting raises a bare OSError (EIO) when the device vanishes, not a
    # SerialException: it used to escape the monitor's loop as a traceback.
    import serial

    from feltctl.commands import monitor

    class Vanishing:
        in_waiting = property(lambda self: (_ for _ in ()).throw(OSError(5, "Input/output error")))

        def read(self, n):
            return b""

        def close(self):
            pass

    opened = []

    def fake_open(port, **kw):
        if opened:
            raise serial.SerialException(2, "could not open port %s: No such file or directory" % port)
        opened.append(port)
        return Vanishing()

    monkeypatch.setattr(monitor.serial, "serial_for_url", fake_open)
    assert feltctl(["monitor", "/dev/ttyGONE", "--duration", "0.3"]) == 1
    err = capsys.readouterr().err
    assert "went away" in err and "did not come back" in err, err


def test_info_after_an_mpy_deploy_still_shows_the_firmware_version(board, capsys):
    # With --mpy every module became .mpy, felt/__init__.py too, so the board could no longer read
    # VERSION from it and `feltctl info` said "none (not flashed by feltctl)" -- of a board it had
    # just flashed. The package's __init__ (a version line) stays source.
    from felt import VERSION

    assert feltctl(["flash", board.device, "--mpy"]) == 0
    capsys.readouterr()
    assert feltctl(["info", board.device]) == 0
    out = capsys.readouterr().out
    assert "firmware     %s\n" % VERSION in out, out
    assert "felt/__init__.py" in build_tree(FIRMWARE, mpy=True).files


# A port URL pyserial does not know, a baud rate or timeout that is not positive: pyserial's
# ValueError escaped every board command as a traceback (and --baud 0 on a real tty hangs the line
# up). Each is one error line naming the problem, before anything is sent.
@pytest.mark.parametrize("command", ["info", "flash", "export", "monitor"])
@pytest.mark.parametrize("bad", [["foo://x"], ["B", "--baud", "-5"], ["B", "--baud", "0"],
                                 ["B", "--timeout", "-1"], ["B", "--timeout", "0"]])
def test_an_unknown_port_url_or_a_baud_or_timeout_that_is_not_positive_is_one_error_line(
        board, tmp_path, capsys, command, bad):
    if command == "monitor" and "--timeout" in bad:
        pytest.skip("monitor has no --timeout")
    argv = [command] + [board.device if a == "B" else a for a in bad]
    if command == "export":
        argv.insert(2, str(tmp_path / "out"))
    rc = feltctl(argv)
    err = capsys.readouterr().err
    assert rc in (1, 2) and err.startswith("feltctl %s: error: " % command), err
    assert err.count("\n") == 1, err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("remote", ["/hand", "/hands/2026/h1.phh"])
def test_export_of_a_remote_folder_the_board_does_not_have_is_an_error_not_0_copied(board, tmp_path, capsys, remote):
    # A typo in --remote (or a file's name) printed "0 copied, 0 already there", exit 0 -- as if
    # the table had recorded nothing.
    os.makedirs(os.path.join(board.flash_dir, "hands", "2026"))
    with open(os.path.join(board.flash_dir, "hands", "2026", "h1.phh"), "w") as f:
        f.write("variant = 'NT'\n")
    assert feltctl(["export", board.device, str(tmp_path / "out"), "--remote", remote]) == 1
    err = capsys.readouterr().err
    assert err.startswith("feltctl export: error: ") and "no folder %s on the board" % remote in err, err
    assert not (tmp_path / "out").exists()


def test_flash_without_sign_refuses_a_stale_felt_manifest_left_in_the_tree(board, tmp_path, capsys):
    # `feltctl sign` (for a Raspberry Pi release) leaves firmware/felt.manifest in the tree; a later
    # plain `feltctl flash` (code edited since, or --mpy) deployed it anyway, and `feltctl info`
    # then called the board's tree "signed" with a manifest that does not describe it.
    import shutil

    from feltctl.board.signing import KeyStore

    src = tmp_path / "fw"
    shutil.copytree(FIRMWARE, str(src), ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "felt.manifest"))
    keys = str(tmp_path / "keys")
    KeyStore(keys).create("pi1", ["alice"])
    assert feltctl(["sign", "--device", "pi1", "--src", str(src), "--keys", keys]) == 0
    with open(str(src / "felt" / "errors.py"), "a") as f:
        f.write("# edited after signing\n")
    capsys.readouterr()
    assert feltctl(["flash", board.device, "--src", str(src)]) == 1
    err = capsys.readouterr().err
    assert "felt.manifest" in err and "does not match" in err, err
    assert not os.path.exists(os.path.join(board.flash_dir, "felt.slot"))  # nothing deployed
    assert feltctl(["flash", board.device, "--src", str(src), "--mpy"]) == 1  # .mpy files: not what was signed
    assert feltctl(["sign", "--device", "pi1", "--src", str(src), "--keys", keys]) == 0
    assert feltctl(["flash", board.device, "--src", str(src)]) == 0  # a tree that matches its manifest
    capsys.readouterr()
    assert feltctl(["info", board.device]) == 0
    assert "manifest sha256" in capsys.readouterr().out
