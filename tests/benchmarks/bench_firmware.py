# Benchmark (not a test): firmware CPU per event on the MicroPython unix port with the device models
# cut out (issue 20). firmware_replay.py records a ten-seat limit Omaha hi-lo hand of the assembled
# firmware (felt.runtime.app.build) on the simulated hardware, then replays every hardware value into the
# Pico's own backend (felt.hal.machine_hal) and times each loop step (best of --reps replays).
# Peer, same run: the calibration suite (calibrate.py) -- every figure is also given as a ratio to
# it, which does not depend on how fast or busy this machine is. With --baseline REV the same is
# measured on the firmware of git revision REV (before) and the ratio after/before is printed.
# Board estimate: unix-port microseconds times a published slowdown (BOARDS below; run
# calibrate.py on a board for its own factor).
# How the numbers are obtained: the tape is recorded in one interpreter and replayed in a fresh one
# (firmware_replay.py); every loop step's time is the smallest of --reps replays (other processes
# only add time), the peer the smallest of max(9, reps) passes; allocation per hand is the heap's
# growth over the hand with the collector off, per step from one extra, untimed replay (the same
# way). On a loaded machine run it twice:
# the microseconds move less than the peer does.
# usage: python tests/benchmarks/bench_firmware.py [--reps N] [--baseline REV]
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "host_tools"))

from feltctl.paths import micropython_binary  # noqa: E402

# Published slowdowns of a board against a desktop's MicroPython unix port. Pico 2: 50-90x, the
# range issue 20 quotes from MicroPython's own benchmarks; Pico (RP2040 @ 125 MHz) is 1.92x slower
# than Pico 2 (RP2350 @ 150 MHz): 19.8 s against 10.3 s running the same MicroPython benchmark
# (scruss.com, "Parallel MicroPython Benchmarking", MicroPython 1.24/1.25). Replace with
# calibrate.py's board/unix ratio once measured on the board itself.
BOARDS = (("Pico 2 (RP2350)", 50, 90), ("Pico (RP2040)", 96, 173))
GOALS = (("console action", "console", 1000), ("card on an antenna", "arrival", 1000))
ROUND_GOAL_US = 4000
HAND_GOAL_US = 300000


def run(firmware, reps):
    """KEY lines of one firmware_replay.py run on `firmware` (a folder holding felt/)."""
    env = dict(os.environ)
    env["MICROPYPATH"] = firmware
    data = tempfile.mkdtemp(prefix="felt_bench_fw_")
    script = os.path.join(HERE, "firmware_replay.py")
    tape = os.path.join(data, "tape.json")
    try:
        # recorded in one interpreter, replayed in a fresh one (firmware_replay.py says why)
        p = subprocess.run([micropython_binary(), "-X", "heapsize=512M", script, "record", data + "/r", tape],
                           capture_output=True, text=True, env=env, timeout=3600)
        if p.returncode == 0 and "RECORDED" in p.stdout:
            # a 32 MB heap holds the replay (the hand allocates ~2.5 MB with the collector off);
            # gc.mem_alloc() walks the whole allocation table, so a bigger heap only slows it
            p = subprocess.run([micropython_binary(), "-X", "heapsize=32M", script, "replay", data + "/p", tape,
                                str(reps)], capture_output=True, text=True, env=env, timeout=3600)
    finally:
        shutil.rmtree(data, ignore_errors=True)
    out = {"kinds": {}}
    for line in p.stdout.splitlines():
        w = line.split()
        if not w:
            continue
        kv = dict(x.split("=", 1) for x in w[1:] if "=" in x)
        if w[0] == "KIND":
            out["kinds"][kv["name"]] = dict((k, int(v)) for k, v in kv.items() if k != "name")
        elif w[0] in ("HAND", "CALIB", "QUIET"):
            out[w[0]] = dict((k, int(v)) for k, v in kv.items())
        elif w[0] in ("JOURNAL", "DECODER"):
            out[w[0]] = kv
        elif w[0] == "BROKEN":
            out["broken"] = line
    if p.returncode != 0 or "HAND" not in out:
        raise SystemExit("replay failed on %s: %s" % (firmware, out.get("broken") or p.stderr.strip()[-800:]))
    return out


