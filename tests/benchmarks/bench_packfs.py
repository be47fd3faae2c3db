# Benchmark (not a test): importing the firmware from a packed slot (hardware/flashing.md "Packed
# slots": one pack file, mounted by firmware/boot.py's PackFS, each file read in place) against
# importing it from a slot of plain .mpy files -- the peer, measured in the same run. Both on
# MicroPython's own littlefs2 with a Pico's geometry (tests/host/littlefs_rp2.py's RAM flash, 352
# blocks of 4 KB), in the unix port: the file system a Pico imports from, without the unix port's
# system call per read. The Pico's tree (feltctl.board.deploy.for_board "rp2"); every module of
# felt/ imported once in a fresh interpreter, best of 3. Goal (the lead, 2026-12-02): within 1.5x.
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(REPO, "host_tools"), os.path.join(REPO, "firmware")]

from felt import deploy_agent  # noqa: E402
from feltctl.board import deploy  # noqa: E402
from feltctl.paths import micropython_binary  # noqa: E402

IMPORT_ALL = r"""
import sys, os, time
try:
    import vfs
except ImportError:
    vfs = os
kind, src, loader, flash = sys.argv[1:5]
exec(open(flash).read().split("def copy(")[0])  # RAMFlash, BLOCK
bdev = RAMFlash(352)
vfs.VfsLfs2.mkfs(bdev, progsize=256)
vfs.mount(vfs.VfsLfs2(bdev, progsize=256), "/lfs")
def cp(a, b):
    with open(a, "rb") as f:
        data = f.read()
    with open(b, "wb") as g:
        g.write(data)
def cptree(a, b):
    os.mkdir(b)
    for e in os.ilistdir(a):
        (cptree if e[1] & 0x4000 else cp)(a + "/" + e[0], b + "/" + e[0])
if kind == "pack":
    os.mkdir("/lfs/felt_a")
    cp(src + "/pack", "/lfs/felt_a/pack")
    ns = {"__name__": "felt_loader"}
    exec(open(loader).read(), ns)
    vfs.mount(ns["pack_fs"]()("/lfs/felt_a/pack"), "/felt_run")
    root = "/felt_run"
else:
    cptree(src, "/lfs/felt_a")
    root = "/lfs/felt_a"
sys.path[:] = [root]
mods = []
def walk(d, pkg):
    for e in os.ilistdir(d):
        if e[1] & 0x4000:
            walk(d + "/" + e[0], pkg + e[0] + ".")
        elif e[0].endswith(".mpy"):
            m = e[0][:-4]
            mods.append(pkg[:-1] if m == "__init__" else pkg + m)
walk(root + "/felt", "felt.")
mods.sort()
t = time.ticks_us()
ok = 0
for m in mods:
    try:
        __import__(m)
        ok += 1
    except ImportError:
        pass  # a module that imports a HAL this port lacks: the same in both layouts
print(ok, time.ticks_diff(time.ticks_us(), t))
"""


def run(script, *args):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(script)
    try:
        out = subprocess.run([micropython_binary(), "-X", "heapsize=16M", f.name] + list(args),
                             capture_output=True, text=True, timeout=300)
    finally:
        os.remove(f.name)
    if out.returncode:
        raise SystemExit(out.stdout + out.stderr)
    return [int(x) for x in out.stdout.split()]


def main():
    tree = deploy.for_board(deploy.build_tree(mpy=True), "rp2")
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, "plain")
        for rel, data in tree.files.items():
            path = os.path.join(plain, *rel.split("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        packed = os.path.join(tmp, "packed")
        os.makedirs(packed)
        body, index = b"", ""  # the format deploy_agent.stage_pack/putm/_seal write
        for rel, data in sorted(tree.files.items()):
            index += "%s\t%d\t%s\t%d\n" % (rel, len(data), deploy.sha256_hex(data), len(body))
            body += data
        with open(os.path.join(packed, "pack"), "wb") as f:
            f.write(body + index.encode() + deploy_agent.PACK_MAGIC + ("%08x" % len(body)).encode())
        loader = os.path.join(REPO, "firmware", "boot.py")
        flash = os.path.join(REPO, "tests", "host", "littlefs_rp2.py")
        times = {"files": [], "pack": []}
        counts = {}
        for _ in range(3):
            for kind, src in (("files", plain), ("pack", packed)):
                counts[kind], us = run(IMPORT_ALL, kind, src, loader, flash)
                times[kind].append(us)
        if counts["files"] != counts["pack"]:
            raise SystemExit("imported %d modules from files, %d from the pack" % (counts["files"], counts["pack"]))
        f_ms, p_ms = min(times["files"]) / 1000.0, min(times["pack"]) / 1000.0
        print("import %d modules from littlefs (Pico tree, %d KB of .mpy; pack %d KB): plain files %.0f ms, "
              "packed slot %.0f ms = %.2fx" % (counts["files"], tree.size // 1024, (len(body) + len(index)) // 1024,
                                              f_ms, p_ms, p_ms / f_ms))


if __name__ == "__main__":
    main()
