# The firmware as a ROMFS image, and the emulated board that runs it (host tools). A Pico-class
# board keeps deployed bytecode in a flash ROMFS partition and executes it in place; its RAM holds
# only what the firmware creates. On the MicroPython unix port we emulate that board (the rule and
# its numbers: hardware/memory.md): heap = device RAM + the image's own block, the image read first.
import contextlib
import hashlib
import io
import os
import shutil
import struct
import subprocess
import tempfile

from feltctl import tmpcache
from feltctl.paths import FIRMWARE, micropython_binary, mpy_cross_binary

DEVICE_RAM = 128 * 1024  # the board's RAM budget, as `-X heapsize=128K` (issues 2 and 3)
MOUNT = "/rom"  # where a board with a ROMFS partition mounts it, and where we mount the image
CACHE = os.path.join(tempfile.gettempdir(), "felt-romfs")

# MicroPython's GC heap (py/gc.c, 64-bit unix port): 32-byte blocks; every 4 blocks cost one byte
# of allocation table and every 8 blocks one byte of finaliser table, so a heap of H bytes holds
# ((H - 1) * 8 // 1036) * 4 blocks (1036 = 8 + 4 + 4 * 32 * 8 bits per table byte's blocks).
# Checked against gc.mem_free() + gc.mem_alloc() in tests/host/test_romfs_board.py.
BLOCK = 32


