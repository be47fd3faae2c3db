# feltctl audit verify / verify-hand / deck enroll+verify and the host signing helpers: the
# intact case and each refusal (tampered audit record, cut-off log, altered reveal, broadcast
# under another key, early release, altered or unsigned deck record, wrong floor key).
import json

import pytest

from felt.security import audit as al
from felt.security import secrecy
from felt.security import manifest as mf
from feltctl.cli import main as feltctl
from feltctl.board.signing import KeyStore, answer_challenge, manifest_for
from felt.security.auth import FloorGate
from felt.security import SecurityError


@pytest.fixture
def store(tmp_path):
    from felt.security import keys as keylib
    s = KeyStore(str(tmp_path / "keys"))
    s.create("table1", ["alice", "bob"])
    s.board = keylib.decode(s.device_key_file("table1"))  # the board's keys (its device key is only there)
    return s


def _audit_file(store, tmp_path):
    k = store.load("table1")
    log = al.AuditLog(al.MemStore(), store.board.signer())
    gate = FloorGate("table1", k.floor, lambda n: b"\x07" * n, audit=log)
    log.append("maintenance", "maintenance mode entered at boot (GP28 key switch held)", who="board", t_ms=0)
    n = gate.challenge(1000)
    gate.verify("alice", "delay 1800000", n, answer_challenge(k.floor["alice"], "table1", n, "alice",
                                                              "delay 1800000"), 1500)
    path = tmp_path / "audit.txt"
    path.write_text("\n".join(log.store.lines()) + "\n")
    return path, log


def test_audit_verify_shows_who_did_what_and_keeps_an_anchor(store, tmp_path, capsys):
    path, log = _audit_file(store, tmp_path)
    assert feltctl(["audit", "verify", str(path), "--device", "table1", "--keys", store.root]) == 0
    out = capsys.readouterr().out
    assert "alice" in out and "delay 1800000" in out and "maintenance mode entered" in out
    assert "audit log intact: 2 records" in out
    assert store.anchor("table1")[0] == 2
    # the log grows: still fine, and says it extends what was verified
    log.append("alert", "DECK-5 unknown tag", who="table", t_ms=2000)
    path.write_text("\n".join(log.store.lines()) + "\n")
    assert feltctl(["audit", "verify", str(path), "--device", "table1", "--keys", store.root, "--quiet"]) == 0
    assert "extends the 2 records" in capsys.readouterr().out


def test_audit_verify_refuses_a_tampered_or_cut_log(store, tmp_path, capsys):
    path, log = _audit_file(store, tmp_path)
    assert feltctl(["audit", "verify", str(path), "--device", "table1", "--keys", store.root]) == 0
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], lines[1].replace("delay 1800000", "delay 0")]) + "\n")
    assert feltctl(["audit", "verify", str(path), "--device", "table1", "--keys", store.root]) == 1
    assert "TAMPERED" in capsys.readouterr().err
    path.write_text(lines[0] + "\n")  # the last record removed: the chain alone cannot tell, the anchor can
    assert feltctl(["audit", "verify", str(path), "--device", "table1", "--keys", store.root]) == 1
    assert "cut off" in capsys.readouterr().err


def _hand_feed(key, delay_ms=1000, signer=None):
    """Public + broadcast records of one hand, made by the SecretFeed from a stub table."""
    class H:
        n = 2
        hole = [[50, 45], [0, 1]]
        up = [[False, False], [False, False]]
        shown = [False, False]
        board = [8, 12, 16]
        pending_hole = [0, 0]

    class T:
        hand_no = 1
        hand = H()
        state = "playing"
        where = {}
        discards = {}
        uid_card = {}
        flight = []

        class setup:
            seats = [2, 5]
    recs = []
    feed = secrecy.SecretFeed("table1", key, lambda n: b"\x01" * n, public=recs.append, broadcast=recs.append,
                              delay_ms=delay_ms, signer=signer)
    t = T()
    feed.observe(t, 100)
    t.state = "over"
    feed.observe(t, 200)
    feed.observe(t, 200 + delay_ms)
    return recs


def _write(tmp_path, recs):
    p = tmp_path / "feed.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return str(p)


