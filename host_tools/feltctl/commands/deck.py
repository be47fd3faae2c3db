# `feltctl deck enroll` / `feltctl deck verify` (host tools): register a deck's UID-to-card map
# with a floor key. The dealer deals the sorted deck (clubs 2..A, diamonds, hearts, spades)
# through the shoe once; the UIDs read, in order, become the map, signed with the floor key
# (felt.security.deckmap). The board registers only maps whose signature verifies (DECK-1/5/7).
# --sim deals a simulated deck through the simulated PN532 shoe and the real shoe driver.
import os
import random
import sys

from felt.drivers import shoe as shoe_mod
from felt.engine.deck import uid_text
from felt.errors import FeltError
from felt.hal.sim.hal import SimHAL
from felt.hal.sim.pn532 import SimPN532
from felt.security import deckmap
from feltctl.board.signing import KeyStore

HELP = "enroll a deck (UID-to-card map signed with a floor key) by dealing it through the shoe once"
POLL_MS = 5
MAX_POLLS = 2000  # per card: a shoe that never reports is an error, not a hang


def add_arguments(p):
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    e = sub.add_parser("enroll", help="deal the sorted deck through the shoe; write the signed deck record")
    e.add_argument("--deck", required=True, help="deck id (one word, e.g. A)")
    e.add_argument("--device", required=True, help="the board's name in the key store")
    e.add_argument("--floor", required=True, help="the floor key that signs (its name)")
    e.add_argument("--keys", default=None, help="key store folder (default $FELT_KEYS or ~/.felt/keys)")
    src = e.add_mutually_exclusive_group(required=True)
    src.add_argument("--sim", action="store_true", help="a simulated deck through the simulated PN532 shoe")
    src.add_argument("--uids", help="a file of the UIDs the shoe read, in dealing order (hex, one a line)")
    e.add_argument("--seed", type=int, default=1, help="--sim: seed of the simulated deck's UIDs")
    e.add_argument("--out", required=True, help="where to write the deck record")
    v = sub.add_parser("verify", help="check a deck record's signature and completeness")
    v.add_argument("record")
    v.add_argument("--device", required=True)
    v.add_argument("--keys", default=None)


def sim_deck(seed):
    """52 distinct 7-byte NXP-style UIDs (first byte 04), reproducible from the seed."""
    rng = random.Random(seed)
    out = []
    seen = set()
    while len(out) < 52:
        uid = bytes([0x04] + [rng.randrange(256) for _ in range(6)])
        if uid not in seen:
            seen.add(uid)
            out.append(uid)
    return out


def deal_through_sim_shoe(uids, enrollment, progress=None):
    """Present each tag to a simulated PN532 and feed what the real shoe driver reports."""
    hal = SimHAL()
    reader = SimPN532()
    hal.uart(0).attach(reader)
    shoe = shoe_mod.Shoe(hal.uart(0, baud=115200), "pn532")
    for uid in uids:
        reader.present(uid)
        for _ in range(MAX_POLLS):
            got = [e for e in shoe.poll(hal.clock.ticks_ms()) if e.kind == shoe_mod.CARD]
            hal.clock.advance_ms(POLL_MS)
            if got:
                for e in got:
                    enrollment.add(e.uid)
                break
        else:
            raise FeltError("the shoe did not report tag %s" % uid_text(uid))
        if progress:
            progress(enrollment)
    return enrollment


def _read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        return data.decode("utf-8")
    except UnicodeError:
        raise FeltError("%s is not a text file (a deck file is UTF-8 text)" % path)


def _read_uids(path):
    out = []
    for n, line in enumerate(_read_text(path).splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            uid = bytes.fromhex(text)
        except ValueError:
            raise FeltError("%s line %d: %r is not a hex UID" % (path, n, text))
        if len(uid) not in (4, 7):
            raise FeltError("%s line %d: a UID is 4 or 7 bytes, not %d" % (path, n, len(uid)))
        out.append(uid)
    return out


def _write_record(path, text):
    """The record written whole or not at all (a .tmp beside it, renamed); the .tmp never stays."""
    tmp = path + ".tmp"
    try:
        # owner-only whatever the umask (issue 12 item 8): the record maps every tag to its card
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)  # a .tmp left by an earlier run keeps its old mode through O_CREAT
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        if os.path.isfile(tmp):
            os.remove(tmp)
        raise FeltError("cannot write %s: %s" % (path, e.strerror or e))


def enroll(args):
    if os.path.isdir(args.out) or args.out.endswith(os.sep):  # before the deck is dealt
        raise FeltError("--out %s is a folder: name the deck record's file" % args.out)
    store = KeyStore(args.keys)
    key = store.role_key(args.device, "floor-" + args.floor)
    e = deckmap.Enrollment()
    if args.sim:
        deal_through_sim_shoe(sim_deck(args.seed), e)
    else:
        for uid in _read_uids(args.uids):
            e.add(uid)
    if not e.complete:
        raise FeltError("only %d of 52 cards were read; the next one expected is %s -- deal the whole "
                        "sorted deck" % (e.scan.count, e.next_card()))
    text = deckmap.sign(args.device, args.deck, args.floor, key, e.scan.mapping)
    _write_record(args.out, text)
    print("deck %s enrolled: 52 tags, signed by floor key %s -> %s" % (args.deck, args.floor, args.out))
    return 0


def verify(args):
    k = KeyStore(args.keys).load(args.device)
    deck_id, mapping, who = deckmap.verify(_read_text(args.record), k.floor, args.device)
    print("deck %s: 52 tags, signed by floor key %s for board %s" % (deck_id, who, args.device))
    return 0


def run(args):
    try:
        if args.action == "enroll":
            return enroll(args)
        if args.action == "verify":
            return verify(args)
    except OSError as e:
        print("feltctl deck: error: %s" % e, file=sys.stderr)
        return 1
    print("feltctl deck: say `deck enroll ...` or `deck verify RECORD`", file=sys.stderr)
    return 2
