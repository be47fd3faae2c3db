# `feltctl bench`: run bench scripts (format version 1, hardware/bench-scripts.md) against the real
# firmware on the simulated table -- inside the MicroPython interpreter by default -- and report each
# failed expectation as FILE:LINE, a final `N passed, M failed` line, exit 1 when any failed.
import json
import os
import sys

from feltctl import bench

HELP = "run bench scripts (*.felt) against the firmware on the simulated table"


def add_arguments(parser):
    parser.add_argument("paths", nargs="+", metavar="SCRIPT_OR_DIR", help="*%s scripts or folders of them" % bench.SUFFIX)
    parser.add_argument("--json", action="store_true", help="one JSON object per script, a line each")
    parser.add_argument("--runtime", choices=("micropython", "cpython"), default="micropython",
                        help="interpreter that runs the firmware (default micropython)")


def expand(paths):
    """Files as given; folders walked (sorted) for *.felt scripts. A missing path is an error."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for f in sorted(files):
                    if f.endswith(bench.SUFFIX):
                        out.append(os.path.join(root, f))
        else:
            out.append(p)
    return out


def run(args):
    files = expand(args.paths)
    passed = failed = 0
    for path in files:
        if not os.path.isfile(path):
            result = bench.Result(path)
            result.error = (None, "no such script")
        else:
            result = bench.run_file(path, args.runtime)
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
    if not files:
        failed += 1
        sys.stderr.write("no bench scripts found\n")
    summary = "%d passed, %d failed" % (passed, failed)
    if args.json:
        sys.stderr.write(summary + "\n")
    else:
        sys.stdout.write(summary + "\n")
    return 1 if failed else 0
