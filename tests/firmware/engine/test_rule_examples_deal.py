# RULES.md examples of dealing rules whose later half had no test (DEAL-15 with a short seat found
# after SA, DEAL-25 / DEAL-3 burns after a dead hand) through the dealing check
# felt.engine.dealing.check.DealCheck and the Hand. Runs under CPython and MicroPython.
from check import eq

from felt.engine.dealing import plan as dealplan
from felt.engine.dealing.check import DealCheck
from felt.engine.dealing.plan import BETTING, BOARD
from felt.engine.findings import LAPSED
from felt.engine.hand.machine import Hand
from felt.engine.house.rules import TOURNAMENT, HouseRules


def kinds(findings):
    return [f.kind for f in findings if f.status != LAPSED]


def test_DEAL_15_example_short_seat_found_after_SA_is_dead_not_a_misdeal():
    # seats 1-6, button seat 1: SB 2, BB 3, UTG 4, UTG+1 5. Seat 6 is dealt one card (its
    # second round passed it over). The button's last card (draw 11) ends the deal (DEAL-2): before
    # SA that is a misdeal proposal (DEAL-10, DEAL-9 a seat skipped, DEAL-26 the count check); UTG
    # raises to 600 and UTG+1 calls (SA): the proposal lapses, seat 6's hand is dead and the hand goes on.
    plan = dealplan.make_plan([2, 3, 4, 5, 6, 1], dealplan.HOLDEM, button=1)  # dealing order
    d = DealCheck(plan, HouseRules(TOURNAMENT))
    out = []
    for i, seat in enumerate([2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 1]):
        out += d.card(i, seat)
    eq([(f.rules, f.status) for f in out if f.kind == "misdeal"], [(("DEAL-10", "DEAL-9", "DEAL-26"), "proposed")])
    out = d.action(4, "raise", 600)
    out = d.action(5, "call", 600)
    eq([(f.kind, f.status) for f in out if f.kind == "misdeal"], [("misdeal", LAPSED)])
    dead = [f for f in out if f.kind == "dead_hand"]
    eq([(f.seat, f.rules) for f in dead], [(6, ("DEAL-25",))])
    d.confirm(dead[0].id)
    assert 6 not in d.live
    eq(d.phase, BETTING)
    # the money side (Hand positions 0..5 = seats 2..6, 1): seat 6 had put nothing in and gets
    # nothing back; the others' raise and call stand
    h = Hand("NT", [5000] * 6, blinds=[100, 200], seats=[2, 3, 4, 5, 6, 1])
    for p in range(6):
        h.deal_hole(p, [2 * p, 2 * p + 1])
    h.bet_raise_to(2, 600)
    h.check_call(3)
    h.kill(4)  # seat 6
    eq(h.live, [True, True, True, True, False, True])
    eq(h.stacks, [4900, 4800, 4400, 4400, 5000, 5000])
    eq(h.actor, 5)


def test_DEAL_25_example_dead_hand_then_one_burn_off_the_stub():
    # blinds in seats 1-2 (button 6); seat 3 folds, seat 4 calls (SA); seat 5 then holds three
    # cards (draw 12, meant for the button, went to seat 5): seat 5 is dead. After preflop the
    # dealer burns one card off the stub and deals the flop: no second burn, and seat 5's third
    # card is no burn.
    seats = [1, 2, 3, 4, 5, 6]
    d = DealCheck(dealplan.make_plan(seats, dealplan.HOLDEM, button=6), HouseRules(TOURNAMENT))
    for i, seat in enumerate(seats + [1, 2, 3, 4, 5, 5]):
        d.card(i, seat)
    d.action(3, "fold")
    out = d.action(4, "call", 200)
    dead = [f for f in out if f.kind == "dead_hand"]
    eq([f.seat for f in dead], [5])
    d.confirm(dead[0].id)
    eq(d.holding(5), ())
    give = [f for f in d.pending() if f.kind == "give_card"]
    eq([f.seat for f in give], [6])  # DEAL-24: the button may still get its card
    d.confirm(give[0].id)
    eq(kinds(d.card(30, 6)), [])
    d.action(6, "call", 200)
    d.action(1, "call", 200)
    d.action(2, "check")
    d.betting_closed()
    out = d.card(20, None)  # the burn, off the stub
    for c in (21, 22, 23):
        out += d.card(c, BOARD)
    eq(kinds(out), [])
    eq(d.burns, [20])
    eq(d.board, [21, 22, 23])
    assert 11 not in d.burns and 4 not in d.burns and 10 not in d.burns


def test_DEAL_3_a_second_burn_before_the_flop_is_a_burn_error():
    # one and only one burn per street: two draws to no antenna and then the flop is flagged
    seats = [1, 2, 3, 4, 5, 6]
    d = DealCheck(dealplan.make_plan(seats, dealplan.HOLDEM, button=6), HouseRules(TOURNAMENT))
    for i, seat in enumerate(seats * 2):
        d.card(i, seat)
    for s in (3, 4, 5, 6, 1):
        d.action(s, "call", 200)
    d.action(2, "check")
    d.betting_closed()
    out = d.card(20, None) + d.card(21, None) + d.card(22, BOARD)
    eq(kinds(out), ["burn_error"])
