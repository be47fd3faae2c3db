# End to end: each injected hardware fault through the simulated table (real firmware on the sim
# HAL) gives a clear alert on the display and in the log, loses nothing, and leaves the hand in a
# consistent state: corrupted frames, a tag read twice, an unknown tag, a card of another deck, two
# cards on one antenna, one card on two antennas, readers that stop answering, bad switches.
from check import eq

from felt.sim.runner import Sim

HEAD = """
table holdem no_limit seats=3 sb=50 bb=100 button=1
seat 1 1000
seat 2 1000
seat 3 1000
hand
"""
DEAL = ["draw Ah to seat 2", "draw Kd to seat 3", "draw Qs to seat 1", "draw Qh to seat 2", "draw Kc to seat 3",
        "draw 2s to seat 1"]


def run(sim, script):
    for line in script.strip().split("\n"):
        sim.run(line)
    return sim.snapshot()


def start(shoe="pn532"):
    log = []
    sim = Sim(shoe=shoe, log=log.append)
    run(sim, HEAD)
    return sim, log


def deal(sim, lines):
    return run(sim, "\n".join(lines))


def shown(s, text):
    """The alert is on the display (view lines and the OLED's pixels) -- case-blind."""
    screen = " ".join(s["display"]).upper() + " | " + " ".join(s["oled"]).upper()
    assert text.upper() in screen, (text, screen)


def logged(log, text):
    assert [line for line in log if text in line and line.startswith("alert")], (text, log[-6:])


def dealt_normally(sim):
    s = run(sim, "act 1 call\nact 2 call\nact 3 check")
    eq(s["street"], "flop")
    eq(s["stacks"], [900, 900, 900])
    return s


def test_corrupted_pn532_frame_is_asked_again_nothing_lost():
    sim, log = start()
    s = run(sim, "fault corrupt-frame\n" + DEAL[0])
    a = s["alerts"][-1]
    eq(a["device"], "shoe")
    assert "checksum" in a["text"], a
    shown(s, "!shoe")
    logged(log, "checksum")
    s = deal(sim, DEAL[1:])
    eq([x for x in s["alerts"] if x["rules"]], [])  # no dealing finding: the card was not lost
    dealt_normally(sim)


def test_corrupted_ascii_line_card_taken_from_the_antenna():
    sim, log = start("ascii")
    s = run(sim, "fault corrupt-frame\n" + DEAL[0])
    texts = [a["text"] for a in s["alerts"]]
    assert [t for t in texts if "without a shoe read" in t], texts
    logged(log, "without a shoe read")
    deal(sim, DEAL[1:])
    dealt_normally(sim)


def test_DECK_5_tag_read_twice_counts_once():
    sim, log = start()
    s = run(sim, "fault double-read Ah to seat 2")
    eq(s["alerts"][-1]["rules"], ["DECK-5"])
    assert "twice" in s["alerts"][-1]["text"], s["alerts"][-1]
    shown(s, "!DECK-5")
    deal(sim, DEAL[1:])
    dealt_normally(sim)


def test_DECK_5_unknown_tag_and_card_of_another_deck():
    sim, log = start()
    s = run(sim, DEAL[0] + "\ndraw uid:04AABBCCDDEEFF to nowhere")
    assert "not registered" in s["alerts"][0]["text"], s["alerts"]
    eq(s["alerts"][0]["rules"], ["DECK-5"])
    logged(log, "04AABBCCDDEEFF")
    s = run(sim, "draw uid:04FE1742000005 to nowhere")  # 3d of deck B
    texts = " ".join([a["text"] for a in s["alerts"]])
    assert "deck B" in texts and "deck A is in play" in texts, texts
    deal(sim, DEAL[1:])
    dealt_normally(sim)


def test_DEAL_20_foreign_card_dealt_to_a_seat_is_replaced():
    sim, log = start()
    s = run(sim, DEAL[0] + "\ndraw uid:04FE1742000005 to seat 3")
    pend = [a for a in s["alerts"] if a["status"] == "proposed"]
    eq(pend[0]["rules"], ["DEAL-20"])
    s = run(sim, "confirm\nremove uid:04FE1742000005 from seat 3")
    eq(s["pending"], [])


