# Issue 12 (items 6-8, branch i12b), the host side of attacks on the assembled firmware: a hand
# played on a provisioned board in production mode (tests/firmware/test_security_attacks_i12b.py's
# harness), its feed checked by `feltctl verify-hand` with the key store that provisioned the board.
import json

import pytest

import test_security_attacks_i12b as fw
from felt.security import secrecy
from feltctl.cli import main as feltctl
from feltctl.signing import KeyStore


@pytest.fixture
def board(tmp_path):
    """(key store, records of one whole hand) from a board provisioned by that store."""
    store = KeyStore(str(tmp_path / "keys"))
    store.create(fw.DEVICE, ["alice"])
    root, slot = fw.provisioned_root("i12b_host_feed", keys_text=store.device_text(fw.DEVICE))
    sim = fw.ProductionSim(root, slot)
    recs = fw.play_one_hand(sim)
    fw.kit._rm(root)
    return store, recs


def _verify(store, tmp_path, recs, *extra):
    p = tmp_path / "feed.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return feltctl(["verify-hand", str(p), "--device", fw.DEVICE, "--keys", store.root] + list(extra))


def _rewrite_hand(recs, bkey, place, cards):
    """What the holder of the broadcast key can do without the board: give `place` other cards,
    with fresh salts and commitments, and a broadcast sealed to match."""
    out = json.loads(json.dumps(recs))
    rev = [r for r in out if r["kind"] == "reveal"][0]
    rev["seats"][place] = cards
    salts = []
    for r in out:
        if r["kind"] == "commit" and r["place"] == place:
            salt = "ab" * 16
            r["c"] = secrecy.commitment(fw.DEVICE, r["hand"], place, cards[:2 * r["n"]], salt)
            salts.append([r["n"], salt])
    rev["salts"][place] = salts
    return _reseal(out, bkey)


def _reseal(out, bkey):
    """The broadcast record sealed again to show what the (altered) reveal shows."""
    rev = [r for r in out if r["kind"] == "reveal"][0]
    cast = [r for r in out if r["kind"] == "broadcast"][0]
    plain = json.dumps({"hand": rev["hand"], "end_ms": rev["end_ms"], "seats": rev["seats"],
                        "board": rev["board"]}).encode()
    nonce = b"\x05" * 12
    cast["nonce"] = nonce.hex()
    cast["sealed"] = secrecy.hexlify(secrecy.seal(bkey, nonce, plain, secrecy.broadcast_aad(fw.DEVICE, rev["hand"])))
    return out


def test_item6_a_hand_from_the_assembled_board_verifies(board, tmp_path, capsys):
    store, recs = board
    assert _verify(store, tmp_path, recs) == 0, capsys.readouterr().err
    assert "every record signed by the board" in capsys.readouterr().out
    # the verification key handed out at provisioning works alone (no key store needed for it)
    pub = (tmp_path / "keys" / fw.DEVICE / "feed.pub").read_text().strip()
    assert _verify(store, tmp_path, recs, "--feed-key", pub) == 0
    assert _verify(store, tmp_path, recs, "--feed-key", "00" * 32) == 1
    assert "not signed by board" in capsys.readouterr().err


def test_item6_the_broadcast_key_holder_cannot_rewrite_a_hand(board, tmp_path, capsys):
    # before issue 12 item 6 this forgery verified: nothing in the feed came from the board alone
    store, recs = board
    bkey = store.role_key(fw.DEVICE, "broadcast")
    forged = _rewrite_hand(recs, bkey, "seat2", "AsAc")
    assert _verify(store, tmp_path, forged) == 1
    assert "not signed by board table1: forged or altered" in capsys.readouterr().err
    unsigned = [dict((k, v) for k, v in r.items() if k != "sig") for r in forged]
    assert _verify(store, tmp_path, unsigned) == 1
    assert "not signed by board" in capsys.readouterr().err


def test_item6_uncommitted_cards_appended_to_a_reveal_are_refused(board, tmp_path, capsys):
    store, recs = board
    bad = json.loads(json.dumps(recs))
    rev = [r for r in bad if r["kind"] == "reveal"][0]
    rev["seats"]["seat2"] += "2c"  # the check read only the first 2 x n characters
    _reseal(bad, store.role_key(fw.DEVICE, "broadcast"))  # and the broadcast shows it too
    assert _verify(store, tmp_path, bad) == 1
    assert "not signed by board" in capsys.readouterr().err
    # even signed by the board's own key (a board bug), cards past the last commitment are refused
    signer = secrecy.feed_signer(store.role_key(fw.DEVICE, "owner"))
    for r in bad:
        r["sig"] = secrecy.hexlify(signer.sign(secrecy.feed_message(fw.DEVICE, r)))
    assert _verify(store, tmp_path, bad) == 1
    assert "seat2 reveals 3 cards but only 2 were committed" in capsys.readouterr().err
    # trailing data: a field the board never writes, a salt for nothing, garbage after a record
    for mutate, why in (
            (lambda r: r.update(note="x"), "carries data the board never writes: note"),
            (lambda r: r["salts"].update(seat9=[[2, "00"]]), "salts for seat9 that open no commitment")):
        bad = json.loads(json.dumps(recs))
        rev = [r for r in bad if r["kind"] == "reveal"][0]
        mutate(rev)
        rev["sig"] = secrecy.hexlify(signer.sign(secrecy.feed_message(fw.DEVICE, dict(rev))))
        assert _verify(store, tmp_path, bad) == 1
        assert why in capsys.readouterr().err
    p = tmp_path / "feed.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in recs) + json.dumps(recs[0]) + " trailing\n")
    assert feltctl(["verify-hand", str(p), "--device", fw.DEVICE, "--keys", store.root]) == 1
    assert "is not a JSON record" in capsys.readouterr().err
