# Runs under the MicroPython unix port (tests/host/test_flash_fit.py starts it): MicroPython's own
# littlefs2 (vfs.VfsLfs2, the C code every port runs) formatted as the rp2 port formats a Pico
# (ports/rp2/modules/_boot.py: VfsLfs2.mkfs(bdev, progsize=256) on 4 KB blocks; 352 of them on a 2 MB
# Pico, MICROPY_HW_FLASH_STORAGE_BYTES = 1408 KB). Copies each folder named on the command line in
# turn (the first to /a, the second to /b, ...) and prints one line of JSON after each: the blocks the
# file system holds, counted by filling what is left with one file (statvfs counts a folder's pair
# twice) -- or where a copy ran out of room.
#   micropython littlefs_rp2.py BLOCKS FOLDER [FOLDER ...]
import json
import os
import sys

try:
    import vfs
except ImportError:
    vfs = os
BLOCK = 4096


class RAMFlash:
    """A NOR flash in RAM: erase sets a block to 0xFF (littlefs's block device protocol)."""

    def __init__(self, blocks):
        self.blocks = blocks
        self.data = bytearray(blocks * BLOCK)

    def readblocks(self, n, buf, off=0):
        a = n * BLOCK + off
        buf[:] = self.data[a:a + len(buf)]

    def writeblocks(self, n, buf, off=None):
        if off is None:
            self.ioctl(6, n)
            off = 0
        a = n * BLOCK + off
        self.data[a:a + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return BLOCK
        if op == 6:
            self.data[arg * BLOCK:(arg + 1) * BLOCK] = b"\xff" * BLOCK
        return 0


def copy(src, dst):
    os.mkdir(dst)
    for entry in os.ilistdir(src):
        s, d = src + "/" + entry[0], dst + "/" + entry[0]
        if entry[1] & 0x4000:
            copy(s, d)
        else:
            with open(s, "rb") as f:
                data = f.read()
            with open(d, "wb") as g:
                g.write(data)


def free_blocks(total):
    """Blocks still free: one file grown 4 KB at a time until the file system is full."""
    chunk = b"\x55" * BLOCK
    n = 0
    try:
        with open("/lfs/.fill", "wb") as f:
            while True:
                f.write(chunk)
                f.flush()
                n += 1
    except OSError:
        pass
    try:
        os.remove("/lfs/.fill")
    except OSError:
        pass
    # n whole chunks fitted: they took n blocks, less the 8 bytes a block gives to the CTZ list
    return n + (n * 8 + BLOCK - 1) // BLOCK


def main():
    total = int(sys.argv[1])
    bdev = RAMFlash(total)
    vfs.VfsLfs2.mkfs(bdev, progsize=256)
    vfs.mount(vfs.VfsLfs2(bdev, progsize=256), "/lfs")
    empty = total - free_blocks(total)
    print(json.dumps({"empty": empty, "blocks": total}))
    for i, src in enumerate(sys.argv[2:]):
        try:
            copy(src, "/lfs/" + "abcdefgh"[i])
        except OSError as e:
            print(json.dumps({"copy": i, "failed": str(e)}))
            return
        print(json.dumps({"copy": i, "used": total - free_blocks(total)}))


main()
