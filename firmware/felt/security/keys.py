# Per-device keys (firmware, pure text codec + one file read): the board's own Ed25519 signing key
# (made on the board at provisioning from its entropy source; signs audit and feed records), the
# release PUBLIC keys it accepts firmware manifests from (issue 16 item 1: the board holds no key
# that can sign firmware), floor keys by name (authenticate floor commands, register decks) and
# the broadcaster key (seals the delayed hole-card feed). Written once by `feltctl provision`;
# nothing here prints, logs or returns a secret key -- only its key id (a one-way fingerprint).
# Release-key rotation and revocation: the trust file (TRUST_PATH), written by the boot check
# from signed manifests (hardware/security.md section 2).
import hashlib

from felt.security import KeyFileError
from felt.security.hmac import hexlify, hmac_hex, unhexlify

KEY_BYTES = 32
HEADER = "felt-keys 2"
OLD_HEADER = "felt-keys 1"  # a symmetric owner key signed manifests: re-provision
TRUST_PATH = "/felt.trust"  # release keys added and revoked by signed manifests (beside the keys)
PATH = "/felt.keys"  # outside the firmware slots: a deploy never replaces it
# Raspberry Pi (hardware/raspberry-pi): the key file is root-only (folder 0700, file 0600) in
# RPI_DIR, not in the service's writable data folder /var/lib/felt: the table process (user felt)
# must be able neither to rewrite its keys nor to lower the anti-rollback counter kept beside them.
# systemd hands the unprivileged service a read-only copy as the credential CREDENTIAL
# (LoadCredential=, FELT_KEYS=%d/felt.keys in felt.service); install.sh checks releases against it.
RPI_DIR = "/etc/felt"
RPI_PATH = RPI_DIR + "/felt.keys"
CREDENTIAL = "felt.keys"


def key_id(key):
    """16 hex digits that name a secret key without revealing it (HMAC of a fixed label)."""
    return hmac_hex(key, "felt-key-id")[:16]


def public_id(public):
    """16 hex digits that name an Ed25519 public key (manifests name their release key so)."""
    return hexlify(hashlib.sha256(b"felt-public-key\0" + bytes(public)).digest())[:16]


_SIGNERS = {}  # device seed -> its Signer


class Keys:
    """device: the board's name; sign: its Ed25519 signing seed (32 bytes; None in the host's copy,
    which never holds it); floor: {name: key}; broadcast: 32-byte key; release: [32-byte Ed25519
    public keys] firmware manifests may be signed with."""

    def __init__(self, device, sign, floor, broadcast, release=()):
        self.device = device
        self.sign = sign
        self.floor = floor
        self.broadcast = broadcast
        self.release = list(release)
        self._signer = None

    def signer(self):
        """The board's ed25519.Signer (its public key computed once)."""
        if self.sign is None:
            raise KeyFileError("the key file has no device signing key (provisioning did not finish)")
        if self._signer is None:
            # one per key for the life of the program: a restart of the table in the same
            # interpreter (a test's power cycle) does not derive the public key again
            self._signer = _SIGNERS.get(self.sign)
            if self._signer is None:
                from felt.security import ed25519
                self._signer = _SIGNERS[self.sign] = ed25519.Signer(self.sign)
        return self._signer

    def ids(self):
        """{role: key id} -- safe to show (feltctl info, the audit log)."""
        out = {"broadcast": key_id(self.broadcast)}
        if self.sign is not None:
            out["device"] = public_id(self.signer().public)
        for pub in self.release:
            out["release:" + public_id(pub)] = public_id(pub)
        for name in self.floor:
            out["floor:" + name] = key_id(self.floor[name])
        return out

    def __repr__(self):  # never the keys themselves, even in a traceback
        return "Keys(%s, %d release keys)" % (self.device, len(self.release))


def _name_ok(name):
    if not name or len(name) > 32:
        return False
    for c in name:
        if not (c.isalpha() or c.isdigit() or c in "-_."):
            return False
    return True


