# RULES.md examples of pot and forced-bet rules with few tests of their own (POT-1, POT-3/4/5,
# POT-6, POT-7, POT-16, POT-17, GAME-17, BLIND-8, BLIND-11, BLIND-12, BLIND-14), played through
# the engine Hand or pots.py. Runs under CPython and MicroPython.
from check import eq

from felt.engine.hand import pots
from felt.engine.hand.machine import Hand


def dealt(stacks, blinds, **kw):
    h = Hand("NT", stacks, blinds=blinds, **kw)
    for p in range(len(stacks)):
        h.deal_hole(p, [4 * p, 4 * p + 1])
    return h


def layers(ps):
    return [(q.amount, q.eligible) for q in ps]


def test_POT_1_example_preflop_collection():
    # NL 50/100: UTG raises to 300, the SB folds, the BB calls: 650 collected (SB's 50 dead)
    h = dealt([1000] * 4, [50, 100, 0, 0])
    h.bet_raise_to(2, 300)
    h.fold(3)
    h.fold(0)
    h.check_call(1)
    eq(h.street, 1)
    eq(layers(h.pots()), [(650, (1, 2))])


def test_POT_3_POT_4_POT_5_examples_layers_dead_money_and_who_wins_what():
    # A all-in 300, B all-in 700, C and D 1,500 each; E put in 1,000 and folded
    got = pots.build_pots([300, 700, 1500, 1500, 1000], [True, True, True, True, False])
    eq(layers(got), [(1500, (0, 1, 2, 3)), (1600, (1, 2, 3)), (1900, (2, 3))])
    # POT-5 with the POT-3 pots: A best, then B, then C, then D
    got = pots.build_pots([300, 700, 1500, 1500], [True] * 4)
    eq(layers(got), [(1200, (0, 1, 2, 3)), (1200, (1, 2, 3)), (1600, (2, 3))])
    shares = pots.total_shares(pots.award(got, [4, 3, 2, 1]), 4)
    eq(shares, [1200, 1200, 1600, 0])


def test_POT_6_example_each_pot_divided_on_its_own():
    got = pots.award([pots.Pot(0, 1025, (0, 1, 2)), pots.Pot(1, 600, (1, 2))], [9, 9, 1], unit=25)
    eq([(a.pot_index, a.shares) for a in got], [(1, [(1, 600)]), (0, [(0, 525), (1, 500)])])


def test_POT_7_example_side_pot_awarded_before_the_main_pot():
    got = pots.award([pots.Pot(0, 2100, (0, 1, 2)), pots.Pot(1, 2000, (1, 2))], [9, 5, 1])
    eq([a.pot_index for a in got], [1, 0])


def test_POT_16_example_hi_lo_in_every_side_pot():
    # main 900 (A, B, C): A best high, B best low; side 600 (B, C): C better high, B only low
    got = pots.award([pots.Pot(0, 900, (0, 1, 2)), pots.Pot(1, 600, (1, 2))], [9, 1, 5], lo=[None, 3, None])
    eq(pots.total_shares(got, 3), [450, 750, 300])


def test_POT_17_example_an_absent_seats_big_blind_is_layered_with_an_all_in_for_less():
    # tournament NL 100/200: the absent BB's 200 is its contribution; UTG is all-in for 150
    h = Hand("NT", [10000, 10000, 150, 10000], blinds=[100, 200, 0, 0], rules={"mode": "tournament"})
    h.kill(1)  # BLIND-23: dealt in, pays, killed
    for p in (0, 2, 3):
        h.deal_hole(p, [4 * p, 4 * p + 1])
    h.check_call(2)
    h.check_call(3)
    h.check_call(0)
    eq(layers(h.pots()), [(600, (0, 2, 3)), (150, (0, 3))])  # 150 of the BB in the main pot, 50 in the side


def test_GAME_17_example_a_short_ante_is_all_in_and_wins_only_the_main_pot():
    h = Hand("F7S", [1000] * 6 + [6], antes=10, bring_in=10, small_bet=20, big_bet=40)
    eq(h.pot_total(), 66)
    eq(h.all_in[6], True)
    eq(layers(h.pots()), [(42, (0, 1, 2, 3, 4, 5, 6)), (24, (0, 1, 2, 3, 4, 5))])


def test_BLIND_8_example_short_big_blind_callers_still_owe_the_full_blind():
    h = dealt([1000, 120, 1000], [100, 200, 0])
    eq((h.stacks[1], h.all_in[1]), (0, True))
    eq(h.legal().call, 200)
    h.check_call(2)
    h.fold(0)
    eq(h.stacks[2], 880)  # the 80 the all-in BB could not match came back (POT-2)
    eq(layers(h.pots()), [(340, (1, 2))])


def test_BLIND_11_BLIND_14_example_live_and_dead_make_up():
    # NL 100/200, 6-handed: seat 4 (position 3) returns and posts 200 live + 100 dead
    h = Hand("NT", [10000] * 6, blinds=[100, 200, 0, 200, 0, 0], dead=[0, 0, 0, 100, 0, 0])
    for p in range(6):
        h.deal_hole(p, [4 * p, 4 * p + 1])
    eq(h.pot_total(), 600)  # 100 + 200 + 200 + 100
    h.check_call(2)
    eq(h.actor, 3)
    eq(h.legal().call, 0)  # nobody raised: seat 4 may check
    h = Hand("NT", [10000] * 6, blinds=[100, 200, 0, 200, 0, 0], dead=[0, 0, 0, 100, 0, 0])
    for p in range(6):
        h.deal_hole(p, [4 * p, 4 * p + 1])
    h.bet_raise_to(2, 600)  # UTG raises to 600: seat 4 needs 400 more (its dead 100 does not count)
    eq(h.legal().call, 400)


def test_BLIND_12_example_no_small_blind_the_call_is_still_the_big_blind():
    h = dealt([1000] * 4, [0, 200, 0, 0])
    eq(h.legal().call, 200)
    for p in (2, 3, 0):
        h.fold(p)
    eq((h.finished, h.stacks), (True, [1000] * 4))  # the big blind's own 200 comes back
