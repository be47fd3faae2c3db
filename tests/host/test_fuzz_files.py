# Fuzzing the file-shaped inputs with hypothesis: PHH hand histories (reader, writer, replay),
# house-rule configuration (text and dict) and board pin maps. Random and mutated input never
# raises anything but the named error of its channel (FormatError / ConfigError), a record that
# refuses a change stays as it was, and whatever parses writes back and parses the same.
# Examples per test: FELT_FUZZ_EXAMPLES (default 200).
import copy
import json
import os

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from felt.runtime import board
from felt.history import phh
from felt.history import replay
from felt.engine.house import rules as hr
from felt.engine.house import values as house_values
from felt.errors import ConfigError, FormatError

EXAMPLES = int(os.environ.get("FELT_FUZZ_EXAMPLES", "200"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

PHH_SAMPLES = [
    """variant = "NT"
ante_trimming_status = true
antes = [500, 500, 500]
blinds_or_straddles = [1000, 2000, 0]
min_bet = 2000
starting_stacks = [1125600, 2000000, 553500]
actions = [
  "d dh p1 Ac2d",  # Ivey
  "d dh p2 ????",
  "d dh p3 7h6h",
  "p3 cbr 7000",
  "p1 cbr 23000 # a comment inside the action",
  "p2 f",
  "p3 cc",
  "d db Jc3d5c",
  "p1 cbr 35000",
  "p3 cc",
  "d db 4h",
  "p1 cc",
  "p3 cc",
  "d db Jh",
  "p1 cc",
  "p3 cc",
  "p1 sm Ac2d",
  "p3 sm 7h6h",
]
players = ["Phil Ivey", "Patrik Antonius", "Tom Dwan"]
""",
    """variant = 'PO'
antes = [0.00, 0.00]
blinds_or_straddles = [0.50, 1.00]
min_bet = 1.00
starting_stacks = [100.25, 99.75]
actions = ['d dh p1 AcAdKcKd', 'd dh p2 2c3c4c5c', 'p2 f']
""",
    """[1]
variant = "F7S"
ante_trimming_status = true
antes = [1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [100, 100]
actions = ["d dh p1 AcAdKc", "d dh p2 2c3c4c", "p2 pb", "p1 f"]

[2]
variant = "F2L3D"
blinds_or_straddles = [1, 2]
small_bet = 2
big_bet = 4
starting_stacks = [50, 50]
actions = ["d dh p1 2c3d4h5s7c", "d dh p2 AcAdAhAsKc", "p2 f"]
""",
]

TOML_PIECES = ["variant = ", '"NT"', "_", "=_", "[", "]", "[1]", "\n", "=", "'", '"', ",", "#", "actions", "starting_stacks",
               "1.5", "-3", "p1 cbr 10", "d dh p1 ????", "{a = 1}", "true", "12:30:00", "\\u00e9", '"""', "0x10", " "]


def mutate_text(text, edits):
    s = list(text)
    for op, pos, piece in edits:
        i = pos % (len(s) + 1)
        if op == 0 and s:
            del s[i % len(s)]
        elif op == 1:
            s[i:i] = list(piece)
        elif op == 2 and s:
            s[i % len(s)] = piece[:1] or " "
    return "".join(s)


TEXT_EDITS = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 10 ** 6), st.sampled_from(TOML_PIECES)), max_size=6)


def check_phh_text(text):
    try:
        hands = phh.read_all(text)
    except FormatError as e:
        assert e.line is None or e.line >= 1
        return
    # What parses writes back to a text that parses to the same hands.
    again = phh.read_all(phh.write_all(hands))
    assert [phh.write(h) for h in again] == [phh.write(h) for h in hands]
    # Replay never raises: it reports a broken or illegal hand as a result with "error".
    results = replay.replay_text(text)
    for r in results:
        assert isinstance(r, dict)
        assert "error" in r or "finishing_stacks" in r


@FUZZ
@given(st.sampled_from(PHH_SAMPLES), TEXT_EDITS)
def test_phh_mutated_histories_give_format_errors_or_round_trip(text, edits):
    check_phh_text(mutate_text(text, edits))


@FUZZ
@given(st.text(max_size=200))
def test_phh_random_text_gives_format_errors(text):
    check_phh_text(text)


@FUZZ
@given(st.text(max_size=60), st.integers(1, 4))
def test_phh_action_parser_raises_only_format_errors(text, scale):
    try:
        a = phh.parse_action(text, scale)
    except FormatError:
        return
    assert a.verb in ("",) + phh._VERBS + ("dh", "db")


def test_phh_samples_are_valid():
    for text in PHH_SAMPLES:
        for r in replay.replay_text(text):
            assert "finishing_stacks" in r, r


# ---- house rules -------------------------------------------------------------------------------

