# `feltctl sim --demo`: seeded hands of several games played on the real firmware inside MicroPython,
# shown live, the firmware's PHH histories written, chips conserved; and the interactive `feltctl sim`
# (statements typed on stdin) shows lights, display and alerts after each step.
import os
import subprocess
import sys

from felt.history import replay
from feltctl.paths import REPO


def _feltctl(argv, stdin=None, timeout=300):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(REPO, "host_tools") + os.pathsep + os.path.join(REPO, "firmware")
    return subprocess.run([sys.executable, "-m", "feltctl"] + argv, input=stdin, capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=timeout)


def test_demo_plays_on_micropython_and_conserves_chips(tmp_path):
    out_dir = tmp_path / "hands"
    (tmp_path / "hands").mkdir()
    (out_dir / "099-NT.phh").write_text("stale")  # a re-run replaces the previous series...
    (out_dir / "old.phh").write_text("mine")  # ...and only that: other histories are the user's
    res = _feltctl(["sim", "--demo", "--hands", "8", "--seed", "3", "--out", str(out_dir)])
    text = res.stdout
    assert res.returncode == 0, text[-3000:] + res.stderr[-2000:]
    assert "real firmware (micropython)" in text
    assert "chips conserved: yes" in text
    assert "firmware stacks equal the players' engine: 8 of 8 hands" in text
    assert "alerts: 0" in text
    assert "lights" in text and "result: seat" in text  # live lights and results per hand
    files = sorted(os.listdir(str(out_dir)))
    assert len(files) == 9 and "099-NT.phh" not in files, files
    assert (out_dir / "old.phh").read_text() == "mine"
    files.remove("old.phh")
    games = set()
    for name in files:
        with open(os.path.join(str(out_dir), name)) as f:
            body = f.read()
        r = replay.replay_text(body)[0]
        assert "error" not in r, (name, r)
        start = sum(replay.phh.read(body).starting_stacks)
        assert sum(r["finishing_stacks"]) == start, name  # chips conserved hand by hand
        games.add(r["variant"])
    assert len(games) >= 3, games  # several games


def test_demo_is_deterministic_for_a_seed(tmp_path):
    a = _feltctl(["sim", "--demo", "--hands", "3", "--seed", "5", "--out", str(tmp_path / "a"), "--runtime", "cpython"])
    b = _feltctl(["sim", "--demo", "--hands", "3", "--seed", "5", "--out", str(tmp_path / "b"), "--runtime", "cpython"])
    assert a.returncode == 0, a.stdout[-2000:]
    strip = lambda t: [line for line in t.splitlines() if not line.startswith(("time:", "hand histories:"))]
    assert strip(a.stdout) == strip(b.stdout)
    for name in os.listdir(str(tmp_path / "a")):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()


def test_interactive_mode_shows_lights_display_and_alerts():
    typed = "hand\ndraw Ah to seat 3\nexpect alert DEAL-8\nconfirm\nmeteor\nexpect button 2\nquit\n"
    res = _feltctl(["sim"], stdin=typed)
    assert res.returncode == 0, res.stdout + res.stderr
    out = res.stdout
    assert "lights : 1 D  2 sb  3 BB" in out
    assert "|PREFLOP         |" in out  # the OLED's lines
    assert "ALERT #1 [proposed] DEAL-8/DEAL-12" in out
    assert "waiting for the dealer: confirm or reject #1" in out
    assert "ALERT #2 [note] DEAL-14" in out
    assert "  ok\n" in out
    assert "? unknown statement 'meteor'" in out
    assert "FAILED: expected button 2, got button 1" in out
