# TOUR-13 at the table: the console supplies the players left in the event (`set players_left N`,
# between hands, tournament only); at the final two a heads-up limit hand has no raise cap (BET-5
# event_heads_up_only), before that the cap of bet + 3 raises holds. The PHH replays either way.
# Runs under CPython and MicroPython.
from check import eq

from felt.sim.runner import Sim

from kit import replayed, wire


def limit_heads_up(players_left=None, histories=None):
    sim = Sim(history=histories.append if histories is not None else None)
    sim.run("table holdem limit seats=2 sb=10 bb=20 button=1 mode=tournament")
    sim.run("seat 1 5000")
    sim.run("seat 2 5000")
    t = sim.table
    if players_left is not None:
        eq(t.configure("players_left", players_left), True)
    sim.run("hand")
    for k in range(2):
        for seat in t.setup.seats:
            sim.run("draw %s to seat %d" % ((("Ah", "Kd"), ("Ac", "Kc"))[k][seat - 1], seat))
    return sim


def raise_five_times(sim):
    """Preflop: the button (seat 1) and the big blind (seat 2) raise in turn past the cap."""
    t = sim.table
    total = 40
    for _ in range(5):
        seat = t.setup.seats[t.hand.actor]
        r = wire(sim, "raise", [seat, total])
        if " error " in r:
            return total - 20, r
        total += 20
    return total - 20, None


def test_TOUR_13_example_nine_players_left_heads_up_pot_is_capped():
    sim = limit_heads_up(9)
    top, refused = raise_five_times(sim)
    eq(top, 80)  # bet (the big blind 20) + 3 raises: 40, 60, 80
    assert refused is not None and "BET-4" in refused, refused


def test_TOUR_13_example_final_two_raising_is_unlimited_and_the_PHH_replays():
    histories = []
    sim = limit_heads_up(2, histories)
    t = sim.table
    top, refused = raise_five_times(sim)
    eq((top, refused), (120, None))
    wire(sim, "call", [t.setup.seats[t.hand.actor]])
    for burn, board in (("2c", ("3d", "4h", "5s")), ("6c", ("7d",)), ("8h", ("9s",))):
        sim.run("draw %s to burn" % burn)
        for c in board:
            sim.run("draw %s to board" % c)
        for _ in range(2):
            wire(sim, "check", [t.setup.seats[t.hand.actor]])
    eq(t.state, "over")
    replayed(histories, t)
    assert "_felt_event_heads_up = true" in histories[-1], histories[-1]


def test_TOUR_13_players_left_refusals():
    sim = limit_heads_up()
    t = sim.table
    eq(t.configure("players_left", 3), False)  # a hand is in progress
    sim = Sim()
    sim.run("table holdem limit seats=2 sb=10 bb=20 button=1 mode=tournament")
    t = sim.table
    eq(t.configure("players_left", 1), False)
    eq(t.alerts[-1].rules, ("TOUR-13",))
    eq(t.configure("players_left", 2), True)
    eq(t.setting("players_left"), 2)
    sim = Sim()
    sim.run("table holdem limit seats=2 sb=10 bb=20 button=1")
    eq(sim.table.configure("players_left", 2), False)  # cash: no event
    eq(sim.table.alerts[-1].rules, ("TOUR-13",))


def test_TOUR_13_players_left_survives_a_power_cut_and_the_next_hand_compaction():
    from felt.sim.powerloss import KillFlash, PowerSim
    from felt.sim.runner import registry
    from felt.table.controller import Table, TableConfig

    class Fresh(PowerSim):
        def _make_table(self, history):  # each boot reads the configuration anew, as a board does
            return Table(TableConfig(game="holdem", structure="limit", seats=2, sb=10, bb=20, button=1,
                                     mode="tournament"), registry(), log=self._log, history=history)

    sim = Fresh(KillFlash(None))
    sim.run("table holdem limit seats=2 sb=10 bb=20 button=1 mode=tournament")
    sim.run("seat 1 5000")
    sim.run("seat 2 5000")
    # the table entry (the FELT1 console codec does not know the key yet: proto/console.py CONFIG_KEYS)
    eq(sim.table.configure("players_left", 2), True)
    sim.restart()
    eq(sim.table.config.players_left, 2)
    sim.run("hand")  # compaction: the snapshot keeps it
    sim.restart()
    eq((sim.table.config.players_left, sim.table.hand.event_heads_up), (2, True))
