# RULES.md examples of betting rules that had no test of their own (BET-5, BET-9, BET-11, BET-13,
# BET-19, BET-31, BET-37, BET-45, BET-46, BET-47, BLIND-10), played through the engine Hand and
# the console chip-push reading (declare.py). Runs under CPython and MicroPython.
from check import eq

from felt.engine.hand import chip_push as declare
from felt.engine.hand.machine import Hand


def dealt(game, stacks, blinds, **kw):
    h = Hand(game, stacks, blinds=blinds, **kw)
    for p in range(len(stacks)):
        h.deal_hole(p, [4 * p, 4 * p + 1])
    return h


def preflop_called(h):
    """Everyone calls the big blind; the big blind checks: the flop is dealt."""
    while h.street == 0 and h.phase == "bet":
        h.check_call(h.actor)
    h.burn(48)
    h.deal_board([49, 50, 51])
    eq((h.phase, h.street), ("bet", 1))


def test_BET_19_example_two_short_all_ins_add_up_to_a_full_raise():
    # NL 100/200, flop: A bets 200, B all-in 260, C calls 260, D all-in 400, E calls 400
    stacks = [5000, 460, 5000, 600, 5000]  # A=0 B=1 C=2 D=3 E=4 (B and D keep 260 and 400 after the flop call)
    for branch in ("call", "raise"):
        h = dealt("NT", stacks, [100, 200, 0, 0, 0])
        preflop_called(h)
        h.bet_raise_to(0, 200)
        h.bet_raise_to(1, 260)
        h.check_call(2)
        h.bet_raise_to(3, 400)
        h.check_call(4)
        eq(h.actor, 0)
        lg = h.legal()
        eq((lg.call, lg.can_raise), (200, True))  # 400 - 200 = 200 >= 200: A may raise
        if branch == "call":
            h.check_call(0)
            eq(h.actor, 2)
            lg = h.legal()
            eq((lg.call, lg.can_raise), (140, False))  # C faces 140 < 200: call or fold
        else:
            h.bet_raise_to(0, 600)
            eq(h.actor, 2)
            lg = h.legal()
            eq((lg.call, lg.can_raise), (340, True))  # C faces 340 >= 200: may re-raise


def test_BLIND_10_example_the_big_blind_may_raise_after_a_short_all_in():
    # NL 1,000/2,000: A calls 2,000, C all-in for 3,500 (+1,500), the SB folds
    for branch in ("call", "raise"):
        h = dealt("NT", [50000, 50000, 50000, 3500], [1000, 2000, 0, 0])  # SB BB A C
        h.check_call(2)
        h.bet_raise_to(3, 3500)
        h.fold(0)
        eq(h.actor, 1)
        lg = h.legal()
        eq((lg.call, lg.can_raise, lg.min_to), (1500, True, 5500))
        if branch == "call":
            h.check_call(1)
            eq(h.actor, 2)
            lg = h.legal()
            eq((lg.call, lg.can_raise), (1500, False))  # A faces 1,500 < 2,000
        else:
            h.bet_raise_to(1, 5500)
            eq(h.actor, 2)
            lg = h.legal()
            eq((lg.call, lg.can_raise), (3500, True))


def test_BET_11_example_a_short_all_in_raise_stands_and_is_not_topped_up():
    h = dealt("NT", [5000, 1500, 5000], [100, 200, 0])
    preflop_called(h)
    h.bet_raise_to(0, 1000)
    eq(h.legal().min_to, 1300)  # B's all-in is below the 2,000 minimum raise: legal as it stands
    h.bet_raise_to(1, 1300)
    eq((h.stacks[1], h.bets[1]), (0, 1300))


def test_BET_13_example_single_oversized_chip_not_facing_a_bet_nl_and_pl():
    # flop pot 350 (seven players call 50), first to act silently pushes one 1,000 chip
    for game, total, change in (("NT", 1000, 0), ("PT", 350, 650)):
        h = dealt(game, [5000] * 7, [25, 50, 0, 0, 0, 0, 0])
        preflop_called(h)
        eq(h.pot_total(), 350)
        r = declare.interpret(h, 0, chips=[1000])
        eq((r.action, r.total, r.change, r.rule), ("bet", total, change, "BET-13"))


