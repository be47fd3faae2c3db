# Counts a player asks for and the bad-beat jackpot at the table (issue 14, item 3): console `pot`
# (BET-26, hr.public_pot_display) and `count` (BET-48, hr.stack_display) answered -- reply and the
# display's public line -- as the house rule says; the jackpot (CASH-8..12) under hr.bbj_hand: the
# drop into the fund (CASH-12, POT-20), a qualifying showdown paid out (CASH-8..11), the fund kept
# across hands and power cuts and in the hand history. Runs under CPython and MicroPython.
from check import eq

from felt import view
from felt.proto import console as proto
from felt.sim.runner import Sim


def wire(sim, verb, args=(), opts=None):
    sim.seq = (sim.seq + 1) % 65536
    sim.console.feed(proto.encode(proto.Message(sim.seq, verb, args, opts)))
    sim.settle(sweeps=0)
    got = [r for r in sim.replies if (" re=%d " % sim.seq) in r and (" ok " in r or " error " in r)]
    assert len(got) == 1, (verb, sim.replies)
    return proto.decode_line(got[0].encode())


def actor(t):
    return t.setup.seats[t.hand.actor] if t.hand.actor is not None else None


def three(line, stacks=(20000, 20000, 20000), cards=("2c", "3c", "4c", "2d", "3d", "4d")):
    sim = Sim()
    sim.run(line)
    for s in range(3):
        sim.run("seat %d %d" % (s + 1, stacks[s]))
    sim.run("hand")
    for i in range(6):
        sim.run("draw %s to seat %d" % (cards[i], (2, 3, 1)[i % 3]))
    return sim


def pl_turn(extra=""):
    # PL 100/200: all call preflop (pot 600); flop: seat 2 bets 600, seat 3 raises the pot to 2,400
    # (600 + 600 + the 600 call, plus the call), seat 1 folds, seat 2 calls: pot 5,400 on the turn
    sim = three("table holdem pot_limit seats=3 sb=100 bb=200 button=1 " + extra)
    t = sim.table
    sim.run("act 1 call")
    sim.run("act 2 call")
    sim.run("act 3 check")
    sim.run("draw 9s to burn")
    for c in ("5h", "6h", "Jd"):
        sim.run("draw %s to board" % c)
    sim.run("act 2 bet 600")
    sim.run("act 3 raise 2400")
    sim.run("act 1 fold")
    sim.run("act 2 call")
    sim.run("draw 9d to burn")
    sim.run("draw Ks to board")
    eq(actor(t), 2)
    return sim


def test_BET_26_pot_limit_player_to_act_gets_the_pot_and_the_maximum():
    sim = pl_turn()
    t = sim.table
    r = wire(sim, "pot")
    eq((r.verb, r.opts.get("pot"), r.opts.get("max")), ("ok", 5400, 5400))
    assert "S2 POT 5400 M5400" in view.lines(t) or "S2 POT 5400 MAX 5400" in view.lines(t), view.lines(t)
    sim.run("act 2 check")  # the public line goes with the next action
    assert not [ln for ln in view.lines(t) if "5400 M" in ln], view.lines(t)


def test_BET_26_only_the_player_to_act_is_given_the_count():
    sim = pl_turn()
    r = wire(sim, "pot", [3])
    eq((r.verb, r.opts.get("rule")), ("error", "BET-26"))


def test_BET_26_no_limit_publishes_no_pot_count():
    sim = three("table holdem no_limit seats=3 sb=100 bb=200 button=1")
    t = sim.table
    r = wire(sim, "pot")
    eq((r.verb, r.opts.get("rule")), ("error", "BET-26"))
    assert "!BET-26" in view.lines(t), view.lines(t)
    assert "POT 300" in view.lines(t), view.lines(t)  # the dealer's status line keeps the pot


def test_BET_26_hr_public_pot_display_always_and_never():
    sim = three("table holdem no_limit seats=3 sb=100 bb=200 button=1 hr.public_pot_display=always")
    r = wire(sim, "pot")
    eq((r.verb, r.opts.get("pot"), r.opts.get("max")), ("ok", 300, None))  # no pot-limit maximum in NL
    sim = pl_turn("hr.public_pot_display=never")
    eq(wire(sim, "pot").opts.get("rule"), "BET-26")


