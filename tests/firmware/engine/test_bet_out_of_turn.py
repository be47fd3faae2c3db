# Out-of-turn action (BET-39..43) proposed as a ruling, and bets corrected afterwards: pot-limit
# wrong count (BET-27) and underbets/underraises with the callers' fix-up (BET-29).
from check import eq, raises
from felt.engine.cards import parse_cards
from felt.engine.games import GAMES
from felt.engine.hand.machine import Hand
from felt.engine.hand.out_of_turn import oot_ruling, pl_wrong_count, underraise_fix
from felt.errors import RuleError

SEATS = [1, 2, 3, 4, 5, 6]


def _flop(mode, game="NT"):
    # NL 50/100, six seats; seat 6 is the button. Everyone limps, then on the flop seats 1 and 2
    # check, seat 3 bets 300 and seat 4 folds: seat 5 is to act.
    h = Hand(game=GAMES[game], stacks=[10000] * 6, blinds=[50, 100], seats=SEATS, rules={"mode": mode})
    for p, t in enumerate(("AhKh", "QsQd", "7c2d", "9c9d", "5h6h", "JcTc")):
        h.deal_hole(p, parse_cards(t))
    while h.phase == "bet":
        h.check_call(h.actor)
    h.burn(parse_cards("2s")[0])
    h.deal_board(parse_cards("3s4d8h"))
    h.check_call(0)
    h.check_call(1)
    h.bet_raise_to(2, 300)
    h.fold(3)
    eq(h.actor, 4)
    return h


def test_BET_39_example_tda2019_unchanged_action_binds():
    h = _flop("tournament")
    f = h.out_of_turn(5, "raise", 800)
    eq((f.cls, f.status), ("ASSIST", "proposed"))
    assert "BET-39" in f.rules and "seat 6" in f.text and "seat 5" in f.remedy
    eq(h.actor, 4)  # nothing changed: action goes back to seat 5
    h.check_call(4)  # seat 5 calls: no change
    eq(oot_ruling(h, f), ("binding", "raise"))
    h.bet_raise_to(5, 800)


def test_BET_39_example_tda2019_raise_in_between_voids_it():
    h = _flop("tournament")
    f = h.out_of_turn(5, "raise", 800)
    h.bet_raise_to(4, 900)  # seat 5 raises to 900
    eq(oot_ruling(h, f), ("void", None))
    lg = h.legal()
    eq((lg.call, lg.min_to), (900, 1500))  # seat 6 may fold, call 900 or raise to at least 1,500


def test_BET_39_example_club_chips_stay_after_a_raise():
    h = _flop("cash")
    f = h.out_of_turn(5, "call", 300)
    h.bet_raise_to(4, 900)
    eq(oot_ruling(h, f), ("call_or_fold", 300))  # the 300 stays in the pot; folding forfeits it


def test_BET_40_example_oot_check_club_and_tda():
    for mode, rule in (("cash", "call or fold"), ("tournament", "every option")):
        h = Hand(game=GAMES["NT"], stacks=[10000] * 6, blinds=[50, 100], seats=SEATS, rules={"mode": mode})
        for p, t in enumerate(("AhKh", "QsQd", "7c2d", "9c9d", "5h6h", "JcTc")):
            h.deal_hole(p, parse_cards(t))
        while h.phase == "bet":
            h.check_call(h.actor)
        h.burn(parse_cards("2s")[0])
        h.deal_board(parse_cards("3s4d8h"))
        h.check_call(0)
        h.check_call(1)
        h.check_call(2)  # seat 3 checks; seat 4 to act
        f = h.out_of_turn(5, "check")  # seat 6 checks out of turn
        assert "BET-40" in f.rules
        assert rule in f.remedy or mode == "cash" and "may not bet or raise" in f.remedy
        h.bet_raise_to(3, 300)  # seat 4 bets
        h.check_call(4)
        kind, _ = oot_ruling(h, f)
        eq(kind, "call_or_fold" if mode == "cash" else "void")


def test_BET_41_skipped_players_are_named():
    h = _flop("cash")
    f = h.out_of_turn(0, "call", 300)  # seat 1 calls, passing over seats 5 and 6
    assert "BET-41" in f.rules
    eq(f.detail["skipped"], [4, 5])
    assert "seat 5, seat 6" in f.remedy


