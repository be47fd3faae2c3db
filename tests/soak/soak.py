# Soak: many simulated hands (several games) on the journaled firmware with random injected faults
# -- corrupted shoe frames, duplicate reads, antenna readers dropping out and back, a shoe reader
# going silent, seat-button bounce, and power resets at random journal appends (torn records
# included). Checks: no lost hand (every hand started ends, its history is stored once), no chip
# created or destroyed, heap high-water mark flat over the run (MicroPython: gc.mem_alloc after a
# collect; CPython: tracemalloc), no unhandled exception. Runs on CPython and MicroPython.
# usage: python tests/soak/soak.py [--hands 10000] [--seed 1] [--jobs 4] [--kill-every 150] [--quiet]
#                                  [--runtime micropython|cpython]
#        micropython tests/soak/soak.py --hands 200        (one process)
# With --jobs N (CPython only) N worker processes of --runtime (default: the MicroPython unix port,
# the interpreter the firmware runs on) each play a share with their own seed; the parent adds up.
import sys

MICROPYTHON = sys.implementation.name == "micropython"


def _dirname(path):
    i = path.rfind("/")
    return path[:i] if i > 0 else "."


HERE = _dirname(sys.argv[0] if sys.argv and sys.argv[0].endswith("soak.py") else __file__)
ROOT = _dirname(_dirname(HERE)) if HERE not in (".", "") else "../.."
for p in (ROOT + "/firmware", ROOT + "/tests/firmware", ROOT + "/tests"):
    if p not in sys.path:
        sys.path.insert(0, p)

import gc  # noqa: E402

import kit  # noqa: E402
from felt.recovery import journal as jr  # noqa: E402
from felt.table.controller import PLAYING  # noqa: E402

GAMES = ("holdem", "omaha8", "stud7", "omaha")
STACK = 400
MAX_STATEMENTS = 600  # per hand: a hand that never ends is a lost hand


class Soak:
    def __init__(self, game, seed, kill_every, log=None):
        self.game = game
        self.rng = kit.Rng(seed)
        self.flash = kit.KillFlash(kill_every, seed % 7)
        self.sim = kit.PowerSim(self.flash)
        self.sim.log_sink = None
        self.messages = []
        self.started = 0
        self.finished = 0
        self.faults = {}
        self.chips = 0
        self.log = log

    def do(self, line):
        kit.run_line(self.sim, line, self.messages)

    def fault(self, name, line):
        self.faults[name] = self.faults.get(name, 0) + 1
        self.do(line)

    def setup(self):
        self.do(kit.GAME_LINES[self.game])
        for s in range(1, self.sim.table.config.seats + 1):
            self.do("seat %d %d" % (s, STACK))
            self.chips += STACK

    def hand(self):
        sim = self.sim
        t = sim.table
        for s in range(1, t.config.seats + 1):
            if t.stacks[s - 1] == 0:
                self.do("seat %d %d" % (s, STACK))  # a busted player buys in again
                self.chips += STACK
        self._between_hands_faults()
        deck = list(range(52))
        rng = self.rng
        for i in range(51, 0, -1):
            j = rng.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        before = sim.handlog.next_seq
        self.do("hand")
        self.started += 1
        dealt = -1
        for _ in range(MAX_STATEMENTS):
            t = sim.table  # a reset builds a new table object
            if t.state != PLAYING:
                break
            h = t.hand
            if t.pending():
                self.do("confirm")
                continue
            if h.phase == kit.DEAL and dealt < h.street:
                dealt = h.street
                self._deal_street(t, h, deck)
                continue
            lg = h.legal() if h.phase == kit.BET else None
            if lg is None:
                self.do("wait 1000")  # let the table settle what is pending
                continue
            if rng.below(40) == 0:
                self.fault("corrupt-frame", "fault corrupt-frame")
            self.do(kit.decide_action(t, lg, rng))
        else:
            raise AssertionError("hand %d of %s never ended (lost hand)" % (sim.table.hand_no, self.game))
        self.finished += 1
        stored = sim.handlog.next_seq - before
        if stored != 1:
            raise AssertionError("hand %d: %d histories stored, want 1" % (sim.table.hand_no, stored))
        total = sum(sim.table.stacks)
        if total != self.chips:
            raise AssertionError("hand %d: %d chips on the table, want %d" % (sim.table.hand_no, total, self.chips))
        self.do("clear")

    def _deal_street(self, t, h, deck):
        st = t.config.record.streets[h.street]
        order = [s for s in t.setup.seats if h.live[t.position(s)]]
        if st.burn:
            self.do("draw %s to burn" % kit.short_card(deck.pop()))
        for _k in st.hole:
            for s in order:
                card = kit.short_card(deck.pop())
                if self.rng.below(30) == 0:
                    self.fault("double-read", "fault double-read %s to seat %d" % (card, s))
                else:
                    self.do("draw %s to seat %d" % (card, s))
        for _k in range(st.board):
            self.do("draw %s to board" % kit.short_card(deck.pop()))

    def _between_hands_faults(self):
        r = self.rng.below(20)
        seats = self.sim.table.config.seats
        if r == 0:
            loc = "seat %d" % (1 + self.rng.below(seats))
            self.fault("reader-dropout", "fault silent %s" % loc)
            self.do("fault resume %s" % loc)
        elif r == 1:
            self.fault("shoe-silent", "fault silent shoe")
            self.do("fault resume shoe")
        elif r == 2:
            self.fault("bounce", "fault bounce %d" % (1 + self.rng.below(seats)))


