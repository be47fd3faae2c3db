# Randomness for keys, nonces and salts (security layer): the board's true entropy source, checked
# before use, seeds an HMAC-DRBG (NIST SP 800-90A, section 10.1.2, HMAC-SHA256) that everything
# else draws from (issue 16 item 6; hardware/security.md section 2a). A board with no true source,
# or one whose source looks stuck, raises EntropyError: provisioning refuses it, a provisioned
# board does not start the table. Needs only os and hashlib, so `feltctl provision` can run it on
# a board that holds no firmware yet.
import hashlib
import os

try:
    from felt.security import SecurityError as _Base
except ImportError:  # run alone by feltctl provision on a board with no firmware yet
    _Base = ValueError

SEED_BYTES = 48  # entropy input 32 + nonce 16 (SP 800-90A: security strength 256 bits)
RESEED_AFTER = 4096  # requests between reseeds from the source (SP 800-90A allows 2^48)
_SAMPLE = 32
_MIN_DISTINCT = 8  # 32 bytes from a working source with < 8 distinct values: about 2^-150


class EntropyError(_Base):
    """No true entropy source on this board, or its output failed the health test."""


def board_source():
    """The board's true source: os.urandom (RP2040: the ring oscillator's random bit; RP2350:
    its TRNG; unix port and Raspberry Pi: the kernel's getrandom). EntropyError when the port
    has none: a pseudo-random generator seeded from a clock is not a source of keys."""
    u = getattr(os, "urandom", None)
    if u is None:
        raise EntropyError("this board has no true entropy source (no os.urandom): it cannot make "
                           "keys, nonces or salts that nobody can predict")
    return u


class Checked:
    """A source behind start-up and continuous health tests (in the spirit of SP 800-90B 4.4):
    every sample of 32 bytes must differ from the one before (repetition) and hold at least 8
    distinct byte values (a stuck or nearly stuck source). A failure raises EntropyError and the
    source stays failed."""

    def __init__(self, source):
        self._source = source
        self._last = None
        self.failed = None
        self.read(_SAMPLE)  # start-up test

    def read(self, n):
        if self.failed:
            raise EntropyError(self.failed)
        out = b""
        while len(out) < n:
            try:
                s = bytes(self._source(_SAMPLE))
            except (OSError, ValueError) as e:
                self.failed = "the entropy source failed (%s)" % e
                raise EntropyError(self.failed)
            if len(s) != _SAMPLE or s == self._last or len(set(s)) < _MIN_DISTINCT:
                self.failed = "the entropy source failed its health test (stuck or repeating output)"
                raise EntropyError(self.failed)
            self._last = s
            out += s
        return out[:n]


def _hmac(key, msg):
    k = key + bytes(64 - len(key))
    inner = hashlib.sha256(bytes([b ^ 0x36 for b in k]) + msg).digest()
    return hashlib.sha256(bytes([b ^ 0x5C for b in k]) + inner).digest()


class Generator:
    """HMAC-DRBG (SP 800-90A 10.1.2) seeded from a Checked source; random(n) -> n bytes, the
    callable felt hands wherever it needs a nonce or salt. personal: bytes that make two boards'
    generators differ even if their sources did not (the device name)."""

    def __init__(self, source, personal=b""):
        self.source = source if isinstance(source, Checked) else Checked(source)
        self._k = bytes(32)
        self._v = b"\x01" * 32
        self._update(self.source.read(SEED_BYTES) + personal)
        self.calls = 0

    def _update(self, data):
        self._k = _hmac(self._k, self._v + b"\x00" + data)
        self._v = _hmac(self._k, self._v)
        if data:
            self._k = _hmac(self._k, self._v + b"\x01" + data)
            self._v = _hmac(self._k, self._v)

    def reseed(self):
        self._update(self.source.read(_SAMPLE))
        self.calls = 0

    def random(self, n):
        if self.calls >= RESEED_AFTER:
            self.reseed()
        out = b""
        while len(out) < n:
            self._v = _hmac(self._k, self._v)
            out += self._v
        self._update(b"")
        self.calls += 1
        return out[:n]

    __call__ = random


def new_key(source=None):
    """32 bytes for a secret key, from a fresh generator on the board's true source."""
    return Generator(source or board_source(), b"felt-key").random(32)
