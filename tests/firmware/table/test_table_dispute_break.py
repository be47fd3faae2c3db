# POT-18 at a break: "If the hand ends at a break, the window closes 1 minute after the award."
# `get dispute` through the simulated FELT1 wire, on the loop's manual clock with the level clock
# running (TOUR-1): the award's time comes from the loop's tick after the award and survives a
# power cut (the tick is journaled). Runs under CPython and MicroPython.
from check import eq

from kit import deal, fold_out, tour_sim, wire

# level 1 ends 20 minutes after `set level_clock start`: read that moment as 21:00:00
BREAK = [{"sb": 50, "bb": 100, "minutes": 20}, {"is_break": True, "minutes": 10},
         {"sb": 100, "bb": 200, "ante": 25, "minutes": 20}]
NO_BREAK = [{"sb": 50, "bb": 100, "minutes": 20}, {"sb": 100, "bb": 200, "ante": 25, "minutes": 20}]


def dispute(sim):
    r = wire(sim, "get", ["dispute"])
    assert " ok " in r, r
    return r.split("value=")[1].split()[0]


def seconds(sim, n):
    sim.hal.clock.advance_ms(n * 1000)
    sim.settle(sweeps=0)


def at(sim, start, hms):
    # advance the manual clock to hms ("21:00:45"), start being 20:40:00 (level 1 began)
    h, m, s = [int(x) for x in hms.split(":")]
    target = start + ((h - 20) * 3600 + (m - 40) * 60 + s) * 1000
    now = sim.hal.clock.ticks_ms()
    assert target >= now, (hms, target, now)
    sim.hal.clock.advance_ms(target - now)
    sim.settle(sweeps=0)


def hand_91_awarded_at_20_59_30(levels, sim=None):
    sim = tour_sim(sim=sim)
    if hasattr(sim, "config"):
        sim.config.levels = [dict(r) for r in levels]  # the config every boot builds its table from
    sim.table.config.levels = [dict(r) for r in levels]
    assert " ok " in wire(sim, "set", ["level_clock", "start"])
    start = sim.hal.clock.ticks_ms()  # 20:40:00
    sim.run("hand")
    deal(sim)
    at(sim, start, "20:59:30")
    fold_out(sim)
    eq(sim.table.state, "over")
    return sim, start


def test_POT_18_example_a_miscount_claim_after_the_minute_at_a_break_is_refused():
    # Hand 91 is awarded at 20:59:30 and a break starts (21:00:00): the lock came at 21:00:30, so a
    # miscount claim at 21:00:45 is refused
    sim, start = hand_91_awarded_at_20_59_30(BREAK)
    t = sim.table
    assert t.awarded is not None and abs(t.awarded[0] - (start + 19 * 60000 + 30000)) < 5000, (t.awarded, start)
    eq(dispute(sim), "reading")  # right after the award
    at(sim, start, "20:59:50")
    eq(dispute(sim), "reading")  # the break has not begun
    at(sim, start, "21:00:20")
    eq(wire(sim, "get", ["level_clock"]).split("value=")[1].split()[0][:3], "L2/")  # the break is on
    eq(dispute(sim), "reading")  # within the minute after the award
    at(sim, start, "21:00:45")
    eq(dispute(sim), "locked")  # the claim is refused: the lock came at 21:00:30
    at(sim, start, "21:10:30")
    eq(dispute(sim), "locked")  # after the break, still locked until the next hand
    assert " ok " in wire(sim, "newhand")
    eq(dispute(sim), "count")  # the next hand's own window (until SA)


def test_POT_18_without_a_break_the_last_hand_stays_open_until_the_next_hand():
    # the same times with a level change instead of a break: no break, so DEAL-1's window applies
    sim, start = hand_91_awarded_at_20_59_30(NO_BREAK)
    at(sim, start, "21:00:45")
    eq(dispute(sim), "reading")
    at(sim, start, "21:30:00")
    eq(dispute(sim), "reading")


def test_POT_18_a_break_that_begins_more_than_a_minute_after_the_award_locks_at_its_start():
    # the lock is keyed to the award (the rule's "1 minute after the award"): a break that begins
    # later finds the minute already over
    sim, start = hand_91_awarded_at_20_59_30(BREAK)
    at(sim, start, "21:00:00")
    sim.table.level_clock.set_left(1, 5 * 60000, sim.hal.clock.ticks_ms())  # the break now at 21:05:00
    at(sim, start, "21:04:59")
    eq(dispute(sim), "reading")
    at(sim, start, "21:05:01")
    eq(dispute(sim), "locked")


def test_POT_18_the_award_time_survives_a_power_cut():
    from felt.sim.powerloss import KillFlash, PowerSim
    sim, start = hand_91_awarded_at_20_59_30(BREAK, sim=PowerSim(KillFlash(None)))
    awarded = sim.table.awarded
    assert awarded is not None
    sim.restart()  # between hands: the hand and the tick that timed its award are replayed
    eq(sim.table.awarded, awarded)
    at(sim, start, "21:00:20")
    eq(dispute(sim), "reading")
    at(sim, start, "21:00:45")
    eq(dispute(sim), "locked")
