# RULES.md examples of rules no test cited before issue 14, played through the simulated table and
# the dealing check: a card dropped and returned stays live (DEAL-40), cards mixed with the stub are
# placed by the tag log (DEAL-48), how long a result can be disputed (POT-18), losing hands killed
# before the pot is pushed (POT-19), a bettor who mucks believing it has won (SHOW-16). Runs under
# CPython and MicroPython.
from check import eq

from felt import view
from felt.engine.dealing import plan as dealplan
from felt.engine.cards import parse_card as C
from felt.engine.dealing.check import DealCheck
from felt.engine.house.rules import TOURNAMENT, HouseRules
from felt.proto import console as proto
from felt.sim.runner import Sim

HOLES = (("Ah", 2), ("Kd", 3), ("2c", 1), ("As", 2), ("Kc", 3), ("3d", 1))


def table(extra="", holes=HOLES):
    sim = Sim()
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1 " + extra)
    for s in range(1, 4):
        sim.run("seat %d 1000" % s)
    sim.run("hand")
    for card, seat in holes:
        sim.run("draw %s to seat %d" % (card, seat))
    return sim


def actor(t):
    return t.setup.seats[t.hand.actor] if t.hand.actor is not None else None


def get(sim, key):
    sim.seq = (sim.seq + 1) % 65536
    sim.console.feed(proto.encode(proto.Message(sim.seq, "get", [key])))
    sim.settle(sweeps=0)
    got = [r for r in sim.replies if (" re=%d " % sim.seq) in r]
    return proto.decode_line(got[0].encode()).opts.get("value")


def flop(sim, cards=("7h", "8h", "9c")):
    sim.run("draw 4s to burn")
    for c in cards:
        sim.run("draw %s to board" % c)


def test_DEAL_40_example_card_dropped_and_returned_is_unchanged():
    # seat 2 drops Kd... here seat 3's Kd leaves its antenna; when it is put back the tag is read at
    # seat 3 again and the hand is unchanged -- no alert, the same hole cards, the action goes on
    sim = table()
    t = sim.table
    before = [list(h) for h in t.hand.hole]
    n = len(t.alerts)
    sim.run("remove Kd from seat 3")
    assert C("Kd") in t.off, t.off
    sim.run("move Kd from nowhere to seat 3")
    eq(t.off, {})
    eq(t.where[C("Kd")], 3)
    eq([list(h) for h in t.hand.hole], before)
    eq(t.alerts[n:], [])
    sim.run("act 1 call")
    eq(actor(t), 2)


def test_DEAL_48_example_hand_scooped_with_the_stub_is_found_by_the_tag_log():
    # the dealer scoops seat 2's cards (9h 9d) with the stub: the log says where they belong
    plan = dealplan.make_plan([2, 3, 1], dealplan.HOLDEM, button=1)
    d = DealCheck(plan, HouseRules(TOURNAMENT))
    for card, seat in (("9h", 2), ("Kd", 3), ("2c", 1), ("9d", 2), ("Kc", 3), ("3d", 1)):
        d.card(C(card), seat)
    eq((d.where(C("9h")), d.where(C("9d"))), (2, 2))
    eq(d.where(C("5s")), None)  # still in the stub
    # at the table: both tags leave seat 2's antenna and come back -- nothing changes
    sim = table(holes=(("9h", 2), ("Kd", 3), ("2c", 1), ("9d", 2), ("Kc", 3), ("3d", 1)))
    t = sim.table
    sim.run("remove 9h from seat 2")
    sim.run("remove 9d from seat 2")
    eq((t.where[C("9h")], t.where[C("9d")]), (2, 2))  # the log still places them at seat 2
    eq(t.dc.where(C("9h")), 2)
    sim.run("move 9h from nowhere to seat 2")
    sim.run("move 9d from nowhere to seat 2")
    eq(t.off, {})
    eq(t.pending(), [])


