# `feltctl replay`: one file --json, many files --jsonl, errors as JSON objects with a non-zero
# exit, and the same bytes from the MicroPython interpreter.
import json
import os
import subprocess
import sys

import pytest

from feltctl.paths import REPO

HEADS_UP_NT = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 100]
actions = [
  'd dh p1 AhAd', 'd dh p2 KhKd',
  'p2 cbr 6',   # the button (p2) acts first heads-up
  'p1 cbr 200',
  'p2 cc',
  'd db 2c3c4d', 'd db 9s', 'd db Jh',
  'p1 sm AhAd', 'p2 sm KhKd',
]
players = ['Ann', 'Bob']
finishing_stacks = [300, 0]
"""

DECIMAL_SPLIT = """variant = 'NT'
antes = [0.01, 0.01, 0.01]
blinds_or_straddles = [0.25, 0.5, 0]
min_bet = 0.5
starting_stacks = [10.00, 10.00, 10.00]
actions = ['d dh p1 AhKd', 'd dh p2 AsKc', 'd dh p3 2c7d', 'p3 f', 'p1 cc', 'p2 cc',
  'd db QhJc2s', 'p1 cc', 'p2 cc', 'd db 3d', 'p1 cc', 'p2 cc', 'd db 8h',
  'p1 cbr 1.25', 'p2 cc', 'p1 sm AhKd', 'p2 sm AsKc']
"""

ILLEGAL = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = [
  'd dh p1 ????', 'd dh p2 ????', 'd dh p3 ????',
  'p3 cbr 3',
]
"""

BROKEN = "variant = 'NT'\nantes = [0, 0\nstarting_stacks = [1, 2]\n"


def feltctl(*args):
    cmd = [sys.executable, "-m", "feltctl", "replay"] + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=300)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def test_json_one_hand_finishing_stacks_and_pots(tmp_path):
    out = feltctl(write(tmp_path, "hu.phh", HEADS_UP_NT), "--json")
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    assert r["finishing_stacks"] == [300, 0]
    assert r["players"] == ["Ann", "Bob"]
    (pot,) = r["pots"]
    assert pot["amount"] == 200
    assert pot["eligible"] == ["p1", "p2"]
    assert pot["winners"] == [{"amount": 200, "half": "whole", "player": "p1"}]
    assert "three of a kind" in pot["reason"] or "pair" in pot["reason"]
    assert r["file"].endswith("hu.phh")


def test_POT_11_decimal_amounts_print_exactly_and_odd_cent_goes_left_of_button(tmp_path):
    r = json.loads(feltctl(write(tmp_path, "d.phh", DECIMAL_SPLIT), "--json").stdout)
    # pot 0.03 antes + 1.00 blinds + 2 x 1.25 = 3.53, tied: 1.77 to p1 (left of the button), 1.76 to p2
    assert r["finishing_stacks"] == ["10.01", "10.00", "9.99"]
    (pot,) = r["pots"]
    assert pot["amount"] == "3.53"
    assert [(w["player"], w["amount"]) for w in pot["winners"]] == [("p1", "1.77"), ("p2", "1.76")]


def test_jsonl_many_files_and_folders(tmp_path):
    a = write(tmp_path, "set/a.phh", HEADS_UP_NT)
    write(tmp_path, "set/sub/b.phh", DECIMAL_SPLIT)
    write(tmp_path, "set/notes.txt", "not a hand")
    out = feltctl("--jsonl", str(tmp_path / "set"), a)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 3
    files = [json.loads(x)["file"] for x in lines]
    assert files[0].endswith("set/a.phh") and files[1].endswith("sub/b.phh") and files[2] == a


def test_multi_hand_phhs_file_gives_one_line_per_hand(tmp_path):
    text = "[1]\n" + HEADS_UP_NT + "\n[2]\n" + DECIMAL_SPLIT
    out = feltctl("--jsonl", write(tmp_path, "two.phhs", text))
    rows = [json.loads(x) for x in out.stdout.splitlines()]
    assert [r["hand"] for r in rows] == ["1", "2"]
    assert rows[0]["finishing_stacks"] == [300, 0]


