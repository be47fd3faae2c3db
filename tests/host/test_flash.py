# `feltctl flash` against the simulated board: only changes travel, stale files go, every file
# is verified on the board, activation and rollback are renames of one pointer file, and every
# failure (silent board, busy port, no port, full flash, hash mismatch) is a clear error within
# seconds that leaves the board booting what it booted before.
import os
import re
import select
import shutil
import time

import pytest
import serial

from feltctl.board import deploy as deploy_mod
from feltctl.cli import main as feltctl
from feltctl.board.deploy import Deployer, FlashFull, HashMismatch, Plan, build_tree
from feltctl.paths import FIRMWARE
from feltctl.board_sim.simboard import SimBoard
from feltctl.board.transport import DeviceTimeout, NoPort, PortBusy, Transport
from simboard_boot import active_files, boot_output

MAIN = """import app.a, app.b
v = app.a.VERSION
assert app.b.VERSION == v, "mixed firmware"
print("FW %s ok" % v)
"""


def make_tree(root, version, extra=None):
    """A small firmware tree: Felt's boot loader, a main.py that checks its modules agree."""
    os.makedirs(os.path.join(root, "app"))
    shutil.copy(os.path.join(FIRMWARE, "boot.py"), os.path.join(root, "boot.py"))
    files = {"main.py": MAIN, "app/__init__.py": "",
             "app/a.py": "VERSION = %r\n" % version + "# a\n" * 40,
             "app/b.py": "VERSION = %r\n" % version + "# b\n" * 40}
    files.update(extra or {})
    for rel, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
        with open(os.path.join(root, rel), "w") as f:
            f.write(text)
    return root


@pytest.fixture
def board(tmp_path):
    b = SimBoard(str(tmp_path / "flash"), link=str(tmp_path / "board.tty"), capacity=2 * 1024 * 1024)
    b.start()
    b.wait_idle()
    yield b
    b.stop()


def flash(board, src, **kw):
    with Transport(board.device, timeout_s=kw.pop("timeout_s", 3.0)) as t:
        return Deployer(t).deploy(build_tree(src, mpy=kw.pop("mpy", False)), **kw)


def test_first_flash_installs_the_tree_and_the_board_boots_it(board, tmp_path):
    src = make_tree(str(tmp_path / "v1"), "v1")
    rep = flash(board, src)
    assert sorted(rep.plan.added) == ["app/__init__.py", "app/a.py", "app/b.py", "boot.py", "main.py"]
    assert rep.active == "a" and rep.loader_updated
    assert active_files(board.flash_dir) == build_tree(src).files
    assert "FW v1 ok" in boot_output(board)


def test_unchanged_redeploy_sends_almost_nothing(board, tmp_path):
    # A tree that carries the agent (as firmware/ does) needs no agent upload on later deploys.
    agent = open(deploy_mod.AGENT_FILE).read()
    src = make_tree(str(tmp_path / "v1"), "v1", {"felt/__init__.py": "", "felt/deploy_agent.py": agent})
    flash(board, src)
    with Transport(board.device) as t:
        d = Deployer(t)
        rep = d.deploy(build_tree(src))
    assert rep.up_to_date and rep.plan.empty and not d.agent_pasted
    assert rep.bytes_sent < 400          # Ctrl-C/A/D, two short commands, Ctrl-B/D


def test_a_board_without_the_agent_gets_it_pasted_for_the_session(board, tmp_path):
    src = make_tree(str(tmp_path / "v1"), "v1")
    flash(board, src)
    with Transport(board.device) as t:
        d = Deployer(t)
        assert d.deploy(build_tree(src)).up_to_date and d.agent_pasted


def test_one_changed_file_travels_alone_and_stale_files_are_removed(board, tmp_path):
    src = make_tree(str(tmp_path / "v1"), "v1", {"app/old.py": "X = 1\n"})
    flash(board, src)
    with open(os.path.join(src, "app", "b.py"), "a") as f:
        f.write("# changed\n")
    os.remove(os.path.join(src, "app", "old.py"))
    rep = flash(board, src)
    assert rep.plan.changed == ["app/b.py"] and rep.plan.added == [] and rep.plan.removed == ["app/old.py"]
    assert active_files(board.flash_dir) == build_tree(src).files
    assert rep.previous == "a" and rep.active == "b"


