# Card codec (felt.engine.cards): card = rank * 4 + suit, DECK-4 suit order c < d < h < s,
# UNKNOWN = -1 for "??"; bad text raises FormatError.
from check import eq, raises
from felt.engine.cards import (RANKS, SUITS, UNKNOWN, card_name, card_text, cards_text, highest_card,
                               lowest_card, make_card, parse_card, parse_cards, rank_of, suit_of)
from felt.errors import FormatError


def test_DECK_1_codec_round_trips_all_52_cards():
    seen = []
    for r in range(13):
        for s in range(4):
            text = RANKS[r] + SUITS[s]
            c = parse_card(text)
            eq(c, r * 4 + s, text)
            eq(card_text(c), text)
            eq(rank_of(c), r)
            eq(suit_of(c), s)
            eq(make_card(r, s), c)
            seen.append(c)
    eq(sorted(seen), list(range(52)))


def test_contract_examples():
    eq(parse_card("Ah"), 50)
    eq(card_text(50), "Ah")
    eq(parse_cards("AhKd"), [50, 45])
    eq(parse_cards("Ah Kd"), [50, 45])
    eq(parse_cards(""), [])
    eq(cards_text([50, 45]), "AhKd")
    eq(cards_text([50, 45], " "), "Ah Kd")
    eq(card_name(50), "ace of hearts")


def test_unknown_card_is_minus_one_and_double_question_mark():
    eq(UNKNOWN, -1)
    eq(parse_card("??"), UNKNOWN)
    eq(parse_cards("Ah????"), [50, -1, -1])
    eq(card_text(UNKNOWN), "??")


def test_bad_text_raises_format_error():
    for bad in ("", "A", "Ahh", "1h", "Ax", "AH", "ah", "Jo", "10h", None, 50):
        with raises(FormatError):
            parse_card(bad)
    with raises(FormatError):
        parse_cards("AhK")
    with raises(FormatError):
        parse_cards("AhKx")
    for bad in (52, -2, 99):
        with raises(FormatError):
            card_text(bad)


def test_DECK_4_int_order_is_rank_then_suit():
    # Kh beats Kd for the button; As is the highest card and 2c the lowest.
    assert parse_card("Kh") > parse_card("Kd")
    assert parse_card("Kd") > parse_card("Qs")
    eq(parse_card("As"), 51)
    eq(parse_card("2c"), 0)
    ordered = [parse_card(r + s) for r in RANKS for s in SUITS]
    eq(ordered, sorted(ordered))


def test_DECK_4_bring_in_example_lowest_upcard():
    # upcards 3d, 3c and 9s: 3c brings in.
    eq(card_text(lowest_card(parse_cards("3d 3c 9s"))), "3c")
    eq(card_text(highest_card(parse_cards("3d 3c 9s"))), "9s")
    eq(card_text(highest_card(parse_cards("Kd Kh"))), "Kh")
    eq(highest_card([]), UNKNOWN)
    eq(lowest_card([UNKNOWN]), UNKNOWN)
    eq(card_text(lowest_card([UNKNOWN, parse_card("5s")])), "5s")


def test_cards_text_of_a_shown_hand_makes_one_text():
    # every hand tabled at the showdown is logged with its cards, and the board is on the display
    # after every step: a text a card, a list and the join were 112 B on the 32-bit port (224 on
    # 64-bit) for four cards; one buffer and its text now, 32 / 64 (hardware/memory.md, showdown round)
    import check
    if not check.MICROPYTHON:
        raise check.Skip("gc.mem_alloc() is MicroPython's")
    import gc
    hole = [50, 45, 3, 17]
    eq(cards_text(hole), "AhKd2s6d")
    gc.collect()
    before = gc.mem_alloc()
    cards_text(hole)
    used = gc.mem_alloc() - before
    assert used <= (64 if check.sys.maxsize < 2 ** 32 else 128), used
    eq(cards_text([UNKNOWN, 0]), "??2c")
    for bad in ([52], [-2], ["Ah"]):
        with raises(FormatError):
            cards_text(bad)
