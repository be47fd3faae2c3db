# Ed25519 signatures (RFC 8032) in plain Python, for the firmware and the host alike (security
# layer, pure): the board signs its public feed records with a key derived from its owner key; anyone
# holding the matching 32-byte public key (given out at provisioning) can check them, and nobody
# without the board's key can make one. MicroPython has no sha512: a plain SHA-512 (FIPS 180-4) is
# used where hashlib lacks it (checked against hashlib.sha512 and RFC 8032's vectors in tests).
# On CPython with the maintained `cryptography` package (the host tools; a Raspberry Pi that has
# it) Signer and verify use it instead -- the same results, checked against this code in tests.
# Speed (issue 16 item 1): a fixed-base comb for s*B, a 4-bit window for k*A, R compared by its
# encoding; figures in hardware/security.md section 3.
import hashlib  # and no felt module: feltctl provision runs this file alone on a board
import sys

_lib = None
if sys.implementation.name != "micropython":  # on a board never: a module planted in /lib could
    try:                                         # stand in for it (issue 16 item 2)
        from cryptography.hazmat.primitives.asymmetric import ed25519 as _lib
        from cryptography.exceptions import InvalidSignature as _Invalid
    except ImportError:  # CPython without the package: the plain code below
        _lib = None

_M64 = 0xFFFFFFFFFFFFFFFF
# SHA-512 round constants: the first 64 bits of the fractional parts of the cube roots of the first
# 80 primes; initial hash: the same of the square roots of the first 8 (FIPS 180-4 section 4.2.3).
# Big-endian bytes, 8 a constant, read with _word(): as tuples of ints they were 88 big ints built in
# RAM at import on a 32-bit board (~4.5 KB); a bytes constant stays in the image (hardware/memory.md,
# "The firmware's own live RAM").
_K = (
    b"\x42\x8a\x2f\x98\xd7\x28\xae\x22" b"\x71\x37\x44\x91\x23\xef\x65\xcd"
    b"\xb5\xc0\xfb\xcf\xec\x4d\x3b\x2f" b"\xe9\xb5\xdb\xa5\x81\x89\xdb\xbc"
    b"\x39\x56\xc2\x5b\xf3\x48\xb5\x38" b"\x59\xf1\x11\xf1\xb6\x05\xd0\x19"
    b"\x92\x3f\x82\xa4\xaf\x19\x4f\x9b" b"\xab\x1c\x5e\xd5\xda\x6d\x81\x18"
    b"\xd8\x07\xaa\x98\xa3\x03\x02\x42" b"\x12\x83\x5b\x01\x45\x70\x6f\xbe"
    b"\x24\x31\x85\xbe\x4e\xe4\xb2\x8c" b"\x55\x0c\x7d\xc3\xd5\xff\xb4\xe2"
    b"\x72\xbe\x5d\x74\xf2\x7b\x89\x6f" b"\x80\xde\xb1\xfe\x3b\x16\x96\xb1"
    b"\x9b\xdc\x06\xa7\x25\xc7\x12\x35" b"\xc1\x9b\xf1\x74\xcf\x69\x26\x94"
    b"\xe4\x9b\x69\xc1\x9e\xf1\x4a\xd2" b"\xef\xbe\x47\x86\x38\x4f\x25\xe3"
    b"\x0f\xc1\x9d\xc6\x8b\x8c\xd5\xb5" b"\x24\x0c\xa1\xcc\x77\xac\x9c\x65"
    b"\x2d\xe9\x2c\x6f\x59\x2b\x02\x75" b"\x4a\x74\x84\xaa\x6e\xa6\xe4\x83"
    b"\x5c\xb0\xa9\xdc\xbd\x41\xfb\xd4" b"\x76\xf9\x88\xda\x83\x11\x53\xb5"
    b"\x98\x3e\x51\x52\xee\x66\xdf\xab" b"\xa8\x31\xc6\x6d\x2d\xb4\x32\x10"
    b"\xb0\x03\x27\xc8\x98\xfb\x21\x3f" b"\xbf\x59\x7f\xc7\xbe\xef\x0e\xe4"
    b"\xc6\xe0\x0b\xf3\x3d\xa8\x8f\xc2" b"\xd5\xa7\x91\x47\x93\x0a\xa7\x25"
    b"\x06\xca\x63\x51\xe0\x03\x82\x6f" b"\x14\x29\x29\x67\x0a\x0e\x6e\x70"
    b"\x27\xb7\x0a\x85\x46\xd2\x2f\xfc" b"\x2e\x1b\x21\x38\x5c\x26\xc9\x26"
    b"\x4d\x2c\x6d\xfc\x5a\xc4\x2a\xed" b"\x53\x38\x0d\x13\x9d\x95\xb3\xdf"
    b"\x65\x0a\x73\x54\x8b\xaf\x63\xde" b"\x76\x6a\x0a\xbb\x3c\x77\xb2\xa8"
    b"\x81\xc2\xc9\x2e\x47\xed\xae\xe6" b"\x92\x72\x2c\x85\x14\x82\x35\x3b"
    b"\xa2\xbf\xe8\xa1\x4c\xf1\x03\x64" b"\xa8\x1a\x66\x4b\xbc\x42\x30\x01"
    b"\xc2\x4b\x8b\x70\xd0\xf8\x97\x91" b"\xc7\x6c\x51\xa3\x06\x54\xbe\x30"
    b"\xd1\x92\xe8\x19\xd6\xef\x52\x18" b"\xd6\x99\x06\x24\x55\x65\xa9\x10"
    b"\xf4\x0e\x35\x85\x57\x71\x20\x2a" b"\x10\x6a\xa0\x70\x32\xbb\xd1\xb8"
    b"\x19\xa4\xc1\x16\xb8\xd2\xd0\xc8" b"\x1e\x37\x6c\x08\x51\x41\xab\x53"
    b"\x27\x48\x77\x4c\xdf\x8e\xeb\x99" b"\x34\xb0\xbc\xb5\xe1\x9b\x48\xa8"
    b"\x39\x1c\x0c\xb3\xc5\xc9\x5a\x63" b"\x4e\xd8\xaa\x4a\xe3\x41\x8a\xcb"
    b"\x5b\x9c\xca\x4f\x77\x63\xe3\x73" b"\x68\x2e\x6f\xf3\xd6\xb2\xb8\xa3"
    b"\x74\x8f\x82\xee\x5d\xef\xb2\xfc" b"\x78\xa5\x63\x6f\x43\x17\x2f\x60"
    b"\x84\xc8\x78\x14\xa1\xf0\xab\x72" b"\x8c\xc7\x02\x08\x1a\x64\x39\xec"
    b"\x90\xbe\xff\xfa\x23\x63\x1e\x28" b"\xa4\x50\x6c\xeb\xde\x82\xbd\xe9"
    b"\xbe\xf9\xa3\xf7\xb2\xc6\x79\x15" b"\xc6\x71\x78\xf2\xe3\x72\x53\x2b"
    b"\xca\x27\x3e\xce\xea\x26\x61\x9c" b"\xd1\x86\xb8\xc7\x21\xc0\xc2\x07"
    b"\xea\xda\x7d\xd6\xcd\xe0\xeb\x1e" b"\xf5\x7d\x4f\x7f\xee\x6e\xd1\x78"
    b"\x06\xf0\x67\xaa\x72\x17\x6f\xba" b"\x0a\x63\x7d\xc5\xa2\xc8\x98\xa6"
    b"\x11\x3f\x98\x04\xbe\xf9\x0d\xae" b"\x1b\x71\x0b\x35\x13\x1c\x47\x1b"
    b"\x28\xdb\x77\xf5\x23\x04\x7d\x84" b"\x32\xca\xab\x7b\x40\xc7\x24\x93"
    b"\x3c\x9e\xbe\x0a\x15\xc9\xbe\xbc" b"\x43\x1d\x67\xc4\x9c\x10\x0d\x4c"
    b"\x4c\xc5\xd4\xbe\xcb\x3e\x42\xb6" b"\x59\x7f\x29\x9c\xfc\x65\x7e\x2a"
    b"\x5f\xcb\x6f\xab\x3a\xd6\xfa\xec" b"\x6c\x44\x19\x8c\x4a\x47\x58\x17"
)
_H0 = (
    b"\x6a\x09\xe6\x67\xf3\xbc\xc9\x08" b"\xbb\x67\xae\x85\x84\xca\xa7\x3b"
    b"\x3c\x6e\xf3\x72\xfe\x94\xf8\x2b" b"\xa5\x4f\xf5\x3a\x5f\x1d\x36\xf1"
    b"\x51\x0e\x52\x7f\xad\xe6\x82\xd1" b"\x9b\x05\x68\x8c\x2b\x3e\x6c\x1f"
    b"\x1f\x83\xd9\xab\xfb\x41\xbd\x6b" b"\x5b\xe0\xcd\x19\x13\x7e\x21\x79"
)