def test_verify_hand_passes_and_each_forgery_fails(store, tmp_path, capsys):
    key = store.role_key("table1", "broadcast")
    signer = store.board.signer()
    recs = _hand_feed(key, signer=signer)
    assert [r["kind"] for r in recs] == ["commit", "commit", "commit", "hand-end", "reveal", "broadcast"]
    args = ["verify-hand", _write(tmp_path, recs), "--device", "table1", "--keys", store.root]
    assert feltctl(args) == 0
    assert "broadcast shows exactly the dealt cards" in capsys.readouterr().out

    def fails(mutate, why, resign=True):
        bad = json.loads(json.dumps(recs))
        mutate(bad)
        if resign:  # signed again with the board's key, so each later check is seen failing too
            for r in bad:
                r["sig"] = secrecy.hexlify(signer.sign(secrecy.feed_message("table1", r)))
        assert feltctl(["verify-hand", _write(tmp_path, bad), "--device", "table1", "--keys", store.root]) == 1
        err = capsys.readouterr().err
        assert why in err, err

    fails(lambda r: r[4]["seats"].update(seat2="AsKd"), "does not match what was committed")
    fails(lambda r: r[4].update(board="7c8c9c"), "does not match what was committed")
    fails(lambda r: r[5].update(sealed=secrecy.hexlify(secrecy.seal(b"\x09" * 32, secrecy.unhexlify(r[5]["nonce"]),
                                                                    b"{}", secrecy.broadcast_aad("table1", 1)))),
          "does not open")
    fails(lambda r: r[5].update(t_ms=300), "before hand end + delay")
    fails(lambda r: r.pop(0), "revealed without a commitment")
    fails(lambda r: r[4]["seats"].update(seat2="AsKd"), "not signed by board table1", resign=False)


def test_verify_hand_detects_a_broadcast_that_differs_from_the_deal(store, tmp_path, capsys):
    key = store.role_key("table1", "broadcast")
    signer = store.board.signer()
    recs = _hand_feed(key, signer=signer)
    nonce = b"\x02" * 12
    lie = json.dumps({"hand": 1, "end_ms": 200, "seats": {"seat2": "AsAd", "seat5": "2c2d"},
                      "board": "4c5c6c"}).encode()
    recs[5] = dict(recs[5], nonce=nonce.hex(),
                   sealed=secrecy.hexlify(secrecy.seal(key, nonce, lie, secrecy.broadcast_aad("table1", 1))))
    recs[5]["sig"] = secrecy.hexlify(signer.sign(secrecy.feed_message("table1", recs[5])))  # a board bug
    assert feltctl(["verify-hand", _write(tmp_path, recs), "--device", "table1", "--keys", store.root]) == 1
    assert "but" in capsys.readouterr().err


def test_deck_enroll_through_the_sim_shoe_and_verify(store, tmp_path, capsys):
    out = tmp_path / "deckA.txt"
    assert feltctl(["deck", "enroll", "--deck", "A", "--device", "table1", "--floor", "alice", "--keys", store.root,
                    "--sim", "--seed", "4", "--out", str(out)]) == 0
    text = out.read_text()
    assert text.count("\ntag ") == 52 and "by alice" in text
    assert feltctl(["deck", "verify", str(out), "--device", "table1", "--keys", store.root]) == 0
    assert "signed by floor key alice" in capsys.readouterr().out
    lines = text.splitlines()
    i = [n for n, ln in enumerate(lines) if ln.endswith(" As")][0]
    lines[i] = lines[i][:-2] + "Ks"  # two tags for the king of spades
    out.write_text("\n".join(lines) + "\n")
    assert feltctl(["deck", "verify", str(out), "--device", "table1", "--keys", store.root]) == 1
    assert "does not verify" in capsys.readouterr().err


def test_deck_enroll_from_a_short_uid_list_says_what_is_missing(store, tmp_path, capsys):
    uids = tmp_path / "uids.txt"
    uids.write_text("".join("04A1B2C3D4E5%02X\n" % i for i in range(20)))
    assert feltctl(["deck", "enroll", "--deck", "B", "--device", "table1", "--floor", "bob", "--keys", store.root,
                    "--uids", str(uids), "--out", str(tmp_path / "b.txt")]) == 1
    assert "only 20 of 52" in capsys.readouterr().err
    assert feltctl(["deck", "enroll", "--deck", "B", "--device", "table1", "--floor", "carol", "--keys",
                    store.root, "--uids", str(uids), "--out", str(tmp_path / "b.txt")]) == 1
    assert "no readable floor-carol key" in capsys.readouterr().err


def test_signed_manifest_from_the_key_store_verifies_and_names_files(store):
    k = store.load("table1")
    files = {"main.py": b"print(1)\n", "felt/x.py": b"x = 1\n"}
    release = store.release_signer("table1")
    text = manifest_for(files, "table1", release, "1.2.0", 7)
    m = mf.verify(text, [release.public], "table1")
    assert (m.version, m.counter, [f[0] for f in m.files]) == ("1.2.0", 7, ["felt/x.py", "main.py"])
    with pytest.raises(SecurityError, match="wrong key"):
        mf.verify(text, [k.broadcast])


