# Runs every firmware test module (tests/firmware/test_*.py) under the MicroPython unix port,
# one interpreter process per module, two at a time, and prints the combined tally.
# usage: python tests/run_micropython.py [--heapsize 4M] [FILE...]
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


def run_one(binary, heapsize, path, timeout_s):
    cmd = [binary, "-X", "heapsize=" + heapsize, os.path.join(HERE, "mprun.py"), path]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, cwd=HERE)
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
    ap.add_argument("--heapsize", default="8M")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = a.files or sorted(glob.glob(os.path.join(HERE, "firmware", "test_*.py")))
    binary = micropython_binary()
    total_p = total_f = total_s = 0
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        futures = [pool.submit(run_one, binary, a.heapsize, os.path.abspath(f), a.timeout) for f in files]
        for fut in futures:
            path, p, f, s, text = fut.result()
            total_p += p
            total_f += f
            total_s += s
            rel = os.path.relpath(path, os.path.dirname(HERE))
            print("%-50s %4d passed %3d failed %3d skipped" % (rel, p, f, s))
            if f:
                print(text)
    print("micropython: %d passed, %d failed, %d skipped" % (total_p, total_f, total_s))
    return 1 if total_f else 0


if __name__ == "__main__":
    sys.exit(main())
