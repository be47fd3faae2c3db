# Pot construction (felt.engine.hand.pots.build_pots, uncalled; take_rake in felt.engine.house.values): RULES.md POT-1..5,
# POT-8, POT-17, POT-20, GAME-17 worked examples. Positions are 0.. in PHH order.
from check import eq, raises
from felt.engine.hand.pots import Pot, build_pots, uncalled
from felt.engine.house.values import take_rake
from felt.errors import RuleError

T, F = True, False


def amounts(pots):
    return [(p.amount, p.eligible) for p in pots]


def test_POT_1_preflop_collection_keeps_folded_sb_as_dead_money():
    # SB 50 folds, BB calls UTG's 300: 650 collected, the SB's 50 dead (POT-1).
    pots = build_pots([50, 300, 300], [F, T, T])
    eq(amounts(pots), [(650, (1, 2))])


def test_POT_2_uncalled_part_of_a_bet_is_returned():
    # A bets 2,000, B calls all-in for 1,200: 800 back to A.
    eq(uncalled([2000, 1200]), (0, 800))
    # A bets 1,000 and everyone folds: all 1,000 back.
    eq(uncalled([0, 1000, 0, 0]), (1, 1000))
    # A folder's chips on the street did match part of the bet.
    eq(uncalled([500, 1500, 0]), (1, 1000))
    eq(uncalled([300, 300]), None)
    eq(uncalled([0, 0, 0]), None)


def test_POT_3_main_and_two_side_pots():
    # A all-in 300, B all-in 700, C and D 1,500 each.
    pots = build_pots([300, 700, 1500, 1500], [T, T, T, T])
    eq(amounts(pots), [(1200, (0, 1, 2, 3)), (1200, (1, 2, 3)), (1600, (2, 3))])
    eq([p.index for p in pots], [0, 1, 2])
    eq(pots[0].name, "the main pot")
    eq(pots[2].name, "side pot 2")


def test_POT_3_s2_case_all_in_between_bet_and_raise():
    # P1 bets 100, P2 all-in 200, P3 raises to 500, P1 calls: 200 of P3's 500 plays in the
    # main pot with P2, 300 in a side pot for P1 and P3 only.
    pots = build_pots([500, 200, 500], [T, T, T])
    eq(amounts(pots), [(600, (0, 1, 2)), (600, (0, 2))])


def test_POT_4_folded_chips_stay_in_every_layer_they_reached():
    pots = build_pots([300, 700, 1500, 1500, 1000], [T, T, T, T, F])
    eq(amounts(pots), [(1500, (0, 1, 2, 3)), (1600, (1, 2, 3)), (1900, (2, 3))])
    eq(sum(p.amount for p in pots), 5000)


def test_POT_6_pots_with_same_players_are_not_merged_but_layers_are_distinct():
    # Every layer top is a distinct live total, so eligible sets always differ.
    pots = build_pots([100, 400, 400, 900, 900], [T, F, T, T, T])
    eq(amounts(pots), [(500, (0, 2, 3, 4)), (1200, (2, 3, 4)), (1000, (3, 4))])
    for i in range(1, len(pots)):
        assert pots[i].eligible != pots[i - 1].eligible


def test_POT_8_folded_chips_above_every_live_total_are_never_lost():
    # A killed hand's unreturned excess (POT-2 is the caller's job) lands in the last pot.
    pots = build_pots([300, 1000], [T, F])
    eq(amounts(pots), [(1300, (0,))])


def test_POT_17_dead_money_goes_whole_into_the_main_pot():
    # NL 100/200: a returning player's 100 dead SB counts toward nobody's call. SB, BB and
    # the returning player all end preflop at 200: 3 x 200 + 100 dead.
    pots = build_pots([200, 200, 200], [T, T, T], dead=100)
    eq(amounts(pots), [(700, (0, 1, 2))])
    # Dead money stays in the main pot even when a short all-in makes a side pot.
    pots = build_pots([50, 200, 200], [T, T, T], dead=100)
    eq(amounts(pots), [(250, (0, 1, 2)), (300, (1, 2))])
    # An absent seat's 200 BB is layered: another player all-in for 150 -> 150 main, 50 side.
    pots = build_pots([150, 200, 200], [T, F, T])
    eq(amounts(pots), [(450, (0, 2)), (100, (2,))])


def test_GAME_17_short_ante_makes_a_side_pot():
    # Stud, 7 players ante 10, one holds only 6: main 7 x 6 = 42, side 6 x 4 = 24.
    pots = build_pots([10, 10, 6, 10, 10, 10, 10], [T] * 7)
    eq(amounts(pots), [(42, (0, 1, 2, 3, 4, 5, 6)), (24, (0, 1, 3, 4, 5, 6))])


def test_POT_3_chips_conserved_over_many_shapes():
    shapes = [
        ([5, 5, 5], [T, T, T]),
        ([0, 7, 3, 9, 9, 1], [F, T, T, T, F, T]),
        ([25, 50, 75, 100, 125], [T, F, T, F, T]),
        ([0, 0, 10], [T, T, T]),
    ]
    for committed, live in shapes:
        pots = build_pots(committed, live, dead=3)
        eq(sum(p.amount for p in pots), sum(committed) + 3)
        for pot in pots:
            assert pot.amount > 0
            assert pot.eligible


def test_POT_3_bad_input_names_the_rule():
    with raises(RuleError, match="POT-3"):
        build_pots([100, 200], [T])
    with raises(RuleError, match="POT-3"):
        build_pots([100, -5], [T, T])
    with raises(RuleError, match="POT-8"):
        build_pots([100, 200], [F, F])


def test_POT_20_rake_and_drop_before_the_award():
    # Pot 2,400, rake 5 % capped at 150, jackpot drop 0.5 %: rake 120, drop 12, 2,268 left.
    pots, rake, drop = take_rake([Pot(0, 2400, (0, 1))], rake_bp=500, cap=150, drop_bp=50)
    eq((rake, drop), (120, 12))
    eq(pots, [Pot(0, 2268, (0, 1))])
    # The cap binds and amounts round down to the unit; main pot first, then side pots.
    pots, rake, drop = take_rake([Pot(0, 100, (0, 1, 2)), Pot(1, 4000, (1, 2))],
                                 rake_bp=500, cap=150, unit=25)
    eq((rake, drop), (150, 0))
    eq([p.amount for p in pots], [0, 3950])
    pots, rake, drop = take_rake([Pot(0, 990, (0, 1))], rake_bp=500, unit=25)
    eq(rake, 25)  # 49.5 rounds down to 25
