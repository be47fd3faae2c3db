# Dealing check, initial deal (RULES.md §6): order, seats, counts, misdeals and their replay, SA.
from check import eq, raises
from felt.engine.dealing import plan as dealplan
from felt.engine.dealing.check import DealCheck
from felt.engine.dealing.plan import BETTING, BURN, MISDEALT
from felt.engine.findings import ASSIST, CONFIRMED, ENGINE, LAPSED, PROPOSED
from felt.engine.house.rules import CASH, TOURNAMENT, HouseRules
from felt.errors import ConfigError, RuleError

SIX = [4, 5, 6, 1, 2, 3]  # six players in seats 1-6, button on seat 3: dealing order


def C(text):
    return "23456789TJQKA".index(text[0]) * 4 + "cdhs".index(text[1])


def deck_cards(n, skip=()):
    # n distinct cards in a fixed order (2c 2d 2h 2s 3c ...), skipping some
    out = []
    c = 0
    while len(out) < n:
        if c not in skip:
            out.append(c)
        c += 1
    return out


def holdem(seats=SIX, button=3, mode=CASH, rules=None, dead=()):
    plan = dealplan.make_plan(seats, dealplan.HOLDEM, button=button, dead=dead)
    return DealCheck(plan, HouseRules(mode, values=rules))


def kinds(findings):
    return [f.kind for f in findings]


def deal(check, seats_in_order, cards=None):
    cards = cards or deck_cards(len(seats_in_order))
    out = []
    for card, seat in zip(cards, seats_in_order):
        out.extend(check.card(card, seat))
    return out


