# The cash-game action timer (CASH-13) through the simulated FELT1 wire: with hr.cash_action_timer =
# N s every turn is timed by the runtime loop's manual clock; at expiry the table proposes killing
# the hand and the dealer confirms (the hand is dead) or rejects (the player acts on); an action
# first stops the timer and lapses the proposal. Survives a power cut. CPython and MicroPython.
from check import eq

from felt.sim.runner import Sim

from kit import actor, at, check_down
from kit import deal, tour_sim
from kit import replayed, wire


def cash_sim(sim=None, timer=60):
    return tour_sim(sim, "cash", "hr.cash_action_timer=%s" % timer)


def cash_alerts(t):
    return [(a.text, a.status) for a in t.alerts if "CASH-13" in a.rules]


def seat2_faces_a_bet(sim):
    """Preflop three-handed: seat 1 (the button) calls; seat 2 (the small blind) faces the 100. The
    loop's ms when seat 2's timer started."""
    t = sim.table
    sim.run("hand")
    deal(sim)
    eq(actor(t), 1)
    eq(t.action_clock.seat, 1)  # the first turn is timed too
    assert " ok " in wire(sim, "call", [1])
    eq(actor(t), 2)
    c = t.action_clock
    eq((c.seat, c.facing_bet), (2, True))
    return c._start_ms


def test_CASH_13_the_rules_example_at_60_s_the_engine_proposes_the_kill():
    sim = cash_sim()
    t = sim.table
    start = seat2_faces_a_bet(sim)
    from felt import view
    assert "S2 CLOCK 1:00" in view.lines(t, start), view.lines(t, start)
    at(sim, start + 59999)
    eq(cash_alerts(t), [])
    assert "S2 CLOCK 0:01" in view.lines(t, start + 59999), view.lines(t, start + 59999)
    at(sim, start + 60000)
    eq(cash_alerts(t), [("seat 2's time ran out: kill the hand?", "proposed")])
    eq(t.hand.live[t.position(2)], True)  # only proposed: the dealer decides
    eq(len(t.pending()), 1)
    shown = view.lines(t, start + 60000)
    assert "!CASH-13" in shown and [ln for ln in shown if "#%d" % t.pending()[0].id in ln], shown
    at(sim, start + 90000)  # not proposed twice
    eq(len(cash_alerts(t)), 1)


def test_CASH_13_an_action_before_expiry_stops_the_timer():
    sim = cash_sim()
    t = sim.table
    start = seat2_faces_a_bet(sim)
    at(sim, start + 59000)
    assert " ok " in wire(sim, "call", [2])
    eq(actor(t), 3)
    eq(t.action_clock.seat, 3)  # the big blind's turn has its own 60 s
    at(sim, start + 60000)
    eq(cash_alerts(t), [])
    eq(t.hand.live, [True, True, True])


def test_CASH_13_an_action_after_the_proposal_lapses_it():
    sim = cash_sim()
    t = sim.table
    start = seat2_faces_a_bet(sim)
    at(sim, start + 60000)
    aid = t.pending()[0].id
    assert " ok " in wire(sim, "call", [2])  # the player acted before the dealer ruled
    eq(cash_alerts(t), [("seat 2's time ran out: kill the hand?", "lapsed")])
    eq(t.pending(), [])
    wire(sim, "confirm", [aid])
    eq(t.hand.live, [True, True, True])


def test_CASH_13_reject_lets_the_player_act_on():
    sim = cash_sim()
    t = sim.table
    start = seat2_faces_a_bet(sim)
    at(sim, start + 60000)
    aid = t.pending()[0].id
    assert " ok " in wire(sim, "reject", [aid])
    eq(cash_alerts(t), [("seat 2's time ran out: kill the hand?", "rejected")])
    at(sim, start + 200000)
    eq(len(cash_alerts(t)), 1)  # no new timer on the same turn
    eq(t.hand.live, [True, True, True])
    assert " ok " in wire(sim, "call", [2])
    eq(actor(t), 3)
    eq(t.action_clock.seat, 3)


def test_CASH_13_confirm_kills_the_hand_chips_conserved_and_the_PHH_replays():
    histories = []
    sim = cash_sim(sim=Sim(history=histories.append))
    t = sim.table
    start = seat2_faces_a_bet(sim)
    at(sim, start + 60000)
    aid = t.pending()[0].id
    assert " ok " in wire(sim, "confirm", [aid])
    eq(cash_alerts(t)[0], ("seat 2's time ran out: kill the hand?", "confirmed"))
    eq(t.hand.live[t.position(2)], False)
    eq(actor(t), 3)
    eq(t.action_clock.seat, 3)
    assert " ok " in wire(sim, "check", [3])
    check_down(sim)
    eq(t.state, "over")
    eq(sum(t.stacks), 3000)
    eq(t.stacks[1], 950)  # the small blind is lost
    replayed(histories, t)  # the PHH plays to the table's stacks


def test_CASH_13_off_no_timer():
    sim = cash_sim(timer="off")
    t = sim.table
    sim.run("hand")
    deal(sim)
    assert " ok " in wire(sim, "call", [1])
    at(sim, sim.hal.clock.ticks_ms() + 600000)
    eq(t.action_clock, None)
    eq(cash_alerts(t), [])
    eq(actor(t), 2)


def test_CASH_13_a_tournament_table_is_not_timed():
    sim = tour_sim()
    t = sim.table
    sim.run("hand")
    deal(sim)
    at(sim, sim.hal.clock.ticks_ms() + 600000)
    eq(t.action_clock, None)
    eq(t.hand.live, [True, True, True])


def test_CASH_13_a_power_cut_while_the_timer_runs_the_proposal_is_made_once():
    from felt.sim.powerloss import KillFlash, PowerSim
    sim = cash_sim(sim=PowerSim(KillFlash(None)))
    start = seat2_faces_a_bet(sim)
    sim.restart()  # the timer's start is replayed with the time it was read at
    t = sim.table
    eq((t.action_clock.seat, t.action_clock._start_ms), (2, start))
    at(sim, start + 60000)
    eq(len(t.pending()), 1)
    sim.restart()  # the expiry is replayed from the journal ...
    t = sim.table
    eq(cash_alerts(t), [("seat 2's time ran out: kill the hand?", "proposed")])
    at(sim, start + 70000)  # ... and not proposed a second time
    sim.settle(sweeps=1)
    eq(len(cash_alerts(t)), 1)
    aid = t.pending()[0].id
    assert " ok " in wire(sim, "confirm", [aid])
    eq(t.hand.live[t.position(2)], False)
    eq(actor(t), 3)
