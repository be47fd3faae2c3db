# Hand flow for a no-limit hold'em hand end to end: blinds, deal, streets, fold-out (GAME-6),
# showdown, uncalled bets (POT-2), order of action (GAME-3/4, BLIND-6), run-out (GAME-7).
from check import eq, raises
from felt.engine.cards import parse_cards
from felt.engine.games import GAMES
from felt.engine.hand.machine import Hand
from felt.errors import DuplicateCard, RuleError


def nl(stacks, blinds=(50, 100), **kw):
    return Hand(game=GAMES["NT"], stacks=stacks, blinds=list(blinds), **kw)


def deal_all(h, text):
    # text: one hand per position, "AcKd 7h7s ..."
    words = text.split()
    for p in range(len(words)):
        h.deal_hole(p, parse_cards(words[p]))


def snap(h):
    r = h.round
    return (list(h.stacks), list(h.committed), list(r.bets), list(h.live), h.phase, h.street, h.actor,
            r.high, r.inc, r.level, r.count, list(r.needs), list(r.acted), len(h.log), list(h.board))


def test_GAME_2_blinds_posted_and_cards_due_first():
    h = nl([10000] * 6)
    eq(h.committed, [50, 100, 0, 0, 0, 0])
    eq(h.stacks[:2], [9950, 9900])
    eq(h.phase, "deal")
    eq(h.actor, None)
    eq(h.next_hole_position(), 0)
    with raises(RuleError, match="GAME-2"):
        h.fold(2)
    deal_all(h, "Jd9h Qh3h 9dKd 3dAd 3c5c 6hAh")
    eq(h.phase, "bet")


def test_GAME_3_preflop_order_left_of_big_blind():
    # GAME-3 example: 6 players, preflop order 4 5 6 1 2 3 (positions 2..5, 0, 1)
    h = nl([10000] * 6)
    deal_all(h, "Jd9h Qh3h 9dKd 3dAd 3c5c 6hAh")
    order = []
    for _ in range(5):
        order.append(h.actor)
        h.check_call(h.actor)
    order.append(h.actor)
    eq(order, [2, 3, 4, 5, 0, 1])
    # GAME-5 / BLIND-9: everyone called; the BB still has the option
    eq(h.legal().can_check, True)
    eq(h.legal().min_to, 200)
    h.check_call(1)
    eq(h.phase, "deal")
    eq(h.street, 1)


def test_GAME_4_postflop_first_live_left_of_button():
    # GAME-4 example: SB folded preflop, BB still in: the BB acts first on the flop
    h = nl([10000] * 4)
    deal_all(h, "Jd9h Qh3h 9dKd 3dAd")
    h.check_call(2)
    h.check_call(3)
    h.fold(0)
    h.check_call(1)
    h.deal_board(parse_cards("6d2d7s"))
    eq(h.actor, 1)


def test_BLIND_6_heads_up_button_posts_small_blind_and_acts_first_preflop():
    # PHH/pokerkit order: [SB, BB] written, position 1 (button) posts the SB
    h = nl([1000, 1000])
    eq(h.committed, [100, 50])
    deal_all(h, "AcKd 7h7s")
    eq(h.actor, 1)
    h.check_call(1)
    h.check_call(0)
    h.deal_board(parse_cards("2c3d4h"))
    eq(h.actor, 0)


def test_GAME_6_everyone_folds_winner_takes_pot_uncalled_raise_returned():
    h = nl([10000] * 3)
    deal_all(h, "AcKd 7h7s 2c3d")
    op = h.bet_raise_to(2, 300)
    eq((op.kind, op.amount, op.total), ("raise", 300, 300))
    h.fold(0)
    h.fold(1)
    eq(h.finished, True)
    # the 200 nobody called comes back (POT-2); the button wins the blinds
    eq(h.finishing_stacks(), [9950, 9900, 10150])
    eq(sum(h.finishing_stacks()), 30000)
    with raises(RuleError, match="GAME-6"):
        h.check_call(2)
    with raises(RuleError, match="DEAL-49"):
        h.deal_board(parse_cards("2h"))


def test_hand_pluribus_83_6_replayed_to_its_finishing_stacks():
    # pluribus/83/6.phh: river bet, raise, fold, call; the loser mucks
    h = nl([10000] * 6)
    deal_all(h, "Jd9h Qh3h 9dKd 3dAd 3c5c 6hAh")
    h.bet_raise_to(2, 200)
    h.fold(3)
    h.fold(4)
    h.check_call(5)
    h.fold(0)
    h.check_call(1)
    h.deal_board(parse_cards("6d2d7s"))
    for p in (1, 2, 5):
        h.check_call(p)
    h.deal_board(parse_cards("Kc"))
    for p in (1, 2, 5):
        h.check_call(p)
    h.deal_board(parse_cards("6s"))
    h.bet_raise_to(1, 500)
    h.check_call(2)
    h.bet_raise_to(5, 2650)
    h.fold(1)
    h.check_call(2)
    eq(h.phase, "showdown")
    h.show(5, parse_cards("6hAh"))
    h.muck(2)
    eq(h.finished, True)
    eq(h.finishing_stacks(), [9950, 9300, 7150, 10000, 10000, 13600])


