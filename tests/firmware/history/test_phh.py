# felt.history.phh: the PHH (TOML subset) reader and writer -- decimals to exact chips, unknown cards,
# comments, multi-hand .phhs tables, and broken files named by line. Runs on CPython and MicroPython.
from check import eq, raises
from felt.errors import FormatError
from felt.history import phh

DWAN_IVEY = """# The first televised million dollar pot between Tom Dwan and Phil Ivey.

variant = "NT"
ante_trimming_status = true
antes = [500, 500, 500]
blinds_or_straddles = [1000, 2000, 0]
min_bet = 2000
starting_stacks = [1125600, 2000000, 553500]
actions = [
  # Pre-flop

  "d dh p1 Ac2d",  # Ivey
  "d dh p2 ????",  # Antonius
  "d dh p3 7h6h",  # Dwan
  "p3 cbr 7000",  # Dwan
  "p1 cbr 23000 # a comment inside the action",
  "p2 f",
]
author = "Juho Kim"
year = 2009
players = ["Phil Ivey", "Patrik Antonius", "Tom Dwan"]
"""

DECIMALS = """variant = 'PO'
antes = [0, 0]
blinds_or_straddles = [0.25, 0.5]
min_bet = 0.5
starting_stacks = [1259450.25, 678473.5]
actions = ['d dh p1 Ah3sKsKh', 'd dh p2 6d9s7d8h', 'p2 cbr 1.5']
finishing_stacks = [1259450.25, 678473.5]
"""


def test_reads_fields_and_passes_others_through():
    h = phh.read(DWAN_IVEY)
    eq(h.variant, "NT")
    eq(h.scale, 1)
    eq(h.antes, [500, 500, 500])
    eq(h.blinds_or_straddles, [1000, 2000, 0])
    eq(h.min_bet, 2000)
    eq(h.starting_stacks, [1125600, 2000000, 553500])
    eq(h.ante_trimming_status, True)
    eq(h.players, ["Phil Ivey", "Patrik Antonius", "Tom Dwan"])
    eq(h.finishing_stacks, None)
    eq(h.get("author"), "Juho Kim")
    eq(h.get("year"), 2009)
    eq(len(h.actions), 6)


def test_action_lines_are_the_file_lines():
    h = phh.read(DWAN_IVEY)
    eq(h.action_lines, [12, 13, 14, 15, 16, 17])
    acts = phh.actions_of(h)
    eq(acts[1].cards, ["??", "??"])
    eq(acts[1].actor, "d")
    eq(acts[1].verb, "dh")
    eq(acts[3].actor, 2)
    eq(acts[3].amount, 7000)
    eq(acts[4].comment, "a comment inside the action")
    eq(acts[4].amount, 23000)
    eq(acts[5].verb, "f")


def test_decimals_become_exact_integer_chips():
    h = phh.read(DECIMALS)
    eq(h.scale, 100)
    eq(h.starting_stacks, [125945025, 67847350])
    eq(h.blinds_or_straddles, [25, 50])
    eq(h.min_bet, 50)
    eq(h.finishing_stacks, [125945025, 67847350])
    eq(phh.actions_of(h)[2].amount, 150)
    eq(phh.format_amount(67847350, 100), "678473.50")
    eq(phh.format_amount(-5, 100), "-0.05")
    eq(phh.format_amount(7, 1), 7)


def test_scale_ignores_finer_finishing_stacks():
    # half chips recorded for a split pot do not make a 0.5 chip exist: kept raw, not converted
    text = "variant = 'NT'\nantes = 0\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n" \
           "starting_stacks = [100, 100]\nactions = []\nfinishing_stacks = [100.5, 99.5]\n"
    h = phh.read(text)
    eq(h.scale, 1)
    eq(h.finishing_stacks, None)
    eq(h.finishing_raw[0], phh.Dec(1005, 1))
    eq(h.antes, [0, 0])


def test_numbers_exact_no_floats():
    eq(phh.parse_number("1_000"), 1000)
    eq(phh.parse_number("-3"), -3)
    eq(phh.parse_number("0.10"), phh.Dec(10, 2))
    eq(phh.parse_number("1.5e2"), phh.Dec(150, 0))
    eq(phh.parse_number("25e-2"), phh.Dec(25, 2))
    with raises(FormatError):
        phh.parse_number("1.2.3")
    with raises(FormatError):
        phh.parse_number("0x")


def test_strings_escapes_and_literals():
    t = phh.parse_toml('a = "x\\"y\\u00e9\\\\"\nb = \'c:\\\\d\'\nc = """\nab\ncd"""\nd = 12:30:00\n')[0][1]
    eq(t.get("a"), 'x"y\u00e9\\')
    eq(t.get("b"), "c:\\\\d")
    eq(t.get("c"), "ab\ncd")
    eq(t.get("d"), phh.Raw("12:30:00"))


