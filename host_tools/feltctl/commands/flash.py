# `feltctl flash PORT`: deploy the firmware tree to a MicroPython board -- only what changed,
# compressed, verified by SHA-256 on the board, activated atomically (host tools).
# `--rollback` boots the previous tree again; `--dry-run` lists the changes.
import os
import sys

from felt.errors import FeltError
from felt.security import manifest as mf
from feltctl.board.deploy import Build, DeployError, Deployer, build_tree
from feltctl.paths import FIRMWARE
from feltctl.board.signing import KeyStore, config_entries, firmware_version, sign_tree, signed_build
from feltctl.board.transport import Transport

HELP = "deploy the firmware to a board: .mpy, only what the board runs, fast, verified, atomic (--rollback, --dry-run)"


def add_arguments(p):
    p.add_argument("port", help="serial port (/dev/ttyACM0, a simboard link, socket://host:port)")
    p.add_argument("--src", default=FIRMWARE, help="tree to deploy (default: the repo's firmware/)")
    p.add_argument("--baud", type=int, default=115200)
    p.add_argument("--mpy", action="store_true", default=None,
                   help="precompile modules with mpy-cross (the default, except for a tree signed by `feltctl "
                        "sign`, which ships the files it signed): a third of the flash, less RAM")
    p.add_argument("--py", dest="mpy", action="store_false",
                   help="ship the .py sources instead (about three times the flash: two slots may not fit)")
    p.add_argument("--dry-run", action="store_true", help="list what would change, change nothing")
    p.add_argument("--sign", metavar="DEVICE", default=None,
                   help="add a manifest signed with this board's release key (hardware/security.md)")
    p.add_argument("--config", action="append", default=[], metavar="[NAME=]FILE",
                   help="--sign: a configuration file the board reads from its data root (board.json, table.json, "
                        "decks.json, room.json; copy it there yourself, as NAME): its hash goes into the signed "
                        "manifest, and a provisioned board refuses any such file not listed (hardware/flashing.md)")
    p.add_argument("--counter", type=int, default=None, help="--sign: anti-rollback counter (default: next)")
    p.add_argument("--keys", default=None, help="--sign: key store folder (default $FELT_KEYS or ~/.felt/keys)")
    p.add_argument("--layout", choices=("pack", "files"), default=None,
                   help="slot layout (default: a packed slot when two slots of plain files and room for data do not "
                        "fit the board, e.g. a 2 MB Pico; hardware/flashing.md)")
    p.add_argument("--rollback", action="store_true", help="boot the previously deployed tree again")
    p.add_argument("--no-reset", action="store_true", help="leave the board in the raw REPL afterwards")
    p.add_argument("--timeout", type=float, default=3.0, help="seconds of silence before giving up")
    p.add_argument("--progress", action="store_true", default=None, help="progress bar (default: on a terminal)")


def progress_bar(stream):
    def show(done, total):
        width = 30
        filled = width * done // total
        stream.write("\r[%s%s] %3d%% %d/%d bytes" % ("#" * filled, "." * (width - filled),
                                                   100 * done // total, done, total))
        if done >= total:
            stream.write("\n")
        stream.flush()
    return show


def check_presigned(tree, src):
    """A tree flashed without --sign may carry a manifest signed earlier (`feltctl sign`); it must
    still describe the files sent, else the board would call a tree "signed" that its manifest does
    not cover (code edited after signing, or --mpy). DeployError before the port is opened."""
    text = tree.files.get(mf.NAME)
    if text is None:
        return
    entries = [e for e in tree.entries if e[0] != mf.NAME]
    try:
        listed = mf.parse(text.decode("utf-8")).files
    except (FeltError, UnicodeError):  # ManifestError: not a manifest at all
        listed = None
    if listed != entries:
        raise DeployError("%s/%s does not match the tree (signed before the code changed, or --mpy changed "
                          "the files): flash with --sign DEVICE, run `feltctl sign` again, or remove it"
                          % (src.rstrip("/"), mf.NAME))


def run(args):
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    mpy = args.mpy if args.mpy is not None else not os.path.exists(os.path.join(args.src, mf.NAME))
    tree = None if args.rollback else build_tree(args.src, mpy=mpy)
    if tree is not None and "main.py" not in tree.files:
        # the board would boot a slot with nothing to run: refuse before touching it
        raise DeployError("%s is not a firmware tree (no main.py in it)" % args.src)
    configs = config_entries(args.config)
    if configs and not args.sign:
        raise DeployError("--config lists a configuration file in the signed manifest: give --sign DEVICE")
    if tree is not None and args.sign and not args.dry_run:
        store = KeyStore(args.keys)
        tree = Build(tree, lambda t: signed_build(t, args.sign, store, counter=args.counter, configs=configs))
    elif tree is not None and args.sign:  # dry run: the manifest it would send, no counter spent
        store = KeyStore(args.keys)
        counter = args.counter if args.counter is not None else store.next_counter(args.sign)
        tree = Build(tree, lambda t: sign_tree(t, args.sign, store.release_signer(args.sign),
                                               firmware_version(t.files), counter, configs))
    elif tree is not None and mf.NAME in tree.files:
        check_presigned(tree, args.src)  # signed earlier (feltctl sign): ship exactly what it lists
    elif tree is not None:
        tree = Build(tree)  # only what the board runs (deploy.for_board, issue 18 item 2)
    with Transport(args.port, baud=args.baud, timeout_s=args.timeout) as t:
        d = Deployer(t, progress=progress_bar(sys.stderr) if show else None)
        if args.rollback and args.dry_run:  # say what --rollback would do; change nothing
            r = d.info(reset=not args.no_reset)
            if not r["previous"]:
                raise DeployError("no previous firmware on the board to roll back to")
            print("dry run: --rollback would boot slot %s again (slot %s, tree %s, now active, kept); "
                  "nothing written" % (r["previous"], r["active"], (r["tree"] or "?")[:12]))
            return 0
        if args.rollback:
            r = d.rollback(reset=not args.no_reset)
            print("rolled back: now booting slot %s (tree %s); slot %s kept" % (
                r["active"], (r["tree"] or "?")[:12], r["previous"]))
            return 0
        rep = d.deploy(tree, dry_run=args.dry_run, reset=not args.no_reset, layout=args.layout)
    plan, tree = rep.plan, rep.tree
    if args.dry_run:
        for line in plan.lines(tree):
            print(line)
        if not rep.loader_ok:
            print("~ /boot.py (the Felt boot loader)")
        print("dry run: %d to add, %d to change, %d to remove, %d unchanged%s; nothing written" % (
            len(plan.added), len(plan.changed), len(plan.removed), len(plan.kept),
            " (into a packed slot)" if rep.packed else ""))
        return 0
    if rep.up_to_date:
        print("up to date: %d files, tree %s (slot %s); %.2f s" % (len(tree.entries), tree.hash[:12],
                                                                 rep.active, rep.seconds))
        return 0
    print("flashed %d files (%d added, %d changed, %d removed, %d kept) -> slot %s%s, tree %s; "
          "%d bytes over the wire in %.2f s%s" % (
              len(tree.entries), len(plan.added), len(plan.changed), len(plan.removed), len(plan.kept),
              rep.active, " (packed)" if rep.packed else "", tree.hash[:12], rep.bytes_sent, rep.seconds,
              "; previous tree kept in slot %s (feltctl flash --rollback)" % rep.previous if rep.previous else ""))
    return 0
