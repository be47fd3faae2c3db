# Console chip-push interpretation (declare.py): every worked example of BET-8..10, 12..17,
# 31, 33, 34 and 37 -- the entry records the chips pushed and what was said first.
from check import eq, raises
from felt.engine.hand import chip_push as declare
from felt.engine.cards import parse_cards
from felt.engine.games import GAMES
from felt.engine.hand.machine import Hand
from felt.errors import RuleError

HOLE = ["AcKd", "7h7s", "2c3d", "9s9d", "QhJh", "Tc8c"]


def hand(game, stacks, blinds, flop=True, **kw):
    h = Hand(game=GAMES[game], stacks=list(stacks), blinds=list(blinds), **kw)
    for p in range(len(stacks)):
        h.deal_hole(p, parse_cards(HOLE[p]))
    if flop:
        while h.phase == "bet":
            h.check_call(h.actor)
        h.deal_board(parse_cards("2h7d8s"))
    return h


def read(h, chips=(), said=None, amount=None, earlier=None):
    r = declare.interpret(h, h.actor, chips, said, amount, earlier)
    return (r.action, r.total, r.change)


def facing(bet, blinds=(100, 200), stacks=None, game="NT"):
    """A flop where position 0 bet `bet` and position 1 is to act."""
    h = hand(game, stacks or [20000] * 3, blinds)
    h.bet_raise_to(0, bet)
    return h


def test_BET_8_raise_with_amount_states_the_new_total():
    # NL 200/400: A opens for 1,500; B says "raise, six thousand": total 6,000
    h = facing(1500, (200, 400))
    eq(read(h, said="raise", amount=6000), ("raise", 6000, 0))


def test_BET_9_fifty_percent_standard():
    # NL 100/200 flop: A bets 1,000. B silently pushes 1,500: must make it 2,000
    h = facing(1000)
    eq(read(h, [1000, 500]), ("raise", 2000, 0))
    # B pushes 1,400 (1,000 + four 100s): a call, 400 returned
    eq(read(h, [1000, 100, 100, 100, 100]), ("call", 1000, 400))
    # ... or just says "fourteen hundred" (BET-33)
    eq(read(h, amount=1400), ("call", 1000, 400))


def test_BET_9_preflop_and_previous_bet_basis():
    # preflop, A raised to 600 (inc 400): B silently pushes 800 (+200 >= 200): raise to 1,000
    h = hand("NT", [20000] * 4, (100, 200), flop=False)
    h.bet_raise_to(2, 600)
    eq(read(h, [500, 100, 100, 100]), ("raise", 1000, 0))
    h = hand("NT", [20000] * 4, (100, 200), flop=False, rules={"hr.fifty_pct_basis": "previous_bet"})
    h.bet_raise_to(2, 600)
    # under previous_bet the test is 200 >= 300: a call
    eq(read(h, [500, 100, 100, 100]), ("call", 600, 200))


def test_BET_10_raise_declared_first_binds_to_a_minimum_raise():
    # A bets 1,000; B says "raise" and pushes 1,200: B must make it 2,000
    h = facing(1000)
    r = declare.interpret(h, 1, [1000, 200], "raise")
    eq((r.action, r.total, r.rule), ("raise", 2000, "BET-10"))
    op = declare.apply(h, 1, r)
    eq((op.kind, op.total), ("raise", 2000))


def test_BET_12_single_oversized_chip_is_a_call_unless_raise_said():
    # NL 100/200 flop: A bets 600; one silent 5,000 chip is a call with 4,400 change
    h = facing(600)
    eq(read(h, [5000]), ("call", 600, 4400))
    eq(read(h, [5000], said="raise"), ("raise", 5000, 0))


def test_BET_12_pot_limit_raise_with_one_chip_capped_at_pot():
    # PL, pot 400: A bets 200, B says "raise" and drops a 1,000 chip: the raise is to 1,000
    h = hand("PT", [20000] * 4, (50, 100))  # 4 x 100 = 400 in the pot
    h.bet_raise_to(0, 200)
    eq(read(h, [1000], said="raise"), ("raise", 1000, 0))
    eq(read(h, [5000], said="raise"), ("raise", 1000, 4000))


