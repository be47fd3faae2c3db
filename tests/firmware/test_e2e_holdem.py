# End to end: whole no-limit hold'em hands through the simulated table (real controller, loop and
# drivers on the sim HAL: PN532 shoe, MFRC522 antennas, FELT1 console, NeoPixel lights, SSD1306).
from check import eq

from felt.sim.runner import Sim


def play(lines, shoe="pn532"):
    sim = Sim(shoe=shoe)
    for line in lines.strip().split("\n"):
        sim.run(line)
    return sim


def snap(sim):
    return sim.snapshot()


TABLE3 = """
table holdem no_limit seats=3 sb=50 bb=100 button=1
seat 1 1000
seat 2 1000
seat 3 1000
hand
"""

DEAL3 = """
draw Ah to seat 2
draw Kd to seat 3
draw Qs to seat 1
draw Qh to seat 2
draw Kc to seat 3
draw 2s to seat 1
"""


def test_nl_holdem_hand_to_showdown_lights_and_award_GAME_2_BLIND_2():
    sim = play(TABLE3)
    s = snap(sim)
    eq(s["street"], "preflop")
    eq(s["lights"]["button"], 1)
    eq(s["lights"]["sb"], 2)
    eq(s["lights"]["bb"], 3)
    eq(s["stacks"], [1000, 950, 900])
    for line in DEAL3.strip().split("\n"):
        sim.run(line)
    s = snap(sim)
    eq(s["lights"]["action"], 1)  # GAME-3: left of the big blind acts first
    eq(s["alerts"], [])
    for line in ["act 1 call", "act 2 call", "act 3 check", "draw 3c to burn", "draw 7h to board",
                 "draw 8h to board", "draw 9c to board"]:
        sim.run(line)
    s = snap(sim)
    eq(s["street"], "flop")
    eq(s["lights"]["action"], 2)  # GAME-4: first live seat left of the button
    for line in ["act 2 check", "act 3 bet 200", "act 1 fold", "act 2 call", "draw 4c to burn",
                 "draw Jd to board", "act 2 check", "act 3 check", "draw 5d to burn", "draw 2d to board",
                 "act 2 check", "act 3 allin"]:
        sim.run(line)
    s = snap(sim)
    eq(s["lights"]["allin"], [3])  # BET-52: all-in light on exactly the all-in seat
    eq(s["lights"]["action"], 2)
    sim.run("act 2 call")
    s = snap(sim)
    eq(s["street"], "over")
    eq(s["stacks"], [900, 0, 2100])
    eq(s["result"], ["seat 3 wins the main pot with a pair of kings"])
    eq(s["lights"]["allin"], [])
    eq(s["alerts"], [])
    # the OLED shows what the view computed (read back from its pixels), never a hole card
    eq(s["oled"][1], "OVER")
    for line in s["oled"]:
        assert "AH" not in line and "KD" not in line, line
