# Reason texts for awards and the river nut check (felt.engine.hand.showdown, showdown_record): SHOW-1,
# SHOW-18, SHOW-19, POT-8. The describer is injected here (values are plain ints); the
# real evaluate.describe is exercised when that module is present.
from check import eq
from felt.engine.hand.pots import Pot, award, build_pots
from felt.engine.hand.showdown import award_text, awards_text
from felt.engine.hand.showdown_record import nut_check, nut_value

T, F = True, False
WORDS = {9: "a flush, ace high", 4: "two pair, kings and sevens", 7: "a full house, kings full of sevens",
         300: "an 8-6 low", 500: "a 7-5-4-2-A low"}


def say(value, kind):
    return WORDS[value] + ("" if kind in ("high", "low8") else " [%s]" % kind)


def test_SHOW_1_cards_speak_text_names_the_read_hand():
    # Seat 4 announced "two pair" but holds a flush: the engine awards and names the flush.
    seats = [2, 4, 6]
    got = award([Pot(0, 900, (0, 1, 2))], [4, 9, None])
    eq(award_text(got[0], seats, say), "seat 4 wins the main pot with a flush, ace high")


def test_SHOW_text_side_pot_ties_and_uncontested():
    seats = [3, 5, 7]
    got = award(build_pots([300, 900, 900], [T, T, T]), [2, 9, 9])
    eq(awards_text(got, seats, say),
       ["seats 5 and 7 split side pot 1 with a flush, ace high", "seats 5 and 7 split the main pot with a flush, ace high"])
    got = award(build_pots([50, 100], [F, T]), [None, None])
    eq(award_text(got[0], seats), "seat 5 wins the main pot uncontested")
    got = award([Pot(0, 30, (0, 1, 2))], [9, 9, 9])
    eq(award_text(got[0], seats, say), "seats 3, 5 and 7 split the main pot with a flush, ace high")
    # Without seat numbers the PHH player numbers are used.
    eq(award_text(got[0], None, say), "players 1, 2 and 3 split the main pot with a flush, ace high")


def test_SHOW_10_text_for_a_pot_won_without_showing():
    got = award([Pot(0, 1600, (0, 1))], [0, None])
    eq(award_text(got[0], [8, 9], say, unshown=[0]), "seat 8 wins the main pot without showing")


def test_SHOW_18_hilo_high_read_first_then_low():
    # Main pot: HIGH seat 3 (full house), LOW seat 7.
    got = award([Pot(0, 1000, (0, 1))], [7, 4], lo=[-1, 500])
    eq(awards_text(got, [3, 7], say),
       ["seat 3 wins the high half of the main pot with a full house, kings full of sevens",
        "seat 7 wins the low half of the main pot with a 7-5-4-2-A low"])
    got = award([Pot(0, 1000, (0, 1))], [7, 4], lo=[-1, None])
    eq(award_text(got[0], [3, 7], say), "seat 3 wins the main pot with a full house, kings full of sevens (no low)")
    got = award([Pot(0, 1000, (0, 1))], [7, 4], lo=[300, -1])
    eq(award_text(got[0], [3, 7], say), "seat 3 scoops the main pot with a full house, kings full of sevens and an 8-6 low")


def test_SHOW_18_lowball_kinds_pass_through_to_describe():
    got = award([Pot(0, 100, (0, 1))], [300, 9])
    eq(award_text(got[0], [1, 2], say, hi_kind="low27"), "seat 1 wins the main pot with an 8-6 low [low27]")


def test_SHOW_19_exclusive_nuts_checked_by_last_actor():
    # Seat 6 (position 2) holds the nuts alone and checks last: flagged, or refused.
    hi = [50, 60, 100]
    live = [T, T, T]
    eq(nut_check(2, True, True, hi, live, 100), "flag")
    eq(nut_check(2, True, True, hi, live, 100, rule="require_bet"), "refuse")
    eq(nut_check(2, False, True, hi, live, 100), None)  # bet: nothing to flag
    eq(nut_check(2, True, False, hi, live, 100), None)  # not last to act
    eq(nut_check(2, True, True, [50, 100, 100], live, 100), None)  # another hand ties: not exclusive
    eq(nut_check(2, True, True, [50, 100, 100], [T, F, T], 100), "flag")  # ...unless it folded
    eq(nut_check(1, True, True, hi, live, 100), None)


def test_SHOW_19_nut_value_enumerates_every_two_card_holding():
    # Toy value: the sum of the two hole cards; board 50, 51 taken, dead 49 skipped.
    eq(nut_value([50, 51], lambda h, b: h[0] + h[1]), 49 + 48)
    eq(nut_value([50, 51], lambda h, b: h[0] + h[1], dead=[49]), 48 + 47)



def card(t):
    return "23456789TJQKA".index(t[0]) * 4 + "cdhs".index(t[1])


def cards(text):
    return [card(text[i:i + 2]) for i in range(0, len(text), 2)]


def test_SHOW_19_real_board_with_the_evaluator():
    # Board Ad 2c 7h 8s Jd: seat 6 (Th 9c) holds the J-high straight, the exclusive nuts,
    # and checks last on the river: flagged for the floor.
    from felt.engine.rank import evaluate

    board = cards("Ad2c7h8sJd")
    nuts = nut_value(board, lambda h, b: evaluate.high(h + b))
    mine = evaluate.high(cards("Th9c") + board)
    eq(mine, nuts)
    other = evaluate.high(cards("AcAs") + board)
    eq(nut_check(1, True, True, [other, mine], [T, T], nuts), "flag")
    got = award([Pot(0, 400, (0, 1))], [other, mine])
    eq(award_text(got[0], [2, 6]), "seat 6 wins the main pot with a straight, jack high")


def test_SHOW_text_with_the_real_describe_side_pot_and_hilo():
    from felt.engine.rank import evaluate

    # Seat 3 takes side pot 1 with a flush, ace high (the brief's wording).
    board = cards("Ah9h4h2cKd")
    flush = evaluate.high(cards("Th3h") + board)
    pair = evaluate.high(cards("KsQc") + board)
    shorty = evaluate.high(cards("2d2s") + board)
    pots = build_pots([300, 900, 900], [T, T, T])
    got = award(pots, [shorty, flush, pair])
    eq(awards_text(got, [7, 3, 5]),
       ["seat 3 wins side pot 1 with a flush, ace high", "seat 3 wins the main pot with a flush, ace high"])
    # Omaha/8 halves: the low is named by evaluate's low8 wording.
    board = cards("Ac2d7h9sKc")
    hi0 = evaluate.omaha_high(cards("KhKs5c6c"), board)
    hi1 = evaluate.omaha_high(cards("3h4dQsQd"), board)
    lo1 = evaluate.omaha_low8(cards("3h4dQsQd"), board)
    got = award([Pot(0, 1000, (0, 1))], [hi0, hi1], lo=[evaluate.omaha_low8(cards("KhKs5c6c"), board), lo1])
    eq(awards_text(got, [4, 8]),
       ["seat 4 wins the high half of the main pot with three of a kind, kings",
        "seat 8 wins the low half of the main pot with a 7-4-3-2-A low"])
