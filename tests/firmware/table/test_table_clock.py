# The clock on a player at the table through the simulated FELT1 wire (TOUR-6): `floor clock SEAT`
# puts the seat to act on the clock; the runtime loop's manual clock runs it (25 s + 5 s under
# hr.clock = tda2019, 60 s + 10 s under legacy_60_10); at expiry the table kills the hand or, with no
# bet pending under tda2019, records a check; an action before the expiry stands. Survives a power
# cut (the expiry is journaled and happens once). Runs under CPython and MicroPython.
from check import eq

from felt.sim.runner import Sim

from kit import deal, fold_out, tour_sim
from kit import refused, replayed, wire
from kit import actor, at, check_down


def clocked(sim, seat):
    """`floor clock SEAT` accepted; the loop's ms when it started."""
    r = wire(sim, "floor", ["clock", seat])
    assert " ok " in r, r
    c = sim.table.action_clock
    eq(c.seat, seat)
    return c._start_ms


def tour_alerts(t):
    return [a.text for a in t.alerts if "TOUR-6" in a.rules]


def test_TOUR_6_the_rules_example_facing_a_bet_the_hand_is_killed_at_30_0_s():
    histories = []
    sim = tour_sim(sim=Sim(history=histories.append))
    t = sim.table
    sim.run("hand")
    deal(sim)
    eq(actor(t), 1)  # three-handed preflop: the button faces the big blind's 100
    start = clocked(sim, 1)
    at(sim, start + 24999)
    eq(tour_alerts(t), ["clock on seat 1: 25 s + 5 s countdown"])
    at(sim, start + 25000)  # the countdown
    eq(tour_alerts(t)[-1], "seat 1: 5 s left")
    from felt import view
    assert "S1 CLOCK 0:05" in view.lines(t, start + 25000), view.lines(t, start + 25000)
    at(sim, start + 29999)
    eq(t.hand.live[t.position(1)], True)
    at(sim, start + 30000)
    eq(t.hand.live[t.position(1)], False)  # dead: the others act as if it had folded
    eq(t.action_clock, None)
    eq(tour_alerts(t)[-1], "seat 1's time expired: the hand is dead")
    shown = view.lines(t, start + 30000)
    assert "!TOUR-6" in shown, shown
    eq(actor(t), 2)
    assert " ok " in wire(sim, "call", [2])
    assert " ok " in wire(sim, "check", [3])
    check_down(sim)
    eq(t.state, "over")
    eq(sum(t.stacks), 3000)
    acts = replayed(histories, t)  # the PHH plays to the table's stacks
    killed = "p%d f" % (t.position(1) + 1)  # PHH players in engine order (the small blind first)
    assert [a for a in acts if a.startswith(killed)], acts  # the kill, written as a fold at its turn


def test_TOUR_6_not_facing_a_bet_the_expiry_is_a_check():
    sim = tour_sim()
    t = sim.table
    sim.run("hand")
    deal(sim)
    assert " ok " in wire(sim, "call", [1])
    assert " ok " in wire(sim, "call", [2])
    eq((actor(t), t.hand.legal().call), (3, 0))  # the big blind's option: no bet pending
    start = clocked(sim, 3)
    at(sim, start + 30000)
    eq(tour_alerts(t)[-1], "seat 3's time expired: check")
    eq(t.hand.live, [True, True, True])
    eq(t.hand.phase, "deal")  # the check closed the preflop round
    eq(t.hand.pot_total(), 300)


def test_TOUR_6_an_action_at_29_9_s_stands():
    sim = tour_sim()
    t = sim.table
    sim.run("hand")
    deal(sim)
    start = clocked(sim, 1)
    at(sim, start + 25000)
    sim.hal.clock.advance_to_us((start + 29895) * 1000)
    assert " ok " in wire(sim, "call", [1])  # read at 29.9 s
    assert sim.hal.clock.ticks_ms() - start < 30000
    eq(t.action_clock, None)
    at(sim, start + 31000)
    eq(t.hand.live, [True, True, True])
    eq(actor(t), 2)
    eq(tour_alerts(t), ["clock on seat 1: 25 s + 5 s countdown", "seat 1: 5 s left"])


def test_TOUR_6_only_the_seat_to_act_may_be_put_on_the_clock():
    sim = tour_sim()
    t = sim.table
    r = refused(sim, "TOUR-6", "floor", ["clock", 1])  # no hand yet
    assert "no seat is to act" in r, r
    sim.run("hand")
    deal(sim)
    r = refused(sim, "TOUR-6", "floor", ["clock", 3])
    assert "it is seat 1's turn, not seat 3's" in r, r
    eq(t.action_clock, None)
    cash = tour_sim(mode="cash")
    cash.run("hand")
    deal(cash)
    refused(cash, "TOUR-6", "floor", ["clock", 1])


def test_TOUR_6_legacy_60_10_the_hand_is_dead_even_with_no_bet_pending():
    sim = Sim()
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1 mode=tournament hr.clock=legacy_60_10")
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    t = sim.table
    sim.run("hand")
    deal(sim)
    assert " ok " in wire(sim, "call", [1])
    assert " ok " in wire(sim, "call", [2])
    start = clocked(sim, 3)
    eq(tour_alerts(t)[0], "clock on seat 3: 60 s + 10 s countdown")
    at(sim, start + 60000)
    eq(tour_alerts(t)[-1], "seat 3: 10 s left")
    at(sim, start + 69999)
    eq(t.hand.live[t.position(3)], True)
    at(sim, start + 70000)
    eq(t.hand.live[t.position(3)], False)
    eq(tour_alerts(t)[-1], "seat 3's time expired: the hand is dead")


def test_TOUR_6_a_new_hand_or_a_kill_turns_the_clock_off():
    sim = tour_sim()
    t = sim.table
    sim.run("hand")
    deal(sim)
    start = clocked(sim, 1)
    assert " ok " in wire(sim, "kill", [1])
    at(sim, start + 30000)
    eq(t.action_clock, None)
    eq([a for a in tour_alerts(t) if "time expired:" in a], [])
    fold_out(sim)
    sim.run("hand")
    eq(t.action_clock, None)


def test_TOUR_6_a_power_cut_while_the_clock_runs_the_expiry_happens_once():
    from felt.sim.powerloss import KillFlash, PowerSim
    sim = tour_sim(sim=PowerSim(KillFlash(None)))
    sim.run("hand")
    deal(sim)
    start = clocked(sim, 1)
    sim.restart()  # the clock entry is replayed with the time it was read at
    t = sim.table
    eq((t.action_clock.seat, t.action_clock._start_ms), (1, start))
    at(sim, start + 30000)
    eq(t.hand.live[t.position(1)], False)
    sim.restart()  # the expiry is replayed from the journal ...
    t = sim.table
    eq(t.hand.live[t.position(1)], False)
    eq(t.action_clock, None)
    at(sim, start + 40000)  # ... and not applied a second time
    sim.settle(sweeps=1)
    eq(tour_alerts(t).count("seat 1's time expired: the hand is dead"), 1)
    eq(actor(t), 2)
    assert " ok " in wire(sim, "call", [2])
    eq(t.hand.pot_total(), 200)
