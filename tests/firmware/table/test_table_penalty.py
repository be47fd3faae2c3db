# TOUR-17 penalties counted down by the table, through the simulated FELT1 wire: `floor penalty SEAT
# amount=N` (N rounds = N x the players at the table when given; N minutes under hr.penalty_unit =
# minutes), served from the next hand as a BLIND-23 seat -- dealt in, pays its blinds/antes/bring-in,
# its hand killed -- a redeal not counting (DEAL-14), a busted seat taking its penalty with it, the
# count surviving a power cut (felt.recovery.restore), every penalised hand's PHH replaying to the table's
# stacks. Cash tables record a penalty only. Runs under CPython and MicroPython.
from check import eq

from felt.sim.runner import Sim

from kit import refused, wire

CARDS = ("Ah", "Kd", "2c", "7s", "Ac", "Kc", "3d", "8s")
MIN_MS = 60000


def tour_sim(histories=None, extra="", stacks=None, sim=None):
    sim = sim or Sim(history=histories.append if histories is not None else None)
    sim.run("table holdem no_limit seats=4 sb=50 bb=100 button=1 mode=tournament " + extra)
    for s in (1, 2, 3, 4):
        sim.run("seat %d %d" % (s, (stacks or {}).get(s, 1000)))
    return sim


def replays(text, t):
    """The hand's PHH plays in felt.history.replay to the table's stacks of the hand's seats."""
    from felt.history import phh
    from felt.history import replay
    h = phh.read(text)
    r = replay.replay(h)
    assert "error" not in r, (r, h.actions)
    eq(r["finishing_stacks"], [t.stacks[s - 1] for s in t.setup.seats])


def play_hand(sim, histories=None):
    """Two hole cards to every seat dealt in, then every live seat folds in turn until the hand
    is over; the cards are taken off the table; the PHH of the hand replays."""
    t = sim.table
    seats = list(t.setup.seats)
    for k in range(2):
        for i in range(len(seats)):
            sim.run("draw %s to seat %d" % (CARDS[k * len(seats) + i], seats[i]))
    while t.state == "playing":
        wire(sim, "fold", [t.setup.seats[t.hand.actor]])
    eq(t.state, "over")
    if histories is not None:
        replays(histories[-1], t)
    sim.run("clear")


def penalty_alerts(t, seat):
    return [a for a in t.alerts if "TOUR-17" in a.rules and a.seat == seat]


def serving(t, seat):
    """Seat is dealt in this hand and its hand is dead (BLIND-23); the alert saying so."""
    p = t.position(seat)
    assert p is not None, t.setup.seats
    eq(t.hand.live[p], False)
    eq(t.killed.get(seat), "BLIND-23")
    got = penalty_alerts(t, seat)
    eq(len(got), 1, [a.line() for a in t.alerts])
    eq(got[0].level, "info")
    return got[0].text


def test_TOUR_17_one_round_at_four_players_is_four_dead_hands_then_the_seat_plays_BLIND_23():
    histories = []
    sim = tour_sim(histories)
    t = sim.table
    r = wire(sim, "floor", ["penalty", 2], {"rule": "BET-39", "amount": 1}, "one round")
    assert " ok " in r, r
    eq(t.penalties.left(2), 4)  # 1 round x 4 players, the offender included
    a = t.alerts[-1]
    eq((a.rules, a.seat, a.level), (("BET-39", "TOUR-17"), 2, "info"))
    assert "1 round x 4 players: 4 hands to serve" in a.text, a.text
    for left in (3, 2, 1, 0):
        sim.run("hand")
        text = serving(t, 2)
        if left:
            assert ("seat 2 serves a penalty: %d hand%s left after this one" % (left, "s" if left > 1 else "")) \
                in text, text
        else:
            assert "the last hand of it" in text, text
        eq(t.penalties.left(2), left)
        play_hand(sim, histories)
        eq(sum(t.stacks), 4000)
    # it posted its small blind (hand 1, lost) and its big blind (hand 4): everyone folded to the
    # small blind there, who won without calling, so the 50 of the dead big blind nobody matched
    # came back to it (POT-2, as for a killed bettor)
    eq(t.stacks[1], 900)
    sim.run("hand")  # served: seat 2 plays again
    eq(t.hand.live[t.position(2)], True)
    eq(t.killed, {})
    eq(penalty_alerts(t, 2), [])
    play_hand(sim, histories)
    eq(sum(t.stacks), 4000)
    eq(len(histories), 5)


