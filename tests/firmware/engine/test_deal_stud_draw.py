# Dealing check for stud and draw games (RULES.md DEAL-42..47) and the 7th-street stub rule.
from check import eq, raises
from felt.engine.dealing import plan as dealplan
from felt.engine.dealing.check import DealCheck
from felt.engine.dealing.plan import BETTING, BOARD, DEALING, MISDEALT, seventh_street
from felt.engine.findings import PROPOSED
from felt.engine.house.rules import CASH, TOURNAMENT, HouseRules
from felt.errors import RuleError


def kinds(findings):
    return [f.kind for f in findings]


def stud(seats, mode=TOURNAMENT, rules=None):
    plan = dealplan.make_plan(seats, dealplan.STUD7)
    return DealCheck(plan, HouseRules(mode, values=rules))


def third_street(d, seats, first=0):
    out = []
    c = first
    for _ in range(3):
        for seat in seats:
            out += d.card(c, seat)
            c += 1
    return out, c


def test_GAME_10_stud_streets_deal_cleanly():
    seats = [1, 2, 3, 4]
    d = stud(seats)
    out, c = third_street(d, seats)
    eq(kinds(out), ["deal_complete"])
    d.action(1, "bring_in", 5)
    d.action(2, "call", 5)
    d.action(3, "complete", 20)
    assert d.sa
    d.betting_closed()
    out = d.card(c, None)  # burn
    for i, seat in enumerate(seats):
        out += d.card(c + 1 + i, seat)
    eq(out, [])
    eq(d.phase, BETTING)
    eq(len(d.holding(4)), 4)


def test_DEAL_42_tda2019_exposed_downcard_becomes_the_upcard():
    seats = [1, 2, 3, 4]
    d = stud(seats)
    third_street(d, seats)
    out = d.mark_exposed(4)  # seat 4's first downcard (draw 4), 3c in the example
    eq(kinds(out), ["stud_exposed_downcard"])
    assert "may be the bring-in" in out[0].remedy
    res = d.confirm(out[0].id)
    eq(res[0].detail["upcard"], 3)


def test_DEAL_42_tda2004_one_exposed_downcard_is_a_misdeal():
    seats = [1, 2, 3, 4]
    d = stud(seats, rules={"hr.stud_exposed_downcard": "tda2004"})
    third_street(d, seats)
    out = d.mark_exposed(4)
    eq(kinds(out), ["misdeal"])
    d.confirm(out[0].id)
    eq(d.phase, MISDEALT)


def test_DEAL_42_tda2017_two_upcards_by_dealer_error_is_a_misdeal():
    seats = [1, 2, 3, 4]
    d = stud(seats, rules={"hr.stud_exposed_downcard": "tda2017"})
    third_street(d, seats)
    eq(kinds(d.mark_exposed(4)), ["stud_exposed_downcard"])
    eq(kinds(d.mark_exposed(8)), ["misdeal"])  # seat 4's second downcard too


def test_DEAL_42_an_upcard_marked_exposed_changes_nothing():
    seats = [1, 2, 3, 4]
    d = stud(seats)
    third_street(d, seats)
    eq(kinds(d.mark_exposed(12)), ["exposed_recorded"])  # draw 12: seat 4's upcard


def play_to_street(d, seats, street, first):
    # close betting and deal clean streets until `street`; returns the next card int
    c = first
    while d.street < street:
        d.betting_closed()
        d.card(c, None)
        c += 1
        for seat in seats:
            if seat in d.live:
                d.card(c, seat)
                c += 1
    return c


def test_DEAL_43_exposed_7th_street_card_is_replaced():
    seats = [1, 2, 3]
    d = stud(seats)
    _, c = third_street(d, seats)
    d.action(1, "bring_in", 5)
    d.action(2, "call", 5)
    d.action(3, "call", 5)
    c = play_to_street(d, seats, 4, c)
    draw = len(d.draws)  # seat 3's 7th-street card, the last draw
    out = d.mark_exposed(draw - 1)  # seat 2's 7th-street card is flipped
    eq(kinds(out), ["seventh_street_exposed"])
    d.confirm(out[0].id)
    eq(d.card(c, 2), [])  # replaced by the next card
    eq(len(d.holding(2)), 7)


def test_DEAL_43_no_replacement_when_no_betting_remains():
    seats = [1, 2, 3]
    d = stud(seats)
    _, c = third_street(d, seats)
    d.action(1, "bring_in", 5)
    d.action(2, "call", 5)
    d.action(3, "call", 5)
    play_to_street(d, seats, 4, c)
    out = d.mark_exposed(len(d.draws), betting_remains=False)
    eq(kinds(out), ["exposed_recorded"])


def test_DEAL_44_example_no_4th_street_card_to_a_dead_hand():
    seats = [1, 3, 5, 6]
    d = stud(seats)
    _, c = third_street(d, seats)
    d.kill(5)  # absent at 3rd street (DEAL-39)
    d.action(1, "bring_in", 5)
    d.action(3, "call", 5)
    d.action(6, "call", 5)
    d.betting_closed()
    d.card(c, None)
    out = d.card(c + 1, 1) + d.card(c + 2, 3)
    eq(out, [])
    out = d.card(c + 3, 5)
    eq(kinds(out), ["card_to_dead_hand"])
    eq(out[0].rules, ("DEAL-44",))
    d.card(c + 4, 6)
    eq(d.phase, BETTING)


