# End to end: whole hold'em hands (no-limit, pot-limit, limit) through the simulated table -- the
# real controller, loop and drivers on the sim HAL (PN532 shoe, MFRC522 antennas, FELT1 console,
# NeoPixel lights, SSD1306) -- checking lights, button and blind movement, awards and rejections.
from check import eq

from felt.sim.runner import Sim


def run(sim, script):
    for line in script.strip().split("\n"):
        sim.run(line)
    return sim.snapshot()


def table(head, stacks):
    sim = Sim()
    run(sim, head)
    for i in range(len(stacks)):
        if stacks[i]:
            sim.run("seat %d %d" % (i + 1, stacks[i]))
    return sim


def deal_hole(sim, order, cards, per_seat=2):
    """Round-robin from the first seat left of the button (DEAL-2)."""
    k = 0
    for _ in range(per_seat):
        for seat in order:
            sim.run("draw %s to seat %d" % (cards[k], seat))
            k += 1


def board(sim, cards):
    sim.run("draw %s to burn" % cards[0])
    for c in cards[1:]:
        sim.run("draw %s to board" % c)


def rules(alerts):
    out = []
    for a in alerts:
        out.extend(a["rules"])
    return out


def test_GAME_2_BLIND_2_BET_52_nl_holdem_hand_to_showdown_lights_and_award():
    sim = table("table holdem no_limit seats=3 sb=50 bb=100 button=1", [1000, 1000, 1000])
    s = sim.snapshot()
    eq(s["street"], "idle")
    eq(s["lights"]["button"], None)
    s = run(sim, "hand")
    eq(s["street"], "preflop")
    eq((s["lights"]["button"], s["lights"]["sb"], s["lights"]["bb"]), (1, 2, 3))
    eq(s["stacks"], [1000, 950, 900])
    deal_hole(sim, [2, 3, 1], ["Ah", "Kd", "Qs", "Qh", "Kc", "2s"])
    s = sim.snapshot()
    eq(s["lights"]["action"], 1)  # GAME-3: left of the big blind acts first
    eq(s["alerts"], [])
    run(sim, "act 1 call\nact 2 call\nact 3 check")
    board(sim, ["3c", "7h", "8h", "9c"])
    s = sim.snapshot()
    eq(s["street"], "flop")
    eq(s["lights"]["action"], 2)  # GAME-4: first live seat left of the button
    run(sim, "act 2 check\nact 3 bet 200\nact 1 fold\nact 2 call")
    board(sim, ["4c", "Jd"])
    run(sim, "act 2 check\nact 3 check")
    board(sim, ["5d", "2d"])
    s = run(sim, "act 2 check\nact 3 allin")
    eq(s["lights"]["allin"], [3])  # all-in light on exactly the all-in seat
    eq(s["lights"]["action"], 2)
    s = run(sim, "act 2 call")
    eq(s["street"], "over")
    eq(s["stacks"], [900, 0, 2100])
    eq(s["result"], ["seat 3 wins the main pot with a pair of kings"])
    eq(s["lights"]["allin"], [])
    eq(s["alerts"], [])
    eq(s["oled"][1], "OVER")  # read back from the display's pixels
    for line in s["oled"] + s["display"]:
        assert "AH" not in line.upper() and "KD" not in line.upper(), line


def test_hole_cards_never_on_display_before_the_end_of_the_hand():
    sim = table("table holdem no_limit seats=2 sb=5 bb=10 button=1", [500, 500])
    sim.run("hand")
    deal_hole(sim, [2, 1], ["Ah", "Kd", "Qs", "Jh"])
    s = sim.snapshot()
    text = " ".join(s["oled"] + s["display"]).upper()
    for c in ("AH", "KD", "QS", "JH"):
        assert c not in text, text


