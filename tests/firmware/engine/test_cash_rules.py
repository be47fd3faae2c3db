# Cash-game rules the engine decides (RULES.md CASH-1/2/7..13, POT-20).
from check import eq, raises
from felt.engine.house import cash
from felt.engine.between_hands.clocks import ActionClock
from felt.engine.findings import PROPOSED
from felt.engine.house.rules import CASH, HouseRules
from felt.engine.house.values import JACKPOT_DROP, Rake
from felt.errors import RuleError


def test_CASH_7_rake_example():
    rake = HouseRules(CASH, values={"rake": {"percent": 5, "cap": 150}}).rake
    eq(rake.take(1000), 50)
    eq(rake.take(4000), 150)


def test_POT_20_rake_and_jackpot_drop_example():
    # Pot 2,400 with 5 % rake capped at 150 and a 0.5 % drop: rake 120, drop 12, 2,268 awarded.
    rake = Rake(500, 150)
    pot = 2400
    taken = rake.take(pot) + JACKPOT_DROP.take(pot)
    eq((rake.take(pot), JACKPOT_DROP.take(pot), pot - taken), (120, 12, 2268))


def test_CASH_12_jackpot_drop_example():
    eq(JACKPOT_DROP.take(3000), 15)


def test_POT_20_rake_rounds_down_to_unit():
    eq(Rake(500).take(1990, unit=25), 75)  # 99.5 -> 99 -> 75


def test_CASH_1_buy_in_examples():
    with raises(RuleError, match="CASH-1") as e:
        cash.check_buy_in(300, 400)  # L 20/40, minimum 400
    eq(e.value.legal, (400, None))
    eq(cash.check_buy_in(5000, 4000), 5000)  # NL 100/200, minimum 4,000
    with raises(RuleError, match="at most 10000"):
        cash.check_buy_in(12000, 4000, 10000)


def test_CASH_2_short_buy_in_example():
    eq(cash.check_short_buy_in(2000, 4000, bought_full_before=True), 2000)
    with raises(RuleError, match="CASH-2") as e:
        cash.check_short_buy_in(1500, 4000, bought_full_before=True)
    eq(e.value.legal, (2000, 4000))
    with raises(RuleError, match="earlier full buy-in"):
        cash.check_short_buy_in(2000, 4000, bought_full_before=False)


def test_CASH_2_short_buyin_once_house_rule():
    once = HouseRules(CASH, values={"short_buyin_once": True})
    with raises(RuleError, match="only one short buy-in"):
        cash.check_short_buy_in(2000, 4000, True, short_buys_before=1, rules=once)
    eq(cash.check_short_buy_in(2000, 4000, True, short_buys_before=1, rules=HouseRules(CASH)), 2000)


def test_CASH_11_example_jackpot_distribution():
    # jackpot 20,000, 6 other players dealt in: 8,000 / 5,000 / 500 each / 4,000 seed
    eq(cash.jackpot_shares(20000, 6), (8000, 5000, 500, 4000))


def test_CASH_11_rounding_leftovers_stay_in_the_seed():
    loser, winner, each, seed = cash.jackpot_shares(10001, 7, unit=5)
    eq((loser, winner, each), (4000, 2500, 210))
    eq(loser + winner + each * 7 + seed, 10001)


def test_CASH_13_example_timer_expiry_proposes_the_kill():
    clock = ActionClock(HouseRules(CASH, values={"hr.cash_action_timer": 60}))
    clock.start(2, now_ms=0, facing_bet=True)
    eq(clock.poll(59999), [])
    out = clock.poll(60000)
    eq([(f.kind, f.status, f.rules[0]) for f in out], [("clock_expired", PROPOSED, "CASH-13")])


def test_CASH_13_timer_off_by_default():
    clock = ActionClock(HouseRules(CASH))
    eq(clock.enabled(), False)
    with raises(RuleError, match="CASH-13"):
        clock.start(2, now_ms=0, facing_bet=False)


def cards(text):
    out = []
    for i in range(0, len(text.replace(" ", "")), 2):
        t = text.replace(" ", "")[i:i + 2]
        out.append("23456789TJQKA".index(t[0]) * 4 + "cdhs".index(t[1]))
    return out


def test_CASH_9_example_royal_flush_beats_quad_sevens():
    board = cards("7h 7s Kc Qc Jc")
    holes = {2: cards("7c 7d"), 5: cards("Ac Tc")}
    got = cash.bad_beat(holes, board, dealt_in=[1, 2, 3, 5, 8])
    eq(got, {"winner": 5, "loser": 2, "others": [1, 3, 8]})


def test_CASH_8_example_quad_sevens_beaten_by_quad_eights_qualifies():
    holes = {1: cards("7c 7d"), 4: cards("8c 8d")}
    board = cards("7h 7s 8h 8s 2c")
    got = cash.bad_beat(holes, board, dealt_in=[1, 2, 3, 4])
    eq((got["winner"], got["loser"]), (4, 1))


def test_CASH_8_example_aces_full_losing_to_quads_does_not_qualify():
    board = cards("Ah Ad Kc 9s 9h")
    holes = {1: cards("As Kd"), 4: cards("9c 9d")}
    eq(cash.bad_beat(holes, board, dealt_in=[1, 2, 3, 4]), None)


def test_CASH_9_conditions():
    board = cards("7h 7s Kc Qc Jc")
    holes = {2: cards("7c 7d"), 5: cards("Ac Tc")}
    eq(cash.bad_beat(holes, board, dealt_in=[2, 3, 5]), None)  # only three dealt in
    rules = HouseRules(CASH, values={"hr.bbj_min_rake": 100})
    eq(cash.bad_beat(holes, board, dealt_in=[1, 2, 3, 5], rake=50, rules=rules), None)
    eq(cash.bad_beat(holes, board, dealt_in=[1, 2, 3, 5], rake=100, rules=rules)["winner"], 5)
    # the loser must use both hole cards: quads on board plus one hole card does not count
    board2 = cards("7h 7s 7c 7d 2c")
    eq(cash.bad_beat({2: cards("Kd 3c"), 5: cards("Ac 4d")}, board2, dealt_in=[1, 2, 3, 5]), None)


def test_CASH_10_example_three_qualifying_hands():
    # quads 7s, quads 8s and a straight flush: the straight flush wins, quads 8s is the loser,
    # the quad-7s player shares the table portion with the others
    board = cards("7h 8h 7s 8s 9h")
    holes = {1: cards("7c 7d"), 2: cards("8c 8d"), 3: cards("Th Jh")}
    got = cash.bad_beat(holes, board, dealt_in=[1, 2, 3, 4, 5])
    eq(got, {"winner": 3, "loser": 2, "others": [1, 4, 5]})
