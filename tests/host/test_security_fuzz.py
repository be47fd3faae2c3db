# Fuzz (hypothesis) of every security parser that reads outside input: key files, manifests,
# audit logs, deck records, floor commands and sealed records. Any input either parses or raises
# the named SecurityError (ValueError for unseal) -- never another exception, never a key in the
# message; mutating a signed text never verifies.
from hypothesis import given, settings
from hypothesis import strategies as st

from felt.security import SecurityError
from felt.security import audit as al
from felt.security import auth, deckmap, hmac as fhmac, keys as keylib
from felt.security import manifest as mf
from felt.security import ed25519

OWNER = b"\x42" * 32
FLOOR = b"\x21" * 32
PUB = ed25519.public_key(OWNER)  # OWNER: the release seed here (and the device seed in KEYS_TEXT)
KEYS_TEXT = keylib.encode(keylib.Keys("table1", OWNER, {"alice": FLOOR}, b"\x33" * 32, [PUB]))
MANIFEST = mf.sign("table1", OWNER, "1.0", 3, [("main.py", 10, "ab" * 32), ("felt/x.py", 5, "cd" * 32)])
DECK = deckmap.sign("table1", "A", "alice", FLOOR, dict((bytes([4, 1, 2, 3, 4, 5, i]), i) for i in range(52)))
LOG = al.AuditLog(al.MemStore(), al.signer(OWNER))
for _i in range(3):
    LOG.append("floor", "delay %d" % _i, who="alice", t_ms=_i)
AUDIT = LOG.store.lines()
text = st.text(alphabet=st.characters(min_codepoint=9, max_codepoint=126), max_size=300)


def mutate(s, data):
    i = data.draw(st.integers(0, len(s) - 1))
    c = data.draw(st.characters(min_codepoint=32, max_codepoint=126))
    return s[:i] + c + s[i + 1:]


@settings(max_examples=150, deadline=None)
@given(text)
def test_random_text_is_refused_by_name(t):
    for fn in (keylib.decode, mf.parse, lambda x: deckmap.verify(x, {"alice": FLOOR}, "table1"),
               lambda x: al.verify(x.split("\n")), auth.parse_command):
        try:
            fn(t)
        except SecurityError as e:
            assert OWNER.hex() not in str(e) and FLOOR.hex() not in str(e)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_one_changed_character_never_verifies(data):
    bad = mutate(MANIFEST, data)
    if bad != MANIFEST:
        try:
            m = mf.verify(bad, PUB, "table1")
        except SecurityError:
            pass
        else:  # only a change that leaves the signed bytes equal may pass (e.g. trailing space)
            assert m.body + "sig " + m.sig + "\n" == MANIFEST or bad.strip() == MANIFEST.strip()
    bad = mutate(DECK, data)
    if bad.strip() != DECK.strip():
        try:
            deckmap.verify(bad, {"alice": FLOOR}, "table1")
            raise AssertionError("an altered deck record verified")
        except SecurityError:
            pass
    k = data.draw(st.integers(0, len(AUDIT) - 1))
    line = mutate(AUDIT[k], data)
    if line != AUDIT[k]:
        try:
            al.verify(AUDIT[:k] + [line] + AUDIT[k + 1:], al.signer(OWNER))
            raise AssertionError("an altered audit record verified")
        except SecurityError:
            pass


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200), st.binary(min_size=1, max_size=16), st.binary(max_size=40))
def test_seal_round_trip_and_tamper(plain, nonce, aad):
    key = b"\x11" * 32
    sealed = fhmac.seal(key, nonce, plain, aad)
    assert fhmac.unseal(key, nonce, sealed, aad) == plain
    bad = bytearray(sealed)
    bad[len(bad) // 2] ^= 0x80
    try:
        fhmac.unseal(key, nonce, bytes(bad), aad)
        raise AssertionError("a tampered sealed record opened")
    except ValueError:
        pass


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200), st.binary(max_size=300))
def test_hmac_equals_cpython(key, msg):
    import hmac
    import hashlib
    assert fhmac.hmac_sha256(key, msg) == hmac.new(key, msg, hashlib.sha256).digest()
