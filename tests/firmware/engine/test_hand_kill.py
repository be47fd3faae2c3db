# Hand.kill (engine): the dealer or the floor kills a hand in or out of turn (DEAL-36, DEAL-38):
# an uncalled bet or raise of the killed hand comes back at once (DEAL-36), the others act as if
# it had folded (BET-43), the street closes when everyone left has matched (GAME-5), one live hand
# left wins (GAME-6); refused kills (SHOW-13, GAME-6, DEAL-38, GAME-11) change nothing.
# Runs under CPython and MicroPython.
from check import eq, raises

from felt.engine.hand.machine import Hand
from felt.errors import RuleError


def dealt(n=3, stacks=1000):
    """NL hold'em 50/100, positions 0 = SB, 1 = BB, 2.. ; hole cards dealt, preflop to act."""
    h = Hand("NT", [stacks] * n, blinds=[50, 100] + [0] * (n - 2))
    for p in range(n):
        h.deal_hole(p, [4 * p, 4 * p + 1])
    return h


def state(h):
    return (h.phase, h.street, h.actor, list(h.live), list(h.stacks), list(h.bets), list(h.committed),
            h.round.high, h.round.inc, len(h.log))


def to_flop(h):
    h.burn(40)
    h.deal_board([41, 42, 43])


def test_DEAL_36_an_uncalled_raise_is_returned_at_once_the_called_part_stays():
    h = dealt()
    h.bet_raise_to(2, 300)  # position 2 raises the big blind; nobody has acted since
    op = h.kill(2)
    eq((op.kind, op.position, op.amount), ("kill", 2, 200))
    eq(h.stacks, [950, 900, 900])  # the 100 that matches the big blind stays in the pot
    eq(h.bets, [50, 100, 100])
    eq(h.round.high, 100)
    eq(h.round.inc, 100)  # the minimum raise is the big blind again, not the returned raise
    eq(h.actor, 0)  # the small blind now faces only the big blind
    eq(h.legal().call, 50)
    eq(h.legal().min_to, 200)
    h.check_call(0)
    eq(h.actor, 1)  # the big blind keeps its option (BLIND-9)
    h.check_call(1)
    eq((h.phase, h.street), ("deal", 1))
    eq(h.pot_total(), 300)


def test_DEAL_36_an_uncalled_flop_bet_comes_back_and_the_street_is_checked_through():
    h = dealt()
    h.check_call(2)
    h.check_call(0)
    h.check_call(1)
    to_flop(h)
    h.check_call(0)  # SB checks
    h.bet_raise_to(1, 400)  # BB bets; position 2 to act
    h.kill(1)  # the dealer sweeps the bettor's cards: the 400 goes back
    eq(h.stacks, [900, 900, 900])
    eq(h.bets, [0, 0, 0])
    eq(h.actor, 2)  # position 2 may check: there is no bet any more
    eq(h.legal().call, 0)
    h.check_call(2)
    eq((h.phase, h.street), ("deal", 2))  # SB had checked already: the flop is over (GAME-5)


def test_DEAL_36_a_called_bet_is_not_returned():
    h = dealt(4)
    h.bet_raise_to(2, 300)
    h.check_call(3)  # called: no refund for position 2
    h.kill(2)
    eq(h.stacks[2], 700)
    eq(h.bets, [50, 100, 300, 300])
    eq(h.round.high, 300)
    eq(h.actor, 0)  # the SB still faces 300
    eq(h.legal().call, 250)


def test_DEAL_36_a_posted_blind_is_not_a_bet_and_stays_in_the_pot():
    h = dealt()
    h.kill(1)  # the big blind's hand: no refund, the others still owe the blind
    eq(h.stacks, [950, 900, 1000])
    eq(h.actor, 2)
    eq(h.legal().call, 100)
    h.check_call(2)
    h.check_call(0)
    eq((h.phase, h.street), ("deal", 1))  # the dead big blind gets no option
    eq(h.pot_total(), 300)


def test_BET_43_kill_after_acting_a_called_hand_is_out_and_the_turn_order_skips_it():
    h = dealt(4)
    h.check_call(2)  # position 2 called 100; position 3 to act
    h.kill(2)
    eq(h.live, [True, True, False, True])
    eq(h.stacks[2], 900)  # a call is no bet of its own: nothing comes back
    eq(h.actor, 3)
    h.bet_raise_to(3, 300)
    h.check_call(0)
    h.check_call(1)
    eq((h.phase, h.street), ("deal", 1))  # position 2 was never asked again


