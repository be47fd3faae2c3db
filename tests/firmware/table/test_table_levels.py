# The level clock at the table through the simulated FELT1 wire (TOUR-1): `set level_clock start |
# M:SS | pause | resume | off` runs config.levels on the loop's manual clock; a level that runs out
# during a hand applies from the next hand; `get level_clock` and the display show level and time
# left; hand-for-hand takes its time from the running clock (TOUR-8), which stands still meanwhile.
# Survives a power cut. Runs under CPython and MicroPython.
from check import eq

from felt.sim.runner import Sim

from kit import LEVELS, clock, deal, fold_out, tour_sim
from kit import refused, wire


def level_sim(sim=None):
    sim = tour_sim(sim=sim)
    sim.table.config.levels = [dict(r) for r in LEVELS]
    return sim


def level_clock(sim):
    r = wire(sim, "get", ["level_clock"])
    assert " ok " in r, r
    return r.split("value=")[1].split()[0]


def minutes(sim, n):
    sim.hal.clock.advance_ms(n * 60000)
    sim.settle(sweeps=0)


def test_TOUR_1_the_rules_example_the_level_ends_during_a_hand_the_next_hand_plays_the_new_level():
    sim = level_sim()
    t = sim.table
    assert " ok " in wire(sim, "set", ["level_clock", "start"])
    eq((t.config.level, t.config.bb), (1, 100))  # level 1 from now (between hands)
    eq(level_clock(sim), "L1/20:00")
    sim.run("hand")
    deal(sim)
    minutes(sim, 20)  # the level ends while the hand is in progress
    eq(level_clock(sim)[:3], "L2/")
    eq(max(t.hand.bets), 100)  # this hand finishes at 50/100
    fold_out(sim)
    eq(t.config.bb, 100)
    sim.run("hand")  # the next hand starts at 100/200 ante 25
    eq((t.config.level, t.config.bb, t.config.ante), (2, 200, 25))
    eq(max(t.hand.bets), 200)
    got = [a.text for a in t.alerts if "TOUR-1" in a.rules]
    assert got and got[0].startswith("level 2 (100/200 ante 25) from this hand"), got


def test_TOUR_1_the_display_shows_the_level_and_time_left():
    from felt import view
    sim = level_sim()
    assert " ok " in wire(sim, "set", ["level_clock", "12:30"])  # started with 12:30 left in level 1
    now = sim.hal.clock.ticks_ms()
    shown = view.lines(sim.table, now + 30000)
    assert "L1 12:00" in shown, shown
    assert " ok " in wire(sim, "set", ["level_clock", "pause"])
    minutes(sim, 5)
    eq(level_clock(sim)[-7:], "/paused")
    assert level_clock(sim).startswith("L1/12:"), level_clock(sim)
    assert [ln for ln in view.lines(sim.table, sim.hal.clock.ticks_ms()) if ln.endswith(" P")]
    assert " ok " in wire(sim, "set", ["level_clock", "resume"])
    minutes(sim, 2)
    assert level_clock(sim).startswith("L1/10:"), level_clock(sim)
    assert " ok " in wire(sim, "set", ["level_clock", "off"])
    eq(level_clock(sim), "off")


def test_TOUR_1_refusals_name_the_rule():
    sim = tour_sim()  # no level table
    r = refused(sim, "TOUR-1", "set", ["level_clock", "start"])
    assert "no level table" in r, r
    sim = level_sim()
    sim.table.config.levels[1].pop("minutes")
    r = refused(sim, "TOUR-1", "set", ["level_clock", "start"])
    assert "level 2 has no minutes" in r, r
    sim = level_sim()
    refused(sim, "TOUR-1", "set", ["level_clock", "pause"])  # not started
    refused(sim, "TOUR-1", "set", ["level_clock", "soon"])
    eq(sim.table.level_clock, None)
    cash = tour_sim(mode="cash")
    cash.table.config.levels = [dict(r) for r in LEVELS]
    refused(cash, "TOUR-1", "set", ["level_clock", "start"])


