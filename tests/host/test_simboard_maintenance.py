# The documented set-up of a simulated board (hardware/flashing.md: flash, then copy a board map
# with "hal": "sim" to /board.json) ends with the table running in production: its console closed,
# `feltctl info` / `flash` / mpremote can no longer reach the REPL. A real board has the maintenance
# key switch for that (hardware/security.md section 4); `feltctl simboard --maintenance` powers the
# simulated board on with it held (issue 18 item 5), through the real `feltctl simboard` process.
import json
import os
import subprocess
import sys
import time

from feltctl.cli import main as feltctl
from feltctl.paths import REPO

MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")


def start_simboard(flash, *extra):
    proc = subprocess.Popen([sys.executable, "-m", "feltctl", "simboard", "--flash", flash] + list(extra),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    device = proc.stdout.readline().strip()
    return proc, device, proc.stderr.readline()


def stop(proc):
    proc.terminate()
    proc.wait(10)


def audit_text(flash):
    with open(os.path.join(flash, "audit.log")) as f:
        return f.read()


def wait_for(flash, text, times=1, seconds=60):
    """True once the board's audit log holds `text` `times` times (the table ran that far)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if os.path.exists(os.path.join(flash, "audit.log")) and audit_text(flash).count(text) >= times:
            return True
        time.sleep(0.2)
    return False


def test_documented_board_json_step_then_the_maintenance_switch_reopens_the_simulated_board(tmp_path, capsys):
    flash = str(tmp_path / "board")
    with open(os.path.join(REPO, "hardware", "boards", "pico.json")) as f:
        board_map = json.load(f)
    board_map["hal"] = "sim"
    (tmp_path / "board.json").write_text(json.dumps(board_map))
    proc, device, said = start_simboard(flash)
    try:
        assert "key switch: production" in said and "--maintenance" in said, said
        assert feltctl(["flash", device, "--timeout", "10"]) == 0
        cp = subprocess.run(["timeout", "30", MPREMOTE, "connect", device, "fs", "cp", str(tmp_path / "board.json"),
                             ":/board.json", "+", "reset"], capture_output=True, text=True)
        assert cp.returncode == 0, cp.stdout + cp.stderr
        assert wait_for(flash, "production mode, unsigned tree")
        capsys.readouterr()
        assert feltctl(["info", device, "--timeout", "2"]) == 1  # the console is closed: locked
        assert "no MicroPython REPL answered" in capsys.readouterr().err
    finally:
        stop(proc)
    # power on again with the key switch held: the table runs, and the console answers
    proc, device, said = start_simboard(flash, "--maintenance")
    try:
        assert "key switch: maintenance" in said, said
        assert wait_for(flash, "maintenance mode, unsigned tree")
        assert "maintenance mode entered at boot (GP28 key switch held)" in audit_text(flash)
        capsys.readouterr()
        assert feltctl(["info", device, "--timeout", "15"]) == 0
        out = capsys.readouterr().out
        assert "active slot  a" in out and "firmware     " in out, out
        assert feltctl(["flash", device, "--timeout", "10"]) == 0  # and a deploy goes through
        assert "up to date" in capsys.readouterr().out
    finally:
        stop(proc)
    # and without it the board is in production again (the switch is read at each power-on)
    proc, device, said = start_simboard(flash)
    try:
        assert wait_for(flash, "production mode, unsigned tree", times=2)
    finally:
        stop(proc)
