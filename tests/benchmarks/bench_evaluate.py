# Benchmark of felt.engine.rank.evaluate (not a test). Runs under CPython and then starts itself
# under the MicroPython interpreter (.venv/bin/micropython, plain bytecode). Every figure is
# printed with its peer measured in the same run and the ratio:
#   CPython:     7-card high() against treys on the same seeded random hands
#   MicroPython: 7-card high() against a plain sort-and-count reference evaluator (treys cannot
#                run there); a 10-seat Omaha hi-lo showdown against the same reference; the
#                heap taken by importing the evaluator and its tables (gc.mem_free).
# Each figure is given twice: wall time (best of several rounds) and CPU time of this process
# (from /proc/self/stat on Linux, 10 ms ticks, so the loops run for seconds). When other
# processes share the cores, wall time inflates and CPU time stays close to the unloaded figure.
import sys

MICROPYTHON = sys.implementation.name == "micropython"
HANDS = 20000 if not MICROPYTHON else 10000
ROUNDS = 7
SHOWDOWNS = 200

if MICROPYTHON:
    import time

    def now_us():
        return time.ticks_us()

    def since_us(t0):
        return time.ticks_diff(time.ticks_us(), t0)
else:
    import os
    import time

    def now_us():
        return time.perf_counter_ns() // 1000

    def since_us(t0):
        return now_us() - t0


class Lcg:
    """The same seeded deals on both interpreters (MicroPython has no random.sample)."""

    def __init__(self, seed):
        self.state = seed

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n

    def deal(self, k):
        cards = []
        while len(cards) < k:
            c = self.below(52)
            if c not in cards:
                cards.append(c)
        return cards


def cpu_us():
    """CPU time (user + system) of this process in microseconds, or None off Linux."""
    if not MICROPYTHON:
        return time.process_time_ns() // 1000
    try:
        with open("/proc/self/stat") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) * 10000  # USER_HZ is 100 on Linux


def best_us(fn, arg):
    """(best wall-clock us of one fn(arg), CPU us per fn(arg) over at least 2 CPU seconds)."""
    best = None
    for _ in range(ROUNDS):
        t0 = now_us()
        fn(arg)
        dt = since_us(t0)
        if best is None or dt < best:
            best = dt
    c0 = cpu_us()
    if c0 is None:
        return best, None
    runs = 0
    while True:
        fn(arg)
        runs += 1
        used = cpu_us() - c0
        if used >= 2000000:
            return best, used // runs


# -- the peer on MicroPython: a plain evaluator (sort, count, compare tuples) ----------------

def ref_five(cards):
    ranks = sorted([c >> 2 for c in cards], reverse=True)
    counts = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted([(n, r) for r, n in counts.items()], reverse=True)
    flush = len(set([c & 3 for c in cards])) == 1
    top = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            top = 3
    if top is not None:
        return (8 if flush else 4, top)
    if flush:
        return (5,) + tuple(ranks)
    shape = [n for n, r in groups]
    cat = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(tuple(shape), 0)
    return (cat,) + tuple([r for n, r in groups])


def ref_high(cards):
    best = None
    n = len(cards)
    for a in range(n):
        for b in range(a + 1, n):
            five = [cards[i] for i in range(n) if i != a and i != b]
            v = ref_five(five)
            if best is None or v > best:
                best = v
    return best


def ref_omaha(hole, board):
    best_hi = None
    best_lo = None
    for i in range(4):
        for j in range(i + 1, 4):
            for a in range(5):
                for b in range(a + 1, 5):
                    for c in range(b + 1, 5):
                        five = [hole[i], hole[j], board[a], board[b], board[c]]
                        v = ref_five(five)
                        if best_hi is None or v > best_hi:
                            best_hi = v
                        low = sorted([0 if x >> 2 == 12 else (x >> 2) + 1 for x in five], reverse=True)
                        if low[0] <= 7 and len(set(low)) == 5 and (best_lo is None or low < best_lo):
                            best_lo = low
    return best_hi, best_lo


# -- loops (one function per measured thing, so the loop itself is the same for both) -------

def loop_high(hands):
    from felt.engine.rank.evaluate import high
    for h in hands:
        high(h)


def loop_ref_high(hands):
    for h in hands:
        ref_high(h)


def loop_showdowns(tables):
    from felt.engine.rank.evaluate import omaha_high, omaha_low8
    for board, holes in tables:
        for h in holes:
            omaha_high(h, board)
            omaha_low8(h, board)


def loop_ref_showdowns(tables):
    for board, holes in tables:
        for h in holes:
            ref_omaha(h, board)


