# The power-loss proof of test_power_loss.py with the journal on the raw flash ring
# (felt.recovery.ring): kills at every k-th flash program, cut at the same byte offsets.
from check import eq

import kit


def test_holdem_on_the_ring_survives_kills():
    kills = kit.check_game("holdem", 5, [(6, 0), (6, 4)], ring=True)
    eq(kills > 10, True, "enough kills happened (%d)" % kills)


def test_stud7_on_the_ring_survives_kills():
    kit.check_game("stud7", 6, [(7, 2)], ring=True)
