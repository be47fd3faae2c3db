# RULES.md examples of the showdown rules (SHOW-1, SHOW-4, SHOW-5, SHOW-6, SHOW-7, SHOW-8,
# SHOW-10, SHOW-18) played through the engine Hand: show order, who may muck, who wins and the
# reason texts. Runs under CPython and MicroPython.
from check import eq, raises

from felt.engine.cards import parse_cards
from felt.engine.hand.machine import Hand
from felt.errors import RuleError


def deal(h, words):
    for p in range(len(words)):
        h.deal_hole(p, parse_cards(words[p]))


def street(h, burn, board):
    h.burn(parse_cards(burn)[0])
    h.deal_board(parse_cards(board))


def three_to_the_river(a, b, c):
    # 3-handed NL 50/100, positions 0 (SB, A), 1 (BB, B), 2 (button, C); everyone calls preflop and
    # checks the flop and turn. Board Th 9h 3c Qh 2s.
    h = Hand("NT", [5000, 5000, 5000], blinds=[50, 100, 0], seats=[1, 2, 3])
    deal(h, [a, b, c])
    h.check_call(2)
    h.check_call(0)
    h.check_call(1)
    street(h, "2c", "Th9h3c")
    for p in (0, 1, 2):
        h.check_call(p)
    street(h, "3d", "Qh")
    for p in (0, 1, 2):
        h.check_call(p)
    street(h, "4d", "2s")
    return h


def test_SHOW_4_example_last_aggressor_of_the_river_tables_first():
    # River: A checks, B bets 500, C raises to 1,500, A folds and B calls. C tables first.
    h = three_to_the_river("AhKh", "QcQd", "7s7d")
    h.check_call(0)
    h.bet_raise_to(1, 500)
    h.bet_raise_to(2, 1500)
    h.fold(0)
    h.check_call(1)
    eq(h.phase, "showdown")
    eq(h.show_order(), [2, 1])


def test_SHOW_5_example_checked_river_first_live_seat_left_of_the_button():
    # Nine seats, button on seat 6 (positions 0..8 = seats 7, 8, 9, 1, 2, 3, 4, 5, 6). Seats 2,
    # 5 and 8 reach the river; seat 2 bet the turn, but the river is checked through, so the
    # turn's aggressor is no anchor: seat 8 tables first, then seat 2, then seat 5.
    seats = [7, 8, 9, 1, 2, 3, 4, 5, 6]
    h = Hand("NT", [5000] * 9, blinds=[50, 100], seats=seats)
    for p in range(9):
        h.deal_hole(p, [4 * p, 4 * p + 1])
    for p in (2, 3):
        h.fold(p)
    h.check_call(4)  # seat 2
    h.fold(5)
    h.fold(6)
    h.check_call(7)  # seat 5
    h.fold(8)
    h.fold(0)
    h.check_call(1)  # seat 8 checks its option
    street(h, "Qc", "JsJcJd")
    for p in (1, 4, 7):
        h.check_call(p)
    street(h, "Qd", "Qs")
    h.check_call(1)
    h.bet_raise_to(4, 300)  # seat 2 bets the turn
    h.check_call(7)
    h.check_call(1)
    street(h, "Kd", "Ks")
    for p in (1, 4, 7):
        h.check_call(p)
    eq(h.phase, "showdown")
    eq([seats[p] for p in h.show_order()], [8, 2, 5])


def test_SHOW_6_example_a_player_who_mucks_gives_up_the_pot():
    # C tables a flush; A, next clockwise, mucks without showing: A is out of the pot -- even
    # though A's cards (a full house) would have won.
    h = three_to_the_river("QsQd", "7c7d", "AhKh")
    h.check_call(0)
    h.check_call(1)
    h.bet_raise_to(2, 400)
    h.check_call(0)
    h.fold(1)
    eq(h.show_order(), [2, 0])
    h.show(2)
    eq(h.show_order(), [0])
    h.muck(0)
    eq(h.finished, True)
    eq(h.finishing_stacks(), [4500, 4900, 5600])
    eq(h.reasons, ["seat 3 wins the main pot with a flush, ace high"])


def test_SHOW_7_example_tournament_hands_turned_up_only_when_no_more_betting_is_possible():
    # Tournament three-way: A all-in preflop, B and C call with chips behind: nothing turned up.
    # B and C check the flop; on the turn B goes all-in and C calls: now all three are face up.
    h = Hand("NT", [1000, 3000, 5000], blinds=[50, 100, 0], rules={"mode": "tournament"})
    deal(h, ["AcAd", "KcKd", "QcQd"])
    h.check_call(2)
    h.bet_raise_to(0, 1000)  # A all-in
    h.check_call(1)
    h.check_call(2)
    eq(h.face_up_now(), False)
    street(h, "2c", "2h7d8s")
    eq(h.face_up_now(), False)
    h.check_call(1)
    h.check_call(2)
    eq(h.face_up_now(), False)
    street(h, "3c", "9h")
    h.bet_raise_to(1, 2000)  # B all-in for the rest
    eq(h.face_up_now(), False)  # C still to act
    h.check_call(2)
    eq(h.face_up_now(), True)
    eq(h.actor, None)  # no river betting (GAME-7)
    street(h, "4c", "Jc")
    eq(h.face_up_now(), True)


