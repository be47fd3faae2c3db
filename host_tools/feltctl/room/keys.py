# Signature checks and signing for the room on the host (host tools): felt.security.ed25519, which
# on CPython with the `cryptography` package (a host-tools dependency) runs on that library --
# ~50x faster, which a floor checking hundreds of messages a second needs -- and otherwise on the
# firmware's own plain code (same answers: RFC 8032 is deterministic; tests/host/test_ed25519_library.py).
from felt.room import message
from felt.security import ed25519


def check(public, data, sig):
    """ed25519.verify(public, data, sig): the board's public key, never a key that can sign."""
    return ed25519.verify(public, data, sig)


class FastSigner:
    """message.signer(device_key): a (demo or bench) table's device signer (issue 16 item 1: the
    device key itself signs, no key derived from an owner key)."""

    def __init__(self, device_key):
        self._signer = message.signer(device_key)
        self.public = self._signer.public

    def sign(self, data):
        return self._signer.sign(bytes(data))


def signer(device_key):
    return FastSigner(device_key)