def test_two_cards_on_one_antenna_and_one_card_on_two_antennas():
    sim, log = start()
    deal(sim, DEAL)
    s = run(sim, "fault collision muck")
    texts = [a["text"] for a in s["alerts"]]
    assert [t for t in texts if "cards on the muck antenna at once" in t], texts
    s = run(sim, "fault two-antennas Qs seat 2")
    assert "two antennas" in s["alerts"][-1]["text"], s["alerts"][-1]
    eq(s["alerts"][-1]["rules"], ["DECK-5"])
    logged(log, "two antennas")
    s = dealt_normally(sim)


def test_antenna_that_stops_answering_and_comes_back():
    sim, log = start()
    deal(sim, DEAL[:3])
    s = run(sim, "fault silent seat 1")
    a = s["alerts"][-1]
    eq((a["level"], a["device"]), ("error", "seat1"))
    assert "not answering" in a["text"], a
    shown(s, "!seat1")
    s = run(sim, "fault resume seat 1")
    eq(s["alerts"][-1]["level"], "info")
    deal(sim, DEAL[3:])
    dealt_normally(sim)


def test_card_dealt_onto_a_dead_antenna_is_kept_until_it_is_seen():
    sim, log = start()
    deal(sim, DEAL[:2])
    run(sim, "fault silent seat 1")
    s = run(sim, DEAL[2])  # Qs to seat 1, whose antenna does not answer
    assert [a for a in s["alerts"] if "reached no antenna while seat1" in a["text"]], s["alerts"]
    s = run(sim, "fault resume seat 1")  # seat 1's antenna sees Qs again: the card is placed there
    eq([a for a in s["alerts"] if a["rules"] and a["rules"][0].startswith("DEAL")], [])
    deal(sim, DEAL[3:])
    s = dealt_normally(sim)
    eq([a for a in s["alerts"] if a["rules"] and a["rules"][0].startswith("DEAL")], [])


def test_shoe_that_stops_answering_cards_come_from_the_antennas():
    sim, log = start()
    deal(sim, DEAL[:2])
    s = run(sim, "fault silent shoe")
    a = s["alerts"][-1]
    eq((a["level"], a["device"]), ("error", "shoe"))
    assert "stopped" in a["text"], a
    s = deal(sim, DEAL[2:4])  # the dealer goes on; the antennas still see the cards
    s = run(sim, "fault resume shoe")
    assert [a for a in s["alerts"] if "answers again" in a["text"]], s["alerts"]
    eq(len([a for a in s["alerts"] if "without a shoe read" in a["text"]]), 2)  # both cards counted
    deal(sim, DEAL[4:])
    s = dealt_normally(sim)
    eq([a for a in s["alerts"] if a["rules"] and a["rules"][0].startswith("DEAL")], [])


def test_bouncing_and_stuck_buttons():
    sim, log = start()
    s = run(sim, "fault bounce 2")
    texts = [a["text"] for a in s["alerts"]]
    assert "seat 2 button is bouncing: its presses are ignored" in texts, texts
    s = run(sim, "fault stuck 3")
    eq(s["alerts"][-1]["text"], "seat 3 button is stuck: its presses are ignored")
    shown(s, "stuck")
    s = run(sim, "fault release 3")
    eq(s["alerts"][-1]["text"], "seat 3 button is no longer stuck")
    # the long press a stuck switch produced first was undone: seat 3 still plays the next hand
    deal(sim, DEAL)
    run(sim, "act 1 fold\nact 2 fold\nclear")
    s = run(sim, "hand")
    eq(s["lights"]["button"], 2)
    eq(s["lights"]["bb"], 1)


def test_broken_console_line_is_refused_and_alerted():
    sim, log = start()
    s = run(sim, "fault console-garbage")
    eq(s["alerts"][-1]["device"], "console")
    assert [r for r in sim.replies if "code=checksum" in r], sim.replies
    deal(sim, DEAL)
    dealt_normally(sim)


def test_BLIND_13_seat_button_long_press_sits_out():
    sim, log = start()
    deal(sim, DEAL)
    run(sim, "press 3 long\nact 1 fold\nact 2 fold\nclear")
    s = run(sim, "hand")
    # seat 3 sits out: heads-up between seats 1 and 2 (BLIND-6)
    eq(s["stacks"][2], 1050)
    assert s["lights"]["bb"] in (1, 2), s["lights"]
    assert [line for line in log if "seat 3 sits out" in line], log


def test_noisy_antenna_is_reported_degraded():
    sim, log = start()
    deal(sim, DEAL)
    s = run(sim, "fault noisy seat 2")
    texts = [a["text"] for a in s["alerts"]]
    assert "antenna seat2 is degraded" in texts, texts
    logged(log, "degraded")
    dealt_normally(sim)
