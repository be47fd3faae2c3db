# A hand the table plays with a live make-up post (BLIND-14) opens preflop left of the big blind
# (GAME-3), while a PHH reader takes a later blind of the same size for a straddle: the table's
# history carries the user field _felt_game3_opener, and felt.history.replay replays it to the table's own
# finishing stacks. Without a make-up the field is not written. Runs on CPython and MicroPython.
import check
from check import eq

from felt.history import phh
from felt.history import replay
from felt.sim.runner import Sim

SCRIPT = "tests/bench_scripts/blind14_missed_blinds_makeup.felt"


def _root():
    return check.repo_path("")


def _play(path):
    written = []
    sim = Sim(history=written.append)
    with open(_root() + path) as f:
        for line in f.read().split("\n"):
            body = line.split("#", 1)[0].strip()
            if body and body.split()[0] not in ("version", "expect"):
                sim.run(body)
    return written


def test_GAME_3_BLIND_14_make_up_hand_history_replays_to_the_table_stacks():
    written = _play(SCRIPT)
    eq(len(written), 4)
    marked = [t for t in written if "_felt_game3_opener = true" in t]
    eq(len(marked), 1)  # only the hand with seat 4's live make-up post
    for text in written:
        h = phh.read(text)
        got = replay.replay(h)
        assert "error" not in got, (got, text)
        eq(got["finishing_stacks"], h.finishing_stacks)
    # the same file read as a plain PHH reader does (no field): the action opens elsewhere
    # and the recorded first action (seat 4 checks) is out of turn
    plain = marked[0].replace("_felt_game3_opener = true\n", "")
    got = replay.replay(phh.read(plain))
    assert "error" in got, got
