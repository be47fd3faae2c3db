# Blackjack is loaded only by a table configured for it (issue 17; RAM for poker tables, issue 19):
# importing the poker firmware -- runtime, controller, view, journal recovery, replay, the sim -- and
# replaying a PHH hand must not import any blackjack module.
import subprocess
import sys

from feltctl.paths import FIRMWARE

PROBE = """
import sys
import felt.runtime.app, felt.runtime.loop, felt.table.controller, felt.view, felt.recovery.restore
import felt.history.replay_main, felt.sim.runner
from felt.history import replay
replay.replay_text(open(sys.argv[1]).read())
bj = sorted(m for m in sys.modules if "blackjack" in m)
print("blackjack modules:", bj)
sys.exit(1 if bj else 0)
"""

HAND = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 100]
actions = ['d dh p1 AhAd', 'd dh p2 KhKd', 'p2 cbr 6', 'p1 cbr 200', 'p2 cc', 'd db 2c3c4d', 'd db 9s', 'd db Jh',
  'p1 sm AhAd', 'p2 sm KhKd']
finishing_stacks = [300, 0]
"""


def test_poker_path_imports_no_blackjack_module(tmp_path):
    hand = tmp_path / "hand.phh"
    hand.write_text(HAND)
    out = subprocess.run([sys.executable, "-c", PROBE, str(hand)], capture_output=True, text=True, cwd=FIRMWARE,
                         timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "blackjack modules: []" in out.stdout


def test_the_probe_sees_a_blackjack_import(tmp_path):
    hand = tmp_path / "hand.phh"
    hand.write_text(HAND)
    probe = PROBE.replace("import felt.history.replay_main,", "import felt.table.blackjack, felt.history.replay_main,")
    out = subprocess.run([sys.executable, "-c", probe, str(hand)], capture_output=True, text=True, cwd=FIRMWARE,
                         timeout=120)
    assert out.returncode == 1 and "felt.engine.blackjack" in out.stdout, out.stdout + out.stderr
