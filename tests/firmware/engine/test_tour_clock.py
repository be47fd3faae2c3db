# Tournament level clock, player clock and penalty hands (RULES.md TOUR-1/2/6/8/11/17/21), with a
# manual clock: every time is a now_ms argument.
from check import eq, raises
from felt.engine.between_hands.clocks import ActionClock, Level, LevelClock, Penalties, make_levels
from felt.engine.findings import APPLIED, PROPOSED
from felt.engine.house.rules import TOURNAMENT, HouseRules
from felt.errors import ConfigError, RuleError

MIN = 60000
SEC = 1000

LEVELS = [
    {"minutes": 20, "sb": 100, "bb": 200, "ante": 25},
    {"minutes": 20, "sb": 150, "bb": 300, "ante": 25},
    {"minutes": 10, "is_break": True},
    {"minutes": 20, "sb": 200, "bb": 400, "ante": 50},
]


def test_TOUR_1_example_new_level_applies_from_the_next_hand():
    clock = LevelClock(LEVELS)
    clock.start(0)
    hand_88 = clock.hand_started(19 * MIN)  # hand 88 starts before 20:00
    eq((hand_88.sb, hand_88.bb), (100, 200))
    eq(clock.level(20 * MIN + 30 * SEC).bb, 300)  # the level ends while hand 88 is in progress
    eq(clock.levels[clock.hand_level].bb, 200)  # hand 88 finishes at 100/200
    hand_89 = clock.hand_started(21 * MIN)
    eq((hand_89.sb, hand_89.bb), (150, 300))


def test_DEAL_1_example_level_fixed_when_the_shoe_is_loaded():
    # the level clock hits zero while the shoe is loaded for hand 57: hand 57 plays the old level
    clock = LevelClock(LEVELS)
    clock.start(0)
    eq(clock.hand_started(20 * MIN - 1).bb, 200)
    eq(clock.hand_started(20 * MIN).bb, 300)


def test_DEAL_14_example_redeal_keeps_the_stakes():
    clock = LevelClock(LEVELS)
    clock.start(0)
    eq(clock.hand_started(19 * MIN).bb, 200)  # hand 57 at 100/200
    eq(clock.hand_started(20 * MIN + 5 * SEC, redeal=True).bb, 200)  # redeal after 150/300 began


def test_TOUR_1_pause_stops_the_level_clock_and_breaks_refuse_hands():
    clock = LevelClock(LEVELS)
    clock.start(0)
    clock.pause(10 * MIN)
    eq(clock.remaining_ms(50 * MIN), 10 * MIN)
    clock.resume(50 * MIN)
    eq(clock.remaining_ms(55 * MIN), 5 * MIN)
    clock.level(50 * MIN + 10 * MIN + 20 * MIN)  # into the break
    with raises(RuleError, match="break"):
        clock.hand_started(80 * MIN)


def test_TOUR_2_example_wrong_level_after_SA_continues():
    clock = LevelClock(LEVELS)
    clock.start(0)
    clock.hand_started(21 * MIN)  # hand 89 should be 150/300
    f = clock.check_hand_level(posted=0, sa=True)
    eq(f.rules, ("TOUR-2",))
    assert "continues at 100/200" in f.remedy
    g = clock.check_hand_level(posted=0, sa=False)
    eq(g.status, PROPOSED)
    assert "restart the hand at 150/300" in g.remedy
    eq(clock.check_hand_level(posted=1, sa=False), None)


def test_TOUR_8_example_hand_for_hand_two_minutes_per_hand():
    clock = LevelClock([{"minutes": 20, "sb": 100, "bb": 200}, {"minutes": 20, "sb": 200, "bb": 400}])
    clock.start(0)
    clock.start_hand_for_hand(9 * MIN)  # 11:00 remain, announced during a hand
    eq(clock.remaining_ms(9 * MIN), 11 * MIN)
    clock.hand_started(12 * MIN)  # real time does not count any more
    eq(clock.remaining_ms(12 * MIN), 9 * MIN)
    clock.hand_started(20 * MIN)
    eq(clock.remaining_ms(30 * MIN), 7 * MIN)


