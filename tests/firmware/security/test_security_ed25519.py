# Ed25519 (felt/security/ed25519.py) against RFC 8032 section 7.1's test vectors and the plain
# SHA-512 against FIPS 180-4 examples, on CPython and MicroPython (whose hashlib has no sha512).
from check import eq

from felt.security import ed25519
from felt.security.hmac import hexlify, unhexlify

# RFC 8032 7.1, TEST 1 (empty message) and TEST 2 (one byte 0x72): secret, public, message, signature
VECTORS = [
    ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
]


def test_rfc8032_vectors_sign_and_verify():
    for secret, public, msg, sig in VECTORS:
        s, m = unhexlify(secret), unhexlify(msg)
        eq(hexlify(ed25519.public_key(s)), public)
        eq(hexlify(ed25519.sign(s, m)), sig)
        assert ed25519.verify(unhexlify(public), m, unhexlify(sig))


def test_verify_refuses_any_change():
    secret, public, msg, sig = VECTORS[1]
    pub, m, s = unhexlify(public), unhexlify(msg), unhexlify(sig)
    assert not ed25519.verify(pub, m + b"\x00", s)
    assert not ed25519.verify(pub, b"\x73", s)
    for i in (0, 31, 32, 63):
        bad = bytearray(s)
        bad[i] ^= 1
        assert not ed25519.verify(pub, m, bytes(bad))
    assert not ed25519.verify(unhexlify(VECTORS[0][1]), m, s)  # another key
    assert not ed25519.verify(pub, m, s[:63])  # short
    # s >= L (a malleable copy of the signature) is refused
    s_int = int.from_bytes(s[32:], "little") + ed25519._L
    assert not ed25519.verify(pub, m, s[:32] + s_int.to_bytes(32, "little"))


def test_plain_sha512_matches_fips_examples_and_block_edges():
    eq(hexlify(ed25519.sha512_plain(b"abc")),
       "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
    eq(hexlify(ed25519.sha512_plain(b"")),
       "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")
    # 111, 112 and 128 bytes: the padding fits, spills into a second block, fills one exactly
    for n in (111, 112, 128, 300):
        eq(ed25519.sha512_plain(b"\xa5" * n), ed25519.sha512(b"\xa5" * n))


def test_plain_code_matches_the_vectors_and_itself_on_every_interpreter():
    # the pure-Python path (what a board runs) directly, even where the library serves Signer
    for secret, public, msg, sig in VECTORS:
        s, m = unhexlify(secret), unhexlify(msg)
        signer = ed25519.PlainSigner(s)
        eq(hexlify(signer.public), public)
        eq(hexlify(signer.sign(m)), sig)
        assert ed25519.verify_plain(unhexlify(public), m, unhexlify(sig))
        assert not ed25519.verify_plain(unhexlify(public), m + b"x", unhexlify(sig))
    # the comb (fixed base) and the window (any point) agree with plain double-and-add
    for k in (1, 2, 15, 16, 17, 2 ** 64 + 3, ed25519._L - 1, 2 ** 255 + 12345):
        q = ed25519._ZERO
        p = ed25519._G
        n = k
        while n:
            if n & 1:
                q = ed25519._add(q, p)
            p = ed25519._add(p, p)
            n >>= 1
        eq(ed25519._compress_point(ed25519._mul_base(k)), ed25519._compress_point(q))
        eq(ed25519._compress_point(ed25519._mul(k, ed25519._G)), ed25519._compress_point(q))


def test_a_non_canonical_public_key_or_R_is_refused():
    secret, public, msg, sig = VECTORS[1]
    s = unhexlify(sig)
    # R with y >= p (not a canonical encoding): the comparison of encodings refuses it
    y = int.from_bytes(s[:32], "little") & ((1 << 255) - 1)
    if y + ed25519._P < (1 << 255):
        bad = (y + ed25519._P).to_bytes(32, "little")
        assert not ed25519.verify(unhexlify(public), unhexlify(msg), bad + s[32:])
    assert not ed25519.verify(b"\xff" * 32, unhexlify(msg), s)  # not a point


def test_sha512_constants_are_bytes_read_in_place_not_big_ints_built_at_import():
    # 88 64-bit constants as ints were ~4.5 KB of RAM at import on the 32-bit board (big ints);
    # as bytes constants they stay in the image (hardware/memory.md, "The firmware's own live RAM")
    eq((type(ed25519._K), len(ed25519._K), type(ed25519._H0), len(ed25519._H0)), (bytes, 80 * 8, bytes, 8 * 8))
    # FIPS 180-4 4.2.3 and 5.3.5: the first and last round constants and initial hash words
    eq([ed25519._word(ed25519._K, 0), ed25519._word(ed25519._K, 79)], [0x428a2f98d728ae22, 0x6c44198c4a475817])
    eq([ed25519._word(ed25519._H0, 0), ed25519._word(ed25519._H0, 7)], [0x6a09e667f3bcc908, 0x5be0cd19137e2179])
