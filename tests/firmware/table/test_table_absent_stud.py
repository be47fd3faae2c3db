# BLIND-23 in the stud family through the simulated table (FELT1 wire, sim shoe and antennas):
# 7-card stud hi-lo (GAME-13: the bring-in is the lowest upcard, as GAME-11) and razz (as pokerkit:
# the HIGHEST upcard brings in, ace low). An absent tournament seat is dealt in and antes; if its
# upcard brings in, the table posts the bring-in for it; its hand is killed when the initial deal
# is complete. Chips are conserved and the PHH replays to the table's stacks. CPython and MicroPython.
from check import eq

from felt.sim.runner import Sim
from felt.table.controller import TableConfig

from kit import replayed, wire
from kit import bring_in_alert, deal_third_street


def stud_sim(game, histories, absent, record=None):
    """A 4-seat limit stud tournament (ante 5, bring-in 10, 20/40), button seat 4, every seat 1000,
    the `absent` seats away; `record`: a Game record to play instead of the configured stud7
    (razz is not a GAME-1 table game, so its engine record is put into the configuration)."""
    sim = Sim(history=histories.append)
    cfg = TableConfig(game=game, structure="limit", seats=4, ante=5, bring_in=10, small_bet=20, big_bet=40,
                      button=4, mode="tournament")
    if record is not None:
        from felt.engine.house import rules as settings
        cfg.record = record
        cfg.house = settings.HouseRules(cfg.mode, record.code, {})
    sim.build(cfg)
    for s in (1, 2, 3, 4):
        sim.run("seat %d 1000" % s)
    for s in absent:
        sim.table.button(s, "long")  # the player leaves before the hand: absent (BLIND-23)
    sim.run("hand")
    return sim


def play_out(sim, live, cards):
    """4th..7th street to the `live` seats, each street burned first, every live seat checking."""
    t = sim.table
    for street in cards:
        sim.run("draw %s to burn" % street[0])
        for i in range(len(live)):
            sim.run("draw %s to seat %d" % (street[1 + i], live[i]))
        for _ in range(len(live)):
            if t.state == "playing" and t.hand.actor is not None:
                wire(sim, "check", [t.setup.seats[t.hand.actor]])


def test_BLIND_23_GAME_13_stud_hi_lo_absent_seat_with_the_lowest_upcard_pays_the_bring_in():
    # Seats 2 and 4 are away. Seat 2 shows the lowest upcard (3c): the table posts the 10 bring-in
    # for it and kills it; seat 4 (9d up) is killed too. Seats 1 and 3 play to a showdown.
    histories = []
    sim = stud_sim("stud7_8", histories, absent=(2, 4))
    t = sim.table
    eq(sorted(t.setup.seats), [1, 2, 3, 4])
    eq(t.hand.pot_total(), 20)  # four antes
    deal_third_street(sim, {1: "Kc", 2: "3c", 3: "Qs", 4: "9d"})
    eq(t.hand.live[t.position(2)], False)
    eq(t.hand.live[t.position(4)], False)
    eq((t.killed.get(2), t.killed.get(4)), ("BLIND-23", "BLIND-23"))
    eq(t.hand.stacks[t.position(2)], 985)  # ante 5 + the bring-in 10
    eq(t.hand.stacks[t.position(4)], 995)  # ante only
    eq(t.hand.pot_total(), 30)
    assert bring_in_alert(t, 2), [a.line() for a in t.alerts]
    assert not bring_in_alert(t, 4), [a.line() for a in t.alerts]
    eq(t.setup.seats[t.hand.actor], 3)  # the action goes on left of the bring-in
    wire(sim, "call", [3])
    wire(sim, "call", [1])
    eq(t.hand.street, 1)
    play_out(sim, (1, 3), (("5c", "7c", "Ks"), ("5s", "8c", "3d"), ("6s", "9c", "4d"), ("6c", "Jc", "Jd")))
    eq(t.state, "over")
    eq((t.stacks[1], t.stacks[3]), (985, 995))
    eq(sum(t.stacks), 4000)
    assert not [a for a in t.alerts if a.level == "warn"], [a.line() for a in t.alerts]
    replayed(histories, t)


def test_BLIND_23_razz_absent_seat_with_the_highest_upcard_pays_the_bring_in():
    # Razz: the HIGHEST upcard brings in (ace low, as pokerkit). Away seat 3 shows the Kc: the
    # table posts its bring-in and kills it. Away seat 1 shows the 2c -- the card that would bring
    # in at 7-card stud -- and is only killed: its ante is all it pays.
    from felt.engine.games import GAMES
    histories = []
    sim = stud_sim("stud7", histories, absent=(1, 3), record=GAMES["FR"])
    t = sim.table
    eq(t.config.record.code, "FR")
    deal_third_street(sim, {1: "2c", 2: "7d", 3: "Kc", 4: "8h"})
    eq((t.killed.get(1), t.killed.get(3)), ("BLIND-23", "BLIND-23"))
    eq(t.hand.stacks[t.position(3)], 985)  # ante 5 + bring-in 10
    eq(t.hand.stacks[t.position(1)], 995)
    eq(t.hand.pot_total(), 30)
    assert bring_in_alert(t, 3), [a.line() for a in t.alerts]
    assert not bring_in_alert(t, 1), [a.line() for a in t.alerts]
    eq(t.setup.seats[t.hand.actor], 4)  # left of the bring-in seat 3
    wire(sim, "call", [4])
    wire(sim, "call", [2])
    eq(t.hand.street, 1)
    play_out(sim, (2, 4), (("5c", "3c", "Ks"), ("5s", "4c", "3d"), ("6s", "9c", "4d"), ("6c", "Jc", "Jd")))
    eq(t.state, "over")
    eq((t.stacks[0], t.stacks[2]), (995, 985))
    eq(sum(t.stacks), 4000)
    assert not [a for a in t.alerts if a.level == "warn"], [a.line() for a in t.alerts]
    replayed(histories, t)


def test_BLIND_23_razz_absent_seat_that_does_not_bring_in_is_killed_and_the_live_high_card_brings_in():
    # Away seat 2 shows the lowest card (Ac: the best razz card); live seat 4 shows the Kd and
    # brings in itself. Seat 2 is killed at the end of the deal having paid its ante only.
    from felt.engine.games import GAMES
    histories = []
    sim = stud_sim("stud7", histories, absent=(2,), record=GAMES["FR"])
    t = sim.table
    deal_third_street(sim, {1: "5d", 2: "2h", 3: "6c", 4: "Kd"})
    eq(t.killed.get(2), "BLIND-23")
    eq(t.hand.stacks[t.position(2)], 995)
    eq(t.setup.seats[t.hand.opener], 4)
    eq(t.setup.seats[t.hand.actor], 4)  # the bring-in is the live seat's own to post
    wire(sim, "bringin", [4])
    wire(sim, "call", [1])
    wire(sim, "call", [3])
    eq(t.hand.street, 1)
    play_out(sim, (1, 3, 4), (("5c", "3c", "Ks", "8s"), ("5s", "4c", "3d", "8d"), ("6s", "9c", "4d", "9h"),
                              ("6d", "Jc", "Jd", "Js")))
    eq(t.state, "over")
    eq(t.stacks[1], 995)
    eq(sum(t.stacks), 4000)
    replayed(histories, t)
