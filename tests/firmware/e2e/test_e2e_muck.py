# End to end: a muck that holds more cards than a seat antenna reads (drivers/antennas.py reads
# muck and burn up to pile_cards, seats up to max_cards). Folded hands pile up in the muck; a hand
# given up at the showdown is read there (SHOW-1) and no false "one tag on two antennas" (DECK-5)
# comes from a muck whose inventory is cut short.
from check import eq

from felt.engine.cards import card_text
from felt.sim.runner import Sim

SEATS = 10
ORDER = [2, 3, 4, 5, 6, 7, 8, 9, 10, 1]  # the deal from the left of the button (seat 1)


def ten_handed(sim):
    sim.run("table holdem no_limit seats=%d sb=50 bb=100 button=1" % SEATS)
    for s in range(1, SEATS + 1):
        sim.run("seat %d 1000" % s)
    sim.run("hand")
    hole = {}
    k = 0
    for _round in range(2):
        for s in ORDER:
            hole.setdefault(s, []).append(card_text(k))
            sim.run("draw %s to seat %d" % (card_text(k), s))
            k += 1
    return hole, k


def test_SHOW_1_DECK_5_folded_hands_pile_up_in_the_muck_and_a_showdown_muck_is_read_there():
    sim = Sim()
    hole, k = ten_handed(sim)
    for s in ORDER[2:9]:  # seats 4..10 fold; their cards go to the muck (14 cards)
        sim.run("act %d fold" % s)
        for c in hole[s]:
            sim.run("move %s from seat %d to muck" % (c, s))
    for line in ("act 1 call", "act 2 call", "act 3 check"):
        sim.run(line)
    for street in range(3):
        sim.run("draw %s to burn" % card_text(k))
        k += 1
        for _ in range(3 if street == 0 else 1):
            sim.run("draw %s to board" % card_text(k))
            k += 1
        if street == 2:
            for c in hole[2]:  # seat 2 gives up its hand: 16 cards in the muck
                sim.run("move %s from seat 2 to muck" % c)
        for s in (2, 3, 1):
            sim.run("act %d check" % s)
    s = sim.snapshot()
    eq(len(sim.rt.poller.present("muck")), 16)  # every card in the muck is read
    eq(s["street"], "over")  # not stalled waiting for seat 2's cards (SHOW-1)
    eq(s["alerts"], [])  # no DECK-5 "one tag on two antennas", no truncated inventory
    eq(s["result"], ["seats 3 and 1 split the main pot with a full house, sevens full of eights"])
    eq(sum([x for x in s["stacks"] if x is not None]), 10 * 1000)


def test_DECK_5_a_card_taken_back_out_of_a_large_muck_is_not_on_two_antennas():
    sim = Sim()
    hole, k = ten_handed(sim)
    for s in ORDER[2:9]:
        sim.run("act %d fold" % s)
        for c in hole[s]:
            sim.run("move %s from seat %d to muck" % (c, s))
    # the dealer lifts a mucked card onto the burn antenna by mistake and back: each move is seen
    c = hole[7][0]
    sim.run("move %s from muck to burn" % c)
    eq([a["text"] for a in sim.snapshot()["alerts"] if "two antennas" in a["text"]], [])
    sim.run("move %s from burn to muck" % c)
    s = sim.snapshot()
    eq([a["text"] for a in s["alerts"] if "two antennas" in a["text"]], [])
    eq(len(sim.rt.poller.present("muck")), 14)
