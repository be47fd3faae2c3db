# Recovery of a tournament table from journals written by earlier firmware (felt.recovery.restore):
# tests/firmware/data/tournament_v1/ holds the flash files (one case: the raw ring's blocks) of a
# journaled table (PowerSim) cut off at a few points -- between hands, mid-level during a hand,
# paused, during hand-for-hand with an all-in held -- written by the firmware of 3dc967f (level clock
# and hand-for-hand in snapshot v 1's config). Each is booted with today's firmware; level, time
# left, blinds and hand-for-hand must be as they were (TOUR-1, TOUR-8, TOUR-10). The outage is not
# counted: a board's ms counter starts again at a reboot. Runs under CPython and MicroPython.
import os

import check
from check import eq

from felt.proto import console as proto
from felt.sim.powerloss import KillBlockDevice, KillFlash, PowerSim
from felt.table.controller import TableConfig

LEVELS = [{"sb": 50, "bb": 100, "minutes": 20}, {"sb": 100, "bb": 200, "ante": 25, "minutes": 20},
          {"sb": 150, "bb": 300, "ante": 25, "minutes": 20}]  # what capture.py's table had
HOLES = ("Ah", "Kd", "2c", "7s", "Ac", "Kc", "3d", "8s")


def _data_dir(name):
    # tests/firmware/data/tournament_v1/NAME, wherever under tests/firmware/ this file sits
    return check.repo_path("tests/firmware/data/tournament_v1/" + name)


def boot(name, levels=True):
    """A fresh board (its ms counter from 0) whose flash holds the captured files of `name` (or the
    blocks of its raw ring); the table is rebuilt by recovery, and the cards the journal has on the
    antennas are put back."""
    flash = KillFlash(None)
    d = _data_dir(name)
    for fname in os.listdir(d):
        if fname.endswith(".ring"):
            if not isinstance(flash, KillBlockDevice):
                flash = KillBlockDevice(None)  # the capture's ring: 24 blocks of 4096
            with open(d + "/" + fname, "rb") as f:
                block = f.read()
            b = int(fname[5:7])
            flash.data[b * flash.bs:(b + 1) * flash.bs] = block
        elif fname.endswith(".log"):
            with open(d + "/" + fname, "rb") as f:
                flash.files[fname] = bytearray(f.read())
    sim = PowerSim(flash)
    sim.build(TableConfig(game="holdem", structure="no_limit", seats=3, sb=50, bb=100, button=1,
                          mode="tournament", levels=[dict(r) for r in LEVELS] if levels else None))
    t = sim.table
    for hexu in sorted(t.onant):
        sim._place(t.onant[hexu], bytes([int(hexu[i:i + 2], 16) for i in range(0, len(hexu), 2)]))
    return sim


def wire(sim, verb, args=()):
    sim.seq = (sim.seq + 1) % 65536
    sim.console.feed(proto.encode(proto.Message(sim.seq, verb, args)))
    sim.settle(sweeps=0)
    got = [r for r in sim.replies if (" re=%d " % sim.seq) in r and (" ok " in r or " error " in r)]
    eq(len(got), 1, "replies to %s" % verb)
    return got[0]


def get(sim, key):
    r = wire(sim, "get", [key])
    assert " ok " in r, r
    return r.split("value=")[1].split()[0]


def ok(sim, verb, args=()):
    r = wire(sim, verb, args)
    assert " ok " in r, r


def minutes(sim, n):
    sim.hal.clock.advance_ms(n * 60000)
    sim.settle(sweeps=0)


def stakes(t):
    return (t.config.level, t.config.sb, t.config.bb, t.config.ante)


def deal(sim):
    seats = list(sim.table.setup.seats)
    for k in range(2):
        for i in range(len(seats)):
            sim.run("draw %s to seat %d" % (HOLES[k * len(seats) + i], seats[i]))


def fold_out(sim):
    t = sim.table
    while t.state == "playing":
        ok(sim, "fold", [t.setup.seats[t.hand.actor]])
    sim.run("clear")


def test_TOUR_1_between_hands_the_running_clock_comes_back_with_its_level_and_time_left():
    sim = boot("between_hands")
    t = sim.table
    eq(sim.reports[-1].lost, None)
    eq((t.state, t.hand_no), ("over", 1))
    eq(get(sim, "level_clock"), "L1/15:00")  # as journaled at hand 1's start; the outage not counted
    eq(get(sim, "hand_for_hand"), "off")
    eq(stakes(t), (1, 50, 100, 0))
    minutes(sim, 10)
    eq(get(sim, "level_clock"), "L1/5:00")  # it runs
    sim.run("hand")
    eq(stakes(t), (1, 50, 100, 0))
    deal(sim)
    fold_out(sim)
    minutes(sim, 6)
    sim.run("hand")  # level 1 ran out between hands: level 2 from this hand (TOUR-1)
    eq(stakes(t), (2, 100, 200, 25))
    eq(max(t.hand.bets), 200)
    eq(get(sim, "level_clock"), "L2/19:00")