def test_kill_of_the_actor_passes_the_turn():
    h = dealt()
    eq(h.actor, 2)
    h.kill(2)
    eq(h.actor, 0)
    eq(h.stacks[2], 1000)


def test_GAME_5_kill_out_of_turn_closes_the_street_when_the_rest_have_matched():
    h = dealt()
    h.check_call(2)
    h.check_call(0)
    h.check_call(1)
    to_flop(h)
    h.check_call(0)
    h.check_call(1)  # position 2 is the last to act on the flop
    eq(h.actor, 2)
    h.kill(1)  # another hand killed: position 2 still to act
    eq(h.actor, 2)
    h.kill(2)  # and the actor's too: one live hand left
    eq(h.finished, True)
    eq(h.stacks, [1200, 900, 900])  # GAME-6: the last live hand wins the pot


def test_GAME_6_killing_a_bettor_heads_up_returns_the_bet_and_the_other_hand_wins():
    h = dealt(2)
    h.check_call(1)  # heads-up: the button (SB, position 1) completes
    h.bet_raise_to(0, 500)  # the BB raises; the button to act
    h.kill(0)
    eq(h.finished, True)
    eq(h.stacks, [1000 - 100, 1000 + 100])  # the 400 raise came back; the button wins the 100


def test_kill_all_in_hand_returns_the_uncalled_part_and_it_cannot_win():
    h = dealt(3, stacks=600)
    h.bet_raise_to(2, 600)  # all-in
    h.check_call(0)  # the SB calls 600: all of it is called
    h.kill(2)
    eq(h.stacks[2], 0)
    eq(h.live, [True, True, False])
    eq(h.actor, 1)
    h.check_call(1)
    eq((h.phase, h.street), ("deal", 1))
    for burn, board in ((40, [44, 45, 46]), (41, [47]), (42, [48])):
        h.burn(burn)
        h.deal_board(board)
        if h.phase == "bet":
            h.check_call(h.actor)
            h.check_call(h.actor)
    eq(h.phase, "showdown")
    eq(sorted(h.show_order()), [0, 1])  # the killed all-in hand is not asked to table
    for p in h.show_order():
        h.show(p)
    eq(h.finished, True)
    eq(sum(h.stacks), 1800)
    eq(h.stacks[2], 0)  # the dead all-in hand won nothing


def test_kill_all_in_for_less_bet_partly_called_keeps_the_called_part():
    h = Hand("NT", [1000, 1000, 1000, 300], blinds=[50, 100, 0, 0])
    for p in range(4):
        h.deal_hole(p, [4 * p, 4 * p + 1])
    h.bet_raise_to(2, 800)
    h.check_call(3)  # all-in for 300: calls part of the 800
    h.kill(2)
    eq(h.stacks[2], 700)  # 500 uncalled came back, the 300 called stays
    eq(h.bets, [50, 100, 300, 300])
    eq(h.actor, 0)
    eq(h.legal().call, 250)


def test_kill_refusals_name_the_rule_and_change_nothing():
    h = dealt()
    h.kill(2)
    before = state(h)
    with raises(RuleError) as e:
        h.kill(2)
    eq(e.value.rule, "DEAL-38")  # dead already
    with raises(RuleError) as e:
        h.kill(7)
    eq(e.value.rule, "DEAL-38")
    h.kill(1)  # one live hand left: the hand is over, the SB wins
    eq(h.finished, True)
    with raises(RuleError) as e:
        h.kill(0)
    eq(e.value.rule, "GAME-6")
    # the SB wins what it matched of the dead big blind (50 of it); the other 50 was matched by
    # nobody and goes back, as any unmatched chips do (POT-2)
    eq(h.stacks, [1050, 950, 1000])
    eq(before[0], "bet")


def test_SHOW_13_a_tabled_hand_cannot_be_killed_and_the_last_live_hand_is_refused_GAME_6():
    h = dealt(2)
    h.check_call(1)
    h.check_call(0)
    for burn, board in ((40, [44, 45, 46]), (41, [47]), (42, [48])):
        h.burn(burn)
        h.deal_board(board)
        h.check_call(h.actor)
        h.check_call(h.actor)
    eq(h.phase, "showdown")
    first = h.show_order()[0]
    h.show(first)
    before = state(h)
    with raises(RuleError) as e:
        h.kill(first)
    eq(e.value.rule, "SHOW-13")
    eq(state(h), before)
    other = 1 - first
    h.kill(other)  # an untabled hand at the showdown: dead, the tabled one wins
    eq(h.finished, True)
    eq(h.stacks[first], 1100)


