# Benchmark (not a test): `feltctl flash` against `mpremote fs cp -r` of the same firmware tree,
# through the simulated board, throttled to 115200 baud and unthrottled, in the same run.
# Cases: full deploy to an empty board, unchanged re-deploy, one changed file.
# Targets (issue 4): full >= 2x, unchanged >= 5x, one changed file >= 4x faster than mpremote.
import os
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)
FELTCTL = [sys.executable, "-m", "feltctl"]
MPREMOTE = [os.path.join(BIN, "mpremote")]
TARGETS = {"full": 2.0, "unchanged": 5.0, "one changed": 4.0}
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(REPO, "host_tools"), os.path.join(REPO, "firmware")]))


class Board:
    def __init__(self, workdir, name, baud):
        self.flash = os.path.join(workdir, name)
        cmd = FELTCTL + ["simboard", "--flash", self.flash, "--capacity", "0"]
        if baud:
            cmd += ["--baud", str(baud)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=ENV)
        self.device = self.proc.stdout.readline().strip()

    def close(self):
        self.proc.terminate()
        self.proc.wait(10)


def timed(cmd):
    t0 = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=ENV)
    dt = time.monotonic() - t0
    if out.returncode:
        raise SystemExit("failed: %s\n%s%s" % (" ".join(cmd), out.stdout, out.stderr))
    return dt


def run_case(workdir, baud, tree, changed_tree):
    """Times of (feltctl, mpremote) for the three cases, each tool on its own fresh board."""
    felt = Board(workdir, "felt-%s" % baud, baud)
    mpr = Board(workdir, "mpr-%s" % baud, baud)
    try:
        flash = lambda src: timed(FELTCTL + ["flash", felt.device, "--src", src])
        cp = lambda src: timed(MPREMOTE + ["connect", mpr.device, "fs", "cp", "-r", src + "/.", ":"])
        rows = [("full", flash(tree), cp(tree)),
                ("unchanged", flash(tree), cp(tree)),
                ("one changed", flash(changed_tree), cp(changed_tree))]
    finally:
        felt.close()
        mpr.close()
    return rows


def main():
    workdir = tempfile.mkdtemp(prefix="felt-bench-")
    try:
        # A snapshot of firmware/ so both tools copy exactly the same bytes.
        tree = os.path.join(workdir, "tree")
        shutil.copytree(os.path.join(REPO, "firmware"), tree,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        changed = os.path.join(workdir, "tree2")
        shutil.copytree(tree, changed)
        with open(os.path.join(changed, "felt", "errors.py"), "a") as f:
            f.write("\n# changed for the benchmark\n")
        files = sum(len(f) for _, _, f in os.walk(tree))
        size = sum(os.path.getsize(os.path.join(r, n)) for r, _, fs in os.walk(tree) for n in fs)
        print("firmware tree: %d files, %d bytes" % (files, size))
        failed = False
        for baud in (115200, None):
            print("-- simulated board, %s" % ("%d baud" % baud if baud else "unthrottled"))
            for case, felt_s, mpr_s in run_case(workdir, baud, tree, changed):
                ratio = mpr_s / felt_s
                ok = ratio >= TARGETS[case]
                failed |= not ok
                print("%-12s feltctl flash %7.2f s   mpremote fs cp -r %7.2f s   ratio %5.1fx (target %.0fx) %s"
                      % (case, felt_s, mpr_s, ratio, TARGETS[case], "ok" if ok else "BELOW TARGET"))
        return 1 if failed else 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