KEYS = ["hr." + row.key for row in hr.register()] + ["mode", "game", "hr.nope", "rake", "sa_definition"]
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 10 ** 6), st.text(max_size=12),
                   st.sampled_from(["off", "tda", "cash", "tournament", "true", "false", "5%", "2.5% cap 150"]),
                   st.fixed_dictionaries({"percent": st.one_of(st.text(max_size=5), st.integers(-1, 200)),
                                          "cap": st.one_of(st.none(), st.integers(-1, 500), st.text(max_size=4))}),
                   st.lists(st.integers(), max_size=2), st.floats(allow_nan=True))


@FUZZ
@given(st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=6))
def test_house_rules_from_random_dicts_give_config_errors(data):
    try:
        rules = house_values.from_dict(data)
    except ConfigError:
        return
    # Accepted: every value is legal, and the record survives a write/read through its own text.
    assert house_values.from_dict(dict(rules.changed(), mode=rules.mode, game=rules.game)) == rules


@FUZZ
@given(st.dictionaries(st.sampled_from(KEYS[:-5]), VALUES, min_size=1, max_size=4))
def test_house_rules_refused_change_leaves_the_record_unchanged(values):
    rules = hr.HouseRules(hr.TOURNAMENT)
    before = rules.as_dict()
    try:
        new = rules.replace(values)
    except ConfigError:
        new = None
    assert rules.as_dict() == before, "replace() never changes the record it is called on"
    if new is not None:
        assert new.mode == rules.mode


CONFIG_LINES = ["hr.rake = 5% cap 150", "hr.sa_definition = tda", "mode = tournament", "# comment", "",
                "hr.rake = off", "game = holdem", "hr.nope = 3", "= 4", "hr.rake = 5% kap 1", "{", "}",
                '{"mode": "cash"}', "hr.short_buyin_once = true", "hr.rake = 150%"]


@FUZZ
@given(st.lists(st.one_of(st.sampled_from(CONFIG_LINES), st.text(max_size=30)), max_size=6), TEXT_EDITS)
def test_house_rules_text_gives_config_errors(lines, edits):
    text = mutate_text("\n".join(lines), edits)
    try:
        rules = house_values.parse_text(text)
    except ConfigError:
        return
    assert isinstance(rules, hr.HouseRules)


# ---- board files -------------------------------------------------------------------------------

def board_files():
    out = []
    folder = os.path.join(REPO, "hardware", "boards")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name)) as f:
                out.append(json.load(f))
    return out


BOARDS = board_files()
JSON_VALUES = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.text(max_size=6)),
                           lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                   st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                           max_leaves=6)


def paths(value, prefix=()):
    """Every key path inside a JSON value."""
    out = [prefix]
    if isinstance(value, dict):
        for k in value:
            out.extend(paths(value[k], prefix + (k,)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(paths(v, prefix + (i,)))
    return out


@FUZZ
@given(st.integers(0, len(BOARDS) - 1), st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, 2), JSON_VALUES),
                                                  min_size=1, max_size=4))
def test_board_mutations_give_config_errors(which, edits):
    data = copy.deepcopy(BOARDS[which])
    for pos, op, value in edits:
        ps = [p for p in paths(data) if p]
        assume(ps)
        path = ps[pos % len(ps)]
        parent = data
        for k in path[:-1]:
            parent = parent[k]
        if op == 0:
            parent[path[-1]] = value
        elif op == 1:
            del parent[path[-1]]
        elif isinstance(value, int) and isinstance(parent[path[-1]], int):
            parent[path[-1]] = value  # a pin moved somewhere else
    try:
        b = board.load(data)
    except ConfigError:
        return
    assert 1 <= b.seats <= board.MAX_SEATS


@FUZZ
@given(JSON_VALUES)
def test_board_random_json_gives_config_errors(data):
    try:
        board.load(data)
    except ConfigError:
        pass


def test_board_files_are_valid():
    assert BOARDS
    for data in BOARDS:
        board.load(data)


# ---- regressions of the bugs found here (each fixed at its root; the firmware twins of these run
# under MicroPython too: tests/firmware/proto/test_fuzz_regressions.py) -----------------------------------

def test_regression_phh_deal_to_a_non_player_is_a_format_error():
    # found by this fuzzer; fixed in phh.parse_action (the dealee is checked)
    with pytest.raises(FormatError):
        phh.parse_action("d dh 2 2c3c4c5c")


def test_regression_replay_of_a_deal_to_p_reports_an_error():
    # found by this fuzzer: replay crashed in int() on 'd dh p CARDS'; now a named error
    text = PHH_SAMPLES[1].replace("'d dh p2 2c3c4c5c'", "'d dh p 2c3c4c5c'")
    assert "error" in replay.replay_text(text)[0]


