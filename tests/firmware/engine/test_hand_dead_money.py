# Dead blind money in the Hand (engine layer): the dead small blind of a missed-blind make-up
# (BLIND-14) leaves the payer's stack, goes to the main pot and does not count toward the payer's
# call or bet (POT-17); a short stack pays the live blind first.
from check import eq, raises
from felt.engine.cards import parse_cards
from felt.engine.games import GAMES
from felt.engine.hand.machine import Hand
from felt.errors import ConfigError

HOLE = ["AcKd", "7h7s", "2c3d", "9s9d"]


def makeup_hand(stacks=(1000, 1000, 1000, 1000)):
    # button position 3; SB 0, BB 1; position 2 posts a big blind live and the small blind dead
    h = Hand(game=GAMES["NT"], stacks=list(stacks), blinds=[50, 100, 100, 0], dead=[0, 0, 50, 0])
    for p in range(4):
        h.deal_hole(p, parse_cards(HOLE[p]))
    return h


def test_BLIND_14_POT_17_dead_small_blind_is_in_the_pot_not_in_the_bet():
    h = makeup_hand()
    eq(h.stacks, [950, 900, 850, 1000])
    eq(h.pot_total(), 300)
    eq(h.dead_posted, [0, 0, 50, 0])
    eq(h.actor, 2)  # GAME-3: left of the big blind; the make-up's live BB does not move it
    eq(h.legal().call, 0)  # its live 100 matches the big blind: it may check (BLIND-14)
    h.check_call(2)
    h.bet_raise_to(3, 300)
    h.fold(0)
    h.fold(1)
    eq(h.legal().call, 200)  # its live 100 counts, the dead 50 does not
    h.check_call(2)
    eq(h.stacks, [950, 900, 650, 700])
    eq(h.pot_total(), 800)
    pots = h.pots()
    eq([p.amount for p in pots], [800])


def test_dead_money_goes_to_the_winner_of_the_main_pot_and_chips_are_conserved():
    h = makeup_hand()
    h.check_call(2)  # first to act (GAME-3): checks its live 100
    for p in (3, 0, 1):
        h.fold(p)  # everyone else folds: position 2 takes the pot
    eq(h.finished, True)
    eq(h.stacks, [950, 900, 1150, 1000])
    eq(sum(h.stacks), 4000)


def test_a_short_stack_pays_the_live_blind_first_then_what_is_left_dead():
    h = makeup_hand(stacks=(1000, 1000, 120, 1000))
    eq(h.stacks[2], 0)
    eq(h.dead_posted, [0, 0, 20, 0])
    eq(h.pot_total(), 270)


def test_dead_money_must_be_whole_chips():
    with raises(ConfigError):
        Hand(game=GAMES["NT"], stacks=[100, 100, 100], blinds=[5, 10], dead=[0, -5, 0])
