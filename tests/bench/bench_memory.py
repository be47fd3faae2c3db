# Benchmark (not a test): where the MicroPython heap of the whole firmware goes.
#  1. per-module cost of importing the firmware as .mpy (the unix port loads bytecode into the heap):
#     an __import__ hook takes gc.mem_alloc() around every import and charges each module its own
#     bytes (its inclusive cost minus the modules it pulled in), biggest first;
#  2. the run-time state while ten-seat Omaha hi-lo hands play through the simulated hardware: the
#     live heap after each hand (gc.collect) and, at the end, what each part of the state holds (its
#     attributes are dropped one by one, deepest first, gc.collect, the freed bytes counted);
#  3. the peer figure: the same hands' state when no hand has been played yet (start-up), and the ratio.
# usage: python tests/bench/bench_memory.py [--hands N] [--heapsize 4M] [--top N]
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "host_tools"))

from feltctl.commands.replay import compiled_firmware  # noqa: E402
from feltctl.paths import micropython_binary  # noqa: E402

DRIVER = r'''
import builtins, gc, sys
RANKS = "23456789TJQKA"
SUITS = "cdhs"
COSTS = {}  # module -> own bytes
_stack = [0]  # bytes charged to the imports nested in the current one
_orig = builtins.__import__

def _hook(name, *args):
    before = set(sys.modules)
    gc.collect()
    m0 = gc.mem_alloc()
    _stack.append(0)
    try:
        return _orig(name, *args)
    finally:
        nested = _stack.pop()
        new = [k for k in sys.modules if k not in before and k not in COSTS]
        if new:
            gc.collect()
            total = gc.mem_alloc() - m0
            new.sort(key=lambda k: -len(k))  # the deepest name owns the bytes, its packages get 0
            COSTS[new[0]] = total - nested
            for k in new[1:]:
                COSTS[k] = 0
            _stack[-1] += total

class Rng:
    def __init__(self, seed):
        self.s = seed
    def next(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n

def shuffled(rng):
    d = list(range(52))
    for i in range(51, 0, -1):
        j = rng.next(i + 1)
        d[i], d[j] = d[j], d[i]
    return d

def text(c):
    return RANKS[c >> 2] + SUITS[c & 3]

def play(sim, rng):
    t = sim.table
    sim.run("hand")
    order = list(t.setup.seats)
    deck = shuffled(rng)
    k = 0
    for _r in range(4):
        for s in order:
            sim.run("draw %s to seat %d" % (text(deck[k]), s))
            k += 1
    for street in range(4):
        if street:
            sim.run("draw %s to burn" % text(deck[k]))
            k += 1
            for _n in range(3 if street == 1 else 1):
                sim.run("draw %s to board" % text(deck[k]))
                k += 1
        for _a in range(40):
            h = t.hand
            if t.state != "playing" or h.actor is None:
                break
            sim.run("act %d %s" % (t.setup.seats[h.actor], "call" if h.legal().call else "check"))
    if t.state != "over" or t.alerts:
        raise SystemExit("BROKEN %s %r" % (t.state, t.alerts[:2]))

def drop(obj, attr):
    """Bytes `obj.attr` held that nothing dropped before it shares (destructive: run at the end)."""
    gc.collect()
    a = gc.mem_alloc()
    setattr(obj, attr, None)
    gc.collect()
    return a - gc.mem_alloc()

def parts(label, obj, out, depth):
    """Drops obj's attributes one by one, the parts of big objects first (depth levels)."""
    try:
        names = sorted(obj.__dict__)
    except AttributeError:
        return
    for n in names:
        v = getattr(obj, n)
        if v is None or isinstance(v, (int, bool, str)) or type(v) is type(drop):
            continue
        if depth and hasattr(v, "__dict__") and not isinstance(v, type):
            parts(label + "." + n, v, out, depth - 1)
        elif depth and isinstance(v, list):  # a list of records: their parts summed under name[]
            for x in v:
                if hasattr(x, "__dict__"):
                    parts(label + "." + n + "[]", x, out, depth - 1)
            x = None
        v = None
        b = drop(obj, n)
        if b:
            out.append((b, label + "." + n))

builtins.__import__ = _hook
gc.collect()
m0 = gc.mem_alloc()
from felt.sim.runner import Sim
sim = Sim()
sim.run("table omaha8 limit seats=10 sb=10 bb=20 small_bet=20 big_bet=40 button=1")
for s in range(1, 11):
    sim.run("seat %d 1000000" % s)
builtins.__import__ = _orig
gc.collect()
code = 0
for k in COSTS:
    code += COSTS[k]
rows = sorted([(COSTS[k], k) for k in COSTS], key=lambda r: (-r[0], r[1]))
for b, k in rows:
    print("MOD %s %d" % (k, b))
print("CODE %d %d" % (code, len(rows)))
base = gc.mem_alloc() - m0 - code
hands = int(sys.argv[1])
rng = Rng(7)
high = 0
for i in range(hands):
    play(sim, rng)
    sim.run("clear")
    gc.collect()
    st = gc.mem_alloc() - m0 - code
    high = max(high, st)
    print("HAND %d %d" % (i + 1, st))
end = []
parts("sim", sim, end, 5)
sums = {}
for b, k in end:
    sums[k] = sums.get(k, 0) + b
end = sorted([(sums[k], k) for k in sums], key=lambda r: (-r[0], r[1]))
for b, k in end:
    print("PART %s %d" % (k, b))
print("STATE base=%d high=%d" % (base, high))
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=int(os.environ.get("FELT_BENCH_HANDS", "20")))
    ap.add_argument("--heapsize", default="4M")
    ap.add_argument("--top", type=int, default=60, help="modules and state parts to list")
    a = ap.parse_args()
    fd, driver = tempfile.mkstemp(suffix=".py", prefix="bench_memory_")
    with os.fdopen(fd, "w") as f:
        f.write(DRIVER)
    env = dict(os.environ)
    env["MICROPYPATH"] = compiled_firmware()
    try:
        p = subprocess.run([micropython_binary(), "-X", "heapsize=" + a.heapsize, driver, str(a.hands)],
                           capture_output=True, text=True, env=env, timeout=3600)
    finally:
        os.unlink(driver)
    if p.returncode != 0:
        print("micropython run failed:", (p.stdout + p.stderr).strip().splitlines()[-3:])
        return 1
    mods, hands, state_parts = [], [], []
    code = base = high = 0
    for line in p.stdout.splitlines():
        w = line.split()
        if w[0] == "MOD":
            mods.append((w[1], int(w[2])))
        elif w[0] == "CODE":
            code = int(w[1])
        elif w[0] == "HAND":
            hands.append(int(w[2]))
        elif w[0] == "PART":
            state_parts.append((w[1], int(w[2])))
        elif w[0] == "STATE":
            kv = dict(x.split("=") for x in w[1:])
            base, high = int(kv["base"]), int(kv["high"])
    print("imported code (.mpy in the MicroPython heap): %d bytes in %d modules; the biggest:" % (code, len(mods)))
    for name, b in mods[:a.top]:
        print("  %7d  %s" % (b, name))
    print("run-time state (live heap minus imported code), ten-seat limit Omaha hi-lo on simulated hardware:")
    print("  after start-up (the peer: no hand played): %d bytes" % base)
    print("  high-water after each of %d hands: %d bytes (ratio to start-up %.2f); per hand: %s" % (
        len(hands), high, high / max(1, base), " ".join(str(h) for h in hands)))
    if len(hands) >= 4:
        half = len(hands) // 2
        print("  growth over the second half of the run: %d bytes" % (hands[-1] - hands[half - 1]))
    print("state by part at the end (bytes freed when the part is dropped; the parts of an object are dropped "
          "before it, so a parent's figure is what is left of it):")
    for name, b in state_parts[:a.top]:
        print("  %7d  %s" % (b, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
