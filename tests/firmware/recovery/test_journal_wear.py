# Flash wear of the journal, measured (hardware/journal.md, "Flash wear"): journaled hands on the
# simulated table, with the journal on (a) MemFlash -- the bytes the journal itself writes -- and
# (b) under MicroPython, a real littlefs2 file system (os.VfsLfs2) on a RAM block device that counts
# programmed bytes and erased 4 KB blocks, i.e. what the flash chip of a Pico really sees.
# Prints the figures; asserts the bounds the document promises.
import sys

from check import MICROPYTHON, Skip, eq

from felt.recovery import journal as jr

import kit

BLOCK = 4096
FS_BLOCKS = 352  # 1408 KB: the MicroPython littlefs partition of a 2 MB Pico
ENDURANCE = 100000  # erase cycles per sector (W25Q16JV datasheet minimum)
HANDS_PER_HOUR = 30


class CountingBlockDevice:
    """RAM block device with the extended interface littlefs uses (offset writes, erase ioctl)."""

    def __init__(self, blocks, block_size=BLOCK):
        self.bs = block_size
        self.n = blocks
        self.data = bytearray(block_size * blocks)
        erased = b"\xff" * block_size
        for b in range(blocks):
            self.data[b * block_size:(b + 1) * block_size] = erased
        self.programmed = 0
        self.erases = 0

    def readblocks(self, block, buf, off=0):
        a = block * self.bs + off
        buf[:] = self.data[a:a + len(buf)]

    def writeblocks(self, block, buf, off=None):
        if off is None:  # simple interface: erase + program
            self.erases += 1
            off = 0
        a = block * self.bs + off
        self.data[a:a + len(buf)] = buf
        self.programmed += len(buf)

    def ioctl(self, op, arg):
        if op == 4:
            return self.n
        if op == 5:
            return self.bs
        if op == 6:
            self.erases += 1
            a = arg * self.bs
            self.data[a:a + self.bs] = b"\xff" * self.bs
            return 0
        return None


def play(flash_factory, hands=4):
    lines = kit.script_game("holdem", hands, 21)
    flash = flash_factory()
    sim = kit.PowerSim(flash)
    log = []
    for line in lines:
        kit.run_line(sim, line, log)
    return sim, lines


class MemKill(kit.KillFlash):
    pass


def test_journal_bytes_per_hand_on_mem_flash():
    sim, _lines = play(lambda: MemKill(None))
    hands = sim.table.hand_no
    flash = sim.flash
    per_hand = flash.bytes_written // hands
    appends = flash.writes // hands
    print("journal: %d hands, %d bytes and %d appends per hand (records + snapshots + PHH)" % (
        hands, per_hand, appends))
    eq(hands >= 3, True)
    # the document's budget: under 16 KB written per hand
    eq(per_hand < 16384, True, "bytes per hand %d" % per_hand)


class LfsFlash(jr.DirFlash):
    """DirFlash on a littlefs mounted at /jflash (MicroPython only), counting like KillFlash."""

    def __init__(self, path):
        jr.DirFlash.__init__(self, path)
        self.armed = False
        self.every = None
        self.count = 0
        self.kills = 0

    def open_journal(self):
        return jr.Journal(self), jr.HandLog(self)


def test_littlefs_wear_per_hand_and_lifetime():
    if not MICROPYTHON:
        raise Skip("needs MicroPython's os.VfsLfs2")
    import gc
    import os

    if not hasattr(os, "VfsLfs2"):  # the WebAssembly port (issue 19) has no littlefs
        raise Skip("this MicroPython port has no os.VfsLfs2")
    gc.collect()
    bdev = CountingBlockDevice(FS_BLOCKS)
    os.VfsLfs2.mkfs(bdev)
    os.mount(os.VfsLfs2(bdev), "/jflash")
    flash = LfsFlash("/jflash/felt")
    try:
        p0, e0 = bdev.programmed, bdev.erases
        sim, _lines = play(lambda: flash)
        hands = sim.table.hand_no
        prog = (bdev.programmed - p0) // hands
        erases = (bdev.erases - e0) // hands
        logical = sim.flash.bytes_written // hands
        per_hour = erases * HANDS_PER_HOUR
        hours = FS_BLOCKS * ENDURANCE // max(per_hour, 1)
        print("littlefs: %d hands; per hand %d B logical, %d B programmed, %d block erases; "
              "%d erases/h at %d hands/h -> %d h (%d years 24/7, %d years at 12 h/day)" % (
                  hands, logical, prog, erases, per_hour, HANDS_PER_HOUR, hours, hours // 8766,
                  hours // 4383))
        eq(erases > 0, True)
        eq(hours > 8766, True, "at least a year of 24/7 play")
    finally:
        flash.close()
        os.umount("/jflash")


RING_SECTORS = 64  # 256 KB of the 2 MB flash set aside for the journal ring
MEASURE_SECTORS = 24  # the device used to measure (erases per hand do not depend on the ring size)


def test_raw_ring_wear_per_hand_and_lifetime():
    import gc

    gc.collect()
    sim, _lines = play(lambda: kit.KillBlockDevice(None, blocks=MEASURE_SECTORS), hands=8)
    hands = sim.table.hand_no
    dev = sim.flash
    erases_x100 = dev.erases * 100 // hands
    prog = dev.programmed // hands
    per_hour_x100 = erases_x100 * HANDS_PER_HOUR
    hours = RING_SECTORS * ENDURANCE * 100 // max(per_hour_x100, 1)
    print("raw ring (%d x 4 KB): %d hands; per hand %d B programmed, %d.%02d sector erases; "
          "%d h (%d years 24/7) at %d hands/h; erase spread %d..%d" % (
              RING_SECTORS, hands, prog, erases_x100 // 100, erases_x100 % 100, hours, hours // 8766,
              HANDS_PER_HOUR, min(dev.erase_counts), max(dev.erase_counts)))
    eq(hours > 10 * 8766, True, "over ten years of 24/7 play")
    eq(max(dev.erase_counts) - min(dev.erase_counts) <= 1, True, "round robin wear")


if __name__ == "__main__":
    test_journal_bytes_per_hand_on_mem_flash()
    test_littlefs_wear_per_hand_and_lifetime()
    test_raw_ring_wear_per_hand_and_lifetime()
    sys.exit(0)
