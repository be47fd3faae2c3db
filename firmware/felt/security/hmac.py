# HMAC-SHA256 (RFC 2104) on hashlib.sha256, for the firmware (MicroPython has no hmac module) and
# the host alike; checked against CPython's hmac and the RFC 4231 vectors. Also a constant-time
# comparison and a PRF-based stream cipher (seal/unseal) for the broadcast feed (security.md).
import hashlib

BLOCK = 64  # SHA-256 block size in bytes
DIGEST = 32
_IPAD = bytes([0x36] * BLOCK)
_OPAD = bytes([0x5C] * BLOCK)


def _xor(a, b):
    return bytes([a[i] ^ b[i] for i in range(len(a))])


def _pad_key(key):
    if isinstance(key, str):
        key = key.encode()
    if len(key) > BLOCK:
        key = hashlib.sha256(key).digest()
    return bytes(key) + bytes(BLOCK - len(key))


class HMAC:
    """Incremental HMAC-SHA256: HMAC(key).update(a).update(b).digest()."""

    def __init__(self, key, msg=None):
        k = _pad_key(key)
        self._outer = _xor(k, _OPAD)
        self._inner = hashlib.sha256(_xor(k, _IPAD))
        if msg is not None:
            self.update(msg)

    def update(self, msg):
        if isinstance(msg, str):
            msg = msg.encode()
        self._inner.update(msg)
        return self

    def digest(self):
        # MicroPython's sha256 object cannot be copied, so digest() may be called only once
        inner = self._inner.digest()
        return hashlib.sha256(self._outer + inner).digest()


def hmac_sha256(key, msg):
    """The 32-byte HMAC-SHA256 of msg (bytes or str) under key (bytes or str)."""
    return HMAC(key, msg).digest()


def hexlify(data):
    return "".join(["%02x" % b for b in data])


def unhexlify(text):
    """'0aff' -> b'\\x0a\\xff'; ValueError for odd length or a non-hex character."""
    if len(text) % 2:
        raise ValueError("odd number of hex digits")
    return bytes([int(text[i:i + 2], 16) for i in range(0, len(text), 2)])


def signature_bytes(text):
    """A signature's hex as written by hexlify (lowercase, nothing else) -> bytes; ValueError
    otherwise. int(.., 16) also takes 'E' for 'e', '+' and '_': a record whose signature field was
    edited that way decoded to the same bytes and verified (found by test_security_fuzz)."""
    raw = unhexlify(text)
    if hexlify(raw) != text:
        raise ValueError("a signature is lowercase hex")
    return raw


def hmac_hex(key, msg):
    return hexlify(hmac_sha256(key, msg))


def compare(a, b):
    """Equality of two byte strings (or two str) in time independent of where they differ."""
    if isinstance(a, str):
        a = a.encode()
    if isinstance(b, str):
        b = b.encode()
    if len(a) != len(b):
        return False
    acc = 0
    for i in range(len(a)):
        acc |= a[i] ^ b[i]
    return acc == 0


def derive(key, label):
    """A sub-key for one purpose (HMAC as a PRF): derive(owner, 'audit') etc. One-way: holding
    a derived key does not give the parent."""
    return hmac_sha256(key, b"felt-derive\0" + (label.encode() if isinstance(label, str) else label))


# ---- authenticated encryption for the broadcast feed --------------------------------------------
# No public-key or AES primitive is common to every board and CPython without extra packages
# (the unix port's cryptolib has ECB/CBC only, some boards have no cryptolib). HMAC-SHA256 is a
# PRF, so PRF(k_enc, nonce || counter) is a sound keystream (CTR mode over a PRF), and a second
# HMAC over nonce || associated data || ciphertext authenticates it (encrypt-then-MAC).
TAG = 16  # bytes of MAC kept on a sealed record


def _keystream_xor(key, nonce, data):
    out = bytearray(len(data))
    block = 0
    for off in range(0, len(data), DIGEST):
        ks = hmac_sha256(key, nonce + bytes([(block >> 24) & 255, (block >> 16) & 255, (block >> 8) & 255,
                                             block & 255]))
        for i in range(min(DIGEST, len(data) - off)):
            out[off + i] = data[off + i] ^ ks[i]
        block += 1
    return bytes(out)


def seal(key, nonce, plaintext, aad=b""):
    """Encrypt and authenticate plaintext (bytes) with a 32-byte key and a unique nonce (bytes,
    never reused with the same key); aad is authenticated, not encrypted. Returns ct || tag."""
    k_enc = derive(key, "seal-enc")
    k_mac = derive(key, "seal-mac")
    ct = _keystream_xor(k_enc, nonce, plaintext)
    tag = HMAC(k_mac).update(bytes([len(nonce)]) + nonce).update(bytes([len(aad) & 255, len(aad) >> 8]) + aad)
    return ct + tag.update(ct).digest()[:TAG]


def unseal(key, nonce, sealed, aad=b""):
    """The plaintext of seal(); ValueError when the key, nonce, aad or bytes do not match."""
    if len(sealed) < TAG:
        raise ValueError("sealed record too short")
    ct = sealed[:-TAG]
    k_mac = derive(key, "seal-mac")
    tag = HMAC(k_mac).update(bytes([len(nonce)]) + nonce).update(bytes([len(aad) & 255, len(aad) >> 8]) + aad)
    if not compare(tag.update(ct).digest()[:TAG], sealed[-TAG:]):
        raise ValueError("sealed record does not authenticate (wrong key or altered)")
    return _keystream_xor(derive(key, "seal-enc"), nonce, ct)
