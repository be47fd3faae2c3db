# HMAC-SHA256 (felt.security.hmac) against the RFC 4231 test vectors, plus seal/unseal and the
# constant-time compare. Runs under CPython and MicroPython (which has no hmac module).
from check import eq, raises

from felt.security.hmac import HMAC, compare, derive, hexlify, hmac_hex, seal, unhexlify, unseal

# RFC 4231 section 4: (key, data, HMAC-SHA256)
RFC4231 = [
    (b"\x0b" * 20, b"Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    (b"Jefe", b"what do ya want for nothing?",
     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    (b"\xaa" * 20, b"\xdd" * 50, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
    (bytes(range(1, 26)), b"\xcd" * 50, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
    (b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First",
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    (b"\xaa" * 131, b"This is a test using a larger than block-size key and a larger than block-size data. "
     b"The key needs to be hashed before being used by the HMAC algorithm.",
     "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
]


def test_rfc4231_vectors():
    for key, data, want in RFC4231:
        eq(hmac_hex(key, data), want, "RFC 4231 key of %d bytes" % len(key))


def test_rfc4231_case5_truncated_to_128_bits():
    eq(hexlify(HMAC(b"\x0c" * 20, b"Test With Truncation").digest()[:16]), "a3b6167473100ee06e0c796c2955552b")


def test_incremental_equals_one_shot():
    h = HMAC(b"Jefe").update(b"what do ya ").update("want for nothing?")
    eq(hexlify(h.digest()), RFC4231[1][2])


def test_compare_is_exact():
    assert compare(b"abc", b"abc")
    assert not compare(b"abc", b"abd")
    assert not compare(b"abc", b"ab")
    assert compare("ff00", "ff00")


def test_hex_round_trip_and_errors():
    eq(unhexlify("00ff10"), b"\x00\xff\x10")
    eq(hexlify(b"\x00\xff\x10"), "00ff10")
    with raises(ValueError):
        unhexlify("abc")
    with raises(ValueError):
        unhexlify("zz")


def test_derive_separates_purposes():
    k = b"k" * 32
    assert derive(k, "audit") != derive(k, "seal-mac")
    eq(len(derive(k, "audit")), 32)


def test_seal_round_trip_multi_block():
    key = b"\x11" * 32
    text = b"hand 7 seat 3 AhKd " * 5  # > 32 bytes: several keystream blocks
    sealed = seal(key, b"n1", text, b"hand 7")
    assert text not in sealed
    eq(len(sealed), len(text) + 16)
    eq(unseal(key, b"n1", sealed, b"hand 7"), text)


def test_seal_refuses_wrong_key_nonce_aad_or_tamper():
    key = b"\x11" * 32
    sealed = seal(key, b"n1", b"AhKd", b"hand 7")
    with raises(ValueError, match="does not authenticate"):
        unseal(b"\x12" * 32, b"n1", sealed, b"hand 7")
    with raises(ValueError):
        unseal(key, b"n2", sealed, b"hand 7")
    with raises(ValueError):
        unseal(key, b"n1", sealed, b"hand 8")
    bad = bytearray(sealed)
    bad[0] ^= 1
    with raises(ValueError):
        unseal(key, b"n1", bytes(bad), b"hand 7")
