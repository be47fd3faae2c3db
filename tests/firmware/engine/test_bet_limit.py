# Fixed-limit and pot-limit betting (RULES.md BET-1..5, BET-21, BET-22, BET-24, BET-25,
# GAME-11): every worked example of those rules, played through a Hand.
from check import eq, raises
from felt.engine.cards import parse_cards
from felt.engine.games import GAMES
from felt.engine.hand.machine import Hand
from felt.errors import RuleError

HOLE = ["AcKd", "7h7s", "2c3d", "9s9d", "QhJh", "Tc8c", "5d5s", "4h4c"]


def limit(stacks, mode="cash", game="FT", **kw):
    rules = {"mode": mode}
    rules.update(kw.pop("rules", {}))
    h = Hand(game=GAMES[game], stacks=list(stacks), blinds=[10, 20], small_bet=20, big_bet=40, rules=rules, **kw)
    for p in range(len(stacks)):
        h.deal_hole(p, parse_cards(HOLE[p]))
    return h


def pl(stacks, blinds, **kw):
    h = Hand(game=GAMES["PT"], stacks=list(stacks), blinds=list(blinds), **kw)
    for p in range(len(stacks)):
        h.deal_hole(p, parse_cards(HOLE[p]))
    return h


def next_street(h, board):
    while h.phase == "bet":
        h.check_call(h.actor)
    h.deal_board(parse_cards(board))


def snap(h):
    r = h.round
    return (list(h.stacks), list(r.bets), h.actor, r.high, r.level, r.count, list(r.needs), len(h.log))


def test_BET_1_limit_blinds_and_bet_sizes_derived_from_small_bet():
    h = Hand(game=GAMES["FT"], stacks=[1000] * 3, blinds=[10, 20], small_bet=20)
    eq((h.small_bet, h.big_bet), (20, 40))


def test_BET_2_small_bet_preflop_and_flop_big_bet_turn_and_river():
    # L 20/40: a flop bet is 20 and a raise makes it 40; a turn bet is 40, a raise 80
    h = limit([1000] * 3)
    next_street(h, "2h7d8s")
    eq(h.legal().min_to, 20)
    h.bet_raise_to(0, 20)
    eq(h.legal().min_to, 40)
    next_street(h, "Kh")
    eq((h.legal().min_to, h.legal().max_to), (40, 40))
    h.bet_raise_to(0, 40)
    eq(h.legal().min_to, 80)


def test_BET_3_limit_raise_is_exactly_one_increment():
    # turn: A bets 40; B may only raise to exactly 80; "raise to 100" is rejected
    h = limit([1000] * 3)
    next_street(h, "2h7d8s")
    next_street(h, "Kh")
    h.bet_raise_to(0, 40)
    before = snap(h)
    with raises(RuleError, match="BET-3") as e:
        h.bet_raise_to(1, 100)
    eq(e.value.legal, (80, 80))
    eq(snap(h), before)
    h.bet_raise_to(1, 80)


def test_BET_4_cap_bet_and_three_raises_on_the_flop():
    # L 20/40 flop: A 20, B 40, C 60, D caps at 80; A, B and C may only call or fold
    h = limit([1000] * 4)
    next_street(h, "2h7d8s")
    for p, to in ((0, 20), (1, 40), (2, 60), (3, 80)):
        h.bet_raise_to(p, to)
    for p in (0, 1, 2):
        eq(h.actor, p)
        lg = h.legal()
        eq((lg.can_raise, lg.block[0], lg.call), (False, "BET-4", 80 - h.bets[p]))
        h.check_call(p)
    eq(h.street, 2)


def test_BET_4_preflop_big_blind_counts_as_the_bet_cap_at_80():
    h = limit([1000] * 4)
    h.bet_raise_to(2, 40)
    h.bet_raise_to(3, 60)
    h.bet_raise_to(0, 80)
    eq(h.legal().can_raise, False)
    with raises(RuleError, match="BET-4"):
        h.bet_raise_to(1, 100)


def test_BET_4_draw_two_rounds_bet_and_four_raises():
    # draw L 10/20, pre-draw: 10, 20, 30, 40, 50 (cap)
    h = Hand(game=GAMES["F5D"], stacks=[1000] * 5, blinds=[5, 10], small_bet=10, big_bet=20)
    cards = parse_cards("2c3c4c5c6c 2d3d4d5d6d 2h3h4h5h6h 2s3s4s5s6s 7c8c9cTcJc")
    for p in range(5):
        h.deal_hole(p, cards[5 * p:5 * p + 5])
    for p, to in ((2, 20), (3, 30), (4, 40), (0, 50)):
        h.bet_raise_to(p, to)
    eq(h.legal().can_raise, False)


def test_BET_4_house_rule_changes_the_cap():
    h = limit([1000] * 4, rules={"hr.limit_raises_per_round": 4})
    next_street(h, "2h7d8s")
    for p, to in ((0, 20), (1, 40), (2, 60), (3, 80)):
        h.bet_raise_to(p, to)
    eq(h.legal().min_to, 100)