def _word(table, i):
    """The i-th 64-bit constant of a table above."""
    return int.from_bytes(table[8 * i:8 * i + 8], "big")


def _rotr(x, n):
    return ((x >> n) | (x << (64 - n))) & _M64


def _compress(h, block):
    w = [int.from_bytes(block[i:i + 8], "big") for i in range(0, 128, 8)]
    for t in range(16, 80):
        a = w[t - 15]
        b = w[t - 2]
        s0 = _rotr(a, 1) ^ _rotr(a, 8) ^ (a >> 7)
        s1 = _rotr(b, 19) ^ _rotr(b, 61) ^ (b >> 6)
        w.append((w[t - 16] + s0 + w[t - 7] + s1) & _M64)
    a, b, c, d, e, f, g, hh = h
    for t in range(80):
        t1 = (hh + (_rotr(e, 14) ^ _rotr(e, 18) ^ _rotr(e, 41)) + ((e & f) ^ (~e & g)) + _word(_K, t) + w[t]) & _M64
        t2 = ((_rotr(a, 28) ^ _rotr(a, 34) ^ _rotr(a, 39)) + ((a & b) ^ (a & c) ^ (b & c))) & _M64
        hh = g
        g = f
        f = e
        e = (d + t1) & _M64
        d = c
        c = b
        b = a
        a = (t1 + t2) & _M64
    return [(h[0] + a) & _M64, (h[1] + b) & _M64, (h[2] + c) & _M64, (h[3] + d) & _M64,
            (h[4] + e) & _M64, (h[5] + f) & _M64, (h[6] + g) & _M64, (h[7] + hh) & _M64]


