# Test helpers shared by the deploy tests on the simulated board (test_flash.py,
# test_flash_interrupt.py): boot the board and read what it prints, and read the tree it boots
# straight from the simulated flash.
import os
import time

import serial

from felt import deploy_agent

BLOCK = 4096  # the simulated flash's block (board_sim/vm.py)


def flash_used(flash_dir):
    """Bytes the simulated flash counts as used (board_sim/vm.py Flash.used: littlefs2's cost,
    deploy_agent.lfs_tree_blocks, of every file and folder)."""
    files = {}
    for d, dirs, names in os.walk(flash_dir):
        rel = os.path.relpath(d, flash_dir).replace(os.sep, "/")
        base = "" if rel == "." else rel + "/"
        for n in dirs:
            files[base + n + "/.keep"] = 0
        for n in names:
            files[base + n] = os.path.getsize(os.path.join(d, n))
    return BLOCK * deploy_agent.lfs_tree_blocks(files, BLOCK)


def filler_size(free):
    """The largest file that takes at most `free` bytes of the simulated flash."""
    k = free // BLOCK
    return 0 if k <= 0 else BLOCK + (k - 1) * (BLOCK - 8)


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
    if os.path.exists(os.path.join(root, deploy_agent.PACK)):
        return pack_files(os.path.join(root, deploy_agent.PACK))
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            if n != ".felt-ok":
                with open(os.path.join(d, n), "rb") as f:
                    out[os.path.relpath(os.path.join(d, n), root).replace(os.sep, "/")] = f.read()
    return out


def pack_files(path):
    """{path: bytes} of a packed slot (deploy_agent.pack_index: path, size, sha256, offset)."""
    with open(path, "rb") as f:
        data = f.read()
    return dict((rel, data[off:off + size]) for rel, size, _, off in deploy_agent.pack_index(path))


def read_until(board, needles, seconds=90):
    """What the board prints until one of `needles` (bytes) appears or `seconds` pass."""
    ser = serial.serial_for_url(board.device, timeout=0.05)
    data = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end and not any(n in data for n in needles):
        data += ser.read(512)
    ser.close()
    return data.decode("utf-8", "replace")


def fill_flash(flash_dir, path, capacity):
    """Write file `path` (inside flash_dir) as large as the simulated flash still holds: afterwards
    less than a block is free."""
    size = filler_size(capacity - flash_used(flash_dir))
    while True:
        with open(path, "wb") as f:
            f.write(b"\xa5" * size)
        if flash_used(flash_dir) <= capacity or size <= 0:
            return
        size = filler_size(size - BLOCK)
