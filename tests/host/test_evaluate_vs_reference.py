# Differential test of felt.engine.rank.evaluate against PokerKit 0.7.7's hand classes (CPython only):
# thousands of seeded random hands per game; the ORDER our int values induce (including ties)
# must equal PokerKit's. Sorting by our value and checking every neighbouring pair with
# PokerKit proves the two total preorders agree on the whole sample (by transitivity).
import random

import pytest
from pokerkit import (BadugiHand, EightOrBetterLowHand, OmahaEightOrBetterLowHand, OmahaHoldemHand,
                      RegularLowHand, ShortDeckHoldemHand, StandardHighHand, StandardLowHand)

from felt.engine.rank import evaluate as ev
from felt.engine.cards import RANKS, SUITS, card_text

DECK = list(range(52))
SHORT_DECK = [c for c in DECK if c >> 2 >= 4]  # 6..A


def text(cards):
    return "".join(card_text(c) for c in cards)


def hands(seed, n, size, deck=DECK):
    rnd = random.Random(seed)
    return [rnd.sample(deck, size) for _ in range(n)]


def skewed_hands(seed, n, size, deck=DECK):
    # Uniform deals rarely make quads, full houses or straight flushes; half of these hands
    # come from a few ranks or mostly one suit so every category and tie-break is exercised.
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        if i % 3 == 0:
            pool = [c for c in deck if c >> 2 in rnd.sample(range(13), 4)]
        elif i % 3 == 1:
            s = rnd.randrange(4)
            pool = [c for c in deck if c & 3 == s] + rnd.sample(deck, 6)
            pool = list(dict.fromkeys(pool))
        else:
            pool = deck
        if len(pool) < size:
            pool = deck
        out.append(rnd.sample(pool, size))
    return out


def assert_same_order(items, ours, ref):
    """items: hands; ours(item) -> int; ref(item) -> PokerKit hand object or None (no hand)."""
    scored = sorted((ours(h), i) for i, h in enumerate(items))
    refs = {}

    def r(i):
        if i not in refs:
            refs[i] = ref(items[i])
        return refs[i]

    for (va, ia), (vb, ib) in zip(scored, scored[1:]):
        ha, hb = r(ia), r(ib)
        if ha is None or hb is None:  # "no hand" must sort below every hand, equal to itself
            assert (ha is None and hb is None) == (va == vb), (items[ia], items[ib])
            assert not (ha is not None and hb is None), (items[ia], items[ib])
            continue
        if va == vb:
            assert ha == hb, (text(items[ia]), text(items[ib]), va)
        else:
            assert ha < hb, (text(items[ia]), text(items[ib]), va, vb, str(ha), str(hb))


@pytest.mark.parametrize("size", [5, 6, 7])
def test_RANK_1_to_13_high_matches_StandardHighHand(size):
    items = hands(size, 3000, size) + skewed_hands(100 + size, 3000, size)
    assert_same_order(items, ev.high, lambda h: StandardHighHand.from_game(text(h)))


def test_RANK_14_omaha_high_matches_OmahaHoldemHand():
    items = hands(14, 1500, 9) + skewed_hands(114, 1500, 9)
    assert_same_order(items, lambda h: ev.omaha_high(h[:4], h[4:]),
                      lambda h: OmahaHoldemHand.from_game(text(h[:4]), text(h[4:])))


def test_RANK_14_omaha_ten_seats_share_a_board_and_the_board_cache_follows_changes():
    # A showdown ranks every seat against one board (evaluate caches per-board work); boards
    # that differ in one card or only in order must not reuse stale data.
    rnd = random.Random(141)
    items = []
    for _ in range(150):
        cards = rnd.sample(DECK, 46)
        board = cards[40:45]
        variants = [board, board[::-1], board[:4] + [cards[45]], board[:3], board[:4]]
        for b in variants:
            for seat in range(10):
                items.append(cards[4 * seat:4 * seat + 4] + b)
    for h in items:
        got = ev.omaha_high(h[:4], h[4:])
        want = max(ev.high([h[i], h[j]] + [h[4 + a] for a in tri])
                   for i in range(4) for j in range(i + 1, 4)
                   for tri in _triples(len(h) - 4))
        assert got == want, text(h)
    assert_same_order(items[:1500], lambda h: ev.omaha_high(h[:4], h[4:]),
                      lambda h: OmahaHoldemHand.from_game(text(h[:4]), text(h[4:])))