def test_regression_phh_lone_underscore_value_is_a_format_error():
    # found by atheris; fixed in phh.parse_number (TOML underscores only between digits)
    with pytest.raises(FormatError, match="line 1: bad number '_'"):
        phh.read_all("F=_")


def test_regression_house_rule_superscript_digit_is_a_config_error():
    # found by this fuzzer; fixed in settings (_digits: ASCII digits only)
    with pytest.raises(ConfigError, match="hr.draw_max_replace: '\\u00b9' is not legal"):
        house_values.from_dict({"hr.draw_max_replace": "\u00b9"})


def test_regression_house_rule_text_superscript_digit_is_a_config_error():
    # found by this fuzzer; fixed in house/values.py _scalar (_digits: ASCII digits only)
    with pytest.raises(ConfigError, match="unknown house rule 'variant'"):
        house_values.parse_text("variant = \u00b2")


def test_regression_board_reserved_as_list_is_a_config_error():
    # found by this fuzzer; fixed in board.py (_expect checks every JSON type before use)
    data = copy.deepcopy(BOARDS[1])
    data["reserved"] = [True]
    with pytest.raises(ConfigError, match="'reserved' must be an object"):
        board.load(data)


def test_regression_board_gpio_with_a_list_is_a_config_error():
    # found by this fuzzer; fixed in board.py (_expect checks every JSON type before use)
    data = copy.deepcopy(BOARDS[0])
    data["gpio"] = [[1], 2]
    with pytest.raises(ConfigError, match="'gpio' entry must be a whole number"):
        board.load(data)


def test_regression_board_null_function_pins_is_a_config_error():
    # found by this fuzzer; fixed in board.py (_expect checks every JSON type before use)
    data = copy.deepcopy(BOARDS[1])
    data["functions"]["i2c1"]["sda"] = None
    with pytest.raises(ConfigError, match="functions: i2c1 'sda' must be a list of GPIO numbers"):
        board.load(data)


def test_regression_board_uart_function_as_list_is_a_config_error():
    # found by this fuzzer; fixed in board.py (_expect checks every JSON type before use)
    data = copy.deepcopy(BOARDS[1])
    data["functions"]["uart0"] = []
    with pytest.raises(ConfigError, match="functions: 'uart0' must be an object"):
        board.load(data)


def test_regression_board_reserved_pin_name_is_a_config_error():
    # found by this fuzzer; fixed in board.py (_expect checks every JSON type before use)
    data = copy.deepcopy(BOARDS[0])
    data["reserved"] = {"x": "led"}
    with pytest.raises(ConfigError, match="reserved: 'x' is not a GPIO number"):
        board.load(data)


@pytest.mark.parametrize("text", ["F=\u00b9", "F=1\u00b9", "F=[1\u00b9]", "F=1e+-1", "F=1.\u00b9", "F=1__2", "F=1_", "F=_1",
                                  "F=-_"])
def test_regression_phh_unicode_digits_and_stray_underscores_are_format_errors(text):
    # found while fixing 'F=_': str.isdigit() takes '\u00b9' (int() does not), the exponent sign was
    # stripped twice, and TOML allows '_' only between two digits -- all in phh.parse_number/_digits
    with pytest.raises(FormatError, match="line 1: bad number"):
        phh.read_all(text)


@pytest.mark.parametrize("text", ["p\u00b9 f", "d dh p\u00b2 AcAd", "p1 cbr \u00b9", "p1 cbr 1\u00b9"])
def test_regression_phh_action_with_a_unicode_digit_is_a_format_error(text):
    with pytest.raises(FormatError, match="bad (player|number)"):
        phh.parse_action(text)


def test_regression_phh_numbers_with_underscores_still_parse():
    assert phh.parse_number("1_000") == 1000
    assert phh.parse_number("-1_0.2_5e+1") == phh.parse_number("-102.5")


@pytest.mark.parametrize("value, match", [({"percent": "\u00b9"}, "percent '\u00b9' is not a number"),
                                          ({"percent": "5", "cap": "\u00b9"}, "cap must be a chip amount"),
                                          ("1.\u00b9", "is not legal")])
def test_regression_house_rule_rake_with_a_unicode_digit_is_a_config_error(value, match):
    with pytest.raises(ConfigError, match=match):
        house_values.from_dict({"hr.rake": value})


@pytest.mark.parametrize("line", ["hr.rake = 5% cap \u00b9", "hr.rake = \u00b9.5%", "mode = cash\nhr.cash_action_timer = \u00b3", "mode = cash\nhr.bbj_min_rake = \u00b3"])
def test_regression_house_rule_text_with_a_unicode_digit_is_a_config_error(line):
    with pytest.raises(ConfigError, match="hr.(rake|cash_action_timer|bbj_min_rake)"):
        house_values.parse_text(line)