def test_TOUR_17_a_redeal_is_the_same_hand_for_the_penalty_DEAL_14():
    histories = []
    sim = tour_sim(histories)
    t = sim.table
    assert " ok " in wire(sim, "floor", ["penalty", 3], {"amount": 1})
    sim.run("hand")
    serving(t, 3)
    eq(t.penalties.left(3), 3)
    assert " ok " in wire(sim, "misdeal")  # before any action: DEAL-14 redeal
    eq(t.misdeals, 1)
    eq(t.penalties.left(3), 3)  # the redeal does not count
    eq(t.hand.live[t.position(3)], False)  # dealt in again and killed
    eq(t.killed.get(3), "BLIND-23")
    assert [a for a in t.alerts if "TOUR-17" in a.rules and "3 hands left after this one" in a.text]
    play_hand(sim, histories)
    sim.run("hand")
    eq(t.penalties.left(3), 2)
    serving(t, 3)


def test_TOUR_17_a_second_penalty_adds_to_the_first():
    sim = tour_sim()
    t = sim.table
    assert " ok " in wire(sim, "floor", ["penalty", 4], {"amount": 1})
    sim.run("hand")
    eq(t.penalties.left(4), 3)
    assert " ok " in wire(sim, "floor", ["penalty", 4], {"amount": 2}, "abuse")  # during a hand: from the next
    eq(t.penalties.left(4), 11)
    assert "8 hands to serve" not in t.alerts[-1].text and "11 hands to serve" in t.alerts[-1].text, t.alerts[-1].text


def test_TOUR_17_refusals_name_the_rule_and_change_nothing():
    sim = tour_sim()
    t = sim.table
    r = refused(sim, "TOUR-17", "floor", ["penalty", 2], {"rule": "BET-39"}, "one round")
    assert "amount=ROUNDS" in r, r  # a tournament penalty the table would not count is refused
    refused(sim, "TOUR-17", "floor", ["penalty"], {"amount": 1})  # no seat
    refused(sim, "TOUR-17", "floor", ["penalty", 5], {"amount": 1}, None)  # no such seat (4 seats)
    eq(t.penalties, None)
    sim2 = tour_sim(extra="hr.penalty_unit=minutes")
    r = refused(sim2, "TOUR-17", "floor", ["penalty", 2])
    assert "amount=MINUTES" in r, r


def test_TOUR_17_cash_table_records_a_penalty_only_and_refuses_a_count():
    sim = Sim()
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1")
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    t = sim.table
    r = refused(sim, "TOUR-17", "floor", ["penalty", 2], {"amount": 1})
    assert "tournament rule" in r, r
    assert " ok " in wire(sim, "floor", ["penalty", 2], {"rule": "BET-39"}, "one round")
    assert "floor decision: penalty seat 2" in t.alerts[-1].text, t.alerts[-1].text
    eq(t.penalties, None)
    sim.run("hand")
    eq(t.killed, {})
    eq(t.hand.live, [True, True, True])


def test_TOUR_17_minutes_unit_TDA04_counts_the_loop_clock():
    histories = []
    sim = tour_sim(histories, extra="hr.penalty_unit=minutes")
    t = sim.table
    assert " ok " in wire(sim, "floor", ["penalty", 3], {"amount": 10})
    assert "10 min to serve" in t.alerts[-1].text, t.alerts[-1].text
    sim.run("hand")
    assert "seat 3 serves a penalty: 10 min left" in serving(t, 3)
    play_hand(sim, histories)
    sim.hal.clock.advance_ms(9 * MIN_MS)
    sim.run("hand")
    assert "seat 3 serves a penalty: 1 min left" in serving(t, 3)  # a few seconds went by dealing
    play_hand(sim, histories)
    sim.hal.clock.advance_ms(MIN_MS)
    sim.run("hand")
    eq(t.hand.live[t.position(3)], True)
    got = penalty_alerts(t, 3)
    assert got and "served its penalty time" in got[0].text, [a.line() for a in t.alerts]
    eq(t.penalties.seats(), [])
    play_hand(sim, histories)
    eq(sum(t.stacks), 4000)


def test_TOUR_17_a_seat_that_busts_takes_its_penalty_with_it():
    # seat 2 (100 chips) serves 2 rounds = 8 hands: it loses its 50 small blind in hand 1 and its
    # last 50 all-in as the big blind in hand 4, and is out; hand 5 says the penalty ends there
    histories = []
    sim = tour_sim(histories, stacks={2: 100})
    t = sim.table
    assert " ok " in wire(sim, "floor", ["penalty", 2], {"amount": 2})
    eq(t.penalties.left(2), 8)
    for _ in range(4):
        sim.run("hand")
        serving(t, 2)
        play_hand(sim, histories)
    eq(t.stacks[1], 0)
    eq(t.penalties.left(2), 4)
    sim.run("hand")
    eq(t.position(2), None)  # out: the seat is empty
    got = penalty_alerts(t, 2)
    assert got and "out with 4 hands of its penalty unserved" in got[0].text, [a.line() for a in t.alerts]
    eq(t.penalties.seats(), [])
    play_hand(sim, histories)
    eq(sum(t.stacks), 3100)


