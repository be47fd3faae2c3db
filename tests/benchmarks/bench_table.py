# Benchmark (not a test): the table controller in the MicroPython interpreter.
#  1. processing cost per input event: ten-seat limit Omaha hi-lo hands fed to felt.table.controller.Table as
#     physical events (shoe read + antenna arrival per card, console action), against the peer: the
#     raw engine (felt.engine.hand.machine.Hand) doing the same hands' deals and actions -- and the ratio;
#  2. heap of the whole firmware (controller + loop + real drivers + sim device models) while it
#     plays ten-seat Omaha hi-lo hands through simulated hardware: live-heap high-water after each
#     hand (gc.collect), the code's own share, and the smallest -X heapsize that completes the run.
# usage: python tests/benchmarks/bench_table.py [--hands N] [--cost-hands N] [--no-search]
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
import gc, sys, time
try:
    ticks = time.ticks_us
    diff = time.ticks_diff
except AttributeError:
    ticks = lambda: int(time.perf_counter() * 1000000)
    diff = lambda a, b: a - b
from felt.engine.cards import card_text as text
from felt.sim.autoplay import Lcg as Rng, play_calling_hand, shuffled

def cost(hands):
    from felt.engine.deck import DeckRegistry
    from felt.engine.hand.machine import Hand
    from felt.engine import games
    from felt.sim.runner import card_uid, registry
    from felt.table.controller import Table, TableConfig
    cfg = TableConfig(game="omaha8", structure="limit", seats=10, sb=10, bb=20, small_bet=20, big_bet=40, button=1)
    t = Table(cfg, registry())
    for s in range(1, 11):
        t.sit(s, 1000000)
    rng = Rng(11)
    events = 0
    spent = 0
    plays = []  # (seats, deck order) per hand, replayed by the engine peer
    for _ in range(hands):
        t.new_hand()
        order = list(t.setup.seats)
        deck = shuffled(rng)
        plays.append((order, deck))
        k = 0
        t0 = ticks()
        for _r in range(4):
            for s in order:
                uid = card_uid(deck[k])
                hexu = "".join(["%02X" % b for b in uid])
                t.shoe_card(uid)
                t.antenna(("card-arrived", "seat%d" % s, hexu))
                k += 1
                events += 2
        for street in range(4):
            if street:
                for n in range(2 if street > 1 else 4):
                    uid = card_uid(deck[k])
                    hexu = "".join(["%02X" % b for b in uid])
                    t.shoe_card(uid)
                    t.antenna(("card-arrived", "burn" if n == 0 else "board", hexu))
                    k += 1
                    events += 2
            for _a in range(40):
                h = t.hand
                if t.state != "playing" or h.actor is None:
                    break
                lg = h.legal()
                t.act(t.setup.seats[h.actor], "call" if lg.call else "check")
                events += 1
        spent += diff(ticks(), t0)
        for hexu in sorted(t.onant):
            t.antenna(("card-left", t.onant[hexu], hexu))
        assert t.state == "over" and not t.alerts, (t.state, t.alerts)
    # the peer: the engine alone, the same cards and actions
    game = games.game_for("omaha8", "limit")
    ops = 0
    peer = 0
    for order, deck in plays:
        t0 = ticks()
        h = Hand(game=game, stacks=[1000000] * 10, blinds=[10, 20], small_bet=20, big_bet=40, seats=order)
        k = 0
        for _r in range(4):
            for p in range(10):
                h.deal_hole(p, [deck[k]])
                k += 1
                ops += 1
        for street in range(4):
            if street:
                h.burn(deck[k])
                k += 1
                for _n in range(3 if street == 1 else 1):
                    h.deal_board([deck[k]])
                    k += 1
                    ops += 1
                ops += 1
            for _a in range(40):
                if h.finished or h.actor is None:
                    break
                h.check_call(h.actor)
                ops += 1
        peer += diff(ticks(), t0)
    print("COST hands=%d events=%d us=%d peer_ops=%d peer_us=%d" % (hands, events, spent, ops, peer))

def heap(hands):
    from felt.sim.runner import Sim
    gc.collect()
    before = gc.mem_alloc()
    sim = Sim()
    sim.run("table omaha8 limit seats=10 sb=10 bb=20 small_bet=20 big_bet=40 button=1")
    for s in range(1, 11):
        sim.run("seat %d 1000000" % s)
    gc.collect()
    base = gc.mem_alloc()
    high = base
    rng = Rng(7)
    t0 = ticks()
    t = sim.table
    for i in range(hands):
        play_calling_hand(sim, shuffled(rng))
        if t.state != "over" or t.alerts:
            print("BROKEN hand %d: %s %r" % (i + 1, t.state, t.alerts[:2]))
            return
        sim.run("clear")
        gc.collect()
        a = gc.mem_alloc()
        if a > high:
            high = a
    # the simulated devices' own share (chips, reader, panel, sim HAL), built alone for comparison
    from felt.hal.sim.hal import SimHAL
    from felt.hal.sim.mfrc522 import SimMFRC522
    from felt.hal.sim.pn532 import SimPN532
    from felt.sim.runner import sim_board
    gc.collect()
    m0 = gc.mem_alloc()
    hal = SimHAL()
    b = sim_board(10)
    bus = hal.spi(0)
    chips = [bus.attach(("74HC154", line), SimMFRC522(hal.clock)) for loc, line in b.antennas]
    hal.uart(0).attach(SimPN532())
    hal.add_display(0, 0x3C)
    gc.collect()
    models = gc.mem_alloc() - m0
    print("HEAP hands=%d before=%d base=%d high=%d us=%d events=%d models=%d" % (
        hands, before, base, high, diff(ticks(), t0), sim.rt.events, models))

