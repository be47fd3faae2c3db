# No tracebacks where a user meets an ordinary failure (issue 18 item 9), each with the real command:
# an --out folder that takes no file (read-only), a reader that closes the pipe (`feltctl ... | head`),
# an empty folder given to `replay --jsonl` (said, exit non-zero), and `make selfplay` after
# `make demo` (the demo's histories stay).
import os
import shutil
import subprocess
import sys

import pytest

from feltctl.paths import REPO

BAD = ("Traceback", "Exception ignored", "OSError: 32", "BrokenPipeError")


def _env(**extra):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(REPO, "host_tools") + os.pathsep + os.path.join(REPO, "firmware")
    env.update(extra)
    return env


def _feltctl(*argv, **kw):
    return subprocess.run([sys.executable, "-m", "feltctl"] + list(argv), capture_output=True, text=True,
                          env=_env(), cwd=REPO, timeout=kw.get("timeout", 300))


def _clean(text):
    for b in BAD:
        assert b not in text, text[-3000:]


def _read_only(folder, argv):
    """Runs feltctl argv with `folder` read-only: as root (whom file modes do not stop) a read-only
    tmpfs mounted on it in a mount namespace of its own; as anyone else, mode 555."""
    cmd = [sys.executable, "-m", "feltctl"] + list(argv)
    if os.geteuid() == 0:
        if not shutil.which("unshare"):
            pytest.skip("root without unshare(1): no way to make a folder read-only for root")
        cmd = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
               'mount -t tmpfs -o ro,size=64k tmpfs "$0" && exec "$@"', str(folder)] + cmd
    else:
        os.chmod(str(folder), 0o555)
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, env=_env(), cwd=REPO, timeout=300)
    finally:
        os.chmod(str(folder), 0o755)
    if res.returncode != 0 and res.stderr.startswith(("unshare:", "mount:")):
        pytest.skip("cannot mount a read-only folder here: %s" % res.stderr.strip())
    return res


@pytest.mark.parametrize("argv", [
    ["demo", "--hands", "2"],
    ["demo", "--hands", "2", "--runtime", "cpython"],
    ["sim", "--demo", "--hands", "1"],
], ids=["demo-micropython", "demo-cpython", "sim-demo"])
def test_a_read_only_out_folder_is_said_before_anything_runs(tmp_path, argv):
    ro = tmp_path / "hands"
    ro.mkdir()
    res = _read_only(ro, argv + ["--out", str(ro)])
    _clean(res.stdout + res.stderr)
    assert res.returncode == 1, res.stdout + res.stderr
    name = "sim" if argv[0] == "sim" else "demo"
    assert res.stderr.startswith("feltctl %s: error: --out %s: " % (name, ro)), res.stderr
    assert ("Read-only file system" in res.stderr) or ("Permission denied" in res.stderr), res.stderr
    assert "hand" not in res.stdout  # nothing was played


BJH = """# felt blackjack history 1
round=1 shoe=1 table=T1 rules=surrender=late | b1=100 b3=50 go 1:Ks 3:3h D:Kc 1:2d 3:Qs D:7c 1h 1:5d 1s 3r | net 1:+0 3:-25
"""


def test_replay_write_to_a_read_only_folder_is_said(tmp_path):
    bjh = tmp_path / "t1.bjh"  # the example of hardware/blackjack-history.md
    bjh.write_text(BJH)
    res = _feltctl("replay", str(bjh), "--write", str(tmp_path / "again.bjh"))
    assert res.returncode == 0 and (tmp_path / "again.bjh").read_text() == BJH, res.stdout + res.stderr
    ro = tmp_path / "ro"
    ro.mkdir()
    res = _read_only(ro, ["replay", str(bjh), "--write", str(ro / "again.bjh")])
    _clean(res.stdout + res.stderr)
    assert res.returncode == 1
    assert res.stderr.startswith("feltctl replay: error: --write %s: " % (ro / "again.bjh")), res.stderr


def _piped_to_head(argv, lines=1):
    """feltctl argv | head -LINES: the reader takes its lines and closes the pipe."""
    proc = subprocess.Popen([sys.executable, "-m", "feltctl"] + list(argv), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_env(), cwd=REPO)
    got = [proc.stdout.readline() for _ in range(lines)]
    proc.stdout.close()
    err = proc.stderr.read().decode(errors="replace")
    rc = proc.wait(timeout=300)
    return rc, b"".join(got).decode(), err


