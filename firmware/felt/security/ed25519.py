# Ed25519 signatures (RFC 8032) in plain Python, for the firmware and the host alike (security
# layer, pure): the board signs its public feed records with a key derived from its owner key; anyone
# holding the matching 32-byte public key (given out at provisioning) can check them, and nobody
# without the board's key can make one. MicroPython has no sha512: a plain SHA-512 (FIPS 180-4) is
# used where hashlib lacks it (checked against hashlib.sha512 and RFC 8032's vectors in tests).
# On CPython with the maintained `cryptography` package (the host tools; a Raspberry Pi that has
# it) Signer and verify use it instead -- the same results, checked against this code in tests.
# Speed (issue 16 item 1): a fixed-base comb for s*B, a 4-bit window for k*A, R compared by its
# encoding; figures in hardware/security.md section 3.
import hashlib
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
# 80 primes; initial hash: the same of the square roots of the first 8 (FIPS 180-4 section 4.2.3)
_K = (
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
    0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
    0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
    0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
    0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
    0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
    0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
    0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
    0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
    0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
    0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
)
_H0 = (
    0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
    0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
)


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
        t1 = (hh + (_rotr(e, 14) ^ _rotr(e, 18) ^ _rotr(e, 41)) + ((e & f) ^ (~e & g)) + _K[t] + w[t]) & _M64
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
    h = list(_H0)
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
