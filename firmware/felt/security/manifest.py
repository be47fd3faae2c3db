# Signed firmware manifests (firmware; pure text plus reading the tree being checked): version,
# anti-rollback counter and every file's size and SHA-256, signed with a release PRIVATE key
# (Ed25519) that only the owner's key store holds; the board holds the public key only (issue 16
# item 1). The board checks the manifest and every file before it activates or boots a tree and
# refuses an unsigned, altered, untrusted- or revoked-key or older one (hardware/security.md).
# A manifest may also add a release key (`trust`) or revoke one (`revoke`): key rotation.
import os
import hashlib

from felt.security import ManifestError
from felt.security import ed25519
from felt.security.hmac import hexlify, signature_bytes, unhexlify
from felt.security.keys import public_id

NAME = "felt.manifest"  # in the root of every firmware tree (slot); not listed in itself
HEADER = "felt-manifest 2"
_DOMAIN = b"felt-manifest 2\0"  # what is signed: this, then the SHA-256 of the body
COUNTER_PATH = "/felt.counter"  # highest counter ever activated on this board
RPI_COUNTER_PATH = "/etc/felt/felt.counter"  # the Raspberry Pi's, root-only beside its keys (keys.RPI_DIR)
_IS_DIR = 0x4000
_BUF = 1024
# deploy bookkeeping that lives in a slot but is not firmware (deploy_agent.MARKER, TMP, ZTMP)
_SKIP_NAMES = (".felt-ok",)
_SKIP_SUFFIXES = (".tmp", ".z")


class Manifest:
    """A parsed manifest. files: [(path, size, sha256 hex)] in path order; body: the signed text."""

    def __init__(self, device, key, version, counter, files, body, sig, trust=(), revoke=(), configs=()):
        self.configs = list(configs)  # [(name, size, sha256 hex)]: configuration files of the data root
        self.trust = list(trust)  # release public keys this tree adds (rotation)
        self.revoke = list(revoke)  # release key ids it revokes
        self.device = device
        self.key = key
        self.version = version
        self.counter = counter
        self.files = files
        self.body = body
        self.sig = sig

    def hash(self):
        """SHA-256 of the whole manifest text (what `feltctl info` shows on the overlay)."""
        return hexlify(hashlib.sha256((self.body + "sig " + (self.sig or "") + "\n").encode()).digest())


def _check_path(path):
    # one spelling per file (issue 12 item 8): relative, no '..', '.' or empty segment, no '\\'
    parts = path.split("/") if path else [""]
    if (path.startswith("/") or " " in path or "\n" in path or "\\" in path or ".." in parts or "." in parts
            or "" in parts):
        raise ManifestError("manifest: bad file path %r (relative, no '.', '..' or empty parts)" % (path,))


def _signer(release):
    # an ed25519.Signer-like object (.public, .sign) as given, or a 32-byte seed (tests, firmware)
    return ed25519.Signer(release) if isinstance(release, (bytes, bytearray)) else release


def _check_config_name(name):
    if not name or "/" in name or " " in name or "\n" in name or name in (".", ".."):
        raise ManifestError("manifest: bad configuration file name %r (a file name of the data root)" % (name,))


def body_text(device, release, version, counter, entries, trust=(), revoke=(), configs=()):
    """The text that is signed: header, device, release key id, version, counter, the release
    keys it adds and revokes, one line per file. release: the signer (or its public key)."""
    if not isinstance(counter, int) or counter < 0:
        raise ManifestError("manifest: the anti-rollback counter is an integer >= 0, not %r" % (counter,))
    if " " in version or "\n" in version or not version:
        raise ManifestError("manifest: version %r must be one word" % (version,))
    pub = getattr(release, "public", release)
    out = [HEADER, "device " + device, "key " + public_id(pub), "version " + version, "counter %d" % counter]
    for p in trust:
        out.append("trust " + hexlify(p))
    for kid in revoke:
        out.append("revoke " + kid)
    for name, size, digest in sorted([(c[0], c[1], c[2]) for c in configs]):
        _check_config_name(name)
        out.append("config %s %d %s" % (name, size, digest))
    rows = sorted([(e[0], e[1], e[2]) for e in entries])
    seen = {}
    for path, size, digest in rows:
        _check_path(path)
        if path == NAME:
            continue
        if path in seen:
            raise ManifestError("manifest: %s listed twice" % path)
        seen[path] = True
        out.append("file %s %d %s" % (path, size, digest))
    return "\n".join(out) + "\n"


def signed_message(body):
    """The bytes the release key signs: a domain label and the body's SHA-256 (a 9 KB manifest
    is hashed once by hashlib; Ed25519's own SHA-512 then runs over 48 bytes, which matters
    where SHA-512 is plain Python)."""
    return _DOMAIN + hashlib.sha256(body.encode()).digest()


def sign(device, release, version, counter, entries, trust=(), revoke=(), configs=()):
    """The manifest text for a tree: body + 'sig <Ed25519 signature hex>' (what feltctl flash
    ships). release: the release key's signer (or its 32-byte seed)."""
    signer = _signer(release)
    body = body_text(device, signer, version, counter, entries, trust, revoke, configs)
    return body + "sig " + hexlify(signer.sign(signed_message(body))) + "\n"


