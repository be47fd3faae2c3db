# Run-time heap of the whole firmware on simulated hardware (issue 3, "Speed and size"): ten-seat
# limit Omaha hi-lo hands played as sim statements (shoe draws to antennas, console actions) through
# the controller, the loop, the real drivers and the simulated chips. The live heap after each hand
# (gc.collect) must not grow from hand to hand, and stays under a measured budget. MicroPython only
# (gc.mem_alloc counts the interpreter's own heap); tests/bench/bench_memory.py says where it goes.
from check import MICROPYTHON, Skip

# Measured on the unix port (MicroPython 1.29, 2026-11-29): ~125-128 KB after each hand (was ~135 KB
# before the deck registry became two 416-byte slot tables): the table built (13 reader drivers with
# their buffers and health records, the tag registry, sim HAL, chip models, buttons, lights, panel)
# plus the hand log, the dealing check and the per-hand card account; flat from hand to hand. This
# is state only (code is left out); the whole firmware on the emulated 128 KB board, code in a ROMFS
# image, is tests/bench/bench_memory.py and hardware/memory.md.
STATE_BUDGET = 150 * 1024  # bytes of run-time state: sim + table built and a hand played
PER_HAND_SLACK = 3 * 1024  # hand-to-hand noise allowed once the first hands have warmed up
RANKS = "23456789TJQKA"
SUITS = "cdhs"


def _gc():
    if not MICROPYTHON:
        raise Skip("gc.mem_alloc() measures MicroPython's heap")
    import gc
    return gc


def _deck(seed):
    d = list(range(52))
    s = seed
    for i in range(51, 0, -1):
        s = (s * 1103515245 + 12345) & 0x7FFFFFFF
        j = (s >> 8) % (i + 1)
        d[i], d[j] = d[j], d[i]
    return d


def _text(c):
    return RANKS[c >> 2] + SUITS[c & 3]


def _play(sim, seed):
    t = sim.table
    sim.run("hand")
    deck = _deck(seed)
    k = 0
    for _r in range(4):
        for s in list(t.setup.seats):
            sim.run("draw %s to seat %d" % (_text(deck[k]), s))
            k += 1
    for street in range(4):
        if street:
            sim.run("draw %s to burn" % _text(deck[k]))
            k += 1
            for _n in range(3 if street == 1 else 1):
                sim.run("draw %s to board" % _text(deck[k]))
                k += 1
        for _a in range(40):
            h = t.hand
            if t.state != "playing" or h.actor is None:
                break
            sim.run("act %d %s" % (t.setup.seats[h.actor], "call" if h.legal().call else "check"))
    assert t.state == "over" and not t.alerts, (t.state, t.alerts)
    sim.run("clear")


def test_ten_seat_omaha8_state_is_flat_per_hand_and_under_budget():
    gc = _gc()
    from felt.sim.runner import Sim
    # loop.build() imports the drivers lazily: load them first so that m0 leaves all code out
    import felt.board, felt.drivers.antennas, felt.drivers.buttons, felt.drivers.console  # noqa: F401,E401
    import felt.drivers.display, felt.drivers.mfrc522, felt.drivers.neopixel_lights  # noqa: F401,E401
    gc.collect()
    m0 = gc.mem_alloc()
    sim = Sim()
    sim.run("table omaha8 limit seats=10 sb=10 bb=20 small_bet=20 big_bet=40 button=1")
    for s in range(1, 11):
        sim.run("seat %d 1000000" % s)
    after = []
    for i in range(6):
        _play(sim, 7 + i)
        gc.collect()
        after.append(gc.mem_alloc() - m0)
    high = max(after)
    assert high < STATE_BUDGET, "run-time state %d bytes over the %d budget: %r" % (high, STATE_BUDGET, after)
    settled = after[2:]  # the first hands load lazily imported code and size the per-hand records
    assert max(settled) - min(settled) <= PER_HAND_SLACK, "state grows hand to hand: %r" % after
    assert after[-1] <= after[2] + PER_HAND_SLACK, "state grows hand to hand: %r" % after
