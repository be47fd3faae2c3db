# `feltctl demo`: the main job until the table simulator exists -- the engine plays a seeded series
# of hands of several games (felt.history.selfplay), writes each as PHH (default out/selfplay/, apart
# from `feltctl sim --demo`'s out/hands/: a re-run replaces its own series only), replays them
# and prints a readable summary. Runs inside the MicroPython interpreter by default.
import os
import sys

from feltctl.commands.replay import heap_size, run_micropython
from feltctl.paths import REPO
from feltctl.table_sim.demo import hand_count, prepare_out

HELP = "play a seeded series of hands with the engine, write them as PHH and replay them"


def add_arguments(parser):
    parser.add_argument("--hands", type=hand_count, default=22, help="number of hands (default 22: two per game)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the dealer's shuffles and the bots")
    parser.add_argument("--out", default=os.path.join(REPO, "out", "selfplay"),
                        help="folder for the PHH files (default out/selfplay; `make demo` writes out/hands)")
    parser.add_argument("--runtime", choices=("micropython", "cpython"), default="micropython")
    # The engine needs more than a Pico's heap to import today (see the replay command); the demo
    # runs with room to spare rather than failing.
    parser.add_argument("--heapsize", default="2M", type=heap_size, help="MicroPython heap (default 2M)")


def run(args):
    try:
        prepare_out(args.out)
    except OSError as e:
        sys.stderr.write("feltctl demo: error: --out %s: %s\n" % (args.out, e.strerror or e))
        return 1
    argv = ["--hands", str(args.hands), "--seed", str(args.seed), "--out", os.path.abspath(args.out)]
    print("engine on %s; PHH files in %s" % (args.runtime, os.path.relpath(args.out)))
    sys.stdout.flush()
    if args.runtime == "cpython":
        from felt.history import selfplay

        return selfplay.main(argv)
    return run_micropython("felt.history.selfplay", argv, args.heapsize, stream=True).returncode
