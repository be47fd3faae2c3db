# firmware/main.py on the simulated MicroPython board: `feltctl flash --mpy` deploys the real
# firmware tree into a slot, a board map with the sim HAL sits in the data root ("/board.json": the
# sim board's `machine` has no SPI), and after a power cycle main.py logs its banner, closes the
# console (production), and writes journal, audit log and hand folder at ABSOLUTE paths -- outside
# the slot a later deploy deletes.
import json
import os
import time

import pytest
import serial

from feltctl.cli import main as feltctl
from feltctl.paths import REPO
from feltctl.board_sim.simboard import SimBoard


@pytest.fixture
def board(tmp_path):
    b = SimBoard(str(tmp_path / "flash"), link=str(tmp_path / "board.tty"), capacity=4 * 1024 * 1024, heap="4M")
    b.start()
    b.wait_idle()
    yield b
    b.stop()


def _read_until(ser, needle, seconds):
    data = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end and needle not in data:
        data += ser.read(512)
    return data.decode("utf-8", "replace")


def test_main_boots_the_table_on_the_sim_board_with_data_outside_the_slot(board):
    with open(os.path.join(REPO, "hardware", "boards", "pico.json")) as f:
        data = json.load(f)
    data["hal"] = "sim"
    with open(os.path.join(board.flash_dir, "board.json"), "w") as f:
        json.dump(data, f)
    assert feltctl(["flash", board.device, "--mpy", "--timeout", "10"]) == 0
    board.wait_idle()
    ser = serial.serial_for_url(board.device, timeout=0.05)
    ser.reset_input_buffer()
    board.power_cycle()
    out = _read_until(ser, b"recovered to event", 60)
    ser.close()
    assert "felt app 1: board Raspberry Pi Pico" in out, out
    assert "hal SimHAL, data /" in out, out
    assert "unprovisioned board: running unsigned" in out, out
    assert "production mode" in out, out
    assert "recovered to event" in out, out
    assert "Traceback" not in out, out
    flash = board.flash_dir
    assert os.path.isdir(os.path.join(flash, "hands"))
    assert os.path.getsize(os.path.join(flash, "flash.ring")) == 262144  # the ring journal (board file)
    with open(os.path.join(flash, "audit.log")) as f:
        assert "production mode, unsigned tree" in f.read()
    slot = open(os.path.join(flash, "felt.slot")).read().strip()
    assert not os.path.exists(os.path.join(flash, "felt_" + slot, "journal"))  # nothing in the slot