def test_BLIND_3_BLIND_6_button_and_blinds_move_each_hand_and_heads_up():
    sim = table("table holdem no_limit seats=4 sb=5 bb=10 button=2", [500, 500, 500, 500])
    seen = []
    for _ in range(4):
        s = run(sim, "hand")
        seen.append((s["lights"]["button"], s["lights"]["sb"], s["lights"]["bb"], s["stacks"][:]))
        # everyone folds to the big blind: the hand ends at once (GAME-6)
        order = [(seen[-1][0] + k - 1) % 4 + 1 for k in range(1, 5)]
        deal_hole(sim, order, ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"])
        bb = s["lights"]["bb"]
        for seat in order[2:] + order[:1]:
            sim.run("act %d fold" % seat)
        s = run(sim, "clear")
        eq(s["street"], "over")
        eq(s["alerts"], [])
    eq([x[:3] for x in seen], [(2, 3, 4), (3, 4, 1), (4, 1, 2), (1, 2, 3)])
    # seat 4 busts nobody; now only seats 1 and 2 stay: heads-up, the button posts the SB
    sim2 = table("table holdem no_limit seats=3 sb=5 bb=10 button=1", [100, 100, 0])
    s = run(sim2, "hand")
    eq((s["lights"]["button"], s["lights"]["sb"], s["lights"]["bb"]), (1, 1, 2))
    eq(s["stacks"], [95, 90, None])


def test_BET_39_BET_7_GAME_16_rejected_console_entries_are_alerts_citing_the_rule():
    sim = table("table holdem no_limit seats=3 sb=50 bb=100 button=1", [1000, 1000, 1000])
    sim.run("hand")
    deal_hole(sim, [2, 3, 1], ["Ah", "Kd", "Qs", "Qh", "Kc", "2s"])
    s = run(sim, "act 3 check")  # out of turn: seat 1 is to act -- held as a proposal (BET-39/40, cash)
    eq(rules(s["alerts"]), ["BET-39", "BET-40", "BET-41"])  # seats 1 and 2 passed over
    eq(s["alerts"][0]["status"], "proposed")
    s = run(sim, "act 1 raise 150")  # below the minimum raise to 200
    eq(rules(s["alerts"])[-1], "BET-7")
    assert "200" in s["alerts"][-1]["text"], s["alerts"][-1]
    s = run(sim, "act 1 check")  # facing the big blind
    eq(rules(s["alerts"])[-1], "GAME-16")
    eq(s["lights"]["action"], 1)  # nothing changed
    eq(s["stacks"], [1000, 950, 900])
    s = run(sim, "act 1 raise 300")
    eq(s["lights"]["action"], 2)
    eq(len(s["alerts"]), 3)
    # the FELT1 replies carried the rule too: the held out-of-turn check went out as a proposal
    assert [r for r in sim.replies if r.startswith("FELT1 ") and " propose " in r and "rule=BET-39" in r], \
        sim.replies


def test_BET_24_GAME_7_pot_limit_max_all_in_light_and_run_out():
    sim = table("table holdem pot_limit seats=3 sb=10 bb=20 button=1", [200, 200, 1000])
    sim.run("hand")
    deal_hole(sim, [2, 3, 1], ["Ah", "Kd", "Qs", "Qh", "Kc", "2s"])
    s = run(sim, "act 1 raise 100")  # pot-limit max preflop: 20 + 10 + 20 + 20 = 70
    eq(rules(s["alerts"]), ["BET-24"])
    assert "70" in s["alerts"][0]["text"], s["alerts"][0]
    s = run(sim, "act 1 raise 70\nact 2 allin")
    eq(s["lights"]["allin"], [2])
    s = run(sim, "act 3 call\nact 1 fold")
    eq(s["lights"]["allin"], [2])
    eq(s["lights"]["action"], None)  # GAME-7: no more betting, the board runs out
    board(sim, ["3c", "7h", "8h", "9c"])
    s = sim.snapshot()
    eq(s["street"], "turn")
    eq(s["lights"]["action"], None)
    board(sim, ["4c", "Jd"])
    board(sim, ["5d", "2d"])
    s = sim.snapshot()
    eq(s["street"], "over")
    eq(s["stacks"], [130, 0, 1270])
    eq(s["result"], ["seat 3 wins the main pot with a pair of kings"])
    eq(s["alerts"][1:], [])


def test_BET_2_BET_3_limit_holdem_bet_sizes():
    sim = table("table holdem limit seats=3 sb=10 bb=20 small_bet=20 big_bet=40 button=3", [500, 500, 500])
    sim.run("hand")
    deal_hole(sim, [1, 2, 3], ["Ah", "Kd", "Qs", "Qh", "Kc", "2s"])
    s = run(sim, "act 3 raise 60")  # limit: a raise is exactly one increment (to 40)
    eq(rules(s["alerts"]), ["BET-3"])
    run(sim, "act 3 raise 40\nact 1 call\nact 2 call")
    board(sim, ["3c", "7h", "8h", "9c"])
    run(sim, "act 1 check\nact 2 bet 20\nact 3 fold\nact 1 call")
    board(sim, ["4c", "Jd"])
    s = run(sim, "act 1 bet 20")  # turn: the big bet
    eq(rules(s["alerts"])[-1], "BET-3")
    run(sim, "act 1 bet 40\nact 2 call")
    board(sim, ["5d", "2d"])
    s = run(sim, "act 1 check\nact 2 check")
    eq(s["street"], "over")
    eq(s["result"], ["seat 2 wins the main pot with a pair of kings"])
    eq(s["stacks"], [400, 640, 460])


def test_BET_12_BET_14_chip_pushes_read_by_the_declaration_rules():
    sim = table("table holdem no_limit seats=3 sb=50 bb=100 button=1", [1000, 1000, 1000])
    sim.run("hand")
    deal_hole(sim, [2, 3, 1], ["Ah", "Kd", "Qs", "Qh", "Kc", "2s"])
    # BET-12: one oversized 500 chip facing the big blind, nothing said: a call
    s = run(sim, "push 1 500")
    eq(s["stacks"], [900, 950, 900])
    eq(s["lights"]["action"], 2)
    # "raise" said first, then 350 in chips on top of the 50 small blind: a raise to 400
    s = run(sim, "push 2 250,100 declared=raise")
    eq(s["stacks"], [900, 600, 900])
    eq(s["lights"]["action"], 3)
    s = run(sim, "push 3 5000")  # more than the stack: rejected, citing the rule
    assert s["alerts"] and s["alerts"][-1]["rules"], s["alerts"]
    eq(s["stacks"], [900, 600, 900])


def test_BLIND_20_straddle_asked_with_the_seat_button():
    sim = table("table holdem no_limit seats=4 sb=5 bb=10 button=1 hr.straddle=utg_2x", [500, 500, 500, 500])
    sim.run("press 4")  # short press between hands: seat 4 (left of the big blind) straddles
    s = run(sim, "hand")
    eq(s["stacks"], [500, 495, 490, 480])
    deal_hole(sim, [2, 3, 4, 1], ["Ah", "Kd", "Qs", "Jh", "Qh", "Kc", "2s", "3s"])
    s = sim.snapshot()
    eq(s["lights"]["action"], 1)  # the straddle acts as the big blind: the next seat acts first
    s = run(sim, "act 1 call")
    eq(s["stacks"][0], 480)


def test_BLIND_4_dead_button_after_a_bust():
    sim = table("table holdem no_limit seats=4 sb=5 bb=10 button=1", [500, 500, 10, 500])
    s = run(sim, "hand")
    eq((s["lights"]["button"], s["lights"]["sb"], s["lights"]["bb"]), (1, 2, 3))
    deal_hole(sim, [2, 3, 4, 1], ["Ah", "2s", "Kd", "Jh", "Qh", "3s", "Kc", "4d"])
    run(sim, "act 4 call\nact 1 fold\nact 2 fold")
    for cards in (["4c", "7h", "8h", "9c"], ["5c", "Td"], ["6c", "2d"]):
        sim.run("draw %s to burn" % cards[0])
        for c in cards[1:]:
            sim.run("draw %s to board" % c)
    s = sim.snapshot()
    eq(s["street"], "over")
    eq(s["stacks"][2], 0)  # seat 3 (all-in by the big blind) lost to seat 4's kings
    s = run(sim, "clear\nhand")
    # BLIND-4: the big blind moves to seat 4, the small blind is dead (seat 3 left), button on seat 2
    eq((s["lights"]["button"], s["lights"]["sb"], s["lights"]["bb"]), (2, None, 4))
    eq(s["stacks"][2], None)
