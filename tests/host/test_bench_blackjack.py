# tests/benchmarks/bench_blackjack.py (issue 17 item 5) runs and reports its ratios against the
# peers measured in the same run (a short run; `make bench` runs the full one).
import os
import re
import sys

from feltctl.paths import REPO

sys.path.insert(0, os.path.join(REPO, "tests", "benchmarks"))


def test_bench_blackjack_reports_ratios_to_its_peers(capsys):
    import bench_blackjack

    assert bench_blackjack.main(["--rounds", "20", "--hands", "5"]) == 0
    out = capsys.readouterr().out
    assert "20 seven-box rounds" in out, out
    for line in ("table / bare engine, same rounds, same run:", "per input event, blackjack / poker table"):
        got = [x for x in out.splitlines() if line in x]
        assert got and re.search(r": +[0-9]+\.[0-9]{2}x", got[0]), out
