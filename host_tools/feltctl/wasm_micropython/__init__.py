# The second MicroPython runtime (host tools): the 32-bit WebAssembly port from npm
# (@micropython/micropython-webassembly-pyscript, installed by `make venv` into .venv/node), run
# under node by launcher.mjs beside this file. A Pico is 32-bit like it; the unix port is 64-bit.
# Every run has a deadline (subprocess timeout). hardware/memory.md says what its figures mean.
import json
import os
import shutil
import subprocess

from feltctl.paths import FIRMWARE, REPO

PACKAGE = "@micropython/micropython-webassembly-pyscript"
VERSION = "1.29.0-6"  # pinned in the Makefile too (WASM_MPY); the first with vfs.VfsRom (1.27.0 has none)
LAUNCHER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "launcher.mjs")
DEFAULT_HEAP = 8 * 1024 * 1024
DEFAULT_TIMEOUT_S = 600


def package_dir():
    """Folder of the installed npm package ($FELT_WASM_MICROPYTHON, else .venv/node)."""
    d = os.environ.get("FELT_WASM_MICROPYTHON") or os.path.join(REPO, ".venv", "node", "node_modules", PACKAGE)
    if not os.path.exists(os.path.join(d, "micropython.mjs")):
        raise FileNotFoundError("%s not found in %s: run `make venv` (installs it from npm)" % (PACKAGE, d))
    return d


def node_binary():
    found = shutil.which("node") or ("/usr/bin/node" if os.path.exists("/usr/bin/node") else None)
    if not found:
        raise FileNotFoundError("node not found: the WebAssembly MicroPython runs under node (20 or later)")
    return found


def available():
    """True when node and the npm package are installed."""
    try:
        package_dir()
        node_binary()
    except FileNotFoundError:
        return False
    return True


def version():
    with open(os.path.join(package_dir(), "package.json")) as f:
        return json.load(f)["version"]


# Modules a Pico's MicroPython has built in (C, no RAM) over which this port's pyscript variant
# freezes micropython-lib's Python packages of the same name: on import they took RAM a board does
# not spend (collections 0.7 KB with collections.defaultdict, binascii 1.2 KB, and their names;
# hardware/memory.md; os ~1.1 KB with os.path and a stat namedtuple the firmware never uses: what a
# board booted by felt.runtime.app imports, hardware/memory.md "A board as it boots"). The emulated
# board (run_board, run_two_vm) imports the built-in ones.
BOARD_BUILTINS = ("collections", "binascii", "os")


def command(module, argv=(), heap=DEFAULT_HEAP, romfs=None, copy=(), path=None, cwd=None, fixed_heap=False,
            pystack=8192, builtins=(), board=None):
    """argv list that runs `module`'s main(argv) in the WebAssembly port under node.
    heap: GC heap bytes (as `-X heapsize`); romfs: a ROMFS image mounted at /rom as a ROM partition
    (outside the heap, like a board's flash); copy: (host path, guest path) files or folders put into
    the port's in-memory file system; path: sys.path (default /rom, .frozen); fixed_heap: fail with
    MemoryError (exit 3) when the heap had to grow (launcher.mjs says why it can); builtins: module names
    bound to the port's built-in C modules (BOARD_BUILTINS); board: a dict (heap, module, romfs, builtins,
    fixed; copy: (host, guest) pairs for the board's own file system; cwd) that loads a second VM, the board, beside this one (launcher.mjs, "Two VMs")."""
    cmd = [node_binary(), LAUNCHER, "--package", package_dir(), "--heap", str(int(heap)), "--pystack", str(pystack)]
    if romfs:
        cmd += ["--romfs", romfs]
    if fixed_heap:
        cmd.append("--fixed-heap")
    for host, guest in copy:
        cmd += ["--copy", "%s=%s" % (os.path.abspath(host), guest)]
    for p in path or ():
        cmd += ["--path", p]
    if cwd:
        cmd += ["--cwd", cwd]
    for name in builtins:
        cmd += ["--builtin", name]
    if board:
        cmd += ["--board-heap", str(int(board["heap"])), "--board-module", board["module"]]
        if board.get("romfs"):
            cmd += ["--board-romfs", board["romfs"]]
        for name in board.get("builtins", ()):
            cmd += ["--board-builtin", name]
        if board.get("fixed", True):
            cmd.append("--board-fixed")
        for host, guest in board.get("copy", ()):
            cmd += ["--board-copy", "%s=%s" % (os.path.abspath(host), guest)]
        if board.get("cwd"):
            cmd += ["--board-cwd", board["cwd"]]
    return cmd + ["--module", module, "--"] + [str(x) for x in argv]


def run(module, argv=(), timeout_s=DEFAULT_TIMEOUT_S, stdin=None, **kw):
    """subprocess.run of command(module, argv, **kw), text output captured, killed after timeout_s
    (subprocess.TimeoutExpired: a loop inside the VM cannot be interrupted from node itself)."""
    return subprocess.run(command(module, argv, **kw), capture_output=True, text=True, timeout=timeout_s,
                          cwd=FIRMWARE, stdin=subprocess.DEVNULL if stdin is None else stdin)


def run_board(module, argv=(), ram=160 * 1024, extra=(), fixed_heap=True, timeout_s=DEFAULT_TIMEOUT_S, copy=()):
    """`module` on the 32-bit emulated board: the firmware's ROMFS image (feltctl.board.romfs, + the
    `extra` harness modules at its root) in a ROM partition, a GC heap of `ram` bytes, the modules a
    Pico has built in taken from the port's C modules (BOARD_BUILTINS)."""
    from feltctl.board import romfs as romfs_image

    image = romfs_image.build_image(list(extra))
    return run(module, argv, timeout_s=timeout_s, heap=ram, romfs=image, fixed_heap=fixed_heap, copy=copy,
               builtins=BOARD_BUILTINS)


HARNESS = os.path.dirname(os.path.abspath(__file__))
BOARD_MODULES = (os.path.join(HARNESS, "board_side.py"), os.path.join(HARNESS, "board_wire.py"),
                 os.path.join(HARNESS, "board_app.py"))


def run_two_vm(module, argv=(), board_ram=160 * 1024, extra=(), board_module="board_side", world_heap=1024 * 1024,
               fixed_board=True, timeout_s=DEFAULT_TIMEOUT_S, board_extra=BOARD_MODULES, board_copy=(), board_cwd=None):
    """`module` (the world: the simulated devices and whatever drives them, felt.sim.remote) in one VM
    with a big heap, and the board in a second VM of the same process: `board_ram` bytes of fixed GC
    heap (a MemoryError, exit 3, as soon as it would have grown, with fixed_board), the modules a Pico
    has built in (BOARD_BUILTINS), `board_module` imported at start (board_side: the firmware on
    felt.hal.machine_hal over board_wire). One ROMFS image for both: the firmware, `board_extra` and
    `extra` at its root (hardware/memory.md, "Fourth round"). Both VMs collect after every step and
    a collection sweeps the whole heap: a 2 MB heap each made a hand ~2.5x slower than 1 MB / 256 KB.
    board_copy: (host, guest) files or folders put into the board VM's own file system (its flash: a
    data root, keys, a signed slot); board_cwd: the folder the board runs from."""
    from feltctl.board import romfs as romfs_image

    image = romfs_image.build_image(list(board_extra) + list(extra))
    board = {"heap": board_ram, "module": board_module, "romfs": image, "builtins": BOARD_BUILTINS,
             "fixed": fixed_board, "copy": board_copy, "cwd": board_cwd}
    return run(module, argv, timeout_s=timeout_s, heap=world_heap, romfs=image, board=board)
