# RULES.md examples of the game-flow rules (GAME-2, GAME-3, GAME-4, GAME-5, GAME-6, GAME-7,
# GAME-9, GAME-11, GAME-16, DECK-4, RANK-12) played through the engine Hand, the dealing check
# and the evaluator. Runs under CPython and MicroPython.
from check import eq, raises

from felt.engine import games
from felt.engine.dealing import plan as dealplan
from felt.engine.rank import evaluate
from felt.engine.hand import pots
from felt.engine.cards import parse_cards
from felt.engine.dealing.check import DealCheck
from felt.engine.dealing.plan import BETTING, BOARD, BURN
from felt.engine.hand.machine import Hand
from felt.engine.house.rules import CASH, HouseRules
from felt.errors import ConfigError, RuleError


def deal_fresh(h):
    # two distinct low cards per position (2c 2d, 2h 2s, 3c 3d ...); boards use high cards
    for p in range(h.n):
        h.deal_hole(p, [2 * p, 2 * p + 1])


def street(h, burn, board):
    h.burn(parse_cards(burn)[0])
    h.deal_board(parse_cards(board))


def preflop_order(h, seats):
    # everyone calls (the big blind checks): the seats in the order they were asked to act
    order = []
    while h.street == 0 and h.actor is not None:
        order.append(seats[h.actor])
        h.check_call(h.actor)
    return order


def test_GAME_2_example_six_handed_shoe_sequence_is_twenty_draws():
    # 12 hole cards; burn, 3 flop cards; burn, turn; burn, river: 12 + 4 + 2 + 2 = 20 draws
    plan = dealplan.make_plan([1, 2, 3, 4, 5, 6], dealplan.HOLDEM, button=6)
    d = DealCheck(plan, HouseRules(CASH))
    out = []
    card = 0
    for seat in [1, 2, 3, 4, 5, 6] * 2:
        out += d.card(card, seat)
        card += 1
    eq(d.phase, BETTING)
    for street_cards in (4, 2, 2):
        d.action(3, "call", 100)
        d.action(4, "call", 100)
        d.betting_closed()
        out += d.card(card, BURN)
        card += 1
        for _ in range(street_cards - 1):
            out += d.card(card, BOARD)
            card += 1
    eq(card, 20)
    eq(len(d.board), 5)
    eq(len(d.burns), 3)
    eq([f.kind for f in out if f.status != "info"], [])


def test_GAME_3_example_preflop_order_left_of_the_big_blind():
    # 6 players, button seat 1: SB seat 2, BB seat 3; preflop order 4, 5, 6, 1, 2, 3
    seats = [2, 3, 4, 5, 6, 1]
    h = Hand("NT", [1000] * 6, blinds=[50, 100], seats=seats)
    deal_fresh(h)
    eq(preflop_order(h, seats), [4, 5, 6, 1, 2, 3])
    eq(h.street, 1)


def test_GAME_4_example_post_flop_first_live_seat_left_of_the_button():
    # button seat 3 (positions 0..5 = seats 4, 5, 6, 1, 2, 3)
    seats = [4, 5, 6, 1, 2, 3]
    for folded, first in (((0,), 5), ((0, 1), 6)):  # SB seat 4 folds -> BB seat 5; both -> seat 6
        h = Hand("NT", [1000] * 6, blinds=[50, 100], seats=seats)
        deal_fresh(h)
        for p in (2, 3, 4, 5):
            h.check_call(p)
        h.fold(0)
        if 1 in folded:
            h.fold(1)
        else:
            h.check_call(1)
        street(h, "Kc", "AcAdAh")
        eq(seats[h.actor], first)


def test_GAME_5_example_big_blind_option_and_a_raise_reopens():
    # NL 50/100, everyone calls 100 around to the big blind: not closed until the BB acts;
    # the BB raises to 300 and the street reopens for everyone else
    h = Hand("NT", [5000] * 4, blinds=[50, 100])
    deal_fresh(h)
    h.check_call(2)
    h.check_call(3)
    h.check_call(0)
    eq((h.street, h.actor), (0, 1))
    eq(h.legal().can_check, True)
    h.bet_raise_to(1, 300)
    eq((h.street, h.actor), (0, 2))
    for p in (2, 3, 0):
        eq(h.street, 0)
        h.check_call(p)
    eq((h.street, h.committed), (1, [300] * 4))


def test_GAME_6_example_everyone_folds_to_a_flop_bet():
    # Flop: A bets 300, B and C fold: A wins, the hand ends, no further card is dealt
    h = Hand("NT", [5000] * 3, blinds=[50, 100, 0])
    deal_fresh(h)
    h.check_call(2)
    h.check_call(0)
    h.check_call(1)
    street(h, "Kc", "AcAdAh")
    h.bet_raise_to(0, 300)
    h.fold(1)
    h.fold(2)
    eq(h.finished, True)
    eq(h.finishing_stacks(), [5200, 4900, 4900])
    with raises(RuleError, match="DEAL-49"):
        h.burn(parse_cards("Kd")[0])


def test_GAME_7_example_turn_all_in_and_call_no_river_betting():
    # Tournament heads-up, turn: A all-in for 2,000, B calls with chips behind: the river is
    # burned and dealt and no river betting round is opened
    h = Hand("NT", [2100, 5000], blinds=[50, 100], rules={"mode": "tournament"})
    deal_fresh(h)
    h.check_call(1)
    h.check_call(0)
    street(h, "Kc", "AcAdAh")
    h.check_call(0)
    h.check_call(1)
    street(h, "Ks", "Qc")
    h.bet_raise_to(0, 2000)  # A's whole stack
    eq(h.all_in[0], True)
    h.check_call(1)
    eq(h.actor, None)
    eq(h.face_up_now(), True)
    street(h, "Kh", "Qd")
    eq(h.phase, "showdown")
    eq(h.actor, None)