def test_dry_run_lists_changes_and_writes_nothing(board, tmp_path, capsys):
    src = make_tree(str(tmp_path / "v1"), "v1")
    before = sorted(os.listdir(board.flash_dir))
    assert feltctl(["flash", board.device, "--src", src, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "+ app/a.mpy" in out and "dry run: 5 to add" in out  # .mpy: the default (issue 18 item 2)
    assert sorted(os.listdir(board.flash_dir)) == before


def test_rollback_boots_the_previous_tree_and_back_again(board, tmp_path):
    flash(board, make_tree(str(tmp_path / "v1"), "v1"))
    flash(board, make_tree(str(tmp_path / "v2"), "v2"))
    assert "FW v2 ok" in boot_output(board)
    assert feltctl(["flash", board.device, "--rollback"]) == 0
    assert "FW v1 ok" in boot_output(board)
    assert feltctl(["flash", board.device, "--rollback"]) == 0
    assert "FW v2 ok" in boot_output(board)


def test_rollback_without_a_previous_tree_is_a_clear_error(board, tmp_path, capsys):
    flash(board, make_tree(str(tmp_path / "v1"), "v1"))
    assert feltctl(["flash", board.device, "--rollback"]) == 1
    assert "no previous firmware on the board" in capsys.readouterr().err


def test_mpy_precompiles_modules_but_keeps_boot_and_main_as_source(board, tmp_path):
    src = make_tree(str(tmp_path / "v1"), "v1")
    rep = flash(board, src, mpy=True)
    files = active_files(board.flash_dir)
    assert sorted(files) == ["app/__init__.mpy", "app/a.mpy", "app/b.mpy", "boot.py", "main.py"]
    assert files["app/a.mpy"][:1] == b"M"          # the .mpy magic byte
    assert rep.plan.added and "FW v1 ok" in boot_output(board)


def test_a_big_file_with_every_byte_value_arrives_intact(board, tmp_path):
    # Raw bytes on the console: 0x03 (Ctrl-C), 0x04 (end), 0x01 ... are data here, in hundreds
    # of flow-control windows.
    blob = os.urandom(30000).hex()                  # 60 KB; its zlib stream has every byte value
    src = make_tree(str(tmp_path / "v1"), "v1", {"app/data.txt": blob})
    flash(board, src)
    assert active_files(board.flash_dir)["app/data.txt"] == blob.encode()


def test_the_real_firmware_tree_deploys_and_redeploys_unchanged(board):
    tree = build_tree(FIRMWARE)
    with Transport(board.device) as t:
        first = Deployer(t).deploy(tree)
    assert active_files(board.flash_dir) == tree.files and not first.up_to_date
    with Transport(board.device) as t:
        assert Deployer(t).deploy(tree).up_to_date


def test_silent_board_is_a_clear_error_within_seconds(tmp_path):
    master, slave = os.openpty()                    # a port where nobody answers
    try:
        t0 = time.monotonic()
        with pytest.raises(DeviceTimeout, match="no MicroPython REPL answered"):
            with Transport(os.ttyname(slave), timeout_s=1.0) as t:
                Deployer(t).deploy(build_tree(make_tree(str(tmp_path / "v1"), "v1")))
        assert time.monotonic() - t0 < 5
    finally:
        os.close(master)
        os.close(slave)


def test_chatty_board_that_ignores_ctrl_c_is_a_clear_error_within_seconds(tmp_path):
    # A running table that never lets Ctrl-C through (production boards turn it off) but prints
    # its event log every few hundred ms: the port is never silent for timeout_s, so the wait for
    # the raw REPL banner used to last for ever. It has a deadline of its own.
    import threading

    master, slave = os.openpty()
    stop = threading.Event()

    def chatter():
        while not stop.wait(0.2):
            os.write(master, b'{"event": "poll"}\r\n')
            try:
                while True:  # swallow whatever the host sends, as a program with its own console would
                    if not select.select([master], [], [], 0)[0]:
                        break
                    os.read(master, 1024)
            except OSError:
                return

    thread = threading.Thread(target=chatter, daemon=True)
    thread.start()
    try:
        t0 = time.monotonic()
        with pytest.raises(DeviceTimeout, match="no MicroPython REPL answered"):
            with Transport(os.ttyname(slave), timeout_s=1.0) as t:
                Deployer(t).info()
        assert time.monotonic() - t0 < 5
    finally:
        stop.set()
        thread.join(2)
        os.close(master)
        os.close(slave)


def test_board_unplugged_mid_command_is_a_transport_error_not_an_oserror():
    # pyserial's in_waiting raises a bare OSError (EIO) once the far end of the port is gone; it
    # escaped read_until and drain as a traceback instead of "read failed (board unplugged?)".
    from feltctl.board.transport import TransportError

    master, slave = os.openpty()
    t = Transport(os.ttyname(slave), timeout_s=1.0)
    try:
        os.write(master, b"raw REPL; CTRL-B")
        os.close(master)
        with pytest.raises(TransportError, match="board unplugged"):
            t.read_until(b">", "testing")
        with pytest.raises(TransportError, match="board unplugged"):
            t.drain()
    finally:
        t.ser.close()
        os.close(slave)


def test_close_releases_the_port_even_when_the_board_stopped_taking_bytes():
    # close() leaves the raw REPL with a write; when that write timed out (DeviceTimeout, not a
    # TransportError) the exception escaped close() and the port -- opened exclusively -- stayed
    # open and locked for the rest of the process.
    master, slave = os.openpty()
    t = Transport(os.ttyname(slave), timeout_s=0.2)
    try:
        t.in_raw = True

        def stuck(data):
            raise serial.SerialTimeoutException("Write timeout")

        t.ser.write = stuck
        t.close()  # no exception: the caller's own error (if any) is the one to report
        assert not t.ser.is_open
        Transport(os.ttyname(slave), timeout_s=0.2).close()  # the exclusive lock is free again
    finally:
        if t.ser.is_open:
            t.ser.close()
        os.close(master)
        os.close(slave)


def test_busy_port_is_a_clear_error(board, capsys):
    holder = serial.serial_for_url(board.device, exclusive=True)
    try:
        with pytest.raises(PortBusy, match="in use by another program"):
            Transport(board.device)
        assert feltctl(["flash", board.device, "--dry-run"]) == 1
        assert "in use by another program" in capsys.readouterr().err
    finally:
        holder.close()


def test_missing_port_is_a_clear_error(tmp_path):
    with pytest.raises(NoPort, match="no serial port"):
        Transport(str(tmp_path / "ttyACM9"))


def test_full_flash_is_a_clear_error_and_the_old_tree_still_boots(tmp_path):
    b = SimBoard(str(tmp_path / "flash"), link=str(tmp_path / "b.tty"), capacity=160 * 1024)
    b.start()
    try:
        flash(b, make_tree(str(tmp_path / "v1"), "v1"))
        big = os.urandom(60000).hex()               # 120 KB: no room for it next to v1
        with pytest.raises(FlashFull, match="flash is full"):
            flash(b, make_tree(str(tmp_path / "v2"), "v2", {"app/big.txt": big}))
        assert "FW v1 ok" in boot_output(b)
    finally:
        b.stop()


def test_hash_mismatch_is_caught_on_the_board_and_nothing_switches(board, tmp_path, monkeypatch):
    flash(board, make_tree(str(tmp_path / "v1"), "v1"))
    real_zlib = deploy_mod._zlib
    # A link that changes bytes: the board inflates other bytes than the host hashed.
    monkeypatch.setattr(deploy_mod, "_zlib", lambda data: real_zlib(data.replace(b"v2", b"v3")))
    with pytest.raises(HashMismatch, match="hash mismatch for /felt_b/app/a.py"):
        flash(board, make_tree(str(tmp_path / "v2"), "v2"))
    assert "FW v1 ok" in boot_output(board)


def test_plan_compares_size_and_hash_per_path(tmp_path):
    tree = build_tree(make_tree(str(tmp_path / "v1"), "v1"))
    device = [list(e) for e in tree.entries]
    device[1][2] = "0" * 64
    device.append(["gone.py", 3, "1" * 64])
    p = Plan(tree, device)
    assert p.changed == [tree.entries[1][0]] and p.removed == ["gone.py"] and len(p.kept) == 4


def test_mpy_lets_a_big_module_load_in_a_small_heap(tmp_path):
    # 320 functions: compiling the source on the board runs out of a 160 KB heap (a Pico-sized
    # one), loading the precompiled .mpy fits in it. (400 functions left the .mpy only a few KB of
    # room once the loader grew in 0003ced: it failed at 150 KB, and at 160 KB now and then.)
    big = "".join("def f%d(a, b):\n    x = a * %d + b\n    return [x, %d] if x > %d else {'k': x}\n"
                  % (i, i, i, 3 * i) for i in range(320))
    main = "import app.a, app.big\nprint('FW %s ok' % app.a.VERSION, app.big.f3(1, 2))\n"
    src = make_tree(str(tmp_path / "v1"), "v1", {"app/big.py": big, "main.py": main})
    b = SimBoard(str(tmp_path / "flash"), link=str(tmp_path / "b.tty"), heap="160k")
    b.start()
    try:
        flash(b, src)
        assert "MemoryError" in boot_output(b)
        flash(b, src, mpy=True)
        assert "FW v1 ok {'k': 5}" in boot_output(b)
    finally:
        b.stop()


def test_progress_bar_reaches_100_percent(board, tmp_path, capsys):
    src = make_tree(str(tmp_path / "v1"), "v1", {"app/data.txt": os.urandom(20000).hex()})
    assert feltctl(["flash", board.device, "--src", src, "--progress"]) == 0
    frames = capsys.readouterr().err.replace("\n", "\r").split("\r")
    frames = [f for f in frames if f]
    assert len(frames) > 3                                   # it moved while the data travelled
    assert re.fullmatch(r"\[#{30}\] 100% (\d+)/\1 bytes", frames[-1]), frames[-1]
    assert int(frames[-1].split("/")[1].split()[0]) > 40000


@pytest.mark.parametrize("what", ["missing", "empty", "no main.py"])
def test_flash_of_a_folder_that_is_not_a_firmware_tree_is_refused_and_the_board_keeps_its_firmware(
        board, tmp_path, capsys, what):
    # `--src` with a typo walked nothing and deployed an EMPTY tree: the board then booted a slot
    # with no main.py. A source that is not a folder, or a tree without main.py, is refused before
    # the port is even opened.
    flash(board, make_tree(str(tmp_path / "v1"), "v1"))
    src = tmp_path / "src"
    if what != "missing":
        src.mkdir()
    if what == "no main.py":
        (src / "lib.py").write_text("x = 1\n")
    assert feltctl(["flash", board.device, "--src", str(src)]) == 1
    err = capsys.readouterr().err
    assert "not a firmware tree" in err and str(src) in err, err
    assert "FW v1 ok" in boot_output(board)


def test_rollback_with_dry_run_says_what_it_would_do_and_changes_nothing(board, tmp_path, capsys):
    # --dry-run ("change nothing") was ignored with --rollback: the board was rolled back
    flash(board, make_tree(str(tmp_path / "v1"), "v1"))
    flash(board, make_tree(str(tmp_path / "v2"), "v2"))
    with open(os.path.join(board.flash_dir, "felt.slot")) as f:
        slot = f.read()
    capsys.readouterr()
    assert feltctl(["flash", board.device, "--rollback", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "dry run" in out and "nothing written" in out, out
    with open(os.path.join(board.flash_dir, "felt.slot")) as f:
        assert f.read() == slot
    assert "FW v2 ok" in boot_output(board)