def encode(keys):
    """The key file text (written by feltctl provision; floor names in name order)."""
    if not _name_ok(keys.device):
        raise KeyFileError("device name %r: 1..32 letters, digits, - _ ." % (keys.device,))
    out = [HEADER, "device " + keys.device]
    if keys.sign is not None:
        out.append("sign " + _hex(keys.sign))
    for pub in keys.release:
        out.append("release " + _hex(pub))
    out.append("broadcast " + _hex(keys.broadcast))
    for name in sorted(keys.floor):
        if not _name_ok(name):
            raise KeyFileError("floor key name %r: 1..32 letters, digits, - _ ." % (name,))
        out.append("floor %s %s" % (name, _hex(keys.floor[name])))
    return "\n".join(out) + "\n"


def _hex(key):
    if len(key) != KEY_BYTES:
        raise KeyFileError("a key is %d bytes, not %d" % (KEY_BYTES, len(key)))
    return "".join(["%02x" % b for b in key])


def _key(text, what, line_no):
    try:
        key = unhexlify(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        # the message names the line, never its content (it is key material)
        raise KeyFileError("key file line %d: the %s key is not %d bytes of hex" % (line_no, what, KEY_BYTES))
    return key


def decode(text):
    """Keys from the key file text; KeyFileError naming the line for anything malformed."""
    lines = text.split("\n")
    if lines and lines[0].strip() == OLD_HEADER:
        raise KeyFileError("key file version 1 (a symmetric owner key signed firmware): re-provision the "
                           "board (feltctl provision) for release and device signing keys")
    if not lines or lines[0].strip() != HEADER:
        raise KeyFileError("not a Felt key file (first line must be %r)" % HEADER)
    device = sign = broadcast = None
    floor = {}
    release = []
    for i in range(1, len(lines)):
        w = lines[i].split()
        if not w:
            continue
        if w[0] == "device" and len(w) == 2:
            device = w[1]
        elif w[0] == "sign" and len(w) == 2 and sign is None:
            sign = _key(w[1], "device signing", i + 1)
        elif w[0] == "release" and len(w) == 2:
            release.append(_key(w[1], "release", i + 1))
        elif w[0] == "broadcast" and len(w) == 2:
            broadcast = _key(w[1], "broadcast", i + 1)
        elif w[0] == "floor" and len(w) == 3 and _name_ok(w[1]):
            floor[w[1]] = _key(w[2], "floor " + w[1], i + 1)
        else:
            raise KeyFileError("key file line %d: expected device/sign/release/broadcast/floor NAME, got %r"
                            % (i + 1, w[0]))
    if device is None or not release or broadcast is None or not floor:
        raise KeyFileError("key file incomplete: needs device, a release key, broadcast and at least one floor key")
    return Keys(device, sign, floor, broadcast, release)


def load(path=PATH):
    """The board's keys; KeyFileError 'not provisioned' when the file is absent."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        raise KeyFileError("this board is not provisioned (no %s): run feltctl provision" % path)
    return decode(text)


# ---- release-key rotation and revocation (hardware/security.md section 2) ---------------------
def read_trust(path=TRUST_PATH):
    """(added release public keys, revoked key ids) from the trust file; ([], []) when absent.
    Written only by the boot check, from manifests a trusted release key signed."""
    added, revoked = [], []
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return added, revoked
    for i, line in enumerate(text.split("\n")):
        w = line.split()
        if len(w) == 2 and w[0] == "release":
            added.append(_key(w[1], "release", i + 1))
        elif len(w) == 2 and w[0] == "revoke":
            revoked.append(w[1])
        elif w:
            raise KeyFileError("trust file %s line %d is malformed" % (path, i + 1))
    return added, revoked


def trusted(keys, path=TRUST_PATH):
    """(trusted {key id: public key}, revoked [key ids]): the provisioned release keys and those
    signed manifests added, less every revoked one."""
    added, revoked = read_trust(path)
    out = {}
    for pub in keys.release + added:
        if public_id(pub) not in revoked:
            out[public_id(pub)] = pub
    return out, revoked


def write_trust(add, revoke, path=TRUST_PATH):
    """Add release keys and revocations (a revocation is never undone); atomic by rename."""
    added, revoked = read_trust(path)
    changed = False
    for pub in add:
        if pub not in added and public_id(pub) not in revoked:
            added.append(pub)
            changed = True
    for kid in revoke:
        if kid not in revoked:
            revoked.append(kid)
            changed = True
    if not changed:
        return False
    lines = ["release " + _hex(p) for p in added] + ["revoke " + k for k in revoked]
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    import os
    os.rename(path + ".tmp", path)
    return True
