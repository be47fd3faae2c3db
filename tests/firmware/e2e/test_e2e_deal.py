# End to end: DEAL-* and DECK-* findings for wrong placements, through the simulated table (real
# firmware on the sim HAL). Each alert cites its RULES.md IDs; ASSIST proposals wait for the
# dealer's confirm / reject on the console; the engine follows the dealing check's ruling.
from check import eq

from felt.sim.runner import Sim

HEAD = """
table holdem no_limit seats=3 sb=50 bb=100 button=1
seat 1 1000
seat 2 1000
seat 3 1000
hand
"""
DEAL = """
draw Ah to seat 2
draw Kd to seat 3
draw Qs to seat 1
draw Qh to seat 2
draw Kc to seat 3
draw 2s to seat 1
"""
PREFLOP = """
act 1 call
act 2 call
act 3 check
"""


def run(sim, script):
    for line in script.strip().split("\n"):
        sim.run(line)
    return sim.snapshot()


def start(extra=""):
    sim = Sim()
    run(sim, HEAD + extra)
    return sim


def rules(s):
    out = []
    for a in s["alerts"]:
        out.append("/".join(a["rules"]))
    return out


def proposal(s):
    pend = [a for a in s["alerts"] if a["status"] == "proposed"]
    eq(len(pend), 1, "pending proposals")
    return pend[0]


def test_DEAL_8_DEAL_14_first_card_to_the_wrong_seat_is_a_misdeal_redeal():
    sim = start()
    s = run(sim, "draw Ah to seat 3")
    p = proposal(s)
    eq(p["rules"], ["DEAL-8", "DEAL-12"])
    assert "misdeal" in p["remedy"], p
    assert "!DEAL-8" in s["display"][-3] or "DEAL-8" in " ".join(s["display"]), s["display"]
    s = run(sim, "confirm\nclear")
    eq(s["pending"], [])
    eq(rules(s)[-1], "DEAL-14")
    # the same hand again: same button and blinds, blinds not posted twice (DEAL-14)
    eq((s["lights"]["button"], s["lights"]["sb"], s["lights"]["bb"]), (1, 2, 3))
    eq(s["stacks"], [1000, 950, 900])
    eq(s["hand"], 1)
    s = run(sim, DEAL + PREFLOP)
    eq(s["street"], "flop")
    eq(rules(s), ["DEAL-8/DEAL-12", "DEAL-14"])  # no new alert in the redeal


def test_reject_keeps_the_deal_going():
    sim = start()
    run(sim, "draw Ah to seat 3")
    s = run(sim, "reject")
    eq(s["alerts"][0]["status"], "rejected")
    eq(s["pending"], [])


def test_DEAL_30_premature_flop_confirm_puts_it_back():
    sim = start(DEAL + "act 1 call")
    s = run(sim, "draw 3c to burn\ndraw 7h to board")
    eq(rules(s), ["DEAL-30", "DEAL-30/DEAL-33"])
    assert "back into the stub" in proposal(s)["remedy"], proposal(s)
    s = run(sim, "confirm\nremove 7h from board")
    eq(s["street"], "preflop")
    s = run(sim, "act 2 call\nact 3 check\ndraw 7h to board\ndraw 8h to board\ndraw 9c to board")
    eq(s["street"], "flop")  # the burn stayed a burn: the flop came without another (DEAL-30)
    eq(s["board"], "7h8h9c")
    eq(s["lights"]["action"], 2)


def test_DEAL_27_four_card_flop_the_floor_pick_goes_to_the_burn():
    sim = start(DEAL + PREFLOP)
    s = run(sim, "draw 3c to burn\ndraw 7h to board\ndraw 8h to board\ndraw 9c to board\ndraw Td to board")
    eq(proposal(s)["rules"], ["DEAL-27"])
    s = run(sim, "confirm")
    eq(rules(s)[-1], "DEAL-27")
    assert "burn antenna" in s["alerts"][-1]["text"], s["alerts"][-1]  # waits for the floor's pick
    s = run(sim, "move 8h from board to burn")
    eq(s["pending"], [])
    eq(s["board"], "7h9cTd")  # the engine replayed the flop with the floor's pick as the turn burn
    assert "8h is the turn burn" in s["alerts"][-1]["text"], s["alerts"][-1]
    s = run(sim, "act 2 check\nact 3 check\nact 1 check\ndraw Jd to board")
    eq(s["street"], "turn")  # dealt without a new burn
    eq(s["board"], "7h9cTdJd")


def test_DEAL_28_DEAL_29_flop_without_a_burn_and_turn_without_a_burn():
    sim = start(DEAL + PREFLOP)
    s = run(sim, "draw 7h to board\ndraw 8h to board\ndraw 9c to board")
    eq(proposal(s)["rules"], ["DEAL-28"])
    eq(s["lights"]["action"], None)  # nobody acts on a flop under review
    s = run(sim, "confirm\nmove 7h from board to burn\ndraw Td to board")
    eq(s["board"], "8h9cTd")
    eq(s["lights"]["action"], 2)
    s = run(sim, "act 2 check\nact 3 check\nact 1 check\ndraw Jd to board")
    eq(proposal(s)["rules"], ["DEAL-29"])
    s = run(sim, "reject")  # the cards stand
    eq(s["street"], "turn")
    eq(s["board"], "8h9cTdJd")


