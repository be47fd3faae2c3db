# The Felt boot loader as released before packed slots (firmware/boot.py at 774374c, 2026-12-02):
# tests/host/test_flash_interrupt.py upgrades a board that boots with it to a packed slot.
# Felt boot loader (firmware, runs first on every reset of a MicroPython board): follows the
# pointer file /felt.slot written by `feltctl flash` and makes that firmware tree (/felt_a or
# /felt_b) the current folder, so the board's own lookup of "main.py" and every import come
# from it. Keep it tiny and stable: it is shared by the old and the new tree during a deploy.
# Ctrl-C is off first (issue 12 item 2): interrupted before the chdir, the board would look for
# /main.py, find none, and open the REPL. main.py closes it again before anything else.
while True:
    try:
        import micropython

        micropython.kbd_intr(-1)
        for _ in (0, 1):
            pass  # a Ctrl-C that landed just before the lock is raised here, inside the try
        break
    except ImportError:
        break
    except KeyboardInterrupt:
        pass
import os


def _felt_boot():
    try:
        with open("/felt.slot") as f:
            slot = f.read().strip()
    except OSError:
        return  # not flashed by feltctl: the board runs /main.py as usual
    # A slot is bootable once its marker exists (written last by the deploy); the pointer only
    # ever names a bootable slot, the fallback covers a hand-edited or damaged pointer.
    for name in (slot, "b" if slot == "a" else "a"):
        root = "/felt_" + name
        try:
            os.stat(root + "/.felt-ok")
        except OSError:
            continue
        os.chdir(root)
        return


_felt_boot()
del _felt_boot