def test_BET_5_cash_heads_up_raises_unlimited():
    # cash L 20/40 turn, only A and B: 40, 80, 120, 160, 200 ... all allowed
    h = limit([5000] * 3)
    h.fold(2)
    h.check_call(0)
    h.check_call(1)
    next_street(h, "2h7d8s")
    next_street(h, "Kh")
    for to in (40, 80, 120, 160, 200, 240):
        h.bet_raise_to(h.actor, to)
    eq(h.legal().can_raise, True)


def test_BET_5_cap_reached_three_way_stands_after_a_fold():
    # A, B and C reach the cap at 160, then C folds: A and B can only call
    h = limit([5000] * 3)
    next_street(h, "2h7d8s")
    next_street(h, "Kh")
    h.bet_raise_to(0, 40)
    h.bet_raise_to(1, 80)
    h.bet_raise_to(2, 120)
    h.bet_raise_to(0, 160)
    h.fold(1)
    eq(h.legal().can_raise, False)
    h.fold(2)
    eq(h.finished, True)


def test_BET_5_tournament_heads_up_stops_at_the_cap():
    h = limit([5000] * 3, mode="tournament")
    h.fold(2)
    h.check_call(0)
    h.check_call(1)
    next_street(h, "2h7d8s")
    next_street(h, "Kh")
    for to in (40, 80, 120, 160):
        h.bet_raise_to(h.actor, to)
    eq(h.legal().block[0], "BET-4")
    # with only two entrants left in the event the cap is lifted
    h2 = limit([5000] * 3, mode="tournament", event_heads_up=True)
    h2.fold(2)
    h2.check_call(0)
    h2.check_call(1)
    next_street(h2, "2h7d8s")
    for to in (20, 40, 60, 80):
        h2.bet_raise_to(h2.actor, to)
    eq(h2.legal().can_raise, True)


def _turn_allin_half(mode):
    # L 20/40 turn: A bets 40, B all-in for 60 (+20, exactly half), C calls 60
    h = limit([1000, 80, 1000], mode=mode)
    next_street(h, "2h7d8s")
    next_street(h, "Kh")
    h.bet_raise_to(0, 40)
    h.bet_raise_to(1, 60)
    h.check_call(2)
    return h


def test_BET_21_at_least_half_all_in_reopens():
    h = _turn_allin_half("tournament")  # hr.limit_short_allin_reopen = at_least_half
    eq(h.actor, 0)
    eq((h.legal().can_raise, h.legal().min_to), (True, 100))


def test_BET_21_more_than_half_exactly_half_does_not_reopen():
    h = _turn_allin_half("cash")  # more_than_half
    eq((h.legal().can_raise, h.legal().call), (False, 20))
    eq(h.legal().block[0], "BET-22")


def test_BET_22_opening_all_in_below_half_may_be_completed():
    # L 20/40 flop: A opens all-in for 8; B may fold, call 8 or complete to 20; C then faces 20
    h = limit([28, 1000, 1000])
    next_street(h, "2h7d8s")
    h.bet_raise_to(0, 8)
    lg = h.legal()
    eq((lg.position, lg.call, lg.min_to, lg.max_to), (1, 8, 20, 20))
    h.bet_raise_to(1, 20)
    eq(h.legal().call, 20)


def test_BET_22_opening_all_in_of_half_or_more_is_a_full_bet():
    # A all-in for 15: a full bet; B may call 15 or raise to 35
    h = limit([35, 1000, 1000])
    next_street(h, "2h7d8s")
    h.bet_raise_to(0, 15)
    eq((h.legal().call, h.legal().min_to), (15, 35))


def test_BET_22_short_all_in_raise_then_raise_to_last_level_plus_one():
    # A bets 20, B all-in for 28 (+8): C may call 28 or raise to 40
    h = limit([1000, 48, 1000])
    next_street(h, "2h7d8s")
    h.bet_raise_to(0, 20)
    h.bet_raise_to(1, 28)
    eq((h.legal().call, h.legal().min_to), (28, 40))
    h.check_call(2)
    # A already acted and no full raise followed: call 8 or fold
    eq((h.legal().can_raise, h.legal().call), (False, 8))


def test_GAME_11_stud_bring_in_lowest_upcard_then_complete():
    # L 20/40 stud, bring-in 5: upcards seat 1 7h, seat 3 2d, seat 6 2c: seat 6 (2c) brings in
    h = Hand(game=GAMES["F7S"], stacks=[1000] * 4, antes=0, bring_in=5, small_bet=20, big_bet=40)
    for p, text in enumerate(("AsKs7h", "QdQc2d", "JcTc2c", "9h8h6s")):
        h.deal_hole(p, parse_cards(text))
    eq(h.actor, 2)
    lg = h.legal()
    eq((lg.bring_in, lg.min_to, lg.can_check), (5, 20, False))
    before = snap(h)
    with raises(RuleError, match="GAME-11"):
        h.fold(2)
    with raises(RuleError, match="GAME-11"):
        h.check_call(2)
    eq(snap(h), before)
    eq(h.post_bring_in(2).amount, 5)
    # the next player may fold, call 5 or complete to 20
    lg = h.legal()
    eq((lg.position, lg.call, lg.min_to, lg.max_to), (3, 5, 20, 20))
    op = h.bet_raise_to(3, 20)
    eq(op.kind, "complete")
    eq(h.legal().min_to, 40)  # completion counts as the bet (BET-4)


