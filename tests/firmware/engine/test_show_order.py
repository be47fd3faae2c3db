# Show order and the all-in face-up point (felt.engine.hand.showdown): RULES.md SHOW-4, 5, 6, 7, 9.
from check import eq
from felt.engine.hand.pots import build_pots
from felt.engine.hand.showdown import face_up_now, show_order

T, F = True, False


def test_SHOW_4_last_aggressor_of_the_final_street_tables_first():
    # River: A checks, B bets 500, C raises to 1,500, A folds, B calls: C first.
    eq(show_order([F, T, T], last_aggressor=2), [2, 1])


def test_SHOW_4_then_clockwise_wrapping_past_the_button():
    eq(show_order([T, T, T, T], last_aggressor=2), [2, 3, 0, 1])


def test_SHOW_5_checked_river_first_live_seat_left_of_the_button():
    # Seats 2, 5, 8 check the river, button seat 6: seat 8 first, then 2, then 5.
    seats = [7, 8, 9, 1, 2, 3, 4, 5, 6]
    live = [s in (2, 5, 8) for s in seats]
    eq([seats[p] for p in show_order(live)], [8, 2, 5])


def test_SHOW_5_stud_checked_street_starts_with_highest_showing_hand():
    eq(show_order([T, T, T, F], first=1), [1, 2, 0])
    # An aggressor wins over the first-to-act anchor.
    eq(show_order([T, T, T, F], last_aggressor=2, first=1), [2, 0, 1])


def test_SHOW_9_side_pot_contenders_show_before_main_pot_only_player():
    # Cash: A all-in on the turn (main only), B bets the river and C calls: B, C, then A.
    pots = build_pots([300, 900, 900], [T, T, T])
    eq(show_order([T, T, T], last_aggressor=1, pots=pots), [1, 2, 0])
    # Without pots (hands tabled at once, SHOW-7) plain clockwise from the aggressor.
    eq(show_order([T, T, T], last_aggressor=1), [1, 2, 0])
    # Deeper side pots first: positions 2 and 3 contest side pot 2, 1 side pot 1, 0 the main only.
    pots = build_pots([100, 500, 900, 900], [T, T, T, T])
    eq(show_order([T, T, T, T], pots=pots), [2, 3, 1, 0])


def test_SHOW_7_immediate_face_up_when_no_more_betting_is_possible():
    # Tournament, three-way: A all-in preflop, B and C call with chips behind: not yet.
    eq(face_up_now([T, T, T], [T, F, F], True, "immediate"), False)
    # Turn: B all-in and C calls: now all three hands are turned up.
    eq(face_up_now([T, T, T], [T, T, F], True, "immediate"), True)
    # Not while the street is still open, and never under at_showdown (cash default).
    eq(face_up_now([T, T, T], [T, T, F], False, "immediate"), False)
    eq(face_up_now([T, T, T], [T, T, F], True, "at_showdown"), False)
    # A folded all-in player does not count.
    eq(face_up_now([F, T, T], [T, F, F], True, "immediate"), False)
