# Blackjack is loaded only by a table configured for it (issue 17; RAM for poker tables, issue 19):
# importing the poker firmware -- runtime, controller, view, journal recovery, replay, the sim -- and
# replaying a PHH hand must not import any blackjack module.
import os
import subprocess
import sys

import pytest

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


# ---- the assembled board (issue 17 item 5): felt.runtime.app.run boots a poker table and runs its
# loop without loading any blackjack module, on CPython and on the MicroPython unix port; the same
# probe with a blackjack table.json loads them (the control) ---------------------------------------

BOARD_PROBE = """
import json, os, sys
from felt.hal.sim.hal import SimHAL
from felt.runtime import app
from felt.sim.board_map import card_uid, sim_board
root, game = sys.argv[1], sys.argv[2]
try:
    os.mkdir(root)
except OSError:
    pass
if game == "blackjack":
    decks = {}
    for d in "ABCDEF":
        decks[d] = dict([("".join(["%02X" % b for b in card_uid(c, d)]), c) for c in range(52)])
    with open(root + "/decks.json", "w") as f:
        json.dump(decks, f)
    with open(root + "/table.json", "w") as f:
        json.dump({"game": "blackjack", "decks": list("ABCDEF")}, f)
a = app.run(SimHAL(), sim_board(3), root, log=lambda line: None, steps=30)
print("table:", type(a.table).__name__)
print("blackjack modules:", sorted([m for m in sys.modules if "blackjack" in m]))
print("poker modules:", sorted([m for m in sys.modules if m in ("felt.table.controller", "felt.view",
                                                                 "felt.runtime.loop", "felt.security.secrecy")]))
"""


def _board_probe(tmp_path, runtime, game):
    from feltctl.commands.replay import compiled_firmware
    from feltctl.paths import micropython_binary

    probe = tmp_path / "probe.py"
    probe.write_text(BOARD_PROBE)
    root = str(tmp_path / ("data_" + game))
    env = dict(os.environ)
    if runtime == "micropython":
        env["MICROPYPATH"] = compiled_firmware()
        cmd = [micropython_binary(), "-X", "heapsize=4M", str(probe), root, game]
    else:
        env["PYTHONPATH"] = FIRMWARE
        cmd = [sys.executable, str(probe), root, game]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=FIRMWARE, env=env, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_a_poker_board_boots_and_runs_without_loading_blackjack(tmp_path, runtime):
    out = _board_probe(tmp_path, runtime, "holdem")
    assert "table: Table" in out and "blackjack modules: []" in out, out


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_a_blackjack_board_loads_its_modules(tmp_path, runtime):
    out = _board_probe(tmp_path, runtime, "blackjack")
    assert "table: BlackjackTable" in out, out
    for m in ("felt.runtime.blackjack", "felt.table.blackjack", "felt.engine.blackjack.round"):
        assert m in out, out
    # the other way round (RAM): a blackjack table does not carry the poker controller, view, loop or
    # secrecy feed either (before: 'felt.table.controller', 'felt.view' came in through
    # felt.runtime.loop and felt.recovery.restore; the poker peer's table on the same board holds them)
    assert "poker modules: []" in out, out