def test_DEAL_17_DEAL_22_card_reaching_no_seat_in_the_deal_is_boxed_or_stray():
    sim = start()
    s = run(sim, "draw Ah to seat 2\ndraw 5c to nowhere")
    eq(rules(s), ["DEAL-2/DEAL-17/DEAL-22"])
    assert "boxed" in s["alerts"][0]["remedy"], s["alerts"][0]


def test_DEAL_2_DEAL_16_card_to_the_wrong_seat_in_the_deal_and_extra_card():
    sim = start()
    s = run(sim, "draw Ah to seat 2\ndraw Kd to seat 1")
    eq(rules(s), ["DEAL-2"])
    assert "expected seat 3" in s["alerts"][0]["text"], s["alerts"][0]
    s = run(sim, "draw Qs to seat 3\ndraw Qh to seat 2\ndraw Kc to seat 3\ndraw 2s to seat 1\ndraw 3s to seat 1")
    eq(proposal(s)["rules"], ["DEAL-16"])


def test_DEAL_18_same_card_twice_is_a_fouled_deck_hand_void():
    sim = start(DEAL + PREFLOP)
    s = run(sim, "draw 3c to burn\ndraw 7h to board\ndraw Ah to board")
    eq(proposal(s)["rules"], ["DEAL-18"])
    s = run(sim, "confirm")
    eq(s["street"], "void")
    eq(s["stacks"], [1000, 1000, 1000])  # every bet returned
    s = run(sim, "clear\nhand")
    eq(s["street"], "preflop")
    eq(s["hand"], 2)


def test_DEAL_49_card_after_the_hand_is_over_is_rabbit_hunting():
    sim = start(DEAL + "act 1 fold\nact 2 fold")
    s = sim.snapshot()
    eq(s["street"], "over")
    eq(s["stacks"], [1000, 950, 1050])
    s = run(sim, "draw 9s to board")
    eq(rules(s), ["DEAL-49"])
    eq(s["stacks"], [1000, 950, 1050])


def test_SHOW_1_showdown_reads_the_seat_antennas():
    sim = start(DEAL + PREFLOP)
    run(sim, "draw 3c to burn\ndraw 7h to board\ndraw 8h to board\ndraw 9c to board")
    run(sim, "act 2 check\nact 3 check\nact 1 check\ndraw 4c to burn\ndraw Jd to board")
    run(sim, "act 2 check\nact 3 check\nact 1 check\ndraw 5d to burn\ndraw 2d to board")
    # seat 3 lifts a card off its antenna before the river betting ends
    s = run(sim, "act 2 check\nact 3 check\nremove Kc from seat 3\nact 1 check")
    eq(s["street"], "showdown")  # the table waits: seat 3's hand is not on its antenna
    eq(rules(s), ["SHOW-1"])
    eq(s["alerts"][0]["seat"], 3)
    s = run(sim, "move Kd from seat 3 to muck")
    eq(s["street"], "showdown")
    s = run(sim, "move Kc from nowhere to muck")  # seat 3 gives up: both cards in the muck
    eq(s["street"], "over")
    eq(s["result"], ["seat 1 wins the main pot with a pair of twos"])
    eq(s["stacks"], [1200, 900, 900])


def test_DEAL_17_boxed_card_marked_at_the_console():
    sim = start()
    s = run(sim, "draw Ah to seat 2\ndraw Kd to seat 3\nmark 3 boxed")
    p = proposal(s)
    eq(p["rules"], ["DEAL-17"])
    assert "replacement" in p["remedy"], p
    s = run(sim, "confirm\nremove Kd from seat 3")
    s = run(sim, "draw Qs to seat 1\ndraw Qh to seat 2\ndraw Kc to seat 3\ndraw 2s to seat 1\ndraw 3s to seat 3")
    eq(s["lights"]["action"], 1)  # the deal is complete: seat 3 got its replacement
    s = run(sim, "act 1 call\nact 2 call\nact 3 check")
    eq(s["street"], "flop")


def test_DEAL_7_two_boxed_cards_in_the_deal_are_a_misdeal():
    sim = start()
    s = run(sim, "draw Ah to seat 2\nmark 2 boxed\nconfirm\nremove Ah from seat 2\ndraw Kd to seat 2\nmark 2 boxed")
    eq([a["rules"] for a in s["alerts"] if a["status"] == "proposed"], [["DEAL-7"]])


def test_DEAL_22_DEAL_42_stud_upcards_are_named_in_alerts_downcards_are_not():
    # only downcards are secret before the hand ends; an upcard lies face up and is named
    sim = Sim()
    s = run(sim, """
table stud7 limit seats=3 ante=5 bring_in=10 small_bet=20 big_bet=40 button=1
seat 1 500
seat 2 500
seat 3 500
hand
draw Ah to seat 2
draw Kd to seat 3
draw Qs to seat 1
draw Qh to seat 2
mark 2 exposed
""")
    p = proposal(s)
    eq(p["rules"], ["DEAL-42"])
    assert "Qh" not in p["text"] and "a hole card" in p["text"], p  # a downcard stays secret
    s = run(sim, """
reject
draw Kc to seat 3
draw 2s to seat 1
draw 9h to seat 2
draw 8d to seat 3
draw 3c to seat 1
mark 1 exposed
""")
    a = s["alerts"][-1]
    eq(a["rules"], ["DEAL-22"])
    eq(a["text"], "3c is an upcard anyway")
    for a in s["alerts"]:
        for down in ("Ah", "Kd", "Qs", "Qh", "Kc", "2s"):
            assert down not in a["text"], a