def test_SHOW_8_example_all_in_player_may_not_muck_and_still_wins_the_main_pot():
    # Tournament: A, all-in, sees B's straight and tries to muck; A's cards are tabled and A's
    # flush wins the main pot. B's larger stack keeps the side pot it alone put in.
    h = Hand("NT", [1000, 5000], blinds=[50, 100], rules={"mode": "tournament"}, seats=[1, 2])
    deal(h, ["AhKh", "JcTc"])
    h.bet_raise_to(1, 5000)
    h.check_call(0)
    street(h, "2c", "Qh9d2h")
    street(h, "3c", "8s")
    street(h, "4c", "7h")
    h.show(1)
    with raises(RuleError, match="SHOW-8"):
        h.muck(0)
    eq(h.finished, False)
    h.show(0)
    eq(h.finished, True)
    eq(h.finishing_stacks(), [2000, 4000])


def test_SHOW_10_example_everyone_else_mucks_and_the_bettor_wins_without_showing():
    # River: A bets, B calls and then mucks while A stays silent: A takes the pot unshown.
    h = three_to_the_river("5c4c", "AsAd", "7s2d")
    h.bet_raise_to(0, 300)
    h.check_call(1)
    h.fold(2)
    eq(h.show_order(), [0, 1])
    h.muck(1)
    eq(h.finished, True)
    eq(h.shown, [False, False, False])
    eq(h.finishing_stacks(), [5500, 4600, 4900])
    eq(h.reasons, ["seat 1 wins the main pot without showing"])


def test_SHOW_1_example_cards_speak_the_flush_wins():
    # Seat 4 "announces two pair" but has a flush among its cards and the board: the engine
    # reads the tags and awards the pot to the flush.
    h = Hand("NT", [2000, 2000], blinds=[50, 100], seats=[4, 5])
    deal(h, ["Ah9h", "AdKs"])
    h.check_call(1)
    h.check_call(0)
    for burn, board in (("2c", "Kh9d2h"), ("3c", "Kc"), ("4c", "5h")):
        street(h, burn, board)
        h.check_call(0)
        h.check_call(1)
    h.show(0)
    h.show(1)
    eq(h.finishing_stacks(), [2100, 1900])
    eq(h.reasons, ["seat 4 wins the main pot with a flush, ace high"])


def test_SHOW_18_example_high_read_first_then_low():
    # Limit Omaha hi-lo: seat 3 a flush, seat 7 the 7-5-4-2-A low: the high half is announced
    # first, then the low half.
    h = Hand("FO/8", [1000, 1000], blinds=[10, 20], small_bet=20, big_bet=40, seats=[3, 7])
    deal(h, ["QhJh9c9d", "Ac2d8dQs"])
    h.check_call(1)
    h.check_call(0)
    for burn, board in (("Jc", "Kh4h5s"), ("Jd", "7h"), ("Js", "Tc")):
        street(h, burn, board)
        h.check_call(0)
        h.check_call(1)
    h.show(0)
    h.show(1)
    eq([a.half for a in h.results], ["high", "low"])
    eq(h.reasons[0], "seat 3 wins the high half of the main pot with a flush, king high")
    eq(h.reasons[1], "seat 7 wins the low half of the main pot with a 7-5-4-2-A low")
    eq(h.finishing_stacks(), [1000, 1000])


def test_SHOW_5_stud_checked_seventh_street_highest_showing_hand_tables_first_RANK_20():
    # 7-card stud, seats 2, 5, 7. 4th street (RANK-20 example): seat 5 Ah 6c and seat 7 Ad 6s
    # tie on ranks and seat 5 acts first (Ah > Ad). By 6th street seat 7 shows a pair of jacks
    # (seat 5 tens, seat 2 nines); 7th street is checked through: seat 7 tables first.
    seats = [2, 5, 7]
    h = Hand("F7S", [1000] * 3, antes=1, bring_in=5, small_bet=20, big_bet=40, seats=seats)
    deal(h, ["2c3cKs", "2d3dAh", "2h3hAd"])

    def finish():
        while h.phase == "bet":
            if h.legal().bring_in:
                h.post_bring_in(h.actor)
            else:
                h.check_call(h.actor)
    finish()
    deal(h, ["7d", "6c", "6s"])
    eq(seats[h.actor], 5)
    finish()
    for up in (["9c", "Tc", "Jc"], ["9d", "Td", "Jd"], ["4s", "4h", "5s"]):
        deal(h, up)
        eq(seats[h.actor], 7)
        finish()
    eq(h.phase, "showdown")
    eq([seats[p] for p in h.show_order()], [7, 2, 5])


def test_SHOW_4_five_card_stud_last_bettor_shows_first_GAME_14():
    # 5-card stud: the last street's bettor (not the best showing hand) tables first
    h = Hand("F5S", [1000] * 3, antes=1, bring_in=5, small_bet=20, big_bet=40, seats=[1, 2, 3])
    deal(h, ["2c9c", "2d4d", "2hKh"])
    for p in (1, 2, 0):  # seat 2 (4d) brings in; the others call
        if h.legal().bring_in:
            h.post_bring_in(p)
        else:
            h.check_call(p)
    for up in (["Ac", "3s", "5h"], ["Ad", "7s", "6h"], ["As", "8s", "Jh"]):
        deal(h, up)
        eq(h.actor, 0)  # seat 1's aces showing open every later round
        h.check_call(0)
        if len(h.upcards(0)) < 4:
            h.check_call(1)
            h.check_call(2)
    h.check_call(1)
    h.bet_raise_to(2, 40)  # seat 3 bets the last round
    h.check_call(0)
    h.check_call(1)
    eq(h.phase, "showdown")
    eq(h.show_order(), [2, 0, 1])