@pytest.fixture(scope="module")
def hands(tmp_path_factory):
    out = tmp_path_factory.mktemp("hands")
    res = _feltctl("demo", "--runtime", "cpython", "--hands", "40", "--out", str(out))
    assert res.returncode == 0, res.stdout + res.stderr
    return str(out)


@pytest.mark.parametrize("argv", [
    ["replay", "--jsonl"],
    ["replay", "--jsonl", "--runtime", "micropython"],
    ["demo", "--hands", "40"],
    ["bench", "tests/bench_scripts"],
], ids=["replay", "replay-board", "demo", "bench"])
def test_a_closed_pipe_ends_the_command_quietly(hands, tmp_path, argv):
    if argv[0] == "replay":
        argv = argv + [hands]
    elif argv[0] == "demo":
        argv = argv + ["--out", str(tmp_path)]
    rc, got, err = _piped_to_head(argv)
    assert got  # the reader had its line
    _clean(err)
    assert rc == 141, (rc, err[-2000:])  # 128 + SIGPIPE, as a shell reports a program a closed pipe stopped


def test_replay_of_an_empty_folder_says_so_and_fails(tmp_path, hands):
    empty = tmp_path / "nothing"
    empty.mkdir()
    (empty / "notes.txt").write_text("not a hand history")
    for runtime in ("cpython", "micropython"):
        res = _feltctl("replay", "--jsonl", "--runtime", runtime, str(empty))
        _clean(res.stdout + res.stderr)
        assert res.returncode == 2, (runtime, res.stdout, res.stderr)
        assert "feltctl replay: error: %s holds no .phh/.phhs/.bjh files" % empty in res.stderr
        assert '"error":"no .phh/.phhs/.bjh files in the folder"' in res.stdout
    # with files besides: those replay, and the empty folder still makes it a failure
    one = os.path.join(hands, sorted(os.listdir(hands))[0])
    res = _feltctl("replay", "--jsonl", str(empty), one)
    assert res.returncode == 1, res.stdout + res.stderr
    assert '"finishing_stacks"' in res.stdout and "holds no" in res.stderr


def test_make_selfplay_leaves_what_make_demo_wrote():
    # the Makefile's targets with their defaults: `make demo` (sim --demo) writes out/hands, `make
    # selfplay` (feltctl demo) a folder of its own -- its re-run clears only that one
    from feltctl.commands import demo
    import argparse

    p = argparse.ArgumentParser()
    demo.add_arguments(p)
    default = os.path.normpath(p.parse_args([]).out)
    hands = os.path.join(REPO, "out", "hands")
    assert default == os.path.join(REPO, "out", "selfplay")
    assert not hands.startswith(default + os.sep) and not default.startswith(hands + os.sep)
    with open(os.path.join(REPO, "Makefile")) as f:
        make = f.read()
    assert "\t$(VENV)/bin/feltctl sim --demo\n" in make and "\t$(VENV)/bin/feltctl demo\n" in make
    with open(os.path.join(REPO, "host_tools", "feltctl", "commands", "sim.py")) as f:
        assert 'os.path.join(REPO, "out", "hands")' in f.read()


def test_selfplay_after_the_demo_in_one_folder_tree_keeps_the_demo_histories(tmp_path):
    # the real commands in a copy of the layout: `feltctl sim --demo` then `feltctl demo`, defaults
    # taken relative to the repository -- run here with the two default folders under tmp_path
    demo_out = tmp_path / "out" / "hands"
    res = _feltctl("sim", "--demo", "--hands", "2", "--runtime", "cpython", "--out", str(demo_out))
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr
    written = sorted(os.listdir(str(demo_out)))
    assert written
    from feltctl.commands import demo
    import argparse

    p = argparse.ArgumentParser()
    demo.add_arguments(p)
    default = p.parse_args([]).out
    rel = os.path.relpath(default, os.path.join(REPO, "out"))
    res = _feltctl("demo", "--hands", "3", "--runtime", "cpython", "--out", str(tmp_path / "out" / rel))
    assert res.returncode == 0, res.stdout + res.stderr
    assert sorted(os.listdir(str(demo_out))) == written