def allin_tournament():
    # NL 100/200 tournament: seat 1 (the button, first to act three-handed) is all-in for 12,350
    sim = three("table holdem no_limit seats=3 sb=100 bb=200 button=1 mode=tournament",
                stacks=(12350, 20000, 20000))
    sim.run("act 1 allin")
    eq(actor(sim.table), 2)
    return sim


def test_BET_48_tournament_precise_count_for_the_player_facing_the_all_in():
    sim = allin_tournament()
    t = sim.table
    r = wire(sim, "count", [1])
    eq((r.verb, r.opts.get("stack"), r.opts.get("approx")), ("ok", 12350, 0))
    assert "S1 ALLIN 12350" in view.lines(t), view.lines(t)


def test_BET_48_tournament_no_precise_count_for_a_player_not_facing_the_bet():
    sim = allin_tournament()
    eq(wire(sim, "count", [1, 3]).opts.get("rule"), "BET-48")  # seat 3 is not next to act
    eq(wire(sim, "count", [3]).opts.get("rule"), "BET-48")  # seat 3 is not all-in


def test_BET_48_cash_approximate_count_any_time():
    sim = three("table holdem no_limit seats=3 sb=100 bb=200 button=1", stacks=(12350, 20000, 875))
    t = sim.table
    r = wire(sim, "count", [1, 3])
    eq((r.opts.get("stack"), r.opts.get("approx")), (12000, 1))
    assert "S1 ABOUT 12000" in view.lines(t), view.lines(t)
    eq(wire(sim, "count", [3]).opts.get("stack"), 880 - 200)  # the big blind is in: 675 behind -> 680
    from felt.table import counts as table_counts
    eq([table_counts.approximate(x) for x in (12350, 875, 99, 1049)], [12000, 880, 99, 1000])


# ---- the bad-beat jackpot ----------------------------------------------------------------------

JP = "table holdem no_limit seats=%d sb=5 bb=10 button=1 hr.bbj_hand=four_sevens"


def check_down(sim, boards):
    t = sim.table
    for burn, cards in boards:
        while t.state == "playing" and t.hand.actor is not None:
            sim.run("act %d %s" % (actor(t), "check" if t.hand.legal().call == 0 else "call"))
        if t.state != "playing":
            return
        sim.run("draw %s to burn" % burn)
        for c in cards:
            sim.run("draw %s to board" % c)
    while t.state == "playing" and t.hand.actor is not None:
        sim.run("act %d check" % actor(t))


def test_CASH_8_to_11_example_royal_flush_beats_four_sevens_the_jackpot_is_paid():
    # CASH-9 example: the loser holds 7c 7d on 7h 7s Kc Qc Jc, the winner Ac Tc (royal flush), both
    # use both hole cards; CASH-11 example: a jackpot of 20,000 and 6 other players dealt in --
    # loser 8,000, winner 5,000, each other 500, 4,000 stays as the seed. The pot of 80 drops 0
    # (0.5 % rounded down, CASH-12), so the fund is exactly 20,000.
    sim = Sim()
    sim.run(JP % 8)
    for s in range(1, 9):
        sim.run("seat %d 1000" % s)
    t = sim.table
    t.jackpot = 20000  # the venue's fund (seeded outside play)
    sim.run("hand")
    holes = {2: ("2c", "2d"), 3: ("2h", "2s"), 4: ("7c", "7d"), 5: ("Ac", "Tc"), 6: ("3c", "3d"),
             7: ("3h", "3s"), 8: ("4c", "4d"), 1: ("4h", "4s")}
    for r in range(2):
        for s in (2, 3, 4, 5, 6, 7, 8, 1):
            sim.run("draw %s to seat %d" % (holes[s][r], s))
    check_down(sim, (("5c", ("7h", "7s", "Kc")), ("5d", ("Qc",)), ("5h", ("Jc",))))
    eq(t.state, "over")
    eq(t.stacks, [1490, 1490, 1490, 8990, 6070, 1490, 1490, 1490])
    eq(t.jackpot, 4000)
    hit = [a for a in t.alerts if "CASH-11" in a.rules]
    eq(len(hit), 1)
    assert "seat 4 gets 8000, seat 5 gets 5000, 6 other player(s) 500 each; 4000 stays" in hit[0].text, hit[0].text
    r = wire(sim, "get", ["jackpot"])
    eq(r.opts.get("value"), 4000)


