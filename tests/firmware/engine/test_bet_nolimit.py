# No-limit betting (RULES.md BET-6, 7, 11, 18..20, 23, 43, 45..47, 49; BLIND-9/10; GAME-5, 16):
# every worked example of those rules, played through a Hand.
from check import eq, raises
from felt.engine.cards import parse_cards
from felt.engine.games import GAMES
from felt.engine.hand.machine import Hand
from felt.errors import RuleError

HANDS = "AcKd 7h7s 2c3d 9s9d QhJh Tc8c 5d5s 4h4c 6s6h"


def nl(stacks, blinds, game="NT", **kw):
    h = Hand(game=GAMES[game], stacks=list(stacks), blinds=list(blinds), **kw)
    words = HANDS.split()
    per = len(GAMES[game].streets[0].hole)
    for p in range(len(stacks)):
        text = words[p] if per == 2 else words[p] + words[p + 5] if p + 5 < 10 else words[p] + words[0]
        h.deal_hole(p, parse_cards(text)[:per])
    return h


def to_flop(h):
    """Everyone limps and the BB checks; the flop comes."""
    while h.street == 0:
        h.check_call(h.actor)
    h.deal_board(parse_cards("2h7d8s"))
    return h


def snap(h):
    r = h.round
    return (list(h.stacks), list(h.committed), list(r.bets), list(h.live), h.phase, h.street, h.actor,
            r.high, r.inc, list(r.needs), list(r.acted), list(r.last), len(h.log))


def raise_blocked(h, p, rule):
    lg = h.legal()
    eq(lg.position, p)
    eq(lg.can_raise, False)
    eq(lg.block[0], rule)
    before = snap(h)
    with raises(RuleError, match=rule):
        h.bet_raise_to(p, h.stacks[p] + h.bets[p])
    eq(snap(h), before)


def test_BET_6_minimum_opening_bet_is_big_blind_short_all_in_allowed():
    # NL 100/200, flop: the minimum bet is 200; 150 behind may bet 150, all-in
    h = to_flop(nl([10000, 10000, 350], [100, 200]))
    eq(h.actor, 0)
    eq((h.legal().min_to, h.legal().max_to), (200, 9800))
    before = snap(h)
    with raises(RuleError, match="BET-6") as e:
        h.bet_raise_to(0, 150)
    eq(e.value.legal, (200, 9800))
    eq(snap(h), before)
    h.check_call(0)
    h.check_call(1)
    eq(h.actor, 2)
    eq(h.legal().min_to, 150)
    op = h.bet_raise_to(2, 150)
    eq((op.kind, op.all_in), ("bet", True))


def test_BET_7_min_reraise_is_high_plus_largest_increment():
    # NL 50/100, flop: A bets 300, B raises to 1,000 (+700): C's minimum is 1,700
    h = to_flop(nl([10000] * 3, [50, 100]))
    h.bet_raise_to(0, 300)
    h.bet_raise_to(1, 1000)
    eq(h.legal().min_to, 1700)
    with raises(RuleError, match="BET-7") as e:
        h.bet_raise_to(2, 1600)
    eq(e.value.legal[0], 1700)
    h.bet_raise_to(2, 1700)


def test_BET_7_preflop_increments_accumulate_to_largest():
    # NL 25/50: A raises to 125 (+75), B to 200 (+75), C to 500 (+300): D's minimum is 800
    h = nl([5000] * 6, [25, 50])
    h.bet_raise_to(2, 125)
    h.bet_raise_to(3, 200)
    h.bet_raise_to(4, 500)
    eq(h.actor, 5)
    eq(h.legal().min_to, 800)
    eq(h.can_bet_raise_to(5, 799), False)
    eq(h.can_bet_raise_to(5, 800), True)


def test_BET_7_turn_minimum_raise_doubles_an_opening_bet():
    # NL 100/200, turn: A bets 900, so the minimum raise is to 1,800
    h = to_flop(nl([10000] * 3, [100, 200]))
    for _ in range(3):
        h.check_call(h.actor)
    h.deal_board(parse_cards("Kh"))
    h.bet_raise_to(0, 900)
    eq(h.legal().min_to, 1800)


def test_BET_11_short_all_in_raise_stands_and_is_not_topped_up():
    # NL 100/200, flop: A bets 1,000 and B is all-in for 1,300 (+300): valid, not topped up
    h = to_flop(nl([10000, 1500, 10000], [100, 200]))
    h.bet_raise_to(0, 1000)
    op = h.bet_raise_to(1, 1300)
    eq((op.kind, op.amount, op.total, op.all_in), ("raise", 1300, 1300, True))
    eq(h.round.inc, 1000)  # BET-20: a short all-in never changes inc
    eq(h.legal().min_to, 2300)