def _triples(n):
    return [(a, b, c) for a in range(n) for b in range(a + 1, n) for c in range(b + 1, n)]


def _or_none(make):
    try:
        return make()
    except ValueError:  # PokerKit: no valid hand (no qualifying low)
        return None


@pytest.mark.parametrize("size", [5, 6, 7])
def test_RANK_15_16_low8_matches_EightOrBetterLowHand(size):
    rnd_items = hands(15 + size, 3000, size)
    low_items = hands(25 + size, 3000, size, [c for c in DECK if c >> 2 < 7 or c >> 2 == 12])
    items = rnd_items + low_items
    # PokerKit orders low hands "stronger is greater" too, so the same check applies
    assert_same_order(items, ev.low8,
                      lambda h: _or_none(lambda: EightOrBetterLowHand.from_game(text(h))))
    assert sum(1 for h in items if ev.low8(h) == ev.NO_LOW) > 100


def test_RANK_17_18_omaha_low8_matches_OmahaEightOrBetterLowHand():
    lowish = [c for c in DECK if c >> 2 < 8 or c >> 2 == 12]
    items = hands(17, 2000, 9) + hands(18, 2000, 9, lowish)
    assert_same_order(items, lambda h: ev.omaha_low8(h[:4], h[4:]),
                      lambda h: _or_none(lambda: OmahaEightOrBetterLowHand.from_game(text(h[:4]), text(h[4:]))))
    assert sum(1 for h in items if ev.omaha_low8(h[:4], h[4:]) == ev.NO_LOW) > 100


@pytest.mark.parametrize("size", [5, 7])
def test_lowA5_matches_RegularLowHand(size):
    items = hands(50 + size, 2500, size) + skewed_hands(60 + size, 2500, size)
    assert_same_order(items, ev.lowA5, lambda h: RegularLowHand.from_game(text(h)))


@pytest.mark.parametrize("size", [5, 7])
def test_low27_matches_StandardLowHand(size):
    items = hands(70 + size, 2500, size) + skewed_hands(80 + size, 2500, size)
    assert_same_order(items, ev.low27, lambda h: StandardLowHand.from_game(text(h)))


def test_badugi_matches_BadugiHand():
    items = hands(90, 4000, 4) + skewed_hands(91, 2000, 4)
    assert_same_order(items, ev.badugi, lambda h: BadugiHand.from_game(text(h)))


@pytest.mark.parametrize("size", [5, 7])
def test_short_deck_high_matches_ShortDeckHoldemHand(size):
    items = hands(95 + size, 3000, size, SHORT_DECK) + skewed_hands(97 + size, 3000, size, SHORT_DECK)
    assert_same_order(items, ev.short_deck_high, lambda h: ShortDeckHoldemHand.from_game(text(h)))


def test_category_matches_pokerkit_labels():
    names = ["High card", "One pair", "Two pair", "Three of a kind", "Straight", "Flush",
             "Full house", "Four of a kind", "Straight flush"]
    for h in skewed_hands(7, 3000, 7):
        label = StandardHighHand.from_game(text(h)).entry.label.value
        assert names[ev.category(ev.high(h))] == label, text(h)


def test_short_deck_category_and_words_match_pokerkit_labels():
    # short-deck values store a flush as category 6 and a full house as 5 (pokerkit's order)
    names = ["High card", "One pair", "Two pair", "Three of a kind", "Straight", "Full house",
             "Flush", "Four of a kind", "Straight flush"]
    words = ["high", "a pair", "two pair", "three of a kind", "a straight", "a full house",
             "a flush", "four of a kind", "a straight flush"]
    seen = set()
    for h in skewed_hands(8, 3000, 7, SHORT_DECK):
        v = ev.short_deck_high(h)
        label = ShortDeckHoldemHand.from_game(text(h)).entry.label.value
        assert names[ev.category(v)] == label, text(h)
        text_ = ev.describe(v, "short")
        assert words[ev.category(v)] in text_ or (ev.category(v) == 8 and text_ == "a royal flush"), text_
        seen.add(ev.category(v))
    assert seen == set(range(9))


def test_reference_sample_covers_every_high_category():
    seen = {ev.category(ev.high(h)) for h in skewed_hands(107, 3000, 7)}
    assert seen == set(range(9))


def test_deck_text_helpers_agree_with_pokerkit_card_names():
    assert RANKS == "23456789TJQKA" and SUITS == "cdhs"
