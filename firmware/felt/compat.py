# MicroPython compatibility (all layers): MICROPYTHON says which interpreter runs, and const() is
# micropython.const there -- the compiler folds `_NAME = const(...)` away: no global, no dict slot,
# no interned name (hardware/memory.md) -- and the identity on CPython.
import sys

MICROPYTHON = sys.implementation.name == "micropython"

if MICROPYTHON:
    from micropython import const  # noqa: F401
else:
    def const(x):
        return x
