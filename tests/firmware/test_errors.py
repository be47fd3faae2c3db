# The exception tree (felt.errors): rule IDs travel as attributes (MicroPython drops causes).
from check import eq, raises
from felt.errors import DuplicateCard, FeltError, FormatError, RuleError


def test_rule_error_carries_rule_and_legal_range():
    with raises(FeltError) as e:
        raise RuleError("BET-7", "raise to 150 is below the minimum", legal=(200, 1000))
    eq(e.value.rule, "BET-7")
    eq(e.value.legal, (200, 1000))
    assert str(e.value).startswith("BET-7: ")


def test_deck_errors_are_rule_errors():
    with raises(FeltError):
        raise DuplicateCard("DECK-5", "Ah seen twice")


def test_format_error_names_line():
    eq(str(FormatError("bad amount", line=7)), "line 7: bad amount")
