# The exception tree (felt.errors): rule IDs travel as attributes (MicroPython drops causes).
from check import eq, raises
from felt.errors import DuplicateCard, FeltError, FormatError, RuleError


def test_rule_error_carries_rule_and_legal_range():
    with raises(FeltError) as e:
        raise RuleError("BET-7", "raise to 150 is below the minimum", legal=(200, 1000))
    eq(e.value.rule, "BET-7")
    eq(e.value.legal, (200, 1000))
    assert str(e.value).startswith("BET-7: ")


def test_rule_error_from_one_text_with_the_rule_id_first():
    # the engine's form (hardware/memory.md): the ID leads the text, split off at the first ": "
    e = RuleError("BET-38: seat 3 acted out of turn; seat 5 is to act: call 20", legal=4)
    eq((e.rule, e.message, e.legal), ("BET-38", "seat 3 acted out of turn; seat 5 is to act: call 20", 4))
    eq(str(e), "BET-38: seat 3 acted out of turn; seat 5 is to act: call 20")
    d = DuplicateCard("DECK-5: card 7 is already in this hand")
    eq((d.rule, d.message, d.legal), ("DECK-5", "card 7 is already in this hand", None))
    eq(str(d), str(DuplicateCard("DECK-5", "card 7 is already in this hand")))
    eq(RuleError("no rule id here").message, "no rule id here")  # no ID: the whole text is the message


def test_deck_errors_are_rule_errors():
    with raises(FeltError):
        raise DuplicateCard("DECK-5", "Ah seen twice")


def test_format_error_names_line():
    eq(str(FormatError("bad amount", line=7)), "line 7: bad amount")
