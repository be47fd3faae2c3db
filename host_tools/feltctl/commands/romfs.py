# `feltctl romfs build|deploy`: the firmware as a ROMFS image (host tools), the same image the
# emulated board runs (feltctl.board.romfs, hardware/memory.md). build writes it to a file; deploy
# writes it to a board's ROM partition with mpremote's own `romfs deploy` (MicroPython >= 1.25).
import os
import shutil
import subprocess
import sys

from feltctl.board import romfs

HELP = "build the firmware's ROMFS image (code runs from flash) or deploy it to a board's ROM partition"


def add_arguments(p):
    p.add_argument("action", choices=("build", "deploy"), help="build: write the image; deploy: write it to a board")
    p.add_argument("port", nargs="?", default=None, help="deploy: the board's serial port (e.g. /dev/ttyACM0)")
    p.add_argument("-o", "--output", default="felt.romfs", help="build: image file to write (default felt.romfs)")
    p.add_argument("--partition", type=int, default=None, help="deploy: ROM partition number (mpremote's default: 0)")
    p.add_argument("--dry-run", action="store_true", help="deploy: print the mpremote command, run nothing")
    p.add_argument("--timeout", type=float, default=3.0, help="deploy: seconds for the board to answer first")


def deploy_command(port, image, partition=None):
    """The mpremote command line that writes `image` to the ROM partition of the board at `port`."""
    cmd = [sys.executable, "-m", "mpremote", "connect", port, "romfs"]
    if partition is not None:
        cmd += ["--partition", str(partition)]
    return cmd + ["deploy", image]


def run(args):
    image = romfs.build_image()
    size = os.path.getsize(image)
    if args.action == "build":
        try:
            shutil.copyfile(image, args.output)
        except OSError as e:  # no such folder, a folder named, no permission, disk full
            print("feltctl romfs: error: cannot write %s: %s" % (args.output, e.strerror or e), file=sys.stderr)
            return 1
        print("%s: %d bytes (firmware/felt precompiled, evaluator tables as data files); on the unix port "
              "the emulated board runs it with -X heapsize=%d (128 KB of RAM beside it)"
              % (args.output, size, romfs.heapsize_for(size)))
        return 0
    if not args.port:
        print("feltctl romfs deploy: error: the board's port is required", file=sys.stderr)
        return 2
    cmd = deploy_command(args.port, image, args.partition)
    if args.dry_run:
        print(" ".join(cmd))
        return 0
    # mpremote waits for ever on a pty where no board answers (it reads ptys without a timeout):
    # the board must answer our transport, with its deadline, before mpremote gets the port
    from feltctl.board.transport import Transport

    with Transport(args.port, timeout_s=args.timeout) as t:  # a FeltError: feltctl's one error line
        t.enter_raw(soft_reset=False)
    # mpremote's progress goes straight through; its errors end in a Python traceback (e.g.
    # "could not enter raw repl" when no board answers), of which only the last line is news
    done = subprocess.run(cmd, stderr=subprocess.PIPE, text=True)
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    if done.returncode and "Traceback (most recent call last):" in done.stderr:
        print("feltctl romfs: error: mpremote: %s" % lines[-1], file=sys.stderr)
    else:
        sys.stderr.write(done.stderr)
    return done.returncode
