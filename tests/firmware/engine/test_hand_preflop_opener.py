# Preflop first to act after extra live blinds (engine layer, Hand + button): GAME-3 -- left of
# the big blind, or of the straddle (BLIND-20). A returning player's make-up BB (BLIND-14) or a
# new player's BB (BLIND-16) is live (BLIND-11) but is no straddle: it acts in turn and keeps the
# option. The Hand agrees with button.next_hand's first_to_act; only a PHH replay
# (phh_order=True) reads equal largest blinds as pokerkit 0.7.7 does (the later one opens).
from check import eq
from felt.engine.between_hands.blinds import ACTIVE, BACK, NEW, Seat, next_hand, previous, table_of
from felt.engine.games import GAMES
from felt.engine.hand.machine import Hand


def dealt(blinds, dead=(), phh_order=False, n=6):
    h = Hand(game=GAMES["NT"], stacks=[2000] * n, blinds=blinds, dead=dead, phh_order=phh_order)
    for p in range(n):
        h.deal_hole(p, [4 * p, 4 * p + 1])
    return h


def test_GAME_3_makeup_bb_does_not_move_the_opener_BLIND_14():
    # positions 0 SB, 1 BB, 2, 3 (returns: 100 live + 50 dead), 4, 5 = button
    h = dealt([50, 100, 0, 100, 0, 0], dead=[0, 0, 0, 50, 0, 0])
    eq(h.actor, 2)
    h.fold(2)
    eq(h.actor, 3)
    lg = h.legal()
    eq((lg.call, lg.can_check, lg.can_raise), (0, True, True))  # "may check when the action reaches them"
    h.check_call(3)
    for p in (4, 5, 0):
        h.check_call(p)
    eq(h.actor, 1)  # BLIND-9: the big blind still has its option
    h.check_call(1)
    eq((h.street, h.phase), (1, "deal"))
    eq(h.pot_total(), 50 + 5 * 100)  # the dead 50 and five live 100s


def test_GAME_3_makeup_poster_may_raise_when_action_reaches_it_BLIND_11():
    h = dealt([50, 100, 0, 100, 0, 0], dead=[0, 0, 0, 50, 0, 0])
    h.check_call(2)  # calls 100
    h.bet_raise_to(3, 300)  # its live 100 counts: it adds 200
    eq(h.stacks[3], 2000 - 50 - 300)
    eq(h.actor, 4)


def test_BLIND_16_new_player_bb_on_the_button_acts_last_before_the_blinds():
    h = dealt([50, 100, 0, 0, 0, 100])
    eq(h.actor, 2)
    for p in (2, 3, 4):
        h.fold(p)
    eq(h.actor, 5)
    eq(h.legal().call, 0)


def test_BLIND_20_a_straddle_still_opens_left_of_it():
    for phh_order in (False, True):
        h = dealt([50, 100, 200, 0, 0, 0], phh_order=phh_order)
        eq(h.actor, 3)


def test_phh_order_reads_equal_blinds_as_pokerkit():
    # PHH cannot tell a make-up from a straddle: pokerkit 0.7.7 opens left of the later of two
    # equal largest blinds, and a replayed file must open as it was recorded
    eq(dealt([50, 100, 0, 100, 0, 0], phh_order=True).actor, 4)
    eq(dealt([50, 100, 0, 0, 0, 0], phh_order=True).actor, 2)


def test_BLIND_14_BLIND_16_hand_opener_agrees_with_button_first_to_act():
    # the table builds its Hand from button.next_hand's setup: both must name the same opener
    t = table_of([ACTIVE] * 9)
    t[3] = Seat(BACK, post=True, missed_sb=True, missed_bb=True)  # seat 4 makes up both blinds
    t[5] = Seat(NEW, post=True)  # seat 6 is new and posts a BB
    setup = next_hand(t, previous(7, 8, 9), sb=100, bb=200)
    n = len(setup.seats)
    h = Hand(game=GAMES["NT"], stacks=[5000] * n, blinds=setup.blinds_or_straddles, dead=setup.dead)
    for p in range(n):
        h.deal_hole(p, [4 * p, 4 * p + 1])
    eq(h.actor, setup.first_to_act)
    eq(setup.seats[h.actor], 2)  # seat 2: first seat left of the big blind on seat 1
