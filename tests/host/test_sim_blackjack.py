# `feltctl sim --game blackjack` (issue 17 item 5): seeded rounds on the simulated blackjack table
# (felt.sim.blackjack driving felt.table.blackjack with shoe reads, antenna arrivals, seat buttons and
# console entries), the same output inside MicroPython and on CPython; the summary checks the chips
# and replays the .bjh it wrote; the demo plays blackjack after the poker tables.
import json
import subprocess
import sys

from feltctl.paths import REPO


def feltctl(*args):
    return subprocess.run([sys.executable, "-m", "feltctl"] + list(args), capture_output=True, text=True, cwd=REPO,
                          timeout=600)


def test_sim_blackjack_same_on_micropython_and_cpython(tmp_path):
    mpy = feltctl("sim", "--game", "blackjack", "--rounds", "40", "--seed", "4", "--out", str(tmp_path / "m.bjh"))
    cpy = feltctl("sim", "--game", "blackjack", "--rounds", "40", "--seed", "4", "--out", str(tmp_path / "c.bjh"),
                  "--runtime", "cpython")
    assert mpy.returncode == 0, mpy.stdout[-2000:] + mpy.stderr[-2000:]
    assert cpy.returncode == 0, cpy.stdout[-2000:] + cpy.stderr[-2000:]
    strip = lambda t: [line for line in t.splitlines() if "written to" not in line]
    assert strip(mpy.stdout) == strip(cpy.stdout)
    out = mpy.stdout
    assert "chips conserved: yes" in out
    assert "40 lines written to" in out and "40 replay to the same nets" in out
    assert "[dealt] lights" in out and "| D " in out and "!BJ-25" in out  # lights, display, the wrong box shown
    assert (tmp_path / "m.bjh").read_text() == (tmp_path / "c.bjh").read_text()
    rep = feltctl("replay", "--jsonl", str(tmp_path / "m.bjh"))
    assert rep.returncode == 0 and len([json.loads(x) for x in rep.stdout.splitlines()]) == 40


def test_sim_blackjack_refuses_replay_options():
    out = feltctl("sim", "--game", "blackjack", "--replay", "x.phh")
    assert out.returncode == 2 and "feltctl replay" in out.stderr
