# Blackjack round state machine (felt.engine.blackjack.round): each test is named after the rule of
# hardware/rules-blackjack.md it checks (BJ-*). Rounds are scripted with history tokens
# (felt.engine.blackjack.tokens): b1=10 bet, go, 1:Ah card to box 1, D:6c dealer, 1h/1s/1d/1p/1r/1x.
from check import eq, raises
from felt.engine.blackjack import totals
from felt.engine.blackjack.errors import (
    BetError, BlackjackError, CardError, CardOwed, DoubleNotAllowed, HitNotAllowed, InsuranceNotAllowed,
    MissedHoleCard, OutOfTurn, RedoubleNotAllowed, SplitNotAllowed, SurrenderNotAllowed, WrongBox)
from felt.engine.blackjack.round import (
    BLACKJACK, BUST, DEALER, DONE, EVEN_MONEY, INSURANCE, LOSE, PLAYING, PUSH, SURRENDERED, WIN, Round)
from felt.engine.blackjack.rules import BlackjackRules
from felt.engine.blackjack.tokens import play
from felt.engine.cards import parse_card, parse_cards
from felt.errors import RuleError


def rnd(**rules):
    return Round(BlackjackRules(rules))


def state(r):
    return (r.phase, r.at, r.owed, [(h.box, list(h.cards), h.stake, h.done) for h in r.hands], list(r.dealer),
            dict(r.bets), dict(r.insurance), len(r.log))


def refused(r, err, rule, token):
    # the named error, with its rule ID, and the round unchanged (BJ-21)
    before = state(r)
    with raises(err) as e:
        play(r, token)
    eq(e.value.rule, rule)
    assert isinstance(e.value, RuleError)
    eq(state(r), before)
    return e.value


def test_BJ_1_card_values_and_soft_totals():
    eq(totals.total(parse_cards("AhKd")), (21, True))
    eq(totals.total(parse_cards("Ah6d")), (17, True))
    eq(totals.total(parse_cards("Ah6dTc")), (17, False))
    eq(totals.total(parse_cards("AhAd")), (12, True))
    eq(totals.total(parse_cards("AhAdAsAc")), (14, True))
    eq(totals.total(parse_cards("QhJd5c")), (25, False))
    eq(totals.text(parse_cards("Ah6d")), "soft 17")
    eq(totals.text(parse_cards("Th6d")), "16")
    eq(totals.text(parse_cards("AhQd")), "BJ")
    eq(totals.text(parse_cards("Th6dKc")), "bust 26")


def test_BJ_2_blackjack_pays_and_21_after_split_is_no_blackjack():
    r = play(rnd(), "b1=10 go 1:Ah D:9c 1:Kd D:7s")
    eq(r.phase, DONE)  # a blackjack has nothing to decide; the dealer's 16 vs no hand in contest
    eq(r.hands[0].outcome, BLACKJACK)
    eq(r.results(), {1: 15})
    r = play(rnd(), "b1=10 go 1:Ah D:9c 1:Ad D:7s 1p 1:Kc 1:Qd D:2h")
    eq([h.outcome for h in r.hands], [WIN, WIN])  # two 21s against 18, paid 1:1, not 3:2
    eq(r.results(), {1: 20})


def test_BJ_3_bets_within_limits_on_existing_boxes_before_the_deal():
    r = rnd(min_bet=5, max_bet=500, boxes=5)
    refused(r, BetError, "BJ-3", "b1=4")
    refused(r, BetError, "BJ-3", "b1=501")
    refused(r, BetError, "BJ-3", "b6=10")
    refused(r, BetError, "BJ-3", "go")  # no bet at all
    play(r, "b2=5 b2=50 b3=10 b3=0")  # a bet changes or is taken back before the deal
    eq(r.bets, {2: 50})
    play(r, "go")
    refused(r, BetError, "BJ-3", "b1=10")
    with raises(BetError):
        r.bet(1, 7.5)


