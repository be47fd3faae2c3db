# `feltctl audit verify LOG... --device NAME`: prove a board's audit log is intact -- every record
# chained to the one before and signed with the board's device key (verified with its PUBLIC key, feed.pub) --
# and show who did what (host tools). The log is a set of files once it has rotated (audit.log
# and audit.log.<first seq>): give them all, their folder, or --port; a missing, truncated or
# edited file is named. The last verified record is remembered as an anchor, so a later log that
# was cut short, rewritten or rolled off the board before it was verified is refused.
import errno
import os
import sys

from felt.errors import FeltError
from felt.security import audit as al
from feltctl.board.signing import KeyStore

HELP = "verify a board's hash-chained audit log and list who did what (audit verify LOG)"


def add_arguments(p):
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    v = sub.add_parser("verify", help="check the chain and every record's MAC; list the records")
    v.add_argument("log", nargs="*", default=[],
                   help="the audit log files copied off the board (audit.log and its rotated audit.log.N), "
                        "or the folder holding them")
    v.add_argument("--port", default=None, help="read the log straight off the board on this port instead")
    v.add_argument("--timeout", type=float, default=3.0)
    v.add_argument("--device", required=True, help="the board's name in the key store")
    v.add_argument("--keys", default=None, help="key store folder (default $FELT_KEYS or ~/.felt/keys)")
    v.add_argument("--no-anchor", action="store_true", help="do not compare with / update the stored anchor")
    v.add_argument("--quiet", action="store_true", help="only the verdict")


_LIST = "import os\nanswer([n for n in os.listdir(%r) if n == %r or n.startswith(%r)])\n"
# after a verified pull: tell the board which records are exported, so its rotation may delete
# them (until then it keeps them and refuses unauthenticated records instead; issue 12 item 7)
_MARK = "f = open(%r, 'w')\nf.write(%r)\nf.close()\nanswer(1)\n"


def mark_exported(port, seq, h, timeout_s=3.0):
    from feltctl.board.deploy import Deployer
    from feltctl.board.transport import Transport
    with Transport(port, timeout_s=timeout_s) as t:
        d = Deployer(t)
        d.connect()
        d.call(_MARK % (al.PATH + al.EXPORTED, "%d %s\n" % (seq, h)))
        t.soft_reset_to_friendly()


def gaps(records):
    """Lines naming every gap in a verified log: records before the oldest kept (rolled off, or a
    file not given), unauthenticated records the board refused (a flood), a log that was full."""
    out = []
    if records and records[0].seq > 1:
        out.append("GAP: records 1..%d are not in this log (rolled off the board before export, or their "
                   "files were not given)" % (records[0].seq - 1))
    for r in records:
        if r.kind == "audit" and r.text.startswith(al.GAP):
            out.append("GAP before record %d: %s" % (r.seq + 1, r.text[len(al.GAP):]))
        elif r.kind == "audit" and r.text.startswith("audit log full"):
            out.append("GAP from record %d: %s" % (r.seq, r.text))
    return out


def pull(port, timeout_s=3.0, chunk=3000):
    """[(name, text)] of the board's audit log files (the live one and the rotated ones), read in
    pieces through the deploy agent (maintenance mode)."""
    import base64
    from feltctl.board.deploy import Deployer
    from feltctl.board.transport import Transport
    folder, base = os.path.split(al.PATH)
    out = []
    with Transport(port, timeout_s=timeout_s) as t:
        d = Deployer(t)
        d.connect()
        for name in al.order(d.call(_LIST % (folder, base, base + ".")) or [], base):
            path = folder.rstrip("/") + "/" + name
            data = bytearray()
            while True:
                piece = base64.b64decode(d.call("read(%r,%d,%d)" % (path, len(data), chunk)))
                data += piece
                if len(piece) < chunk:
                    break
            out.append((name, data.decode("utf-8", "replace")))
        t.soft_reset_to_friendly()
    return out