def test_CASH_9_three_players_dealt_in_is_no_bad_beat():
    sim = Sim()
    sim.run(JP % 3)
    for s in range(1, 4):
        sim.run("seat %d 1000" % s)
    t = sim.table
    t.jackpot = 20000
    sim.run("hand")
    holes = {2: ("7c", "7d"), 3: ("Ac", "Tc"), 1: ("2c", "2d")}
    for r in range(2):
        for s in (2, 3, 1):
            sim.run("draw %s to seat %d" % (holes[s][r], s))
    check_down(sim, (("5c", ("7h", "7s", "Kc")), ("5d", ("Qc",)), ("5h", ("Jc",))))
    eq(t.jackpot, 20000)
    eq([a for a in t.alerts if "CASH-11" in a.rules], [])


def fold_out_hand(sim):
    # four players NL 5/10 call preflop (pot 40); the flop bet is not called: the pot of 40 drops
    # nothing; a bigger pot: seat 2 raises to 1,000 preflop, seat 3 calls, the others fold (pot
    # 2,015), the flop bet folds seat 3 out -- 0.5 % of 2,015 = 10 (CASH-12)
    t = sim.table
    sim.run("hand")
    order = list(t.setup.seats)
    cards = ("2c", "3c", "4c", "5c", "2d", "3d", "4d", "5d")
    for i in range(8):
        sim.run("draw %s to seat %d" % (cards[i], order[i % 4]))
    first = actor(t)
    sim.run("act %d raise 1000" % first)
    while t.hand.street == 0 and t.hand.actor is not None:
        a = actor(t)
        sim.run("act %d %s" % (a, "call" if a == order[(order.index(first) + 1) % 4] else "fold"))
    sim.run("draw 9s to burn")
    for c in ("Jh", "Qh", "Kh"):
        sim.run("draw %s to board" % c)
    sim.run("act %d bet 500" % actor(t))
    sim.run("act %d fold" % actor(t))
    eq(t.state, "over")
    sim.run("clear")


def test_CASH_12_every_hand_drops_into_the_fund_carried_across_hands_and_power_cuts():
    from felt.history import phh
    from felt.history import replay
    from felt.sim.powerloss import KillFlash, PowerSim
    histories = []
    sim = PowerSim(KillFlash(None), history=histories.append)
    sim.run(JP % 4)
    for s in range(1, 5):
        sim.run("seat %d 5000" % s)
    fold_out_hand(sim)
    t = sim.table
    eq(t.jackpot, 10)
    eq(sum(t.stacks), 20000 - 10)  # the drop left the table
    sim.restart()
    eq(sim.table.jackpot, 10)
    fold_out_hand(sim)  # the next hand's snapshot keeps the fund
    sim.restart()
    eq(sim.table.jackpot, 20)
    eq(wire(sim, "get", ["jackpot"]).opts.get("value"), 20)
    # the hand history records the drop (_felt_bbj): felt.history.replay takes it and ends at the same stacks
    h = phh.read(histories[-1])
    r = replay.replay(h)
    assert ("_felt_bbj", True) in h.extra, h.extra
    eq(r["finishing_stacks"], list(h.finishing_stacks))
    eq(sum(h.finishing_stacks), sum(h.starting_stacks) - 10)


def test_CASH_12_no_drop_without_hr_bbj_hand():
    sim = Sim()
    sim.run("table holdem no_limit seats=4 sb=5 bb=10 button=1")
    for s in range(1, 5):
        sim.run("seat %d 5000" % s)
    fold_out_hand(sim)
    eq(sim.table.jackpot, 0)
    eq(sum(sim.table.stacks), 20000)
    eq(wire(sim, "get", ["jackpot"]).opts.get("value"), "off")
