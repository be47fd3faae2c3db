# POT-20 / CASH-7: the rake of hr.rake comes off the pot before it is divided (cash games), in the
# engine Hand and at the table, whose PHH records the rake so that felt.history.replay gives the same
# stacks. Runs under CPython and MicroPython.
from check import eq

from felt.engine.hand.machine import Hand
from felt.sim.runner import Sim

from kit import replayed, wire

RAKE = {"percent": 5, "cap": 150}


def heads_up_to_river(rules, bet):
    """NL 100/200 heads-up: the button calls, both check to the river, position 0 bets `bet`,
    the button calls; position 0 (Ac Ad) beats the button (Kc Kd) at the showdown."""
    h = Hand("NT", [10000, 10000], blinds=[100, 200], rules=rules)
    h.deal_hole(0, [48, 49])
    h.deal_hole(1, [44, 45])
    h.check_call(1)
    h.check_call(0)
    for burn, board in ((0, [1, 6, 11]), (16, [21]), (26, [31])):
        h.burn(burn)
        h.deal_board(board)
        if h.street < 3:
            h.check_call(h.actor)
            h.check_call(h.actor)
    h.bet_raise_to(0, bet)
    h.check_call(1)
    for p in h.show_order():
        h.show(p)
    eq(h.finished, True)
    return h


def test_POT_20_example_five_percent_of_2400_is_120_taken_before_the_award():
    h = heads_up_to_river({"rake": RAKE}, 1000)  # pot 2 x 200 + 2 x 1,000 = 2,400
    eq(h.stacks, [10000 - 1200 + 2400 - 120, 10000 - 1200])
    eq(sum([a.amount for a in h.results]), 2280)


def test_CASH_7_example_the_cap_holds_on_a_pot_of_4000():
    h = heads_up_to_river({"rake": RAKE}, 1800)  # pot 4,000: 5 % is 200, capped at 150
    eq(h.stacks, [10000 - 2000 + 4000 - 150, 10000 - 2000])


def test_POT_20_no_rake_by_default_and_none_in_a_tournament():
    eq(heads_up_to_river(None, 1000).stacks, [11200, 8800])
    eq(heads_up_to_river({"mode": "tournament", "rake": RAKE}, 1000).stacks, [11200, 8800])


def test_POT_20_table_takes_the_rake_and_its_PHH_replays_to_the_same_stacks():
    histories = []
    sim = Sim(history=histories.append)
    sim.run("table holdem no_limit seats=2 sb=100 bb=200 button=1")
    sim.run("seat 1 10000")
    sim.run("seat 2 10000")
    t = sim.table
    eq(t.configure("hr.rake", {"percent": 5, "cap": 150}), True)
    sim.run("hand")
    seats = list(t.setup.seats)  # heads-up: the big blind (position 0) first
    for card, seat in (("Ac", seats[0]), ("Kc", seats[1]), ("Ad", seats[0]), ("Kd", seats[1])):
        sim.run("draw %s to seat %d" % (card, seat))
    wire(sim, "call", [seats[1]])
    wire(sim, "check", [seats[0]])
    for burn, board in (("2c", ("3d", "4h", "5s")), ("6c", ("7d",)), ("8h", ("9s",))):
        sim.run("draw %s to burn" % burn)
        for c in board:
            sim.run("draw %s to board" % c)
        if board[0] != "9s":
            wire(sim, "check", [seats[0]])
            wire(sim, "check", [seats[1]])
    wire(sim, "bet", [seats[0], 1000])
    wire(sim, "call", [seats[1]])
    eq(t.state, "over")
    eq(sorted(t.stacks), [8800, 10000 - 1200 + 2400 - 120])
    eq(sum(t.stacks), 20000 - 120)
    eq(t.results[-1], "rake 120 (POT-20)")
    replayed(histories, t)
