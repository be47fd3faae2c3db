# Host side of Felt security (host tools): the owner's key store (one folder per board, files
# readable by the owner only), signing a firmware tree's manifest for `feltctl flash` with the
# release PRIVATE key (Ed25519, on the `cryptography` package), answering floor-command
# challenges, and the audit anchor. The store never holds the board's device signing key, only
# its public half (issue 16 item 1). Keys are never printed or logged: only key ids.
import os
import secrets
import stat

from felt.security import KeyFileError
from felt.security import auth
from felt.security import keys as keylib
from felt.security import manifest as mf
from felt.security import ed25519

ENV = "FELT_KEYS"
FEED_PUB = "feed.pub"  # the public half of the board's device signing key (audit and feed; not secret)
RELEASE = "release"  # release.key: the Ed25519 seed that signs this board's firmware; release.pub


def default_dir():
    return os.environ.get(ENV) or os.path.join(os.path.expanduser("~"), ".felt", "keys")


def _write_private(path, text):
    """Create a file only its owner can read; refuses to replace an existing one."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)


class KeyStore:
    """<root>/<device>/: device.keys (what the board is sent; it adds its own signing key),
    release.key (signs firmware) and release.pub, broadcast.key, floor-<name>.key (so each role's
    key can be handed out alone), feed.pub (the board's device PUBLIC key, read back at
    provisioning: verifies audit and feed records), audit.anchor, revoked.* (old release keys)."""

    def __init__(self, root=None):
        self.root = root or default_dir()

    def folder(self, device):
        return os.path.join(self.root, device)

    def exists(self, device):
        return os.path.exists(os.path.join(self.folder(device), "device.keys"))

    def create(self, device, floor_names):
        """New random keys for `device`; KeyFileError if keys for it exist (provisioning is once).
        The board's device signing key is not made here: the board makes it (device_public)."""
        if self.exists(device):
            raise KeyFileError("keys for board %r already exist in %s: a board is provisioned once"
                            % (device, self.folder(device)))
        if not floor_names:
            raise KeyFileError("name at least one floor key (--floor NAME)")
        seed = secrets.token_bytes(32)
        release = ed25519.Signer(seed)
        k = keylib.Keys(device, None, dict((n, secrets.token_bytes(32)) for n in floor_names),
                        secrets.token_bytes(32), [release.public])
        text = keylib.encode(k)  # validates the names before anything is written
        folder = self.folder(device)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        os.chmod(folder, stat.S_IRWXU)
        _write_private(os.path.join(folder, "device.keys"), text)
        _write_private(os.path.join(folder, RELEASE + ".key"), seed.hex() + "\n")
        _write_private(os.path.join(folder, RELEASE + ".pub"), release.public.hex() + "\n")
        _write_private(os.path.join(folder, "broadcast.key"), k.broadcast.hex() + "\n")
        for name, key in k.floor.items():
            _write_private(os.path.join(folder, "floor-%s.key" % name), key.hex() + "\n")
        return k

    def set_device_public(self, device, public):
        """The board's device public key, as the board reported it at provisioning (feed.pub)."""
        if len(public) != 32:
            raise KeyFileError("a device public key is 32 bytes")
        _write_private(os.path.join(self.folder(device), FEED_PUB), public.hex() + "\n")

    def device_key_file(self, device):
        """The whole key file of a board whose device key is made here (a Raspberry Pi: it has no
        REPL to make one itself): device.keys plus a new device signing key from this machine's
        checked entropy source (felt.security.entropy). Only its public half is kept (feed.pub):
        the text returned is the one copy of the secret."""
        from felt.security import entropy

        seed = entropy.new_key()
        self.set_device_public(device, ed25519.public_key(seed))
        return self.device_text(device) + "sign " + seed.hex() + "\n"

    def release_signer(self, device):
        """The signer of this board's firmware manifests (the release private key)."""
        return ed25519.Signer(self.role_key(device, RELEASE))

    def rotate_release(self, device):
        """A new release key: (old signer, new signer). The old key stays as release-<id>.old
        until a tree signed with it that trusts the new one (and revokes the old) was deployed."""
        old = self.release_signer(device)
        folder = self.folder(device)
        seed = secrets.token_bytes(32)
        new = ed25519.Signer(seed)
        os.replace(os.path.join(folder, RELEASE + ".key"),
                   os.path.join(folder, "release-%s.old" % keylib.public_id(old.public)))
        os.replace(os.path.join(folder, RELEASE + ".pub"),
                   os.path.join(folder, "release-%s.oldpub" % keylib.public_id(old.public)))
        _write_private(os.path.join(folder, RELEASE + ".key"), seed.hex() + "\n")
        _write_private(os.path.join(folder, RELEASE + ".pub"), new.public.hex() + "\n")
        return old, new

    def forget(self, device):
        """Remove a key set that never reached a board (provisioning refused)."""
        folder = self.folder(device)
        for name in os.listdir(folder):
            os.remove(os.path.join(folder, name))
        os.rmdir(folder)

    def device_text(self, device):
        with open(os.path.join(self.folder(device), "device.keys")) as f:
            return f.read()

    def load(self, device):
        try:
            return keylib.decode(self.device_text(device))
        except OSError:
            raise KeyFileError("no keys for board %r in %s (run feltctl provision, or pass --keys)"
                            % (device, self.root))

    def role_key(self, device, role):
        """One role's key from its own file: 'release', 'broadcast' or 'floor-NAME' (what a floor
        manager or broadcaster is given without the rest)."""
        path = os.path.join(self.folder(device), role + ".key")
        try:
            with open(path) as f:
                key = bytes.fromhex(f.read().strip())
        except (OSError, ValueError):
            raise KeyFileError("no readable %s key for board %r in %s" % (role, device, self.folder(device)))
        if len(key) != keylib.KEY_BYTES:
            raise KeyFileError("%s: not a %d-byte key" % (path, keylib.KEY_BYTES))
        return key

    def feed_public(self, device):
        """The board's device public key (32 bytes; verifies its audit and feed records): feed.pub."""
        path = os.path.join(self.folder(device), FEED_PUB)
        try:
            with open(path) as f:
                key = bytes.fromhex(f.read().strip())
        except OSError:
            raise KeyFileError("no device public key for board %r in %s (feed.pub: written when the board "
                               "was provisioned)" % (device, self.folder(device)))
        except ValueError:
            key = b""
        if len(key) != 32:
            raise KeyFileError("%s: not a 32-byte feed verification key" % path)
        return key

    # -- the audit anchor: the last record `feltctl audit verify` saw ---------------------------
    def anchor(self, device):
        try:
            with open(os.path.join(self.folder(device), "audit.anchor")) as f:
                seq, h = f.read().split()
                return int(seq), h
        except (OSError, ValueError):
            return None

    def set_anchor(self, device, seq, h):
        path = os.path.join(self.folder(device), "audit.anchor")
        with open(path + ".tmp", "w") as f:
            f.write("%d %s\n" % (seq, h))
        os.replace(path + ".tmp", path)


    # -- the anti-rollback counter the next signed tree gets ------------------------------------
    def next_counter(self, device):
        """One more than the last counter this key store signed for `device` (1 at first); the
        board refuses any tree below the highest it ever activated."""
        path = os.path.join(self.folder(device), "counter")
        try:
            with open(path) as f:
                last = int(f.read().strip())
        except (OSError, ValueError):
            last = 0
        return last + 1

    def used_counter(self, device, counter):
        """Remember that `counter` was signed. The store keeps the highest: an explicit lower
        --counter must not make later default signings fall below what a board has activated."""
        counter = max(counter, self.next_counter(device) - 1)
        path = os.path.join(self.folder(device), "counter")
        with open(path + ".tmp", "w") as f:
            f.write("%d\n" % counter)
        os.replace(path + ".tmp", path)