def test_BET_9_example_fifty_percent_standard_flop_and_preflop():
    h = dealt("NT", [10000] * 3, [100, 200, 0])
    preflop_called(h)
    h.bet_raise_to(0, 1000)
    r = declare.interpret(h, 1, chips=[1000, 500])  # +500 >= 500: must make it 2,000
    eq((r.action, r.total, r.rule), ("raise", 2000, "BET-9"))
    r = declare.interpret(h, 1, amount=1400)  # "fourteen hundred": a call, 400 returned
    eq((r.action, r.total, r.change, r.rule), ("call", 1000, 400, "BET-9"))
    for basis, want in (("largest_full_increment", ("raise", 1000)), ("previous_bet", ("call", 600))):
        h = dealt("NT", [10000] * 3, [100, 200, 0], rules={"fifty_pct_basis": basis})
        h.bet_raise_to(2, 600)  # A raises to 600 (inc 400)
        r = declare.interpret(h, 0, amount=800)  # B: +200 (>= 200; under previous_bet 200 < 300)
        eq((r.action, r.total), want)


def test_BET_31_BET_47_example_call_said_owes_the_full_amount():
    h = dealt("NT", [20000] * 4, [200, 400, 0, 0])
    preflop_called(h)
    h.bet_raise_to(0, 1000)
    h.bet_raise_to(1, 5000)
    r = declare.interpret(h, 2, chips=[1000], said="call")  # reaching for one 1,000 chip
    eq((r.action, r.total), ("call", 5000))
    # BET-47: A all-in for 6,200 (the dealer miscounts 5,800): "call" owes 6,200
    h = dealt("NT", [6600, 20000, 20000], [200, 400, 0])
    preflop_called(h)
    h.bet_raise_to(0, 6200)
    eq(h.stacks[0], 0)
    r = declare.interpret(h, 1, chips=[5000, 500, 100, 100, 100], said="call")
    eq((r.action, r.total), ("call", 6200))


def test_BET_37_example_limit_push_more_than_half_the_increment_commits_to_the_raise():
    # L 20/40, turn, facing 40
    h = dealt("FT", [1000] * 3, [10, 20, 0], small_bet=20, big_bet=40)
    preflop_called(h)
    for _ in range(3):
        h.check_call(h.actor)
    h.burn(44)
    h.deal_board([45])
    eq((h.phase, h.street), ("bet", 2))
    h.bet_raise_to(0, 40)
    r = declare.interpret(h, 1, chips=[40, 30])  # 30 > 20: must raise to 80
    eq((r.action, r.total, r.rule), ("raise", 80, "BET-37"))
    r = declare.interpret(h, 1, chips=[40, 15])  # 15 <= 20: a call, 15 returned
    eq((r.action, r.total, r.change, r.rule), ("call", 40, 15, "BET-37"))


def test_BET_45_example_check_raise():
    h = dealt("NT", [5000] * 2, [50, 100])
    preflop_called(h)
    first = h.actor
    h.check_call(first)
    h.bet_raise_to(h.actor, 300)
    eq(h.actor, first)
    eq(h.legal().can_raise, True)
    h.bet_raise_to(first, 900)
    eq(h.bets[first], 900)


def test_BET_46_example_nine_raises_on_one_nl_street_and_pl_too():
    for game in ("NT", "PT"):
        h = dealt(game, [10 ** 7] * 2, [50, 100])
        preflop_called(h)
        h.bet_raise_to(h.actor, 100)
        for k in range(9):
            lg = h.legal()
            eq(lg.can_raise, True)
            h.bet_raise_to(h.actor, lg.min_to)
        eq(h.round.high, 1000)  # each a minimum raise of 100: bet 100, nine raises to 1,000


