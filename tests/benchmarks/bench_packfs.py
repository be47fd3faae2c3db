# Benchmark (not a test): importing the firmware from a packed slot (hardware/flashing.md "Packed
# slots": one pack file, mounted by firmware/boot.py's PackFS, each module inflated as it is read)
# against importing it from a slot of plain .mpy files -- the peer, measured in the same run, in the
# MicroPython unix port. The Pico's tree (feltctl.board.deploy.for_board "rp2"); every module of
# felt/ imported once in a fresh interpreter, best of 3. Also: reading every member through
# deflate.DeflateIO straight from the pack file (what an import does: one 1-byte read call per
# compressed byte -- a system call here on the unix port's VfsPosix, a copy from littlefs's cache on
# a Pico) and from the member's bytes in RAM.
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
root = sys.argv[2]
if sys.argv[1] == "pack":
    ns = {"__name__": "felt_loader"}
    exec(open(sys.argv[3]).read(), ns)
    try:
        import vfs
    except ImportError:
        vfs = os
    vfs.mount(ns["PackFS"](root + "/pack"), "/felt_run")
    root = "/felt_run"
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

READ_ALL = r"""
import sys, io, time, deflate
path = sys.argv[1]
with open(path, "rb") as f:
    data = f.read()
entries = [line.split("\t") for line in data[int(data[-8:], 16):-16].decode().split("\n") if line]
buf = bytearray(1024)
def drain(z):
    while z.readinto(buf):
        pass
t = time.ticks_us()
for e in entries:
    f = open(path, "rb")
    f.seek(int(e[3]))
    drain(deflate.DeflateIO(f, deflate.ZLIB, 0, True))
a = time.ticks_diff(time.ticks_us(), t)
t = time.ticks_us()
for e in entries:
    drain(deflate.DeflateIO(io.BytesIO(data[int(e[3]):int(e[3]) + int(e[4])]), deflate.ZLIB))
print(a, time.ticks_diff(time.ticks_us(), t))
"""


def run(script, *args):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(script)
    try:
        out = subprocess.run([micropython_binary(), "-X", "heapsize=8M", f.name] + list(args),
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
            z = deploy._zlib(data)
            index += "%s\t%d\t%s\t%d\t%d\n" % (rel, len(data), deploy.sha256_hex(data), len(body), len(z))
            body += z
        with open(os.path.join(packed, "pack"), "wb") as f:
            f.write(body + index.encode() + deploy_agent.PACK_MAGIC + ("%08x" % len(body)).encode())
        loader = os.path.join(REPO, "firmware", "boot.py")
        times = {"files": [], "pack": []}
        for _ in range(3):
            for kind, root in (("files", plain), ("pack", packed)):
                n, us = run(IMPORT_ALL, kind, root, loader)
                times[kind].append(us)
        f_ms, p_ms = min(times["files"]) / 1000.0, min(times["pack"]) / 1000.0
        print("import %d modules (Pico tree, %d KB of .mpy; pack %d KB): plain files %.0f ms, packed slot %.0f ms "
              "= %.1fx" % (n, tree.size // 1024, (len(body) + len(index)) // 1024, f_ms, p_ms, p_ms / f_ms))
        from_file, from_ram = run(READ_ALL, os.path.join(packed, "pack"))
        print("inflate every member: from the pack file %.0f ms, from RAM %.0f ms = %.1fx (the 1-byte reads)"
              % (from_file / 1000.0, from_ram / 1000.0, from_file / max(1, from_ram)))


if __name__ == "__main__":
    main()