def test_TOUR_1_mid_level_a_paused_clock_whose_level_ran_out_during_the_hand_applies_it_next_hand():
    sim = boot("mid_level_paused")
    t = sim.table
    eq(sim.reports[-1].lost.reason, "torn")  # the fold being journaled when the power went
    eq((t.state, t.hand_no), ("playing", 1))
    eq(stakes(t), (1, 50, 100, 0))  # hand 1 finishes at the level it started at (TOUR-1)
    eq(max(t.hand.bets), 100)
    minutes(sim, 30)  # paused: no time runs
    fold_out(sim)
    sim.run("hand")
    eq(stakes(t), (2, 100, 200, 25))
    eq(get(sim, "level_clock"), "L2/19:00/paused")
    ok(sim, "set", ["level_clock", "resume"])
    minutes(sim, 4)
    eq(get(sim, "level_clock"), "L2/15:00")


def test_TOUR_1_a_paused_clock_stays_paused_with_its_time_left():
    sim = boot("paused_between_hands")
    t = sim.table
    eq(get(sim, "level_clock"), "L1/11:00/paused")
    minutes(sim, 15)
    eq(get(sim, "level_clock"), "L1/11:00/paused")
    ok(sim, "set", ["level_clock", "resume"])
    minutes(sim, 11)
    sim.run("hand")
    eq(stakes(t), (2, 100, 200, 25))


def test_TOUR_8_TOUR_10_during_hand_for_hand_the_held_hand_and_the_countdown_come_back():
    sim = boot("h4h_held")
    t = sim.table
    eq(sim.reports[-1].lost.reason, "torn")  # the TD's `floor continue`: not taken, entered again
    eq((t.state, t.hand_no), ("playing", 2))
    eq(get(sim, "hand_for_hand"), "9:00")  # 11:00 at the announcement, 2:00 at hand 2's start
    eq(t.dc.held, True)  # TOUR-10: the all-in and call still waits for the TD
    eq(stakes(t), (1, 50, 100, 0))
    minutes(sim, 20)  # the level clock stands still during hand-for-hand
    eq(get(sim, "hand_for_hand"), "9:00")
    ok(sim, "floor", ["continue"])
    eq(t.dc.held, False)
    ok(sim, "set", ["hand_for_hand", "off"])
    eq(get(sim, "level_clock"), "L1/9:00")  # runs on from what hand-for-hand left
    minutes(sim, 1)
    eq(get(sim, "level_clock"), "L1/8:00")


def test_TOUR_8_a_level_that_ran_out_during_hand_for_hand_is_in_force_after_recovery():
    sim = boot("h4h_rollover")
    t = sim.table
    eq(get(sim, "hand_for_hand"), "19:00")
    eq(stakes(t), (2, 100, 200, 25))
    sim.run("hand")
    eq(get(sim, "hand_for_hand"), "17:00")
    eq(max(t.hand.bets), 200)
    deal(sim)
    fold_out(sim)
    ok(sim, "set", ["hand_for_hand", "off"])
    eq(get(sim, "level_clock"), "L2/17:00")


def test_TOUR_8_hand_for_hand_without_a_level_clock_mid_hand():
    sim = boot("h4h_no_level_clock", levels=False)
    t = sim.table
    eq((t.state, t.hand_no), ("playing", 2))
    eq(get(sim, "hand_for_hand"), "7:00")
    eq(get(sim, "level_clock"), "off")
    eq((t.config.sb, t.config.bb), (50, 100))
    fold_out(sim)
    sim.run("hand")
    eq(get(sim, "hand_for_hand"), "5:00")
    ok(sim, "set", ["hand_for_hand", "off"])
    eq((get(sim, "hand_for_hand"), get(sim, "level_clock")), ("off", "off"))


def test_TOUR_8_hand_for_hand_with_its_time_not_known():
    sim = boot("h4h_unknown", levels=False)
    eq(get(sim, "hand_for_hand"), "on")
    sim.run("hand")
    eq(get(sim, "hand_for_hand"), "on")
    eq(get(sim, "level_clock"), "off")


