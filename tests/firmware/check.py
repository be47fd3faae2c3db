# Tiny test helpers that work the same under pytest (CPython) and the MicroPython runner
# (tests/mprun.py), since MicroPython has no unittest/pytest. Firmware tests import only this.
import sys

MICROPYTHON = sys.implementation.name == "micropython"


class Skip(Exception):
    """Raise to skip a test (e.g. hardware or a module this interpreter lacks)."""


class raises:
    """`with raises(RuleError) as e: ...` -- fails unless the block raises `exc`;
    e.value is the exception afterwards."""

    def __init__(self, exc, match=None):
        self.exc = exc
        self.match = match
        self.value = None

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            raise AssertionError("expected %s, nothing was raised" % self.exc.__name__)
        if not issubclass(kind, self.exc):
            return False
        if self.match is not None and self.match not in str(value):
            raise AssertionError("%s raised, but %r is not in %r" % (kind.__name__, self.match, str(value)))
        self.value = value
        return True


def eq(got, want, what=""):
    """assert got == want with both values in the message."""
    if got != want:
        raise AssertionError("%sgot %r, want %r" % ((what + ": ") if what else "", got, want))


def repo_path(rel):
    """A path in the repository (`rel` from its top, e.g. "hardware/boards/pico.json"), found from
    where this file sits (tests/firmware/check.py), so a test finds its data wherever under
    tests/firmware/ its own file is."""
    here = __file__.replace("\\", "/")
    cut = here.rfind("/")
    folder = here[:cut] if cut >= 0 else "."
    return folder + "/../../" + rel
