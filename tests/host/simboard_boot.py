# Test helpers shared by the deploy tests on the simulated board (test_flash.py,
# test_flash_interrupt.py): boot the board and read what it prints, and read the tree it boots
# straight from the simulated flash.
import os
import time

import serial


def boot_output(board, idle_s=10.0, faults=None):
    """Power-cycle the board (installing `faults`, None keeps them) and return what it prints up
    to the friendly prompt. idle_s: how long to wait for a command in flight to finish first (a cut
    link can leave one waiting for bytes for ever: then it does not matter)."""
    board.wait_idle(idle_s)
    ser = serial.serial_for_url(board.device, timeout=0.05)
    ser.reset_input_buffer()
    board.power_cycle(faults)
    data = b""
    end = time.monotonic() + 10
    # Every test tree's main.py prints "FW <version> ok" or fails with a traceback.
    while time.monotonic() < end and not (data.endswith(b">>> ") and (b"FW " in data or b"Error" in data)):
        data += ser.read(256)
    ser.close()
    return data.decode("utf-8", "replace")


def active_files(flash_dir):
    """{path: bytes} of the tree the board boots (its active slot), without the .felt-ok mark."""
    with open(os.path.join(flash_dir, "felt.slot")) as f:
        slot = f.read().strip()
    root = os.path.join(flash_dir, "felt_" + slot)
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            if n != ".felt-ok":
                with open(os.path.join(d, n), "rb") as f:
                    out[os.path.relpath(os.path.join(d, n), root).replace(os.sep, "/")] = f.read()
    return out


def read_until(board, needles, seconds=90):
    """What the board prints until one of `needles` (bytes) appears or `seconds` pass."""
    ser = serial.serial_for_url(board.device, timeout=0.05)
    data = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end and not any(n in data for n in needles):
        data += ser.read(512)
    ser.close()
    return data.decode("utf-8", "replace")