def _limit_turn(rules, players=2):
    h = dealt("FT", [10000] * players, [10, 20] + [0] * (players - 2), small_bet=20, big_bet=40, rules=rules)
    preflop_called(h)
    while h.street == 1:
        h.check_call(h.actor)
    h.burn(44)
    h.deal_board([45])
    return h


def test_BET_5_example_cash_heads_up_raises_are_unlimited():
    h = _limit_turn(None)
    total = 40
    for _ in range(8):  # A 40, B 80, A 120 ... past the 4-bet cap
        h.bet_raise_to(h.actor, total)
        total += 40
    eq(h.round.high, 320)
    eq(h.legal().can_raise, True)


def test_BET_5_example_cash_capped_three_way_then_heads_up_the_cap_stands():
    h = _limit_turn(None, players=3)
    for total in (40, 80, 120, 160):
        h.bet_raise_to(h.actor, total)
    h.fold(h.actor)  # C folds after the cap: A and B heads-up may only call
    lg = h.legal()
    eq(lg.can_raise, False)
    eq(lg.block[0], "BET-4")


def test_BET_5_example_tournament_heads_up_hand_stops_at_the_cap():
    h = _limit_turn({"mode": "tournament"})
    for total in (40, 80, 120, 160):
        h.bet_raise_to(h.actor, total)
    lg = h.legal()
    eq((lg.can_raise, lg.block[0]), (False, "BET-4"))


def test_SHOW_9_example_through_the_hand_side_pot_players_table_before_the_all_in_one():
    # Cash: A is all-in on the turn (main pot only); B bets the river and C calls (side pot).
    # B tables first as the aggressor, then C, then A -- though A sits between them clockwise.
    h = dealt("NT", [5000, 500, 5000], [50, 100, 0])  # B = 0 (SB), A = 1 (BB), C = 2 (button)
    preflop_called(h)
    for _ in range(3):
        h.check_call(h.actor)
    h.burn(44)
    h.deal_board([45])
    h.check_call(0)
    h.bet_raise_to(1, 400)  # A all-in
    h.check_call(2)
    h.check_call(0)
    h.burn(46)
    h.deal_board([47])
    h.bet_raise_to(0, 500)
    h.check_call(2)
    eq(h.phase, "showdown")
    eq(h.show_order(), [0, 2, 1])


def _flop(game, stacks, blinds, **kw):
    h = dealt(game, stacks, blinds, **kw)
    preflop_called(h)
    return h


def test_BET_6_example_minimum_opening_bet_or_a_short_all_in():
    h = _flop("NT", [5000, 350, 5000], [100, 200, 0])  # position 1 keeps 150 behind
    h.check_call(0)
    lg = h.legal()
    eq((lg.min_to, lg.max_to), (150, 150))  # all-in for 150 is its only bet
    h.bet_raise_to(1, 150)
    eq(h.stacks[1], 0)
    h = _flop("NT", [5000] * 3, [100, 200, 0])
    eq(h.legal().min_to, 200)


def test_BET_10_example_raise_declared_then_short_chips_binds_to_the_minimum_raise():
    h = _flop("NT", [10000] * 3, [100, 200, 0])
    h.bet_raise_to(0, 1000)
    r = declare.interpret(h, 1, chips=[1000, 100, 100], said="raise")
    eq((r.action, r.total), ("raise", 2000))


def test_BET_15_example_last_chips_multi_chip_push():
    # facing 1,200 (BET-14 setting): a bet of 1,200 to call
    for chips, want in (([1000, 100, 100, 100], ("raise", 1300, 0, True)), ([1000, 1000], ("call", 1200, 800, False))):
        total = 0
        for c in chips:
            total += c
        h = _flop("NT", [10000, 200 + total, 10000], [100, 200, 0])
        h.bet_raise_to(0, 1200)
        r = declare.interpret(h, 1, chips=chips)
        eq((r.action, r.total, r.change, r.all_in), want)


