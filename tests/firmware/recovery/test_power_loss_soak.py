# A few hands of the soak (tests/soak/soak.py) in the regular test run, on both interpreters:
# faults (corrupted frames, double reads, reader drop-outs, a silent shoe, bounces) and power
# resets, with its checks -- no lost hand, chips conserved, history stored once per hand.
import sys

import check
from check import eq

_base = check.__file__.rsplit("/", 1)[0] if "/" in check.__file__ else "."
_soak = (_base.rsplit("/", 1)[0] if "/" in _base else "..") + "/soak"
if _soak not in sys.path:
    sys.path.insert(0, _soak)

import soak  # noqa: E402


def test_soak_short_run_with_faults_and_power_resets():
    totals = soak.run_one(8, 3, 40, quiet=True)
    eq(totals["hands"], 8)
    eq(totals["restarts"] > 0, True, "power resets happened")
    eq(sum(totals["faults"].values()) > 0, True, "faults were injected: %r" % totals["faults"])