def sha512_plain(data):
    """SHA-512 digest (64 bytes) of bytes, in plain Python."""
    data = bytes(data)
    n = len(data)
    padded = data + b"\x80" + bytes((111 - n) % 128) + (n * 8).to_bytes(16, "big")
    h = [_word(_H0, i) for i in range(8)]
    for off in range(0, len(padded), 128):
        h = _compress(h, padded[off:off + 128])
    return b"".join([x.to_bytes(8, "big") for x in h])


def sha512(data):
    f = getattr(hashlib, "sha512", None)
    return f(data).digest() if f is not None else sha512_plain(data)


# ---- the curve (edwards25519), extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z, xy = T/Z -----
_P = 2 ** 255 - 19
_L = 2 ** 252 + 27742317777372353535851937790883648493  # order of the base point


def _inv(x):
    return pow(x, _P - 2, _P)


_D = -121665 * _inv(121666) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)


def _recover_x(y, sign):
    if y >= _P:
        return None
    x2 = (y * y - 1) * _inv(_D * y * y + 1) % _P
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (_P + 3) // 8, _P)
    if (x * x - x2) % _P:
        x = x * _SQRT_M1 % _P
    if (x * x - x2) % _P:
        return None
    if (x & 1) != sign:
        x = _P - x
    return x


_GY = 4 * _inv(5) % _P
_GX = _recover_x(_GY, 0)
_G = (_GX, _GY, 1, _GX * _GY % _P)
_ZERO = (0, 1, 1, 0)


def _add(p, q):
    a = (p[1] - p[0]) * (q[1] - q[0]) % _P
    b = (p[1] + p[0]) * (q[1] + q[0]) % _P
    c = 2 * p[3] * q[3] * _D % _P
    d = 2 * p[2] * q[2] % _P
    e = b - a
    f = d - c
    g = d + c
    h = b + a
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def _double(p):
    # dbl-2008-hwcd for a = -1: 4 squarings and 4 products, no curve constant
    a = p[0] * p[0] % _P
    b = p[1] * p[1] % _P
    c = 2 * p[2] * p[2] % _P
    h = a + b
    xy = p[0] + p[1]
    e = h - xy * xy % _P
    g = a - b
    f = c + g
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def _mul(s, p):
    """s * p by a 4-bit window: 15 multiples of p, then 4 doublings and at most one addition a
    window (about 255 doublings and 64 additions, against 255 and 128 bit by bit)."""
    table = [_ZERO, p]
    for i in range(2, 16):
        table.append(_add(table[i - 1], p))
    q = _ZERO
    shift = 252
    while shift >= 0:
        q = _double(_double(_double(_double(q))))
        d = (s >> shift) & 15
        if d:
            q = _add(q, table[d])
        shift -= 4
    return q


# Fixed-base comb for the base point (Lim-Lee, 4 teeth 64 apart): _COMB[i] is the sum of
# 2^(64 j) G over the bits j set in i. s * G is then 64 doublings and 64 additions (a quarter of
# the doublings of _mul), from a 16-point table built at first use (about 2 KB of heap).
_COMB = []