def test_BET_7_illegal_action_names_the_rule_and_line(tmp_path):
    out = feltctl(write(tmp_path, "bad.phh", ILLEGAL), "--json")
    assert out.returncode != 0
    r = json.loads(out.stdout)
    assert r["rule"] == "BET-7"
    assert r["line"] == 8
    assert r["action"] == "p3 cbr 3"
    assert r["legal"] == [4, 100]  # min raise-to (BET-7) .. all-in
    assert "error" in r


def test_broken_file_names_the_line(tmp_path):
    out = feltctl(write(tmp_path, "broken.phh", BROKEN), "--json")
    assert out.returncode != 0
    r = json.loads(out.stdout)
    assert r["line"] == 3 and "error" in r


def test_missing_file_is_an_error_object(tmp_path):
    out = feltctl("--jsonl", str(tmp_path / "nope.phh"), write(tmp_path, "ok.phh", HEADS_UP_NT))
    assert out.returncode != 0
    rows = [json.loads(x) for x in out.stdout.splitlines()]
    assert "error" in rows[0] and rows[0]["file"].endswith("nope.phh")
    assert rows[1]["finishing_stacks"] == [300, 0]


def test_json_wants_exactly_one_file(tmp_path):
    out = feltctl("--json", write(tmp_path, "a.phh", HEADS_UP_NT), write(tmp_path, "b.phh", HEADS_UP_NT))
    assert out.returncode != 0 and "error" in json.loads(out.stdout)


# Identical output with the firmware loaded as plain .mpy files (code in the heap: 512K); the
# emulated 128 KB board is the test after these.
@pytest.mark.parametrize("name,text", [("hu.phh", HEADS_UP_NT), ("d.phh", DECIMAL_SPLIT),
                                       ("bad.phh", ILLEGAL), ("broken.phh", BROKEN),
                                       # line ends: CRLF is a TOML newline, a lone CR is not (both
                                       # runtimes must refuse it alike: CPython's text mode used to
                                       # turn it into newlines, MicroPython's does not)
                                       ("crlf.phh", HEADS_UP_NT.replace("\n", "\r\n")),
                                       ("cr.phh", HEADS_UP_NT.replace("\n", "\r"))])
def test_micropython_prints_identical_bytes(tmp_path, name, text):
    path = write(tmp_path, name, text)
    host = feltctl("--jsonl", path)
    mpy = feltctl("--jsonl", path, "--runtime", "micropython", "--heapsize", "512K")
    assert mpy.stdout == host.stdout, mpy.stderr
    assert mpy.returncode == host.returncode


# The 32-bit WebAssembly port (issue 19 item 4): the same bytes and exit status, the firmware run from
# its ROMFS image; a relative path is read from the caller's folder there too.
@pytest.mark.parametrize("name,text", [("hu.phh", HEADS_UP_NT), ("d.phh", DECIMAL_SPLIT),
                                       ("bad.phh", ILLEGAL), ("broken.phh", BROKEN),
                                       ("crlf.phh", HEADS_UP_NT.replace("\n", "\r\n")),
                                       ("cr.phh", HEADS_UP_NT.replace("\n", "\r"))])
def test_wasm_prints_identical_bytes(tmp_path, name, text):
    path = write(tmp_path, name, text)
    host = feltctl("--jsonl", path)
    wasm = feltctl("--jsonl", path, "--runtime", "wasm")
    assert wasm.stdout == host.stdout, wasm.stderr
    assert wasm.returncode == host.returncode