def test_BET_42_dealer_prompted_action_may_be_withdrawn():
    h = _flop("cash")
    f = h.out_of_turn(5, "call", 300, dealer_prompted=True)
    assert "BET-42" in f.rules
    h.bet_raise_to(4, 900)
    eq(oot_ruling(h, f), ("void", None))  # may take the chips back and fold


def test_BET_43_oot_fold_is_binding_and_bad_entries_refused():
    h = _flop("tournament")
    f = h.out_of_turn(5, "fold")
    assert "BET-43" in f.rules
    h.check_call(4)
    eq(oot_ruling(h, f), ("fold", None))
    with raises(RuleError, match="BET-39"):
        h.out_of_turn(5, "call", 300)  # seat 6 is the actor now
    with raises(RuleError, match="BET-39"):
        h.out_of_turn(3, "call", 300)  # seat 4 folded
    with raises(RuleError, match="GAME-16"):
        h.out_of_turn(0, "dance")


def test_BET_39_ruling_only_at_the_players_turn():
    h = _flop("tournament")
    f = h.out_of_turn(5, "call", 300)
    with raises(RuleError, match="BET-39"):
        oot_ruling(h, f)


def test_BET_29_example_underraise_corrected_before_the_turn():
    # NL 100/200 flop: A bets 500, B "raises" to 800 (minimum 1,000), C and D call 800, E folds
    h = Hand(game=GAMES["NT"], stacks=[20000] * 5, blinds=[100, 200], rules={"mode": "tournament"})
    callers = {2: 800, 3: 800, 0: 500}
    f = underraise_fix(h, 1, 800, 1000, callers=callers)
    eq(f.detail["adjust"], {1: 200, 2: 200, 3: 200})
    eq(f.detail["to"], 1000)
    assert "BET-29" in f.rules and "position 3 adds 200" in f.remedy
    late = underraise_fix(h, 1, 800, 1000, callers=callers, next_card_dealt=True)
    eq((late.detail["kind"], late.detail["adjust"]), ("stands", {}))
    # cash: only before the round completes; a short stack adds what it has
    cash = Hand(game=GAMES["NT"], stacks=[20000] * 5, blinds=[100, 200], rules={"mode": "cash"})
    eq(underraise_fix(cash, 1, 800, 1000, callers=callers, round_complete=True).detail["kind"], "stands")
    eq(underraise_fix(cash, 1, 800, 1000, callers=callers, stacks={2: 50}).detail["adjust"], {1: 200, 2: 50, 3: 200})
    eq(underraise_fix(h, 1, 800, 1000, all_in=True).detail["kind"], "stands")


def test_BET_27_example_pot_limit_wrong_count():
    h = Hand(game=GAMES["PO"], stacks=[50000] * 4, blinds=[100, 200])
    # pot 8,000 but quoted 7,500 and A (position 0) bets 7,500
    f = pl_wrong_count(h, 0, 7500, 8000, actions_after=("fold",))
    eq((f.detail["kind"], f.detail["to"], f.detail["adjust"]), ("raise", 8000, {0: 500}))
    f = pl_wrong_count(h, 0, 7500, 8000, callers={2: 7500}, actions_after=("fold", "call"))
    eq((f.detail["kind"], f.detail["adjust"]), ("stands", {}))  # SA: 7,500 stands
    # quoted 9,000; C and D call 9,000: everyone reduced to 8,000 before the river
    f = pl_wrong_count(h, 0, 9000, 8000, callers={2: 9000, 3: 9000}, actions_after=("fold", "call", "call"))
    eq((f.detail["kind"], f.detail["adjust"]), ("reduce", {0: -1000, 2: -1000, 3: -1000}))
    f = pl_wrong_count(h, 0, 9000, 8000, callers={2: 9000}, next_card_dealt=True)
    eq(f.detail["kind"], "stands")
    with raises(RuleError, match="BET-27"):
        pl_wrong_count(Hand(game=GAMES["NT"], stacks=[1000] * 2, blinds=[5, 10]), 0, 50, 40)
    with raises(RuleError, match="BET-29"):
        underraise_fix(h, 0, 50, 400)
