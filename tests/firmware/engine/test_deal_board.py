# Dealing check, board streets (RULES.md §6): burns, board counts, premature and four-card boards,
# burn errors, reshuffles, fouled deck, foreign cards, rabbit hunting.
from check import eq, raises
from felt.engine.dealing import plan as dealplan
from felt.engine.dealing.check import DealCheck
from felt.engine.dealing.plan import BETTING, BOARD, BURN, DEALING, OVER, SHOWDOWN, STUB, VOID
from felt.engine.findings import APPLIED, LAPSED, PROPOSED
from felt.engine.house.rules import CASH, TOURNAMENT, HouseRules
from felt.errors import RuleError

SIX = [4, 5, 6, 1, 2, 3]


def C(text):
    return "23456789TJQKA".index(text[0]) * 4 + "cdhs".index(text[1])


def kinds(findings):
    return [f.kind for f in findings]


def new_kinds(findings):
    return [f.kind for f in findings if f.status != LAPSED]


class Table:
    """Six-handed hold'em: button seat 3, hole cards draws 1-12 = card ints 0..11; later draws from 20 up."""

    def __init__(self, mode=CASH, rules=None):
        plan = dealplan.make_plan(SIX, dealplan.HOLDEM, button=3)
        self.d = DealCheck(plan, HouseRules(mode, values=rules))
        self.next = 20
        out = []
        for i, seat in enumerate(SIX * 2):
            out += self.d.card(i, seat)
        eq(kinds(out), ["deal_complete"])
        self.d.action(6, "call", 100)  # SA in both modes
        self.d.action(1, "call", 100)

    def draw(self, place, card=None):
        if card is None:
            card = self.next
            self.next += 1
        return self.d.card(card, place)

    def flop(self):
        out = self.draw(None)
        for _ in range(3):
            out += self.draw(BOARD)
        return out

    def street(self):
        out = self.draw(None)
        out += self.draw(BOARD)
        return out


def test_DEAL_3_example_clean_hand_burn_flop_burn_turn_burn_river():
    t = Table()
    t.d.betting_closed()
    eq(t.flop(), [])  # draws 13-16
    eq(t.d.phase, BETTING)
    t.d.betting_closed()
    eq(t.street(), [])  # 17-18
    t.d.betting_closed()
    eq(t.street(), [])  # 19-20
    eq(t.d.burns, [20, 24, 26])
    eq(t.d.board, [21, 22, 23, 25, 27])
    eq(len(t.d.draws), 20)
    t.d.betting_closed()
    eq(t.d.phase, SHOWDOWN)


def test_DEAL_3_a_draw_reaching_no_antenna_is_a_burn():
    t = Table()
    t.d.betting_closed()
    t.draw(None)
    eq(t.d.burns, [20])


def test_DEAL_4_example_fourth_board_tag_with_burn_is_premature_turn():
    t = Table()
    t.d.betting_closed()
    t.flop()
    t.draw(None)  # early burn: stays the turn burn
    out = t.draw(BOARD)
    eq(new_kinds(out), ["premature_turn"])
    eq(out[0].rules, ("DEAL-31", "DEAL-33"))


def test_DEAL_27_example_four_card_flop_floor_picks_the_burn():
    t = Table()
    t.d.betting_closed()
    t.flop()
    out = t.draw(BOARD)  # draw 17 comes with the flop
    eq(kinds(out), ["four_card_flop"])
    f = out[0]
    eq(len(f.cards), 4)
    with raises(RuleError, match="DEAL-27"):
        t.d.confirm(f.id)  # the floor's pick is needed
    eq(f.status, PROPOSED)
    jd = f.cards[1]
    res = t.d.confirm(f.id, card=jd)
    eq(kinds(res), ["move_card"])
    eq(t.d.where(jd), BURN)
    eq(len(t.d.board), 3)
    t.d.betting_closed()
    eq(t.draw(BOARD), [])  # the turn comes without a new burn
    eq(t.d.phase, BETTING)
    eq(len(t.d.board), 4)