def test_wasm_relative_and_missing_paths(tmp_path):
    write(tmp_path, "hu.phh", HEADS_UP_NT)
    cmd = [sys.executable, "-m", "feltctl", "replay", "--jsonl", "hu.phh", "nope.phh"]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(REPO, "host_tools") + os.pathsep + os.path.join(REPO, "firmware")
    host = subprocess.run(cmd, capture_output=True, text=True, cwd=str(tmp_path), env=env, timeout=300)
    wasm = subprocess.run(cmd + ["--runtime", "wasm"], capture_output=True, text=True, cwd=str(tmp_path), env=env,
                          timeout=300)
    assert host.returncode == 1 and "nope.phh" in host.stdout
    assert wasm.stdout == host.stdout and wasm.returncode == host.returncode, wasm.stderr


# The emulated board (hardware/memory.md): the firmware in a ROMFS image, 128 KB of RAM beside it
# (the default of --runtime micropython); 16 KB less RAM must fail, so the RAM limit is real.
def test_micropython_replay_fits_the_device_heap_128K(tmp_path):
    path = write(tmp_path, "hu.phh", HEADS_UP_NT)
    mpy = feltctl("--json", path, "--runtime", "micropython")
    assert mpy.returncode == 0, mpy.stdout
    assert json.loads(mpy.stdout)["finishing_stacks"] == [300, 0]
    assert mpy.stdout == feltctl("--json", path).stdout
    small = feltctl("--json", path, "--runtime", "micropython", "--ram", "64K")
    assert small.returncode != 0 and "MemoryError" in small.stdout


def test_help_lists_replay():
    out = subprocess.run([sys.executable, "-m", "feltctl", "--help"], capture_output=True, text=True,
                         cwd=REPO, timeout=60)
    assert "replay" in out.stdout
    assert os.path.isdir(os.path.join(REPO, "firmware", "felt"))


def test_unfinished_hand_and_unknown_variant_are_errors(tmp_path):
    cut = HEADS_UP_NT.replace("  'p1 sm AhAd', 'p2 sm KhKd',\n", "").replace("  'd db 2c3c4d', 'd db 9s', 'd db Jh',\n", "")
    out = feltctl("--jsonl", write(tmp_path, "cut.phh", cut),
                  write(tmp_path, "xx.phh", HEADS_UP_NT.replace("'NT'", "'XX'")))
    assert out.returncode != 0
    cut_r, xx_r = [json.loads(x) for x in out.stdout.splitlines()]
    assert "not finished" in cut_r["error"] and cut_r["line"] == 10
    assert "unknown variant" in xx_r["error"]


# A path is read where the user typed it: the emulated board ran in firmware/, so a relative name
# ('hand.phh' in the user's folder) was "cannot read the file (errno 2)" on micropython only.
def test_micropython_reads_a_relative_path_from_the_callers_folder(tmp_path):
    write(tmp_path, "hu.phh", HEADS_UP_NT)
    cmd = [sys.executable, "-m", "feltctl", "replay", "--jsonl", "hu.phh"]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(REPO, "host_tools") + os.pathsep + os.path.join(REPO, "firmware")
    host = subprocess.run(cmd, capture_output=True, text=True, cwd=str(tmp_path), env=env, timeout=300)
    assert host.returncode == 0, host.stdout + host.stderr
    for extra in ([], ["--heapsize", "512K"]):
        mpy = subprocess.run(cmd + ["--runtime", "micropython"] + extra, capture_output=True, text=True,
                             cwd=str(tmp_path), env=env, timeout=300)
        assert mpy.stdout == host.stdout, (extra, mpy.stderr)
        assert mpy.returncode == 0


# --ram / --heapsize that are not sizes (or too small for the interpreter to start) are a usage
# error naming the option; '--ram abc' was a ValueError traceback and '--ram 1K' a
# CalledProcessError traceback from the interpreter that would not start, both with exit 1.
@pytest.mark.parametrize("option,value", [("--ram", "abc"), ("--ram", "1K"), ("--heapsize", "abc"),
                                          ("--heapsize", "12Q")])
def test_a_bad_ram_or_heap_size_is_a_usage_error_not_a_traceback(tmp_path, option, value):
    out = feltctl(write(tmp_path, "hu.phh", HEADS_UP_NT), "--runtime", "micropython", option, value)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr and option in out.stderr