def test_BET_13_single_chip_not_facing_a_bet_nl_full_pl_pot():
    # flop pot 350: one silent 1,000 chip: NL a bet of 1,000; PL a bet of 350, 650 back
    nl = hand("NT", [20000] * 2, (175, 175))  # heads-up 175/175: pot 350
    eq(nl.pot_total(), 350)
    eq(read(nl, [1000]), ("bet", 1000, 0))
    pl = hand("PT", [20000] * 2, (175, 175))
    eq(read(pl, [1000]), ("bet", 350, 650))


def test_BET_14_multiple_chip_rule():
    # NL 200/400 preflop: UTG raises to 1,200 (min raise 2,000, 50 % point 1,600)
    h = hand("NT", [20000] * 4, (200, 400), flop=False)
    h.bet_raise_to(2, 1200)
    eq(read(h, [1000, 500]), ("call", 1200, 300))  # (a) every chip needed
    eq(read(h, [1000, 500, 100]), ("raise", 2000, 0))  # (b) 1,600 reaches the 50 % point
    eq(read(h, [1000, 100, 100, 100, 100, 100]), ("call", 1200, 300))  # (c) 1,500 < 1,600


def test_BET_14_raise_evident_house_rule():
    h = hand("NT", [20000] * 4, (200, 400), flop=False, rules={"hr.multichip_silent": "raise_evident"})
    h.bet_raise_to(2, 1200)
    eq(read(h, [1000, 100, 100, 100, 100, 100]), ("raise", 2000, 0))


def test_BET_15_last_chips():
    # call 1,200; last chips 1,000 + three 100s: all-in for 1,300, a short raise
    h = hand("NT", [20000, 20000, 20000, 1300], (200, 400), flop=False)
    h.bet_raise_to(2, 1200)
    r = declare.interpret(h, 3, [1000, 100, 100, 100])
    eq((r.action, r.total, r.all_in), ("raise", 1300, True))
    # last chips two 1,000s: every chip needed, a call of 1,200, 800 back -- not all-in
    h = hand("NT", [20000, 20000, 20000, 2000], (200, 400), flop=False)
    h.bet_raise_to(2, 1200)
    r = declare.interpret(h, 3, [1000, 1000])
    eq((r.action, r.total, r.change, r.all_in), ("call", 1200, 800, False))
    eq(read(h, [1000, 1000], said="all_in"), ("raise", 2000, 0))


def test_BET_16_earlier_chips_not_pulled_in():
    # NL 25/50: the BB has two 25s out, the button raises to 600
    h = hand("NT", [20000] * 3, (25, 50), flop=False)
    h.bet_raise_to(2, 600)
    h.fold(0)
    eq(h.actor, 1)
    eq(read(h, [1000]), ("call", 600, 450))  # one new chip on them: a call
    eq(read(h, [1000, 500]), ("raise", 1550, 0))  # 1,550 in all; above the 1,150 minimum
    # NL 50/100: the BB posted with one 1,000 chip and UTG raises to 700; a silent 500 chip
    # added makes a combined push of 1,500, a raise to 1,500
    h = hand("NT", [20000] * 3, (50, 100), flop=False)
    h.bet_raise_to(2, 700)
    h.fold(0)
    eq(read(h, [500], earlier=[1000]), ("raise", 1500, 0))


def test_BET_17_change_seeking_push_is_a_bet():
    # NL 50/100: A raises to 350 (inc 250); B silently pushes 500 + 25: must raise to 600
    h = hand("NT", [20000] * 4, (50, 100), flop=False)
    h.bet_raise_to(2, 350)
    eq(read(h, [500, 25]), ("raise", 600, 0))


def test_BET_31_call_binds_to_the_full_amount():
    # NL 200/400: A bets 1,000, B raises to 5,000; C says "call" reaching for 1,000: owes 5,000
    h = hand("NT", [20000] * 3, (200, 400))
    h.bet_raise_to(0, 1000)
    h.bet_raise_to(1, 5000)
    r = declare.interpret(h, 2, [1000], "call")
    eq((r.action, r.total), ("call", 5000))
    eq(declare.apply(h, 2, r).amount, 5000)


