# `feltctl verify-hand FEED --device NAME`: prove, hand by hand, that the broadcast showed exactly
# what was dealt (host tools). FEED holds the table's public records (JSON lines: commitments
# published when each deal completed, the hand end, the reveal after the delay) and the sealed
# broadcast records; every reveal must open every commitment, the broadcast (opened with the
# broadcaster key) must show the revealed cards and nothing may have left before hand end + delay.
import json
import sys

from felt.errors import FeltError
from felt.security import secrecy
from feltctl.signing import KeyStore

HELP = "prove the broadcast showed exactly the dealt hole cards and board (commit-and-reveal)"


def add_arguments(p):
    p.add_argument("feed", nargs="+", help="JSON-lines files of public and broadcast records")
    p.add_argument("--device", required=True, help="the board's name in the key store")
    p.add_argument("--keys", default=None, help="key store folder (default $FELT_KEYS or ~/.felt/keys)")
    p.add_argument("--hand", type=int, default=None, help="check only this hand")


def load(paths):
    out = []
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        try:
            text = data.decode("utf-8")
        except UnicodeError:
            raise FeltError("%s is not a text file (a feed is JSON lines)" % path)
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    rec = json.loads(line)
                except ValueError:
                    rec = None
                if not isinstance(rec, dict):  # a record is a JSON object; 7 or [..] is not
                    raise FeltError("%s line %d is not a JSON record" % (path, n))
                out.append(rec)
    return out


def check_hand(hand, records, device, key):
    """One line of verdict for `hand`; raises FeltError at the first thing that does not match."""
    mine = [r for r in records if r.get("hand") == hand]
    commits = [r for r in mine if r["kind"] == "commit"]
    ends = [r for r in mine if r["kind"] == "hand-end"]
    reveals = [r for r in mine if r["kind"] == "reveal"]
    casts = [r for r in mine if r["kind"] == "broadcast"]
    if len(ends) != 1 or len(reveals) != 1:
        raise FeltError("hand %d: %d hand-end and %d reveal records (want one each: not released yet?)"
                        % (hand, len(ends), len(reveals)))
    end, rev = ends[0], reveals[0]
    release = end["release_ms"]
    for r in reveals + casts:
        if r["t_ms"] < release:
            raise FeltError("hand %d: a %s record left at %d ms, before hand end + delay (%d ms)"
                            % (hand, r["kind"], r["t_ms"], release))
    for c in commits:
        place = c["place"]
        if place == "board":
            cards, salt = rev["board"], rev["board_salt"]
        else:
            salts = [s for n, s in rev["salts"].get(place, []) if n == c["n"]]
            if place not in rev["seats"] or not salts:
                raise FeltError("hand %d: the reveal does not open the commitment to %s" % (hand, place))
            cards, salt = rev["seats"][place][:2 * c["n"]], salts[0]
        if secrecy.commitment(device, hand, place, cards, salt) != c["c"]:
            raise FeltError("hand %d: %s revealed as %s does not match what was committed at %d ms"
                            % (hand, place, cards, c["t_ms"]))
    committed = set(c["place"] for c in commits)
    missing = sorted(set(rev["seats"]) - committed)
    if missing or "board" not in committed:
        raise FeltError("hand %d: revealed without a commitment: %s" % (hand, " ".join(missing) or "board"))
    if len(casts) != 1:
        raise FeltError("hand %d: %d broadcast records (want one)" % (hand, len(casts)))
    try:
        shown = secrecy.open_broadcast(key, device, casts[0])
    except ValueError as e:
        raise FeltError("hand %d: the broadcast record does not open: %s" % (hand, e))
    if shown["seats"] != rev["seats"] or shown["board"] != rev["board"] or shown["hand"] != hand:
        raise FeltError("hand %d: the broadcast showed %s / board %s, but %s / board %s was dealt"
                        % (hand, shown["seats"], shown["board"], rev["seats"], rev["board"]))
    return ("hand %d: %d seats and the board open their commitments; the broadcast shows exactly the dealt "
            "cards; released %d ms after the hand ended" % (hand, len(rev["seats"]), casts[0]["t_ms"] - end["t_ms"]))


def run(args):
    try:
        key = KeyStore(args.keys).role_key(args.device, "broadcast")
        records = load(args.feed)
        hands = sorted(set(r["hand"] for r in records if r.get("kind") == "reveal"))
        if args.hand is not None:
            hands = [args.hand]
        if not hands:
            raise FeltError("no revealed hand in the feed (reveals come hand end + delay later)")
        for hand in hands:
            print(check_hand(hand, records, args.device, key))
    except OSError as e:
        print("feltctl verify-hand: error: %s" % e, file=sys.stderr)
        return 1
    except FeltError as e:
        print("feltctl verify-hand: FAILED: %s" % e, file=sys.stderr)
        return 1
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as e:
        # the fields of a record are external input: a wrong shape is a malformed feed
        print("feltctl verify-hand: FAILED: a record is malformed (%s %s)" % (type(e).__name__, e), file=sys.stderr)
        return 1
    print("%d hand(s) verified" % len(hands))
    return 0