def test_BJ_4_dealing_order_box_1_first_then_dealer_up_then_second_cards_then_hole():
    r = play(rnd(), "b1=10 b3=10 go")
    eq(r.expect(), ("card", 1))
    play(r, "1:2c")
    eq(r.expect(), ("card", 3))
    play(r, "3:3c D:4c 1:5c 3:6c")
    eq(r.expect(), ("card", DEALER))  # the hole card (peek game)
    play(r, "D:7c")
    eq(r.expect(), ("decision", 1))
    r = play(rnd(hole_card="enhc"), "b1=10 b3=10 go 1:2c 3:3c D:4c 1:5c 3:6c")
    eq(r.expect(), ("decision", 1))  # BJ-17: no hole card
    eq(len(r.dealer), 1)


def test_BJ_5_boxes_act_in_order_and_out_of_turn_is_refused():
    r = play(rnd(), "b1=10 b3=10 go 1:Tc 3:9c D:7c 1:7d 3:8d D:9h")
    refused(r, OutOfTurn, "BJ-5", "3s")
    play(r, "1s")
    refused(r, OutOfTurn, "BJ-5", "1h")
    refused(r, OutOfTurn, "BJ-5", "4s")  # a box without a bet
    play(r, "3s D:2s")
    eq(r.phase, DONE)
    eq(r.results(), {1: -10, 3: -10})  # 17 and 17 against the dealer's 18


def test_BJ_6_hit_until_bust_and_21_stands_by_itself():
    r = play(rnd(), "b1=10 go 1:5c D:9c 1:6c D:8s 1h 1:Kc")
    eq(r.phase, DONE)  # 21 stands by itself, dealer 17 stands
    eq(r.results(), {1: 10})
    r = play(rnd(), "b1=10 go 1:Tc D:9c 1:6c D:8s 1h 1:Kc")
    eq(r.hands[0].outcome, BUST)
    eq(r.results(), {1: -10})
    eq(r.dealer, parse_cards("9c8s"))  # BJ-18: nothing in contest, the dealer draws nothing


def test_BJ_7_a_card_once_asked_for_is_dealt_and_no_card_comes_unasked():
    r = play(rnd(), "b1=10 go 1:5c D:9c 1:6c D:8s")
    refused(r, CardError, "BJ-7", "1:2c")  # nobody asked for a card
    play(r, "1h")
    refused(r, CardOwed, "BJ-7", "1s")  # the player cannot take the hit back
    play(r, "1:2c 1s")
    refused(r, CardError, "BJ-7", "D:2d")  # dealer 17 stands, the round is over
    refused(r, CardError, "BJ-7", "1:3d")


def test_BJ_8_double_gets_exactly_one_card_for_the_original_bet_again():
    r = play(rnd(), "b1=10 go 1:6c D:6d 1:5c D:Ts 1d")
    eq(r.hands[0].stake, 20)
    play(r, "1:2h")
    eq(r.phase, "dealer")  # 13 after the double: no more cards for box 1
    play(r, "D:Kc")
    eq(r.results(), {1: 20})
    r = play(rnd(), "b1=10 go 1:6c D:6d 1:5c D:Ts 1h 1:2h")
    refused(r, DoubleNotAllowed, "BJ-8", "1d")  # only on the first two cards


def test_BJ_8_double_on_9_to_11_or_10_11_only():
    r = play(rnd(double_on="10_11"), "b1=10 go 1:6c D:6d 1:3c D:Ts")
    refused(r, DoubleNotAllowed, "BJ-8", "1d")
    eq(r.legal(1), ["hit", "stand"])
    r = play(rnd(double_on="9_11"), "b1=10 go 1:6c D:6d 1:3c D:Ts 1d 1:Tc")
    eq(r.hands[0].stake, 20)
    r = play(rnd(double_on="9_11"), "b1=10 go 1:Ac D:6d 1:7c D:Ts")  # soft 18 is no 9-11
    refused(r, DoubleNotAllowed, "BJ-8", "1d")
    r = play(rnd(), "b1=10 go 1:Ac D:6d 1:7c D:Ts 1d 1:2c D:9c")  # any two cards by default
    eq(r.results(), {1: 20})


