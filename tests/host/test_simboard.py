# The simulated board speaks MicroPython's REPL protocols byte for byte (shared/runtime/pyexec.c):
# friendly REPL, raw REPL, raw paste with window flow control, soft reset, Ctrl-C, plus the
# scripted faults (baud throttle, link cut, reset at a byte, full flash) the flash tests rely on.
import os
import time

import pytest
import serial

from feltctl.board_sim.simboard import Faults, SimBoard

RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n>"


@pytest.fixture
def flash(tmp_path):
    d = tmp_path / "flash"
    d.mkdir()
    (d / "boot.py").write_text("print('boot ran')\n")
    (d / "main.py").write_text("print('main ran')\n")
    return d


def open_board(flash, **kw):
    board = SimBoard(str(flash), link=str(flash) + ".tty", **kw)
    board.start()
    return board


def read_until(ser, ending, timeout_s=5.0):
    data = b""
    end = time.monotonic() + timeout_s
    while not data.endswith(ending):
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for %r, got %r" % (ending, data[-200:]))
        data += ser.read(1)
    return data


@pytest.fixture
def board(flash):
    b = open_board(flash)
    yield b
    b.stop()


def connect(board):
    ser = serial.serial_for_url(board.device, timeout=0.05)
    board.wait_idle()
    ser.reset_input_buffer()
    return ser


def test_power_on_runs_boot_then_main_then_banner(flash):
    b = SimBoard(str(flash))
    b.start()
    try:
        ser = serial.serial_for_url(b.device, timeout=0.05)
        out = read_until(ser, b">>> ")
        assert out.index(b"boot ran\r\n") < out.index(b"main ran\r\n") < out.index(b"MicroPython v1.29")
        ser.close()
    finally:
        b.stop()


def test_friendly_repl_echoes_and_prints_expression_values(board):
    ser = connect(board)
    ser.write(b"6*7\r")
    assert read_until(ser, b">>> ") == b"6*7\r\n42\r\n>>> "
    ser.write(b"for i in range(2):\r")
    ser.write(b"print(i)\r\r")
    assert read_until(ser, b">>> ").endswith(b"0\r\n1\r\n>>> ")


def test_raw_repl_exec_reports_output_then_error_between_eofs(board):
    ser = connect(board)
    ser.write(b"\x01")
    assert read_until(ser, RAW_BANNER) == b"\r\n" + RAW_BANNER
    ser.write(b"print('out')\x04")
    assert read_until(ser, b">") == b"OKout\r\n\x04\x04>"
    ser.write(b"1/0\x04")
    got = read_until(ser, b"\x04>")
    assert got.startswith(b"OK\x04Traceback (most recent call last):\r\n")
    assert b"ZeroDivisionError: divide by zero\r\n\x04>" in got


def test_raw_repl_soft_reset_runs_boot_but_not_main(board):
    ser = connect(board)
    ser.write(b"\x01")
    read_until(ser, RAW_BANNER)
    ser.write(b"x = 5\x04")
    read_until(ser, b"\x04>")
    ser.write(b"\x04")
    got = read_until(ser, RAW_BANNER)
    assert got == b"OK\r\nMPY: soft reboot\r\nboot ran\r\n" + RAW_BANNER
    ser.write(b"print('x' in globals())\x04")
    assert read_until(ser, b"\x04>") == b"OKFalse\r\n\x04\x04>"   # a fresh interpreter


def test_raw_paste_grants_two_windows_then_one_per_window_consumed(board):
    ser = connect(board)
    ser.write(b"\x01")
    read_until(ser, RAW_BANNER)
    ser.write(b"\x05A\x01")
    # "R\x01", window 128 (little-endian), and \x01: two windows are free to start with.
    assert read_until(ser, b"\x01", 2)[:2] == b"R\x01"
    assert ser.read(3) == b"\x80\x00\x01"
    code = b"print(len('" + b"y" * 300 + b"'))"   # 314 bytes: two more windows get freed
    ser.write(code)
    assert read_until(ser, b"\x01\x01") == b"\x01\x01"
    ser.write(b"\x04")
    assert read_until(ser, b">") == b"\x04300\r\n\x04\x04>"