def _comb():
    if not _COMB:
        teeth = [_G]
        for _ in range(3):
            q = teeth[-1]
            for _ in range(64):
                q = _double(q)
            teeth.append(q)
        table = [_ZERO]
        for i in range(1, 16):
            q = _ZERO
            for j in range(4):
                if (i >> j) & 1:
                    q = _add(q, teeth[j])
            table.append(q)
        _COMB.extend(table)
    return _COMB


def _mul_base(s):
    """s * G for 0 <= s < 2^256."""
    table = _comb()
    q = _ZERO
    i = 63
    while i >= 0:
        q = _double(q)
        d = ((s >> i) & 1) | (((s >> (i + 64)) & 1) << 1) | (((s >> (i + 128)) & 1) << 2) | (((s >> (i + 192)) & 1) << 3)
        if d:
            q = _add(q, table[d])
        i -= 1
    return q


def _same(p, q):
    return (p[0] * q[2] - q[0] * p[2]) % _P == 0 and (p[1] * q[2] - q[1] * p[2]) % _P == 0


def _compress_point(p):
    zi = _inv(p[2])
    x = p[0] * zi % _P
    y = p[1] * zi % _P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def _decompress_point(s):
    if len(s) != 32:
        return None
    y = int.from_bytes(s, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    x = _recover_x(y, sign)
    if x is None:
        return None
    return (x, y, 1, x * y % _P)


def _hash_mod_l(data):
    return int.from_bytes(sha512(data), "little") % _L


def _expand(seed):
    if len(seed) != 32:
        raise ValueError("an Ed25519 secret key is 32 bytes")
    h = sha512(seed)
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    return a, h[32:]


def public_key(seed):
    """The 32-byte public key of a 32-byte secret key (seed)."""
    if _lib is not None:
        return public_key_lib(_lib.Ed25519PrivateKey.from_private_bytes(bytes(seed)))
    return _compress_point(_mul_base(_expand(seed)[0]))


class PlainSigner:
    """sign(msg) -> 64-byte Ed25519 signature; the public key is computed once (public)."""

    def __init__(self, seed):
        self._a, self._prefix = _expand(seed)
        self.public = _compress_point(_mul_base(self._a))

    def __repr__(self):  # never the key
        return "Signer(public %s...)" % "".join(["%02x" % b for b in self.public[:4]])

    def sign(self, msg):
        r = _hash_mod_l(self._prefix + msg)
        big_r = _compress_point(_mul_base(r))
        h = _hash_mod_l(big_r + self.public + msg)
        s = (r + h * self._a) % _L
        return big_r + s.to_bytes(32, "little")


class _LibSigner:
    """The same on the cryptography package."""

    def __init__(self, seed):
        if len(seed) != 32:
            raise ValueError("an Ed25519 secret key is 32 bytes")
        self._k = _lib.Ed25519PrivateKey.from_private_bytes(bytes(seed))
        self.public = public_key_lib(self._k)

    def __repr__(self):  # never the key
        return "Signer(public %s...)" % "".join(["%02x" % b for b in self.public[:4]])

    def sign(self, msg):
        return self._k.sign(bytes(msg))


def public_key_lib(k):
    from cryptography.hazmat.primitives import serialization as ser
    return k.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)


Signer = _LibSigner if _lib is not None else PlainSigner


def sign(seed, msg):
    return Signer(seed).sign(msg)


def verify(public, msg, signature):
    """True when `signature` (64 bytes) is public's signature of msg; False for anything else."""
    if _lib is None:
        return verify_plain(public, msg, signature)
    try:
        _lib.Ed25519PublicKey.from_public_bytes(bytes(public)).verify(bytes(signature), bytes(msg))
        return True
    except (_Invalid, ValueError):
        return False


def verify_plain(public, msg, signature):
    """True when `signature` (64 bytes) is public's signature of msg; False for anything else.
    Checks the encoding of [s]B - [k]A against R (as RFC 8032's reference code does): R is never
    decompressed, and a non-canonical R or s >= L is refused."""
    if len(public) != 32 or len(signature) != 64:
        return False
    a = _decompress_point(public)
    if a is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    if s >= _L:
        return False
    h = _hash_mod_l(signature[:32] + public + msg)
    minus_a = ((_P - a[0]) % _P, a[1], a[2], (_P - a[3]) % _P)
    return _compress_point(_add(_mul_base(s), _mul(h, minus_a))) == bytes(signature[:32])