def read_set(paths):
    """[(name, text)] oldest first from the files given (or the folder holding them): rotated
    files (NAME.<8 digits>) in number order, then the live one. ValueError for two live files."""
    if len(paths) == 1 and os.path.isdir(paths[0]):
        folder = paths[0]
        names = sorted(os.listdir(folder))
        live = [n for n in names if al.file_number(n) is None and any(al.file_number(m, n) is not None for m in names)]
        base = live[0] if live else os.path.basename(al.PATH)
        paths = [os.path.join(folder, n) for n in names if n == base or al.file_number(n, base) is not None]
        if not paths:  # the wrong folder: "0 records, intact" would be a false verdict
            raise FileNotFoundError(errno.ENOENT, "no audit log (%s or %s.N) in this folder" % (base, base), folder)
    by_name = {}
    for p in paths:
        by_name[os.path.basename(p)] = p
    live = [n for n in by_name if al.file_number(n) is None]
    if len(live) > 1:
        raise ValueError("more than one live log file (%s): give one board's log set" % ", ".join(sorted(live)))
    numbered = sorted([(al.file_number(n), n) for n in by_name if al.file_number(n) is not None])
    out = []
    for name in [n for _, n in numbered] + live:
        # bytes that are not UTF-8 are decoded as pull() does, so they fail the record's MAC by
        # name instead of ending the check in a codec error
        with open(by_name[name], encoding="utf-8", errors="replace") as f:
            out.append((name, f.read()))
    return out


def _when(t_ms):
    s = t_ms // 1000
    return "%d:%02d:%02d.%03d" % (s // 3600, s // 60 % 60, s % 60, t_ms % 1000)


def _wall(wall):
    # the wall clock the floor's `time` command set (issue 16 item 4); '-' before it was set
    if wall is None:
        return "-"
    import time
    return time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime(wall))


def run(args):
    if args.action != "verify":
        print("feltctl audit: say `feltctl audit verify LOG --device NAME`", file=sys.stderr)
        return 2
    store = KeyStore(args.keys)
    try:
        public = store.feed_public(args.device)  # a key that verifies and cannot sign (issue 16 item 1)
        if args.port:
            texts = pull(args.port, args.timeout)
        elif args.log:
            texts = read_set(args.log)
        else:
            print("feltctl audit: give the log files (or their folder) or --port", file=sys.stderr)
            return 2
        files = [(name, [ln for ln in text.split("\n") if ln]) for name, text in texts]
        anchor = None if args.no_anchor else store.anchor(args.device)
        records = al.verify_files(files, public, anchor)
    except OSError as e:
        print("feltctl audit: error: cannot read %s: %s" % (e.filename or args.port, e.strerror), file=sys.stderr)
        return 1
    except ValueError as e:
        print("feltctl audit: error: %s" % e, file=sys.stderr)
        return 2
    except FeltError as e:
        print("feltctl audit: TAMPERED or damaged: %s" % e, file=sys.stderr)
        return 1
    if not args.quiet:
        print("%5s  %-14s %-20s %-10s %-13s %s" % ("#", "board time", "wall clock (UTC)", "who", "what", "detail"))
        for r in records:
            print("%5d  %-14s %-20s %-10s %-13s %s" % (r.seq, _when(r.t_ms), _wall(getattr(r, "wall", None)), r.who,
                                                        r.kind, r.text))
    if len(files) > 1 or (files and al.file_number(files[0][0]) is not None):
        for name, lines in files:
            if lines:
                print("  %-22s records %d..%d" % (name, al.parse_line(lines[0], 0).seq,
                                                  al.parse_line(lines[-1], 0).seq))
    head = al.line_hash(records[-1].line) if records else al.GENESIS
    found = gaps(records)
    for line in found:
        print(line)
    print("audit log intact: %d records, chain head %s, every record signed by board %s%s%s" % (
        len(records), head[:16], args.device,
        "; extends the %d records verified before" % anchor[0] if anchor else "",
        "; %d gap(s) listed above" % len(found) if found else ""))
    if records and not args.no_anchor:
        store.set_anchor(args.device, records[-1].seq, head)
    if records and args.port:
        try:
            mark_exported(args.port, records[-1].seq, head, args.timeout)
        except (FeltError, OSError) as e:
            print("feltctl audit: warning: the board was not told the log is exported (%s): it keeps every "
                  "record and refuses unauthenticated ones once full" % e, file=sys.stderr)
            return 1
        print("board told: records up to %d exported (its rotation may now delete them)" % records[-1].seq)
    return 0
