# Hand-for-hand at the table through the simulated FELT1 wire: `set hand_for_hand M:SS|MINUTES|on|off`
# (tournament only, also during the announcing hand). TOUR-8: every hand takes exactly 2 minutes off
# the level clock at its start, the next level applying from the hand at which it runs out; TOUR-10:
# an all-in and call is held ("HOLD -- await TD"), a draw before `floor continue` is alarmed and the
# card is not lost. Both survive a power cut (felt.recovery.restore). Runs under CPython and MicroPython.
from check import eq

from felt.sim.runner import Sim

from kit import refused, wire
from kit import LEVELS, clock, deal, fold_out, tour_sim


def h4h_alerts(t, rule):
    return [a.text for a in t.alerts if rule in a.rules]


def test_TOUR_8_the_rules_example_11_00_then_9_00_then_7_00():
    sim = tour_sim()
    t = sim.table
    sim.run("hand")
    deal(sim)
    r = wire(sim, "set", ["hand_for_hand", "11:00"])  # announced during this hand: it counts
    assert " ok " in r, r
    eq(clock(sim), "11:00")
    assert "level clock 11:00" in h4h_alerts(t, "TOUR-8")[-1], t.alerts
    fold_out(sim)
    sim.run("hand")
    eq(clock(sim), "9:00")
    eq(h4h_alerts(t, "TOUR-8"), ["hand-for-hand: level clock 9:00"])
    deal(sim)
    fold_out(sim)
    sim.run("hand")
    eq(clock(sim), "7:00")
    assert " ok " in wire(sim, "set", ["hand_for_hand", "off"])
    eq(clock(sim), "off")
    eq(t.level_clock, None)


def test_TOUR_8_a_level_runs_out_the_next_level_applies_from_that_hand_TOUR_1():
    sim = tour_sim()
    t = sim.table
    t.config.levels = [dict(r) for r in LEVELS]
    t.set_level(1)
    assert " ok " in wire(sim, "set", ["hand_for_hand", 3])  # whole minutes, between hands
    sim.run("hand")  # the first hand-for-hand hand takes its 2 minutes at its start
    eq((clock(sim), t.config.level, t.config.bb), ("1:00", 1, 100))
    deal(sim)
    fold_out(sim)
    sim.run("hand")  # 1:00 - 2:00: level 1 ran out; level 2 from this hand, the overrun off its 20:00
    eq((clock(sim), t.config.level, t.config.bb, t.config.ante), ("19:00", 2, 200, 25))
    eq(max(t.hand.bets), 200)  # the big blind posted at the new level
    assert "level 2 (100/200 ante 25) from this hand; level clock 19:00" in h4h_alerts(t, "TOUR-8")[0], t.alerts
    deal(sim)
    fold_out(sim)
    sim.run("hand")  # the last level runs on
    eq(clock(sim), "17:00")


def test_TOUR_8_the_clock_ran_out_without_a_level_table_stays_at_0_00():
    sim = tour_sim()
    t = sim.table
    assert " ok " in wire(sim, "set", ["hand_for_hand", "2:00"])
    sim.run("hand")
    eq(clock(sim), "0:00")
    assert "raise the blinds with floor level N" in h4h_alerts(t, "TOUR-8")[0], t.alerts
    eq(t.config.bb, 100)


def test_TOUR_8_a_refused_new_hand_takes_no_time_off_the_clock():
    sim = Sim()
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1 mode=tournament")
    sim.run("seat 1 1000")  # one player: no hand can start
    t = sim.table
    assert " ok " in wire(sim, "set", ["hand_for_hand", "5:00"])
    r = wire(sim, "newhand")
    assert " error " in r, r
    eq(clock(sim), "5:00")


def test_TOUR_8_hand_for_hand_refused_at_a_cash_table_and_a_bad_time_names_the_rule():
    sim = tour_sim(mode="cash")
    r = refused(sim, "TOUR-8", "set", ["hand_for_hand", "11:00"])
    assert "tournament setting" in r, r
    eq(sim.table.level_clock, None)
    sim = tour_sim()
    r = refused(sim, "TOUR-8", "set", ["hand_for_hand", "11:5"])
    eq(sim.table.level_clock, None)
    eq(sim.table.configure("hand_for_hand", -5), False)  # a direct caller's negative time
    eq(sim.table.alerts[-1].rules, ("TOUR-8",))
    eq(sim.table.level_clock, None)
    assert " ok " in wire(sim, "set", ["hand_for_hand", "on"])  # on, time not given: not counted
    sim.run("hand")
    eq(clock(sim), "on")
    assert "not known" in h4h_alerts(sim.table, "TOUR-8")[0]


def allin_called(sim):
    """Preflop three-handed: the button (seat 1) moves all-in, seat 2 folds, seat 3 calls."""
    t = sim.table
    eq(t.setup.seats[t.hand.actor], 1)
    assert " ok " in wire(sim, "allin", [1])
    assert " ok " in wire(sim, "fold", [2])
    assert " ok " in wire(sim, "call", [3])
    eq(t.hand.runout, True)