def parse(text):
    """A Manifest from its text (not yet verified); ManifestError for anything malformed."""
    cut = text.find("\nsig ")
    if cut < 0:
        body, sig = text, None
    else:
        body, sig = text[:cut + 1], text[cut + 5:].strip()
    lines = body.split("\n")
    if lines[0] != HEADER:
        raise ManifestError("not a Felt firmware manifest (first line must be %r)" % HEADER)
    fields = {}
    files = []
    seen = {}
    trust, revoke, configs = [], [], []
    for i in range(1, len(lines)):
        w = lines[i].split(" ")
        if w == [""]:
            continue
        try:
            if w[0] == "file" and len(w) == 4:
                _check_path(w[1])
                if w[1] in seen or _skipped(w[1]):  # each file once; never one the tree walk leaves out
                    raise ValueError("%s listed twice or not a firmware file" % w[1])
                seen[w[1]] = True
                files.append((w[1], int(w[2]), w[3]))
            elif w[0] == "config" and len(w) == 4:
                _check_config_name(w[1])
                configs.append((w[1], int(w[2]), w[3]))
            elif w[0] == "trust" and len(w) == 2 and len(w[1]) == 64:
                trust.append(unhexlify(w[1]))
            elif w[0] == "revoke" and len(w) == 2 and len(w[1]) == 16:
                revoke.append(w[1])
            elif w[0] in ("device", "key", "version", "counter") and len(w) == 2 and w[0] not in fields:
                fields[w[0]] = w[1]
            else:
                raise ValueError(lines[i][:40])
        except ValueError as e:
            raise ManifestError("manifest line %d is malformed: %s" % (i + 1, e))
    for k in ("device", "key", "version", "counter"):
        if k not in fields:
            raise ManifestError("manifest has no %s line" % k)
    try:
        counter = int(fields["counter"])
    except ValueError:
        raise ManifestError("manifest counter %r is not a number" % fields["counter"])
    return Manifest(fields["device"], fields["key"], fields["version"], counter, files, body, sig, trust, revoke, configs)


def _trusted(release):
    # {key id: public key} from a dict as given, a list of public keys, or one public key
    if isinstance(release, dict):
        return release
    if isinstance(release, (bytes, bytearray)):
        release = [release]
    out = {}
    for pub in release:
        out[public_id(pub)] = pub
    return out


def verify(text, release, device=None, revoked=()):
    """The Manifest if `text` is signed by a trusted release key (release: {key id: public key}
    or a list of public keys; for `device` when given); else ManifestError saying which:
    unsigned, a revoked or untrusted key, another device, or altered."""
    m = parse(text)
    if not m.sig:
        raise ManifestError("refused: the firmware manifest is unsigned")
    if m.key in revoked:
        raise ManifestError("refused: the manifest is signed with release key %s, which was revoked" % m.key)
    trusted = _trusted(release)
    if m.key not in trusted:
        raise ManifestError("refused: the manifest is signed with key %s, not a release key this board "
                            "trusts (%s) (wrong key)" % (m.key, ", ".join(sorted(trusted)) or "none"))
    try:
        raw = signature_bytes(m.sig)
    except ValueError:
        raw = b""
    if not ed25519.verify(trusted[m.key], signed_message(m.body), raw):
        raise ManifestError("refused: the manifest's signature does not verify (the manifest was altered)")
    if device is not None and m.device != device:
        raise ManifestError("refused: the manifest is for board %r, this is %r" % (m.device, device))
    return m


def check_counter(m, stored):
    """Anti-rollback: a tree older than the newest one ever activated is refused."""
    if m.counter < stored:
        raise ManifestError("refused: firmware %s has anti-rollback counter %d, older than %d already "
                            "activated on this board (re-sign it with a counter >= %d to go back)"
                            % (m.version, m.counter, stored, stored))