def firmware_version(files):
    """VERSION from felt/__init__.py of a tree ({path: bytes}), else 'unversioned'."""
    text = files.get("felt/__init__.py", b"").decode("utf-8", "replace")
    for line in text.splitlines():
        if line.startswith("VERSION") and "=" in line:
            return line.split("=", 1)[1].strip().strip("\"'") or "unversioned"
    return "unversioned"


def config_entries(paths):
    """[(file name, size, sha256 hex)] of configuration files for the data root (board.json,
    table.json, decks.json, room.json): listed in the manifest so the board uses only these (issue 16
    item 2). Each is FILE (named as on the board) or NAME=FILE (hardware/boards/pico.json under
    the name board.json)."""
    import hashlib
    out = []
    for p in paths or ():
        name, _, path = p.partition("=") if "=" in p else (os.path.basename(p), "", p)
        with open(path, "rb") as f:
            data = f.read()
        out.append((name, len(data), hashlib.sha256(data).hexdigest()))
    return out


def signed_build(tree, device, store=None, version=None, counter=None, configs=()):
    """What `feltctl flash --sign` deploys: `tree` (feltctl.board.deploy.Tree, after any mpy-cross
    step) with a manifest signed by the device's release key. counter None = the key store's
    next; the store remembers it."""
    store = store or KeyStore()
    release = store.release_signer(device)
    if counter is None:
        counter = store.next_counter(device)
    out = sign_tree(tree, device, release, version or firmware_version(tree.files), counter, configs)
    store.used_counter(device, counter)
    return out


def manifest_for(files, device, release, version, counter, trust=(), revoke=(), configs=()):
    """Signed manifest text for a tree given as {relative path: bytes}. release: the release
    key's signer (KeyStore.release_signer) or its 32-byte seed."""
    import hashlib
    entries = [(rel, len(data), hashlib.sha256(data).hexdigest()) for rel, data in files.items() if rel != mf.NAME]
    return mf.sign(device, release, version, counter, entries, trust, revoke, configs)


def sign_tree(tree, device, release, version, counter, configs=()):
    """A feltctl.board.deploy.Tree with `felt.manifest` added (what `feltctl flash --sign` deploys)."""
    from feltctl.board.deploy import Tree
    files = dict(tree.files)
    files[mf.NAME] = manifest_for(files, device, release, version, counter, configs=configs).encode()
    return Tree(files)


def answer_challenge(floor_key, device, nonce_hex, who, command):
    """The tag a floor tool sends with `command` for the board's challenge `nonce_hex`."""
    auth.parse_command(command)  # refuse a command the board would refuse anyway, before signing
    return auth.answer(floor_key, device, nonce_hex, who, command)

