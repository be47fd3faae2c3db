# Pot division (felt.engine.hand.pots.award/split): RULES.md POT-5..16 worked examples. Hand
# values are plain ints (larger is better), so these tests need no evaluator.
from check import eq, raises
from felt.engine.hand.pots import Pot, award, build_pots, split, total_shares
from felt.engine.hand.stud_odd_chip import odd_order_by_card
from felt.errors import RuleError

T = True
N = None


def card(text):
    return "23456789TJQKA".index(text[0]) * 4 + "cdhs".index(text[1])


def shares(awards):
    return [(a.pot_index, a.half, a.shares) for a in awards]


def test_POT_5_all_in_player_wins_only_what_they_matched():
    pots = build_pots([300, 700, 1500, 1500], [T, T, T, T])
    got = award(pots, [40, 30, 20, 10])  # A best, then B, C, D
    eq(shares(got), [(2, "whole", [(2, 1600)]), (1, "whole", [(1, 1200)]), (0, "whole", [(0, 1200)])])
    eq(total_shares(got, 4), [1200, 1200, 1600, 0])


def test_POT_6_each_pot_split_on_its_own_odd_chips_per_pot():
    # Main 1,025 split two ways (unit 25): 525 + 500; side 600 to one winner, never used
    # to even out the main pot.
    pots = [Pot(0, 1025, (0, 1, 2)), Pot(1, 600, (1, 2))]
    got = award(pots, [9, 9, 5], unit=25)
    eq(shares(got), [(1, "whole", [(1, 600)]), (0, "whole", [(0, 525), (1, 500)])])


def test_POT_7_side_pots_awarded_first_main_pot_last():
    pots = [Pot(0, 2100, (0, 1, 2)), Pot(1, 2000, (1, 2))]
    got = award(pots, [3, 2, 1])
    eq([a.pot_index for a in got], [1, 0])
    eq(shares(got), [(1, "whole", [(1, 2000)]), (0, "whole", [(0, 2100)])])


def test_POT_8_uncontested_side_pot_goes_without_showdown():
    # A all-in 300 preflop; B bets the river into the B-C side pot and C folds (bet returned).
    pots = build_pots([300, 800, 800], [T, T, False])
    got = award(pots, [5, 7, N])
    eq(shares(got), [(1, "whole", [(1, 1000)]), (0, "whole", [(1, 900)])])
    # Hand over before showdown: no values at all, the single eligible hand takes it.
    got = award(build_pots([50, 100], [False, T]), [N, N])
    eq(shares(got), [(0, "whole", [(1, 150)])])
    eq(got[0].value, None)


def test_POT_9_tied_hands_share():
    got = award([Pot(0, 1000, (0, 1))], [8, 8])
    eq(shares(got), [(0, "whole", [(0, 500), (1, 500)])])


def test_POT_10_odd_units_of_the_smallest_chip():
    # 1,000 in 25s is 40 units; three ways: 14, 13, 13 units.
    eq(split(1000, [0, 1, 2], unit=25), [(0, 350), (1, 325), (2, 325)])
    eq(split(1000, [2, 0, 1], order=[1, 2, 0], unit=25), [(1, 350), (2, 325), (0, 325)])
    # Two odd units go to the first two in order; a sub-unit remainder to the first.
    eq(split(100, [0, 1, 2], unit=25), [(0, 50), (1, 25), (2, 25)])
    eq(split(107, [0, 1], unit=5), [(0, 57), (1, 50)])
    with raises(RuleError, match="POT-10"):
        split(100, [0, 1], unit=0)


def test_POT_11_odd_chip_first_tied_winner_left_of_button():
    # Button seat 6 of seats 1..9, tie between seats 2, 5 and 8 for 1,000 (unit 25).
    seats = [7, 8, 9, 1, 2, 3, 4, 5, 6]  # seat per position: left of the button first
    hi = [0] * 9
    for s in (2, 5, 8):
        hi[seats.index(s)] = 77
    got = award([Pot(0, 1000, tuple(range(9)))], hi, unit=25)
    by_seat = [(seats[p], chips) for p, chips in got[0].shares]
    eq(by_seat, [(8, 350), (2, 325), (5, 325)])


def test_POT_11_dead_button_seat_still_comes_last():
    # Dead button on empty seat 4; seats 5, 6, 2 (button side) tie: seat 5 is first left.
    seats = [5, 6, 2]
    got = award([Pot(0, 1000, (0, 1, 2))], [9, 9, 9], unit=25)
    eq([(seats[p], c) for p, c in got[0].shares], [(5, 350), (6, 325), (2, 325)])


