# The interactive `feltctl sim` as a person uses it (issue 18 item 4): lines typed on stdin (a script)
# or at a terminal (a pty), the screens it prints after each of them. A refused line must not leave
# every later screen one step behind; each screen shows which cards lie on which antenna; a finished
# hand's result is said in words; a hand started with cards still down is warned about.
import os
import pty
import re
import select
import subprocess
import sys
import time

from feltctl.paths import REPO

HAND = """draw Ah to seat 2
draw Kd to seat 3
draw Qs to seat 1
draw Qh to seat 2
draw Kc to seat 3
draw 2s to seat 1
act 1 call
act 2 call
act 3 check
draw 3c to burn
draw 7h to board
draw 8h to board
draw 9c to board
act 2 check
act 3 bet 200
act 1 fold
act 2 call
draw 4c to burn
draw Jd to board
act 2 check
act 3 check
draw 5d to burn
draw 2d to board
act 2 check
act 3 allin
act 2 call
"""
THREE = "table holdem no_limit seats=3 sb=50 bb=100 button=1\nseat 1 1000\nseat 2 1000\nseat 3 1000\n"


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(REPO, "host_tools") + os.pathsep + os.path.join(REPO, "firmware")
    return env


def _sim(typed, timeout=300):
    res = subprocess.run([sys.executable, "-m", "feltctl", "sim"], input=typed, capture_output=True, text=True,
                         env=_env(), cwd=REPO, timeout=timeout)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert "Traceback" not in res.stdout + res.stderr
    return res.stdout


def _screens(out):
    """{typed line: [the screen printed after it, ...]} in order."""
    screens = {}
    for part in out.split("felt> ")[1:]:
        line, _, screen = part.partition("\n")
        screens.setdefault(line, []).append(screen)
    return screens


def test_a_refused_line_leaves_the_next_screens_current():
    # the runner refuses these (no such card there) although they parse; the screens after them
    # must be those of their own step: the wrong first card raises its alert on its own screen
    typed = ("hand\nmove Kd from seat 2 to board\nremove Ah from board\ndraw Ah to seat 3\n"
             "expect alert DEAL-8 proposed\nconfirm\nexpect alert DEAL-14\nstate\nquit\n")
    sc = _screens(_sim(typed))
    assert sc["move Kd from seat 2 to board"] == ["  ? bad move statement: seat2 holds no such card\n"]
    assert sc["remove Ah from board"] == ["  ? bad remove statement: board holds no such card\n"]
    after_draw = sc["draw Ah to seat 3"][0]
    assert "ALERT #1 [proposed] DEAL-8/DEAL-12" in after_draw, after_draw
    assert "  cards  : seat 3 Ah\n" in after_draw
    assert "  ? " not in after_draw  # the refusal was told once, on its own line
    assert sc["expect alert DEAL-8 proposed"] == ["  ok\n"]
    assert "ALERT #1 [confirmed]" in sc["confirm"][0] and "ALERT #2 [note] DEAL-14" in sc["confirm"][0]
    assert sc["expect alert DEAL-14"] == ["  ok\n"]
    assert '"street": "preflop"' in sc["state"][0] and '"pending": []' in sc["state"][0]


def test_screens_show_cards_per_antenna_the_result_in_words_and_warn_of_cards_down():
    typed = THREE + "hand\n" + HAND + "hand\nclear\nquit\n"
    sc = _screens(_sim(typed))
    assert "  cards  : seat 2 Ah\n" in sc["draw Ah to seat 2"][0]
    assert "  cards  : none on the antennas\n" in sc["hand"][0]
    last = sc["act 2 call"][-1]  # the river call ends the hand at the showdown
    assert "  cards  : seat 1 Qs2s  seat 2 AhQh  seat 3 KcKd  board Jd9c8h7h2d  burn 5d4c3c\n" in last
    assert "  RESULT : seat 3 wins the main pot with a pair of kings (2100 chips)\n" in last
    assert "  RESULT : kill the losing hand of seat 2 before the chips are pushed (POT-19)\n" in last
    assert "RESULT" not in sc["hand"][1]  # said once, when the hand ends
    second = sc["hand"][1]
    assert "  WARNING: hand 2 started with cards still down: seat 1 Qs2s  seat 2 AhQh  seat 3 KcKd" in second
    assert "WARNING" not in sc["hand"][0]
    assert "  cards  : none on the antennas\n" in sc["clear"][0]


def test_no_warning_when_the_table_was_cleared_or_the_new_hand_refused():
    typed = THREE + "hand\ndraw Ah to seat 2\nhand\n" + "clear\nquit\n"
    sc = _screens(_sim(typed))
    assert "GAME-6" in sc["hand"][1]  # hand 1 is not over: no new hand, no warning
    assert "WARNING" not in sc["hand"][1]


def _read_until(fd, marker, deadline):
    buf = b""
    while marker not in buf:
        left = deadline - time.time()
        assert left > 0, "no %r in %r" % (marker, buf[-2000:])
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            buf += chunk
    return buf.decode(errors="replace").replace("\r\n", "\n")


def test_typed_at_a_terminal_the_screen_after_a_refused_line_is_current():
    # a pty: feltctl sees a terminal (input() with its prompt), as a person at the bench
    pid, fd = pty.fork()
    if pid == 0:  # the child: feltctl sim on the terminal
        os.chdir(REPO)
        os.execve(sys.executable, [sys.executable, "-m", "feltctl", "sim"], _env())
    try:
        deadline = time.time() + 240
        screen = _read_until(fd, b"felt> ", deadline)
        assert "type `hand` to start" in screen
        seen = {}
        for line in ("hand", "remove Ah from board", "draw Ah to seat 3", "quit"):
            os.write(fd, (line + "\n").encode())
            if line == "quit":
                break
            seen[line] = _read_until(fd, b"felt> ", deadline)
        _read_until(fd, b"\x00", deadline)  # to the end of its output
        _, status = os.waitpid(pid, 0)
        pid = None
    finally:
        if pid:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)
    assert os.WEXITSTATUS(status) == 0
    assert "? bad remove statement: board holds no such card" in seen["remove Ah from board"]
    assert re.search(r"ALERT #1 \[proposed\] DEAL-8", seen["draw Ah to seat 3"]), seen["draw Ah to seat 3"]
    assert "cards  : seat 3 Ah" in seen["draw Ah to seat 3"]


def test_help_names_every_statement_the_parser_takes():
    # `set` and `levels=` came with issue 18 item 8: the help a person reads lists them
    out = _sim("help\ntable holdem no_limit seats=6 sb=200 bb=100\nquit\n")
    for word in ("set KEY VALUE", "levels=", "wait MS"):
        assert word in out, word
    assert "? BLIND-2: the small blind (200) is above the big blind (100)" in out  # refused before it is sent