def test_BJ_9_double_after_split_only_where_the_house_allows():
    r = play(rnd(), "b1=10 go 1:8c D:6d 1:8d D:Ts 1p 1:3c 1d 1:Tc")
    eq([h.stake for h in r.hands], [20, 10])
    r = play(rnd(double_after_split=False), "b1=10 go 1:8c D:6d 1:8d D:Ts 1p 1:3c")
    refused(r, DoubleNotAllowed, "BJ-9", "1d")


def test_BJ_10_redouble_one_more_card_for_another_original_bet():
    r = play(rnd(redouble=True), "b1=10 go 1:2c D:6d 1:3c D:Ts 1d 1:4d")
    eq(r.legal(1), ["stand", "redouble"])
    play(r, "1x 1:5h")
    eq(r.hands[0].stake, 30)
    eq(r.phase, "dealer")
    play(r, "D:9c")  # dealer 25
    eq(r.results(), {1: 30})
    r = play(rnd(), "b1=10 go 1:2c D:6d 1:3c D:Ts 1d 1:4d")
    eq(r.phase, "dealer")  # off by default: a double takes one card
    r = play(rnd(redouble=True), "b1=10 go 1:2c D:6d 1:3c D:Ts")
    refused(r, RedoubleNotAllowed, "BJ-10", "1x")
    r = play(rnd(redouble=True), "b1=10 go 1:2c D:6d 1:3c D:Ts 1d 1:4d 1x 1:2h")
    eq(r.phase, "dealer")  # no third double


def test_BJ_11_split_equal_values_including_unequal_pictures():
    r = play(rnd(), "b1=10 go 1:Qc D:6d 1:Kd D:Ts 1p")  # the seed's queen and king
    eq([parse_cards("Qc"), parse_cards("Kd")], [r.hands[0].cards, r.hands[1].cards])
    eq(r.expect(), ("card", 1))
    play(r, "1:9c 1s 1:8c 1s")
    eq(r.dealer, parse_cards("6dTs"))  # 16 draws
    play(r, "D:2h")
    eq(r.results(), {1: 10})  # 19 wins against 18, 18 pushes
    eq([h.outcome for h in r.hands], [WIN, PUSH])
    r = play(rnd(), "b1=10 go 1:Tc D:6d 1:Kd D:Ts")
    refused(r, SplitNotAllowed, "BJ-11", "1p")  # ten and king: not two pictures (bj.split_match=pictures)
    r = play(rnd(split_match="value"), "b1=10 go 1:Tc D:6d 1:Kd D:Ts 1p")
    eq(len(r.hands), 2)
    r = play(rnd(split_match="rank"), "b1=10 go 1:Qc D:6d 1:Kd D:Ts")
    refused(r, SplitNotAllowed, "BJ-11", "1p")
    r = play(rnd(), "b1=10 go 1:9c D:6d 1:8d D:Ts")
    refused(r, SplitNotAllowed, "BJ-11", "1p")


def test_BJ_12_split_aces_one_card_each_and_split_once():
    r = play(rnd(), "b1=10 go 1:Ac D:6d 1:Ad D:Ts 1p")
    play(r, "1:5c")
    eq(r.expect(), ("card", 1))  # no decision: the second ace's card
    play(r, "1:Ah")
    eq(r.phase, "dealer")  # a new pair of aces is not split again by default
    r = play(rnd(resplit_aces=True), "b1=10 go 1:Ac D:6d 1:Ad D:Ts 1p 1:Ah")
    eq(r.legal(1), ["stand", "split"])
    refused(r, HitNotAllowed, "BJ-12", "1h")
    refused(r, DoubleNotAllowed, "BJ-12", "1d")
    play(r, "1p 1:5c 1:6c 1:7c")
    eq(len(r.hands), 3)
    eq(r.phase, "dealer")
    r = play(rnd(split_aces_one_card=False), "b1=10 go 1:Ac D:6d 1:Ad D:Ts 1p 1:5c 1h 1:2c 1s 1:9c 1s")
    eq(r.phase, "dealer")