def test_GAME_9_example_omaha_hi_lo_pot_of_2000():
    board = parse_cards("3h5d8sKcQh")
    pot = [pots.Pot(0, 2000, (0, 1))]

    def split(a, b, bd=board):
        hole = (parse_cards(a), parse_cards(b))
        hi = [evaluate.omaha_high(x, bd) for x in hole]
        lo = [evaluate.omaha_low8(x, bd) for x in hole]
        return pots.total_shares(pots.award(pot, hi, [v if v >= 0 else None for v in lo]), 2)

    eq(split("KdKh9c9d", "As2cJdJs"), [1000, 1000])  # A the high, B the low: 1,000 each
    eq(split("KdKh9c9d", "As2cJdJs", parse_cards("9h5dTsKc7h")), [2000, 0])  # no low: all to A
    eq(split("KdKhAs2c", "JdJs9c9h"), [2000, 0])  # A both halves: scoop


def test_GAME_11_example_lowest_upcard_brings_in_and_the_next_may_complete():
    # L 20/40 stud, bring-in 5: upcards seat 1 7h, seat 3 2d, seat 6 2c (and seat 7 Kd).
    # Seat 6 posts 5; seat 7 may fold, call 5 or complete to 20.
    h = Hand("F7S", [1000] * 4, antes=1, bring_in=5, small_bet=20, big_bet=40, seats=[1, 3, 6, 7])
    for p, t in enumerate(("AsKs7h", "QdQc2d", "JcTc2c", "9h8hKd")):
        h.deal_hole(p, parse_cards(t))
    eq(h.actor, 2)
    h.post_bring_in(2)
    eq(h.committed[2], 6)
    eq(h.actor, 3)
    eq((h.can_fold(3), h.can_check_call(3), h.can_bet_raise_to(3, 20)), (True, True, True))
    eq(h.legal().call, 5)
    eq(h.legal().min_to, 20)
    with raises(RuleError):
        h.bet_raise_to(3, 15)  # BET-3: complete to the full small bet, nothing in between


def test_DECK_4_example_bring_in_by_suit():
    # upcards 3d, 3c and 9s: 3c brings in
    h = Hand("F7S", [1000] * 3, antes=1, bring_in=5, small_bet=20, big_bet=40)
    for p, t in enumerate(("AsKs3d", "QdQh3c", "JcTc9s")):
        h.deal_hole(p, parse_cards(t))
    eq(h.actor, 1)


def test_GAME_16_example_call_with_nothing_to_call_is_a_check_and_check_facing_a_bet_is_refused():
    seats = [4, 5, 6]
    h = Hand("NT", [5000] * 3, blinds=[50, 100, 0], seats=seats)
    deal_fresh(h)
    h.check_call(2)
    h.check_call(0)
    h.check_call(1)
    street(h, "Kc", "AcAdAh")
    eq(h.check_call(0).kind, "check")  # seat 4's "call" is recorded as a check
    eq(h.committed, [100, 100, 100])
    h.bet_raise_to(1, 200)
    eq(h.can_check(2), False)
    with raises(RuleError, match="GAME-16"):
        h.check(2)  # seat 6's "check" facing 200
    eq((h.actor, h.committed), (2, [100, 300, 100]))


def test_RANK_12_example_royal_flush_wins_outright_and_the_straights_split():
    def play(board):
        h = Hand("NT", [1000, 1000], blinds=[50, 100])
        h.deal_hole(0, parse_cards("Ts2c"))
        h.deal_hole(1, parse_cards("Th3d"))
        h.check_call(1)
        h.check_call(0)
        for burn, cards in (("4c", board[:6]), ("4d", board[6:8]), ("4h", board[8:])):
            street(h, burn, cards)
            h.check_call(0)
            h.check_call(1)
        h.show(0)
        h.show(1)
        return h.finishing_stacks()
    eq(play("AsKsQsJs9d"), [1100, 900])  # player 1 has the royal flush
    eq(play("AcKdQhJs9d"), [1000, 1000])  # both the broadway straight: split


def test_GAME_1_example_omaha8_limit_configuration_and_player_counts():
    # {game: omaha8, structure: limit, small_bet: 20, big_bet: 40, sb: 10, bb: 20, max_seats: 10}
    g = games.game_for("omaha8", "limit")
    eq((g.hi, g.lo, g.structure, g.max_players), ("omaha", "low8", "limit", 10))
    h = Hand(g, [1000] * 10, blinds=[10, 20], small_bet=20, big_bet=40)
    for p in range(10):
        h.deal_hole(p, [4 * p, 4 * p + 1, 4 * p + 2, 4 * p + 3])
    eq((h.actor, h.legal().call, h.legal().min_to), (2, 20, 40))
    # stud7: at most 8 players; holdem: 2 to 10
    eq(games.game_for("stud7", "limit").max_players, 8)
    with raises(ConfigError, match="GAME-1"):
        Hand(games.game_for("stud7", "limit"), [1000] * 9, antes=1, bring_in=5, small_bet=20, big_bet=40)
    with raises(ConfigError, match="GAME-1"):
        Hand("NT", [1000] * 11, blinds=[50, 100])
    with raises(ConfigError, match="GAME-1"):
        Hand("NT", [1000], blinds=[50, 100])