def test_GAME_7_all_in_runout_deals_without_betting():
    h = nl([1000, 5000, 5000])
    deal_all(h, "AcAd KcKd 2c3d")
    h.bet_raise_to(2, 5000)  # button all-in
    h.check_call(0)  # SB all-in for 1000
    h.check_call(1)  # BB calls 5000
    # two players all-in, the BB has nothing behind: no more betting (GAME-7)
    eq(h.runout, True)
    h.burn(parse_cards("9s")[0])
    h.deal_board(parse_cards("7h8h9h"))
    eq(h.actor, None)
    eq(h.phase, "deal")
    eq(h.street, 2)
    # hands may be tabled during the run-out
    eq(h.can_show(0), True)


def test_hand_illegal_action_leaves_state_unchanged():
    h = nl([10000] * 3)
    deal_all(h, "AcKd 7h7s 2c3d")
    before = snap(h)
    for bad in (lambda: h.bet_raise_to(2, 150), lambda: h.check_call(0), lambda: h.bet_raise_to(2, 20000),
                lambda: h.check(2), lambda: h.deal_board(parse_cards("2h")), lambda: h.show(2)):
        with raises(RuleError):
            bad()
        eq(snap(h), before)


def test_hand_out_of_turn_names_the_player_to_act():
    h = nl([10000] * 3, seats=[2, 5, 9])
    deal_all(h, "AcKd 7h7s 2c3d")
    with raises(RuleError, match="BET-38") as e:
        h.fold(0)
    eq(e.value.legal, 2)
    eq("seat 9 is to act" in e.value.message, True)


def test_DECK_5_duplicate_card_rejected():
    h = nl([10000] * 3)
    h.deal_hole(0, parse_cards("AcKd"))
    before = snap(h)
    with raises(DuplicateCard):
        h.deal_hole(1, parse_cards("Ac7s"))
    eq(snap(h), before)


def test_hand_can_x_twins_agree_with_actions():
    h = nl([10000] * 3)
    deal_all(h, "AcKd 7h7s 2c3d")
    eq(h.can_bet_raise_to(2, 199), False)
    eq(h.can_bet_raise_to(2, 200), True)
    eq(h.can_fold(1), False)
    eq(h.can_check_call(2), True)
    eq(h.can_check(2), False)


def test_BLIND_20_straddle_acts_as_big_blind_of_the_round():
    # NL 100/200: UTG straddles 400; the next player may fold, call 400 or raise to >= 800;
    # if everyone calls, the straddler may check or raise
    h = nl([10000] * 6, blinds=(100, 200, 400))
    deal_all(h, "Jd9h Qh3h 9dKd 3dAd 3c5c 6hAh")
    lg = h.legal()
    eq((lg.position, lg.call, lg.min_to), (3, 400, 800))
    for p in (3, 4, 5, 0, 1):
        h.check_call(p)
    eq(h.actor, 2)
    eq(h.legal().can_check, True)
    h.check_call(2)
    eq(h.street, 1)


def test_BLIND_6_button_is_bb_house_rule_keeps_positional_order():
    h = nl([1000, 1000], rules={"hr.headsup_blinds": "button_is_bb"})
    eq(h.committed, [50, 100])
    deal_all(h, "AcKd 7h7s")
    eq(h.actor, 0)


def test_hand_rules_are_validated():
    from felt.errors import ConfigError

    with raises(ConfigError):
        nl([1000, 1000], rules={"hr.fifty_pct_basis": "whatever"})
    with raises(ConfigError):
        nl([1000, 1000], rules={"hr.no_such_rule": 1})


def test_show_order_last_aggressor_first_and_all_in_lights():
    h = nl([10000, 10000, 3000])
    deal_all(h, "AcKd 7h7s 2c3d")
    h.bet_raise_to(2, 3000)  # all-in: the seat's light is on (BET-52)
    eq(h.all_in, [False, False, True])
    h.check_call(0)
    h.check_call(1)
    for board in ("2h7d8s", "Kh"):
        h.deal_board(parse_cards(board))
        h.check_call(0)
        h.check_call(1)
    h.deal_board(parse_cards("9c"))
    h.check_call(0)
    h.bet_raise_to(1, 500)
    h.check_call(0)
    eq(h.phase, "showdown")
    # SHOW-4: the river bettor first; SHOW-9: then the side pot's other player (0) before the
    # all-in player in the main pot only (2), though 2 is next clockwise
    eq(h.show_order(), [1, 0, 2])
    h.show(1)
    eq(h.show_order(), [0, 2])
    h.show(2)
    h.muck(0)
    eq(h.finished, True)
    eq(h.all_in, [False, False, False])
    eq(h.finishing_stacks(), [6500, 16500, 0])


def test_SHOW_8_all_in_hands_may_not_muck_when_tabled_at_once():
    def allin(mode):
        h = nl([1000, 5000], rules={"mode": mode})
        deal_all(h, "AcAd KcKd")
        h.bet_raise_to(1, 5000)
        h.check_call(0)
        return h
    h = allin("tournament")  # hr.allin_face_up = immediate
    eq(h.face_up_now(), True)
    with raises(RuleError, match="SHOW-8"):
        h.muck(1)
    h = allin("cash")  # at_showdown
    eq(h.face_up_now(), False)
    eq(h.can_muck(1), True)