def test_inline_table_and_nested_array():
    t = phh.parse_toml("w = {p1 = 5, 'p 2' = [1, 2]}\nx = [[1, 2], [3]]\n")[0][1]
    eq(t.get("w").get("p1"), 5)
    eq(t.get("w").get("p 2"), [1, 2])
    eq(t.get("x"), [[1, 2], [3]])


def test_multi_hand_tables():
    text = "[1]\n" + DECIMALS + "\n[2]\n" + DWAN_IVEY
    hands = phh.read_all(text)
    eq(len(hands), 2)
    eq(hands[0].name, "1")
    eq(hands[0].scale, 100)
    eq(hands[1].name, "2")
    eq(hands[1].variant, "NT")
    eq(hands[1].action_lines[0], 10 + 12)  # "[2]" is line 10
    with raises(FormatError, match="read_all"):
        phh.read(text)


def test_broken_files_name_the_line():
    cases = [
        ("variant = 'NT'\nantes = [1, 2\nstarting_stacks = [1]\n", 3),  # unterminated array
        ("variant = 'NT'\nvariant = 'FT'\n", 2),
        ("variant = 'NT\nx = 1\n", 1),
        ("variant = 'NT'\nantes == 1\n", 2),
        ("variant = 'NT'\nx = 1 2\n", 2),
        ("a.b = 1\n", 1),
        ("[1]\nx = 1\n[1]\n", 3),
        ("x = \"bad \\q escape\"\n", 1),
    ]
    for text, line in cases:
        with raises(FormatError) as e:
            phh.read(text)
        eq(e.value.line, line, text)


def test_missing_and_bad_fields():
    with raises(FormatError, match="starting_stacks"):
        phh.read("variant = 'NT'\nactions = []\n")
    with raises(FormatError) as e:
        phh.read("variant = 'NT'\nstarting_stacks = [1, 'x']\nactions = []\n")
    eq(e.value.line, 2)
    with raises(FormatError) as e:
        phh.read("variant = 'NT'\nstarting_stacks = [1, 2]\nactions = [\n  'p1 f',\n  'p1 cbr 1.2.3',\n]\n")
    eq(e.value.line, 5)


def test_bad_actions_name_the_line():
    for text in ("p0 f", "x1 f", "p1 zz", "p1 cbr", "d dh p1 A", "d dh p1 Xh", "d db", "p1 sm AhK?"):
        with raises(FormatError) as e:
            phh.parse_action(text, 1, 9)
        eq(e.value.line, 9, text)


def test_stand_pat_show_and_muck():
    a = phh.parse_action("p2 sd", 1)
    eq((a.actor, a.verb, a.cards), (1, "sd", []))
    a = phh.parse_action("p4 sd AsQs", 1)
    eq(a.cards, ["As", "Qs"])
    a = phh.parse_action("p1 sm", 1)
    eq((a.verb, a.cards), ("sm", []))
    a = phh.parse_action("# just a comment", 1)
    eq((a.verb, a.comment), ("", "just a comment"))


def test_round_trip_keeps_everything():
    for text in (DWAN_IVEY, DECIMALS):
        h = phh.read(text)
        again = phh.read(phh.write(h))
        for f in ("variant", "scale", "antes", "blinds_or_straddles", "min_bet", "starting_stacks",
                  "actions", "players", "finishing_stacks", "ante_trimming_status"):
            eq(getattr(again, f), getattr(h, f), f)
        eq(again.extra, h.extra)


def test_writer_quotes_awkward_strings():
    h = phh.History("NT", [100, 100], ["p1 f"], antes=0, blinds_or_straddles=[1, 2], min_bet=2,
                    extra=[("event", "Bob's \"game\"\n"), ("_x y", 1)])
    text = phh.write(h)
    again = phh.read(text)
    eq(again.get("event"), "Bob's \"game\"\n")
    eq(again.get("_x y"), 1)


def test_write_all_numbers_tables():
    h = phh.read(DECIMALS)
    text = phh.write_all([h, h])
    hands = phh.read_all(text)
    eq([x.name for x in hands], ["1", "2"])
    eq(hands[1].starting_stacks, [125945025, 67847350])
    assert "starting_stacks = [1259450.25, 678473.50]" in text


def test_replay_names_the_line_of_a_bad_dealt_card():
    # replay maps dealt card text straight to ints (phh.fields split=False); a bad card is still
    # a FormatError naming the card and the action's line
    from felt.history import replay
    text = ("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
            "starting_stacks = [100, 100]\nactions = [\n  'd dh p1 AcKd',\n  'd dh p2 AhXx',\n]\n")
    r = replay.replay_text(text)[0]
    eq(r["error"], "bad card 'Xx'")
    eq(r["line"], 8)
    r = replay.replay_text(text.replace("AhXx", "AhK"))[0]
    eq((r["error"], r["line"]), ("bad cards 'AhK'", 8))
    r = replay.replay_text(text.replace("AhXx", "AcAh"))[0]
    eq(r["rule"], "DECK-5")  # a good card twice in the hand