def test_ctrl_c_interrupts_a_running_program(board):
    ser = connect(board)
    ser.write(b"\x01")
    read_until(ser, RAW_BANNER)
    ser.write(b"while True: pass\x04")
    read_until(ser, b"OK")
    time.sleep(0.2)
    ser.write(b"\x03")
    got = read_until(ser, b"\x04>", 3)
    assert b"KeyboardInterrupt" in got


def test_machine_reset_reboots_into_friendly_repl(board):
    ser = connect(board)
    ser.write(b"\x01")
    read_until(ser, RAW_BANNER)
    ser.write(b"import machine; machine.reset()\x04")
    got = read_until(ser, b">>> ")
    assert b"boot ran\r\nmain ran\r\n" in got and board.resets == 1


def test_throttled_board_takes_the_wire_time_of_its_baud_rate(flash):
    b = open_board(flash, baud=115200)
    try:
        ser = connect(b)
        ser.write(b"\x01")
        read_until(ser, RAW_BANNER)
        t0 = time.monotonic()
        ser.write(b"print(len('" + b"z" * 3000 + b"'))\x04")   # 3016 bytes = 0.26 s at 11520 B/s
        read_until(ser, b"\x04>")
        assert time.monotonic() - t0 >= 0.25
    finally:
        b.stop()


def test_cut_link_goes_silent_after_the_chosen_byte(flash):
    b = open_board(flash, faults=Faults(cut_at=10))
    try:
        ser = connect(b)
        ser.write(b"\x01")          # byte 1: answered
        read_until(ser, RAW_BANNER)
        ser.write(b"print('never')\x04")
        time.sleep(0.3)
        assert ser.read(100) == b""
        b.power_cycle()             # replugging brings the board back
        ser.write(b"\r")
        assert read_until(ser, b">>> ")
    finally:
        b.stop()


def test_reset_at_byte_reboots_the_board_there(flash):
    b = open_board(flash, faults=Faults(reset_at=5))
    try:
        ser = connect(b)
        ser.write(b"\x01")
        read_until(ser, RAW_BANNER)
        ser.write(b"print(1)\x04")   # bytes 2..9: the reset lands on byte 5, mid-command
        got = read_until(ser, b">>> ")
        assert b"main ran" in got and b"OK" not in got and b.resets == 1
    finally:
        b.stop()


def test_full_flash_refuses_writes_with_enospc(flash):
    b = open_board(flash, capacity=64 * 1024)
    try:
        ser = connect(b)
        ser.write(b"\x01")
        read_until(ser, RAW_BANNER)
        ser.write(b"f = open('big', 'wb')\nfor i in range(40): f.write(bytes(4096))\x04")
        got = read_until(ser, b"\x04>")
        assert b"OSError: 28" in got or b"ENOSPC" in got
    finally:
        b.stop()


def test_program_with_ctrl_c_off_reads_raw_bytes_from_the_console(board):
    # micropython.kbd_intr(-1), as a board does: 0x03 is data then, not an interrupt.
    ser = connect(board)
    ser.write(b"\x01")
    read_until(ser, RAW_BANNER)
    ser.write(b"import sys, micropython\nmicropython.kbd_intr(-1)\nprint('go')\n"
              b"b = sys.stdin.buffer.read(4)\nmicropython.kbd_intr(3)\nprint(b)\x04")
    read_until(ser, b"go\r\n")
    ser.write(b"\x03\x04\x01A")
    assert read_until(ser, b"\x04>") == b"b'\\x03\\x04\\x01A'\r\n\x04\x04>"


def test_machine_soft_reset_soft_reboots(board):
    ser = connect(board)
    ser.write(b"\x01")
    read_until(ser, RAW_BANNER)
    ser.write(b"import machine; machine.soft_reset()\x04")
    assert read_until(ser, RAW_BANNER).endswith(b"MPY: soft reboot\r\nboot ran\r\n" + RAW_BANNER)


