# `feltctl provision PORT --device NAME --floor NAME...`: give a board its per-device keys, once
# (host tools). New random keys go into the owner's key store (--keys, default ~/.felt/keys) and,
# through the raw REPL, into /felt.keys on the board. The keys are never printed, logged or read
# back: the output shows key ids only. A board that already has keys is left alone.
# The board makes its own Ed25519 device signing key from its entropy source (issue 16 items 1
# and 6: the key store never holds it; a board without a true source is refused) and answers
# only its public half, which the key store keeps as feed.pub.
# A Raspberry Pi has no REPL: `--out FILE` writes its key file (mode 0600) for
# `sudo hardware/raspberry-pi/install.sh --keys FILE`, which puts it root-only in /etc/felt.
import os
import sys

from felt.errors import FeltError
from felt.security import ed25519, entropy  # noqa: F401 -- their sources go to the board
from felt.security import keys as keylib
from feltctl.board.deploy import Deployer
from feltctl.board.signing import KeyStore
from feltctl.board.transport import Transport

HELP = "write a board's per-device keys once (release public key, floor, broadcaster; the board makes its own signing key); shows key ids only"

# Runs on the board. The key text is substituted as a string literal; the board answers one
# line that never contains a secret (the raw REPL does not echo what it receives). The firmware's
# own entropy.py and ed25519.py run there (the board may hold no firmware yet): the device key is
# drawn from the board's checked entropy source and never leaves it, only its public half does.
_WRITE = """import os, json, binascii
try:
    os.stat(%(path)r)
    print('FELT {"provisioned": true}')
except OSError:
    ent = {'__name__': 'felt_entropy'}
    exec(%(entropy)r, ent)
    try:
        seed = ent['new_key']()
    except ent['EntropyError'] as e:
        seed = None
        print('FELT ' + json.dumps({'entropy': str(e)}))
    if seed is not None:
        ed = {'__name__': 'felt_ed25519'}
        exec(%(ed25519)r, ed)
        public = binascii.hexlify(ed['public_key'](seed)).decode()
        with open(%(path)r + '.tmp', 'w') as f:
            f.write(%(text)r + 'sign ' + binascii.hexlify(seed).decode() + chr(10))
        os.rename(%(path)r + '.tmp', %(path)r)
        print('FELT ' + json.dumps({'written': True, 'public': public}))
"""


def _source(module):
    with open(module.__file__.replace(".pyc", ".py")) as f:
        return f.read()


def add_arguments(p):
    p.add_argument("port", nargs="?", default=None, help="serial port of the board (in maintenance mode)")
    p.add_argument("--out", default=None, metavar="FILE",
                   help="a Raspberry Pi: write its key file here instead (for install.sh --keys FILE)")
    p.add_argument("--device", required=True, help="the board's name (letters, digits, - _ .)")
    p.add_argument("--floor", action="append", default=[], metavar="NAME",
                   help="a floor key name (repeat for several floor managers)")
    p.add_argument("--keys", default=None, help="key store folder (default $FELT_KEYS or ~/.felt/keys)")
    p.add_argument("--baud", type=int, default=115200)
    p.add_argument("--timeout", type=float, default=3.0)


def _show(k, device_public):
    for role, kid in sorted(k.ids().items()):
        print("  %-16s key id %s" % (role, kid))
    print("  %-16s key id %s" % ("device", keylib.public_id(device_public)))
    # public, so shown in full: what feltctl verify-hand --feed-key takes (issue 12 item 6); it
    # verifies the board's audit and feed records and cannot sign one (issue 16 item 1)
    print("  %-16s %s (public: give it to anyone who checks hands)" % ("device public key", device_public.hex()))


def _to_file(store, k, device, out):
    """The Raspberry Pi's key file, created owner-only and never over an existing file."""
    try:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as e:
        store.forget(device)
        print("feltctl provision: error: cannot create %s: %s (an existing file is never overwritten)"
              % (out, e.strerror), file=sys.stderr)
        return 1
    # the Pi's device signing key: made here from this machine's checked entropy source, written
    # only into the Pi's key file (install.sh moves it root-only), never into the key store
    text = store.device_key_file(device)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    public = store.feed_public(device)
    print("key file for Raspberry Pi %s written to %s (owner only); keys kept in %s" % (
        device, out, store.folder(device)))
    print("on the Pi: sudo hardware/raspberry-pi/install.sh --keys FILE (it goes root-only into %s), "
          "then delete FILE" % keylib.RPI_PATH)
    _show(k, public)
    return 0


def run(args):
    if (args.port is None) == (args.out is None):
        print("feltctl provision: give the board's PORT, or --out FILE for a Raspberry Pi (not both)",
              file=sys.stderr)
        return 2
    store = KeyStore(args.keys)
    k = store.create(args.device, args.floor)
    if args.out is not None:
        return _to_file(store, k, args.device, args.out)
    code = _WRITE % {"path": keylib.PATH, "text": store.device_text(args.device), "entropy": _source(entropy),
                     "ed25519": _source(ed25519)}
    sent = False
    try:
        with Transport(args.port, baud=args.baud, timeout_s=args.timeout) as t:
            t.enter_raw(soft_reset=True)
            sent = True  # from here the board may have stored the keys
            r = Deployer(t).call(code)
            t.soft_reset_to_friendly()
    except FeltError as e:
        if not sent:  # the port did not open or no REPL answered: the name stays free for a retry
            store.forget(args.device)
            print("feltctl provision: error: %s\nnothing was sent to the board; the new keys were discarded"
                  % e, file=sys.stderr)
            return 1
        print("feltctl provision: error: %s\nthe new keys are kept in %s in case the board stored them; "
              "run provision again only after checking the board" % (e, store.folder(args.device)),
              file=sys.stderr)
        return 1
    if r and r.get("entropy"):
        store.forget(args.device)
        print("feltctl provision: error: refused: %s; nothing was written to the board and the new keys were "
              "discarded (hardware/security.md section 2a)" % r["entropy"], file=sys.stderr)
        return 1
    if not r or not r.get("written"):
        store.forget(args.device)
        print("feltctl provision: error: the board already has keys (%s); they are never overwritten "
              "or read back -- use the key store that provisioned it" % keylib.PATH, file=sys.stderr)
        return 1
    public = bytes.fromhex(r["public"])
    store.set_device_public(args.device, public)
    print("provisioned board %s; keys kept in %s (owner only)" % (args.device, store.folder(args.device)))
    _show(k, public)
    return 0