def test_TOUR_8_hand_for_hand_takes_its_time_from_the_level_clock_which_stands_still():
    sim = level_sim()
    t = sim.table
    assert " ok " in wire(sim, "set", ["level_clock", "start"])
    minutes(sim, 9)
    assert " ok " in wire(sim, "set", ["hand_for_hand", "on"])  # 11:00 left on the level clock
    eq(clock(sim), "11:00")
    minutes(sim, 30)  # the level clock stands still
    sim.run("hand")
    eq(clock(sim), "9:00")
    eq(t.config.level, 1)
    deal(sim)
    fold_out(sim)
    assert " ok " in wire(sim, "set", ["hand_for_hand", "off"])
    eq(level_clock(sim), "L1/9:00")  # runs on from what hand-for-hand left
    minutes(sim, 10)
    sim.run("hand")
    eq((t.config.level, t.config.bb), (2, 200))


def test_TOUR_1_the_level_clock_survives_power_cuts():
    from felt.sim.powerloss import KillFlash, PowerSim
    sim = level_sim(sim=PowerSim(KillFlash(None)))
    sim.config.levels = [dict(r) for r in LEVELS]  # the config every boot builds its table from
    assert " ok " in wire(sim, "set", ["level_clock", "start"])
    minutes(sim, 5)
    sim.restart()  # between hands: the entry is replayed with its time
    eq(level_clock(sim), "L1/15:00")
    sim.run("hand")  # compaction: the snapshot keeps the clock
    sim.restart()
    eq(level_clock(sim), "L1/15:00")
    deal(sim)
    minutes(sim, 16)
    sim.restart()
    eq(level_clock(sim), "L2/19:00")
    fold_out(sim)
    sim.run("hand")
    eq((sim.table.config.level, sim.table.config.bb), (2, 200))


def test_TOUR_1_a_break_refuses_new_hands_until_it_is_over():
    sim = tour_sim()
    t = sim.table
    t.config.levels = [{"sb": 50, "bb": 100, "minutes": 20}, {"is_break": True, "minutes": 10},
                       {"sb": 100, "bb": 200, "ante": 25, "minutes": 20}]
    assert " ok " in wire(sim, "set", ["level_clock", "start"])
    minutes(sim, 21)
    r = refused(sim, "TOUR-1", "newhand")
    assert "a break is in progress" in r, r
    eq((t.hand_no, t.config.level, t.config.bb), (0, 1, 100))
    minutes(sim, 10)
    assert " ok " in wire(sim, "newhand")
    eq((t.config.level, t.config.bb, t.config.ante), (3, 200, 25))


def test_TOUR_1_TOUR_6_a_board_whose_ms_counter_restarted_runs_the_clocks_on():
    # a real board's ticks_ms begins again at a reboot: the clocks' anchors from before the power
    # cut lie in the future; the loop's tick re-anchors them (the outage's length is not known)
    sim = level_sim()
    t = sim.table
    assert " ok " in wire(sim, "set", ["level_clock", "start"])
    t.level_clock.set_left(1, 600000, 10000000)  # 10:00 left in level 1, anchored at 10,000 s
    t.clock_tick(5000)  # rebooted: the counter is at 5 s
    eq(t.level_clock.peek(65000), (1, 540000, True))
    sim.run("hand")
    deal(sim)
    r = wire(sim, "floor", ["clock", 1])
    assert " ok " in r, r
    c = t.action_clock
    c._start_ms += 10000000  # as if started before a reboot
    t.clock_tick(7000)
    eq(c._start_ms, 7000)  # the full time again, from now
    assert "restarted after a power cut" in t.alerts[-1].text, t.alerts[-1].text
    t.clock_tick(7000 + 30000)
    eq(t.hand.live[t.position(1)], False)