def run_board(sim, cards=("2d", "3h", "4s", "9c", "5h", "Td", "6s", "Jc")):
    for i in range(len(cards)):
        sim.run("draw %s to %s" % (cards[i], "burn" if i in (0, 4, 6) else "board"))


def test_TOUR_10_all_in_and_call_holds_the_hand_a_draw_is_alarmed_and_continue_releases():
    sim = tour_sim()
    t = sim.table
    assert " ok " in wire(sim, "set", ["hand_for_hand", "11:00"])
    sim.run("hand")
    deal(sim)
    allin_called(sim)
    got = [a for a in t.alerts if "TOUR-10" in a.rules]
    eq(len(got), 1, [a.line() for a in t.alerts])
    assert got[0].text.startswith("HOLD -- await TD"), got[0].text
    eq(got[0].level, "warn")
    eq(t.dc.held, True)
    from felt import view
    shown = view.lines(t)  # the display wraps its lines
    assert "!TOUR-10" in shown and "HOLD -- await TD" in " ".join(shown), shown
    sim.run("draw 2d to burn")  # before continue: alarmed, not dealt
    held = [a for a in t.alerts if "TOUR-10" in a.rules and "held for the TD" in a.text]
    eq(len(held), 1, [a.line() for a in t.alerts])
    eq((t.dc.burns, t.hand.burns, t.state), ([], [], "playing"))
    r = wire(sim, "floor", ["continue"])
    assert " ok " in r, r
    eq(t.dc.held, False)
    sim.run("remove 2d from burn")  # the card went back on the stub; drawn again as the burn
    run_board(sim)
    eq(t.state, "over")
    eq(len(t.hand.board), 5)
    eq(sum(t.stacks), 3000)
    eq(t.account()["shoe"], 52 - 6 - 8)


def test_TOUR_10_without_hand_for_hand_an_all_in_is_dealt_out():
    sim = tour_sim()
    t = sim.table
    sim.run("hand")
    deal(sim)
    allin_called(sim)
    eq(t.dc.held, False)
    run_board(sim)
    eq((t.state, len(t.hand.board), sum(t.stacks)), ("over", 5, 3000))


def test_TOUR_10_continue_without_a_hold_is_refused_naming_the_rule():
    sim = tour_sim()
    sim.run("hand")
    deal(sim)
    refused(sim, "TOUR-10", "floor", ["continue"])


def test_TOUR_10_hand_for_hand_off_ends_the_hold():
    sim = tour_sim()
    t = sim.table
    assert " ok " in wire(sim, "set", ["hand_for_hand", "on"])
    sim.run("hand")
    deal(sim)
    allin_called(sim)
    eq(t.dc.held, True)
    assert " ok " in wire(sim, "set", ["hand_for_hand", "off"])
    eq(t.dc.held, False)
    run_board(sim)
    eq((t.state, sum(t.stacks)), ("over", 3000))


def test_TOUR_8_TOUR_10_survive_power_cuts():
    from felt.sim.powerloss import KillFlash, PowerSim
    sim = tour_sim(sim=PowerSim(KillFlash(None)))
    assert " ok " in wire(sim, "set", ["hand_for_hand", "11:00"])
    sim.restart()  # between hands: the entry is replayed from the journal
    eq(clock(sim), "11:00")
    sim.run("hand")  # compaction: the snapshot keeps the setting
    eq(clock(sim), "9:00")
    sim.restart()  # mid-hand: snapshot + this hand's new_hand replayed (counted once)
    eq(clock(sim), "9:00")
    deal(sim)
    allin_called(sim)
    sim.restart()  # held: the replayed call holds again
    t = sim.table
    eq(t.dc.held, True)
    assert " ok " in wire(sim, "floor", ["continue"])
    sim.restart()
    t = sim.table
    eq(t.dc.held, False)
    run_board(sim)
    eq((t.state, sum(t.stacks)), ("over", 3000))
    sim.run("clear")
    sim.run("hand")
    eq(clock(sim), "7:00")


def test_TOUR_8_a_redeal_after_a_misdeal_is_the_same_hand_and_takes_no_time_DEAL_14():
    sim = tour_sim()
    t = sim.table
    assert " ok " in wire(sim, "set", ["hand_for_hand", "11:00"])
    sim.run("hand")
    eq(clock(sim), "9:00")
    deal(sim)
    r = wire(sim, "misdeal", (), {"rule": "DEAL-14"})
    assert " ok " in r, r
    eq((t.misdeals, t.hand_no), (1, 1))
    sim.run("clear")
    deal(sim)
    eq(clock(sim), "9:00")
    fold_out(sim)
    sim.run("hand")
    eq(clock(sim), "7:00")