def heap_blocks(heapsize):
    """Blocks of a `-X heapsize=heapsize` heap on the 64-bit unix port."""
    return ((heapsize - 1) * 8 // 1036) * 4


def image_heap_cost(image_len):
    """Heap bytes the image occupies once read: its data (len + 1 for the terminating NUL) in one
    block run, plus the 32-byte bytes-object header."""
    return (-(-(image_len + 1) // BLOCK) + 1) * BLOCK


def capacity(heapsize):
    """gc.mem_free() + gc.mem_alloc() of a fresh interpreter with this heap (bytes), as measured:
    the heap's start is aligned, so the formula above can be a few blocks off."""
    key = (micropython_binary(), heapsize)
    if key not in _CAPACITY:
        out = subprocess.run([key[0], "-X", "heapsize=%d" % heapsize, "-c",
                              "import gc;print(gc.mem_free()+gc.mem_alloc())"],
                             capture_output=True, text=True, check=True, timeout=60)
        _CAPACITY[key] = int(out.stdout)
    return _CAPACITY[key]


_CAPACITY = {}


def heapsize_for(image_len, ram=DEVICE_RAM):
    """The smallest -X heapsize (bytes) whose heap, minus the image's block, holds at least as much
    as a plain `-X heapsize=ram` heap: the board's RAM beside the image in 'flash'."""
    want = capacity(ram) + image_heap_cost(image_len)
    h = ram + image_heap_cost(image_len)
    while heap_blocks(h) * BLOCK < want:
        h += BLOCK
    while capacity(h) < want:
        h += BLOCK
    return h


def parse_size(text):
    """'128K' / '4M' / '131072' -> bytes (the -X heapsize syntax)."""
    t = str(text).strip().upper()
    mult = 1
    if t.endswith("K"):
        mult, t = 1024, t[:-1]
    elif t.endswith("M"):
        mult, t = 1024 * 1024, t[:-1]
    if not t.isdigit():
        raise ValueError("size %r: digits with an optional K or M" % text)
    return int(t) * mult


def _sources(extra):
    """(path inside the image, source path) for firmware/felt/**.py and the extra modules."""
    out = []
    root = os.path.join(FIRMWARE, "felt")
    for base, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".py"):
                path = os.path.join(base, f)
                out.append((os.path.relpath(path, FIRMWARE), path))
    for path in extra:
        out.append((os.path.basename(path), os.path.abspath(path)))
    return out


def build_image(extra=()):
    """Path of the ROMFS image of firmware/felt (every module precompiled by mpy-cross) plus the
    `extra` .py modules at its root (host harness code that the board itself would not carry).
    Cached under CACHE by the content hash of the sources and of this builder, so an unchanged tree
    is not rebuilt."""
    sources = _sources(extra)
    digest = hashlib.sha256()
    # the builder itself and the compiler are part of the key: a changed ROM_FILES writer or a new
    # mpy-cross (bytecode version) must not reuse an image of the same sources
    with open(os.path.abspath(__file__), "rb") as fh:
        digest.update(fh.read())
    digest.update(os.path.realpath(mpy_cross_binary()).encode())
    digest.update(str(os.path.getmtime(mpy_cross_binary())).encode())
    for rel, path in sources:
        with open(path, "rb") as fh:
            digest.update(rel.encode() + b"\0" + hashlib.sha256(fh.read()).digest())
    os.makedirs(CACHE, exist_ok=True)
    image = os.path.join(CACHE, "felt-%s.romfs" % digest.hexdigest()[:16])
    if os.path.exists(image):
        tmpcache.touch(image)
        return image
    stage = tempfile.mkdtemp(prefix="stage-", dir=CACHE)
    try:
        for rel, path in sources:
            target = os.path.join(stage, rel[:-3] + ".mpy")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            # the source name is the path the module is imported from (its __file__): one interned
            # name a module instead of two, the RAM of ~60 names; tracebacks still name the module
            source = MOUNT + "/" + rel[:-3] + ".mpy"
            subprocess.run([mpy_cross_binary(), "-o", target, "-s", source, path], check=True, capture_output=True)
        _rom_data(stage)
        # mpremote's own builder (a dependency), given .mpy files so that it copies them as they are
        from mpremote.romfs import make_romfs

        with contextlib.redirect_stdout(io.StringIO()):
            data = make_romfs(stage, mpy_cross=False)
        tmp = image + ".%d" % os.getpid()
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, image)  # atomic: a parallel build of the same tree writes the same bytes
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    tmpcache.prune(CACHE, "felt-")  # images of older trees
    return image


def _rom_data(stage):
    # Tables that firmware modules read in place from the image (ROM_FILES: "file table type ..."
    # with type B or I), written little-endian beside their module (felt/engine/rank); computed by that module here.
    from felt.engine.rank import tables as evaltables

    words = evaltables.ROM_FILES.split()
    for i in range(0, len(words), 3):
        name, attr, kind = words[i:i + 3]
        values = list(getattr(evaltables, attr))
        data = bytes(values) if kind == "B" else struct.pack("<%d%s" % (len(values), kind), *values)
        with open(os.path.join(stage, "felt", "engine", "rank", name), "wb") as fh:
            fh.write(data)


# Runs inside MicroPython as `-c`: the image is read FIRST, with its exact size (no growing buffer),
# so it is one block run near the start of the heap and the rest of the heap is the board's RAM.
# sys.path: the image, then the interpreter's frozen modules (asyncio), as on a board; never the
# source tree. An uncaught exception (MemoryError) goes to stderr with exit status 3: MicroPython itself would
# print it on stdout, mixed with the module's output. A generator main is run to its end (its steps are
# where the WebAssembly port collects: feltctl/wasm_micropython; here they cost nothing).
_LAUNCHER = """import os,sys,vfs
f=open(%(image)r,'rb')
b=f.read(os.stat(%(image)r)[6])
f.close()
vfs.mount(vfs.VfsRom(b),%(mount)r)
del f,b
sys.path[:]=[%(mount)r,'.frozen']
sys.argv[0]=%(module)r
try:
 __import__(%(module)r)
 m=sys.modules[%(module)r]
 r=m.main(sys.argv[1:]) if hasattr(m,'main') else 0
 if hasattr(r,'send'):
  for _ in r:pass
  r=0
except Exception as e:
 sys.print_exception(e,sys.stderr)
 r=3
sys.exit(r)
"""


def command(module, argv=(), ram=DEVICE_RAM, extra=(), heapsize=None):
    """argv list that runs `module` (its main(argv) if it has one, else its import) on the emulated
    board: the image of firmware/felt (+ extra modules) in 'flash', `ram` bytes of heap beside it.
    heapsize (bytes) overrides the whole heap (e.g. a plain large heap for a diagnostic run)."""
    image = build_image(extra)
    size = os.path.getsize(image)
    code = _LAUNCHER % {"image": image, "mount": MOUNT, "module": module}
    heap = heapsize if heapsize is not None else heapsize_for(size, ram)
    # the arguments go on the command line (sys.argv), not into the program text: compiled, a long
    # file list would be code in RAM
    return [micropython_binary(), "-X", "heapsize=%d" % heap, "-c", code] + [str(x) for x in argv]


def run(module, argv=(), ram=DEVICE_RAM, extra=(), heapsize=None, timeout_s=600, **kw):
    """subprocess.run of command(...) with text output captured."""
    return subprocess.run(command(module, argv, ram, extra, heapsize), capture_output=True, text=True,
                          timeout=timeout_s, cwd=FIRMWARE, **kw)