def test_BET_24_pot_limit_maximum_bet_and_raise():
    # flop pot 300: max bet 300; facing 300 the max raise is to 1,200
    h = pl([5000] * 3, [50, 100])
    next_street(h, "2h7d8s")
    eq(h.legal().max_to, 300)
    h.bet_raise_to(0, 300)
    eq(h.legal().max_to, 1200)
    before = snap(h)
    with raises(RuleError, match="BET-24") as e:
        h.bet_raise_to(1, 1250)
    eq(e.value.legal, (600, 1200))
    eq(snap(h), before)


def test_BET_24_pot_limit_counts_bets_in_front():
    # pot 240 before the flop: A bets 150, B raises to 540 (max was 690); C: max 2,010, min 930
    h = pl([5000] * 3, [40, 80])
    next_street(h, "2h7d8s")
    h.bet_raise_to(0, 150)
    eq(h.legal().max_to, 690)
    h.bet_raise_to(1, 540)
    eq((h.legal().min_to, h.legal().max_to), (930, 2010))


def test_BET_25_pot_limit_preflop_blinds_count_as_bets():
    # PL 25/50: UTG max 175; next max 600; the SB (25 in) at most 575
    h = pl([5000] * 4, [25, 50])
    eq(h.legal().max_to, 175)
    h.bet_raise_to(2, 175)
    eq(h.legal().max_to, 600)
    h.fold(3)
    eq(h.legal().max_to, 575)


def test_BET_25_short_all_in_blind_counted_in_full():
    # PL 100/200 with the BB all-in for 120: UTG must call 200 and may raise to at most 700
    h = pl([5000, 120, 5000, 5000], [100, 200])
    lg = h.legal()
    eq((lg.call, lg.max_to), (200, 700))


def test_BET_2_stud_open_pair_on_fourth_street_still_small_bet():
    # TOUR-20 / BET-2: L 200/400 stud; seat 3 shows 9h 9s on 4th street: the only bet is 200
    h = Hand(game=GAMES["F7S"], stacks=[10000] * 3, antes=25, bring_in=50, small_bet=200, big_bet=400,
             rules={"mode": "tournament"})
    for p, t in enumerate(("AsKs7h", "QdQc2c", "JcTc9h")):
        h.deal_hole(p, parse_cards(t))
    h.post_bring_in(1)
    h.check_call(2)
    h.check_call(0)
    for p, t in enumerate(("8d", "3d", "9s")):
        h.deal_hole(p, parse_cards(t))
    eq(h.actor, 2)  # the open nines act first (GAME-12)
    eq((h.legal().min_to, h.legal().max_to), (200, 200))
    with raises(RuleError, match="BET-3"):
        h.bet_raise_to(2, 400)


def _fourth_street_pair(rules):
    h = Hand(game=GAMES["F7S"], stacks=[10000] * 3, antes=25, bring_in=50, small_bet=200, big_bet=400,
             rules=rules)
    for p, t in enumerate(("AsKs7h", "QdQc2c", "JcTc9h")):
        h.deal_hole(p, parse_cards(t))
    h.post_bring_in(1)
    h.check_call(2)
    h.check_call(0)
    for p, t in enumerate(("8d", "3d", "9s")):
        h.deal_hole(p, parse_cards(t))
    return h


def test_TOUR_20_open_pair_double_on_in_cash_offers_small_or_big_bet():
    # hr.stud_open_pair_double = on (cash): the open nines on 4th street let the opener bet 200 or 400
    h = _fourth_street_pair({"mode": "cash", "stud_open_pair_double": "on"})
    eq(h.actor, 2)
    eq((h.legal().min_to, h.legal().max_to), (200, 400))
    with raises(RuleError, match="BET-3"):
        h.bet_raise_to(2, 300)
    h.bet_raise_to(2, 400)
    # the big bet was made: every raise is a big one
    eq((h.legal().min_to, h.legal().max_to), (800, 800))


def test_TOUR_20_open_pair_small_bet_then_raise_by_either_increment():
    h = _fourth_street_pair({"mode": "cash", "stud_open_pair_double": "on"})
    h.bet_raise_to(2, 200)
    eq((h.legal().min_to, h.legal().max_to), (400, 600))
    h.bet_raise_to(h.actor, 600)
    eq((h.legal().min_to, h.legal().max_to), (1000, 1000))


def test_TOUR_20_open_pair_double_never_in_a_tournament():
    # TOUR-20: tournament stud keeps the small bet even when the house key is on
    h = _fourth_street_pair({"mode": "tournament", "stud_open_pair_double": "on"})
    eq((h.legal().min_to, h.legal().max_to), (200, 200))
    h2 = _fourth_street_pair({"mode": "cash"})  # default off
    eq((h2.legal().min_to, h2.legal().max_to), (200, 200))