def test_BJ_13_resplit_up_to_the_house_limit():
    r = play(rnd(split_max_hands=3), "b1=10 go 1:8c D:6d 1:8d D:Ts 1p 1:8h 1p 1:8s")
    eq(len(r.hands), 3)
    refused(r, SplitNotAllowed, "BJ-13", "1p")
    r = play(rnd(split_max_hands=1), "b1=10 go 1:8c D:6d 1:8d D:Ts")
    refused(r, SplitNotAllowed, "BJ-13", "1p")


def test_BJ_14_late_surrender_returns_half_as_the_first_decision_only():
    r = play(rnd(surrender="late"), "b1=10 go 1:Tc D:Td 1:6d D:7s 1r")
    eq(r.hands[0].outcome, SURRENDERED)
    eq(r.results(), {1: -5})
    eq(r.dealer, parse_cards("Td7s"))  # nothing in contest: no dealer card
    r = play(rnd(), "b1=10 go 1:Tc D:Td 1:6d D:7s")
    refused(r, SurrenderNotAllowed, "BJ-14", "1r")  # none by default
    r = play(rnd(surrender="late"), "b1=10 go 1:2c D:Td 1:3d D:7s 1h 1:2h")
    refused(r, SurrenderNotAllowed, "BJ-14", "1r")
    r = play(rnd(surrender="late", surrender_vs_ace=False), "b1=10 go 1:Tc D:Ad 1:6d D:7s ic")
    refused(r, SurrenderNotAllowed, "BJ-14", "1r")
    r = play(rnd(surrender="late"), "b1=10 go 1:8c D:Td 1:8d D:7s 1p 1:Tc")
    refused(r, SurrenderNotAllowed, "BJ-14", "1r")  # not after a split


def test_BJ_14_late_surrender_comes_after_the_peek():
    r = play(rnd(surrender="late"), "b1=10 go 1:Tc D:Td 1:6d D:As")
    eq(r.phase, DONE)  # the dealer's blackjack ended the round before any decision
    eq(r.results(), {1: -10})


def test_BJ_15_insurance_half_the_bet_pays_2_to_1():
    r = play(rnd(), "b1=10 b2=20 go 1:Tc 2:9c D:Ad 1:7d 2:9d D:Ks")
    eq(r.phase, INSURANCE)
    refused(r, InsuranceNotAllowed, "BJ-15", "1i6")  # more than half
    refused(r, OutOfTurn, "BJ-5", "1s")  # no play before the offer closes
    play(r, "1i5 2n")
    eq(r.phase, DONE)  # dealer blackjack
    eq(r.results(), {1: 0, 2: -20})  # box 1: loses 10, insurance 5 wins 10
    r = play(rnd(), "b1=10 go 1:Tc D:Ad 1:7d D:9s 1i5")
    eq(r.phase, PLAYING)
    play(r, "1s")
    eq(r.results(), {1: -15})  # 17 loses to soft 20, and the insurance is lost
    r = play(rnd(insurance=False), "b1=10 go 1:Tc D:Ad 1:7d D:9s")
    eq(r.phase, PLAYING)  # nothing offered
    refused(r, InsuranceNotAllowed, "BJ-15", "1i5")


