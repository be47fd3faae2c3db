# `feltctl bench`: run bench scripts (format version 1, hardware/bench-scripts.md) against the real
# firmware on the simulated table -- inside the MicroPython interpreter by default -- and report each
# failed expectation as FILE:LINE, a final `N passed, M failed` line, exit 1 when any failed.
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

from feltctl.bench_scripts import script as bench
from feltctl.paths import expand as paths_expand

HELP = "run bench scripts (*.felt) against the firmware on the simulated table"


def add_arguments(parser):
    parser.add_argument("paths", nargs="+", metavar="SCRIPT_OR_DIR", help="*%s scripts or folders of them" % bench.SUFFIX)
    parser.add_argument("--json", action="store_true", help="one JSON object per script, a line each")
    parser.add_argument("--runtime", choices=("micropython", "cpython"), default="micropython",
                        help="interpreter that runs the firmware (default micropython)")
    parser.add_argument("-j", "--jobs", type=int, default=min(4, os.cpu_count() or 1),
                        help="scripts run at once, each on its own simulated table (default: CPUs, at most 4)")


def expand(paths):
    """Files as given, folders walked (sorted) for *.felt files."""
    return paths_expand(paths, bench.SUFFIX)


def _one(path, runtime):
    if not os.path.isfile(path):
        result = bench.Result(path)
        result.error = (None, "no such script")
        return result
    return bench.run_file(path, runtime)


def run(args):
    files = expand(args.paths)
    passed = failed = 0
    pool = ThreadPoolExecutor(max_workers=max(1, args.jobs))
    try:
        # each script has its own child interpreter; reports come back in the order given
        results = pool.map(lambda p: _one(p, args.runtime), files)
        for path, result in zip(files, results):
            if result.passed:
                passed += 1
            else:
                failed += 1
            if args.json:
                sys.stdout.write(json.dumps(result.as_dict(), sort_keys=True) + "\n")
            else:
                for m in result.messages():
                    sys.stdout.write(m + "\n")
                if result.passed:
                    sys.stdout.write("%s: ok\n" % path)
            sys.stdout.flush()
    finally:
        # Ctrl-C (or a closed pipe) ends the run: the scripts not started yet are dropped, the
        # running ones finish (a `with` block waited for every queued script, a minute and more)
        pool.shutdown(wait=True, cancel_futures=True)
    if not files:
        failed += 1
        sys.stderr.write("no bench scripts found\n")
    summary = "%d passed, %d failed" % (passed, failed)
    if args.json:
        sys.stderr.write(summary + "\n")
    else:
        sys.stdout.write(summary + "\n")
    return 1 if failed else 0
