# The real mpremote (the MicroPython project's tool) works against the simulated board:
# fs ls, fs cp (both ways, recursive, hash-skipping), exec, run, reset. mpremote waits forever
# on a silent port, so every call runs under `timeout`.
import os
import subprocess
import sys

import pytest

from feltctl.board_sim.simboard import SimBoard

MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")


@pytest.fixture
def board(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "boot.py").write_text("print('boot ran')\n")
    b = SimBoard(str(flash), link=str(tmp_path / "board.tty"), capacity=1024 * 1024)
    b.start()
    b.wait_idle()
    yield b
    b.stop()


def mpremote(board, *args):
    out = subprocess.run(["timeout", "20", MPREMOTE, "connect", board.device] + list(args),
                         capture_output=True, text=True)
    assert out.returncode != 124, "mpremote hung: %s" % (out.stdout + out.stderr)
    return out


def test_mpremote_exec_prints_the_board_output(board):
    out = mpremote(board, "exec", "print(6 * 7)")
    assert out.returncode == 0 and out.stdout == "42\n"


def test_mpremote_exec_error_exits_nonzero_with_the_traceback(board):
    out = mpremote(board, "exec", "import nosuchmodule")
    assert out.returncode == 1 and "ImportError: no module named 'nosuchmodule'" in out.stdout + out.stderr


def test_mpremote_fs_cp_recursive_then_ls_then_cp_back(board, tmp_path):
    src = tmp_path / "pkg"
    (src / "sub").mkdir(parents=True)
    (src / "a.py").write_text("A = 1\n")
    (src / "sub" / "b.bin").write_bytes(bytes(range(256)) * 20)
    assert mpremote(board, "fs", "cp", "-r", str(src), ":").returncode == 0
    assert (tmp_path / "flash" / "pkg" / "sub" / "b.bin").read_bytes() == bytes(range(256)) * 20
    ls = mpremote(board, "fs", "ls", ":pkg")
    assert ls.returncode == 0 and "a.py" in ls.stdout and "sub/" in ls.stdout
    again = mpremote(board, "fs", "cp", "-r", str(src), ":")
    assert "Up to date: ./pkg/a.py" in again.stdout        # its sha256 check ran on the board
    back = tmp_path / "back.bin"
    assert mpremote(board, "fs", "cp", ":pkg/sub/b.bin", str(back)).returncode == 0
    assert back.read_bytes() == bytes(range(256)) * 20


def test_mpremote_run_executes_a_local_script_on_the_board(board, tmp_path):
    script = tmp_path / "hello.py"
    script.write_text("import sys\nprint('hello from', sys.implementation.name)\n")
    out = mpremote(board, "run", str(script))
    assert out.returncode == 0 and out.stdout == "hello from micropython\n"


def test_mpremote_reset_hard_resets_the_board(board):
    out = mpremote(board, "reset")
    assert out.returncode == 0
    board.wait_idle()
    assert board.resets == 1
    assert mpremote(board, "exec", "print('back')").stdout == "back\n"


def test_mpremote_sees_a_full_filesystem_as_an_error(board, tmp_path):
    (tmp_path / "flash" / "filler.bin").write_bytes(bytes(1000 * 1024))   # 1 MB flash nearly full
    src = tmp_path / "more.bin"
    src.write_bytes(bytes(40 * 1024))
    out = mpremote(board, "fs", "cp", str(src), ":more.bin")
    assert out.returncode != 0 and "No space left on device" in out.stderr


def test_mpremote_ls_shows_file_sizes_as_on_a_board(board, tmp_path):
    # issue 18 item 10: littlefs lists (name, type, inode, size); the simulated flash listed no
    # size and `mpremote fs ls` printed 0 for every file
    (tmp_path / "flash" / "data.bin").write_bytes(bytes(1234))
    (tmp_path / "flash" / "sub").mkdir()
    (tmp_path / "flash" / "sub" / "x.py").write_text("X = 1\n")
    root = mpremote(board, "fs", "ls", ":/")
    assert root.returncode == 0, root.stderr
    sizes = dict(reversed(line.split()) for line in root.stdout.splitlines()[1:] if line.strip())
    assert sizes["data.bin"] == "1234" and sizes["boot.py"] == str(len("print('boot ran')\n")), root.stdout
    assert sizes["sub/"] == "0", root.stdout
    sub = mpremote(board, "fs", "ls", ":sub")
    assert sub.returncode == 0 and sub.stdout.split("\n")[1].split() == ["6", "x.py"], sub.stdout


def test_mpremote_rtc_reads_and_sets_the_clock_as_on_a_pico(board):
    # issue 18 item 10: `mpremote rtc` failed (the simulated machine module had no RTC). A Pico's
    # RTC starts at 2021-01-01 (a Friday: weekday 4) at power-on and keeps time across a soft reset.
    import ast
    import datetime

    got = mpremote(board, "rtc")
    assert got.returncode == 0, got.stderr
    y, mo, d, wd, h, mi, s, sub = ast.literal_eval(got.stdout.strip())
    assert (y, mo, d, wd, h, sub) == (2021, 1, 1, 4, 0, 0) and mi * 60 + s < 60, got.stdout
    assert mpremote(board, "rtc", "--set").returncode == 0
    after_set = datetime.datetime.now()
    assert mpremote(board, "soft-reset").returncode == 0
    got = mpremote(board, "rtc")
    y, mo, d, wd, h, mi, s, sub = ast.literal_eval(got.stdout.strip())
    board_now = datetime.datetime(y, mo, d, h, mi, s)
    assert abs((board_now - after_set).total_seconds()) < 30 and wd == board_now.weekday(), got.stdout
    board.power_cycle()
    board.wait_idle()
    assert ast.literal_eval(mpremote(board, "rtc").stdout.strip())[:3] == (2021, 1, 1)
