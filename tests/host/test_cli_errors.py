# Host tools given input they cannot use (host tools): one error line naming it and a non-zero
# exit, never a Python traceback; nothing written where it was not asked for.
import os
import subprocess
import sys

from feltctl.paths import REPO


def feltctl(*argv, timeout_s=300):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(REPO, "host_tools") + os.pathsep + os.path.join(REPO, "firmware")
    return subprocess.run([sys.executable, "-m", "feltctl"] + list(argv), capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=timeout_s)


def test_romfs_build_to_a_path_it_cannot_write_is_one_error_line(tmp_path):
    # -o in a folder that does not exist, or naming a folder: shutil's OSError was a traceback
    for target in (tmp_path / "no-such" / "felt.romfs", tmp_path):
        out = feltctl("romfs", "build", "-o", str(target))
        assert out.returncode == 1, out.stderr
        assert out.stderr.startswith("feltctl romfs: error: ") and out.stderr.count("\n") == 1, out.stderr
        assert str(target) in out.stderr
    assert os.listdir(str(tmp_path)) == []


def test_ctrl_c_is_one_line_and_exit_130_not_a_traceback(tmp_path):
    # Ctrl-C (SIGINT) in any command was a KeyboardInterrupt traceback from wherever it landed
    # (select, a thread pool, pyserial). The context managers still close ports and child
    # processes on the way out; the user sees one line.
    import signal
    import time

    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(REPO, "host_tools") + os.pathsep + os.path.join(REPO, "firmware")
    corpus = os.path.join(REPO, "tests", "bench_scripts")
    proc = subprocess.Popen([sys.executable, "-m", "feltctl", "bench", "--runtime", "cpython", corpus], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(tmp_path),
                            # SIGINT as a terminal delivers it: a run started in the background (`make
                            # test &`) inherits SIGINT ignored, and Python then installs no handler
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # interrupt once the command is running (its first script reported), not during interpreter start-up:
    # a fixed sleep let a loaded machine deliver SIGINT before feltctl had started at all
    first = proc.stdout.readline()
    assert ": " in first, (first, proc.stderr.read()[-2000:])
    time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out[-500:], err[-2000:])
    assert "Traceback" not in err and err.strip().splitlines()[-1] == "feltctl bench: interrupted", err[-2000:]


def test_the_compiled_firmware_cache_leaves_no_temporary_folder_when_another_process_won(tmp_path, monkeypatch):
    # Two feltctl processes compiling the same sources at once: the loser's rename failed and its
    # whole felt-mpy-<hash>.<pid> folder (~0.5 MB) stayed in /tmp for good (68 of them here).
    from feltctl.commands import replay

    monkeypatch.setattr(replay.tempfile, "gettempdir", lambda: str(tmp_path))
    real_rename = os.rename

    def lose_the_race(src, dst):
        os.makedirs(os.path.join(dst, "felt"))  # the other process's tree lands first
        real_rename(src, dst)  # ENOTEMPTY / EEXIST, as in the race

    monkeypatch.setattr(os, "rename", lose_the_race)
    out = replay.compiled_firmware()
    assert sorted(os.listdir(str(tmp_path))) == [os.path.basename(out)], os.listdir(str(tmp_path))


def test_romfs_deploy_to_a_port_where_nothing_answers_is_one_error_line(tmp_path):
    # mpremote reads a pty with no timeout: on a port where no board answers (a stopped simboard,
    # a socat pty) `feltctl romfs deploy` waited for ever; elsewhere its TransportError traceback
    # ("could not enter raw repl") came through as it was
    master, slave = os.openpty()  # a port that opens but where no board answers
    try:
        out = feltctl("romfs", "deploy", os.ttyname(slave), timeout_s=120)
    finally:
        os.close(master)
        os.close(slave)
    assert out.returncode != 0
    assert "Traceback" not in out.stderr, out.stderr
    assert out.stderr.strip().splitlines()[-1].startswith("feltctl romfs: error: "), out.stderr
    assert "no MicroPython REPL answered" in out.stderr


def test_ctrl_c_in_bench_drops_the_scripts_not_started(monkeypatch, tmp_path):
    # feltctl bench queued every script on a thread pool and its `with` block, on Ctrl-C, waited for
    # all of them: a minute and more before the one line, the test above timing out on a loaded
    # machine. Now the scripts not started are dropped: with one job, the interrupted run starts
    # at most the script running and the one queued behind it.
    import argparse
    import threading

    from feltctl.commands import bench as command

    started = []
    pressed = threading.Event()

    def run_file(path, runtime):
        started.append(path)
        if len(started) > 1:
            pressed.wait(10)  # the second script runs until the user has pressed Ctrl-C
        return command.bench.Result(path)

    monkeypatch.setattr(command.bench, "run_file", run_file)
    files = []
    for i in range(30):
        f = tmp_path / ("s%02d.felt" % i)
        f.write_text("")
        files.append(str(f))

    class Out:
        def write(self, text):
            if text.endswith(": ok\n"):
                pressed.set()
                raise KeyboardInterrupt  # the user's Ctrl-C while the first report is written

        def flush(self):
            pass

    monkeypatch.setattr(command.sys, "stdout", Out())
    args = argparse.Namespace(paths=files, json=False, runtime="cpython", jobs=1)
    try:
        command.run(args)
        raise AssertionError("the interrupt did not end the run")
    except KeyboardInterrupt:
        pass
    assert 1 <= len(started) <= 3, len(started)
