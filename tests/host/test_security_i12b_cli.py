# Issue 12 (items 6-8, branch i12b), the host side of attacks on the assembled firmware: a hand
# played on a provisioned board in production mode (tests/firmware/security/test_security_attacks_i12b.py's
# harness), its feed checked by `feltctl verify-hand` with the key store that provisioned the board.
import json

import pytest

import kit
from felt.security import secrecy
from feltctl.cli import main as feltctl
from feltctl.board.signing import KeyStore


@pytest.fixture
def board(tmp_path):
    """(key store, records of one whole hand) from a board provisioned by that store."""
    store = KeyStore(str(tmp_path / "keys"))
    store.create(kit.DEVICE, ["alice"])
    text, store.board = _provisioned(store)
    root, slot = kit.provisioned_root("i12b_host_feed", keys_text=text, release=store.role_key(kit.DEVICE, "release"))
    sim = kit.ProductionSim(root, slot)
    recs = kit.play_one_hand(sim)
    kit.rm_tree(root)
    return store, recs


def _provisioned(store):
    """(the board's key file text, its Keys) for a store's board: what feltctl provision leaves
    on a board (its own device key; the store keeps the public half)."""
    from felt.security import keys as keylib
    text = store.device_key_file(kit.DEVICE)
    return text, keylib.decode(text)


def _verify(store, tmp_path, recs, *extra):
    p = tmp_path / "feed.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return feltctl(["verify-hand", str(p), "--device", kit.DEVICE, "--keys", store.root] + list(extra))


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
            r["c"] = secrecy.commitment(kit.DEVICE, r["hand"], place, cards[:2 * r["n"]], salt)
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
    cast["sealed"] = secrecy.hexlify(secrecy.seal(bkey, nonce, plain, secrecy.broadcast_aad(kit.DEVICE, rev["hand"])))
    return out


def test_item6_a_hand_from_the_assembled_board_verifies(board, tmp_path, capsys):
    store, recs = board
    assert _verify(store, tmp_path, recs) == 0, capsys.readouterr().err
    assert "every record signed by the board" in capsys.readouterr().out
    # the verification key handed out at provisioning works alone (no key store needed for it)
    pub = (tmp_path / "keys" / kit.DEVICE / "feed.pub").read_text().strip()
    assert _verify(store, tmp_path, recs, "--feed-key", pub) == 0
    assert _verify(store, tmp_path, recs, "--feed-key", "00" * 32) == 1
    assert "not signed by board" in capsys.readouterr().err


def test_item6_the_broadcast_key_holder_cannot_rewrite_a_hand(board, tmp_path, capsys):
    # before issue 12 item 6 this forgery verified: nothing in the feed came from the board alone
    store, recs = board
    bkey = store.role_key(kit.DEVICE, "broadcast")
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
    _reseal(bad, store.role_key(kit.DEVICE, "broadcast"))  # and the broadcast shows it too
    assert _verify(store, tmp_path, bad) == 1
    assert "not signed by board" in capsys.readouterr().err
    # even signed by the board's own key (a board bug), cards past the last commitment are refused
    signer = store.board.signer()
    for r in bad:
        r["sig"] = secrecy.hexlify(signer.sign(secrecy.feed_message(kit.DEVICE, r)))
    assert _verify(store, tmp_path, bad) == 1
    assert "seat2 reveals 3 cards but only 2 were committed" in capsys.readouterr().err
    # trailing data: a field the board never writes, a salt for nothing, garbage after a record
    for mutate, why in (
            (lambda r: r.update(note="x"), "carries data the board never writes: note"),
            (lambda r: r["salts"].update(seat9=[[2, "00"]]), "salts for seat9 that open no commitment")):
        bad = json.loads(json.dumps(recs))
        rev = [r for r in bad if r["kind"] == "reveal"][0]
        mutate(rev)
        rev["sig"] = secrecy.hexlify(signer.sign(secrecy.feed_message(kit.DEVICE, dict(rev))))
        assert _verify(store, tmp_path, bad) == 1
        assert why in capsys.readouterr().err
    p = tmp_path / "feed.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in recs) + json.dumps(recs[0]) + " trailing\n")
    assert feltctl(["verify-hand", str(p), "--device", kit.DEVICE, "--keys", store.root]) == 1
    assert "is not a JSON record" in capsys.readouterr().err


# ---- item 7 -----------------------------------------------------------------------------------------
from felt.security import audit as al  # noqa: E402
from feltctl.board_sim.simboard import SimBoard  # noqa: E402


def _audit_verify(store, *args):
    return feltctl(["audit", "verify"] + [str(a) for a in args] + ["--device", kit.DEVICE, "--keys", store.root])


