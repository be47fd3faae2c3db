# `feltctl sim --replay FILE.phh --json`: a hand history turned into physical events (shoe draws,
# cards on antennas, burns, console actions) and played by the real firmware on the simulated table
# prints the same finishing stacks and pots as `feltctl replay`, plus the final lights and alerts.
import json
import os
import subprocess
import sys

import pytest

from felt.history import phh
from felt.history import replay_main
from felt.history.selfplay import Rng, history_of, play_hand
from feltctl.table_sim import phh2events
from feltctl.commands.sim import replay_file
from feltctl.paths import REPO

CORPUS = os.path.join(os.path.dirname(REPO), "shared", "phh", "data")
# one seeded hand per game the table plays (the bots of felt.history.selfplay), six seats
GAMES = (
    ("NT", {"blinds": (50, 100), "min_bet": 100}),
    ("PO", {"blinds": (50, 100), "min_bet": 100}),
    ("FT", {"blinds": (50, 100), "small_bet": 100, "big_bet": 200}),
    ("FO/8", {"blinds": (50, 100), "small_bet": 100, "big_bet": 200}),
    ("F7S", {"ante": 10, "bring_in": 25, "small_bet": 100, "big_bet": 200}),
    ("F7S/8", {"ante": 10, "bring_in": 25, "small_bet": 100, "big_bet": 200}),
    ("F5S", {"ante": 10, "bring_in": 25, "small_bet": 100, "big_bet": 200}),
    ("F5D", {"blinds": (50, 100), "small_bet": 100, "big_bet": 200}),
)
SAMPLES = ("pluribus/83/6.phh", "dwan-ivey-2009.phh", "antonius-blom-2009.phh", "wsop/2023/43/5/79.phh",
           "wsop/2023/43/5/53.phh")
HEADS_UP = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 100]
actions = ['d dh p1 AhAd', 'd dh p2 KhKd', 'p2 cbr 6', 'p1 cbr 200', 'p2 cc',
  'd db 2c3c4d', 'd db 9s', 'd db Jh', 'p1 sm AhAd', 'p2 sm KhKd']
