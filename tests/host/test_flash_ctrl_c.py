# Issue 18 item 3: Ctrl-C during `feltctl flash` must not wedge the board. The deploy agent reads
# a file's raw bytes with Ctrl-C off (0x03 is data there); a host that stopped sending left it
# waiting for ever, eating every later byte (a new `feltctl info` included) as file data, until a
# power cycle. Now the agent gives up after deploy_agent.SILENCE_MS without a byte, feltctl cleans
# up after a Ctrl-C (stops the command, frees the unfinished slot, restarts the old firmware,
# exit 130), and `feltctl info` names a slot a deploy left unfinished. A real SIGINT (and a
# SIGKILL, which leaves no chance to clean up) to the feltctl process, on a simulated board at
# 115200 baud so that the file bytes are still travelling when the signal lands.
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from feltctl.board.deploy import Deployer, build_tree
from feltctl.board.transport import Transport
from feltctl.board_sim.simboard import SimBoard
from feltctl.cli import main as feltctl
from feltctl.paths import FIRMWARE
from simboard_boot import active_files, boot_output


def make_tree(root, version, big=0):
    os.makedirs(os.path.join(root, "app"))
    shutil.copy(os.path.join(FIRMWARE, "boot.py"), os.path.join(root, "boot.py"))
    with open(os.path.join(root, "main.py"), "w") as f:
        f.write("import app.a\nprint('FW %s ok' % app.a.VERSION)\n")
    with open(os.path.join(root, "app", "a.py"), "w") as f:
        f.write("VERSION = %r\n" % version)
    if big:
        with open(os.path.join(root, "app", "big.bin"), "wb") as f:
            f.write(os.urandom(big))  # incompressible: big bytes on the wire
    return root


@pytest.fixture
def board(tmp_path):
    b = SimBoard(str(tmp_path / "flash"), link=str(tmp_path / "b.tty"), baud=115200)
    b.start()
    b.wait_idle()
    with Transport(b.device, timeout_s=5) as t:
        Deployer(t).deploy(build_tree(make_tree(str(tmp_path / "v1"), "v1")))
    yield b
    b.stop()


def flash_process(board, src):
    # SIGINT as a terminal delivers it: a test run started in the background (`make test &`)
    # inherits SIGINT ignored, and Python then installs no KeyboardInterrupt handler at all
    return subprocess.Popen([sys.executable, "-m", "feltctl", "flash", board.device, "--src", src],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def when_file_bytes_travel(board, proc, n=20000):
    """Wait until the deploy has sent n bytes more (it is inside putb, Ctrl-C off on the board)."""
    start = board.rx_count
    end = time.monotonic() + 60
    while board.rx_count - start < n:
        assert proc.poll() is None and time.monotonic() < end, "the deploy ended first"
        time.sleep(0.02)


def test_ctrl_c_during_flash_stops_the_deploy_frees_its_slot_and_the_old_firmware_boots(board, tmp_path, capsys):
    proc = flash_process(board, make_tree(str(tmp_path / "v2"), "v2", big=80000))
    when_file_bytes_travel(board, proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted: deploy stopped, freed /felt_b" in err and "boots slot a as before" in err, err
    assert "Traceback" not in err, err
    assert not os.path.exists(os.path.join(board.flash_dir, "felt_b"))
    assert "FW v1 ok" in boot_output(board)
    assert feltctl(["info", board.device, "--timeout", "5"]) == 0
    info = capsys.readouterr().out
    assert "active slot  a" in info and "unfinished" not in info, info
    assert feltctl(["flash", board.device, "--src", str(tmp_path / "v2"), "--timeout", "5"]) == 0
    assert "FW v2 ok" in boot_output(board)


def test_a_flash_killed_mid_file_leaves_a_board_that_answers_and_says_what_is_unfinished(board, tmp_path, capsys):
    proc = flash_process(board, make_tree(str(tmp_path / "v2"), "v2", big=80000))
    when_file_bytes_travel(board, proc)
    proc.kill()  # no clean-up possible: the board must get out by itself
    proc.wait(10)
    time.sleep(3)  # the agent's deadline (deploy_agent.SILENCE_MS = 2 s) and a margin
    capsys.readouterr()
    assert feltctl(["info", board.device, "--timeout", "5"]) == 0, capsys.readouterr().err
    info = capsys.readouterr().out
    assert "active slot  a" in info and "unfinished   /felt_b: a deploy that did not finish" in info, info
    assert "FW v1 ok" in boot_output(board)
    assert active_files(board.flash_dir)["main.py"].startswith(b"import app.a")
    assert feltctl(["flash", board.device, "--src", str(tmp_path / "v2"), "--timeout", "5"]) == 0
    assert "FW v2 ok" in boot_output(board)
