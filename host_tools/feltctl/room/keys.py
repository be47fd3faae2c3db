# Signature checks and signing for the room on the host (host tools): the same Ed25519 as
# felt.security.ed25519 (RFC 8032, deterministic: identical signatures), through the
# `cryptography` package when it is installed -- ~50x faster, which a floor checking hundreds of
# messages a second needs -- else through the firmware's own code.
from felt.room import message
from felt.security import ed25519
from felt.security.hmac import derive

try:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
except ImportError:  # the firmware's pure Ed25519 (same answers, slower)
    Ed25519PublicKey = None


def check(public, data, sig):
    """ed25519.verify(public, data, sig) with the fast library when there is one."""
    if Ed25519PublicKey is None:
        return ed25519.verify(public, data, sig)
    try:
        Ed25519PublicKey.from_public_bytes(bytes(public)).verify(bytes(sig), bytes(data))
        return True
    except (InvalidSignature, ValueError):
        return False


class FastSigner:
    """message.signer(owner_key) with the fast library (a bench table signs ~100x a second)."""

    def __init__(self, owner_key):
        if Ed25519PublicKey is None:
            self._slow = message.signer(owner_key)
            self._key = None
        else:
            self._slow = None
            self._key = Ed25519PrivateKey.from_private_bytes(derive(owner_key, "feed-sign"))

    def sign(self, data):
        return self._slow.sign(data) if self._key is None else self._key.sign(bytes(data))


def signer(owner_key):
    return FastSigner(owner_key)
