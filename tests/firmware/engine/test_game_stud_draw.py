# Stud and draw flow: GAME-10..15, GAME-17, RANK-20 action order, razz as pokerkit.
from check import eq, raises
from felt.engine.cards import parse_cards
from felt.engine.games import GAMES
from felt.engine.hand.machine import Hand
from felt.errors import RuleError


def stud(stacks, game="F7S", **kw):
    kw.setdefault("bring_in", 5)
    kw.setdefault("small_bet", 20)
    kw.setdefault("big_bet", 40)
    return Hand(game=GAMES[game], stacks=list(stacks), **kw)


def finish_round(h):
    while h.phase == "bet":
        lg = h.legal()
        if lg.bring_in:
            h.post_bring_in(h.actor)
        else:
            h.check_call(h.actor)


def test_GAME_10_stud_cards_per_street_with_seven_players():
    # 3rd street 21 cards; 4th..6th one burn + 7 each; 7th one burn + 7 (53 > 52: DEAL-46)
    h = stud([1000] * 7, antes=1)
    eq(h.pot_total(), 7)
    k = 0
    for p in range(7):
        h.deal_hole(p, [k, k + 1, k + 2])
        k += 3
    eq(k, 21)
    eq([h.up[p] for p in range(1)], [[False, False, True]])
    for street in (1, 2, 3):
        finish_round(h)
        eq(h.street, street)
        h.burn(k)
        k += 1
        for p in range(7):
            h.deal_hole(p, k)
            k += 1
    eq(k, 45)
    finish_round(h)
    eq(h.street, 4)
    eq(h.up[0], [False, False, True, True, True, True])


def test_GAME_11_bring_in_owner_all_in_for_ante_next_player_brings_in_or_folds():
    # seat with the 2c is all-in from the ante: the next player must bring in or fold
    h = stud([1000, 10, 1000, 1000], antes=10)
    for p, t in enumerate(("AsKs7h", "QdQc2c", "JcTc8d", "9h8h6s")):
        h.deal_hole(p, parse_cards(t))
    eq(h.actor, 2)
    lg = h.legal()
    eq(lg.bring_in, 5)
    eq(h.can_fold(2), True)
    eq(h.can_check_call(2), False)


def test_GAME_12_best_showing_hand_acts_first():
    # 5th street: seat 2 Qs Qd 4c, seat 4 Ah Kh 9h, seat 5 Jc Jd 8s: seat 2 acts first
    h = stud([1000] * 3)
    for p, t in enumerate(("2s3sQs", "2d3dAh", "2h3hJc")):
        h.deal_hole(p, parse_cards(t))
    eq(h.actor, 2)  # Jc is the lowest upcard: bring-in
    finish_round(h)
    for p, t in enumerate(("Qd", "Kh", "Jd")):
        h.deal_hole(p, parse_cards(t))
    eq(h.actor, 0)  # queens showing
    finish_round(h)
    for p, t in enumerate(("4c", "9h", "8s")):
        h.deal_hole(p, parse_cards(t))
    eq(h.actor, 0)


def test_RANK_20_showing_tie_broken_by_highest_card_by_suit():
    # seat 2 Ah 6c against seat 7 Ad 6s: ranks tie, Ah > Ad acts first
    h = stud([1000] * 2)
    h.deal_hole(0, parse_cards("2s3dAd"))
    h.deal_hole(1, parse_cards("2c3cAh"))
    finish_round(h)
    h.deal_hole(0, parse_cards("6s"))
    h.deal_hole(1, parse_cards("6c"))
    eq(h.actor, 1)