def test_feltctl_simboard_prints_its_device_first_and_serves_it(tmp_path):
    import subprocess
    import sys

    from feltctl.board.transport import Transport

    proc = subprocess.Popen([sys.executable, "-m", "feltctl", "simboard", "--flash", str(tmp_path / "f"),
                             "--baud", "115200"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        device = proc.stdout.readline().strip()
        assert device == str(tmp_path / "f") + ".tty"
        with Transport(device) as t:
            t.enter_raw(soft_reset=False)
            assert t.exec("print(2 ** 10)") == b"1024\r\n"
    finally:
        proc.terminate()
        proc.wait(10)
    assert not os.path.lexists(device)   # the link goes with the board


def test_link_path_holding_a_file_is_refused_not_deleted(flash):
    # The link (default <flash>.tty) used to be removed whatever it was: a file of the user's at
    # that path was deleted. Only a symlink (a board's earlier link) is replaced.
    precious = str(flash) + ".tty"
    with open(precious, "w") as f:
        f.write("my notes")
    board = SimBoard(str(flash), link=precious)
    with pytest.raises(FileExistsError, match="not a link"):
        board.start()
    with open(precious) as f:
        assert f.read() == "my notes"
    os.remove(precious)
    os.symlink("/nonexistent/pts/9", precious)  # a stale link from a board that was killed
    board = SimBoard(str(flash), link=precious)
    board.start()
    try:
        assert os.path.realpath(precious).startswith("/dev/pts/")
    finally:
        board.stop()


@pytest.mark.parametrize("bad", [["--heap", "abc"], ["--heap", "1k"], ["--capacity", "-1"], ["--baud", "-5"]])
def test_feltctl_simboard_refuses_a_heap_capacity_or_baud_it_cannot_run_with(tmp_path, bad):
    # --heap abc started a board whose interpreter could not start: it printed its device and then
    # never answered (every client timed out); --capacity -1 was a board whose flash is always full.
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "feltctl", "simboard", "--flash", str(tmp_path / "f")] + bad,
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 2 and bad[0] in out.stderr, out.stderr
    assert out.stdout == "" and not os.path.lexists(str(tmp_path / "f.tty"))


def test_feltctl_simboard_flash_that_cannot_be_a_folder_is_one_error_line(tmp_path):
    # --flash naming a file (or under one) was a FileExistsError traceback from SimBoard()
    import subprocess
    import sys

    blocker = tmp_path / "notes.txt"
    blocker.write_text("mine")
    for flash in (blocker, blocker / "flash"):
        out = subprocess.run([sys.executable, "-m", "feltctl", "simboard", "--flash", str(flash)],
                             capture_output=True, text=True, timeout=30)
        assert out.returncode == 1 and out.stdout == "", out.stderr
        assert out.stderr.startswith("feltctl simboard: error: ") and out.stderr.count("\n") == 1, out.stderr
    assert blocker.read_text() == "mine"


def test_a_power_cycle_loses_what_was_in_flight_both_ways(flash):
    """Unplugging a board loses its unsent output and the host's unread bytes, as a USB CDC
    device's buffers do: nothing printed before the cut may reach the host after power_cycle()
    returns (a stale ">>> " from the old boot once made the signed power-cut sweep read a
    production board as one that had dropped to the REPL), and no stale byte the host sent
    before it reaches the new boot."""
    b = open_board(flash, baud=1200)   # 120 B/s: a 600-byte answer is still going out for seconds
    try:
        ser = connect(b)
        ser.write(b"print('STALE' * 120)\r")
        read_until(ser, b"STALE", timeout_s=10)
        ser.write(b"print('LATE')\r")   # sent before the cut, not yet taken (the board prints)
        b.power_cycle()
        ser.reset_input_buffer()   # what arrived before the cut (the host had it already)
        got = read_until(ser, b">>> ", timeout_s=30)
        assert b"STALE" not in got and b"boot ran\r\nmain ran\r\n" in got, got
        time.sleep(0.5)
        assert b"LATE" not in ser.read(2000)
    finally:
        b.stop()