def test_GAME_11_the_bring_in_owner_cannot_be_killed_before_posting():
    h = Hand("F7S", [1000, 1000, 1000], antes=5, bring_in=10, small_bet=20, big_bet=40)
    cards = [[0, 4, 8], [1, 5, 9], [2, 6, 50]]  # position 0 shows the lowest upcard (2c)
    for p in range(3):
        h.deal_hole(p, cards[p])
    opener = h.actor
    before = state(h)
    with raises(RuleError) as e:
        h.kill(opener)
    eq(e.value.rule, "GAME-11")
    eq(state(h), before)
    h.post_bring_in(opener)
    h.kill(opener)  # now it may be killed; the bring-in is a forced bet and stays
    eq(h.stacks[opener], 1000 - 5 - 10)


def test_DEAL_36_limit_a_returned_raise_gives_back_its_place_under_the_cap_BET_4():
    h = Hand("FT", [1000] * 3, blinds=[5, 10, 0], small_bet=10, big_bet=20)
    for p in range(3):
        h.deal_hole(p, [4 * p, 4 * p + 1])
    h.bet_raise_to(2, 20)  # the first raise (the posted BB counts as the bet)
    eq(h.round.count, 2)
    h.kill(2)
    eq(h.round.count, 1)  # the returned raise no longer counts toward the cap
    eq(h.round.high, 10)
    eq(h.stacks[2], 990)  # 10 returned; the 10 matching the big blind stays
    eq(h.legal().call, 5)
    eq((h.legal().min_to, h.legal().max_to), (20, 20))  # the SB may raise to 20, as before it


# ---- a hand killed before the betting begins (BLIND-23: an absent or penalised tournament seat
# is dealt in, pays, and is killed at the start of the hand) -----------------------------------

def test_POT_2_POT_17_absent_big_blind_killed_at_the_deal_everyone_folds_gets_back_the_unmatched_50():
    # 4-handed NL 50/100, the big blind (position 1) absent: killed before the betting, it is
    # passed by; everyone folds to the small blind, whose 50 matched only half of the dead 100
    h = Hand("NT", [1000] * 4, blinds=[50, 100, 0, 0])
    h.kill(1)
    for p in (0, 2, 3):
        h.deal_hole(p, [4 * p, 4 * p + 1])
    h.fold(2)
    h.fold(3)
    eq(h.finished, True)
    eq(h.stacks, [1050, 950, 1000, 1000])


def test_POT_2_POT_17_heads_up_absent_big_blind_killed_at_the_deal_gets_back_the_unmatched_50():
    # The same situation heads-up: the kill leaves one live hand and ends the hand at once
    # (GAME-6), before any betting. The dead big blind (position 0) is layered with its payer's
    # chips (POT-17, POT-3/4): the 50 the small blind matched is won, the 50 nobody matched goes
    # back (POT-2: also when the bettor's hand is killed before anyone calls) -- as 4-handed.
    h = Hand("NT", [1000, 1000], blinds=[50, 100])
    eq(h.committed, [100, 50])  # heads-up: the button (position 1) posts the small blind
    op = h.kill(0)
    eq(h.finished, True)
    eq(h.stacks, [950, 1050])
    eq(sum(h.stacks), 2000)
    eq([o.kind for o in h.log if o.kind in ("return", "win")], ["return", "win"])
    eq(op.kind, "kill")


def test_POT_2_heads_up_absent_small_blind_killed_at_the_deal_the_big_blind_wins_the_50():
    h = Hand("NT", [1000, 1000], blinds=[50, 100])
    h.kill(1)  # the button's small blind is dead: the big blind's own unmatched 50 comes back
    eq(h.finished, True)
    eq(h.stacks, [1050, 950])


def test_POT_2_stud_absent_seat_antes_only_killed_at_the_deal_heads_up_antes_go_to_the_other():
    # antes are no street bet: a dead ante is won whole by the last live hand (POT-17: antes are
    # layered, and the live hand's own ante matches it)
    h = Hand("F7S", [1000, 1000], antes=5, bring_in=10, small_bet=20, big_bet=40)
    h.kill(1)
    eq(h.finished, True)
    eq(h.stacks, [1005, 995])