def test_GAME_13_stud_hi_lo_split():
    # A's best high is a flush, B's low is 7-5-4-2-A and A has no low: half each
    h = stud([1000] * 2, game="F7S/8", antes=0)
    h.deal_hole(0, parse_cards("KhQh9h"))
    h.deal_hole(1, parse_cards("Ac2d4s"))
    finish_round(h)
    for a, b in (("8h", "5c"), ("3h", "7d"), ("Td", "Kc")):
        h.deal_hole(0, parse_cards(a))
        h.deal_hole(1, parse_cards(b))
        finish_round(h)
    h.deal_hole(0, parse_cards("Jc"))
    h.deal_hole(1, parse_cards("Ks"))
    finish_round(h)
    eq(h.phase, "showdown")
    pot = h.pot_total()
    h.show(0)
    h.show(1)
    eq([(a.half, a.shares) for a in h.results], [("high", [(0, pot // 2)]), ("low", [(1, pot // 2)])])
    eq(h.finishing_stacks(), [1000, 1000])


def test_GAME_14_five_card_stud_lowest_upcard_brings_in():
    # upcards 9c, 4d, Kh, 4s, Ad: seat 2 (4d) brings in because 4d < 4s
    h = stud([1000] * 5, game="F5S")
    for p, t in enumerate(("2c9c", "2d4d", "2hKh", "2s4s", "3cAd")):
        h.deal_hole(p, parse_cards(t))
    eq((h.actor, h.legal().bring_in), (1, 5))


def test_GAME_14_highest_card_house_rule_opens_and_may_check():
    h = Hand(game=GAMES["F5S"], stacks=[1000] * 5, antes=5, small_bet=20, big_bet=40,
             rules={"hr.stud5_first_action": "highest_card"})
    for p, t in enumerate(("2c9c", "2d4d", "2hKh", "2s4s", "3cAd")):
        h.deal_hole(p, parse_cards(t))
    eq(h.actor, 4)
    eq(h.legal().can_check, True)
    eq(h.check_call(4).kind, "check")


def test_GAME_17_short_ante_is_all_in_and_makes_a_side_pot():
    # stud, 7 players, ante 10, one holds 6: antes 66, main pot 42 and side pot 24
    h = stud([1000, 1000, 6, 1000, 1000, 1000, 1000], antes=10)
    eq(h.pot_total(), 66)
    eq([(q.amount, len(q.eligible)) for q in h.pots()], [(42, 7), (24, 6)])
    eq(h.log[2].all_in, True)


def test_razz_highest_upcard_brings_in_and_lowest_hand_opens():
    # wsop 2023 #43 razz hand: p1 Kc up brings in; on 4th street p3 (8-6) opens
    h = stud([6550000, 6425000, 3775000, 7500000, 5450000], game="FR", antes=50000, bring_in=50000,
             small_bet=200000, big_bet=400000)
    for p, t in enumerate(("7c3hKc", "8s6s5s", "3s2c8h", "Qd7h2d", "9d8c5c")):
        h.deal_hole(p, parse_cards(t))
    eq(h.actor, 0)
    h.post_bring_in(0)
    h.bet_raise_to(1, 200000)
    h.check_call(2)
    h.fold(3)
    h.fold(4)
    h.fold(0)
    h.deal_hole(1, parse_cards("Jh"))
    h.deal_hole(2, parse_cards("6c"))
    eq(h.actor, 2)


def _draw_hand(max_replace=5):
    # GAME-15: 6 players, button seat 6 (position 5): blinds seats 1 and 2, seat 3 opens
    h = Hand(game=GAMES["F5D"], stacks=[1000] * 6, blinds=[5, 10], small_bet=10,
             rules={"hr.draw_max_replace": max_replace})
    cards = list(range(52))
    for p in range(6):
        h.deal_hole(p, cards[5 * p:5 * p + 5])
    return h


def test_GAME_15_draw_order_from_the_button_left():
    h = _draw_hand()
    eq(h.actor, 2)
    h.check_call(2)
    for p in (3, 4, 5):
        h.fold(p)
    h.check_call(0)
    h.fold(1)
    # only seats 1 and 3 remain (positions 0 and 2): seat 1 draws first
    eq((h.phase, h.drawer()), ("draw", 0))
    before = (list(h.hole[2]), h.phase)
    with raises(RuleError, match="GAME-15"):
        h.draw(2, [10])
    eq((list(h.hole[2]), h.phase), before)
    h.burn(30)
    h.draw(0, [0, 1, 2], [31, 32, 33])  # seat 1 takes 3 cards
    eq(h.drawer(), 2)
    h.draw(2, [10])  # seat 3 takes 1, dealt afterwards (as PHH writes it)
    eq(h.phase, "draw")
    h.deal_hole(2, 34)
    eq((h.phase, h.actor), ("bet", 0))
    eq(sorted(h.hole[0]), [3, 4, 31, 32, 33])
    eq(h.legal().min_to, 20)  # BET-2: big bet after the draw


def test_GAME_15_house_limit_on_replaced_cards():
    h = _draw_hand(max_replace=3)
    h.check_call(2)
    for p in (3, 4, 5):
        h.fold(p)
    h.check_call(0)
    h.fold(1)
    with raises(RuleError, match="GAME-15") as e:
        h.draw(0, [0, 1, 2, 3])
    eq(e.value.legal, (0, 3))
    with raises(RuleError, match="GAME-15"):
        h.draw(0, [40])  # not in the hand
    h.stand_pat(0)
    eq(h.drawer(), 2)


def test_triple_draw_phh_flow_with_unknown_cards():
    # badugi from Wikipedia (alice-carol): all cards unknown until the showdown
    h = Hand(game=GAMES["FB"], stacks=[200] * 4, blinds=[1, 2], small_bet=2, big_bet=4)
    for p in range(4):
        h.deal_hole(p, [-1] * 4)
    h.fold(2)
    h.check_call(3)
    h.check_call(0)
    h.check_call(1)
    h.draw(0, [-1] * 4)
    h.draw(1, [-1] * 4)
    h.draw(3, [-1] * 2)
    for p, k in ((0, 4), (1, 4), (3, 2)):
        h.deal_hole(p, [-1] * k)
    h.check_call(0)
    h.bet_raise_to(1, 2)
    h.check_call(3)
    h.check_call(0)
    h.draw(0, [-1] * 2)
    h.stand_pat(1)
    h.draw(3, [-1] * 2)
    h.deal_hole(0, [-1] * 2)
    h.deal_hole(3, [-1] * 2)
    h.check_call(0)
    h.bet_raise_to(1, 4)
    h.bet_raise_to(3, 8)
    h.fold(0)
    h.check_call(1)
    h.draw(1, [-1] * 2)
    h.stand_pat(3)
    h.deal_hole(1, [-1] * 2)
    h.check_call(1)
    h.bet_raise_to(3, 4)
    h.check_call(1)
    h.show(3, parse_cards("2s4c6d9h"))
    h.show(1, parse_cards("3s5d7c8h"))
    eq(h.finished, True)
    eq(h.finishing_stacks(), [196, 220, 200, 184])  # 8-7-5-3 beats 9-6-4-2 (pokerkit agrees)


def test_GAME_12_community_card_on_seventh_street_keeps_sixth_street_opener():
    # DEAL-46 (B): the stub is short, one community card is every player's 7th card
    h = stud([1000] * 3)
    for p, t in enumerate(("2s3sQs", "2d3dAh", "2h3hJc")):
        h.deal_hole(p, parse_cards(t))
    finish_round(h)
    for cards in (("Qd", "Kh", "Jd"), ("4c", "9h", "8s"), ("5c", "9c", "7s")):
        for p in range(3):
            h.deal_hole(p, parse_cards(cards[p]))
        sixth = h.actor
        finish_round(h)
    eq(h.can_deal_board(parse_cards("AcAd")), False)
    h.deal_board(parse_cards("Ac"))
    eq((h.phase, h.actor), ("bet", sixth))
    with raises(RuleError):
        h.deal_hole(0, parse_cards("Ad"))
    finish_round(h)
    h.show(0)
    h.show(1)
    h.show(2)
    eq(h.finished, True)
    # the Ac makes seat 1 a five-high straight (A-2-3-4-5), seat 2 aces and nines
    eq(sum(h.finishing_stacks()), 3000)
    eq([a.winners for a in h.results], [(0,)])


def test_GAME_11_players_after_an_all_in_bring_in_card_may_each_fold():
    h = stud([1000, 10, 1000, 1000], antes=10)
    for p, t in enumerate(("AsKs7h", "QdQc2c", "JcTc8d", "9h8h6s")):
        h.deal_hole(p, parse_cards(t))
    h.fold(2)
    eq((h.actor, h.legal().bring_in), (3, 5))
    h.fold(3)
    eq((h.actor, h.legal().bring_in), (0, 5))
    h.post_bring_in(0)
    eq(h.finished, False)
