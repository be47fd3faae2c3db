# The firmware's heap policy (runtime layer), set once at boot by felt.runtime.app.run. By default
# MicroPython collects only when an allocation fails; by then a hand's garbage has been spread
# between its long-lived objects, and a dict that must grow finds no hole big enough although
# much RAM is free (hardware/memory.md, whole firmware: fragmentation). Collecting after every
# COLLECT_EVERY bytes allocated keeps the heap dense.
import gc
import sys

# Measured on the emulated 128 KB board (64-bit unix port), three ten-seat Omaha hi-lo hands
# through the simulated hardware: 412 KB of RAM needed with collections only on failure,
# 320 KB with a collection every 8 KB (2 KB: 317 KB; 32 KB: 330 KB); the live peak is ~316 KB.
COLLECT_EVERY = 8192


def collect_early(every=COLLECT_EVERY):
    """Collect now and then after every `every` bytes allocated (MicroPython's gc.threshold).
    Returns False where the interpreter has no such setting (CPython manages its own heap)."""
    threshold = getattr(gc, "threshold", None)
    if threshold is None or not hasattr(gc, "mem_alloc"):
        return False
    gc.collect()
    threshold(every)
    return True


def forget(name):
    """Drop module `name`, needed only while the board starts (hardware/memory.md, Idioms 7): out of
    sys.modules and off its package, its functions, dict and constants are garbage once nothing
    else refers to them (a later import loads it again). Returns whether it was loaded."""
    module = sys.modules.pop(name, None)
    if module is None:
        return False
    package, _dot, leaf = name.rpartition(".")
    parent = sys.modules.get(package)
    if parent is not None and getattr(parent, leaf, None) is module:
        delattr(parent, leaf)
    return True
