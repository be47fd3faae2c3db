# Chip ledger between hands: CASH-3/4/5 (table stakes, adding chips only between hands, no taking
# chips off), TOUR-16 rebuys, TOUR-22 absent entrants' stacks, TOUR-24 eliminations, TOUR-13 event
# heads-up flag, TOUR-14 balancing.
from check import eq, raises
from felt.engine.cards import parse_cards
from felt.engine.games import GAMES
from felt.engine.hand.machine import Hand
from felt.engine.between_hands.ledger import (APPLIED, LEFT, QUEUED, Ledger, event_heads_up, player_to_move,
                                receiving_seat)
from felt.errors import RuleError


def test_CASH_3_example_no_cover_with_cash_during_the_hand():
    # A (seat 1) with 800 is all-in and wants to cover a 2,000 bet: A plays for 800, a side pot forms
    led = Ledger("cash")
    led.seat(1, 800)
    led.seat(2, 5000)
    led.seat(3, 5000)
    stakes = led.start_hand()
    eq(stakes, {1: 800, 2: 5000, 3: 5000})
    ch = led.add(1, 2000)
    eq((ch.kind, ch.stack), (QUEUED, 800))
    assert "CASH-3" in ch.text
    h = Hand(game=GAMES["NT"], stacks=[stakes[2], stakes[3], stakes[1]], blinds=[50, 100])
    for p, cards in enumerate(("AhKh", "QsQd", "7c2d")):
        h.deal_hole(p, parse_cards(cards))
    h.bet_raise_to(2, 800)  # seat 1 (button, position 2) all-in for 800
    h.bet_raise_to(0, 2000)
    h.check_call(1)
    eq([p.amount for p in h.pots()], [2400, 2400])  # main 3 x 800; side 2 x 1,200


def test_CASH_4_example_add_during_the_turn_is_queued_for_the_next_hand():
    led = Ledger("cash", max_buy_in=10000)
    led.seat(5, 3000)
    led.start_hand()
    ch = led.add(5, 1000)
    eq(ch.kind, QUEUED)
    eq(led.stacks[5], 3000)
    eq(led.end_hand({5: 2500}), [])
    eq(led.stacks[5], 2500)  # still not added: applied at the "new hand" event
    eq(led.start_hand(), {5: 3500})


def test_CASH_4_between_hands_applies_at_once_within_the_maximum():
    led = Ledger("cash", max_buy_in=10000)
    led.seat(2, 6000)
    ch = led.add(2, 4000)
    eq((ch.kind, ch.stack), (APPLIED, 10000))
    with raises(RuleError, match="CASH-4") as e:
        led.add(2, 1)
    eq(e.value.legal, (0, 0))
    eq(led.stacks[2], 10000)
    led.start_hand()
    with raises(RuleError, match="CASH-4"):
        led.add(2, 500)  # queued amounts count against the maximum too
    with raises(RuleError, match="CASH-4"):
        led.add(2, 0)


def test_CASH_5_example_no_taking_chips_off_unless_leaving():
    led = Ledger("cash")
    led.seat(7, 9000)
    with raises(RuleError, match="CASH-5"):
        led.remove(7, 2000)
    eq(led.stacks[7], 9000)
    led.start_hand()
    with raises(RuleError, match="CASH-3"):
        led.cash_out(7)  # not during a hand
    led.end_hand({7: 9400})
    ch = led.cash_out(7)
    eq((ch.kind, ch.amount), (LEFT, 9400))
    eq(7 in led.stacks, False)


def test_CASH_3_ledger_refuses_bad_entries_and_keeps_state():
    led = Ledger("cash")
    led.seat(1, 1000)
    with raises(RuleError, match="CASH-1"):
        led.seat(1, 1000)
    with raises(RuleError, match="CASH-3"):
        led.seat(11, 1000)
    with raises(RuleError, match="CASH-3"):
        led.end_hand({1: 1000})  # no hand in progress
    led.start_hand()
    with raises(RuleError, match="CASH-3"):
        led.end_hand({1: -5})
    with raises(RuleError, match="CASH-4"):
        led.seat(2, 1000)
    eq(led.stacks, {1: 1000})


