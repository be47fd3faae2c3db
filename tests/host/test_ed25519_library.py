# The firmware's Ed25519 (felt/security/ed25519.py, plain Python: what a board runs) against the
# maintained `cryptography` package the host tools use (issue 16 item 1): RFC 8032 section 7.1
# vectors and random keys and messages, both ways -- a signature either makes, the other verifies,
# and both refuse the same alterations.
import os

import pytest

from felt.security import ed25519

lib = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.ed25519")
from cryptography.hazmat.primitives import serialization  # noqa: E402

RFC = [  # TEST 1, 2, 3 and SHA(abc) of RFC 8032 7.1: secret, public, message, signature
    ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
    ("833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
     "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
     "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"),
]


def _lib_public(seed):
    return lib.Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def test_rfc8032_vectors_on_the_plain_code_and_the_library():
    assert ed25519._lib is not None  # on CPython with the package, Signer/verify use it
    for secret, public, msg, sig in RFC:
        seed, m = bytes.fromhex(secret), bytes.fromhex(msg)
        assert ed25519.PlainSigner(seed).public.hex() == public == _lib_public(seed).hex()
        assert ed25519.PlainSigner(seed).sign(m).hex() == sig
        assert lib.Ed25519PrivateKey.from_private_bytes(seed).sign(m).hex() == sig
        assert ed25519.verify_plain(bytes.fromhex(public), m, bytes.fromhex(sig))
        assert ed25519.verify(bytes.fromhex(public), m, bytes.fromhex(sig))


@pytest.mark.parametrize("n", range(12))
def test_random_keys_and_messages_agree_both_ways(n):
    seed, msg = os.urandom(32), os.urandom(n * 37)
    plain = ed25519.PlainSigner(seed)
    ours = plain.sign(msg)
    theirs = lib.Ed25519PrivateKey.from_private_bytes(seed).sign(msg)
    assert ours == theirs  # Ed25519 is deterministic
    assert plain.public == _lib_public(seed)
    lib.Ed25519PublicKey.from_public_bytes(plain.public).verify(ours, msg)  # raises if not
    assert ed25519.verify_plain(plain.public, msg, theirs)
    for i in (0, 31, 32, 63):
        bad = bytearray(theirs)
        bad[i] ^= 0x40
        assert not ed25519.verify_plain(plain.public, msg, bytes(bad))
        assert not ed25519.verify(plain.public, msg, bytes(bad))
