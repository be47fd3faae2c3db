# Runs every firmware test module (tests/firmware/<layer>/test_*.py) under the MicroPython unix port,
# one interpreter process per module, two at a time, and prints the combined tally.
# --runtime wasm: under the 32-bit WebAssembly port instead (feltctl.wasm_micropython): firmware/ and
# tests/firmware/ copied into its file system at the same paths, a test file a run, the heap
# collected between test functions (that port collects only between calls), growing as needed.
# usage: python tests/run_micropython.py [--runtime unix|wasm] [--heapsize 4M] [FILE...]
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "host_tools"))
from feltctl.paths import micropython_binary  # noqa: E402

TALLY = re.compile(r"^(\d+) passed, (\d+) failed, (\d+) skipped$", re.M)


def wasm_command(heapsize, path):
    from feltctl import wasm_micropython
    from feltctl.board.romfs import parse_size

    root = os.path.dirname(HERE)
    # what firmware tests read: the firmware, the tests, hardware/ (protocol notes, board files) and
    # the shared folder beside the repository (RULES.md, the PHH corpus), at the same paths
    trees = [os.path.join(root, "firmware"), HERE, os.path.join(root, "hardware"),
             os.path.join(os.path.dirname(root), "shared")]
    copy = [(t, t) for t in trees if os.path.isdir(t)]
    return wasm_micropython.command("mprun", ["--steps", path], heap=parse_size(heapsize), copy=copy,
                                    path=[HERE, ".frozen"], cwd=HERE)


def run_one(binary, heapsize, path, timeout_s):
    if binary == "wasm":
        cmd = wasm_command(heapsize, path)
    else:
        cmd = [binary, "-X", "heapsize=" + heapsize, os.path.join(HERE, "mprun.py"), path]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, cwd=HERE,
                             stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return path, 0, 1, 0, "TIMEOUT after %ds" % timeout_s
    text = out.stdout + out.stderr
    m = TALLY.search(out.stdout)
    if not m:
        return path, 0, 1, 0, text or "no tally (exit %d)" % out.returncode
    p, f, s = (int(x) for x in m.groups())
    if out.returncode and not f:
        f = 1
    return path, p, f, s, text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runtime", choices=("unix", "wasm"), default="unix",
                    help="unix: the 64-bit unix port; wasm: the 32-bit WebAssembly port")
    ap.add_argument("--heapsize", default="8M")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = []
    for f in a.files or [os.path.join(HERE, "firmware")]:  # a folder stands for its test files, at any depth
        if os.path.isdir(f):
            files.extend(sorted(glob.glob(os.path.join(f, "**", "test_*.py"), recursive=True)))
        else:
            files.append(f)
    if not files:
        ap.error("no test files in %s" % " ".join(a.files))
    binary = micropython_binary() if a.runtime == "unix" else "wasm"
    total_p = total_f = total_s = 0
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        futures = [pool.submit(run_one, binary, a.heapsize, os.path.abspath(f), a.timeout) for f in files]
        for fut in futures:
            path, p, f, s, text = fut.result()
            total_p += p
            total_f += f
            total_s += s
            rel = os.path.relpath(path, os.path.dirname(HERE))
            print("%-58s %4d passed %3d failed %3d skipped" % (rel, p, f, s))
            if f:
                print(text)
    print("%s: %d passed, %d failed, %d skipped" % ("micropython" if a.runtime == "unix" else "micropython-wasm", total_p, total_f, total_s))
    return 1 if total_f else 0


if __name__ == "__main__":
    sys.exit(main())
