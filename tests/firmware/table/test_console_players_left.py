# TOUR-13 on the FELT1 wire: `set players_left N` reaches the table (between hands, tournament only)
# and a refusal names the rule on the console reply. Runs under CPython and MicroPython.
from check import eq

from felt.proto import console as proto
from felt.sim.runner import Sim
from kit import wire  # one console line through the sim wire, the table's reply


def test_TOUR_13_players_left_is_a_console_configuration_key():
    eq(proto._p_key("players_left"), "players_left")
    line = proto.encode(proto.Message(4, "set", ["players_left", 2]))
    eq(proto.decode_line(line[:-2], proto.CONSOLE).args, ["players_left", 2])


def test_TOUR_13_set_players_left_through_the_wire():
    sim = Sim()
    sim.run("table holdem limit seats=2 sb=10 bb=20 button=1 mode=tournament")
    r = wire(sim, "set", ["players_left", 2])
    assert " ok " in r, r
    eq(sim.table.config.players_left, 2)


def test_TOUR_13_players_left_refused_at_a_cash_table_names_the_rule():
    sim = Sim()
    sim.run("table holdem limit seats=2 sb=10 bb=20 button=1")
    r = wire(sim, "set", ["players_left", 2])
    assert " error " in r and "TOUR-13" in r, r
    eq(sim.table.config.players_left, None)
