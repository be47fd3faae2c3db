# `feltctl info PORT`: what a board runs -- firmware version, manifest (tree) hash, slots, board,
# free flash (host tools). Stops the running program for a moment and restarts it.
import sys

from feltctl.board.deploy import Deployer
from feltctl.board.transport import Transport

HELP = "show a board's firmware version, manifest hash, board and free space"


def add_arguments(p):
    p.add_argument("port")
    p.add_argument("--baud", type=int, default=115200)
    p.add_argument("--timeout", type=float, default=3.0)


def run(args):
    with Transport(args.port, baud=args.baud, timeout_s=args.timeout) as t:
        r = Deployer(t).info()
    rows = [
        ("board", "%s (%s, %s)" % (r["board"], r["impl"], r["platform"])),
        ("firmware", r["version"] or "none (not flashed by feltctl)"),
        ("manifest", "%s, %d files%s" % (r["tree"] or "-", r["files"],
                                         "  MODIFIED since flashing" if r["modified"] else "")),
        ("signed", "manifest sha256 %s" % r["manifest"] if r.get("manifest") else "no (unsigned tree)"),
        ("active slot", "%s%s" % (r["active"] or "-", " (packed: one file, hardware/flashing.md)"
                                  if r.get("layout") == "pack" else "")),
        ("rollback", "slot %s" % r["previous"] if r["previous"] else "none"),
        ("free flash", "%d KB" % (r["free"] // 1024) if r["free"] >= 0 else "unknown"),
    ]
    if r.get("unfinished"):  # issue 18 item 3: a deploy cut short (Ctrl-C, killed, power): say so
        rows.append(("unfinished", "%s: a deploy that did not finish (not bootable); the next `feltctl flash` "
                                   "or the next boot frees it" % ", ".join(r["unfinished"])))
    for name, value in rows:
        print("%-12s %s" % (name, value))
    return 0
