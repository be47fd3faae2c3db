# `feltctl simboard`: run a simulated MicroPython board on a pty until stopped (host tools).
# The first line printed is the device path to hand to `feltctl flash`, mpremote, or a terminal.
import argparse
import os
import sys
import tempfile

from feltctl.commands.replay import heap_size
from feltctl.board_sim.simboard import Faults, SimBoard, run_forever

HELP = "run a simulated MicroPython board on a pty (prints the device path first)"


def at_least(low):
    """argparse type: a whole number >= low (a board that cannot run is refused before it starts)."""
    def check(text):
        try:
            n = int(text)
        except ValueError:
            n = low - 1
        if n < low:
            raise argparse.ArgumentTypeError("%r: a whole number, at least %d" % (text, low))
        return n
    return check


def add_arguments(p):
    p.add_argument("--flash", help="folder standing for the board's flash (default: a new temp folder)")
    p.add_argument("--link", help="stable symlink to the pty (default: <flash>.tty)")
    p.add_argument("--baud", type=at_least(1), default=None, help="throttle both directions to this baud rate")
    p.add_argument("--capacity", type=at_least(0), default=2 * 1024 * 1024,
                   help="flash size in bytes; writes beyond it fail with ENOSPC (0 = unlimited)")
    p.add_argument("--heap", default="1M", type=heap_size, help="interpreter heap size, e.g. 192k as on a Pico")
    p.add_argument("--cut-at", type=int, help="cut the link after this many received bytes")
    p.add_argument("--reset-at", type=int, help="hard-reset the board after this many received bytes")
    p.add_argument("--powercut-at-op", type=int, default=0,
                   help="lose power at the Nth mutating flash operation, then boot again")
    p.add_argument("--maintenance", action="store_true",
                   help="power on with the maintenance key switch held (hardware/security.md section 4): "
                        "main.py leaves Ctrl-C on, so flash/info/mpremote reach the REPL while the table runs")


def run(args):
    flash = args.flash or tempfile.mkdtemp(prefix="felt-flash-")
    link = args.link or os.path.abspath(flash.rstrip("/")) + ".tty"
    try:  # SimBoard() makes the flash folder: a file in the way is the user's mistake, not a crash
        board = SimBoard(flash, link=link, baud=args.baud, capacity=args.capacity, heap=args.heap,
                         faults=Faults(args.cut_at, args.reset_at, args.powercut_at_op))
        board.key_switch = args.maintenance  # read at every boot, as a real key switch held at power-on
        device = board.start(thread=False)
    except OSError as e:
        print("feltctl simboard: error: %s" % e, file=sys.stderr)
        return 1
    print(device, flush=True)
    print("flash: %s  baud: %s  key switch: %s" % (
        board.flash_dir, args.baud or "unthrottled",
        "maintenance (console open)" if args.maintenance else
        "production (once main.py runs the table the console is closed: start again with --maintenance "
        "on the same --flash to reach the REPL)"), file=sys.stderr, flush=True)
    return run_forever(board)