def test_DEAL_45_tda2019_premature_stud_card_reshuffled():
    seats = [1, 2, 3]
    d = stud(seats)
    _, c = third_street(d, seats)
    d.action(1, "bring_in", 5)
    d.action(2, "call", 5)
    d.action(3, "call", 5)
    c = play_to_street(d, seats, 1, c)
    d.action(3, "bet", 10)
    d.card(c, None)  # burn for 5th street while 4th-street betting is open
    out = d.card(c + 1, 1)  # seat 1's 5th-street card, premature
    eq(kinds(out), ["premature_stud"])
    eq(out[0].rules, ("DEAL-45", "DEAL-33"))
    eq(len(d.holding(1)), 4)  # not counted for seat 1
    d.confirm(out[0].id)
    eq(d.where(c + 1), None)  # back in the stub
    d.betting_closed()
    out = d.card(c + 1, 1) + d.card(c + 2, 2) + d.card(c + 3, 3)  # no new burn
    eq(out, [])
    eq(d.phase, BETTING)


def test_DEAL_45_tda2017_premature_street_put_aside_until_the_last_street():
    seats = [1, 2, 3]
    d = stud(seats, rules={"hr.premature_stud": "tda2017"})
    _, c = third_street(d, seats)
    d.action(1, "bring_in", 5)
    d.action(2, "call", 5)
    d.action(3, "call", 5)
    c = play_to_street(d, seats, 1, c)
    out = d.card(c, 1)  # premature 5th-street card, no burn before it
    f = out[0]
    assert "put it aside" in f.remedy
    d.confirm(f.id)
    eq(d.where(c), "aside")
    d.card(c + 1, None)  # the rest of 5th street dealt face down and put aside
    d.card(c + 2, None)
    d.betting_closed()
    c += 3
    d.card(c, None)  # 5th street dealt normally with a burn
    for i, seat in enumerate(seats):
        d.card(c + 1 + i, seat)
    eq(d.phase, BETTING)
    c = play_to_street(d, seats, 3, c + 4)
    out = d.betting_closed()  # before 7th street the put-aside cards go back into the stub
    eq(kinds(out), ["reshuffle"])
    out = []
    for i, seat in enumerate(seats):  # 7th street without a burn
        out += d.card(c + i, seat)
    eq(out, [])
    eq(d.phase, BETTING)


def test_DEAL_46_examples():
    eq(seventh_street(7, 6), "A")  # 6 players reach 7th street, stub 7, need 8; 7 + 3 >= 8
    eq(seventh_street(4, 7), "B")  # stub 4, need 9; 4 + 3 < 9
    eq(seventh_street(1, 8), "C")  # stub 1 < 3
    eq(seventh_street(10, 6), "deal")


def test_DEAL_46_eight_players_reach_7th_street_with_a_community_card():
    seats = [1, 2, 3, 4, 5, 6, 7, 8]
    d = stud(seats)
    _, c = third_street(d, seats)
    d.action(1, "bring_in", 5)
    d.action(2, "call", 5)
    d.action(3, "call", 5)
    c = play_to_street(d, seats, 3, c)
    eq(len(d.stub_candidates()), 52 - 24 - 3 * 9)  # 1 card left
    out = d.betting_closed()
    f = [x for x in out if x.kind == "short_stub"][0]
    eq(f.detail["branch"], "C")
    assert "community card" in f.remedy
    d.confirm(f.id)
    eq(len(d.stub_candidates()), 4)  # stub + the 4th-6th street burns
    d.card(d.stub_candidates()[0], None)
    out = d.card(d.stub_candidates()[0], BOARD)
    eq(out, [])
    eq(d.phase, BETTING)


def draw5(seats, mode=CASH, rules=None):
    plan = dealplan.make_plan(seats, dealplan.DRAW5, button=seats[-1])
    return DealCheck(plan, HouseRules(mode, values=rules))


def test_DEAL_47_example_six_players_draw_13_cards():
    seats = [1, 2, 3, 4, 5, 6]
    d = draw5(seats)
    c = 0
    for _ in range(5):
        for seat in seats:
            d.card(c, seat)
            c += 1
    d.action(3, "call", 20)
    d.action(4, "call", 20)
    d.betting_closed()
    d.card(c, None)  # burn: 30 dealt + 1 burn, 21 left in the stub
    c += 1
    eq(len(d.stub_candidates()), 21)
    out = []
    for seat, n in zip(seats, (3, 2, 1, 3, 0, 4)):
        out += d.discard(seat, d.holding(seat)[:n])
        for _ in range(n):
            out += d.card(c, seat)
            c += 1
    eq(out, [])
    eq(len(d.stub_candidates()), 8)
    eq(d.phase, BETTING)
    for seat in seats:
        eq(len(d.holding(seat)), 5)


def test_DEAL_47_draw_limits_and_order():
    seats = [1, 2, 3]
    d = draw5(seats, rules={"hr.draw_max_replace": 3})
    c = 0
    for _ in range(5):
        for seat in seats:
            d.card(c, seat)
            c += 1
    d.action(1, "call", 20)
    d.action(2, "call", 20)
    d.betting_closed()
    out = d.discard(2, d.holding(2)[:4])  # out of turn and over the house limit, no burn yet
    eq(sorted(kinds(out)), ["missing_burn", "out_of_order", "too_many_discards"])
    with raises(RuleError, match="DEAL-47"):
        d.discard(2, ())  # already drew
    with raises(RuleError, match="not in seat 1"):
        d.discard(1, (40,))


def test_DEAL_44_no_card_to_a_folded_hand_either():
    seats = [1, 2, 3]
    d = stud(seats)
    _, c = third_street(d, seats)
    d.action(1, "bring_in", 5)
    d.action(2, "fold")
    d.action(3, "call", 5)
    d.betting_closed()
    d.card(c, None)
    out = d.card(c + 1, 2)
    eq([(f.kind, f.rules) for f in out], [("card_to_dead_hand", ("DEAL-44",))])
    eq(d.card(c + 2, 1) + d.card(c + 3, 3), [])
    eq(d.phase, BETTING)
