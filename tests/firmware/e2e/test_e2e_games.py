# End to end: a whole hand of each other game (omaha, omaha8, stud7, stud7_8, stud5, draw5) through the
# simulated table (real firmware on the sim HAL). Cards land on seat antennas; the showdown reads them
# there; pots are awarded automatically; lights follow the engine (GAME-1..17).
from check import eq

from felt.sim.runner import Sim


def run(sim, script):
    for line in script.strip().split("\n"):
        sim.run(line)
    return sim.snapshot()


def table(head, stacks):
    sim = Sim()
    sim.run(head)
    for i in range(len(stacks)):
        if stacks[i]:
            sim.run("seat %d %d" % (i + 1, stacks[i]))
    return sim


def deal_round(sim, order, cards, per_seat):
    k = 0
    for _ in range(per_seat):
        for seat in order:
            sim.run("draw %s to seat %d" % (cards[k], seat))
            k += 1


def street(sim, cards, seats=None):
    """A burn, then community cards (seats None) or one card to each seat in `seats`."""
    sim.run("draw %s to burn" % cards[0])
    for i in range(1, len(cards)):
        sim.run("draw %s to %s" % (cards[i], "board" if seats is None else "seat %d" % seats[i - 1]))


def total(stacks):
    t = 0
    for s in stacks:
        t += s or 0
    return t


def test_GAME_8_RANK_14_pot_limit_omaha():
    sim = table("table omaha pot_limit seats=3 sb=5 bb=10 button=1", [500, 500, 500])
    sim.run("hand")
    # seat 2: As Ks 2c 3c; seat 3: Qh Qd Jh Jd; seat 1: 7c 8c 9d Td
    deal_round(sim, [2, 3, 1], ["As", "Qh", "7c", "Ks", "Qd", "8c", "2c", "Jh", "9d", "3c", "Jd", "Td"], 4)
    s = run(sim, "act 1 call\nact 2 call\nact 3 check")
    eq(s["street"], "flop")  # betting closed; the flop is due
    eq(s["lights"]["action"], None)
    street(sim, ["4h", "Qs", "Js", "Ts"])
    s = sim.snapshot()
    eq(s["street"], "flop")
    run(sim, "act 2 bet 30\nact 3 call\nact 1 fold")
    street(sim, ["5h", "2s"])
    run(sim, "act 2 check\nact 3 check")
    street(sim, ["6h", "3d"])
    s = run(sim, "act 2 check\nact 3 check")
    eq(s["street"], "over")
    # seat 2: As Ks + Qs Js Ts = royal flush (exactly two hole cards, RANK-14)
    eq(s["result"], ["seat 2 wins the main pot with a royal flush"])
    eq(s["stacks"], [490, 550, 460])


def test_GAME_9_RANK_17_limit_omaha8_ten_seats_split_all_in_light():
    stacks = [200, 200, 30, 200, 200, 200, 200, 200, 200, 200]
    sim = table("table omaha8 limit seats=10 sb=10 bb=20 small_bet=20 big_bet=40 button=10", stacks)
    s = run(sim, "hand")
    eq((s["lights"]["button"], s["lights"]["sb"], s["lights"]["bb"]), (10, 1, 2))
    deck = []
    for r in "23456789TJQKA":
        for suit in "cdhs":
            deck.append(r + suit)
    # seat 1: the nut low, seat 2: kings (high), seat 3: jacks, all-in short; the rest fold
    hands = {1: ["Ac", "2d", "9h", "9s"], 2: ["Kc", "Kd", "Qc", "Qd"], 3: ["Jc", "Js", "6s", "6d"]}
    flop, turn, river = ["8c", "3h", "4s", "Kh"], ["8d", "7d"], ["7c", "Th"]
    used = hands[1] + hands[2] + hands[3] + flop + turn + river
    junk = [c for c in deck if c not in used]
    for seat in range(4, 11):
        hands[seat] = junk[:4]
        junk = junk[4:]
    cards = []
    for k in range(4):
        for seat in range(1, 11):
            cards.append(hands[seat][k])
    deal_round(sim, list(range(1, 11)), cards, 4)
    s = sim.snapshot()
    eq(s["lights"]["action"], 3)
    s = run(sim, "act 3 allin")
    eq(s["lights"]["allin"], [3])
    for seat in (4, 5, 6, 7, 8, 9, 10):
        sim.run("act %d fold" % seat)
    s = run(sim, "act 1 call\nact 2 call")
    street(sim, flop)
    s = run(sim, "act 1 bet 20\nact 2 call")
    eq(s["lights"]["allin"], [3])
    street(sim, turn)
    run(sim, "act 1 check\nact 2 check")
    street(sim, river)
    s = run(sim, "act 1 check\nact 2 check")
    eq(s["street"], "over")
    # main pot 90 and side pot 40: high halves to seat 2 (kings), low halves to seat 1 (A-2-3-4-7)
    eq(s["stacks"], [215, 215, 0, 200, 200, 200, 200, 200, 200, 200])
    got = " | ".join(s["result"])
    assert "low" in got and "seat 2" in got and "seat 1" in got, got
    eq(s["lights"]["allin"], [])
    eq(s["alerts"], [])


