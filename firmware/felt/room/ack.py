# The floor's `stored` acknowledgement, authenticated (room layer, pure): the floor server tells a
# table which of its seqs it has stored with an HMAC-SHA256 under a floor key the board already
# holds for floor commands (felt.security.auth: no new trust path, issue 15 item 2). The tag binds
# the label, the device, the floor key's name and the seqs, so it cannot be moved to another table
# or other seqs; anyone else on the broker (or the bridge) can no longer empty a table's outbox.
# hardware/floor.md section 4, hardware/security.md section 5.
from felt.security import AuthError
from felt.security.hmac import compare, hmac_hex

LABEL = "felt-stored 1"
TEXT_MAX = 120  # characters of seq ranges in one acknowledgement: a FELT1 puback line is <= 240 bytes
TAG_HEX = 64


class AckError(AuthError):
    """A `stored` acknowledgement refused: malformed, a floor key the board does not hold, a tag
    that does not verify (forged or altered), or seqs the table never sent (replayed). The outbox
    keeps every message it named."""


def ranges_texts(seqs):
    """Sorted seqs -> ['7-9 12', ...]: runs as FIRST-LAST, each text at most TEXT_MAX characters."""
    out = []
    cur = ""
    i = 0
    n = len(seqs)
    while i < n:
        j = i
        while j + 1 < n and seqs[j + 1] == seqs[j] + 1:
            j += 1
        item = str(seqs[i]) if i == j else "%d-%d" % (seqs[i], seqs[j])
        if cur and len(cur) + 1 + len(item) > TEXT_MAX:
            out.append(cur)
            cur = ""
        cur = item if not cur else cur + " " + item
        i = j + 1
    if cur:
        out.append(cur)
    return out


def parse_ranges(text):
    """'7-9 12' -> [(7, 9), (12, 12)]; AckError for anything else."""
    if not isinstance(text, str) or not text or len(text) > TEXT_MAX:
        raise AckError("refused: a stored acknowledgement names 1 to %d characters of seqs" % TEXT_MAX)
    out = []
    for word in text.split(" "):
        k = word.find("-")
        a = word if k < 0 else word[:k]
        b = a if k < 0 else word[k + 1:]
        if not _digits(a) or not _digits(b) or int(a) < 1 or int(b) < int(a):
            raise AckError("refused: a stored acknowledgement with %r in it" % word[:20])
        out.append((int(a), int(b)))
    return out


def _digits(w):
    if not w or len(w) > 12:
        return False
    for c in w:
        if not "0" <= c <= "9":
            return False
    return True


def tag(floor_key, device, who, text):
    """The floor's side: the tag (hex) of acknowledgement `text` for `device` by floor key `who`."""
    return hmac_hex(floor_key, "%s\0%s\0%s\0%s" % (LABEL, device, who, text))


def payload(floor_key, device, who, text):
    """The MQTT `stored` payload: b'NAME TAG 7-9 12'."""
    return ("%s %s %s" % (who, tag(floor_key, device, who, text), text)).encode()


def split_payload(data):
    """(who, tag, text) of a `stored` payload; AckError when it has not that shape."""
    try:
        words = bytes(data).decode().split(" ", 2)
    except UnicodeError:
        words = ()
    if len(words) != 3 or len(words[1]) != TAG_HEX:
        raise AckError("refused: a stored acknowledgement is NAME TAG SEQS (an unsigned one is not taken)")
    return words[0], words[1], words[2]


class AckCheck:
    """The board's side. device: its name; floor_keys: {name: key} (the floor desk's). take(who,
    tag, text, outbox) drops what an authentic acknowledgement names and returns how many."""

    def __init__(self, device, floor_keys):
        self.device = device
        self.keys = floor_keys or {}
        self.stale = 0  # authentic acknowledgements that named nothing still waiting

    def verify(self, who, tag_hex, text, last_seq):
        """The ranges of an authentic acknowledgement; AckError otherwise. An acknowledgement can
        only name seqs this table has made (<= last_seq): seqs are never reused, so an old tag
        replayed names seqs already dropped (nothing changes) -- and one from before the outbox was
        lost names seqs beyond the last, refused here before it could drop newer messages."""
        key = self.keys.get(who)
        if key is None:
            raise AckError("refused: stored acknowledgement by floor key %r, which this board does not hold"
                           % (who[:32],))
        if not compare(tag(key, self.device, who, text), tag_hex):
            raise AckError("refused: forged or altered stored acknowledgement (%s): its tag does not verify"
                           % text[:40])
        ranges = parse_ranges(text)
        for a, b in ranges:
            if b > last_seq:
                raise AckError("refused: replayed stored acknowledgement: it names seq %d, the table has sent "
                               "only up to %d" % (b, last_seq))
        return ranges

    def take(self, who, tag_hex, text, outbox):
        """Verify, then drop from `outbox` every waiting seq the acknowledgement names. Returns the
        seqs dropped (an authentic repeat drops none: counted in stale)."""
        ranges = self.verify(who, tag_hex, text, outbox.last_seq)
        done = []
        for seq, _kind in outbox.waiting():
            for a, b in ranges:
                if a <= seq <= b:
                    done.append(seq)
                    break
        for seq in done:
            outbox.ack(seq)
        if not done:
            self.stale += 1
        return done
