# Run-time heap of the whole firmware on simulated hardware (issue 3, "Speed and size"): ten-seat
# limit Omaha hi-lo hands played as sim statements (shoe draws to antennas, console actions) through
# the controller, the loop, the real drivers and the simulated chips. The live heap after each hand
# (gc.collect) must not grow from hand to hand, and stays under a measured budget. MicroPython only
# (gc.mem_alloc counts the interpreter's own heap); tests/benchmarks/bench_memory.py says where it goes.
from check import MICROPYTHON, Skip

# Measured on the unix port (MicroPython 1.29, 2026-11-29): ~125-128 KB after each hand (was ~135 KB
# before the deck registry became two 416-byte slot tables): the table built (13 reader drivers with
# their buffers and health records, the tag registry, sim HAL, chip models, buttons, lights, panel)
# plus the hand log, the dealing check and the per-hand card account; flat from hand to hand. This
# is state only (code is left out); the whole firmware on the emulated 128 KB board, code in a ROMFS
# image, is tests/benchmarks/bench_memory.py and hardware/memory.md.
STATE_BUDGET = 150 * 1024  # bytes of run-time state: sim + table built and a hand played
PER_HAND_SLACK = 3 * 1024  # hand-to-hand noise allowed once the first hands have warmed up


def _gc():
    if not MICROPYTHON:
        raise Skip("gc.mem_alloc() measures MicroPython's heap")
    import sys
    if sys.platform == "webassembly":  # issue 19: tests/host/test_wasm_budget.py steps it instead
        raise Skip("the WebAssembly port collects only between calls from JS, never inside a test")
    import gc
    return gc


def _play(sim, seed):
    from felt.sim.autoplay import Lcg, play_calling_hand, shuffled

    t = play_calling_hand(sim, shuffled(Lcg(seed)))
    assert t.state == "over" and not t.alerts, (t.state, t.alerts)
    sim.run("clear")


def test_ten_seat_omaha8_state_is_flat_per_hand_and_under_budget():
    gc = _gc()
    from felt.sim.runner import Sim
    # loop.build() imports the drivers lazily: load them first so that m0 leaves all code out
    import felt.runtime.board, felt.drivers.antennas, felt.drivers.buttons, felt.drivers.console_link  # noqa: F401,E401
    import felt.drivers.display, felt.drivers.mfrc522, felt.drivers.neopixel_lights  # noqa: F401,E401
    import felt.sim.autoplay  # noqa: F401
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