# ---- the files of a tree ------------------------------------------------------------------------
def file_hash(path):
    """(size, sha256 hex) read in 1 KB pieces."""
    h = hashlib.sha256()
    buf = bytearray(_BUF)
    mv = memoryview(buf)
    size = 0
    with open(path, "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            h.update(mv[:n])
            size += n
    return size, hexlify(h.digest())


def _skipped(path):
    """Deploy bookkeeping the walk leaves out: the slot's own marker and manifest (top level
    only: elsewhere they are files like any other) and files being received (*.tmp, *.z, names
    no interpreter imports)."""
    if path in _SKIP_NAMES or path == NAME:
        return True
    for s in _SKIP_SUFFIXES:
        if path.endswith(s):
            return True
    return False


_IS_LINK = 0xA000


def _entries(path):
    """[(name, is_dir)] of a folder: os.ilistdir on MicroPython, listdir + lstat on CPython (Pi).
    A symbolic link is refused: it may point outside the tree, or nowhere (issue 12 item 8: one
    dangling link made stat fail, and the walk then skipped the whole folder, unsigned files and
    all)."""
    if hasattr(os, "ilistdir"):
        return [(e[0], bool(e[1] & _IS_DIR)) for e in os.ilistdir(path)]
    out = []
    for n in os.listdir(path):
        mode = os.lstat(path + "/" + n)[0]
        if mode & 0xF000 == _IS_LINK:
            raise ManifestError("refused: %s/%s is a symbolic link (not part of a signed tree)" % (path, n))
        out.append((n, mode & 0xF000 == _IS_DIR))
    return out


def walk(root):
    """Relative paths of the firmware files under root (deploy bookkeeping left out), sorted."""
    out = []
    stack = [""]
    while stack:
        rel = stack.pop()
        try:
            entries = _entries(root + "/" + rel if rel else root)
        except OSError as e:
            # fail closed: a folder that cannot be listed could hold unsigned modules
            raise ManifestError("refused: cannot list %s (%s): the tree cannot be checked" % (rel or root, e))
        for entry in entries:
            path = rel + "/" + entry[0] if rel else entry[0]
            if entry[1]:
                # __pycache__ is checked like any folder: CPython (the Pi) would load a planted
                # .pyc instead of the signed .py, so the Pi service runs python -B (no bytecode)
                stack.append(path)
            elif not _skipped(path):
                out.append(path)
    out.sort()
    return out


def verify_tree(root, m):
    """Every file of the manifest present with its size and SHA-256, and no file that is not in
    it (an added module could be imported ahead of a signed one)."""
    listed = {}
    for path, size, digest in m.files:
        listed[path] = True
        try:
            got = file_hash(root + "/" + path)
        except OSError:
            raise ManifestError("refused: %s is in the signed manifest but missing from the tree" % path)
        if got != (size, digest):
            raise ManifestError("refused: %s was altered (%d bytes, sha256 %s...; signed: %d bytes, %s...)"
                                % (path, got[0], got[1][:12], size, digest[:12]))
    for path in walk(root):
        if path not in listed:
            raise ManifestError("refused: %s is not in the signed manifest (unsigned file added)" % path)


def read_counter(path=COUNTER_PATH):
    try:
        with open(path) as f:
            return int(f.read().strip() or "0")
    except OSError:
        return 0
    except ValueError:
        # a damaged counter must not reopen old firmware: treat as "refuse everything" until fixed
        raise ManifestError("the anti-rollback counter file %s is damaged; re-provision the board" % path)


def write_counter(n, path=COUNTER_PATH):
    """Raise the stored counter (never lowers it); atomic by rename."""
    if n <= read_counter(path):
        return
    with open(path + ".tmp", "w") as f:
        f.write("%d\n" % n)
    os.rename(path + ".tmp", path)


def check_tree(root, release, device=None, stored=0, revoked=()):
    """The whole activation check of a tree: manifest signed, not older, every file intact.
    Returns the Manifest; raises ManifestError with the reason otherwise."""
    try:
        with open(root + "/" + NAME) as f:
            text = f.read()
    except OSError:
        raise ManifestError("refused: %s has no %s (unsigned firmware)" % (root, NAME))
    m = verify(text, release, device, revoked)
    check_counter(m, stored)
    verify_tree(root, m)
    return m


# ---- what the board reads at boot outside its tree (issue 16 item 2) ------------------------------
CONFIG_NAMES = ("board.json", "table.json", "decks.json", "room.json")  # read from the data root at boot


def check_configs(m, root, names=CONFIG_NAMES):
    """Every configuration file present in the data root must be one the manifest lists, with
    its size and SHA-256 (feltctl flash --sign --config FILE); ManifestError names the first that
    is unsigned or altered. A file absent is fine: the defaults or the tree's own copy apply."""
    listed = {}
    for name, size, digest in m.configs:
        listed[name] = (size, digest)
    for name in names:
        path = root.rstrip("/") + "/" + name
        try:
            got = file_hash(path)
        except OSError:
            continue
        if name not in listed:
            raise ManifestError("refused: %s is not covered by the signed manifest (unsigned configuration; "
                                "sign it with feltctl flash --sign DEVICE --config %s)" % (path, name))
        if got != listed[name]:
            raise ManifestError("refused: %s was altered (%d bytes, sha256 %s...; signed: %d bytes, %s...)"
                                % (path, got[0], got[1][:12], listed[name][0], listed[name][1][:12]))


def check_loader(m, path="/boot.py"):
    """The loader at the board's root must be the tree's own boot.py, as signed (feltctl flash
    copies it there); ManifestError when it differs. No loader (a board that boots main.py
    directly) is fine."""
    try:
        got = file_hash(path)
    except OSError:
        return
    for rel, size, digest in m.files:
        if rel == "boot.py":
            if got != (size, digest):
                raise ManifestError("refused: %s was altered (not the signed boot.py of the running tree)" % path)
            return
    raise ManifestError("refused: %s is not covered by the signed manifest (the tree has no boot.py)" % path)


def check_no_modules(folder="/lib"):
    """Nothing in /lib: MicroPython imports from it, and nothing signed lives there (an added
    module could stand in for one the firmware imports optionally). ManifestError names it."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    if names:
        raise ManifestError("refused: %s holds %s, which no signed manifest covers (an importable folder)"
                            % (folder, sorted(names)[0]))