def test_BET_17_example_over_betting_for_change_is_a_bet():
    h = dealt("NT", [10000] * 3, [50, 100, 0])
    h.bet_raise_to(2, 350)  # A raises to 350 (inc 250)
    r = declare.interpret(h, 0, chips=[500, 25])  # SB has 50 in: 575 total pushed (+225 >= 125)
    eq((r.action, r.total), ("raise", 600))


def test_BET_20_example_short_all_ins_do_not_change_the_minimum_raise():
    h = _flop("NT", [10000, 450, 500, 550, 10000, 10000], [100, 200, 0, 0, 0, 0])
    h.bet_raise_to(0, 200)
    h.bet_raise_to(1, 250)
    h.bet_raise_to(2, 300)
    h.bet_raise_to(3, 350)
    h.check_call(4)
    lg = h.legal()
    eq((lg.call, lg.min_to), (350, 550))
    h = dealt("NT", [10000, 10000, 150, 10000], [50, 100, 0, 0])
    h.bet_raise_to(2, 150)  # UTG all-in for 150
    eq(h.legal().min_to, 250)


def _limit_flop(stacks, rules=None):
    h = dealt("FT", stacks, [10, 20] + [0] * (len(stacks) - 2), small_bet=20, big_bet=40, rules=rules)
    preflop_called(h)
    return h


def test_BET_21_example_limit_short_all_in_reopens_at_half_under_at_least_half():
    for rule, can in (("at_least_half", True), ("more_than_half", False)):
        # turn: A bets 40, B all-in for 60 (+20, exactly half), C calls 60
        h = _limit_flop([1000, 80, 1000], rules={"limit_short_allin_reopen": rule})
        for _ in range(3):
            h.check_call(h.actor)
        h.burn(44)
        h.deal_board([45])
        h.bet_raise_to(0, 40)
        h.bet_raise_to(1, 60)
        h.check_call(2)
        lg = h.legal()
        eq((lg.call, lg.can_raise), (20, can), rule)
        if can:
            eq(lg.min_to, 100)


def test_BET_22_example_limit_options_facing_a_short_all_in():
    # L 20/40 flop. A opens all-in for 8: B may fold, call 8 or complete to 20; C then faces 20
    h = _limit_flop([28, 1000, 1000])  # position 0 acts first on the flop
    h.bet_raise_to(0, 8)
    lg = h.legal()
    eq((lg.call, lg.can_raise, lg.min_to), (8, True, 20))
    h.bet_raise_to(1, 20)
    eq(h.legal().call, 20)
    # A all-in for 15: a full bet (15 >= half of 20): B may call 15 or raise to 35
    h = _limit_flop([35, 1000, 1000])
    h.bet_raise_to(0, 15)
    lg = h.legal()
    eq((lg.call, lg.min_to), (15, 35))
    # A bets 20, B all-in for 28 (+8, below): C may call 28 or raise to 40
    h = _limit_flop([1000, 48, 1000])
    h.bet_raise_to(0, 20)
    h.bet_raise_to(1, 28)
    lg = h.legal()
    eq((lg.call, lg.min_to), (28, 40))


def test_BET_23_example_short_all_in_big_blind_full_call_and_side_pot():
    h = dealt("NT", [10000, 150, 10000, 10000], [100, 200, 0, 0])
    eq(h.committed[1], 150)
    lg = h.legal()
    eq((lg.call, lg.min_to), (200, 400))
    h.check_call(2)
    h.check_call(3)
    h.check_call(0)
    eq(h.street, 1)
    pots = h.pots()
    eq([(q.amount, q.eligible) for q in pots], [(600, (0, 1, 2, 3)), (150, (0, 2, 3))])
    # heads-up: button/SB 100 against a BB all-in for 150 adds just 50
    h = dealt("NT", [150, 10000], [100, 200])
    eq(h.committed, [150, 100])
    eq(h.legal().call, 50)