def test_TOUR_8_blinds_rise_as_levels_run_out_in_hand_for_hand():
    clock = LevelClock([{"minutes": 20, "sb": 100, "bb": 200}, {"minutes": 20, "sb": 200, "bb": 400}])
    clock.start(0)
    clock.start_hand_for_hand(17 * MIN)  # 3:00 left
    eq(clock.hand_started(18 * MIN).bb, 200)  # 1:00 left
    level = clock.hand_started(19 * MIN)  # the level ran out: next level with 1:00 carried
    eq(level.bb, 400)
    eq(clock.remaining_ms(19 * MIN), 19 * MIN)


def test_TOUR_11_example_no_push_in_the_last_90_seconds():
    clock = LevelClock(LEVELS)
    clock.start(0)
    eq(clock.push_warning(18 * MIN + 29 * SEC), False)
    eq(clock.push_warning(18 * MIN + 30 * SEC), True)  # 21:28:30 for a 21:30:00 change
    eq(clock.push_warning(20 * MIN + 1), False)


def test_TOUR_21_example_ante_reduction_rejected():
    with raises(RuleError, match="TOUR-21") as e:
        make_levels([{"minutes": 20, "sb": 100, "bb": 200, "ante": 25}, {"minutes": 20, "sb": 150, "bb": 300}])
    eq(e.value.legal, (25, None))
    make_levels([Level(20, 100, 200, 25), Level(10, is_break=True), Level(20, 150, 300, 25)])


def test_level_table_shape_errors():
    with raises(ConfigError, match="unknown field"):
        make_levels([{"minutes": 20, "big": 200}])
    with raises(ConfigError, match="positive"):
        make_levels([{"minutes": 0, "sb": 1, "bb": 2}])
    with raises(ConfigError, match="whole chips"):
        make_levels([{"minutes": 5, "sb": 1, "bb": 2.5}])


def tour_clock(value="tda2019"):
    return ActionClock(HouseRules(TOURNAMENT, values={"hr.clock": value}))


def test_TOUR_6_example_expiry_facing_a_bet_kills_the_hand():
    clock = tour_clock()
    clock.start(4, now_ms=1000, facing_bet=True)
    eq(clock.poll(1000 + 24999), [])
    warn = clock.poll(1000 + 25000)
    eq([f.kind for f in warn], ["clock_countdown"])
    eq(clock.poll(1000 + 29999), [])
    out = clock.poll(1000 + 30000)  # at 30.0 s the engine kills the hand
    eq((out[0].kind, out[0].detail["result"], out[0].status), ("clock_expired", "dead", APPLIED))
    eq(clock.poll(1000 + 40000), [])


def test_TOUR_6_example_expiry_with_no_bet_pending_is_a_check():
    clock = tour_clock()
    clock.start(4, now_ms=0, facing_bet=False)
    out = clock.poll(31000)
    eq([f.kind for f in out], ["clock_countdown", "clock_expired"])
    eq(out[1].detail["result"], "check")


def test_TOUR_6_action_coinciding_with_expiry_stands():
    clock = tour_clock()
    clock.start(4, now_ms=0, facing_bet=True)
    eq(clock.act(4, 30000), True)
    eq(clock.poll(30000), [])
    clock.start(5, now_ms=100000, facing_bet=True)
    clock.poll(130001)
    with raises(RuleError, match="TOUR-6"):
        clock.act(5, 130001)


def test_TOUR_6_legacy_60_10():
    clock = tour_clock("legacy_60_10")
    clock.start(2, now_ms=0, facing_bet=False)
    eq(clock.poll(59999), [])
    eq([f.kind for f in clock.poll(60000)], ["clock_countdown"])
    out = clock.poll(70000)
    eq(out[0].detail["result"], "dead")  # dead even with no bet pending


def test_TOUR_17_example_one_round_penalty_at_seven_handed_table():
    p = Penalties("hands")
    eq(p.give(4, rounds=1, players=7), 7)
    for _ in range(6):
        eq(p.hand_started(), [4])
    eq(p.hand_started(redeal=True), [4])  # a redeal is the same hand (DEAL-14)
    eq(p.hand_started(), [4])  # the 7th hand
    eq(p.hand_started(), [])
    eq(p.left(4), 0)