def test_TOUR_17_a_penalised_player_who_leaves_the_table_still_serves_BLIND_23():
    sim = tour_sim()
    t = sim.table
    assert " ok " in wire(sim, "floor", ["penalty", 4], {"amount": 1})
    sim.run("hand")
    play_hand(sim)
    t.button(4, "long")  # the player walks away: absent and penalised, dealt in and killed
    sim.run("hand")
    assert "2 hands left" in serving(t, 4)
    eq(t.penalties.left(4), 2)


def test_TOUR_17_stud_penalised_seat_with_the_bring_in_card_pays_it_and_is_killed_BLIND_23():
    from kit import bring_in_alert, deal_third_street
    sim = Sim()
    sim.run("table stud7 limit seats=4 ante=5 bring_in=10 small_bet=20 big_bet=40 button=4 mode=tournament")
    for s in (1, 2, 3, 4):
        sim.run("seat %d 1000" % s)
    t = sim.table
    assert " ok " in wire(sim, "floor", ["penalty", 1], {"amount": 1})
    sim.run("hand")
    eq(t.hand.live[t.position(1)], True)  # stud: killed when the initial deal is complete
    deal_third_street(sim, {1: "2c", 2: "Kd", 3: "9s", 4: "Qh"})
    eq(t.hand.live[t.position(1)], False)
    eq(t.hand.stacks[t.position(1)], 985)  # ante and bring-in
    assert bring_in_alert(t, 1), [a.line() for a in t.alerts]
    assert "3 hands left after this one" in penalty_alerts(t, 1)[0].text


def test_TOUR_17_the_count_survives_power_cuts():
    from felt.sim.powerloss import KillFlash, PowerSim
    sim = tour_sim(sim=PowerSim(KillFlash(None)))
    assert " ok " in wire(sim, "floor", ["penalty", 2], {"amount": 1})
    sim.restart()  # before any hand: the floor entry is replayed from the journal
    eq(sim.table.penalties.left(2), 4)
    sim.run("hand")
    play_hand(sim)
    sim.run("hand")
    eq(sim.table.penalties.left(2), 2)
    sim.restart()  # mid-hand: snapshot before this hand + its new_hand replayed (counted once)
    t = sim.table
    eq(t.penalties.left(2), 2)
    eq(t.hand.live[t.position(2)], False)
    eq(t.killed.get(2), "BLIND-23")
    play_hand(sim)
    sim.restart()  # between hands
    eq(sim.table.penalties.left(2), 2)
    sim.run("hand")
    eq(sim.table.penalties.left(2), 1)
    serving(sim.table, 2)
    play_hand(sim)
    sim.run("hand")
    assert "the last hand of it" in serving(sim.table, 2)
    sim.restart()
    play_hand(sim)
    sim.run("hand")
    t = sim.table
    eq(t.hand.live[t.position(2)], True)  # served: 4 hands in all across three power cuts
    eq(t.killed, {})
    play_hand(sim)
    eq(sum(t.stacks), 4000)


def test_TOUR_17_timed_penalty_survives_a_power_cut():
    from felt.sim.powerloss import KillFlash, PowerSim
    sim = tour_sim(sim=PowerSim(KillFlash(None)), extra="hr.penalty_unit=minutes")
    assert " ok " in wire(sim, "floor", ["penalty", 1], {"amount": 5})
    sim.run("hand")
    play_hand(sim)
    sim.hal.clock.advance_ms(3 * MIN_MS)
    sim.restart()
    sim.run("hand")
    assert "2 min left" in serving(sim.table, 1)
    play_hand(sim)
    sim.hal.clock.advance_ms(2 * MIN_MS)
    sim.restart()
    sim.run("hand")
    t = sim.table
    eq(t.hand.live[t.position(1)], True)


def test_TOUR_17_no_new_penalty_in_another_unit_while_one_is_served():
    sim = tour_sim()
    t = sim.table
    assert " ok " in wire(sim, "floor", ["penalty", 2], {"amount": 1})
    assert " ok " in wire(sim, "set", ["hr.penalty_unit", "minutes"])
    r = refused(sim, "TOUR-17", "floor", ["penalty", 3], {"amount": 10})
    assert "still served" in r, r
    eq((t.penalties.unit, t.penalties.seats()), ("hands", [2]))