def heap_now():
    gc.collect()
    if MICROPYTHON:
        return gc.mem_alloc()
    import tracemalloc

    return tracemalloc.get_traced_memory()[0]


def run_one(hands, seed, kill_every, quiet=False):
    """One process: `hands` hands, cycling through GAMES (a new table per game block)."""
    started = False
    if not MICROPYTHON:
        import tracemalloc

        if not tracemalloc.is_tracing():
            tracemalloc.start()
            started = True
    block = 25  # hands per table, then the next game
    done = 0
    samples = []
    totals = {"hands": 0, "restarts": 0, "kills": 0, "faults": {}}
    k = 0
    while done < hands:
        game = GAMES[k % len(GAMES)]
        s = Soak(game, seed * 1000 + k, kill_every)
        s.setup()
        n = min(block, hands - done)
        for _ in range(n):
            s.hand()
        done += n
        totals["hands"] += s.finished
        totals["restarts"] += s.sim.restarts
        totals["kills"] += s.flash.kills
        for f in s.faults:
            totals["faults"][f] = totals["faults"].get(f, 0) + s.faults[f]
        s = None
        samples.append(heap_now())
        k += 1
        if not quiet:
            print("soak seed %d: %d/%d hands, %d resets, heap %d" % (seed, done, hands, totals["restarts"],
                                                                    samples[-1]))
    totals["heap"] = samples
    if started:
        tracemalloc.stop()
    return totals


def heap_flat(samples):
    """No growth: the last quarter's peak is within 10% (+64 KB) of the second quarter's peak."""
    if len(samples) < 4:
        return True
    q = len(samples) // 4
    early = max(samples[q:2 * q])
    late = max(samples[-q:])
    return late <= early + early // 10 + 65536


def main(argv):
    hands, seed, jobs, kill_every, quiet, runtime, as_json = 10000, 1, 1, 150, False, "micropython", False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--hands":
            hands = int(argv[i + 1])
            i += 1
        elif a == "--seed":
            seed = int(argv[i + 1])
            i += 1
        elif a == "--jobs":
            jobs = int(argv[i + 1])
            i += 1
        elif a == "--kill-every":
            kill_every = int(argv[i + 1])
            i += 1
        elif a == "--quiet":
            quiet = True
        elif a == "--json":
            as_json = True
        elif a == "--runtime":
            runtime = argv[i + 1]
            i += 1
        else:
            print("unknown argument %r" % a)
            return 2
        i += 1
    if jobs > 1 and not MICROPYTHON:
        return _parallel(hands, seed, jobs, kill_every, runtime)
    t = run_one(hands, seed, kill_every, quiet)
    if as_json:
        import json

        print("SOAK " + json.dumps(t))
        return 0
    return report([t])


def _parallel(hands, seed, jobs, kill_every, runtime):
    # worker processes, each `soak.py --json` on its share; an exception in one fails the run
    import json
    import os
    import subprocess

    if runtime == "micropython":
        sys.path.insert(0, os.path.join(ROOT, "host_tools"))
        from feltctl.paths import micropython_binary

        cmd = [micropython_binary(), "-X", "heapsize=16M"]
    else:
        cmd = [sys.executable]
    per = (hands + jobs - 1) // jobs
    procs = []
    for j in range(jobs):
        n = min(per, hands - j * per)
        if n <= 0:
            break
        args = cmd + [os.path.abspath(__file__), "--hands", str(n), "--seed", str(seed + j),
                      "--kill-every", str(kill_every), "--quiet", "--json"]
        procs.append(subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    results = []
    failed = 0
    for p in procs:
        out, _ = p.communicate()
        got = [line for line in out.splitlines() if line.startswith("SOAK ")]
        if p.returncode or not got:
            failed += 1
            print(out)
            continue
        results.append(json.loads(got[-1][5:]))
    if failed:
        print("FAIL: %d soak worker(s) failed" % failed)
        return 1
    return report(results)


def report(results):
    hands = sum([r["hands"] for r in results])
    restarts = sum([r["restarts"] for r in results])
    kills = sum([r["kills"] for r in results])
    faults = {}
    flat = True
    for r in results:
        for f in r["faults"]:
            faults[f] = faults.get(f, 0) + r["faults"][f]
        flat = flat and heap_flat(r["heap"])
    names = sorted(faults)
    print("soak: %d hands, %d power resets (%d cut records), faults: %s; chips conserved, no lost hand" % (
        hands, restarts, kills, ", ".join(["%s %d" % (n, faults[n]) for n in names])))
    for r in results:
        print("heap samples: %s" % " ".join(["%d" % h for h in r["heap"]]))
    if not flat:
        print("FAIL: heap grows over the run")
        return 1
    print("heap high-water flat")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
