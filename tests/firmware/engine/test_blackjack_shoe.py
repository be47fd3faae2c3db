# The multi-deck blackjack shoe (felt.engine.blackjack.shoe): BJ-22 decks in the shoe, BJ-23 the cut
# card (a tag or a count) ending the shoe after the round, BJ-24 accounting per shoe, BJ-27 foreign
# and unknown tags; and a round dealt through the shoe, a card on the wrong box (BJ-25) and a missed
# hole card (BJ-26) refused with nothing counted twice.
from check import eq, raises
from felt.engine.blackjack.errors import MissedHoleCard, ShoeError, WrongBox
from felt.engine.blackjack.round import DEALER, DONE, Round
from felt.engine.blackjack.rules import BlackjackRules
from felt.engine.blackjack.shoe import CUT, Shoe
from felt.engine.cards import parse_card
from felt.engine.deck import DeckRegistry
from felt.errors import DuplicateCard, ForeignDeckCard, UnknownTag

CUT_TAG = bytes([0x04, 0xCC, 0xCC, 0xCC, 0xCC, 0xCC, 0x01])


def uid(deck, card):
    return bytes([0x04, deck, 0x10, 0x20, 0x30, 0x40, card])


def registry(n):
    reg = DeckRegistry()
    for d in range(1, n + 1):
        reg.register("D%d" % d, dict([(uid(d, c), c) for c in range(52)]))
    return reg


REG = registry(9)  # D1..D8 for the shoes, D9 a registered deck that is in no shoe


def shoe(decks=6, **rules):
    r = BlackjackRules(dict(decks=decks, **rules))
    return Shoe(REG, ["D%d" % d for d in range(1, decks + 1)], r, cut_uid=CUT_TAG)


def test_BJ_22_a_shoe_holds_bj_decks_distinct_registered_decks():
    eq(shoe(8).left(), 416)
    eq(shoe(6).left(), 312)
    r6 = BlackjackRules({"decks": 6})
    for ids in (["D1", "D2"], ["D1", "D1", "D2", "D3", "D4", "D5"], ["D1", "D2", "D3", "D4", "D5", "X"]):
        with raises(ShoeError) as e:
            Shoe(REG, ids, r6, cut_uid=CUT_TAG)
        eq(e.value.rule, "BJ-22")


def test_BJ_23_tagged_cut_card_ends_the_shoe_after_the_round():
    s = shoe()
    eq(s.draw(uid(1, 5)), 5)
    eq(s.draw(CUT_TAG), CUT)
    assert s.cut_out and not s.finished
    eq(s.draw(uid(2, 5)), 5)  # the round in progress goes on
    assert s.end_round()
    with raises(ShoeError) as e:
        s.draw(uid(3, 5))
    eq(e.value.rule, "BJ-23")
    with raises(ShoeError, match="BJ-23"):
        Shoe(REG, ["D%d" % d for d in range(1, 7)], BlackjackRules(), cut_uid=None)
    with raises(ShoeError, match="BJ-23"):
        Shoe(REG, ["D%d" % d for d in range(1, 7)], BlackjackRules(), cut_uid=uid(1, 0))  # a card is no cut card


def test_BJ_23_counted_cut_card_at_the_penetration():
    s = shoe(6, cut_card="count", cut_percent=75)
    eq(s.cut_at, 234)
    n = 0
    for d in range(1, 7):
        for c in range(52):
            if n == 233:
                assert not s.cut_out
            if n == 234:
                break
            s.draw(uid(d, c))
            n += 1
    assert s.cut_out
    assert s.end_round()
    eq(s.left(), 78)


def test_BJ_24_card_accounting_per_shoe():
    s = shoe()
    ah = parse_card("Ah")
    for d in range(1, 7):
        eq(s.draw(uid(d, ah)), ah)  # six aces of hearts, one per deck
    eq(s.left_by_rank()[12], 18)
    with raises(DuplicateCard) as e:
        s.draw(uid(3, ah))
    eq(e.value.rule, "BJ-24")
    assert "draw 3" in str(e.value), str(e.value)
    eq(s.dealt, 6)
    eq(s.report(), "shoe D1+D2+D3+D4+D5+D6: 6 out, 306 left")
    full = shoe(8, cut_card="count", cut_percent=95)
    for d in range(1, 9):
        for c in range(52):
            full.draw(uid(d, c))
    eq(full.left(), 0)
    eq(full.left_by_rank(), [0] * 13)


def test_BJ_27_foreign_and_unknown_tags_are_refused_and_not_counted():
    s = shoe()
    with raises(ForeignDeckCard) as e:
        s.draw(uid(9, 7))  # D9 is registered, but not in this shoe
    eq(e.value.rule, "BJ-27")
    with raises(UnknownTag) as e:
        s.draw(bytes([1, 2, 3, 4]))
    eq(e.value.rule, "BJ-27")
    eq((s.dealt, s.left()), (0, 312))
    s8 = shoe(8)
    eq(s8.draw(uid(8, 7)), 7)  # D8 is in an 8-deck shoe


def test_BJ_25_BJ_26_a_round_dealt_through_the_shoe():
    s = shoe()
    r = Round(BlackjackRules())
    r.bet(1, 10)
    r.bet(2, 10)
    r.close_bets()
    cards = [(uid(1, parse_card("Tc")), 1), (uid(1, parse_card("9c")), 2), (uid(1, parse_card("6d")), DEALER),
             (uid(2, parse_card("7c")), 1), (uid(2, parse_card("8c")), 2)]
    for tag, box in cards:
        card = s.draw(tag)
        if box == 2 and card == parse_card("9c"):
            with raises(WrongBox) as e:  # the dealer put box 2's card on box 1
                r.deal(card, 1)
            eq((e.value.rule, e.value.expected), ("BJ-25", 2))
        r.deal(card, box)
    hole = s.draw(uid(3, parse_card("Ts")))
    with raises(MissedHoleCard) as e:
        r.deal(hole, 1)  # the hole card was skipped: the card went to box 1
    eq(e.value.rule, "BJ-26")
    r.deal(hole, DEALER)
    r.decide(1, "stand")
    r.decide(2, "stand")
    eq(r.expect(), ("card", DEALER))  # the dealer's 16 draws
    r.deal(s.draw(uid(3, parse_card("6s"))), DEALER)
    eq(r.phase, DONE)
    eq(r.results(), {1: 10, 2: 10})  # 17 and 17 against the dealer's 22
    eq(s.dealt, 7)  # the refused placements counted nothing twice
