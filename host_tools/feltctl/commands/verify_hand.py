# `feltctl verify-hand FEED --device NAME`: prove, hand by hand, that the broadcast showed exactly
# what was dealt (host tools). FEED holds the table's public records (JSON lines: commitments
# published when each deal completed, the hand end, the reveal after the delay) and the sealed
# broadcast records; every reveal must open every commitment, the broadcast (opened with the
# broadcaster key) must show the revealed cards and nothing may have left before hand end + delay.
# Every record must carry the board's Ed25519 signature (feed verification key from provisioning),
# and a reveal must be committed whole: no card past the last commitment, no extra field or salt.
import json
import sys

from felt.errors import FeltError
from felt.security import secrecy
from feltctl.board.signing import KeyStore

HELP = "prove the broadcast showed exactly the dealt hole cards and board (commit-and-reveal)"


def add_arguments(p):
    p.add_argument("feed", nargs="+", help="JSON-lines files of public and broadcast records")
    p.add_argument("--device", required=True, help="the board's name in the key store")
    p.add_argument("--keys", default=None, help="key store folder (default $FELT_KEYS or ~/.felt/keys)")
    p.add_argument("--hand", type=int, default=None, help="check only this hand")
    p.add_argument("--feed-key", default=None, metavar="HEX",
                   help="the board's feed verification key (64 hex digits; default: feed.pub in the key store)")


def _feed_key(text):
    try:
        key = bytes.fromhex(text.strip())
    except ValueError:
        key = b""
    if len(key) != 32:
        raise FeltError("--feed-key is the board's 32-byte feed verification key as 64 hex digits")
    return key


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


# the fields each record kind carries (all of them signed): anything else is refused
FIELDS = {
    "commit": ("kind", "hand", "place", "n", "c", "t_ms", "sig"),
    "hand-end": ("kind", "hand", "t_ms", "release_ms", "sig"),
    "reveal": ("kind", "hand", "t_ms", "end_ms", "seats", "salts", "board", "board_salt", "sig"),
    "broadcast": ("kind", "hand", "t_ms", "nonce", "sealed", "sig"),
}
CARDS = dict((secrecy.card_text(c), c) for c in range(secrecy.DECK_SIZE))


def _check_record(hand, r, device, feed_key):
    kind = r.get("kind")
    if kind not in FIELDS:
        raise FeltError("hand %d: a record of unknown kind %r" % (hand, kind))
    extra = sorted(k for k in r if k not in FIELDS[kind])
    if extra:
        raise FeltError("hand %d: a %s record carries data the board never writes: %s" % (hand, kind, " ".join(extra)))
    if not secrecy.check_signature(feed_key, device, r):
        raise FeltError("hand %d: a %s record (t_ms %s) is not signed by board %s: forged or altered"
                        % (hand, kind, r.get("t_ms"), device))
    lacks = [k for k in FIELDS[kind] if k not in r and not (k == "n" and r.get("place") == "board")]
    if lacks:  # the board's commitment carries no card count
        raise FeltError("hand %d: a %s record lacks %s" % (hand, kind, " ".join(lacks)))


def _cards(hand, place, text, seen):
    """The cards of a revealed text ('AhKd'), each a real card never revealed twice in the hand."""
    if not isinstance(text, str) or len(text) % 2:
        raise FeltError("hand %d: %s revealed as %r is not a run of cards" % (hand, place, text))
    for i in range(0, len(text), 2):
        c = CARDS.get(text[i:i + 2])
        if c is None or c in seen:
            raise FeltError("hand %d: %s revealed as %s holds %r, %s" % (
                hand, place, text, text[i:i + 2], "revealed twice" if c is not None else "not a card"))
        seen[c] = place


def check_hand(hand, records, device, key, feed_key):
    """One line of verdict for `hand`; raises FeltError at the first thing that does not match.
    feed_key: the board's feed verification key -- every record must carry its signature."""
    mine = [r for r in records if r.get("hand") == hand]
    for r in mine:
        _check_record(hand, r, device, feed_key)
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
    seen = {}
    for place in sorted(rev["seats"]):
        _cards(hand, place, rev["seats"][place], seen)
    _cards(hand, "the board", rev["board"], seen)
    counts = {}  # place -> [n committed]
    for c in commits:
        place = c["place"]
        if place == "board":
            cards, salt = rev["board"], rev["board_salt"]
            n = None
        else:
            n = c["n"]
            salts = [s for k, s in rev["salts"].get(place, []) if k == n]
            if place not in rev["seats"] or not salts:
                raise FeltError("hand %d: the reveal does not open the commitment to %s" % (hand, place))
            cards, salt = rev["seats"][place][:2 * n], salts[0]
        if n in counts.setdefault(place, []):
            raise FeltError("hand %d: %s committed twice to %s cards" % (hand, place, n))
        counts[place].append(n)
        if secrecy.commitment(device, hand, place, cards, salt) != c["c"]:
            raise FeltError("hand %d: %s revealed as %s does not match what was committed at %d ms"
                            % (hand, place, cards, c["t_ms"]))
    missing = sorted(set(rev["seats"]) - set(counts))
    if missing or "board" not in counts:
        raise FeltError("hand %d: revealed without a commitment: %s" % (hand, " ".join(missing) or "board"))
    for place in sorted(rev["seats"]):
        # the whole reveal is committed: cards past the last commitment were never dealt
        if len(rev["seats"][place]) != 2 * max(counts[place]):
            raise FeltError("hand %d: %s reveals %d cards but only %d were committed (uncommitted cards)"
                            % (hand, place, len(rev["seats"][place]) // 2, max(counts[place])))
    for place in sorted(rev["salts"]):
        if place not in rev["seats"] or len(rev["salts"][place]) != len(counts[place]):
            raise FeltError("hand %d: the reveal holds salts for %s that open no commitment" % (hand, place))
    if len(casts) != 1:
        raise FeltError("hand %d: %d broadcast records (want one)" % (hand, len(casts)))
    try:
        shown = secrecy.open_broadcast(key, device, casts[0])
    except ValueError as e:
        raise FeltError("hand %d: the broadcast record does not open: %s" % (hand, e))
    if shown["seats"] != rev["seats"] or shown["board"] != rev["board"] or shown["hand"] != hand:
        raise FeltError("hand %d: the broadcast showed %s / board %s, but %s / board %s was dealt"
                        % (hand, shown["seats"], shown["board"], rev["seats"], rev["board"]))
    return ("hand %d: every record signed by the board; %d seats and the board open their commitments; the "
            "broadcast shows exactly the dealt cards; released %d ms after the hand ended"
            % (hand, len(rev["seats"]), casts[0]["t_ms"] - end["t_ms"]))


def run(args):
    try:
        store = KeyStore(args.keys)
        key = store.role_key(args.device, "broadcast")
        feed_key = _feed_key(args.feed_key) if args.feed_key else store.feed_public(args.device)
        records = load(args.feed)
        hands = sorted(set(r["hand"] for r in records if r.get("kind") == "reveal"))
        if args.hand is not None:
            hands = [args.hand]
        if not hands:
            raise FeltError("no revealed hand in the feed (reveals come hand end + delay later)")
        for hand in hands:
            print(check_hand(hand, records, args.device, key, feed_key))
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
