# Console `set` entries, rulings and floor commands survive a power cut (felt.recovery.restore): they are
# journaled like every other input, and the between-hands snapshot a new hand compacts the journal
# into keeps the settings they changed (blinds, house rules, level, structure, staged changes).
# The board boots each time with a fresh TableConfig built from its config file, as a real one does.
from check import eq

from felt.sim.powerloss import KillFlash, PowerSim
from felt.sim.runner import registry
from felt.table.controller import PLAYING, Table, TableConfig

LEVELS = [{"sb": 50, "bb": 100}, {"sb": 100, "bb": 200, "ante": 25}]


def _config():
    return TableConfig(game="holdem", structure="no_limit", seats=3, sb=50, bb=100, button=1,
                       levels=[dict(r) for r in LEVELS])


class FreshConfigSim(PowerSim):
    """PowerSim whose every boot reads the configuration anew (the sim's shared config object
    would otherwise carry changes across the power cut and hide a lost one)."""

    def _make_table(self, history):
        return Table(_config(), registry(), log=self._log, history=history)


def _sim():
    sim = FreshConfigSim(KillFlash(None))
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1")
    for seat in (1, 2, 3):
        sim.run("seat %d 1000" % seat)
    return sim


def _settings(table):
    c = table.config
    return (c.sb, c.bb, c.ante, c.structure, c.level)


def test_console_set_survives_a_power_cut_and_the_next_hand_compaction():
    sim = _sim()
    sim._send("set", ["sb", 75])
    sim._send("set", ["bb", 150])
    sim.settle(sweeps=0)
    eq((sim.table.config.sb, sim.table.config.bb), (75, 150))
    sim.restart()  # the set entries are replayed from the journal
    eq((sim.table.config.sb, sim.table.config.bb), (75, 150))
    sim.run("hand")  # compaction: snapshot (with the settings) + the new hand
    eq(sim.table.state, PLAYING)
    sim.restart()
    eq((sim.table.config.sb, sim.table.config.bb), (75, 150))
    eq(sim.table.state, PLAYING)


def test_floor_level_and_structure_survive_a_power_cut():
    sim = _sim()
    before = _settings(sim.table)
    sim.table.set_level(2)  # FloorDesk calls these after the floor key checked out (TOUR-1)
    sim.table.set_structure("pot_limit")
    after = _settings(sim.table)
    assert after != before, after
    eq(after[:5], (100, 200, 25, "pot_limit", 2))
    sim.restart()
    eq(_settings(sim.table), after)
    sim.run("hand")
    sim.restart()
    eq(_settings(sim.table), after)
    eq(sim.table.config.record.structure, "pot_limit")


def test_level_staged_during_a_hand_survives_and_applies_at_the_next_hand():
    sim = _sim()
    sim.run("hand")
    eq(sim.table.state, PLAYING)
    sim.table.set_level(2)  # TOUR-1: during a hand it waits for the next one
    eq(sim.table.config.bb, 100)
    sim.restart()
    eq(sim.table.staged, {"level": 2})
    eq(sim.table.config.bb, 100)


def test_house_rule_set_at_the_console_survives_the_compaction():
    sim = _sim()
    was = sim.table.config.house.get("hr.two_motion_raise")
    sim._send("set", ["hr.two_motion_raise", "false" if was else "true"])
    sim.settle(sweeps=0)
    eq(sim.table.config.house.get("hr.two_motion_raise"), not was)
    sim.run("hand")
    sim.restart()
    eq(sim.table.config.house.get("hr.two_motion_raise"), not was)


def test_a_killed_hand_stays_dead_after_a_power_cut():
    sim = _sim()
    sim.run("hand")
    sim._send("kill", [2])  # DEAL-38: the dealer kills seat 2's hand
    sim.settle(sweeps=0)
    assert 2 in sim.table.killed, sim.replies
    sim.restart()
    assert 2 in sim.table.killed, sim.table.killed
    eq(sim.table.state, PLAYING)