def test_POT_18_the_last_hand_may_be_disputed_until_SA_on_the_next():
    sim = table()
    eq(get(sim, "dispute"), "none")  # no hand has ended yet
    sim.run("act 1 fold")
    sim.run("act 2 fold")
    eq(sim.table.state, "over")
    eq(get(sim, "dispute"), "reading")  # the reading and the count, until the next hand begins
    sim.run("clear")
    sim.run("hand")
    eq(get(sim, "dispute"), "count")  # counting or awarding errors, until SA on this hand
    for card, seat in (("Ah", 3), ("Kd", 1), ("2c", 2), ("As", 3), ("Kc", 1), ("3d", 2)):
        sim.run("draw %s to seat %d" % (card, seat))
    sim.run("act 2 call")
    eq(get(sim, "dispute"), "count")
    sim.run("act 3 call")  # two actions, one with chips: SA (DEAL-6)
    eq(get(sim, "dispute"), "locked")


def showdown(sim, checkers=(2, 3, 1)):
    t = sim.table
    for burn, board in (("4s", ("7h", "8h", "9c")), ("4d", ("Tc",)), ("4h", ("2s",))):
        sim.run("draw %s to burn" % burn)
        for c in board:
            sim.run("draw %s to board" % c)
        for seat in checkers:
            if t.state == "playing" and t.hand.actor is not None and actor(t) == seat:
                sim.run("act %d check" % seat)


def test_POT_19_example_award_waits_for_the_losing_hands_to_be_killed():
    # showdown between seats 2 and 3 (seat 1 folded); seat 2 (Ah As) wins: the display says to kill
    # seat 3's hand first, and once its two tags have left the antenna the award line stands alone
    sim = table()
    t = sim.table
    sim.run("act 1 fold")
    sim.run("act 2 call")
    sim.run("act 3 check")
    showdown(sim)
    eq(t.state, "over")
    eq(view.losers_on_antennas(t), [3])
    assert "KILL S3" in view.lines(t), view.lines(t)
    eq(view.snapshot(t)["kill_first"], [3])
    sim.run("remove Kd from seat 3")
    eq(view.losers_on_antennas(t), [3])  # one card is still there
    sim.run("remove Kc from seat 3")
    eq(view.losers_on_antennas(t), [])
    assert not [ln for ln in view.lines(t) if ln.startswith("KILL")], view.lines(t)


def river_bet_then_muck(sim):
    # heads-up to the river; seat 2 bets 800 and throws its cards on the muck, forgetting seat 3
    t = sim.table
    sim.run("act 1 fold")
    sim.run("act 2 call")
    sim.run("act 3 check")
    for burn, board in (("4s", ("7h", "8h", "9c")), ("4d", ("Tc",)), ("4h", ("2s",))):
        if t.hand.street > 0:
            sim.run("act 2 check")
            sim.run("act 3 check")
        sim.run("draw %s to burn" % burn)
        for c in board:
            sim.run("draw %s to board" % c)
    eq(t.hand.street, 3)
    eq(actor(t), 2)
    sim.run("act 2 bet 800")
    eq(actor(t), 3)
    sim.run("move Ah from seat 2 to muck")
    sim.run("move As from seat 2 to muck")


def test_SHOW_16_example_mucked_cards_identified_play_on():
    sim = table()
    t = sim.table
    river_bet_then_muck(sim)
    props = [a for a in t.alerts if "SHOW-16" in a.rules]
    eq([(a.seat, a.status) for a in props], [(2, "proposed")])
    eq(t.hand.live[t.position(2)], True)  # nothing changed: the dealer holds the cards
    sim.run("reject")  # the floor: identifiable, they play on
    sim.run("move Ah from muck to seat 2")
    sim.run("move As from muck to seat 2")
    sim.run("act 3 call")
    eq(t.state, "over")
    eq(t.stacks, [1000, 1900, 100])  # seat 2's aces win 900 from seat 3


def test_SHOW_16_floor_rules_the_hand_dead_the_uncalled_bet_comes_back():
    sim = table()
    t = sim.table
    river_bet_then_muck(sim)
    sim.run("confirm")
    eq(t.state, "over")
    eq(t.stacks, [1000, 900, 1100])  # seat 2 is out; its uncalled 800 is returned; seat 3 wins 200