gc.collect()
IMPORTS0 = gc.mem_alloc()
import felt.sim.runner
# loop.build() imports the drivers lazily: count them as code too
import felt.drivers.antennas, felt.drivers.buttons, felt.drivers.console_link, felt.drivers.display
import felt.drivers.mfrc522, felt.drivers.neopixel_lights, felt.runtime.board
gc.collect()
print("CODE imports=%d" % (gc.mem_alloc() - IMPORTS0))
what = sys.argv[1]
n = int(sys.argv[2])
if what == "cost":
    cost(n)
else:
    heap(n)
'''


def run(driver, what, n, heapsize):
    env = dict(os.environ)
    env["MICROPYPATH"] = compiled_firmware()
    p = subprocess.run([micropython_binary(), "-X", "heapsize=" + heapsize, driver, what, str(n)],
                       capture_output=True, text=True, env=env, timeout=7200)
    out = {}
    for line in p.stdout.splitlines():
        words = line.split()
        if words and words[0] in ("COST", "HEAP", "CODE", "BROKEN"):
            out[words[0]] = dict(w.split("=") for w in words[1:] if "=" in w)
            if words[0] == "BROKEN":
                out["BROKEN"] = line
    out["ok"] = p.returncode == 0 and ("HEAP" in out or "COST" in out)
    out["err"] = p.stderr.strip().splitlines()[-1:] if p.stderr.strip() else []
    return out


def smallest_heap(driver, hands):
    lo, hi = 64, 2048  # KiB
    if not run(driver, "heap", hands, "%dK" % hi)["ok"]:
        return None
    while hi - lo > 16:
        mid = (lo + hi) // 2
        if run(driver, "heap", hands, "%dK" % mid)["ok"]:
            hi = mid
        else:
            lo = mid
    return hi


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=int(os.environ.get("FELT_BENCH_HANDS", "40")),
                    help="ten-seat Omaha hi-lo hands through the simulated hardware (issue: 1000)")
    ap.add_argument("--cost-hands", type=int, default=50)
    ap.add_argument("--no-search", action="store_true", help="skip the smallest -X heapsize search")
    a = ap.parse_args()
    fd, driver = tempfile.mkstemp(suffix=".py", prefix="bench_table_")
    with os.fdopen(fd, "w") as f:
        f.write(DRIVER)
    try:
        c = run(driver, "cost", a.cost_hands, "4M")
        if not c["ok"]:
            print("cost run failed:", c["err"])
            return 1
        k = c["COST"]
        per_event = int(k["us"]) / int(k["events"])
        per_op = int(k["peer_us"]) / int(k["peer_ops"])
        print("table controller, MicroPython: %.1f us per input event (%s events, %s hands of 10-seat limit "
              "Omaha hi-lo: shoe read + antenna arrival per card, console actions)" % (per_event, k["events"],
                                                                                     k["hands"]))
        print("peer, raw engine Hand on the same hands: %.1f us per engine call (%s calls)" % (per_op, k["peer_ops"]))
        print("ratio per hand (controller / engine): %.2f" % (int(k["us"]) / max(1, int(k["peer_us"]))))
        h = run(driver, "heap", a.hands, "4M")
        if not h["ok"]:
            print("heap run failed:", h.get("BROKEN") or h["err"])
            return 1
        k = h["HEAP"]
        code = int(h["CODE"]["imports"])
        print("whole firmware on simulated hardware, %s hands: live heap high-water %d bytes after each hand "
              "(%d after start-up, %d of it bytecode/modules imported from .mpy; growth over the run %d bytes), "
              "%.0f ms per hand, %s events" % (k["hands"], int(k["high"]), int(k["base"]), code,
                                               int(k["high"]) - int(k["base"]), int(k["us"]) / 1000 / int(k["hands"]),
                                               k["events"]))
        print("run-time state (high-water minus imported code): %d bytes, of which the simulated devices "
              "themselves ~%d; the firmware's own state ~%d bytes against a 128K = 131072 byte budget"
              % (int(k["high"]) - code, int(k["models"]), int(k["high"]) - code - int(k["models"])))
        if not a.no_search:
            small = smallest_heap(driver, 3)
            print("smallest -X heapsize that plays 3 hands on the unix port (code loaded into the heap): %sK"
                  % small)
            print("fits -X heapsize=128K on the unix port: %s" % ("yes" if small and small <= 128 else
                                                                   "no (the .mpy bytecode itself lives in the heap "
                                                                   "there; frozen into flash on a board it does not)"))
    finally:
        os.unlink(driver)
    return 0


if __name__ == "__main__":
    sys.exit(main())