def test_DEAL_27_rejected_four_card_flop_is_a_premature_turn():
    t = Table()
    t.d.betting_closed()
    t.flop()
    f = t.draw(BOARD)[0]
    out = t.d.reject(f.id)
    eq(kinds(out), ["premature_turn"])


def test_DEAL_28_example_restore_order_cash():
    t = Table(mode=CASH)
    t.d.betting_closed()
    out = []
    for _ in range(3):
        out += t.draw(BOARD)  # draws 13-15 straight to the board
    eq(kinds(out), ["noburn_flop"])
    eq(out[0].rules, ("DEAL-28",))
    eq(t.d.phase, DEALING)
    res = t.d.confirm(out[0].id)
    eq(kinds(res), ["rebuild"])
    eq(t.d.burns[-1], 20)  # card 13 becomes the burn
    eq(t.d.board, [21, 22])
    eq(t.draw(BOARD), [])  # draw 16 completes the flop
    eq(t.d.board, [21, 22, 23])
    eq(t.d.phase, BETTING)


def test_DEAL_28_example_tda_random_tournament():
    t = Table(mode=TOURNAMENT)
    t.d.betting_closed()
    out = []
    for _ in range(3):
        out += t.draw(BOARD)
    f = out[0]
    assert "at random" in f.remedy
    with raises(RuleError, match="DEAL-28"):
        t.d.confirm(f.id, card=99)
    t.d.confirm(f.id, card=21)  # the floor picked card 14
    eq(t.d.where(21), BURN)
    eq(t.d.board, [20, 22])
    eq(t.draw(BOARD), [])
    eq(t.d.board, [20, 22, 23])
    eq(t.d.phase, BETTING)


def test_DEAL_28_once_anyone_acts_the_flop_stands():
    t = Table(mode=TOURNAMENT)
    t.d.betting_closed()
    out = []
    for _ in range(3):
        out += t.draw(BOARD)
    res = t.d.action(4, "check")
    eq(out[0].status, LAPSED)
    assert "cards stand" in out[0].remedy
    eq(t.d.board, [20, 21, 22])
    eq(t.d.phase, BETTING)
    t.d.betting_closed()
    eq(t.street(), [])  # the turn gets one burn


def test_DEAL_29_example_turn_without_burn_restored():
    t = Table()
    t.d.betting_closed()
    t.flop()
    t.d.betting_closed()
    out = t.draw(BOARD)  # draw 17 straight to the board
    eq(kinds(out), ["burn_error"])
    eq(out[0].rules, ("DEAL-29",))
    t.d.confirm(out[0].id)
    eq(t.d.where(24), BURN)  # card 17 is the burn
    eq(t.draw(BOARD), [])  # draw 18 is the turn
    eq(t.d.board[-1], 25)
    eq(t.d.phase, BETTING)


def test_DEAL_29_example_all_in_river_with_two_burns():
    t = Table()
    t.d.betting_closed()
    t.flop()
    t.d.betting_closed()
    t.street()
    t.d.betting_closed()  # all-in: no more betting
    t.draw(None)  # draw 19: burn
    t.draw(None)  # draw 20: second burn
    out = t.draw(BOARD)  # draw 21 turned as the river
    eq(kinds(out), ["burn_error"])
    res = t.d.confirm(out[0].id)
    river, burn = t.d.draws[19][0], t.d.draws[20][0]
    eq(t.d.board[-1], river)  # the correct river is card 20
    eq(t.d.where(burn), BURN)  # card 21 becomes a burn
    eq(res[0].detail["surplus"], [burn])


