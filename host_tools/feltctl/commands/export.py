# `feltctl export PORT DIR`: pull the hand histories (PHH files the table writes under /hands)
# off a board into DIR, skipping files already exported, each checked by SHA-256 (host tools).
import sys

from feltctl.board.deploy import Deployer
from feltctl.board.transport import Transport

HELP = "copy the hand histories (PHH) off a board into a folder"


def add_arguments(p):
    p.add_argument("port")
    p.add_argument("dir", help="local folder to copy into (created if needed)")
    p.add_argument("--remote", default="/hands", help="folder on the board (default /hands)")
    p.add_argument("--baud", type=int, default=115200)
    p.add_argument("--timeout", type=float, default=3.0)


def run(args):
    try:
        with Transport(args.port, baud=args.baud, timeout_s=args.timeout) as t:
            # a board with no /hands yet has recorded nothing; any other missing folder is a mistake
            copied, skipped = Deployer(t).export(args.remote, args.dir, missing_ok=args.remote == "/hands")
    except OSError as e:  # DIR not writable, a file where a folder must go, disk full
        print("feltctl export: error: %s" % e, file=sys.stderr)
        return 1
    for rel in copied:
        print("copied %s" % rel)
    print("%d copied, %d already there -> %s" % (len(copied), len(skipped), args.dir))
    return 0
