# `feltctl replay` on blackjack round histories (.bjh, hardware/blackjack-history.md): self-played
# rounds (feltctl.blackjack.selfplay, on the firmware engine and shoe) replay on CPython, on the
# emulated 128 KB MicroPython board and on the 32-bit WebAssembly port to the same bytes; errors are
# JSON with exit 1; --write gives the file back byte for byte.
import json
import subprocess
import sys

from feltctl.blackjack import selfplay
from feltctl.paths import REPO


def feltctl(*args):
    cmd = [sys.executable, "-m", "feltctl", "replay"] + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=300)


def test_BJ_19_selfplayed_history_replays_the_same_on_every_runtime(tmp_path):
    path = tmp_path / "rounds.bjh"
    path.write_text(selfplay.history(120, seed=5))
    host = feltctl("--jsonl", str(path))
    assert host.returncode == 0, host.stdout[-500:] + host.stderr
    rounds = [json.loads(line) for line in host.stdout.splitlines()]
    assert len(rounds) == 120 and not [r for r in rounds if "error" in r]
    assert len(set(r["shoe"] for r in rounds)) >= 2  # the cut card ended at least one shoe (BJ-23)
    outcomes = set(h.split(":")[2] for r in rounds for h in r["hands"])
    assert {"win", "lose", "bust", "push", "blackjack", "surrender"} <= outcomes, outcomes
    for runtime in ("micropython", "wasm"):
        other = feltctl("--jsonl", str(path), "--runtime", runtime)
        assert other.returncode == 0, other.stderr[-800:]
        assert other.stdout == host.stdout, runtime


def test_BJ_19_altered_history_is_an_error_with_exit_1(tmp_path):
    text = selfplay.history(3, seed=2)
    lines = text.splitlines()
    net = lines[2].split(" | net ")[1].split()[0]  # 'BOX:+N' of round 2's first box
    box, value = net.split(":")
    lines[2] = lines[2].replace(" | net " + net, " | net %s:%+d" % (box, int(value) + 5))
    path = tmp_path / "bad.bjh"
    path.write_text("\n".join(lines) + "\n")
    out = feltctl("--jsonl", str(path))
    assert out.returncode == 1
    got = [json.loads(line) for line in out.stdout.splitlines()]
    assert ["error" in r for r in got] == [False, True, False], got
    assert got[1]["line"] == 3 and "differ" in got[1]["error"]
    single = tmp_path / "one.bjh"
    single.write_text(lines[0] + "\n" + lines[1] + "\n")
    one = feltctl("--json", str(single))
    assert one.returncode == 0 and json.loads(one.stdout)["round"] == 1
    missing = feltctl("--jsonl", str(tmp_path / "none.bjh"))
    assert missing.returncode == 1 and "cannot read" in json.loads(missing.stdout)["error"]


def test_write_gives_a_history_back_unchanged(tmp_path):
    path = tmp_path / "rounds.bjh"
    path.write_text(selfplay.history(40, seed=9, rules_text="soft17=hit,hole_card=enhc,redouble=1".replace(",", " ")))
    out = tmp_path / "again.bjh"
    r = feltctl(str(path), "--write", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    assert out.read_text() == path.read_text()
    bad = tmp_path / "bad.bjh"
    bad.write_text(path.read_text().replace(" go ", " go 9s ", 1))
    r = feltctl(str(bad), "--write", str(out))
    assert r.returncode == 1 and "# error: " in out.read_text()