def test_answer_challenge_refuses_unknown_commands_before_signing(store):
    with pytest.raises(SecurityError, match="unknown floor command"):
        answer_challenge(store.role_key("table1", "floor-alice"), "table1", "00" * 16, "alice", "format c:")


def test_signed_build_counts_up_and_takes_the_version_from_the_tree(store):
    from feltctl.board.deploy import Tree
    from feltctl.board.signing import signed_build
    tree = Tree({"felt/__init__.py": b"VERSION = '2.1.0'\n", "main.py": b"x\n"})
    a = signed_build(tree, "table1", store)
    b = signed_build(tree, "table1", store)
    pub = [store.release_signer("table1").public]
    ma = mf.verify(a.files[mf.NAME].decode(), pub, "table1")
    mb = mf.verify(b.files[mf.NAME].decode(), pub, "table1")
    assert (ma.version, ma.counter, mb.counter) == ("2.1.0", 1, 2)
    assert [f[0] for f in ma.files] == ["felt/__init__.py", "main.py"]


def test_issue16_item1_no_key_a_verifier_holds_can_sign_a_record_it_accepts(store, tmp_path, capsys):
    # Attack: whoever runs `audit verify` or `verify-hand` has the key store. Before issue 16 its
    # owner.key derived the audit MAC key and the feed signing key: anyone who could verify could
    # write a record that verified. Now the store holds the board's PUBLIC key only: a record
    # signed (or MACed, as before) with any key in it is refused.
    import os
    from felt.security import ed25519
    from felt.security.hmac import hexlify, hmac_hex

    path, log = _audit_file(store, tmp_path)
    assert feltctl(["audit", "verify", str(path), "--device", "table1", "--keys", store.root, "--no-anchor"]) == 0
    capsys.readouterr()
    folder = store.folder("table1")
    held = []
    for name in sorted(os.listdir(folder)):
        text = open(os.path.join(folder, name)).read().strip()
        if len(text) == 64:
            held.append((name, bytes.fromhex(text)))
    assert sorted(n for n, _ in held) == ["broadcast.key", "feed.pub", "floor-alice.key", "floor-bob.key",
                                         "release.key", "release.pub"]
    lines = path.read_text().splitlines()
    body = "%d\t5000\talice\tfloor\tstack 3 99999\t%s" % (log.seq + 1, al.line_hash(lines[-1]))
    hand = _hand_feed(store.role_key("table1", "broadcast"), signer=store.board.signer())
    for name, key in held:
        for mac in (hexlify(ed25519.Signer(key).sign(al.record_message(body))), hmac_hex(key, body),
                    hmac_hex(key, "felt-derive\0audit")):
            path.write_text("\n".join(lines + [body + "\t" + mac]) + "\n")
            assert feltctl(["audit", "verify", str(path), "--device", "table1", "--keys", store.root,
                            "--no-anchor"]) == 1, name
            assert "signature does not verify" in capsys.readouterr().err
        forged = json.loads(json.dumps(hand))
        forged[4]["seats"]["seat2"] = forged[4]["seats"]["seat2"]  # the same hand, re-signed by the verifier
        for r in forged:
            r["sig"] = hexlify(ed25519.Signer(key).sign(secrecy.feed_message("table1", r)))
        assert feltctl(["verify-hand", _write(tmp_path, forged), "--device", "table1", "--keys", store.root]) == 1
        assert "not signed by board table1" in capsys.readouterr().err
    # and the board's own signature still verifies with the public key alone
    assert feltctl(["verify-hand", _write(tmp_path, hand), "--device", "table1", "--keys", store.root]) == 0


def test_config_entries_name_the_file_as_on_the_board(tmp_path):
    # feltctl flash --sign --config [NAME=]FILE (issue 16 item 2): the manifest's config line
    # must carry the name the board reads (board.json), not the host file's (pico.json)
    import hashlib
    from feltctl.board.signing import config_entries
    f = tmp_path / "pico.json"
    f.write_text('{"board": "pico"}\n')
    data = f.read_bytes()
    want = (len(data), hashlib.sha256(data).hexdigest())
    assert config_entries(["board.json=%s" % f]) == [("board.json",) + want]
    assert config_entries([str(f)]) == [("pico.json",) + want]
