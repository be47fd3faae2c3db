# PHH replay opens preflop as pokerkit 0.7.7 does when two blinds tie for the largest (the later
# one opens the action to its left), while the table's Hand follows GAME-3 (left of the big blind:
# a make-up or new player's live BB does not move it, BLIND-14/16). CPython only (pokerkit).
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "firmware"))

from pokerkit import HandHistory  # noqa: E402

from felt.history import replay  # noqa: E402
from felt.engine.games import GAMES  # noqa: E402
from felt.engine.hand.machine import Hand  # noqa: E402

TEXT = """variant = 'NT'
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [50, 100, 0, 100, 0, 0]
min_bet = 100
starting_stacks = [2000, 2000, 2000, 2000, 2000, 2000]
actions = ['d dh p1 AcAd', 'd dh p2 KcKd', 'd dh p3 QcQd', 'd dh p4 JcJd', 'd dh p5 TcTd', 'd dh p6 9c9d', %s]
"""


def pokerkit_states(text):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(HandHistory.loads(text))


def test_tied_largest_blinds_replay_in_pokerkit_order():
    assert pokerkit_states(TEXT % "'p5 f'")[-1].actor_index == 5  # p5 opened, p6 is next
    text = TEXT % "'p5 f', 'p6 f', 'p1 f', 'p2 f', 'p3 f'"  # folds to p4's tied 100
    ours = replay.replay_text(text)[0]
    assert ours["finishing_stacks"] == list(pokerkit_states(text)[-1].stacks), ours
    assert ours["finishing_stacks"] == [1950, 1900, 2000, 2150, 2000, 2000]
    # (pokerkit 0.7.7 applies an action to whoever is to act, whatever player it names; Felt checks)
    refused = replay.replay_text(TEXT % "'p3 f'")[0]  # p3 would open only under GAME-3
    assert refused.get("rule") == "BET-38", refused


def test_GAME_3_table_hand_opens_left_of_the_big_blind():
    h = Hand(game=GAMES["NT"], stacks=[2000] * 6, blinds=[50, 100, 0, 100, 0, 0], dead=[0, 0, 0, 50, 0, 0])
    for p in range(6):
        h.deal_hole(p, [4 * p, 4 * p + 1])
    assert h.actor == 2