def test_DEAL_2_six_handed_order_is_accepted():
    d = holdem()
    out = deal(d, SIX * 2)
    eq(kinds(out), ["deal_complete"])
    eq(out[0].detail["counts"], {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    eq(d.phase, BETTING)
    eq(d.holding(4), (0, 6))  # draws 1 and 7


def test_DEAL_2_heads_up_non_button_first():
    # BLIND-6 example: button seat 2 and seat 7; deal order 7, 2, 7, 2
    d = holdem(seats=[7, 2], button=2)
    eq(kinds(deal(d, [7, 2, 7, 2])), ["deal_complete"])


def test_DEAL_2_out_of_order_card_is_noted():
    d = holdem()
    out = deal(d, [4, 6])
    eq(kinds(out), ["out_of_order"])
    eq(out[0].rules, ("DEAL-2",))
    eq(out[0].cls, ENGINE)
    assert "expected seat 5" in out[0].text


def test_DEAL_2_no_burn_before_the_initial_deal():
    d = holdem()
    out = d.card(C("7c"), None)
    eq(kinds(out), ["stray_card"])
    assert "DEAL-2" in out[0].rules


def test_DEAL_5_plan_rejects_bad_seats():
    with raises(ConfigError, match="listed twice"):
        dealplan.make_plan([1, 2, 2], dealplan.HOLDEM)
    with raises(ConfigError, match="DEAL-2"):
        dealplan.make_plan([1, 2], ({"burn": 1, "hole": "dd"},))
    with raises(ConfigError, match="not a seat number"):
        dealplan.make_plan([0, 2], dealplan.HOLDEM)


def test_DEAL_5_plan_from_dict_and_games_record_shape():
    class Street:  # the games.py Street record shape (burn, hole up-flags, board, draw)
        def __init__(self, burn, hole, board, draw):
            self.burn, self.hole, self.board, self.draw = burn, hole, board, draw

    p = dealplan.make_plan([2, 3], [Street(False, (False, False, True), 0, False), Street(True, (True,), 0, False)])
    eq(p.family, dealplan.FAMILY_STUD)
    eq(p.streets[0].hole, (False, False, True))
    q = dealplan.plan_from_dict({"seats": [4, 5, 6, 1, 2, 3], "button": 3, "streets": list(dealplan.HOLDEM)})
    eq(q.family, dealplan.FAMILY_BOARD)
    eq(q.rounds, 2)
    with raises(ConfigError, match="unknown field"):
        dealplan.plan_from_dict({"seats": [1, 2], "streets": [], "buton": 1})


def test_DEAL_5_example_card_to_a_seat_not_dealt_in_is_a_misdeal():
    # seats 1-9 occupied, seat 6 sitting out and seat 8 a newcomer: the deal list skips them
    seats = [1, 2, 3, 4, 5, 7, 9]
    d = holdem(seats=seats, button=9)
    out = deal(d, [1, 2, 3, 4, 5, 6])
    f = [x for x in out if x.kind == "misdeal"][0]
    eq(f.rules, ("DEAL-9",))
    eq(f.cls, ASSIST)
    eq(f.status, PROPOSED)


def test_DEAL_8_example_first_card_to_wrong_seat():
    d = holdem()
    out = d.card(C("Ah"), 5)
    eq(kinds(out), ["misdeal"])
    eq(out[0].rules, ("DEAL-8", "DEAL-12"))
    assert "button were on seat 4" in out[0].text, out[0].text


def test_DEAL_12_example_button_out_of_position_redeal_keeps_display_button():
    # display shows button 3; dealer deals as if it were on 5, starting at seat 6
    d = holdem()
    f = d.card(C("Ah"), 6)[0]
    out = d.confirm(f.id)
    eq(kinds(out), ["redeal"])
    eq(out[0].detail["button"], 3)
    eq(d.phase, MISDEALT)


def test_DEAL_9_example_entitled_seat_left_without_cards():
    # tournament: seat 2 gets nothing, its two cards went to others -> misdeal
    d = holdem(mode=TOURNAMENT)
    out = deal(d, [4, 5, 6, 1, 3, 4, 5, 6, 1, 3, 3, 1])
    ms = [f for f in out if f.kind == "misdeal"]
    eq(len(ms), 1)
    assert "DEAL-9" in ms[0].rules and "DEAL-10" in ms[0].rules, ms[0].rules


def test_DEAL_10_example_omaha_seat_with_three_cards_is_a_misdeal():
    plan = dealplan.make_plan(SIX, dealplan.OMAHA, button=3)
    d = DealCheck(plan, HouseRules(TOURNAMENT))
    order = SIX * 4
    order[20] = 5  # seat 6's 4th card goes to seat 5
    out = deal(d, order)
    ms = [f for f in out if f.kind == "misdeal"]
    eq(len(ms), 1)
    assert "seat 6 holds 3 card(s) (-1)" in ms[0].text, ms[0].text


def test_DEAL_10_cash_shortfall_is_corrected_from_the_stub():
    # cash exception: a short seat whose card can be given without changing anyone else's cards
    d = holdem(mode=CASH)
    order = SIX + [4, 5, 6, 1, 3]  # seat 2 misses its second card (not the button)
    out = deal(d, order)
    out += d.end_of_deal()
    g = [f for f in out if f.kind == "give_card"]
    eq(len(g), 1)
    eq((g[0].seat, g[0].rules), (2, ("DEAL-10",)))
    res = d.confirm(g[0].id)
    eq(kinds(res), ["deal_replacement"])
    eq(d.card(C("As"), 2), [])
    eq(len(d.holding(2)), 2)


def test_DEAL_16_example_extra_card_becomes_the_flop_burn():
    d = holdem(mode=CASH)  # hr.single_extra_card = burn
    deal(d, SIX * 2)
    extra = C("Kd")
    out = d.card(extra, 4)
    eq(kinds(out), ["extra_card_burn"])
    eq(out[0].cards, (extra,))
    res = d.confirm(out[0].id)
    eq(kinds(res), ["move_card"])
    eq(d.holding(4), (0, 6))
    eq(d.where(extra), BURN)
    # play: draws 14-16 are the flop with no new burn
    d.action(6, "call")
    d.action(1, "call")
    d.betting_closed()
    flop = [C("Ac"), C("Ad"), C("Ah")]
    out = []
    for c in flop:
        out.extend(d.card(c, "board"))
    eq(kinds(out), [])
    eq(d.phase, BETTING)
    eq(d.board, flop)


def test_DEAL_16_tournament_extra_card_is_a_misdeal():
    d = holdem(mode=TOURNAMENT)
    deal(d, SIX * 2)
    out = d.card(C("Kd"), 4)
    eq(kinds(out), ["misdeal"])
    eq(out[0].rules, ("DEAL-16", "DEAL-10"))


def test_DEAL_16_two_extra_cards_are_a_misdeal_under_burn():
    d = holdem(mode=CASH)
    deal(d, SIX * 2)
    f1 = d.card(C("Kd"), 4)[0]
    out = d.card(C("Kh"), 5)
    eq(f1.status, LAPSED)
    eq(kinds(out), ["extra_card_burn", "misdeal"])  # the lapsed proposal is reported again
    eq(out[0].status, LAPSED)
    assert "DEAL-10" in out[1].rules


def test_DEAL_23_example_button_gets_two_cards_in_a_row():
    d = holdem()
    out = deal(d, [4, 5, 6, 1, 2, 4, 5, 6, 1, 2, 3, 3])
    eq(kinds(out), ["deal_complete", "button_two_cards"])
    eq(out[1].rules, ("DEAL-23",))
    eq(out[1].seat, 3)


def test_DEAL_24_example_button_short_after_SA_gets_card_from_stub():
    d = holdem(mode=TOURNAMENT)
    deal(d, SIX + [4, 5, 6, 1, 2])  # button (seat 3) holds one card
    out = d.action(6, "raise", 600)  # UTG raises
    out += d.action(1, "call", 600)  # UTG+1 calls: SA
    assert "substantial_action" in kinds(out)
    eq([f for f in d.findings if f.kind == "misdeal"], [])  # a short button is never a misdeal
    g = [f for f in d.pending() if f.kind == "give_card"]
    eq((g[0].seat, g[0].rules), (3, ("DEAL-24",)))
    d.confirm(g[0].id)
    eq(d.card(C("As"), 3), [])
    eq(len(d.holding(3)), 2)


def test_DEAL_24_button_who_acted_short_is_dead():
    d = holdem(mode=TOURNAMENT)
    deal(d, SIX + [4, 5, 6, 1, 2])
    d.action(6, "raise", 600)
    d.action(1, "call", 600)
    out = d.action(3, "call", 600)  # the button acts while short
    dead = [f for f in out if f.kind == "dead_hand"]
    eq((dead[0].seat, dead[0].rules), (3, ("DEAL-24",)))


def test_DEAL_25_example_wrong_count_after_SA_kills_the_hand():
    # blinds in seats 1-2 (button 6); seat 3 folds, seat 4 calls = SA; seat 5 then holds three cards
    seats = [1, 2, 3, 4, 5, 6]
    d = holdem(seats=seats, button=6, mode=TOURNAMENT)
    deal(d, seats + [1, 2, 3, 4, 5, 5])  # seat 6 short, seat 5 has 3
    d.action(3, "fold")
    out = d.action(4, "call", 200)
    dead = [f for f in out if f.kind == "dead_hand"]
    eq([(f.seat, f.rules) for f in dead], [(5, ("DEAL-25",))])
    eq([f.status for f in d.findings if f.kind == "misdeal"], [LAPSED])
    gives = [f for f in d.pending() if f.kind == "give_card"]
    eq([f.seat for f in gives], [6])  # the button may still get its card (DEAL-24)
    d.confirm(dead[0].id)
    eq(d.holding(5), ())
    assert 5 not in d.live


def test_DEAL_6_sa_definitions_example():
    # UTG folds, UTG+1 folds: not SA under tda, SA under two_actions; UTG+2 calls: SA under both
    for mode, want_after_two in ((TOURNAMENT, False), (CASH, True)):
        d = holdem(mode=mode)
        deal(d, SIX * 2)
        d.action(6, "fold")
        d.action(1, "fold")
        eq(d.sa, want_after_two, mode)
        d.action(2, "call", 200)
        eq(d.sa, True, mode)
    # UTG calls and UTG+1 folds: SA under both
    for mode in (TOURNAMENT, CASH):
        d = holdem(mode=mode)
        deal(d, SIX * 2)
        d.action(6, "call", 200)
        d.action(1, "fold")
        eq(d.sa, True, mode)


def test_DEAL_6_posting_blinds_is_not_an_action():
    d = holdem(mode=CASH)
    deal(d, SIX * 2)
    d.action(4, "post", 50)
    d.action(5, "post", 100)
    eq(d.sa, False)


def test_DEAL_15_example_no_misdeal_after_SA():
    d = holdem(mode=TOURNAMENT)
    deal(d, SIX * 2)
    d.action(6, "raise", 600)
    d.action(1, "call", 600)
    # a third card then reaches seat 2: no misdeal any more, that hand is dead
    out = d.card(C("As"), 2)
    eq(kinds(out), ["dead_hand"])
    eq(out[0].rules, ("DEAL-25",))


def test_DEAL_14_example_misdeal_redeal_plan_same_button_penalised_seats_killed():
    d = holdem(mode=TOURNAMENT, dead=(1,))
    absent = d.absent(5)[0]
    d.confirm(absent.id)
    f = d.card(C("Ah"), 6)[0]  # first card to the wrong seat
    d.confirm(f.id)
    redeal = d.redeal_plan()
    eq(redeal.button, 3)
    eq(redeal.seats, tuple(SIX))
    eq(redeal.dead, (1, 5))
    with raises(RuleError, match="DEAL-14"):
        d.card(C("Kh"), 4)


def test_DEAL_7_example_two_boxed_cards_misdeal():
    d = holdem()
    deal(d, SIX[:4], [0, 1, 2, 3])
    d.card(C("7c"), None)  # draw 5: found face up in the deck
    out = d.mark_boxed(5)
    eq(kinds(out), ["boxed_card"])
    deal(d, [1, 2, 3], [8, 9, 10])
    d.card(C("Jh"), None)  # draw 9
    out = d.mark_boxed(9)
    eq(kinds(out), ["misdeal"])
    eq(out[0].rules, ("DEAL-7",))


def test_DEAL_7_threshold_three_house_rule():
    d = holdem(rules={"hr.boxed_misdeal_threshold": 3})
    d.card(C("7c"), None)
    d.mark_boxed(1)
    d.card(C("2h"), None)
    eq(kinds(d.mark_boxed(2)), ["boxed_card"])


def test_DEAL_17_example_single_boxed_card_dealt_to_a_seat():
    d = holdem()
    deal(d, [4, 5, 6, 1, 2, 3, 4], [0, 1, 2, 3, 4, 5, 6])
    boxed_card = C("Ks")
    d.card(boxed_card, 5)  # draw 8 to seat 5 was face up in the deck
    f = d.mark_boxed(8)[0]
    eq(f.rules, ("DEAL-17",))
    assert "seat 5 receives a replacement" in f.remedy
    d.confirm(f.id)
    eq(d.where(boxed_card), "aside")
    out = deal(d, [6, 1, 2, 3, 5], [20, 21, 22, 23, 24])
    eq(kinds(out), ["deal_complete"])
    eq(len(d.holding(5)), 2)


def test_DEAL_11_example_first_card_exposed_is_a_misdeal():
    d = holdem()
    deal(d, SIX * 2)
    out = d.mark_exposed(1)
    eq(kinds(out), ["misdeal"])
    eq(out[0].rules, ("DEAL-11",))


def test_DEAL_11_example_two_exposed_downcards_misdeal():
    plan = dealplan.make_plan([1, 2, 3, 4, 5, 6, 7, 8], dealplan.HOLDEM, button=8)
    d = DealCheck(plan, HouseRules(TOURNAMENT))
    deal(d, [1, 2, 3, 4, 5, 6, 7, 8] * 2)
    first = d.mark_exposed(5)
    eq(kinds(first), ["exposed_card"])
    out = d.mark_exposed(11)
    eq(kinds(out), ["misdeal"])


def test_DEAL_21_example_exposed_card_replaced_and_becomes_the_burn():
    d = holdem()
    out = deal(d, SIX + [4, 5], deck_cards(8))
    f = d.mark_exposed(8)[0]  # seat 5's second card
    eq(f.rules, ("DEAL-21",))
    d.confirm(f.id)
    flipped = deck_cards(8)[7]
    eq(d.where(flipped), BURN)
    out = deal(d, [6, 1, 2, 3], [30, 31, 32, 33])
    eq(kinds(out), ["deal_complete"])
    eq(kinds(d.card(34, 5)), [])  # draw 13 goes to seat 5
    eq(len(d.holding(5)), 2)
    d.action(6, "call", 100)
    d.action(1, "call", 100)
    d.betting_closed()
    out = []
    for c in (40, 41, 42):  # draws 14-16 are the flop, no new burn
        out.extend(d.card(c, "board"))
    eq(kinds(out), [])
    eq(d.phase, BETTING)


def test_DEAL_26_counts_shown_after_the_deal():
    d = holdem()
    out = deal(d, SIX + [4, 5, 6, 1, 2, 3, 3][:6])
    f = [x for x in out if x.kind == "deal_complete"][0]
    assert "DEAL-26" in f.rules
    assert "seat 3 2" in f.text


def test_DEAL_39_tournament_absent_seat_killed_with_seat_button_presence():
    d = holdem(mode=TOURNAMENT, rules={"hr.presence_check": "seat_button"})
    for seat in (4, 5, 6, 1, 2):
        d.present(seat)
    out = deal(d, SIX * 2)
    absent = [f for f in out if f.kind == "absent"]
    eq([f.seat for f in absent], [3])
    d.confirm(absent[0].id)
    assert 3 not in d.live


def test_confirm_rejects_unknown_or_settled_findings():
    d = holdem()
    f = d.card(C("Ah"), 5)[0]
    with raises(RuleError):
        d.confirm(99)
    d.reject(f.id)
    with raises(RuleError, match="not a pending proposal"):
        d.confirm(f.id)


def test_bad_inputs_raise_named_rule_errors():
    d = holdem()
    with raises(RuleError, match="DECK-1"):
        d.card(52, 4)
    with raises(RuleError, match="DEAL-2"):
        d.card(3, "floor")
    with raises(RuleError, match="GAME-16"):
        d.action(4, "shove")
    eq(d.draws, [])


def test_status_flow_of_a_confirmed_proposal():
    d = holdem(mode=TOURNAMENT)
    deal(d, SIX * 2)
    f = d.card(C("Kd"), 4)[0]
    eq(f.status, PROPOSED)
    d.confirm(f.id)
    eq(f.status, CONFIRMED)


def test_DEAL_8_DEAL_9_first_card_to_a_seat_not_dealt_in_is_one_misdeal():
    d = holdem(seats=[1, 2, 4, 5], button=5)
    out = d.card(C("Ah"), 3)
    eq(kinds(out), ["misdeal"])
    eq(out[0].rules, ("DEAL-8", "DEAL-9"))


def test_DEAL_9_cash_seat_skipped_entirely_is_a_misdeal_not_a_correction():
    d = holdem(mode=CASH)
    out = deal(d, [4, 5, 6, 1, 3, 4, 5, 6, 1, 3])  # seat 2 gets nothing
    out += d.end_of_deal()
    ms = [f for f in out if f.kind == "misdeal"]
    eq(len(ms), 1)
    assert "DEAL-9" in ms[0].rules
    eq([f for f in out if f.kind == "give_card"], [])


def test_DEAL_39_cash_absent_seat_cards_removed():
    d = holdem(mode=CASH)
    deal(d, SIX * 2)
    f = d.absent(1)[0]
    assert "not dealt in" in f.remedy
    d.confirm(f.id)
    eq(d.holding(1), ())
    eq(d.redeal_plan().dead, ())  # cash: nobody is dealt in again and killed


def test_DEAL_22_exposed_hole_card_after_the_deal_is_a_floor_record():
    d = holdem(mode=TOURNAMENT)
    deal(d, SIX * 2)
    d.action(6, "call", 100)
    d.action(1, "call", 100)
    out = d.mark_exposed(5)
    eq([(f.kind, f.cls) for f in out], [("exposed_recorded", "FLOOR")])
