# Strict number text (any layer; pure): ASCII digits only, for file names, protocol tokens and
# config values. CPython's str.isdigit() also says yes to '\u00b2' and kin, which int() then
# refuses (a crash), and int() itself takes ' 5', '+5', '1_0' and Arabic-Indic digits (an alias
# of another name): so `s.isdigit()` + `int(s)` is not a parser. MicroPython's isdigit is ASCII.
from felt.errors import FormatError


def is_digits(text):
    """True for a non-empty run of the ASCII digits 0-9 and nothing else. isdigit() runs in C;
    every non-ASCII digit it also accepts lies above '9', so the largest character tells."""
    if not text:
        return False
    return text.isdigit() and max(text) <= "9"


def parse_uint(text, what="number", error=FormatError):
    """The int of a non-empty ASCII-digit string, else error(message naming `what` and the text)
    -- FormatError unless the caller's layer has its own (ConfigError, AuditError, ...)."""
    if not is_digits(text):
        raise error("%s must be ASCII digits 0-9, got %r" % (what, text[:24]))
    return int(text)
