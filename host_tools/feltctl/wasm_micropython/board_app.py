# The two-VM emulated board booted as firmware/main.py boots (host harness, at the root of the board
# VM's ROM image, imported by board_side only on that path, so the bare table's heap holds none of
# it; hardware/memory.md, "A board as it boots"): booting() is the boot, then MachineHAL's rp2_module
# (Flash, the raw flash of pico.json's ring journal, kept by the launcher outside both heaps) and
# os_module (urandom, the entropy source: this port has no os.urandom) -- C on a Pico: their objects
# and names here are an overstatement of the board -- and the measurements' drop_part.
import sys

import board_side
import uctypes
import wire
from micropython import const

_FLASH_BYTES = const(1441792)  # rp2's storage region on a Pico (launcher.mjs FLASH_BYTES)
_BLOCK = const(4096)


def urandom(n):
    """os.urandom (MachineHAL's os_module): n bytes of node's crypto, the stand-in
    for the RP2040's ring oscillator (this port has no os.urandom)."""
    b = bytearray(n)
    wire.urandom(uctypes.addressof(b), n)
    return bytes(b)


class Flash:
    """rp2.Flash (MachineHAL's rp2_module on the app path: the ring journal of pico.json): `len`
    bytes at `start` of the storage region, which the launcher keeps outside both heaps."""

    def __init__(self, start=0, len=_FLASH_BYTES):  # noqa: A002 (rp2's keyword)
        self.start = start
        self.len = len

    def readblocks(self, block, buf, off=0):
        wire.flash(0, self.start + block * _BLOCK + off, uctypes.addressof(buf), len(buf))

    def writeblocks(self, block, buf, off=None):
        if off is None:  # the simple protocol: whole blocks, erased first
            wire.flash(2, self.start + block * _BLOCK, 0, len(buf))
            off = 0
        wire.flash(1, self.start + block * _BLOCK + off, uctypes.addressof(buf), len(buf))

    def ioctl(self, op, arg):
        if op == 4:
            return self.len // _BLOCK
        if op == 5:
            return _BLOCK
        if op == 6:
            wire.flash(2, self.start + arg * _BLOCK, 0, _BLOCK)
        return 0


def statvfs(path):
    # MachineHAL's overlap check reads the file system's size: a production Pico runs a build whose
    # littlefs leaves the ring's 256 KB free (hardware/journal.md 3b); this board's files are the
    # port's own, not in this flash
    raise OSError(95)


def booting(flags):
    """The board as it boots (board_side op BUILD, flag 4), one phase an entry: firmware/main.py's
    path -- the signed-tree check first, then felt.runtime.app.run (data root, keys, audit log, boot
    check, journal, secrecy feed, PHH files, floor desk, loop) with its files in this VM's own file
    system (bench_memory.app_board_files put them there). What differs from main.py: the HAL is
    MachineHAL over board_wire and this module (main.py's open_hal("machine") with the real machine,
    rp2 and os), and app.run gets steps=0, so it returns once the table is built and started and the
    world steps its main loop (op 1), as wiring.run_forever would. The modules app.run imports are
    imported one entry each first: this port collects only between entries, a board while it boots."""
    import board_wire
    from felt.hal.machine_hal import MachineHAL

    hal = MachineHAL(machine_module=board_wire, neopixel_module=board_wire, time_module=board_wire,
                     os_module=sys.modules[__name__], rp2_module=sys.modules[__name__])
    yield
    from felt.security import bootcheck

    yield
    bootcheck.verify_boot("/", None, None, loader="/boot.py", lib="/lib")  # main.py's first call
    del bootcheck  # as main.py: app.serve drops it once the table runs
    yield
    drivers = board_side.DRIVERS
    for name in APP_MODULES + drivers:
        __import__(name)
        yield board_side.IMPORTED if name == drivers[-1] else None
    from felt.runtime import app

    root = app.data_root()
    board = app.load_board(root)
    S = board_side.S
    S[2] = [loc for loc, _line in board.antennas]
    yield
    a = app.run(hal, board, root, log=_say if flags & 2 else _drop, steps=0)
    if a.halted is not None:
        raise RuntimeError("the board did not start: %s" % a.halted)
    S[3] = a
    S[1] = a.table
    S[0] = a.runtime


def _drop(line):
    pass


def _say(line):
    # the app's log: its table log has passed the secrecy guard already (felt.runtime.app.build)
    b = line.encode()
    board_side._put(31, 0, uctypes.addressof(b), len(b))  # felt.sim.remote.LOG


# what felt.runtime.app.run imports for a poker table (all of them, and in this order, whatever the
# order here: each is imported by the one before or by app.run itself)
APP_MODULES = ("felt.security.ed25519", "felt.security.audit", "felt.recovery.journal", "felt.runtime.app",
               "felt.engine.hand.machine", "felt.table.controller", "felt.runtime.loop", "felt.security.secrecy")


def drop_part(path):
    # "3.feed.hands": S[3].feed.hands emptied (a list or dict, in place: whoever else holds it sees
    # it empty) or set to None; the next heap probe (after this entry's collection) says what it held
    if path.startswith("m:"):  # "m:felt.security.ed25519:_COMB": a module's global
        mod, _, name = path[2:].partition(":")
        obj = sys.modules[mod]
        names = [None, name]
    else:
        names = path.split(".")
        obj = board_side.S[int(names[0])]
    for name in names[1:-1]:
        obj = getattr(obj, name)
    v = getattr(obj, names[-1])
    if isinstance(v, list):
        del v[:]
    elif isinstance(v, dict):
        v.clear()
    else:
        setattr(obj, names[-1], None)