def test_BJ_16_even_money_for_a_blackjack_against_an_ace():
    r = play(rnd(), "b1=10 go 1:Ac D:Ad 1:Kd D:9s 1e")
    eq(r.hands[0].outcome, EVEN_MONEY)
    eq(r.results(), {1: 10})
    r = play(rnd(), "b1=10 go 1:Ac D:Ad 1:Kd D:Ks 1e")
    eq(r.results(), {1: 10})  # even money whatever the hole card
    r = play(rnd(), "b1=10 go 1:Ac D:Ad 1:Kd D:Ks 1n")
    eq(r.hands[0].outcome, PUSH)
    r = play(rnd(), "b1=10 go 1:9c D:Ad 1:Kd D:7s")
    refused(r, InsuranceNotAllowed, "BJ-16", "1e")
    r = play(rnd(even_money=False, insurance=False), "b1=10 go 1:Ac D:Ad 1:Kd D:7s")
    eq(r.phase, DONE)  # no offer: the blackjack is paid 3:2
    eq(r.results(), {1: 15})
    r = play(rnd(insurance=False), "b1=10 b2=10 go 1:Ac 2:9c D:Ad 1:Kd 2:Kc D:7s")
    eq(r.insurance_pending(), [1])  # even money only, to the blackjack


def test_BJ_17_peek_under_ace_or_ten_only():
    r = play(rnd(), "b1=10 go 1:Tc D:Td 1:9d D:As")
    eq(r.phase, DONE)
    r = play(rnd(), "b1=10 go 1:Tc D:9d 1:9d D:As")
    eq(r.phase, PLAYING)


def test_BJ_17_no_hole_card_loses_doubles_and_splits_to_a_dealer_blackjack():
    script = "b1=10 go 1:8c D:Td 1:8d 1p 1:3c 1d 1:5h 1:9c 1s D:As"
    r = play(rnd(hole_card="enhc"), script)
    eq(r.results(), {1: -30})
    r = play(rnd(hole_card="enhc", enhc_loses="original"), script)
    eq(r.results(), {1: -10})
    r = play(rnd(hole_card="enhc"), "b1=10 go 1:Ac D:Td 1:Kd D:As")
    eq(r.results(), {1: 0})  # blackjack against blackjack pushes
    r = play(rnd(hole_card="enhc"), "b1=10 go 1:Tc D:Td 1:Kd 1s D:5s D:4c")
    eq(r.results(), {1: 10})


def test_BJ_18_dealer_stands_or_hits_soft_17():
    r = play(rnd(), "b1=10 go 1:Tc D:Ad 1:7d D:6s ic 1s")
    eq(r.phase, DONE)
    eq(r.results(), {1: 0})
    r = play(rnd(soft17="hit"), "b1=10 go 1:Tc D:Ad 1:7d D:6s ic 1s")
    eq(r.expect(), ("card", DEALER))
    play(r, "D:3c")
    eq(r.results(), {1: -10})  # soft 20
    r = play(rnd(), "b1=10 go 1:Tc D:9d 1:7d D:7s 1s")
    eq(r.expect(), ("card", DEALER))  # 16 draws
    play(r, "D:Ts")
    eq(r.results(), {1: 10})


def test_BJ_19_totals_compare_bust_loses_first_tie_pushes():
    r = play(rnd(), "b1=10 b2=10 b3=10 go 1:Tc 2:Tc 3:Tc D:6d 1:8d 2:7d 3:5d D:Ts 1s 2s 3h 3:Ks D:Kd")
    eq([h.outcome for h in r.hands], [WIN, WIN, BUST])  # the player's bust loses though the dealer busts
    r = play(rnd(), "b1=10 b2=10 go 1:Tc 2:Tc D:Td 1:8d 2:7d D:8s 1s 2s")
    eq([h.outcome for h in r.hands], [PUSH, LOSE])
    eq(r.results(), {1: 0, 2: -10})
    r = play(rnd(blackjack_pays="6:5"), "b1=10 go 1:Ac D:9d 1:Kd D:8s")
    eq(r.results(), {1: 12})


