# Number text is ASCII digits only (felt.textnum) where Felt reads names and settings: the sim
# script's table statement, journal generation names, audit record numbers. str.isdigit() takes
# '\u00b2' (int() then fails) and int() takes ' 5', '+5', '1_0' and Arabic-Indic digits.
from check import eq, raises

from felt.errors import ConfigError, FormatError
from felt.sim.runner import Sim
from felt.textnum import is_digits, parse_uint

BAD = ("", " 5", "5 ", "+5", "-5", "1_0", "\u00b2", "\u0663", "5\u0663", "0x5", "5.0")


def test_is_digits_and_parse_uint_take_ascii_digits_only():
    for good, value in (("0", 0), ("7", 7), ("0042", 42), ("123456789", 123456789)):
        assert is_digits(good)
        eq(parse_uint(good), value)
    for bad in BAD:
        assert not is_digits(bad), repr(bad)
        with raises(FormatError, match="seats must be ASCII digits 0-9"):
            parse_uint(bad, "seats")
    with raises(ConfigError, match="keep must be ASCII digits"):
        parse_uint("\u00b9", "keep", error=ConfigError)


def test_sim_table_statement_refuses_non_ascii_numbers_with_the_setting_named():
    for text, name in (("table holdem no_limit seats=\u0663 sb=1 bb=2", "seats"),
                       ("table holdem no_limit seats=3 sb=+1 bb=2", "sb"),
                       ("table holdem no_limit seats=3 sb=1 bb=\u00b2", "bb"),
                       ("table holdem no_limit seats= sb=1 bb=2", "seats")):
        sim = Sim()
        with raises(FormatError, match="%s must be ASCII digits 0-9" % name):
            sim.run(text)
    sim = Sim()
    sim.run("table holdem no_limit seats=3 sb=1 bb=2")
    assert sim.table is not None
