# Table settings the rules forbid are refused by name, wherever they come from (issue 18 item 8):
# TableConfig (table.json, the bench and sim `table` statement), the console `set` between hands and
# a level table. GAME-1: a game's most players (stud 8, draw 6); BLIND-2: the small blind is the
# smaller blind; BET-1: limit's big bet is twice the small bet (never below it). And the sim's
# `wait` over a level clock's span (minutes of table time) settles instead of failing.
from check import eq, raises

from felt.errors import ConfigError, FormatError
from felt.sim.runner import Sim
from felt.table.controller import TableConfig

from kit import wire


def test_BLIND_2_a_small_blind_above_the_big_blind_is_refused():
    with raises(ConfigError, match="BLIND-2: the small blind (200) is above the big blind (100)"):
        TableConfig(game="holdem", structure="no_limit", seats=6, sb=200, bb=100)
    TableConfig(game="holdem", structure="no_limit", seats=6, sb=100, bb=100)  # equal blinds: allowed
    TableConfig(game="holdem", structure="no_limit", seats=6, sb=0, bb=100)  # no small blind (BLIND-12)


def test_BET_1_a_big_bet_below_the_small_bet_is_refused():
    with raises(ConfigError, match="BET-1: the big bet (50) is below the small bet (100)"):
        TableConfig(game="holdem", structure="limit", seats=6, sb=50, bb=100, small_bet=100, big_bet=50)
    with raises(ConfigError, match="BET-1"):
        TableConfig(game="stud7", structure="limit", seats=6, ante=5, bring_in=10, small_bet=40, big_bet=20)
    c = TableConfig(game="holdem", structure="limit", seats=6, sb=50, bb=100)
    eq((c.small_bet, c.big_bet), (100, 200))  # B = 2S by default


def test_GAME_1_a_table_with_more_seats_than_the_game_has_players_is_refused():
    for game, most in (("stud7", 8), ("stud7_8", 8), ("draw5", 6)):
        with raises(ConfigError, match="GAME-1"):
            TableConfig(game=game, structure="limit", seats=most + 1, sb=5, bb=10, ante=5, bring_in=5)
        TableConfig(game=game, structure="limit", seats=most, sb=5, bb=10, ante=5, bring_in=5)
    TableConfig(game="holdem", structure="no_limit", seats=10, sb=5, bb=10)


def test_BLIND_2_a_level_row_with_the_blinds_crossed_is_refused():
    with raises(ConfigError, match="BLIND-2: level 2"):
        TableConfig(game="holdem", structure="no_limit", seats=6, sb=50, bb=100, mode="tournament",
                    levels=[{"sb": 50, "bb": 100, "minutes": 20}, {"sb": 300, "bb": 200, "minutes": 20}])


def test_BLIND_2_BET_1_the_sim_table_statement_names_the_rule():
    for text, rule in (("table holdem no_limit seats=6 sb=200 bb=100", "BLIND-2"),
                       ("table holdem limit seats=6 bb=100 small_bet=100 big_bet=50", "BET-1"),
                       ("table stud7 limit seats=9 ante=5 bring_in=10 small_bet=20 big_bet=40", "GAME-1")):
        with raises(FormatError, match=rule):
            Sim().run(text)


def test_BLIND_2_the_console_set_between_hands_is_refused_and_nothing_changes():
    sim = Sim()
    for line in ("table holdem no_limit seats=3 sb=50 bb=100 button=1", "seat 1 1000", "seat 2 1000"):
        sim.run(line)
    r = wire(sim, "set", ["sb", 500])
    assert " error " in r, r
    eq((sim.table.config.sb, sim.table.config.bb), (50, 100))
    assert [a for a in sim.table.alerts if a.rules == ("BLIND-2",)], [a.line() for a in sim.table.alerts]
    r = wire(sim, "set", ["bb", 40])
    assert " error " in r, r
    eq((sim.table.config.sb, sim.table.config.bb), (50, 100))
    assert " ok " in wire(sim, "set", ["bb", 500])
    assert " ok " in wire(sim, "set", ["sb", 250])
    eq((sim.table.config.sb, sim.table.config.bb), (250, 500))


def test_TOUR_1_wait_runs_a_level_clock_through_its_levels():
    # `wait` of minutes of table time (it failed past ~60 s as "did not settle within 20000 steps")
    sim = Sim()
    for line in ("table holdem no_limit seats=3 sb=50 bb=100 button=1 mode=tournament "
                 "levels=50/100/0/1,100/200/25/1,break/1,150/300/25/1", "seat 1 1000", "seat 2 1000", "seat 3 1000",
                 "set level_clock start"):
        sim.run(line)
    eq(sim.snapshot()["oled"][2], "L1 1:00")
    sim.run("wait 150000")  # 2:30: level 2 ended 30 s ago, the break runs (30 s left, or 31 s: the
    eq(sim.snapshot()["oled"][2][:6], "L3 0:3")  # panel is refreshed every REFRESH_MS, seconds round up)
    sim.run("wait 60000")
    eq(sim.snapshot()["oled"][2][:6], "L4 0:3")
    sim.run("hand")
    eq(sim.snapshot()["stacks"], [975, 825, 675])  # level 4: 150/300 ante 25