def test_GAME_10_GAME_11_GAME_12_seven_card_stud_bring_in_and_upcards():
    sim = table("table stud7 limit seats=3 ante=5 bring_in=10 small_bet=20 big_bet=40 button=3", [500, 500, 500])
    s = run(sim, "hand")
    eq(s["stacks"], [495, 495, 495])
    # 3rd street: two down, one up. Upcards: seat 1 2c (lowest: brings in), seat 2 Kd, seat 3 9s
    deal_round(sim, [1, 2, 3], ["Ah", "Ad", "3h", "As", "Qd", "4h", "2c", "Kd", "9s"], 3)
    s = sim.snapshot()
    eq(s["lights"]["action"], 1)  # GAME-11: the lowest upcard brings in
    s = run(sim, "act 1 fold")  # the bring-in cannot fold before posting
    eq(s["alerts"][-1]["rules"], ["GAME-11"])
    run(sim, "act 1 bringin\nact 2 call\nact 3 call")
    street(sim, ["5c", "7c", "Ks", "2s"], [1, 2, 3])
    s = sim.snapshot()
    eq(s["lights"]["action"], 2)  # GAME-12: the best showing hand (pair of kings) acts first
    run(sim, "act 2 bet 20\nact 3 fold\nact 1 call")
    street(sim, ["5s", "8c", "3d"], [1, 2])
    run(sim, "act 2 bet 40\nact 1 call")
    street(sim, ["6s", "9c", "4d"], [1, 2])
    run(sim, "act 2 check\nact 1 check")
    street(sim, ["6c", "Jc", "Jd"], [1, 2])
    s = run(sim, "act 2 check\nact 1 check")
    eq(s["street"], "over")
    eq(s["result"], ["seat 2 wins the main pot with a flush, ace high"])  # A-K-Q-J-4 beats A-J-9-8-7
    eq(total(s["stacks"]), 1500)
    eq(s["alerts"][1:], [])


def test_GAME_13_stud_hi_lo_split():
    sim = table("table stud7_8 limit seats=2 ante=5 bring_in=10 small_bet=20 big_bet=40 button=2", [300, 300])
    sim.run("hand")
    deal_round(sim, [1, 2], ["Ah", "Kd", "2h", "Kh", "3c", "Ks"], 3)
    s = sim.snapshot()
    eq(s["lights"]["action"], 1)  # 3c is lower than Ks: seat 1 brings in
    run(sim, "act 1 bringin\nact 2 call")
    for k in range(3):
        street(sim, [["5c", "4d", "Qc"], ["6c", "7d", "Qd"], ["9c", "8s", "Qh"]][k], [1, 2])
        s = sim.snapshot()
        first = s["lights"]["action"]
        other = 1 if first == 2 else 2
        run(sim, "act %d check\nact %d check" % (first, other))
    street(sim, ["Tc", "Jc", "Js"], [1, 2])
    s = sim.snapshot()
    first = s["lights"]["action"]
    s = run(sim, "act %d check\nact %d check" % (first, 1 if first == 2 else 2))
    eq(s["street"], "over")
    got = " | ".join(s["result"])
    assert "low" in got and "seat 1" in got and "seat 2" in got, got
    eq(s["stacks"], [300, 300])  # ante + bring-in level: each half back


