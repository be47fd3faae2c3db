# Bench scripts (issue 7): every script of the library tests/bench_scripts/*.felt passes against the
# real firmware on the simulated table inside MicroPython; a wrong expectation fails with its
# FILE:LINE message; a malformed script is an error naming its line, never a pass; the CLI's exit
# status, summary line and --json report.
import json
import os
import subprocess
import sys

import pytest

from feltctl.bench_scripts import script as bench
from feltctl.paths import REPO

LIBRARY = os.path.join(REPO, "tests", "bench_scripts")
SCRIPTS = sorted(f for f in os.listdir(LIBRARY) if f.endswith(bench.SUFFIX))

HEAD = """table holdem no_limit seats=3 sb=50 bb=100 button=1
seat 1 1000
seat 2 1000
seat 3 1000
hand
"""


@pytest.mark.parametrize("name", SCRIPTS)
def test_library_script_passes_under_micropython(name):
    result = bench.run_file(os.path.join(LIBRARY, name), "micropython", name=name)
    assert result.messages() == [], result.messages()
    assert result.passed
    assert result.snapshot is not None  # the firmware answered


def test_library_covers_the_rule_families():
    text = ""
    for name in SCRIPTS:
        with open(os.path.join(LIBRARY, name)) as f:
            text += f.read()
    for rule in ("DEAL-2", "DEAL-3", "DEAL-5", "DEAL-7", "DEAL-8", "DEAL-11", "DEAL-21", "DEAL-42", "DEAL-43",
                 "DEAL-46", "DEAL-9", "DEAL-10", "DEAL-13", "DEAL-14", "DEAL-16",
                 "DEAL-17", "DEAL-18", "DEAL-19", "DEAL-20", "DEAL-25", "DEAL-27", "DEAL-28", "DEAL-29", "DEAL-30",
                 "DEAL-31", "DEAL-32", "DEAL-33", "DEAL-39", "DEAL-44", "DEAL-45", "DEAL-49", "DECK-5",
                 # issue 14: the rules' misdeal examples, out-of-turn actions and string bets
                 "DEAL-12", "DEAL-23", "DEAL-26", "BET-36", "BET-39", "BET-40", "BET-41", "BET-42", "BET-43"):
        assert "expect alert %s" % rule in text, rule
    for fault in ("noisy", "corrupt-frame", "double-read", "silent shoe", "resume shoe", "silent seat", "resume seat",
                  "collision", "two-antennas", "bounce", "stuck", "release", "console-garbage"):
        assert "fault " + fault in text, fault
    for what in ("expect allin", "expect action", "expect button", "expect sb", "expect bb"):
        assert what in text, what


def test_wrong_expectation_fails_with_file_and_line():
    text = HEAD + "expect stacks 1000 950 900\nexpect button 2\nexpect alert DEAL-8\n"
    r = bench.run_text(text, "wrong.felt", "micropython")
    assert not r.passed
    assert r.messages() == ["wrong.felt:7: expected button 2, got button 1",
                            "wrong.felt:8: expected alert DEAL-8, got no alerts"]
    assert [f.line for f in r.failures] == [7, 8]


def test_expectation_checked_against_the_state_after_the_stimulus():
    text = HEAD + "draw Ah to seat 3\nexpect no alert\n"
    r = bench.run_text(text, "late.felt", "micropython")
    assert r.messages() == ["late.felt:7: expected no alert, got alerts DEAL-8/DEAL-12 (proposed)"]