def figures(r):
    k = r["kinds"]
    f = {"calib": r["CALIB"]["us"], "hand": r["HAND"]["us"], "alloc": r["HAND"]["alloc"],
         "spi": r["HAND"]["spi"], "stubs": r["HAND"]["stubs_us"], "quiet": r.get("QUIET"),
         "journal": r.get("JOURNAL", {}).get("kind", "?"), "decoder": r.get("DECODER", {}).get("port", "pins")}
    for _label, kind, _goal in GOALS:
        f[kind] = k[kind]["median"] if kind in k else 0
    f["shoe"] = k["shoe"]["median"] if "shoe" in k else 0
    # one visit = field on + inventory (nothing changed); ten seats visited once each
    f["round"] = 10 * (k.get("field-on", {}).get("median", 0) + k.get("idle-inventory-seat", {}).get("median", 0))
    return f


def export(rev):
    tmp = tempfile.mkdtemp(prefix="felt_bench_base_")
    arc = subprocess.run(["git", "-C", REPO, "archive", rev, "firmware"], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", tmp], input=arc, check=True)
    return tmp


def report(name, f):
    c = f["calib"]
    print("[%s] calibration suite (peer): %d us" % (name, c))
    rows = [("console action (step that takes the console line)", f["console"], 1000),
            ("card arriving on a seat antenna (inventory step that reads it)", f["arrival"], 1000),
            ("card read by the shoe (step)", f["shoe"], None),
            ("antenna revisit round, ten seats loaded (10 x field-on + inventory)", f["round"], ROUND_GOAL_US),
            ("ten-seat Omaha hi-lo hand, every loop step (CPU)", f["hand"], HAND_GOAL_US)]
    for label, us, goal in rows:
        est = ", ".join("%s ~%d-%d ms" % (b, us * lo // 1000, us * hi // 1000) for b, lo, hi in BOARDS)
        verdict = ""
        if goal is not None:
            verdict = " goal < %d us: %s" % (goal, "met" if us < goal else "NOT met (%.1fx over)" % (us / goal))
        print("  %-70s %9d us  = %7.3f x peer;%s  board estimate: %s" % (label, us, us / c, verdict, est))
    print("  allocated per hand (gc off during the hand, 64-bit unix port): %d bytes; SPI transfers %d; "
          "replay stubs alone %d us of the hand" % (f["alloc"], f["spi"], f["stubs"]))
    q = f["quiet"]
    if q:
        print("  steps without an event (no console line, no card read or arriving): %d, of which %d allocated (%d bytes)"
              % (q["steps"], q["allocating"], q["bytes"]))
    print("  journal: %s; decoder address: %s" % (f["journal"], "one SIO port write" if f["decoder"] == "sio"
                                                  else "a write per pin"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5, help="replays per firmware; each step's best counts")
    ap.add_argument("--baseline", default=os.environ.get("FELT_BENCH_BASELINE"),
                    help="git revision whose firmware is measured as 'before' in the same run")
    a = ap.parse_args()
    after = figures(run(os.path.join(REPO, "firmware"), a.reps))
    if a.baseline:
        base = export(a.baseline)
        try:
            before = figures(run(os.path.join(base, "firmware"), a.reps))
        finally:
            shutil.rmtree(base, ignore_errors=True)
        report("before: %s" % a.baseline, before)
    report("this tree", after)
    if a.baseline:
        print("after / before (each normalised by its own calibration run):")
        for key in ("console", "arrival", "shoe", "round", "hand", "alloc", "spi"):
            b = before[key]
            x = after[key]
            if key in ("alloc", "spi"):
                print("  %-8s %d -> %d (%.2fx)" % (key, b, x, x / b if b else 0))
            else:
                nb = b / before["calib"]
                na = x / after["calib"]
                print("  %-8s %.3f -> %.3f x peer (%.2fx; %.1fx faster)" % (key, nb, na, na / nb if nb else 0,
                                                                             nb / na if na else 0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