def test_GAME_14_five_card_stud():
    sim = table("table stud5 limit seats=3 ante=5 bring_in=10 small_bet=20 big_bet=40 button=3", [400, 400, 400])
    sim.run("hand")
    deal_round(sim, [1, 2, 3], ["Ah", "Kh", "Qh", "7c", "2d", "9s"], 2)
    s = sim.snapshot()
    eq(s["lights"]["action"], 2)  # 2d up: seat 2 brings in
    run(sim, "act 2 bringin\nact 3 call\nact 1 call\nact 2 call")
    for cards in (["3s", "Ad", "4c", "5h"], ["3h", "Ac", "4d", "5s"], ["3d", "As", "4s", "5d"]):
        street(sim, cards, [1, 2, 3])
        s = sim.snapshot()
        first = s["lights"]["action"]
        order = [first, first % 3 + 1, (first + 1) % 3 + 1]
        run(sim, "\n".join(["act %d check" % x for x in order]))
    s = sim.snapshot()
    eq(s["street"], "over")
    eq(s["result"], ["seat 1 wins the main pot with four of a kind, aces"])
    eq(s["stacks"], [430, 385, 385])


def test_GAME_15_DEAL_47_five_card_draw_discards_to_the_muck():
    sim = table("table draw5 no_limit seats=3 sb=5 bb=10 button=1", [500, 500, 500])
    sim.run("hand")
    deal_round(sim, [2, 3, 1], ["2c", "3c", "4c", "5c", "6c", "7c", "8d", "9d", "Td", "2d", "3d", "4d",
                                "5d", "6d", "7d"], 5)
    run(sim, "act 1 call\nact 2 call\nact 3 check")
    s = sim.snapshot()
    eq(s["street"], "the draw")
    eq(s["lights"]["action"], None)  # nobody bets during the draw
    # seat 2 throws two cards into the muck and gets two; seat 3 stands pat; seat 1 draws one
    run(sim, "move 2c from seat 2 to muck\nmove 5c from seat 2 to muck\ndraw 2h to burn")
    run(sim, "draw Ah to seat 2\ndraw Ad to seat 2\nact 3 check\nmove 4c from seat 1 to muck\ndraw Ac to seat 1")
    s = sim.snapshot()
    eq(s["lights"]["action"], 2)
    s = run(sim, "act 2 check\nact 3 check\nact 1 check")
    eq(s["street"], "over")
    eq(s["result"], ["seat 3 wins the main pot with two pair, sixes and threes"])
    eq(s["alerts"], [])
    eq(s["stacks"], [490, 490, 520])


def test_SHOW_6_a_tabled_winner_is_named_when_the_other_hand_is_already_in_the_muck():
    # the showdown reads both seats at once: seat 1's hand on its antenna is tabled, seat 2's cards
    # (read first: left of the button) were moved to the muck before its last call; seat 1 wins
    # *with* its hand (SHOW-6), not "without showing" (SHOW-10)
    sim = table("table holdem no_limit seats=2 sb=5 bb=10 button=1", [500, 500])
    sim.run("hand")
    deal_round(sim, [2, 1], ["7c", "Ah", "2d", "Ad"], 2)
    run(sim, "act 1 call\nact 2 check")
    street(sim, ["3s", "Kc", "9h", "4s"])
    run(sim, "act 2 check\nact 1 check")
    street(sim, ["5d", "Jc"])
    run(sim, "act 2 check\nact 1 check")
    street(sim, ["6h", "8d"])
    run(sim, "act 2 check\nact 1 bet 20\nmove 7c from seat 2 to muck\nmove 2d from seat 2 to muck")
    s = run(sim, "act 2 call")
    eq(s["street"], "over")
    eq(s["result"], ["seat 1 wins the main pot with a pair of aces"])
    eq(s["stacks"], [530, 470])
