# Per-device keys (firmware, pure text codec + one file read): the owner key (signs firmware
# manifests and audit records), floor keys by name (authenticate floor commands, register decks)
# and the broadcaster key (seals the delayed hole-card feed). Written once by `feltctl provision`;
# nothing here prints, logs or returns a key -- only its key id (a one-way fingerprint).
from felt.security import KeyFileError
from felt.security.hmac import hmac_hex, unhexlify

KEY_BYTES = 32
HEADER = "felt-keys 1"
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
    """16 hex digits that name a key without revealing it (HMAC of a fixed label)."""
    return hmac_hex(key, "felt-key-id")[:16]


class Keys:
    """device: the board's name; owner, broadcast: 32-byte keys; floor: {name: key}."""

    def __init__(self, device, owner, floor, broadcast):
        self.device = device
        self.owner = owner
        self.floor = floor
        self.broadcast = broadcast

    def ids(self):
        """{role: key id} -- safe to show (feltctl info, the audit log)."""
        out = {"owner": key_id(self.owner), "broadcast": key_id(self.broadcast)}
        for name in self.floor:
            out["floor:" + name] = key_id(self.floor[name])
        return out

    def __repr__(self):  # never the keys themselves, even in a traceback
        return "Keys(%s, owner %s)" % (self.device, key_id(self.owner))


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
    out = [HEADER, "device " + keys.device, "owner " + _hex(keys.owner), "broadcast " + _hex(keys.broadcast)]
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
    if not lines or lines[0].strip() != HEADER:
        raise KeyFileError("not a Felt key file (first line must be %r)" % HEADER)
    device = owner = broadcast = None
    floor = {}
    for i in range(1, len(lines)):
        w = lines[i].split()
        if not w:
            continue
        if w[0] == "device" and len(w) == 2:
            device = w[1]
        elif w[0] == "owner" and len(w) == 2:
            owner = _key(w[1], "owner", i + 1)
        elif w[0] == "broadcast" and len(w) == 2:
            broadcast = _key(w[1], "broadcast", i + 1)
        elif w[0] == "floor" and len(w) == 3 and _name_ok(w[1]):
            floor[w[1]] = _key(w[2], "floor " + w[1], i + 1)
        else:
            raise KeyFileError("key file line %d: expected device/owner/broadcast/floor NAME, got %r"
                            % (i + 1, w[0]))
    if device is None or owner is None or broadcast is None or not floor:
        raise KeyFileError("key file incomplete: needs device, owner, broadcast and at least one floor key")
    return Keys(device, owner, floor, broadcast)


def load(path=PATH):
    """The board's keys; KeyFileError 'not provisioned' when the file is absent."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        raise KeyFileError("this board is not provisioned (no %s): run feltctl provision" % path)
    return decode(text)