def showdown_tables(rng, n):
    out = []
    for _ in range(n):
        d = rng.deal(45)
        out.append((d[40:45], [d[4 * s:4 * s + 4] for s in range(10)]))
    return out


def micropython_main():
    import gc
    gc.collect()
    free0 = gc.mem_free()
    import felt.engine.rank.tables  # noqa: F401
    gc.collect()
    free1 = gc.mem_free()
    import felt.engine.rank.evaluate  # noqa: F401
    gc.collect()
    free2 = gc.mem_free()
    print("micropython heap: tables %d bytes (target < 32768), evaluator + tables %d bytes "
          "(target < 40960); this is a %d-bit build" % (free0 - free1, free0 - free2,
                                                         64 if sys.maxsize > 2 ** 32 else 32))
    rng = Lcg(2026)
    hands = [rng.deal(7) for _ in range(HANDS)]
    few = hands[:HANDS // 20]
    ours = best_us(loop_high, hands)
    peer = best_us(loop_ref_high, few)
    for what, i in (("wall", 0), ("cpu", 1)):
        if ours[i] is None:
            continue
        ours_rate = HANDS * 1000000 // ours[i]
        peer_rate = len(few) * 1000000 // peer[i]
        print("micropython 7-card high() [%s]: %d evals/s (target >= 600000); peer plain evaluator "
              "%d evals/s; ratio %.1fx" % (what, ours_rate, peer_rate, ours_rate / peer_rate))
    tables = showdown_tables(rng, SHOWDOWNS)
    ours = best_us(loop_showdowns, tables)
    peer = best_us(loop_ref_showdowns, tables[:10])
    for what, i in (("wall", 0), ("cpu", 1)):
        if ours[i] is None:
            continue
        o = ours[i] / SHOWDOWNS
        p = peer[i] / 10
        print("micropython 10-seat Omaha hi-lo showdown (10 x omaha_high + omaha_low8, new board "
              "each) [%s]: %.1f us (target < 300); peer plain evaluator %.1f us; ratio %.1fx"
              % (what, o, p, p / o))


def cpython_main():
    import random
    import subprocess

    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    sys.path.insert(0, os.path.join(repo, "firmware"))
    sys.path.insert(0, os.path.join(repo, "host_tools"))
    from feltctl.paths import micropython_binary
    from treys import Card, Evaluator

    from felt.engine.cards import card_text
    from felt.engine.rank.evaluate import high

    rnd = random.Random(2026)
    hands = [rnd.sample(range(52), 7) for _ in range(HANDS)]
    t_hands = [[Card.new(card_text(c)) for c in h] for h in hands]
    t_split = [(h[:2], h[2:]) for h in t_hands]
    ev = Evaluator()
    # both rank the hands alike (treys: smaller is better), so the race is fair
    ours_v = [high(h) for h in hands[:3000]]
    peer_v = [-ev.evaluate(a, b) for a, b in t_split[:3000]]
    for i in range(len(ours_v) - 1):
        if (ours_v[i] > ours_v[i + 1]) - (ours_v[i] < ours_v[i + 1]) != \
                (peer_v[i] > peer_v[i + 1]) - (peer_v[i] < peer_v[i + 1]):
            raise SystemExit("high() and treys disagree on %r vs %r" % (hands[i], hands[i + 1]))

    def loop_treys(split):
        evaluate = ev.evaluate
        for a, b in split:
            evaluate(a, b)

    ours = best_us(loop_high, hands)
    peer = best_us(loop_treys, t_split)
    print("load average %.1f on %d CPUs" % (os.getloadavg()[0], os.cpu_count()))
    for what, i in (("wall", 0), ("cpu", 1)):
        print("cpython 7-card high() [%s]: %.3f us/eval (%d evals/s); peer treys 0.1.8 %.3f us/eval; "
              "ratio %.1fx (target >= 8x)" % (what, ours[i] / HANDS, HANDS * 1000000 // ours[i],
                                              peer[i] / HANDS, peer[i] / ours[i]))
    sys.stdout.flush()
    mp = micropython_binary()
    env = dict(os.environ, MICROPYPATH=os.path.join(repo, "firmware") + ":" + here)
    out = subprocess.run([mp, "-X", "heapsize=8M", os.path.abspath(__file__)], env=env,
                         capture_output=True, text=True, timeout=900)
    sys.stdout.write(out.stdout)
    if out.returncode:
        sys.stdout.write(out.stderr)
    return out.returncode


if __name__ == "__main__":
    if MICROPYTHON:
        micropython_main()
    else:
        sys.exit(cpython_main())