def test_BJ_20_payout_rounding_down_up_or_exact_bets():
    r = play(rnd(), "b1=5 go 1:Ac D:9d 1:Kd D:8s")
    eq(r.results(), {1: 7})  # 7.50 rounds down
    r = play(rnd(payout_rounding="up"), "b1=5 go 1:Ac D:9d 1:Kd D:8s")
    eq(r.results(), {1: 8})
    r = play(rnd(blackjack_pays="6:5"), "b1=7 go 1:Ac D:9d 1:Kd D:8s")
    eq(r.results(), {1: 8})  # 8.4
    r = play(rnd(surrender="late"), "b1=5 go 1:Tc D:Td 1:6d D:7s 1r")
    eq(r.results(), {1: -3})  # half of 5 handed back is 2
    r = rnd(payout_rounding="exact")
    refused(r, BetError, "BJ-20", "b1=5")
    play(r, "b2=6")
    r = rnd(payout_rounding="exact", blackjack_pays="6:5")
    refused(r, BetError, "BJ-20", "b1=15")  # 6:5 and a half for insurance: multiples of 10
    play(r, "b1=20")


def test_BJ_21_every_refusal_is_a_named_rule_error_and_changes_nothing():
    r = play(rnd(), "b1=10 go 1:Tc D:9c 1:7d D:8s")
    for token, err in (("1p", SplitNotAllowed), ("1r", SurrenderNotAllowed), ("2s", OutOfTurn), ("1x", RedoubleNotAllowed),
                       ("1e", InsuranceNotAllowed), ("1i5", InsuranceNotAllowed), ("ic", InsuranceNotAllowed)):
        e = refused(r, err, e_rule(err), token)
        assert isinstance(e, BlackjackError)
    eq(r.legal(1), ["hit", "stand", "double"])


def e_rule(err):
    return {SplitNotAllowed: "BJ-11", SurrenderNotAllowed: "BJ-14", OutOfTurn: "BJ-5", RedoubleNotAllowed: "BJ-10",
            InsuranceNotAllowed: "BJ-15"}[err]


def test_BJ_25_a_card_on_the_wrong_box_is_refused_naming_the_right_one():
    r = play(rnd(), "b1=10 b3=10 go 1:2c")
    e = refused(r, WrongBox, "BJ-25", "1:3c")
    eq(e.expected, 3)
    e = refused(r, WrongBox, "BJ-25", "D:3c")
    eq(e.expected, 3)
    play(r, "3:3c D:4c 1:5c 3:6c D:7c 1h")
    e = refused(r, WrongBox, "BJ-25", "3:9c")
    eq(e.expected, 1)


def test_BJ_26_a_missed_dealer_hole_card_is_named():
    r = play(rnd(), "b1=10 b3=10 go 1:2c 3:3c D:4c 1:5c 3:6c")
    e = refused(r, MissedHoleCard, "BJ-26", "1:9c")
    eq(e.expected, DEALER)
    refused(r, MissedHoleCard, "BJ-26", "1h")
    r = play(rnd(hole_card="enhc"), "b1=10 go 1:2c D:4c 1:5c 1h 1:9c")  # no hole card to miss
    eq(len(r.hands[0].cards), 3)


def test_BJ_19_chips_are_conserved_and_integer_over_many_scripted_rounds():
    # every hand's payout is a whole number and the house's take is what the boxes lost
    deck = [parse_card(r + s) for r in "23456789TJQKA" for s in "cdhs"] * 2
    seed = 7
    for n in range(150):
        r = rnd(surrender="late", redouble=True, hole_card="enhc" if n % 2 else "peek", soft17="hit" if n % 3 else "stand")
        for b in (1, 4, 7):
            r.bet(b, 5 + (n + b) % 7)
        r.close_bets()
        k = 0
        while r.phase != DONE:
            seed = (seed * 1103515245 + 12345) % 2147483648
            kind, box = r.expect()
            if kind == "card":
                r.deal(deck[seed % len(deck)], box)
            elif kind == "insurance":
                (r.insure if seed % 3 == 0 else r.decline_insurance)(box[0])
            else:
                legal = r.legal(box)
                r.decide(box, legal[seed % len(legal)])
            k += 1
            assert k < 200
        for h in r.hands:
            assert isinstance(h.paid, int) and h.paid >= 0, h.paid
        for b in (1, 4, 7):
            assert -4 * r.bets[b] <= r.net(b) <= 4 * r.bets[b], (r.log, r.net(b))