def test_item7_audit_verify_reports_the_gap_a_flood_left(tmp_path, capsys):
    store = KeyStore(str(tmp_path / "keys"))
    store.create(kit.DEVICE, ["alice"])
    root, sim, boot = kit.flooded_board("i12b_host_flood", 120, max_bytes=16384,
                                       keys_text=_provisioned(store)[0], release=store.role_key(kit.DEVICE, "release"))
    sim.hal.clock.advance_ms(al.Intake().per_ms)
    kit.console_line(sim, "floor", ["warning", 3], None, "after the flood")
    assert _audit_verify(store, root) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    # before issue 12 item 7 the flood's records were all written and nothing said so
    assert "GAP before record" in out and "unauthenticated records refused (rate limit)" in out, out
    assert "gap(s) listed above" in out
    kit.rm_tree(root)


def test_item7_records_rolled_off_are_a_gap_even_without_an_anchor(tmp_path, capsys):
    store = KeyStore(str(tmp_path / "keys"))
    store.create(kit.DEVICE, ["alice"])
    folder = tmp_path / "old"
    folder.mkdir()
    # an unprotected log (no Intake: a board before item 7) rotated its first records away
    log = al.AuditLog(al.FileStore(str(folder / "audit.log"), al.Rotation(max_bytes=1024, keep=1)),
                      _provisioned(store)[1].signer())
    for i in range(30):
        log.append("alert", "floor decision: warning seat 2 -- %d %s" % (i, "x" * 100), who="table", t_ms=i)
    assert _audit_verify(store, folder, "--no-anchor") == 0
    out = capsys.readouterr().out
    oldest = al.parse_line((folder / log.store.rotated()[0]).read_text().split("\n")[0], 0).seq
    assert oldest > 1
    assert "GAP: records 1..%d are not in this log" % (oldest - 1) in out, out


def test_item7_audit_verify_port_tells_the_board_what_was_exported(tmp_path, capsys):
    b = SimBoard(str(tmp_path / "flash"), link=str(tmp_path / "board.tty"), capacity=2 * 1024 * 1024)
    b.start()
    b.wait_idle()
    try:
        keys = str(tmp_path / "keys")
        assert feltctl(["provision", b.device, "--device", kit.DEVICE, "--floor", "alice", "--keys", keys]) == 0
        store = KeyStore(keys)
        from felt.security import keys as keylib
        path = tmp_path / "flash" / al.PATH.lstrip("/")
        log = al.AuditLog(al.FileStore(str(path), al.Rotation(max_bytes=1024, keep=1)),
                          keylib.decode((tmp_path / "flash" / "felt.keys").read_text()).signer(), intake=al.Intake())
        for i in range(12):
            log.append("floor", "stack 3 %d -- a floor command padded to fill the file quickly" % i, who="alice",
                       t_ms=i)
        capsys.readouterr()
        assert feltctl(["audit", "verify", "--port", b.device, "--device", kit.DEVICE, "--keys", keys]) == 0
        assert "board told: records up to %d exported" % log.seq in capsys.readouterr().out
        assert log.store.exported_seq() == log.seq
    finally:
        b.stop()


# ---- item 8: key files and deck records owner-only whatever the umask ----------------------------------
import os  # noqa: E402
import stat  # noqa: E402


@pytest.mark.parametrize("umask", [0o000, 0o022, 0o002])
def test_item8_key_files_and_deck_records_are_owner_only_whatever_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        store = KeyStore(str(tmp_path / "keys"))
        store.create(kit.DEVICE, ["alice"])
        out = tmp_path / "pi.keys"
        assert feltctl(["provision", "--out", str(out), "--device", "pi1", "--floor", "alice",
                        "--keys", store.root]) == 0
        (tmp_path / "deckA.txt.tmp").write_text("left over\n")  # a world-readable leftover .tmp
        os.chmod(tmp_path / "deckA.txt.tmp", 0o666)
        deck = tmp_path / "deckA.txt"
        assert feltctl(["deck", "enroll", "--deck", "A", "--device", kit.DEVICE, "--floor", "alice",
                        "--keys", store.root, "--sim", "--seed", "4", "--out", str(deck)]) == 0
    finally:
        os.umask(old)
    files = [out, deck] + [p for p in (tmp_path / "keys").rglob("*") if p.is_file() and p.suffix == ".key"]
    files.append(tmp_path / "keys" / kit.DEVICE / "device.keys")
    for p in files:
        assert stat.S_IMODE(p.stat().st_mode) == 0o600, (p, oct(p.stat().st_mode))
    for d in (tmp_path / "keys" / kit.DEVICE, tmp_path / "keys" / "pi1"):
        assert stat.S_IMODE(d.stat().st_mode) == 0o700, (d, oct(d.stat().st_mode))