def test_DEAL_30_example_premature_flop_reshuffle_and_redeal_without_burn():
    t = Table()
    out = t.draw(None)  # draw 13 burn while the BB has not acted
    eq(kinds(out), ["early_burn"])
    out = []
    for _ in range(3):
        out += t.draw(BOARD)  # draws 14-16
    eq(kinds(out), ["premature_flop"])
    f = out[0]
    eq(f.rules, ("DEAL-30", "DEAL-33"))
    eq(len(f.cards), 3)
    res = t.d.confirm(f.id)
    eq(kinds(res), ["reshuffle_stub"])
    assert "without a burn" in res[0].text
    eq(t.d.board, [])
    # DEAL-34 example: the stub holds 39 known cards
    r = t.d.reshuffled()
    eq(len(r[0].detail["candidates"]), 39)
    for c in (21, 22, 23):
        assert c in r[0].detail["candidates"]
    t.d.action(5, "check")
    t.d.betting_closed()
    out = []
    for c in (22, 21, 30):  # the next three draws form the flop, no burn
        out += t.d.card(c, BOARD)
    eq(out, [])
    eq(t.d.phase, BETTING)


def test_DEAL_31_tda2019_premature_turn():
    t = Table()
    t.d.betting_closed()
    t.flop()
    t.d.action(4, "check")
    t.draw(None)
    out = t.draw(BOARD)  # 8h comes out before the flop action finishes
    f = out[0]
    eq(f.kind, "premature_turn")
    t.d.confirm(f.id)
    eq(t.d.where(25), None)  # back in the stub
    t.d.betting_closed()
    eq(t.draw(BOARD), [])  # the turn is redealt without a burn
    eq(t.d.phase, BETTING)


def test_DEAL_31_tda2017_premature_turn_set_aside_until_the_river():
    t = Table(rules={"hr.premature_turn": "tda2017"})
    t.d.betting_closed()
    t.flop()
    t.draw(None)  # 24: burn
    f = t.draw(BOARD)[0]  # 25: premature turn
    assert "set the premature turn aside" in f.remedy
    t.d.confirm(f.id)
    eq(t.d.where(25), "aside")
    t.d.betting_closed()
    eq(t.street(), [])  # the dealer burns (26) and deals the turn (27)
    eq(t.d.board[-1], 27)
    out = t.d.betting_closed()
    eq(kinds(out), ["reshuffle"])  # the set-aside card goes back into the stub
    eq(t.d.where(25), None)
    eq(t.draw(BOARD), [])  # the river without a burn
    eq(len(t.d.board), 5)


def test_DEAL_32_example_premature_river():
    t = Table()
    for n in (3, 1):
        t.d.betting_closed()
        t.draw(None)
        for _ in range(n):
            t.draw(BOARD)
    t.draw(None)  # river burn while a player still has to act on the turn
    out = t.draw(BOARD)
    eq(kinds(out), ["premature_river"])
    eq(out[0].rules, ("DEAL-32", "DEAL-33"))
    t.d.confirm(out[0].id)
    t.d.betting_closed()
    eq(t.draw(BOARD), [])  # the next draw is the river, no burn
    eq(len(t.d.board), 5)


def test_DEAL_33_premature_cards_stay_void_when_the_action_ends_the_same():
    t = Table()
    t.draw(None)
    out = []
    for _ in range(3):
        out += t.draw(BOARD)
    t.d.action(2, "fold")  # SB folds, BB calls: the flop is still void
    t.d.action(3, "call", 100)
    t.d.betting_closed()
    eq(out[0].status, PROPOSED)
    eq(t.d.board, [])  # the premature cards never count for the flop
    res = t.d.confirm(out[0].id)
    eq(kinds(res), ["reshuffle_stub"])


def test_DEAL_35_stub_mixed_with_muck():
    t = Table()
    t.d.betting_closed()
    t.flop()
    t.d.action(4, "fold")
    t.d.kill(4)
    out = t.d.reshuffled(include=("muck",))
    eq(out[0].rules, ("DEAL-34", "DEAL-35"))
    cands = out[0].detail["candidates"]
    assert 0 in cands and 6 in cands  # seat 4's mucked cards are candidates again