@pytest.mark.parametrize("script, line, words", [
    ("seat 1 1000\n", 1, "must start with a table"),
    ("table holdem no_limit seats=3 sb=50 bb=100\nseat 4 1000\n", 2, "seats 1..3"),
    ("table holdem no_limit seats=3 bb=100\nhand\n\ndraw Ax to seat 1\n", 4, "not a card"),
    ("table holdem no_limit seats=3 bb=100\nhand\ndraw Ah to seat\n", 3, "seat number"),
    ("table holdem no_limit seats=3 bb=100\nexpect stacks 1 2\n", 2, "needs 3 values"),
    ("table holdem no_limit seats=3 bb=100\n# ok\nexpect street flopp\n", 3, "expect street"),
    ("table holdem no_limit seats=3 bb=100\nact 1 raise\n", 2, "AMOUNT"),
    ("table holdem no_limit seats=3 bb=100\nfault meteor\n", 2, "unknown fault"),
    ("table holdem no_limit seats=3 bb=100\nexpect alert deal8\n", 2, "RULE-ID"),
    ("table poker no_limit seats=3\n", 1, "GAME"),
    ("table holdem no_limit seats=3 bb=100 colour=red\n", 1, "unknown table setting"),
    ("version 2\ntable holdem no_limit seats=3 bb=100\n", 1, "version 1"),
    ("table holdem no_limit seats=3 bb=100\nshuffle\n", 2, "unknown statement"),
    ("table holdem no_limit seats=3 bb=100\npush 1 5c0\n", 2, "CHIPS"),
    ("table holdem no_limit seats=3 bb=100\npush 1 500 declared=fold\n", 2, "push options"),
    ("table holdem no_limit seats=3 bb=100\nmark 1 marked\n", 2, "boxed|exposed"),
    ("table holdem no_limit seats=3 bb=100\nfault noisy nowhere\n", 2, "an antenna"),
    # issue 18 item 8: settings the rules forbid, refused before anything runs, with the rule
    ("table holdem no_limit seats=6 sb=200 bb=100\nhand\n", 1, "BLIND-2: the small blind (200) is above"),
    ("table holdem limit seats=6 bb=100 small_bet=100 big_bet=50\n", 1, "BET-1: the big bet (50) is below"),
    ("table stud7 limit seats=9 small_bet=100 big_bet=200 ante=10 bring_in=25\n", 1, "GAME-1"),
    ("table stud7_8 limit seats=10 small_bet=100 big_bet=200 ante=10 bring_in=25\n", 1, "at most 8 players"),
    ("table holdem no_limit seats=3 bb=100 mode=tournament levels=50/100/0/20,300/200/0/20\n", 1, "BLIND-2: level 2"),
    ("table holdem no_limit seats=3 bb=100 levels=50/100\n", 1, "levels=SB/BB/ANTE/MINUTES"),
    ("table holdem no_limit seats=3 bb=100 hr.no_such_rule=1\n", 1, "hr.no_such_rule"),
    ("table holdem no_limit seats=3 bb=100\nset level_clock\n", 2, "set KEY VALUE"),
])
def test_malformed_script_is_an_error_with_its_line(script, line, words):
    with pytest.raises(bench.BenchError) as e:
        bench.parse(script)
    assert e.value.line == line
    assert words in e.value.message
    r = bench.run_text(script, "bad.felt", "micropython")
    assert not r.passed
    assert r.messages()[0].startswith("bad.felt:%d: error: " % line), r.messages()


def test_error_found_by_the_simulated_table_names_the_script_line():
    # well formed, but the card is not on that antenna: the runner refuses it
    text = HEAD + "draw Ah to seat 2\n# a comment\nremove Kd from seat 2\nexpect street preflop\n"
    r = bench.run_text(text, "gone.felt", "micropython")
    assert not r.passed
    assert r.error[0] == 8, r.error
    assert "no such card" in r.error[1]


def test_refused_line_is_reported_even_when_the_table_stopped_long_before_the_end():
    # many statements follow the refused one: the child has exited while they are still being sent
    text = HEAD + "remove Kd from seat 2\n" + "wait 1\n" * 3000 + "expect street preflop\n"
    r = bench.run_text(text, "gone.felt", "micropython")
    assert r.error is not None and r.error[0] == 6, r.error
    assert "no such card" in r.error[1]


def test_config_the_firmware_refuses_is_an_error_not_a_pass():
    r = bench.run_text("table holdem no_limit seats=3\nexpect street idle\n", "nobb.felt", "micropython")
    assert not r.passed
    assert r.error[0] == 1 and "BLIND-12" in r.error[1], r.error


def _feltctl(*argv):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(REPO, "host_tools")
    return subprocess.run([sys.executable, "-m", "feltctl"] + list(argv), capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=600)


def test_cli_summary_exit_status_and_json(tmp_path):
    good = os.path.join(LIBRARY, "deal17_card_to_no_seat.felt")
    bad = tmp_path / "bad.felt"
    bad.write_text(HEAD + "expect bb 2\n")
    out = _feltctl("bench", good, str(bad))
    assert out.returncode == 1, out.stdout + out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[-1] == "1 passed, 1 failed"
    assert "%s:6: expected bb 2, got bb 3" % bad in lines
    out = _feltctl("bench", "--json", good, str(bad))
    rows = [json.loads(x) for x in out.stdout.strip().splitlines()]
    assert [r["passed"] for r in rows] == [True, False]
    assert rows[1]["failures"] == [{"line": 6, "expected": "bb 2", "got": "bb 3"}]
    assert set(rows[0]) >= {"file", "passed", "failures", "alerts", "indicators"}
    assert [a["rules"] for a in rows[0]["alerts"]] == [["DEAL-2", "DEAL-17", "DEAL-22"]]
    assert rows[0]["alerts"][0]["text"]
    assert rows[1]["indicators"]["seats"] == {"1": ["button"], "2": ["sb"], "3": ["bb"]}
    out = _feltctl("bench", good, "--runtime", "cpython")
    assert out.returncode == 0 and out.stdout.strip().endswith("1 passed, 0 failed"), out.stdout


def test_cli_folder_of_scripts(tmp_path):
    (tmp_path / "a.felt").write_text(HEAD + "expect button 1\n")
    (tmp_path / "notes.txt").write_text("not a script")
    out = _feltctl("bench", str(tmp_path))
    assert out.returncode == 0, out.stdout
    assert out.stdout.strip().splitlines()[-1] == "1 passed, 0 failed"