def test_BET_18_short_all_in_does_not_reopen_for_players_who_acted():
    # NL 25/50 flop: A bets 50, B raises to 150 (inc 100), C all-in for 220 (+70).
    # A faces 170 >= 100 and may raise; if A calls, B faces 70 < 100: call or fold only.
    h = to_flop(nl([5000, 5000, 270], [25, 50]))
    h.bet_raise_to(0, 50)
    h.bet_raise_to(1, 150)
    h.bet_raise_to(2, 220)
    eq(h.actor, 0)
    eq(h.legal().can_raise, True)
    eq(h.legal().min_to, 320)
    h.check_call(0)
    raise_blocked(h, 1, "BET-18")
    eq(h.legal().call, 70)
    h.check_call(1)
    eq(h.street, 2)


def test_BET_18_half_raise_house_rule_reopens_at_half():
    h = to_flop(nl([5000, 5000, 270], [25, 50], rules={"hr.nl_short_allin_reopen": "half_raise"}))
    h.bet_raise_to(0, 50)
    h.bet_raise_to(1, 150)
    h.bet_raise_to(2, 220)
    h.check_call(0)
    eq(h.legal().can_raise, True)  # 70 >= 100 / 2


def test_BET_19_several_short_all_ins_add_up_to_a_full_raise():
    # NL 100/200 flop: A bets 200, B all-in 260, C calls 260, D all-in 400, E calls 400.
    def setup():
        h = to_flop(nl([10000, 460, 10000, 600, 10000], [100, 200]))
        h.bet_raise_to(0, 200)
        h.bet_raise_to(1, 260)
        h.check_call(2)
        h.bet_raise_to(3, 400)
        h.check_call(4)
        return h
    h = setup()
    eq(h.actor, 0)
    eq(h.legal().can_raise, True)  # 400 - 200 >= 200
    h.check_call(0)
    raise_blocked(h, 2, "BET-18")  # 400 - 260 = 140 < 200
    h = setup()
    h.bet_raise_to(0, 600)
    eq(h.actor, 2)
    eq(h.legal().can_raise, True)  # 600 - 260 = 340 >= 200


def test_BET_20_min_raise_after_short_all_ins_uses_last_full_increment():
    # NL 100/200 flop: A bets 200, B all-in 250, C all-in 300, D all-in 350, E calls 350:
    # F may call 350 or raise to at least 550
    h = to_flop(nl([10000, 450, 500, 550, 10000, 10000], [100, 200]))
    h.bet_raise_to(0, 200)
    h.bet_raise_to(1, 250)
    h.bet_raise_to(2, 300)
    h.bet_raise_to(3, 350)
    h.check_call(4)
    eq(h.actor, 5)
    eq((h.legal().call, h.legal().min_to), (350, 550))


def test_BET_20_preflop_short_all_in_keeps_big_blind_increment():
    # NL 50/100: UTG all-in for 150, so the next player's minimum raise is to 250
    h = nl([5000, 5000, 150, 5000], [50, 100])
    h.bet_raise_to(2, 150)
    eq(h.legal().min_to, 250)


def test_BET_23_short_all_in_big_blind_still_needs_full_call():
    # NL 100/200: the BB is all-in for 150; UTG must put in 200 and may raise to 400
    h = nl([5000, 150, 5000, 5000], [100, 200])
    eq(h.committed[:2], [100, 150])
    lg = h.legal()
    eq((lg.position, lg.call, lg.min_to), (2, 200, 400))
    h.check_call(2)
    h.check_call(3)
    h.check_call(0)
    # the calls above 150 build a side pot (POT-3)
    pots = h.pots()
    eq([(q.amount, q.eligible) for q in pots], [(600, (0, 1, 2, 3)), (150, (0, 2, 3))])


def test_BET_23_heads_up_exception_matches_only_the_all_in():
    # heads-up: button/SB 100 against a BB all-in for 150: the SB adds just 50
    h = nl([150, 5000], [100, 200])  # position 0 is the BB heads-up (BLIND-6)
    eq(h.committed, [150, 100])
    eq(h.legal().call, 50)


def test_GAME_5_big_blind_raise_reopens_the_street():
    # NL 50/100 preflop: all call to the BB; the street is open until the BB acts; raise to 300
    h = nl([5000] * 4, [50, 100])
    h.check_call(2)
    h.check_call(3)
    h.check_call(0)
    eq(h.actor, 1)
    eq(h.street, 0)
    h.bet_raise_to(1, 300)
    eq(h.actor, 2)
    eq(h.legal().call, 200)


def test_BLIND_10_big_blind_may_raise_after_short_all_in():
    # NL 1,000/2,000: A calls 2,000, C all-in for 3,500, SB folds: BB may raise to 5,500.
    def setup():
        h = nl([50000, 50000, 50000, 50000, 3500], [1000, 2000])
        h.check_call(2)  # A
        h.fold(3)
        h.bet_raise_to(4, 3500)  # C
        h.fold(0)
        return h
    h = setup()
    eq((h.actor, h.legal().call, h.legal().min_to), (1, 1500, 5500))
    h.check_call(1)
    raise_blocked(h, 2, "BET-18")  # A faces 1,500 < 2,000
    h = setup()
    h.bet_raise_to(1, 5500)
    eq(h.legal().can_raise, True)  # A faces 3,500


