# `feltctl audit verify LOG --device NAME`: prove a board's audit log is intact -- every record
# chained to the one before and MACed with the board's audit key (derived from the owner key) --
# and show who did what (host tools). The last verified record is remembered as an anchor, so a
# later log that was cut short or rewritten is refused. Get LOG with `feltctl export`.
import sys

from felt.errors import FeltError
from felt.security import audit as al
from feltctl.signing import KeyStore

HELP = "verify a board's hash-chained audit log and list who did what (audit verify LOG)"


def add_arguments(p):
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    v = sub.add_parser("verify", help="check the chain and every record's MAC; list the records")
    v.add_argument("log", nargs="?", default=None, help="the audit log file copied off the board")
    v.add_argument("--port", default=None, help="read the log straight off the board on this port instead")
    v.add_argument("--timeout", type=float, default=3.0)
    v.add_argument("--device", required=True, help="the board's name in the key store")
    v.add_argument("--keys", default=None, help="key store folder (default $FELT_KEYS or ~/.felt/keys)")
    v.add_argument("--no-anchor", action="store_true", help="do not compare with / update the stored anchor")
    v.add_argument("--quiet", action="store_true", help="only the verdict")


def pull(port, timeout_s=3.0, chunk=3000):
    """The board's audit log text, read in pieces through the deploy agent (maintenance mode)."""
    import base64
    from feltctl.deploy import Deployer
    from feltctl.transport import Transport
    data = bytearray()
    with Transport(port, timeout_s=timeout_s) as t:
        d = Deployer(t)
        d.connect()
        if not d.call("answer(_exists(%r))" % al.PATH):
            t.soft_reset_to_friendly()
            return ""
        while True:
            piece = base64.b64decode(d.call("read(%r,%d,%d)" % (al.PATH, len(data), chunk)))
            data += piece
            if len(piece) < chunk:
                break
        t.soft_reset_to_friendly()
    return data.decode("utf-8", "replace")


def _when(t_ms):
    s = t_ms // 1000
    return "%d:%02d:%02d.%03d" % (s // 3600, s // 60 % 60, s % 60, t_ms % 1000)


def run(args):
    if args.action != "verify":
        print("feltctl audit: say `feltctl audit verify LOG --device NAME`", file=sys.stderr)
        return 2
    store = KeyStore(args.keys)
    try:
        owner = store.role_key(args.device, "owner")
        if args.port:
            text = pull(args.port, args.timeout)
        elif args.log:
            with open(args.log) as f:
                text = f.read()
        else:
            print("feltctl audit: give the log file or --port", file=sys.stderr)
            return 2
        lines = [ln for ln in text.split("\n") if ln]
        anchor = None if args.no_anchor else store.anchor(args.device)
        records = al.verify(lines, al.audit_key(owner), anchor)
    except OSError as e:
        print("feltctl audit: error: cannot read %s: %s" % (args.log or args.port, e.strerror), file=sys.stderr)
        return 1
    except FeltError as e:
        print("feltctl audit: TAMPERED or damaged: %s" % e, file=sys.stderr)
        return 1
    if not args.quiet:
        print("%5s  %-14s %-10s %-13s %s" % ("#", "board time", "who", "what", "detail"))
        for r in records:
            print("%5d  %-14s %-10s %-13s %s" % (r.seq, _when(r.t_ms), r.who, r.kind, r.text))
    head = al.line_hash(records[-1].line) if records else al.GENESIS
    print("audit log intact: %d records, chain head %s, every record MACed by board %s%s" % (
        len(records), head[:16], args.device,
        "; extends the %d records verified before" % anchor[0] if anchor else ""))
    if records and not args.no_anchor:
        store.set_anchor(args.device, records[-1].seq, head)
    return 0