def test_TOUR_8_the_raw_flash_ring_of_the_pico_mid_hand_during_hand_for_hand():
    sim = boot("ring_h4h")
    t = sim.table
    eq(sim.reports[-1].lost.reason, "torn")
    eq((t.state, t.hand_no), ("playing", 2))
    eq(get(sim, "hand_for_hand"), "12:00")
    eq(get(sim, "level_clock"), "L1/12:00/paused")  # standing still during hand-for-hand
    eq(stakes(t), (1, 50, 100, 0))
    fold_out(sim)
    sim.run("hand")
    eq(get(sim, "hand_for_hand"), "10:00")
    deal(sim)
    fold_out(sim)
    ok(sim, "set", ["hand_for_hand", "off"])
    eq(get(sim, "level_clock"), "L1/10:00")


def test_TOUR_1_TOUR_8_console_entries_replayed_from_the_journal_alone():
    sim = boot("no_hand_yet")  # no snapshot yet: start, pause, resume and hand-for-hand replayed
    t = sim.table
    eq(sim.reports[-1].snapshot_seq, 0)
    eq(get(sim, "hand_for_hand"), "14:00")
    sim.run("hand")
    eq(get(sim, "hand_for_hand"), "12:00")
    eq(stakes(t), (1, 50, 100, 0))
    deal(sim)
    fold_out(sim)
    ok(sim, "set", ["hand_for_hand", "off"])
    eq(get(sim, "level_clock"), "L1/12:00")


def test_TOUR_1_TOUR_8_after_recovery_the_next_snapshot_is_the_new_form_and_restores_alike():
    from felt.recovery import journal as jr
    sim = boot("h4h_rollover")  # a v 1 snapshot (config.level_clock, config.hand_for_hand)
    sim.run("hand")  # compaction: today's snapshot of the table before this hand
    deal(sim)
    j = jr.Journal(sim.flash)
    j.open()
    snap = j.snapshot_value()
    eq(snap["v"], 2)
    eq("level_clock" in snap["config"] or "hand_for_hand" in snap["config"], False)
    eq(snap["level_clock"], {"n": 2, "left_ms": 1140000, "at_ms": None, "clock": True, "h4h": 2})
    sim.restart()  # mid-hand: the v 2 snapshot + this hand's inputs
    t = sim.table
    eq(get(sim, "hand_for_hand"), "17:00")
    eq(stakes(t), (2, 100, 200, 25))
    fold_out(sim)
    ok(sim, "set", ["hand_for_hand", "off"])
    eq(get(sim, "level_clock"), "L2/17:00")


def fresh():
    """A journaled board with an empty flash and the same table (three seats of 1,000)."""
    sim = PowerSim(KillFlash(None))
    sim.build(TableConfig(game="holdem", structure="no_limit", seats=3, sb=50, bb=100, button=1,
                          mode="tournament", levels=[dict(r) for r in LEVELS]))
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    return sim


def test_TOUR_1_the_floors_level_N_moves_the_running_clock_with_its_time_left():
    sim = fresh()
    t = sim.table
    ok(sim, "set", ["level_clock", "start"])
    minutes(sim, 5)
    t.set_level(2)  # the floor-key command `level 2` between hands: now
    eq(stakes(t), (2, 100, 200, 25))
    eq(get(sim, "level_clock"), "L2/15:00")
    sim.restart()  # the command is replayed from the journal
    t = sim.table
    eq(get(sim, "level_clock"), "L2/15:00")
    minutes(sim, 15)
    sim.run("hand")
    eq(stakes(t), (3, 150, 300, 25))
    eq(get(sim, "level_clock"), "L3/20:00")


def test_TOUR_8_the_level_clock_started_during_hand_for_hand_runs_on_from_its_count():
    sim = fresh()
    t = sim.table
    ok(sim, "set", ["hand_for_hand", "11:00"])  # no level yet, no level clock
    ok(sim, "set", ["level_clock", "start"])  # level 1 now; hand-for-hand's 11:00 is its time
    eq(stakes(t), (1, 50, 100, 0))
    sim.run("hand")
    eq(get(sim, "hand_for_hand"), "9:00")
    sim.restart()  # mid-hand: the v 2 snapshot and this hand's inputs
    t = sim.table
    eq(get(sim, "hand_for_hand"), "9:00")
    deal(sim)
    fold_out(sim)
    ok(sim, "set", ["hand_for_hand", "off"])
    eq(get(sim, "level_clock"), "L1/9:00")
    ok(sim, "set", ["level_clock", "off"])
    eq((get(sim, "level_clock"), t.level_clock), ("off", None))
