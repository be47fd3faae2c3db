# BLIND-26: with hr.blind_chop = on (cash only), when everyone folds to the blinds preflop the
# small and big blind may agree to take their blinds back: the hand ends with no pot and no rake.
# The engine rule is engine/cashrules.chop_blinds; the table asks for both blinds' seat buttons,
# journals the chop, and writes a PHH that felt.history.replay plays to the same stacks.
# Runs under CPython and MicroPython.
from check import eq, raises

from felt.engine.house import cash as cashrules
from felt.engine.hand.machine import Hand
from felt.errors import RuleError
from felt.sim.runner import Sim

from kit import replayed, wire

ON = {"blind_chop": "on"}


def folded_to_the_sb(n=4, rules=ON):
    h = Hand("NT", [1000] * n, blinds=[50, 100] + [0] * (n - 2), rules=rules)
    for p in range(n):
        h.deal_hole(p, [4 * p, 4 * p + 1])
    while h.actor not in (0, None) and n > 2:
        h.fold(h.actor)
    return h


def state(h):
    return (h.phase, h.actor, list(h.stacks), list(h.committed), list(h.bets), list(h.live))


def test_BLIND_26_example_folds_reach_the_sb_both_agree_the_blinds_go_back():
    h = folded_to_the_sb(rules={"blind_chop": "on", "rake": {"percent": 5, "cap": 150}})
    eq(h.actor, 0)
    op = cashrules.chop_blinds(h)
    eq(op.kind, "chop")
    eq(h.finished, True)
    eq(h.stacks, [1000] * 4)  # 50 and 100 back: no pot, so no rake (POT-20)
    eq(h.results, [])
    eq(h.reasons, ["the blinds are chopped (BLIND-26)"])


def test_BLIND_26_heads_up_the_button_small_blind_acts_first_and_may_chop():
    h = Hand("NT", [1000, 1000], blinds=[50, 100], rules=ON)
    h.deal_hole(0, [0, 1])
    h.deal_hole(1, [4, 5])
    eq(h.actor, 1)  # the button is the small blind
    cashrules.chop_blinds(h)
    eq((h.finished, h.stacks), (True, [1000, 1000]))


def test_BLIND_26_refusals_name_the_rule_and_change_nothing():
    h = folded_to_the_sb(rules=None)  # hr.blind_chop = off (the default)
    before = state(h)
    with raises(RuleError, match="hr.blind_chop") as e:
        cashrules.chop_blinds(h)
    eq(e.value.rule, "BLIND-26")
    eq(state(h), before)
    eq(cashrules.can_chop(h), False)
    h = Hand("NT", [1000] * 4, blinds=[50, 100, 0, 0], rules=ON)
    for p in range(4):
        h.deal_hole(p, [4 * p, 4 * p + 1])
    h.check_call(2)  # a caller: the action did not fold to the blinds
    h.fold(3)
    before = state(h)
    with raises(RuleError) as e:
        cashrules.chop_blinds(h)
    eq(e.value.rule, "BLIND-26")
    eq(state(h), before)
    h = folded_to_the_sb()
    h.check_call(0)  # the small blind completed: too late to chop
    with raises(RuleError):
        cashrules.chop_blinds(h)
    eq(cashrules.can_chop(folded_to_the_sb()), True)


def test_BLIND_26_table_both_blinds_press_their_buttons_and_the_PHH_replays():
    histories = []
    sim = Sim(history=histories.append)
    sim.run("table holdem no_limit seats=4 sb=50 bb=100 button=1")
    for s in (1, 2, 3, 4):
        sim.run("seat %d 1000" % s)
    t = sim.table
    eq(t.configure("hr.blind_chop", "on"), True)
    sim.run("hand")
    for k in range(2):
        for seat in t.setup.seats:
            sim.run("draw %s to seat %d" % (("Ah", "Kd", "2c", "7s", "Ac", "Kc", "3d", "8s")[k * 4 + seat - 1], seat))
    wire(sim, "fold", [4])
    wire(sim, "fold", [1])
    t.button(2, "short")  # the small blind offers
    eq(t.state, "playing")
    t.button(3, "short")  # the big blind agrees
    eq(t.state, "over")
    eq(t.stacks, [1000] * 4)
    replayed(histories, t)
    assert "_felt_chop" in histories[-1], histories[-1]


def test_BLIND_26_the_offer_and_the_chop_survive_power_cuts():
    from felt.sim.powerloss import KillFlash, PowerSim
    sim = PowerSim(KillFlash(None))
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1")
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    eq(sim.table.configure("hr.blind_chop", "on"), True)
    sim.run("hand")
    t = sim.table
    for k in range(2):
        for seat in t.setup.seats:
            sim.run("draw %s to seat %d" % (("Ah", "Kd", "2c", "7s", "Ac", "Kc")[k * 3 + seat - 1], seat))
    wire(sim, "fold", [1])
    sim.table.button(3, "short")  # the big blind offers first
    sim.restart()
    eq(sim.table.state, "playing")
    sim.table.button(2, "short")  # the small blind agrees after the power cut
    eq(sim.table.state, "over")
    sim.restart()
    eq((sim.table.state, sim.table.stacks), ("over", [1000, 1000, 1000]))