# ---- engine/clock.py Penalties on its own -------------------------------------------------------

def test_TOUR_17_penalties_count_only_hands_the_seat_is_dealt_in_and_add_up():
    from felt.engine.between_hands.clocks import Penalties
    p = Penalties("hands")
    eq(p.give(4, rounds=1, players=3), 3)
    eq(p.hand_started(seats=[1, 2, 3]), [])  # seat 4 not dealt in: nothing served
    eq(p.left(4), 3)
    eq(p.give(4, rounds=1, players=3), 6)  # a second penalty adds to the first
    eq(p.hand_started(seats=[1, 4]), [4])
    eq(p.left(4), 5)
    eq(p.drop(4), 5)
    eq(p.seats(), [])


def test_TOUR_17_timed_penalty_clock_that_goes_back_counts_nothing_for_the_gap():
    from felt.engine.between_hands.clocks import Penalties
    p = Penalties("minutes")
    p.give(2, minutes=5, now_ms=1000000)
    eq(p.hand_started(now_ms=1000000 + 2 * MIN_MS), [2])  # 3 min left
    eq(p.left(2), 3 * MIN_MS)
    q = Penalties.load(p.data())  # the snapshot across a power cut
    eq((q.unit, q.left(2), q.seen_ms), ("minutes", 3 * MIN_MS, 1000000 + 2 * MIN_MS))
    eq(q.hand_started(now_ms=5000), [2])  # the board restarted: its clock began again
    eq(q.left(2), 3 * MIN_MS)
    eq(q.hand_started(now_ms=5000 + 3 * MIN_MS - 1), [2])
    eq(q.hand_started(now_ms=5000 + 3 * MIN_MS), [])
    eq(q.hand_started(now_ms=None), [])
    r = Penalties("minutes")
    r.give(1, minutes=1, now_ms=0)
    eq(r.hand_started(now_ms=None), [1])  # no time given: none counted
    eq(r.left(1), MIN_MS)


def test_POT_2_absent_big_blind_four_handed_everyone_folds_to_the_small_blind():
    # BLIND-23: seat 3 (the big blind) is away: dealt in, pays 100, killed. Seats 4 and 1 fold:
    # the small blind's is the last live hand. The dead 100 is layered with its payer's chips
    # (POT-17): the 50 the small blind matched is won, the 50 nobody matched goes back (POT-2)
    histories = []
    sim = tour_sim(histories)
    t = sim.table
    t.button(3, "long")
    sim.run("hand")
    eq(t.killed.get(3), "BLIND-23")
    play_hand(sim, histories)
    eq(t.stacks, [1000, 1050, 950, 1000])


def test_TOUR_17_heads_up_the_penalised_hand_is_killed_and_the_hand_ends_at_once_GAME_6():
    # two players left: killing the penalised big blind leaves one live hand, so the hand is over
    # before a card is dealt -- the other seat wins the blinds it matched, the PHH replays, the
    # next hand counts
    histories = []
    sim = Sim(history=histories.append)
    sim.run("table holdem no_limit seats=2 sb=50 bb=100 button=1 mode=tournament")
    sim.run("seat 1 1000")
    sim.run("seat 2 1000")
    t = sim.table
    assert " ok " in wire(sim, "floor", ["penalty", 2], {"amount": 1})
    eq(t.penalties.left(2), 2)
    sim.run("hand")
    eq(t.state, "over")
    # its big blind is its contribution (BLIND-23, POT-17): the 50 seat 1's small blind matched
    # is won, the 50 nobody matched goes back (POT-2), as when everyone folds to the small blind
    # 4-handed (test_POT_2_absent_big_blind_four_handed_everyone_folds_to_the_small_blind)
    eq(t.stacks, [1050, 950])
    got = penalty_alerts(t, 2)
    assert got and got[0].remedy == "deal no cards: the hand is over (GAME-6)", [a.line() for a in t.alerts]
    assert "but what nobody matched (POT-2)" in got[0].text, got[0].text
    eq(len(histories), 1)
    replays(histories[0], t)
    sim.run("hand")
    eq(t.state, "over")
    eq(t.penalties.seats(), [])
    eq(sum(t.stacks), 2000)
    replays(histories[1], t)
    sim.run("hand")
    eq(t.state, "playing")  # served: both play
    eq(t.hand.live, [True, True])
