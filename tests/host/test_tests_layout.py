# The tests' own layout (issue 13 item 5), kept so: firmware tests sit in one folder per layer
# (tests/firmware/<layer>/, none directly in tests/firmware/), helpers they share live in
# tests/firmware/kit.py (and check.py) -- no test module imports another -- and every test named
# after a rule carries its ID in one form, test_BET_7_... (upper case, at the front), so a grep for
# BET_7 finds them all. /work/notes/tools/tests_by_layer.py moves and renames files to fit.
import os
import re

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(TESTS, "firmware")
LAYERS = {"engine", "proto", "drivers", "hal", "table", "recovery", "security", "e2e", "runtime", "history", "room"}
PREFIXES = "BET|BJ|BLIND|CASH|DEAL|DECK|GAME|POT|RANK|RP|SHOW|TOUR"  # the rule families of RULES.md and BJ (hardware/rules-blackjack.md)
RULE_ID = re.compile(r"(?<![A-Za-z0-9])(%s)_(\d+)(?=_|$)" % PREFIXES, re.I)
ONE_FORM = re.compile(r"^test_(%s)_\d+(_|$)" % PREFIXES)
IMPORTS_A_TEST = re.compile(r"^\s*(?:from|import)\s+(test_\w+)", re.M)


def python_files():
    for top, dirs, files in os.walk(TESTS):
        dirs[:] = [d for d in dirs if d not in ("data", "__pycache__") and not d.startswith(".")]
        for f in files:
            if f.endswith(".py"):
                yield os.path.join(top, f)


def all_test_files():
    return [p for p in python_files() if os.path.basename(p).startswith("test_")]


def rel(path):
    return os.path.relpath(path, TESTS)


def test_no_module_under_tests_imports_a_test_module():
    found = []
    for p in python_files():
        with open(p) as f:
            for m in IMPORTS_A_TEST.finditer(f.read()):
                found.append("%s imports %s" % (rel(p), m.group(1)))
    assert found == [], "move the shared helper into tests/firmware/kit.py:\n" + "\n".join(found)


def test_firmware_tests_sit_in_a_layer_folder():
    top = sorted(f for f in os.listdir(FIRMWARE) if f.startswith("test_") and f.endswith(".py"))
    assert top == [], "run /work/notes/tools/tests_by_layer.py (or git mv into a layer folder): %s" % top
    elsewhere = sorted(rel(p) for p in all_test_files() if p.startswith(FIRMWARE + os.sep)
                       and os.path.relpath(p, FIRMWARE).split(os.sep)[0] not in LAYERS)
    assert elsewhere == [], elsewhere
    others = sorted(f for f in os.listdir(FIRMWARE)
                    if f not in LAYERS and f not in ("check.py", "kit.py", "data", "__pycache__"))
    assert others == [], "tests/firmware/ holds check.py, kit.py, data/ and the layer folders only: %s" % others


def test_test_file_names_are_unique():
    # both runners import a test module by its file name (pytest's default import mode, tests/mprun.py)
    seen = {}
    for p in all_test_files():
        seen.setdefault(os.path.basename(p), []).append(rel(p))
    assert [v for v in seen.values() if len(v) > 1] == []


def test_rule_id_test_names_have_one_form():
    bad = []
    for p in all_test_files():
        with open(p) as f:
            for name in re.findall(r"^\s*def (test_\w+)\(", f.read(), re.M):
                if not RULE_ID.search(name[5:]):
                    continue
                upper = RULE_ID.sub(lambda m: m.group(1).upper() + "_" + m.group(2), name)
                if not ONE_FORM.match(name) or upper != name:
                    bad.append("%s::%s" % (rel(p), name))
    assert bad == [], "rule IDs go first, upper case (test_BET_7_...):\n" + "\n".join(bad)


def test_the_rule_id_pattern_sees_every_form_it_forbids():
    # the check above is only as good as its pattern: the three forms found before the move
    for name in ("test_bet_7_raise", "test_premature_flop_DEAL_30_confirm", "test_kill_the_actor_DEAL_38"):
        assert RULE_ID.search(name[5:]), name
        assert not ONE_FORM.match(name), name
    assert ONE_FORM.match("test_BET_39_example_tda2019_unchanged_action_binds")
    assert not RULE_ID.search("pot_limit_omaha_raise_to_2x")
