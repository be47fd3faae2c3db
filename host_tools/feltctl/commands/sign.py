# `feltctl sign --device NAME [--src DIR]`: write a signed felt.manifest into a firmware tree in
# place (host tools) -- for a Raspberry Pi release, which hardware/raspberry-pi/install.sh checks
# before it switches to it. MicroPython boards get theirs from `feltctl flash --sign`. The manifest
# covers exactly what install.sh copies: every file but __pycache__ folders and .pyc files.
import os
import sys

from felt.security import manifest as mf
from feltctl.paths import FIRMWARE
from feltctl.board.signing import KeyStore, firmware_version

HELP = "sign a firmware tree in place for a Raspberry Pi install (writes <src>/felt.manifest)"


def add_arguments(p):
    p.add_argument("--device", required=True, help="the board's name in the key store")
    p.add_argument("--src", default=FIRMWARE, help="the firmware tree (default: the repo's firmware/)")
    p.add_argument("--counter", type=int, default=None, help="anti-rollback counter (default: the key store's next)")
    p.add_argument("--config", action="append", default=[], metavar="[NAME=]FILE",
                   help="a configuration file the service reads from its data folder (board.json, table.json, "
                        "decks.json, room.json): its hash goes into the manifest (issue 16 item 2)")
    p.add_argument("--keys", default=None, help="key store folder (default $FELT_KEYS or ~/.felt/keys)")


def installed_files(src):
    """{relative path: bytes} of what install.sh puts into a release (no bytecode)."""
    out = {}
    for rel in mf.walk(src):
        if "__pycache__" in rel.split("/") or rel.endswith(".pyc"):
            continue
        with open(os.path.join(src, rel), "rb") as f:
            out[rel] = f.read()
    return out


def sign_folder(src, device, store, counter=None, configs=()):
    """Write <src>/felt.manifest signed with the device's release key; returns the Manifest."""
    from feltctl.board.signing import manifest_for
    release = store.release_signer(device)
    if counter is None:
        counter = store.next_counter(device)
    files = installed_files(src)
    text = manifest_for(files, device, release, firmware_version(files), counter, configs=configs)
    path = os.path.join(src, mf.NAME)
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
    store.used_counter(device, counter)
    return mf.verify(text, [release.public], device)


def run(args):
    if not os.path.isdir(args.src):
        print("feltctl sign: error: %s is not a folder" % args.src, file=sys.stderr)
        return 1
    if not os.path.isfile(os.path.join(args.src, "main.py")):  # as `feltctl flash --src` refuses it
        print("feltctl sign: error: %s is not a firmware tree (no main.py in it); nothing signed" % args.src,
              file=sys.stderr)
        return 1
    try:
        from feltctl.board.signing import config_entries
        m = sign_folder(args.src, args.device, KeyStore(args.keys), args.counter, config_entries(args.config))
    except OSError as e:
        print("feltctl sign: error: %s: %s" % (e.filename, e.strerror), file=sys.stderr)
        return 1
    print("signed %d files of %s for board %s: version %s, anti-rollback counter %d, manifest sha256 %s"
          % (len(m.files), args.src, args.device, m.version, m.counter, m.hash()))
    return 0