def test_a_script_that_is_not_text_is_an_error_and_the_other_scripts_still_run(tmp_path):
    # A binary file among the scripts ended the whole run in a UnicodeDecodeError traceback,
    # losing the reports of the scripts around it.
    blob = tmp_path / "blob.felt"
    blob.write_bytes(bytes([0xE2, 0x28, 0xA1, 0xFF]) * 10)
    r = bench.run_file(str(blob), "cpython")
    assert not r.passed and "not a text file" in r.error[1], r.error
    good = os.path.join(LIBRARY, "deal17_card_to_no_seat.felt")
    out = _feltctl("bench", str(blob), good, "--runtime", "cpython")
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert "blob.felt:?: error: not a text file" in out.stdout
    assert "deal17_card_to_no_seat.felt: ok" in out.stdout
    assert out.stdout.splitlines()[-1] == "1 passed, 1 failed"


def test_cli_refuses_a_table_the_rules_forbid_by_rule(tmp_path):
    # the real command: a script with the blinds crossed is an error naming BLIND-2, never a pass
    bad = tmp_path / "crossed.felt"
    bad.write_text("table holdem no_limit seats=6 sb=200 bb=100 button=1\nseat 1 1000\nseat 2 1000\nhand\n"
                   "expect street preflop\n")
    stud = tmp_path / "stud9.felt"
    stud.write_text("table stud7 limit seats=9 small_bet=100 big_bet=200 ante=10 bring_in=25\n")
    out = _feltctl("bench", str(bad), str(stud))
    assert out.returncode == 1, out.stdout + out.stderr
    assert "%s:1: error: BLIND-2: the small blind (200) is above the big blind (100)" % bad in out.stdout
    assert "%s:1: error: GAME-1: fixed-limit 7-card stud takes at most 8 players, not a 9-seat table" % stud \
        in out.stdout
    assert out.stdout.splitlines()[-1] == "0 passed, 2 failed"


def test_cli_parallel_scripts_build_the_firmware_cache_once_without_a_traceback(tmp_path):
    # -j 3 on an empty temp folder: three threads compiled the firmware into one "<cache>.<pid>" folder
    # and one renamed it away under the others (CalledProcessError traceback, issue 18 item 9)
    for name in ("a", "b", "c"):
        (tmp_path / ("%s.felt" % name)).write_text(HEAD + "expect button 1\n")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp), PYTHONPATH=os.path.join(REPO, "host_tools"))
    out = subprocess.run([sys.executable, "-m", "feltctl", "bench", "-j", "3", str(tmp_path)], capture_output=True,
                         text=True, env=env, cwd=REPO, timeout=600)
    assert "Traceback" not in out.stderr, out.stderr[-3000:]
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[-1] == "3 passed, 0 failed"
    assert [n for n in os.listdir(str(tmp)) if n.startswith("felt-mpy-")] != []


# ---- blackjack tables (issue 17 item 5) -----------------------------------------------------------

BJ_HEAD = """table blackjack
shoe
round
bet 1 10
close
draw Th to box 1
draw 6d to dealer
draw 9h to box 1
draw Ts to dealer
"""


def test_library_covers_blackjack_on_the_seat_buttons():
    text = ""
    for name in SCRIPTS:
        if name.startswith("bj"):
            with open(os.path.join(LIBRARY, name)) as f:
                text += f.read()
    for rule in ("BJ-5", "BJ-7", "BJ-23", "BJ-26"):
        assert "expect alert %s" % rule in text, rule
    for what in ("expect action", "expect insure", "expect net", "expect house", "expect reply", "SPLIT?", "DOUBLE?",
                 "SURRENDER?", "INSURE?", "EVEN MONEY?", "HIT?"):
        assert what in text, what


def test_blackjack_wrong_expectation_fails_with_file_and_line():
    # BJ-19: 19 against the dealer's 16 + 5 = 21 loses; the script says otherwise
    text = BJ_HEAD + "expect action 1\npress 1 long\ndraw 5c to dealer\nexpect net 1 +10\nexpect house -10\n" \
                     "expect alert BJ-5\n"
    r = bench.run_text(text, "bj.felt", "micropython")
    assert not r.passed
    assert r.messages() == ["bj.felt:13: expected net 1 +10, got net 1 -10",
                            "bj.felt:14: expected house -10, got house +10",
                            "bj.felt:15: expected alert BJ-5, got no alerts"], r.messages()


@pytest.mark.parametrize("text, line, words", [
    ("table blackjack bj.soft17=maybe\n", 1, "soft17"),  # the firmware's own register refuses it
    ("table blackjack\nbet 8 10\n", 2, "a box is 1..7"),
    ("table blackjack bj.boxes=3\nshoe\npress 5\n", 3, "a box is 1..3"),
    ("table blackjack\nact 1 call\n", 2, "unknown blackjack statement"),
    ("table blackjack\nexpect stacks 1 2\n", 2, "unknown blackjack expectation"),
])
def test_malformed_blackjack_script_is_an_error_naming_the_line(text, line, words):
    r = bench.run_text(text, "bad.felt", "cpython")
    assert not r.passed and r.error is not None
    assert r.error[0] == line and words in r.error[1], r.error
