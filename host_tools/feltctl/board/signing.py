# Host side of Felt security (host tools): the owner's key store (one folder per board, files
# readable by the owner only), signing a firmware tree's manifest for `feltctl flash`, answering
# floor-command challenges, and the audit anchor. Keys are never printed or logged: only key ids.
import os
import secrets
import stat

from felt.security import KeyFileError
from felt.security import auth
from felt.security import keys as keylib
from felt.security import manifest as mf
from felt.security import secrecy

ENV = "FELT_KEYS"
FEED_PUB = "feed.pub"  # the public half of the board's feed-signing key (not secret)


def default_dir():
    return os.environ.get(ENV) or os.path.join(os.path.expanduser("~"), ".felt", "keys")


def _write_private(path, text):
    """Create a file only its owner can read; refuses to replace an existing one."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)


class KeyStore:
    """<root>/<device>/: device.keys (what the board holds), owner.key, broadcast.key,
    floor-<name>.key (so each role's key can be handed out alone), audit.anchor."""

    def __init__(self, root=None):
        self.root = root or default_dir()

    def folder(self, device):
        return os.path.join(self.root, device)

    def exists(self, device):
        return os.path.exists(os.path.join(self.folder(device), "device.keys"))

    def create(self, device, floor_names):
        """New random keys for `device`; KeyFileError if keys for it exist (provisioning is once)."""
        if self.exists(device):
            raise KeyFileError("keys for board %r already exist in %s: a board is provisioned once"
                            % (device, self.folder(device)))
        if not floor_names:
            raise KeyFileError("name at least one floor key (--floor NAME)")
        k = keylib.Keys(device, secrets.token_bytes(32), dict((n, secrets.token_bytes(32)) for n in floor_names),
                        secrets.token_bytes(32))
        text = keylib.encode(k)  # validates the names before anything is written
        folder = self.folder(device)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        os.chmod(folder, stat.S_IRWXU)
        _write_private(os.path.join(folder, "device.keys"), text)
        _write_private(os.path.join(folder, "owner.key"), k.owner.hex() + "\n")
        _write_private(os.path.join(folder, "broadcast.key"), k.broadcast.hex() + "\n")
        for name, key in k.floor.items():
            _write_private(os.path.join(folder, "floor-%s.key" % name), key.hex() + "\n")
        # the feed's verification key (public; issue 12 item 6): hand it to whoever checks hands
        _write_private(os.path.join(folder, FEED_PUB), secrecy.feed_public(k.owner).hex() + "\n")
        return k

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
        """One role's key from its own file: 'owner', 'broadcast' or 'floor-NAME' (what a floor
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
        """The board's feed verification key (32 bytes): feed.pub, else derived from owner.key
        (a key store made before feed.pub existed)."""
        path = os.path.join(self.folder(device), FEED_PUB)
        try:
            with open(path) as f:
                key = bytes.fromhex(f.read().strip())
        except OSError:
            return secrecy.feed_public(self.role_key(device, "owner"))
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


def signed_build(tree, device, store=None, version=None, counter=None):
    """What `feltctl flash --sign` deploys: `tree` (feltctl.board.deploy.Tree, after any mpy-cross
    step) with a manifest signed by the device's owner key. counter None = the key store's
    next; the store remembers it."""
    store = store or KeyStore()
    owner = store.role_key(device, "owner")
    if counter is None:
        counter = store.next_counter(device)
    out = sign_tree(tree, device, owner, version or firmware_version(tree.files), counter)
    store.used_counter(device, counter)
    return out


def manifest_for(files, device, owner_key, version, counter):
    """Signed manifest text for a tree given as {relative path: bytes}."""
    import hashlib
    entries = [(rel, len(data), hashlib.sha256(data).hexdigest()) for rel, data in files.items() if rel != mf.NAME]
    return mf.sign(device, owner_key, version, counter, entries)


def sign_tree(tree, device, owner_key, version, counter):
    """A feltctl.board.deploy.Tree with `felt.manifest` added (what `feltctl flash --sign` deploys)."""
    from feltctl.board.deploy import Tree
    files = dict(tree.files)
    files[mf.NAME] = manifest_for(files, device, owner_key, version, counter).encode()
    return Tree(files)


def answer_challenge(floor_key, device, nonce_hex, who, command):
    """The tag a floor tool sends with `command` for the board's challenge `nonce_hex`."""
    auth.parse_command(command)  # refuse a command the board would refuse anyway, before signing
    return auth.answer(floor_key, device, nonce_hex, who, command)