def test_GAME_16_call_with_nothing_to_call_is_a_check_check_facing_bet_rejected():
    h = to_flop(nl([5000] * 3, [50, 100]))
    op = h.check_call(0)
    eq(op.kind, "check")
    h.bet_raise_to(1, 200)
    before = snap(h)
    with raises(RuleError, match="GAME-16"):
        h.check(2)
    eq(snap(h), before)
    eq(h.check_call(2).kind, "call")


def test_BET_43_fold_when_check_possible_is_binding():
    h = to_flop(nl([5000] * 3, [50, 100]))
    h.fold(0)
    eq(h.live[0], False)
    eq(h.committed[0], 100)


def test_BET_45_check_raise():
    h = to_flop(nl([5000] * 3, [50, 100]))
    h.check_call(0)
    h.bet_raise_to(1, 300)
    h.fold(2)
    eq(h.actor, 0)
    h.bet_raise_to(0, 900)
    eq(h.actor, 1)


def test_BET_46_no_cap_on_raises_in_no_limit():
    h = to_flop(nl([1000000, 1000000], [50, 100]))
    total = 0
    for _ in range(9):
        total = h.legal().min_to
        h.bet_raise_to(h.actor, total)
    eq(h.round.bets[h.actor ^ 1], total)
    eq(h.legal().can_raise, True)


def test_BET_47_call_is_the_exact_amount_of_the_all_in():
    # A is all-in for 6,200; B's call costs 6,200 whatever was said
    h = to_flop(nl([6300, 20000, 20000], [50, 100]))
    h.bet_raise_to(0, 6200)
    op = h.check_call(1)
    eq((op.kind, op.amount), ("call", 6200))


def test_BET_49_amounts_are_multiples_of_the_unit():
    # NL 25/50, unit 25: an entry of 110 is rejected, 100 and 125 are accepted
    h = to_flop(nl([5000] * 3, [25, 50], unit=25))
    before = snap(h)
    with raises(RuleError, match="BET-49"):
        h.bet_raise_to(0, 110)
    eq(snap(h), before)
    eq(h.can_bet_raise_to(0, 100), True)
    eq(h.can_bet_raise_to(0, 125), True)


def test_bet_raise_above_stack_rejected_with_range():
    h = to_flop(nl([5000] * 3, [50, 100]))
    with raises(RuleError, match="BET-49") as e:
        h.bet_raise_to(0, 5000)
    eq(e.value.legal, (100, 4900))


def test_GAME_7_nobody_left_to_raise_against():
    # only callers remain once everyone else is all-in: a raise is refused
    h = to_flop(nl([5000, 1000, 1000], [50, 100]))
    h.bet_raise_to(0, 900)
    h.check_call(1)
    eq(h.actor, 2)
    h.check_call(2)
    eq(h.runout, True)


def test_BET_44_pulling_back_earlier_chips_binds_the_player_to_stay_in():
    # A bets 400 and leaves the chips in front; B raises to 1,200; A pulls the 400 back:
    # A's legal set is now {call 1,200, raise}
    h = to_flop(nl([10000] * 3, [100, 200]))
    h.bet_raise_to(0, 400)
    eq(h.can_pull_back(1), False)  # B has no earlier bet
    h.bet_raise_to(1, 1200)
    h.fold(2)
    h.pull_back(0)
    before = snap(h)
    with raises(RuleError, match="BET-44"):
        h.fold(0)
    eq(snap(h), before)
    eq((h.legal().call, h.legal().can_fold), (800, False))
    h.check_call(0)
    eq(h.street, 2)
    eq(h.bound, [False, False, False])


def test_BET_29_underraise_is_refused_with_the_minimum():
    # NL 100/200 flop: A bets 500; B's "raise to 800" is below the 1,000 minimum
    h = to_flop(nl([10000] * 3, [100, 200]))
    h.bet_raise_to(0, 500)
    with raises(RuleError, match="BET-7") as e:
        h.bet_raise_to(1, 800)
    eq(e.value.legal[0], 1000)


def test_BET_26_pot_count_and_pot_limit_maximum_for_the_console():
    # PL: the device shows the exact pot and the maximum to the player to act
    h = Hand(game=GAMES["PT"], stacks=[20000] * 3, blinds=[100, 200])
    for p, t in enumerate(("AcKd", "7h7s", "2c3d")):
        h.deal_hole(p, parse_cards(t))
    eq((h.pot_total(), h.legal().max_to), (300, 700))


def test_GAME_4_first_live_seat_left_of_button_when_blinds_folded():
    # button seat 3, SB seat 4 and BB seat 5 both folded preflop: seat 6 acts first
    h = nl([5000] * 5, [50, 100])
    h.check_call(2)
    h.check_call(3)
    h.check_call(4)
    h.fold(0)
    h.fold(1)
    h.deal_board(parse_cards("2h7d8s"))
    eq(h.actor, 2)