def test_BET_34_invalid_declarations():
    h = hand("NT", [20000] * 3, (50, 100))
    eq(read(h, said="call"), ("check", 0, 0))  # "call" with no bet is a check
    r = declare.interpret(h, 0, [50], "raise")  # "raise" with no bet: at least the minimum bet
    eq((r.action, r.total), ("bet", 100))
    h.bet_raise_to(0, 300)
    r = declare.interpret(h, 1, (), "check")
    eq(r.action, "call_or_fold")
    with raises(RuleError, match="BET-34"):
        declare.apply(h, 1, r)


def test_BET_37_limit_pushing_more_than_half_commits_to_the_raise():
    # L 20/40 turn, facing 40: B pushes 40 and then 30 more: a raise to 80; 40 + 15: a call
    h = Hand(game=GAMES["FT"], stacks=[1000] * 3, blinds=[10, 20], small_bet=20, big_bet=40)
    for p in range(3):
        h.deal_hole(p, parse_cards(HOLE[p]))
    for board in ("2h7d8s", "Kh"):
        while h.phase == "bet":
            h.check_call(h.actor)
        h.deal_board(parse_cards(board))
    h.bet_raise_to(0, 40)
    eq(read(h, [40, 30]), ("raise", 80, 0))
    eq(read(h, [40, 15]), ("call", 40, 15))


def test_BET_30_undercall_goes_to_the_floor():
    # BET-30 example 3: A opens 1,000, B raises to 4,000, C pushes 1,000 -- multi-way facing a
    # raise, so the floor decides (cash under hr.undercall_cash = complete_or_forfeit too); facing
    # the opening bet, or under the cash default must_correct, it is a full call
    # (test_rule_examples_betting.py has every case of the example)
    for rules in ({"mode": "tournament"}, {"undercall_cash": "complete_or_forfeit"}):
        h = hand("NT", [20000] * 3, (200, 400), rules=rules)
        h.bet_raise_to(0, 1000)
        h.bet_raise_to(1, 4000)
        r = declare.interpret(h, 2, [1000])
        eq(r.action, "undercall")
        eq(r.rule, "BET-30")
    h = facing(3000, (200, 400))
    r = declare.interpret(h, 1, [1000])
    eq((r.action, r.total, r.rule), ("call", 3000, "BET-30"))


def test_declare_out_of_turn_and_oversized_entry_rejected():
    h = facing(1000)
    with raises(RuleError, match="BET-38"):
        declare.interpret(h, 2, [1000])
    with raises(RuleError, match="BET-49"):
        declare.interpret(h, 1, [100000])


def test_BET_28_pot_in_no_limit_binds_to_a_minimum_pot_limit_to_the_maximum():
    # NL 100/200 flop: "pot" binds to at least 200; facing 300, to at least 600
    h = hand("NT", [20000] * 3, (100, 200))
    r = declare.interpret(h, 0, (), "pot")
    eq((r.action, r.total, r.rule), ("bet", 200, "BET-28"))
    h.bet_raise_to(0, 300)
    eq(read(h, said="pot"), ("raise", 600, 0))
    # pot-limit: "pot" is the BET-24 maximum
    h = hand("PT", [20000] * 3, (50, 100))
    eq(read(h, said="pot"), ("bet", 300, 0))


def test_BET_38_silent_entry_without_chips_facing_a_bet_is_not_an_action():
    h = facing(1000)
    with raises(RuleError, match="BET-38"):
        declare.interpret(h, 1)
    h2 = hand("NT", [20000] * 3, (100, 200))
    eq(read(h2), ("check", 0, 0))  # a silent tap with nothing to call: check (D35)


def test_BET_35_ambiguous_amount_is_the_highest_not_above_the_pot():
    # NL 100/200, "I bet three": pot 2,400 -> 300; pot 3,100 -> 3,000
    h = hand("NT", [20000] * 3, (100, 200), flop=False)
    h.bet_raise_to(2, 800)
    h.check_call(0)
    h.check_call(1)
    h.deal_board(parse_cards("2h7d8s"))
    eq(h.pot_total(), 2400)
    eq(declare.resolve_amount(h, (300, 3000)), 300)
    h = hand("NT", [20000] * 4, (100, 200), flop=False)
    h.bet_raise_to(2, 1000)
    h.check_call(3)
    h.check_call(0)
    h.fold(1)
    h.deal_board(parse_cards("2h7d8s"))
    eq(h.pot_total(), 3200)
    eq(declare.resolve_amount(h, (300, 3000)), 3000)
