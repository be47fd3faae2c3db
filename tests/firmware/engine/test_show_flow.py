# One showdown's tabling and mucking (felt.engine.hand.showdown_record.ShowdownRecord): RULES.md SHOW-3, 6, 8,
# 10, 12, 13, 14 and the award it feeds (POT-8). Values are plain ints, larger is better.
from check import eq, raises
from felt.engine.hand.pots import award, build_pots
from felt.engine.hand.showdown_record import ShowdownRecord
from felt.errors import RuleError

T, F = True, False


def test_SHOW_6_loser_mucks_after_the_first_hand_and_loses_claim():
    # River: A bets, C raises, B folds, A calls: C tables a flush, A mucks unseen.
    pots = build_pots([1500, 200, 1500], [T, F, T])
    sd = ShowdownRecord(pots, [T, F, T], last_aggressor=2)
    eq(sd.next_to_show(), 2)
    sd.show(2, 600)
    eq(sd.best_shown(0), 600)
    eq(sd.next_to_show(), 0)
    sd.muck(0)
    assert sd.complete
    hi, lo = sd.values()
    eq(hi, [None, None, 600])
    eq([a.shares for a in award(pots, hi)], [[(2, 3200)]])


def test_SHOW_3_a_hand_in_a_contested_pot_must_be_tabled_to_win():
    pots = build_pots([100, 100], [T, T])
    sd = ShowdownRecord(pots, [T, T])
    assert sd.must_show(0) and sd.must_show(1)
    assert not sd.complete
    with raises(RuleError, match="SHOW-3"):
        sd.values()


def test_SHOW_8_all_in_face_up_hands_may_not_be_mucked():
    # Tournament: A all-in sees B's straight and tries to muck; A must be tabled and wins.
    pots = build_pots([500, 800, 800], [T, T, T])
    sd = ShowdownRecord(pots, [T, T, T], face_up=True)
    sd.show(1, 400)
    with raises(RuleError, match="SHOW-8"):
        sd.muck(0)
    assert not sd.can_muck(2)
    sd.show(0, 500)
    sd.show(2, 100)
    got = award(pots, sd.values()[0])
    eq([(a.pot_index, a.shares) for a in got], [(1, [(1, 600)]), (0, [(0, 1500)])])


def test_SHOW_10_everyone_else_mucks_winner_need_not_show():
    # River: A bets, B calls and mucks when A stays silent: A takes it unseen.
    pots = build_pots([800, 800], [T, T])
    sd = ShowdownRecord(pots, [T, T], last_aggressor=0)
    sd.muck(1)
    assert sd.complete
    eq(sd.next_to_show(), None)
    eq(sd.unshown(), [0])
    hi, _ = sd.values()
    eq([a.shares for a in award(pots, hi)], [[(0, 1600)]])
    # The last hand cannot be mucked: it takes the pot.
    with raises(RuleError, match="SHOW-10"):
        sd.muck(0)


def test_SHOW_10_sole_side_pot_holder_still_shows_for_the_main_pot():
    # A all-in (main), B and C in the side pot; C mucks: B must still table against A.
    pots = build_pots([300, 900, 900], [T, T, T])
    sd = ShowdownRecord(pots, [T, T, T], last_aggressor=1, side_pots_first=True)
    sd.muck(2)
    assert sd.must_show(1)
    eq(sd.next_to_show(), 1)
    sd.show(1, 50)
    sd.show(0, 70)
    got = award(pots, sd.values()[0])
    eq([(a.pot_index, a.shares) for a in got], [(1, [(1, 1200)]), (0, [(0, 900)])])


def test_SHOW_12_playing_the_board_but_mucking_gets_nothing():
    # Board A-K-Q-J-T: A mucks saying "I play the board"; B and C table and share.
    pots = build_pots([200, 200, 200], [T, T, T])
    sd = ShowdownRecord(pots, [T, T, T])
    sd.muck(0)
    sd.show(1, 999)
    sd.show(2, 999)
    eq([a.shares for a in award(pots, sd.values()[0])], [[(1, 300), (2, 300)]])


def test_SHOW_13_a_tabled_hand_cannot_be_killed():
    sd = ShowdownRecord(build_pots([100, 100], [T, T]), [T, T])
    sd.show(0, 9)
    with raises(RuleError, match="SHOW-13"):
        sd.muck(0)
    with raises(RuleError, match="SHOW-2"):
        sd.show(0, 9)


def test_SHOW_14_discarded_cards_retrieved_are_live_again():
    sd = ShowdownRecord(build_pots([100, 100, 100], [T, T, T]), [T, T, T])
    sd.muck(1)
    sd.retrieve(1)
    sd.show(1, 5)
    with raises(RuleError, match="SHOW-14"):
        sd.retrieve(2)
    eq(sd.pending(), [0, 2])


def test_SHOW_6_errors_leave_state_unchanged():
    sd = ShowdownRecord(build_pots([100, 100], [T, F]), [T, F])
    with raises(RuleError):
        sd.show(1, 5)
    with raises(RuleError):
        sd.muck(1)
    eq(sd.pending(), [0])
    assert sd.complete


def test_SHOW_11_asking_to_see_a_hand():
    from felt.engine.hand.showdown_record import show_request

    # River: A bets 800, B calls, C raises to 3,000, A, B and D call. B tables trips and D
    # mucks. Under tda2019 A and B may demand C's hand but D may not.
    a, b, c, d, e = 0, 1, 2, 3, 4
    dealt = (a, b, c, d, e)
    kw = dict(in_hand=dealt, mucked=(d,), called=(c,), river_aggressor=c, river_bet=True)
    eq([show_request("tda2019", p, c, **kw) for p in (a, b, d)], ["yes", "yes", "no"])
    eq(show_request("tda2019", a, b, **kw), "floor")  # anything else is the floor's call
    kw2 = dict(kw, river_bet=False)
    eq(show_request("tda2019", a, c, **kw2), "floor")
    # club_cash: a conceded hand mucked face down may not be requested by anyone.
    eq(show_request("club_cash", a, d, **kw), "no")
    eq(show_request("club_cash", a, c, **kw), "floor")
    # any_caller: anyone dealt in may see a called hand; the winner's request makes it live.
    eq(show_request("any_caller", d, c, **kw), "yes")
    eq(show_request("any_caller", a, c, winner=a, **kw), "live")
    eq(show_request("any_caller", 7, c, **kw), "no")
    with raises(RuleError, match="SHOW-11"):
        show_request("always", a, c, **kw)
