# SHOW-19 at the table: the river's last actor holding the exclusive nuts who checks or only calls
# is flagged for the floor ("nut check seat N", hr.nut_check_last_to_act = flag_only), or the check
# is refused and the player must bet or raise (require_bet). Hold'em through the simulated wire.
# Runs under CPython and MicroPython.
from check import eq

from felt.sim.runner import Sim

from kit import wire


def to_the_river(rule=None, holes=(("Ac", "As"), ("Th", "9c"))):
    """Heads-up NL 50/100, button seat 1 (last to act after the flop). Seat 2 gets holes[0], seat
    1 holes[1]; board Ad 2c 7h 8s Jd, checked to the river, where seat 2 checks: seat 1 to act."""
    sim = Sim()
    sim.run("table holdem no_limit seats=2 sb=50 bb=100 button=1")
    sim.run("seat 1 1000")
    sim.run("seat 2 1000")
    t = sim.table
    if rule:
        eq(t.configure("hr.nut_check_last_to_act", rule), True)
    sim.run("hand")
    cards = {2: holes[0], 1: holes[1]}
    for k in range(2):
        for seat in t.setup.seats:
            sim.run("draw %s to seat %d" % (cards[seat][k], seat))
    wire(sim, "call", [1])
    wire(sim, "check", [2])
    for burn, board in (("3c", ("Ad", "2c", "7h")), ("4c", ("8s",)), ("5c", ("Jd",))):
        sim.run("draw %s to burn" % burn)
        for c in board:
            sim.run("draw %s to board" % c)
        wire(sim, "check", [2])
        if board[0] != "Jd":
            wire(sim, "check", [1])
    eq((t.hand.street, t.setup.seats[t.hand.actor]), (3, 1))
    return sim


def nut_alerts(t):
    return [a for a in t.alerts if "SHOW-19" in a.rules]


def test_SHOW_19_example_flag_only_the_exclusive_nuts_checked_last_is_flagged():
    sim = to_the_river()
    t = sim.table
    wire(sim, "check", [1])
    eq(t.state, "over")
    got = nut_alerts(t)
    eq(len(got), 1, [a.line() for a in t.alerts])
    eq(got[0].seat, 1)
    assert "nut check seat 1" in got[0].text, got[0].text


def test_SHOW_19_require_bet_the_check_is_refused_a_bet_is_taken():
    sim = to_the_river("require_bet")
    t = sim.table
    r = wire(sim, "check", [1])
    assert " error " in r and "SHOW-19" in r, r
    eq((t.state, t.setup.seats[t.hand.actor]), ("playing", 1))
    wire(sim, "bet", [1, 100])
    eq(t.setup.seats[t.hand.actor], 2)


def test_SHOW_19_no_flag_when_the_hand_is_not_the_nuts_or_not_last_to_act():
    sim = to_the_river(holes=(("Th", "9c"), ("Ac", "As")))  # the nuts are seat 2's, who acted first
    t = sim.table
    wire(sim, "check", [1])
    eq(t.state, "over")
    eq(nut_alerts(t), [])


def test_SHOW_19_a_chip_push_that_calls_is_looked_at_too():
    sim = to_the_river("require_bet")
    t = sim.table
    wire(sim, "bet", [1, 100])  # seat 1 (the nuts) bets; seat 2 raises; seat 1 facing 300
    wire(sim, "raise", [2, 300])
    eq(t.push(1, [200]), None)  # a silent push of the call: refused, bet or raise
    assert "SHOW-19" in t.alerts[-1].rules, t.alerts[-1].line()
    eq(t.setup.seats[t.hand.actor], 1)
