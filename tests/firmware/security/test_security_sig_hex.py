# A signature field is the exact lowercase hex its signer wrote (issue 16 item 1): one letter of it
# in capitals ('e' -> 'E') decoded to the same bytes and an edited record verified -- found by
# tests/host/test_security_fuzz.py in an audit record. The same for manifests and feed records.
# CPython and MicroPython.
from check import raises

from felt.security import SecurityError
from felt.security import audit as al
from felt.security import ed25519, secrecy
from felt.security import manifest as mf
from felt.security.hmac import hexlify

SEED = b"\x42" * 32
PUB = ed25519.public_key(SEED)


def capital(sig):
    """sig with its first letter a-f in capitals (the same bytes to a lenient decoder)."""
    for i in range(len(sig)):
        if "a" <= sig[i] <= "f":
            return sig[:i] + sig[i].upper() + sig[i + 1:]
    raise AssertionError("no letter in %s" % sig)


def test_an_audit_record_whose_signature_is_in_capitals_does_not_verify():
    log = al.AuditLog(al.MemStore(), al.signer(SEED))
    log.append("floor", "delay 1", who="alice", t_ms=1)
    lines = log.store.lines()
    al.verify(lines, PUB)  # as written: verifies
    head, sig = lines[0].rsplit("\t", 1)
    with raises(SecurityError):
        al.verify([head + "\t" + capital(sig)], PUB)
    with raises(SecurityError):
        al.verify([head + "\t" + capital(sig)], al.signer(SEED))


def test_a_manifest_whose_signature_is_in_capitals_does_not_verify():
    text = mf.sign("table1", SEED, "1.0", 3, [("main.py", 10, "ab" * 32)])
    mf.verify(text, PUB, "table1")
    out = []
    for line in text.split("\n"):
        if line.startswith("sig "):
            words = line.split(" ")
            words[-1] = capital(words[-1])
            line = " ".join(words)
        out.append(line)
    bad = "\n".join(out)
    assert bad != text
    with raises(SecurityError):
        mf.verify(bad, PUB, "table1")


def test_a_feed_record_whose_signature_is_in_capitals_does_not_verify():
    record = {"kind": "hand-end", "hand": 7, "t_ms": 1200}
    record["sig"] = hexlify(secrecy.feed_signer(SEED).sign(secrecy.feed_message("table1", record)))
    assert secrecy.check_signature(PUB, "table1", record)
    record["sig"] = capital(record["sig"])
    assert not secrecy.check_signature(PUB, "table1", record)
