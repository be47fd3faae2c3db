# Sealed journal records (recovery layer; issue 16 item 5, hardware/journal.md section 9): on a
# provisioned board the tag UIDs a hand's CARD and ANTENNA records carry are never on flash in the
# clear. Each such payload is encrypted and authenticated -- HMAC-SHA256 as a PRF in counter mode,
# then an HMAC tag over nonce, kind, sequence number and ciphertext (encrypt-then-MAC, as
# felt.security.hmac.seal) -- under the hand's key: HMAC(journal key, "felt-hand" + the sequence
# number of the generation's snapshot), the journal key derived from the board's device key, which is not
# in the data folder on a Raspberry Pi (/etc/felt, root only). Recovery after a power cut derives
# the same key and opens them, so nothing is lost; a record that does not open stops the replay
# there (journal.Unverified) and the table tilts. The key is never written anywhere.
import hashlib

from felt.recovery import journal as jr

SEALED = (jr.CARD, jr.ANTENNA)  # the records that carry tag UIDs
NONCE_BYTES = 8
TAG_BYTES = 12  # 96 bits, as GCM's usual tag
# A sealed payload: this byte (no JSON text starts with it), the nonce, the ciphertext, the tag --
# 21 bytes more than the clear record (a card read: 50 -> 71 bytes)
MARK = b"\x00"


class _PRF:
    """HMAC-SHA256 with its padded keys computed once (a record costs 3-4 of these; the
    byte-by-byte pad XOR is the slow part on MicroPython)."""

    def __init__(self, key):
        if len(key) > 64:
            key = hashlib.sha256(key).digest()
        key = key + bytes(64 - len(key))
        self._i = bytes([b ^ 0x36 for b in key])
        self._o = bytes([b ^ 0x5C for b in key])

    def __call__(self, *parts):
        h = hashlib.sha256(self._i)
        for p in parts:
            h.update(p)
        return hashlib.sha256(self._o + h.digest()).digest()


def _seq4(seq):
    return bytes([(seq >> 24) & 255, (seq >> 16) & 255, (seq >> 8) & 255, seq & 255])


def _xor_stream(prf, nonce, data):
    out = bytearray(len(data))
    block = 0
    for off in range(0, len(data), 32):
        ks = prf(nonce, _seq4(block))
        for i in range(min(32, len(data) - off)):
            out[off + i] = data[off + i] ^ ks[i]
        block += 1
    return bytes(out)


class JournalSeal:
    """seal(hand, seq, kind, payload) on the way to flash (felt.recovery.restore.TableRecorder),
    open(hand, record) on the way back (restore_table). hand: the sequence number of the
    generation's snapshot (journal.snapshot.seq), the same after a repair copy; seq: the
    record's own. key: the board's journal key; nonce_source(n) -> n random bytes."""

    def __init__(self, key, nonce_source):
        self._key = _PRF(key)
        self._nonce = nonce_source
        self._hand = None  # (hand, encryption PRF, MAC PRF) of the hand in play

    def _keys(self, hand):
        h = self._hand
        if h is None or h[0] != hand:
            k = self._key(b"felt-hand\0", _seq4(hand))
            h = (hand, _PRF(self._key(b"enc\0", k)), _PRF(self._key(b"mac\0", k)))
            self._hand = h
        return h

    def seal(self, hand, seq, kind, payload):
        if kind not in SEALED:
            return payload
        h = self._keys(hand)
        nonce = self._nonce(NONCE_BYTES)
        ct = _xor_stream(h[1], nonce, payload)
        tag = h[2](nonce, bytes([kind]), _seq4(seq), ct)[:TAG_BYTES]
        return MARK + nonce + ct + tag

    def open(self, hand, record):
        """The record with its payload opened; journal.Unverified when a record that must be
        sealed is not, or does not authenticate (an edit, another board's key, flash damage the
        CRC missed)."""
        if record.kind not in SEALED:
            return record
        raw = record.payload
        if raw[:1] != MARK:
            raise jr.Unverified("journal record %d holds a tag UID in the clear on a sealed journal" % record.seq)
        raw = raw[1:]
        if len(raw) < NONCE_BYTES + TAG_BYTES:
            raise jr.Unverified("journal record %d: its sealed payload is damaged" % record.seq)
        h = self._keys(hand)
        nonce, ct, tag = raw[:NONCE_BYTES], raw[NONCE_BYTES:-TAG_BYTES], raw[-TAG_BYTES:]
        want = h[2](nonce, bytes([record.kind]), _seq4(record.seq), ct)[:TAG_BYTES]
        if not _same(want, tag):
            raise jr.Unverified("journal record %d does not verify (altered, moved, or sealed with another "
                                "board's key)" % record.seq)
        return jr.Record(record.seq, record.kind, _xor_stream(h[1], nonce, ct), record.offset)


def _same(a, b):
    acc = 0
    for i in range(len(a)):
        acc |= a[i] ^ b[i]
    return acc == 0 and len(a) == len(b)
