# `feltctl sim --replay FILE.phh --kill-every N --json`: the firmware power-cycled after every N input
# events (rebuilt from its journal by felt.recovery.restore.restore_table, felt.sim.powerloss.PowerSim) prints
# the same JSON as the uninterrupted replay, plus how many restarts it took (hardware/journal.md).
import json
import os
import subprocess
import sys

import pytest

from felt.history import phh
from felt.history.selfplay import Rng, history_of, play_hand
from feltctl.commands.sim import replay_file
from feltctl.paths import REPO

CORPUS = os.path.join(os.path.dirname(REPO), "shared", "phh", "data")
HEADS_UP = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 100]
actions = ['d dh p1 AhAd', 'd dh p2 KhKd', 'p2 cbr 6', 'p1 cbr 200', 'p2 cc',
  'd db 2c3c4d', 'd db 9s', 'd db Jh', 'p1 sm AhAd', 'p2 sm KhKd']
players = ['Ann', 'Bob']
"""
# seeded six-seat hands of the table's bots (felt.history.selfplay): a flop game and a stud game
GAMES = {
    "NT": {"blinds": (50, 100), "min_bet": 100},
    "F7S": {"ante": 10, "bring_in": 25, "small_bet": 100, "big_bet": 200},
}
HANDS = ("heads-up", "NT", "F7S", "corpus:dwan-ivey-2009.phh")


def _hand_file(tmp_path, name):
    if name == "heads-up":
        path = tmp_path / "hu.phh"
        path.write_text(HEADS_UP)
        return str(path)
    if name.startswith("corpus:"):
        path = os.path.join(CORPUS, name.split(":", 1)[1])
        if not os.path.exists(path):
            pytest.skip("PHH corpus sample absent: %s" % path)
        return path
    seats = [1, 2, 3, 4, 5, 6]
    hand, actions = play_hand(name, GAMES[name], [3000, 2500, 4000, 1500, 3500, 2000], seats, Rng(7))
    path = tmp_path / ("%s.phh" % name)
    path.write_text(phh.write(history_of(name, GAMES[name], hand, actions, seats, 1)))
    return str(path)


@pytest.mark.parametrize("name", HANDS)
def test_kill_every_3_and_5_prints_the_uninterrupted_result(tmp_path, name):
    path = _hand_file(tmp_path, name)
    want, status = replay_file(path)
    assert status == 0, want
    assert "restarts" not in want
    for every in (3, 5):
        got, status = replay_file(path, kill_every=every)
        assert status == 0, (every, got)
        restarts = got.pop("restarts")
        assert restarts > 0, (every, restarts)
        assert got == want, every


def test_kill_every_counts_restarts_per_input_event(tmp_path):
    # the heads-up hand is 2 seats + table + a dozen events: every 3 restarts more often than every 5
    path = _hand_file(tmp_path, "heads-up")
    r3 = replay_file(path, kill_every=3)[0]["restarts"]
    r5 = replay_file(path, kill_every=5)[0]["restarts"]
    assert r3 > r5 > 0, (r3, r5)


def test_kill_every_below_3_is_refused_with_a_clear_error(tmp_path):
    # every 2 can livelock (a boot's re-reported cards fill the gap between two restarts)
    path = _hand_file(tmp_path, "heads-up")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(REPO, "host_tools") + os.pathsep + os.path.join(REPO, "firmware")
    proc = subprocess.run([sys.executable, "-m", "feltctl", "sim", "--replay", path, "--kill-every", "2", "--json"],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert proc.returncode == 2, proc.stderr
    out = json.loads(proc.stdout)
    assert out["error"] == "--kill-every must be at least 3 (got 2)"
    assert "finishing_stacks" not in out


def test_a_hand_finished_across_power_cuts_writes_one_history_that_replays(tmp_path):
    # nothing is lost: the PHH the firmware writes when the hand ends after restarts is the same
    # text as without them, written once (the hand log keeps it across a cut), and it replays
    from felt.history.replay import replay_text
    from feltctl.table_sim import phh2events
    from feltctl.table_sim.process import SimProcess

    path = _hand_file(tmp_path, "heads-up")
    conv = phh2events.convert(phh2events.read(open(path).read()))
    texts = {}
    for every in (None, 3):
        with SimProcess("micropython", kill_every=every) as proc:
            for ev in conv.events:
                proc.send(ev.text)
            snap = proc.state()
        assert snap["street"] == "over", snap
        assert len(snap["phh"]) == 1, (every, snap["phh"])
        texts[every] = snap["phh"][0]
    assert texts[3] == texts[None]
    got = replay_text(texts[3])[0]
    assert "error" not in got, got
    assert got["finishing_stacks"] == [300, 0], got