players = ['Ann', 'Bob']
"""


def reference(path):
    return replay_main.results_for(path)[0]


def same_as_replay(path, runtime="micropython"):
    out, status = replay_file(path, runtime)
    ref = reference(path)
    assert "error" not in ref, ref
    assert status == 0, out
    assert out["finishing_stacks"] == ref["finishing_stacks"]
    assert out["pots"] == ref["pots"]
    assert out["variant"] == ref["variant"]
    return out


def _write_hand(tmp_path, k, code, structure):
    rng = Rng(100 + k)
    seats = [1, 2, 3, 4, 5, 6]
    hand, actions = play_hand(code, structure, [3000, 2500, 4000, 1500, 3500, 2000], seats, rng)
    path = tmp_path / ("%d-%s.phh" % (k, code.replace("/", "")))
    path.write_text(phh.write(history_of(code, structure, hand, actions, seats, k)))
    return str(path)


@pytest.mark.parametrize("k", range(len(GAMES)))
def test_every_game_on_the_table_equals_feltctl_replay(tmp_path, k):
    code, structure = GAMES[k]
    out = same_as_replay(_write_hand(tmp_path, k, code, structure))
    assert out["alerts"] == []  # a well-dealt hand raises nothing
    assert set(out["indicators"]["seats"]) == set(["1", "2", "3", "4", "5", "6"])
    assert out["indicators"]["lights"]["action"] is None  # the hand is over


def test_heads_up_button_posts_the_small_blind(tmp_path):
    path = tmp_path / "hu.phh"
    path.write_text(HEADS_UP)
    out = same_as_replay(str(path))
    assert out["finishing_stacks"] == [300, 0]
    assert out["players"] == ["Ann", "Bob"]
    assert out["indicators"]["seats"]["2"] == ["button"]  # p2 holds the button heads-up


@pytest.mark.parametrize("name", SAMPLES)
def test_corpus_sample_equals_feltctl_replay(name):
    path = os.path.join(CORPUS, name)
    if not os.path.exists(path):
        pytest.skip("the shared PHH corpus is not here")
    same_as_replay(path)


def test_cli_prints_the_replay_json_plus_indicators_and_alerts(tmp_path):
    path = _write_hand(tmp_path, 0, *GAMES[0])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(REPO, "host_tools") + os.pathsep + os.path.join(REPO, "firmware")
    out = subprocess.run([sys.executable, "-m", "feltctl", "sim", "--replay", path, "--json"], capture_output=True,
                         text=True, env=env, cwd=REPO, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    got = json.loads(out.stdout)
    ref = subprocess.run([sys.executable, "-m", "feltctl", "replay", path, "--json"], capture_output=True,
                         text=True, env=env, cwd=REPO, timeout=300)
    want = json.loads(ref.stdout)
    for key in want:
        assert got[key] == want[key], key
    assert set(got) == set(want) | {"indicators", "alerts"}


def test_unsupported_variant_is_an_error(tmp_path):
    path = tmp_path / "razz.phh"
    path.write_text(HEADS_UP.replace("'NT'", "'FR'"))
    out, status = replay_file(str(path), "cpython")
    assert status == 1
    assert "not playable on the table" in out["error"] and "FR" in out["error"]


def test_events_deal_round_robin_and_burn_before_each_street():
    h = phh2events.read(HEADS_UP)
    texts = [e.text for e in phh2events.convert(h).events]
    assert texts[:4] == ["table holdem no_limit seats=2 sb=1 bb=2 button=2", "seat 1 200", "seat 2 100", "hand"]
    # one card at a time, p1 (left of the button heads-up) first
    assert texts[4:8] == ["draw Ah to seat 1", "draw Kh to seat 2", "draw Ad to seat 1", "draw Kd to seat 2"]
    board = [t for t in texts if t.endswith("to board") or t.endswith("to burn")]
    assert [t.split()[-1] for t in board] == ["burn", "board", "board", "board", "burn", "board", "burn", "board"]


# A file that cannot be read is the same error object as `feltctl replay` prints for it (the two
# worded it differently: Python's exception text vs "cannot read the file (errno 2)").
@pytest.mark.parametrize("name,data", [("missing.phh", None), ("latin1.phh", b"variant = 'NT' # \xe9t\xe9\n"),
                                       ("folder.phh", "dir")])
def test_an_unreadable_file_is_the_same_error_object_as_feltctl_replay(tmp_path, name, data):
    path = tmp_path / name
    if data == "dir":
        path.mkdir()
    elif data is not None:
        path.write_bytes(data)
    out, status = replay_file(str(path), "cpython")
    assert status == 1
    assert out == reference(str(path))


@pytest.mark.parametrize("wrong", ["'p2 sm KhKd'", "'d dh p2 KhKd'", "'p2 cc'"])
def test_an_action_of_a_player_the_hand_does_not_have_is_an_error_object_not_a_traceback(tmp_path, wrong):
    # 'p3 ...' in a two-player history was an IndexError traceback out of phh2events (feltctl
    # replay names it: SHOW-1 "position 2 holds no live hand" and the line)
    path = tmp_path / "p3.phh"
    path.write_text(HEADS_UP.replace(wrong, wrong.replace("p2", "p3")))
    out, status = replay_file(str(path), "cpython")
    assert status == 1 and "p3" in out["error"] and out["line"] is not None, out


def test_a_one_hand_phhs_file_carries_hand_as_in_feltctl_replay(tmp_path):
    # feltctl replay names the hand of a .phhs file ("hand": "7"); sim --replay dropped it, so its
    # JSON was not "feltctl replay's plus indicators and alerts" for such a file
    path = tmp_path / "one.phhs"
    path.write_text("[7]\n" + HEADS_UP)
    out = same_as_replay(str(path), "cpython")
    ref = reference(str(path))
    assert out["hand"] == ref["hand"] == "7"
    assert set(out) == set(ref) | {"indicators", "alerts"}