def test_BET_25_example_pot_limit_preflop_maximums_and_a_short_blind():
    h = dealt("PT", [10000] * 4, [25, 50, 0, 0])
    eq(h.legal().max_to, 175)  # UTG: 50 + (25 + 50) + 50
    h.bet_raise_to(2, 175)
    eq(h.legal().max_to, 600)  # the button: 175 + (25 + 50 + 175) + 175
    h = dealt("PT", [10000] * 3, [25, 50, 0])  # three-handed: the SB is next after 175
    h.bet_raise_to(2, 175)
    eq(h.legal().max_to, 575)  # the SB (25 in): 175 + (25 + 50 + 175) + 150
    h = dealt("PT", [10000, 120, 10000], [100, 200, 0])  # PL 100/200, BB all-in for 120
    lg = h.legal()
    eq((lg.call, lg.max_to), (200, 700))


def test_BET_34_example_invalid_declarations():
    h = _flop("NT", [10000] * 3, [100, 200, 0])
    r = declare.interpret(h, 0, said="call")
    eq((r.action, r.rule), ("check", "BET-34"))
    r = declare.interpret(h, 0, said="raise")
    eq((r.action, r.total), ("bet", 200))
    h.bet_raise_to(0, 300)
    r = declare.interpret(h, 1, said="check")
    eq((r.action, r.rule), ("call_or_fold", "BET-34"))


def _undercall_flop(players, mode, **rules):
    rules["mode"] = mode
    return _flop("NT", [20000] * players, [200, 400] + [0] * (players - 2), rules=rules)


def test_BET_30_example_tournament_undercall_heads_up_must_be_a_full_call():
    h = _undercall_flop(2, "tournament")
    h.bet_raise_to(h.actor, 3000)  # A bets 3,000
    r = declare.interpret(h, h.actor, chips=[1000])  # B silently pushes 1,000
    eq((r.action, r.total, r.rule), ("call", 3000, "BET-30"))
    declare.apply(h, h.actor, r)
    eq((h.street, h.stacks), (2, [16600, 16600]))  # the flop closed on B's 3,000


def test_BET_30_example_tournament_undercall_of_the_opening_bet_multi_way_is_a_full_call():
    h = _undercall_flop(4, "tournament")
    h.bet_raise_to(0, 2000)  # A opens 2,000
    r = declare.interpret(h, 1, chips=[500])  # B pushes 500
    eq((r.action, r.total, r.rule), ("call", 2000, "BET-30"))
    h = dealt("NT", [20000] * 4, [200, 400, 0, 0], rules={"mode": "tournament"})
    r = declare.interpret(h, 2, chips=[100])  # preflop: the posted big blind is the opening bet
    eq((r.action, r.total, r.rule), ("call", 400, "BET-30"))


def test_BET_30_example_tournament_undercall_of_a_raise_multi_way_goes_to_the_floor():
    h = _undercall_flop(4, "tournament")
    h.bet_raise_to(0, 1000)  # A opens 1,000
    h.bet_raise_to(1, 4000)  # B raises to 4,000
    r = declare.interpret(h, 2, chips=[1000])  # C pushes 1,000: call 4,000 or forfeit 1,000
    eq((r.action, r.total, r.rule), ("undercall", 1000, "BET-30"))
    h = dealt("NT", [20000] * 4, [200, 400, 0, 0], rules={"mode": "tournament"})
    h.bet_raise_to(2, 1200)
    r = declare.interpret(h, 3, chips=[500])  # preflop, facing a raise
    eq(r.action, "undercall")


def test_BET_30_cash_undercall_follows_hr_undercall_cash():
    for rule, want in (("must_correct", ("call", 4000)), ("complete_or_forfeit", ("undercall", 1000))):
        h = _undercall_flop(4, "cash", undercall_cash=rule)
        h.bet_raise_to(0, 1000)
        h.bet_raise_to(1, 4000)
        r = declare.interpret(h, 2, chips=[1000])
        eq((r.action, r.total, r.rule), want + ("BET-30",), rule)