def test_DEAL_18_example_duplicate_card_fouls_the_deck():
    t = Table()
    t.d.betting_closed()
    t.flop()
    t.d.betting_closed()
    t.street()
    t.d.betting_closed()
    t.draw(None)
    out = t.draw(BOARD, card=4)  # card 4 is already at seat 2
    eq(kinds(out), ["fouled_deck"])
    assert "seat 2" in out[0].text
    res = t.d.confirm(out[0].id)
    eq(kinds(res), ["void_hand"])
    eq(t.d.phase, VOID)
    with raises(RuleError, match="DEAL-18"):
        t.d.card(40, BOARD)


def test_DEAL_49_example_rabbit_hunt_is_logged_and_not_shown():
    t = Table()
    t.d.betting_closed()
    t.flop()
    t.d.action(4, "bet", 300)
    for seat in (5, 6, 1, 2, 3):
        out = t.d.action(seat, "fold")
    eq(t.d.phase, OVER)
    out = t.draw(BOARD)  # the dealer draws the turn "to see"
    eq(kinds(out), ["rabbit_hunt"])
    eq(out[0].cards, ())
    assert "Q" not in out[0].text and "draw 17" in out[0].text


def test_DEAL_49_after_hand_over():
    t = Table()
    t.d.hand_over()
    eq(kinds(t.draw(None)), ["rabbit_hunt"])


def test_DEAL_13_foreign_card_before_SA_is_a_misdeal():
    plan = dealplan.make_plan(SIX, dealplan.HOLDEM, button=3)
    d = DealCheck(plan, HouseRules(TOURNAMENT))
    for i, seat in enumerate(SIX[:2]):
        d.card(i, seat)
    out = d.foreign(6)
    eq(kinds(out), ["misdeal"])
    eq(out[0].rules, ("DEAL-13",))


def test_DEAL_19_example_tournament_scrap_then_dead_hand():
    t = Table(mode=TOURNAMENT)
    out = t.d.foreign(3)  # seat 3 found with a blue-backed card after SA
    eq(kinds(out), ["foreign_scrap"])
    res = t.d.confirm(out[0].id)
    eq(kinds(res), ["remove_card"])


def test_DEAL_19_example_cash_void_and_refund():
    t = Table(mode=CASH)
    t.d.action(3, "check")
    out = t.d.foreign(3)  # seat 3 has acted: not DEAL-20
    eq(kinds(out), ["void_hand"])
    res = t.d.confirm(out[0].id)
    eq(res[0].detail["refund"], True)
    eq(t.d.phase, VOID)


def test_DEAL_19_foreign_card_in_the_stub_is_removed():
    t = Table()
    out = t.d.foreign(STUB)
    eq((out[0].kind, out[0].status), ("foreign_in_stub", APPLIED))


def test_DEAL_20_example_cash_holder_gets_a_replacement():
    plan = dealplan.make_plan(SIX, dealplan.HOLDEM, button=3)
    d = DealCheck(plan, HouseRules(CASH))
    for i, seat in enumerate(SIX * 2):
        if i == 4:
            out = d.foreign(2)  # seat 2's first card is a joker
        else:
            d.card(i, seat)
    eq(kinds(out), ["foreign_replace"])
    d.confirm(out[0].id)
    eq(d.card(40, 2), [])  # the next card off the stub replaces it
    eq(len(d.holding(2)), 2)


def test_DEAL_20_betting_with_the_foreign_card_kills_the_hand():
    plan = dealplan.make_plan(SIX, dealplan.HOLDEM, button=3)
    d = DealCheck(plan, HouseRules(CASH))
    for i, seat in enumerate(SIX * 2):
        if i == 4:
            f = d.foreign(2)[0]
        else:
            d.card(i, seat)
    out = d.action(6, "call", 100)
    out += d.action(1, "call", 100)
    out = d.action(2, "raise", 400)
    eq(f.status, LAPSED)
    eq([(x.kind, x.rules) for x in out if x.status == PROPOSED], [("dead_hand", ("DEAL-20",))])


