# POT-12: the stud odd chip goes by the highest card by suit of the FIVE-CARD hand, not of all the
# cards a player holds; the stud/8 low half follows hr.stud_odd_chip_low (POT-13).
from check import eq
from felt.engine.cards import parse_cards
from felt.engine.games import GAMES
from felt.engine.hand.machine import Hand
from felt.engine.hand.stud_odd_chip import five_card_hand


def _play(game, holes, antes, rules=None):
    h = Hand(game=GAMES[game], stacks=[1000] * len(holes), antes=antes, bring_in=5, small_bet=20,
             big_bet=40, rules=rules)
    for street in range(5):
        for p in range(len(holes)):
            cards = parse_cards(holes[p])
            if street == 0:
                h.deal_hole(p, cards[:3])
            else:
                h.deal_hole(p, [cards[street + 2]])
        while h.phase == "bet":
            if h.legal().bring_in:
                h.post_bring_in(h.actor)
            else:
                h.check_call(h.actor)
    for p in range(len(holes)):
        h.show(p)
    return h


def test_POT_12_five_card_hand_leaves_out_the_highest_card():
    # 9-high straights tie. Seat 1 holds the As, but the ace is not part of its five-card hand;
    # seat 2's five-card hand holds the 9s, the best card by suit of either five-card hand.
    eq(five_card_hand(parse_cards("5c6d7h2dAs8s9c")), parse_cards("9c8s7h6d5c"))
    h = _play("F7S", ["5c6d7h2dAs8s9c", "5d6h7s2hKd8c9s"], antes=[1, 2])
    pot = 1 + 2 + 5 + 5
    eq(len(h.results), 1)
    eq(h.results[0].shares, [(1, pot // 2 + 1), (0, pot // 2)])
    eq(sum(h.finishing_stacks()), 2000)


def test_POT_12_worked_example_as_beats_ah_in_a_tied_five_card_hand():
    # RULES.md POT-12: a two-way tie at A-K-Q-J-9; one hand holds As, the other Ah: the As hand
    # gets the odd unit. The sixth and seventh cards (lower here) never decide.
    eq(five_card_hand(parse_cards("AsKdQcJh9d3c2h")), parse_cards("AsKdQcJh9d"))
    h = _play("F7S", ["AhKcQdJs9c4d2d", "AsKdQcJh9d3c2h"], antes=[1, 2])
    pot = 13
    eq(h.results[0].shares, [(1, 7), (0, 6)])
    eq(sum(s for _, s in h.results[0].shares), pot)


def test_POT_12_spare_card_of_an_equal_rank_counts_for_the_player():
    # two pair aces and kings with two queens to choose from as the fifth card: the player tables
    # the set whose cards give the odd chip; the ace is highest either way here
    five = five_card_hand(parse_cards("AcAdKcKdQsQh2c"))
    eq(five[:4], parse_cards("AdAcKdKc"))
    eq(five[4], parse_cards("Qs")[0])


def test_POT_12_razz_the_ace_is_the_lowest_card_of_the_five():
    # A-5 lows tie at 7-5-4-2-A: the highest card of each five-card hand is its 7 (the ace is low),
    # so the 7s wins the odd unit over the 7d although the other hand holds the As.
    five = five_card_hand(parse_cards("As2c4d5h7dKsQs"), "lowA5")
    eq(sorted(five), sorted(parse_cards("As2c4d5h7d")))
    h = _play("FR", ["As2c4d5h7dKsQs", "Ad2h4c5d7sKhQh"], antes=[1, 2])
    eq(h.results[0].shares, [(1, 7), (0, 6)])


def test_POT_12_POT_13_stud8_high_half_tie_by_five_card_hand():
    # seats 1 and 2 tie for high with K-K-9-8-7 and make no low; seat 3 takes the low half with
    # 6-5-4-2-A. The high half (11 of 21) has an odd unit: Ks (seat 2) beats Kd (seat 1).
    holes = ["KcKd9h8s7c3d2c", "KhKs9d8c7s3h2h", "Ac2s4s5c6hTsJs"]
    h = _play("F7S/8", holes, antes=[1, 2, 3])
    pot = 1 + 2 + 3 + 5 * 3
    hi_award, lo_award = h.results
    eq((hi_award.half, lo_award.half), ("high", "low"))
    eq(hi_award.amount, pot - pot // 2)
    eq(hi_award.shares, [(1, 6), (0, 5)])
    eq(lo_award.shares, [(2, 10)])


def _low_tie(rules=None):
    # seat 3 wins high with trip queens; seats 1 and 2 tie for low with 8-5-4-3-A. The low half
    # (11 of 23 after the odd unit goes high, POT-13) has an odd unit.
    holes = ["Ac3d4h5s8cKdJc", "Ad3h4s5c8dKhJd", "QcQdQh9s9c7h6s"]
    return _play("F7S/8", holes, antes=[1, 2, 5], rules=rules)


def test_POT_12_POT_13_stud8_low_half_high_card_by_suit_default():
    # hr.stud_odd_chip_low = high_card_by_suit (TDA19): the highest card of each five-card low is
    # its 8 (the ace is low): 8d (seat 2) beats 8c (seat 1)
    h = _low_tie()
    hi_award, lo_award = h.results
    eq(hi_award.shares, [(2, 12)])
    eq(lo_award.amount, 11)
    eq(lo_award.shares, [(1, 6), (0, 5)])


def test_POT_12_POT_13_stud8_low_half_lowest_card_house_rule():
    # hr.stud_odd_chip_low = lowest_card (S3): the lowest card of each low is its ace; Ac (seat 1)
    # is lower by suit than Ad (seat 2)
    h = _low_tie({"mode": "cash", "stud_odd_chip_low": "lowest_card"})
    lo_award = h.results[1]
    eq(lo_award.shares, [(0, 6), (1, 5)])