def test_POT_12_stud_odd_chip_to_highest_card_by_suit():
    # Pot 1,075 (unit 25), tie at A-K-Q-J-9: the As hand gets 550, the Ah hand 525.
    order = odd_order_by_card([card("Ah"), card("As"), None])
    eq(order, [1, 0])
    got = award([Pot(0, 1075, (0, 1, 2))], [50, 50, 10], odd_order=order, unit=25)
    eq(got[0].shares, [(1, 550), (0, 525)])
    # hr.stud_odd_chip_low = lowest_card orders by the lowest card, lowest first.
    eq(odd_order_by_card([card("5h"), card("3c"), card("4d")], lowest=True), [1, 2, 0])


def test_POT_13_hilo_odd_unit_to_high_half_then_split_each_half():
    # Omaha/8, pot 1,025 (unit 25): high 525, low 500. Seats 7, 9, 2, 3 with the button on
    # seat 5; high tied by seats 2 and 7, low tied by seats 9 and 3.
    seats = [7, 9, 2, 3]
    hi = [90, 10, 90, 20]
    lo = [-1, 500, N, 500]
    got = award([Pot(0, 1025, (0, 1, 2, 3))], hi, lo=lo, unit=25)
    eq([(a.half, a.amount) for a in got], [("high", 525), ("low", 500)])
    eq([(seats[p], c) for p, c in got[0].shares], [(7, 275), (2, 250)])
    eq([(seats[p], c) for p, c in got[1].shares], [(9, 250), (3, 250)])


def test_POT_14_no_low_or_scoop_takes_the_whole_pot():
    got = award([Pot(0, 1600, (0, 1))], [9, 3], lo=[-1, N])
    eq(shares(got), [(0, "whole", [(0, 1600)])])
    assert got[0].no_low
    got = award([Pot(0, 1600, (0, 1))], [9, 3], lo=[700, 600])
    eq(shares(got), [(0, "whole", [(0, 1600)])])
    eq((got[0].value, got[0].lo_value, got[0].no_low), (9, 700, False))


def test_POT_15_identical_hilo_scoop_even_split_or_halves():
    # Omaha/8, pot 6,600 in 100 chips; A (first left of the button) and B both hold a wheel.
    pot = [Pot(0, 6600, (0, 1, 2))]
    hi, lo = [40, 40, 10], [900, 900, 800]
    got = award(pot, hi, lo=lo, unit=100)
    eq(shares(got), [(0, "whole", [(0, 3300), (1, 3300)])])
    got = award(pot, hi, lo=lo, unit=100, hilo_identical_scoop="halves_then_odd")
    eq(shares(got), [(0, "high", [(0, 1700), (1, 1600)]), (0, "low", [(0, 1700), (1, 1600)])])
    eq(total_shares(got, 3), [3400, 3200, 0])
    with raises(RuleError, match="POT-15"):
        award(pot, hi, lo=lo, hilo_identical_scoop="coin_flip")


def test_POT_16_hilo_in_every_side_pot_separately():
    # Main 900 (A, B, C): A best high, B best low. Side 600 (B, C): C better high, B only low.
    pots = build_pots([300, 600, 600], [T, T, T])
    eq([(p.amount, p.eligible) for p in pots], [(900, (0, 1, 2)), (600, (1, 2))])
    got = award(pots, [30, 10, 20], lo=[-1, 400, N])
    eq(shares(got), [(1, "high", [(2, 300)]), (1, "low", [(1, 300)]),
                     (0, "high", [(0, 450)]), (0, "low", [(1, 450)])])


def test_POT_8_pot_with_no_contesting_hand_is_an_error():
    with raises(RuleError, match="POT-8"):
        award([Pot(0, 100, (0, 1))], [N, N])
    with raises(RuleError, match="POT-3"):
        award([Pot(0, 100, (0, 5))], [1, 2])


def test_POT_9_chips_conserved_in_every_division():
    cases = [
        ([Pot(0, 1237, (0, 1, 2, 3))], [5, 5, 5, 1], None, 25),
        ([Pot(0, 999, (0, 1, 2)), Pot(1, 333, (1, 2))], [7, 7, 7], [500, 500, -1], 1),
        ([Pot(0, 1001, (0, 1, 2))], [7, 6, 7], [400, 500, 500], 5),
    ]
    for pots, hi, lo, unit in cases:
        got = award(pots, hi, lo=lo, unit=unit)
        eq(sum(sum(c for _, c in a.shares) for a in got), sum(p.amount for p in pots))
        for a in got:
            eq(sum(c for _, c in a.shares), a.amount)
