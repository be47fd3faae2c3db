# felt.history.phh_write: the PHH records and writer, all a table loads to write each finished hand;
# the reader (felt.history.phh, which re-exports them) stays unloaded on a table -- ~5 KB of RAM on a
# 32-bit board (hardware/memory.md, "The firmware's own live RAM"). CPython and MicroPython.
import sys

from check import eq
from kit import deal, fold_out
import felt.history
from felt.history import phh, phh_write
from felt.sim.runner import Sim


def test_phh_re_exports_the_writer_and_its_records():
    for name in ("History", "Dec", "Raw", "Table", "format_amount", "write", "write_all", "FIELD_ORDER"):
        assert getattr(phh, name) is getattr(phh_write, name), name


def test_a_table_writing_its_hands_loads_the_writer_not_the_reader():
    # unloaded for the test: out of sys.modules and off its package (an import finds it in either)
    reader = sys.modules.pop("felt.history.phh")
    delattr(felt.history, "phh")
    try:
        hist = []
        sim = Sim(history=hist.append)
        sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1")
        for s in (1, 2, 3):
            sim.run("seat %d 1000" % s)
        sim.run("hand")
        deal(sim)
        fold_out(sim)
        eq(len(hist), 1)
        assert "felt.history.phh_write" in sys.modules
        eq("felt.history.phh" in sys.modules, False)
    finally:
        sys.modules["felt.history.phh"] = reader
        felt.history.phh = reader
    # what was written reads back with the reader
    eq(phh.read(hist[0]).variant, "NT")