def test_TOUR_22_example_absent_entrant_stack_placed_and_dealt_in():
    led = Ledger("tournament")
    absent = led.start_tournament([1, 2, 3, 4, 5, 6], 20000, present=[1, 2, 3, 4, 5])
    eq(absent, [6])
    eq(led.stacks[6], 20000)
    eq(sorted(led.start_hand()), [1, 2, 3, 4, 5, 6])  # seat 6 is dealt in (BLIND-23 posts its blinds)
    with raises(RuleError, match="TOUR-22"):
        Ledger("cash").start_tournament([1, 2], 20000)


def test_TOUR_16_example_rebuy_announced_keeps_the_busted_player_in():
    led = Ledger("tournament")
    led.start_tournament([1, 2, 3], 5000)
    led.start_hand()
    ch = led.rebuy(2, 5000)  # seat 2 says "rebuy" before the next shuffle completes
    eq(ch.kind, QUEUED)
    eq(led.end_hand({1: 10000, 2: 0, 3: 5000}), [])  # not eliminated (TOUR-24)
    eq(led.start_hand(), {1: 10000, 2: 5000, 3: 5000})  # dealt in with the rebuy chips


def test_TOUR_16_chips_behind_play_in_the_next_hand():
    led = Ledger("tournament")
    led.start_tournament([1, 2], 5000)
    led.rebuy(1, 5000)  # announced before the hand: plays with the chips "behind"
    eq(led.start_hand()[1], 10000)
    with raises(RuleError, match="TOUR-16"):
        led.rebuy(2, 5000, allowed=False)
    cash = Ledger("cash")
    cash.seat(1, 1000)
    with raises(RuleError, match="TOUR-16"):
        cash.rebuy(1, 100)


def test_TOUR_24_busted_without_rebuy_is_eliminated():
    led = Ledger("tournament")
    led.start_tournament([1, 3, 5], 4000)
    led.start_hand()
    eq(led.end_hand({1: 8000, 3: 0, 5: 4000}), [3])
    eq(sorted(led.stacks), [1, 5])
    with raises(RuleError, match="CASH-4"):
        led.add(1, 100)  # a tournament has no add-ons outside rebuys


def test_TOUR_13_example_cap_until_the_event_is_heads_up():
    eq(event_heads_up(9), False)
    eq(event_heads_up(2), True)
    with raises(RuleError, match="TOUR-13"):
        event_heads_up(1)
    for left, capped in ((9, True), (2, False)):
        h = Hand(game=GAMES["FT"], stacks=[10000, 10000], blinds=[10, 20], small_bet=20, big_bet=40,
                 rules={"mode": "tournament"}, event_heads_up=event_heads_up(left))
        h.deal_hole(0, parse_cards("AhKh"))
        h.deal_hole(1, parse_cards("QsQd"))
        for to in (40, 60, 80):
            h.bet_raise_to(h.actor, to)
        eq(h.can_bet_raise_to(h.actor, 100), not capped)


def test_TOUR_14_example_player_due_the_bb_moves():
    eq(player_to_move(5), 5)
    eq(player_to_move(5, family="stud"), None)  # stud: by position, named by the TD
    eq(player_to_move(5, family="stud", rule="tda2004"), 5)
    with raises(RuleError, match="TOUR-14"):
        player_to_move(5, rule="x")


def test_TOUR_14_receiving_seat_worst_position():
    # receiving table of 9, the BB was on seat 3: the BB reaches seat 4 next, so an open seat 4
    # is the worst position; seat 3 (next hand's SB) is never proposed under tda2019
    eq(receiving_seat([8, 4], 3, 9), 4)
    eq(receiving_seat([3, 8], 3, 9), 8)
    eq(receiving_seat([3], 3, 9), None)
    # tda2004: the seat about to take the BB, else the first open seat to its left
    eq(receiving_seat([6, 9], 3, 9, rule="tda2004"), 6)
    eq(receiving_seat([3], 3, 9, rule="tda2004"), 3)
    with raises(RuleError, match="TOUR-14"):
        receiving_seat([12], 3, 9)
