# Blackjack round histories (felt.history.blackjack; hardware/blackjack-history.md): a settled round
# written as one line replays to the same nets; a line that was altered or breaks a rule is reported
# by line, input and rule; the engine re-writes a history it wrote unchanged.
from check import eq, raises
from felt.engine.blackjack.round import Round
from felt.engine.blackjack.rules import BlackjackRules
from felt.engine.blackjack.tokens import play
from felt.errors import FormatError
from felt.history import blackjack as bjh

SCRIPT = "b1=10 b3=25 go 1:Ah 3:Td D:6c 1:Kd 3:5s D:9h 3h 3:4c 3s D:2c"


def settled(rules=None, script=SCRIPT):
    return play(Round(rules or BlackjackRules()), script)


def test_BJ_19_a_round_line_carries_inputs_and_nets():
    line = bjh.write_line(settled(), 12, shoe=3, table="T1")
    eq(line, "round=12 shoe=3 table=T1 | " + SCRIPT + " | net 1:+15 3:+25")
    r = bjh.replay_line(line, 2)
    eq(r["net"], {"1": 15, "3": 25})
    eq((r["round"], r["shoe"], r["dealer"]), (12, "3", "6c9h2c"))
    eq(r["hands"], ["1:AhKd:blackjack:10:25", "3:Td5s4c:win:25:50"])
    assert "error" not in r


def test_BJ_17_house_rules_travel_with_the_line():
    rules = BlackjackRules({"hole_card": "enhc", "soft17": "hit"})
    rnd = settled(rules, "b1=10 go 1:Tc D:6d 1:7d 1s D:Ah")  # H17: soft 17 draws
    line = bjh.write_line(play(rnd, "D:3c"), 1)
    eq(line, "round=1 rules=soft17=hit,hole_card=enhc | b1=10 go 1:Tc D:6d 1:7d 1s D:Ah D:3c | net 1:-10")
    eq(bjh.replay_line(line)["net"], {"1": -10})


def test_BJ_19_an_altered_net_or_card_is_found():
    line = bjh.write_line(settled(), 1)
    r = bjh.replay_line(line.replace("3:+25", "3:+50"), 5)
    assert "differ" in r["error"] and r["line"] == 5, r
    r = bjh.replay_line(line.replace("D:2c", "D:Kc"), 5)  # the dealer busts instead: the same nets
    eq(r.get("error"), None)
    r = bjh.replay_line(line.replace("D:2c", "D:5c"), 5)  # 20 beats box 3's 19
    assert "differ" in r["error"], r


def test_BJ_25_a_refused_input_names_line_input_and_rule():
    line = bjh.write_line(settled(), 1).replace("3:4c", "1:4c")
    r = bjh.replay_line(line, 7)
    eq((r["rule"], r["line"], r["input"], r["token"]), ("BJ-25", 7, 11, "1:4c"))


def test_history_format_errors_are_named():
    for bad in ("round=1 | go", "round=x | go | net", "round=1 | go | won 1:+1", "round=1 | go | net 1:5",
                "seat=1 round=1 | go | net"):
        with raises(FormatError):
            bjh.parse_line(bad, 3)
        assert "error" in bjh.replay_line(bad, 3)
    r = bjh.replay_line("round=1 rules=soft17=often | go | net", 3)
    assert "soft17" in r["error"], r
    r = bjh.replay_line("round=1 | b1=10 go 1:Tc | net 1:+0", 3)
    assert "before the round is settled" in r["error"], r
    eq(bjh.replay_text("round=1 | go | net")[0]["line"], 1)  # no header


def test_a_history_rewritten_by_the_engine_is_unchanged():
    lines = [bjh.HEADER, bjh.write_line(settled(), 1, shoe=1),
             bjh.write_line(settled(BlackjackRules({"blackjack_pays": "6:5"})), 2, shoe=1), ""]
    text = "\n".join(lines)
    eq(bjh.rewrite_text(text), text)
    eq([r["net"] for r in bjh.replay_text(text)], [{"1": 15, "3": 25}, {"1": 12, "3": 25}])
    broken = text.replace("1:+12", "1:+15")
    out = bjh.rewrite_text(broken)
    assert "# error: the replay nets" in out, out