def test_TOUR_17_minutes_unit():
    p = Penalties("minutes")
    p.give(2, minutes=10, now_ms=0)
    eq(p.hand_started(now_ms=9 * MIN), [2])
    eq(p.hand_started(now_ms=10 * MIN), [])
    with raises(ConfigError):
        Penalties("orbits")


def C(text):
    return "23456789TJQKA".index(text[0]) * 4 + "cdhs".index(text[1])


def test_TOUR_3_example_chip_race():
    from felt.engine.between_hands.clocks import chip_race

    odd = {1: 3, 3: 2, 4: 1, 6: 3, 8: 1}  # 250 in 25-chips
    cards = {1: [C("Kc"), C("4d"), C("2c")], 3: [C("9h"), C("3s")], 4: [C("Qh")],
             6: [C("As"), C("Kd"), C("5c")], 8: [C("Jc")]}
    race = chip_race(odd, cards, 25, 100)
    eq(race.races, 3)  # 250 / 100 = 2.5, rounded half up
    eq(race.winners, [1, 4, 6])
    eq(race.order[:4], [(C("As"), 6), (C("Kd"), 6), (C("Kc"), 1), (C("Qh"), 4)])


def test_TOUR_3_race_cards_must_match_odd_chips():
    from felt.engine.between_hands.clocks import chip_race

    with raises(RuleError, match="TOUR-3"):
        chip_race({1: 2}, {1: [C("As")]}, 25, 100)


def test_TOUR_4_example_nobody_is_raced_out():
    from felt.engine.between_hands.clocks import chip_race

    odd = {2: 1, 8: 1}
    race = chip_race(odd, {2: [C("Ah")], 8: [C("3c")]}, 25, 100, stacks={2: 5025, 8: 25})
    eq(race.winners, [2])  # 50 / 100 rounds half up to 1 chip
    eq(race.rescued, [8])  # seat 8's whole stack was one 25-chip: it gets one 100-chip


def test_TOUR_8_refused_hand_at_a_break_costs_no_time():
    clock = LevelClock([{"minutes": 20, "sb": 100, "bb": 200}, {"minutes": 10, "is_break": True},
                        {"minutes": 20, "sb": 200, "bb": 400}])
    clock.start(0)
    clock.start_hand_for_hand(19 * MIN, hand_in_progress=False)  # 1:00 left, between hands
    eq(clock.hand_started(19 * MIN).bb, 200)  # the first hand costs nothing at its start
    with raises(RuleError, match="break"):
        clock.hand_started(25 * MIN)  # its 2 minutes would run into the break
    eq(clock.remaining_ms(25 * MIN), 1 * MIN)  # refused: unchanged
    eq(clock.hands_in_h4h, 1)


def test_TOUR_24_example_eliminated_seat_becomes_empty():
    from felt.engine.between_hands.clocks import eliminated

    eq(eliminated({1: 5000, 3: 0, 6: 0}, pending_rebuys=(6,)), [3])


def test_TOUR_9_example_larger_starting_stack_finishes_higher():
    from felt.engine.between_hands.clocks import rank_eliminations

    eq(rank_eliminations({7: 2900, 3: 4200}), [(3,), (7,)])
    eq(rank_eliminations({2: 1000, 5: 1000, 9: 3000}), [(9,), (2, 5)])  # equal stacks share


def test_TOUR_15_example_halt_when_the_bb_hits_an_empty_seat():
    from felt.engine.between_hands.clocks import halt_check

    f = halt_check(players_here=5, fullest_table=8, next_bb_seat_empty=True)
    eq((f.rules, f.status), (("TOUR-15",), PROPOSED))
    assert "HALT" in f.remedy
    eq(halt_check(5, 8, next_bb_seat_empty=False), None)
    eq(halt_check(6, 8, next_bb_seat_empty=True), None)  # only two short
    eq(halt_check(5, 8, True, td_discretion=True).status, "info")