def test_DEAL_37_40_48_tag_log_identifies_cards():
    t = Table()
    eq(t.d.where(0), 4)
    eq(t.d.where(11), 3)
    eq(t.d.where(51), None)
    t.d.betting_closed()
    t.flop()
    eq(t.d.where(20), BURN)
    eq(t.d.where(21), BOARD)


def test_DEAL_17_boxed_card_found_in_the_stub_on_the_flop_is_not_the_burn():
    t = Table()
    t.d.betting_closed()
    t.draw(None)  # draw 13 is face up in the stub
    f = t.d.mark_boxed(13)[0]
    eq(f.rules, ("DEAL-17",))
    t.d.confirm(f.id)
    eq(t.d.where(20), "aside")
    out = t.flop()  # burn and flop follow as if it were not there
    eq(out, [])
    eq(t.d.burns, [21])
    eq(t.d.phase, BETTING)


def test_DEAL_5_card_to_a_folded_seat_is_alarmed_not_counted():
    t = Table()
    t.d.action(2, "fold")
    out = t.draw(2)
    eq([(f.kind, f.rules) for f in out], [("card_to_dead_hand", ("DEAL-5",))])
    eq(t.d.pending(), [])


def test_TOUR_10_example_hand_for_hand_all_in_holds_the_board():
    t = Table(mode=TOURNAMENT)
    out = t.d.hold()  # A all-in preflop, B calls, hand-for-hand
    assert "HOLD" in out[0].remedy
    t.d.betting_closed()
    out = t.draw(None)
    eq([(f.kind, f.rules) for f in out], [("held_draw", ("TOUR-10",))])
    eq(t.d.burns, [])  # the alarmed draw is not placed
    t.d.release()
    eq(t.flop(), [])


def test_DEAL_19_example_scrapped_hole_card_leaves_the_seat_short_and_dead():
    # tournament: seat 2's second hole card is a foreign card; the misdeal is not taken before SA,
    # so after SA the card is scrap (DEAL-19) and seat 2, left with one card, is dead (DEAL-25)
    plan = dealplan.make_plan(SIX, dealplan.HOLDEM, button=3)
    d = DealCheck(plan, HouseRules(TOURNAMENT))
    for i, seat in enumerate(SIX * 2):
        if i == 10:
            misdeal = [f for f in d.foreign(2) if f.kind == "misdeal"][0]
        else:
            d.card(i, seat)
    eq((misdeal.kind, misdeal.rules), ("misdeal", ("DEAL-13",)))
    d.action(6, "raise", 600)
    out = d.action(1, "call", 600)  # SA: no misdeal any more
    eq(misdeal.status, LAPSED)
    scrap = [f for f in out if f.kind == "foreign_scrap"]
    eq(len(scrap), 1)
    out = d.confirm(scrap[0].id)
    dead = [f for f in out if f.kind == "dead_hand"]
    eq([(f.seat, f.rules) for f in dead], [(2, ("DEAL-25",))])


def test_DEAL_30_a_lone_early_burn_stays_the_flop_burn():
    t = Table()
    out = t.draw(None)  # burned while preflop betting is still open
    eq([(f.kind, f.rules) for f in out], [("early_burn", ("DEAL-30",))])
    t.d.betting_closed()
    out = []
    for _ in range(3):
        out += t.draw(BOARD)
    eq(out, [])  # no burn error: the early burn was the flop burn
    eq(t.d.phase, BETTING)


def test_DEAL_3_burn_on_the_muck_is_noted_and_still_a_burn():
    t = Table()
    t.d.betting_closed()
    out = t.draw("muck")
    eq(kinds(out), ["burn_on_muck"])
    eq(t.d.burns, [20])
    out = []
    for _ in range(3):
        out += t.draw(BOARD)
    eq(out, [])
