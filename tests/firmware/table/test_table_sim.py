# The sim runner's statement reader (felt.sim.runner): a malformed statement is an error naming its
# line, never silently skipped; run_lines prints one JSON line per `state` and stops at an error.
import json

from check import eq, raises

from felt.errors import FormatError
from felt.sim.runner import Sim, card_uid, run_lines


def test_card_uids_are_fixed_and_documented():
    eq(card_uid(50), bytes([0x04, 0xFE, 0x17, 0x41, 0x00, 0x00, 50]))  # Ah of deck A
    eq(card_uid(0, "B"), bytes([0x04, 0xFE, 0x17, 0x42, 0x00, 0x00, 0]))


def test_malformed_statements_name_their_line():
    sim = Sim()
    with raises(FormatError, match="table statement"):
        sim.run("hand")
    sim.run("table holdem no_limit seats=3 bb=2")
    for bad in ("bogus", "draw Xx to seat 1", "draw Ah to seat 9", "draw Ah seat 1", "act 1 dance",
                "move Ah from seat 1 to seat 2", "table holdem bogus seats=3"):
        with raises(FormatError) as e:
            sim.run(bad)
        assert e.value.line is not None, bad


def test_run_lines_prints_states_and_stops_at_an_error():
    out = []
    rc = run_lines(["table holdem no_limit seats=2 sb=1 bb=2", "# a comment", "", "seat 1 50", "seat 2 50", "hand",
                    "state", "frobnicate", "state"], out.append)
    eq(rc, 1)
    eq(len(out), 2)
    eq(json.loads(out[0])["street"], "preflop")
    eq(json.loads(out[1]), {"error": "unknown statement 'frobnicate'", "line": 8})
