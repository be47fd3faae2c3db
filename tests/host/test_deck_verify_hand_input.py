# `feltctl deck` and `feltctl verify-hand` given files that are not what they should be (binary,
# JSON that is not a record, records of the wrong shape): one named error line and exit 1, never
# a Python traceback. The intact cases and the signature refusals are in test_security_cli.py.
import json

import pytest

from felt.security import secrecy
from feltctl.cli import main as feltctl
from feltctl.board.signing import KeyStore

BINARY = bytes([0xE2, 0x28, 0xA1, 0xFF, 0x00, 0x80]) * 20  # not UTF-8


@pytest.fixture
def store(tmp_path):
    from felt.security import keys as keylib
    s = KeyStore(str(tmp_path / "keys"))
    s.create("table1", ["alice"])
    s.board = keylib.decode(s.device_key_file("table1"))  # the board's keys (its device key is only there)
    return s


def _one_error_line(capsys, command):
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.startswith("feltctl %s: " % command), err
    return err


def test_deck_enroll_from_a_binary_uid_file_is_named(store, tmp_path, capsys):
    uids = tmp_path / "uids.bin"
    uids.write_bytes(BINARY)
    assert feltctl(["deck", "enroll", "--deck", "A", "--device", "table1", "--floor", "alice", "--keys", store.root,
                    "--uids", str(uids), "--out", str(tmp_path / "deck.txt")]) == 1
    assert "%s is not a text file" % uids in _one_error_line(capsys, "deck")
    assert not (tmp_path / "deck.txt").exists()


def test_deck_verify_of_a_binary_record_is_named(store, tmp_path, capsys):
    rec = tmp_path / "deck.txt"
    rec.write_bytes(BINARY)
    assert feltctl(["deck", "verify", str(rec), "--device", "table1", "--keys", store.root]) == 1
    assert "%s is not a text file" % rec in _one_error_line(capsys, "deck")


@pytest.mark.parametrize("lines, why", [
    ([BINARY], "is not a text file"),
    ([b"[1, 2, 3]"], "line 1 is not a JSON record"),
    ([b'{"kind": "reveal", "hand": 1}', b"7"], "line 2 is not a JSON record"),
    ([b'{"kind": "commit", "hand": 1, "place": "seat1", "n": 1, "c": "00", "t_ms": 0}',
      b'{"kind": "hand-end", "hand": 1, "release_ms": 0, "t_ms": 0}',
      b'{"kind": "reveal", "hand": 1, "t_ms": 5, "end_ms": 0, "seats": {"seat1": "AsKd"}, "salts": [], "board": "", "board_salt": ""}'],
     "a record is malformed"),
    ([b'{"kind": "commit", "hand": 1, "place": "seat1", "n": 1, "c": "00", "t_ms": 0}',
      b'{"kind": "hand-end", "hand": 1, "release_ms": 0, "t_ms": 0}',
      b'{"kind": "reveal", "hand": 1, "t_ms": 5, "end_ms": 0, "seats": {"seat1": "AsKd"}, "salts": {"seat1": [[1]]}, '
      b'"board": "", "board_salt": ""}'],
     "a record is malformed"),
])
def test_verify_hand_refuses_feeds_that_are_not_records_by_name(store, tmp_path, capsys, lines, why):
    # records signed by the board's feed key, so their shape (not the signature) is what is refused
    signer = store.board.signer()
    for i, line in enumerate(lines):
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict):
            rec["sig"] = secrecy.hexlify(signer.sign(secrecy.feed_message("table1", rec)))
            lines[i] = json.dumps(rec).encode()
    feed = tmp_path / "feed.jsonl"
    feed.write_bytes(b"\n".join(lines) + b"\n")
    assert feltctl(["verify-hand", str(feed), "--device", "table1", "--keys", store.root]) == 1
    assert why in _one_error_line(capsys, "verify-hand")


@pytest.mark.parametrize("out", ["folder", "folder/", "missing/deck.txt"])
def test_deck_enroll_out_it_cannot_write_leaves_no_signed_file_beside_it(store, tmp_path, capsys, out):
    # --out naming a folder wrote the signed record to FOLDER.tmp -- outside the folder asked for --
    # then failed to rename it and left it there (or FOLDER/.tmp with a trailing slash).
    (tmp_path / "folder").mkdir()
    before = sorted(p.name for p in tmp_path.iterdir()) + sorted(p.name for p in (tmp_path / "folder").iterdir())
    assert feltctl(["deck", "enroll", "--deck", "A", "--device", "table1", "--floor", "alice", "--keys",
                    store.root, "--sim", "--out", str(tmp_path / out)]) == 1
    err = _one_error_line(capsys, "deck")
    assert str(tmp_path / out).rstrip("/") in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) + sorted(p.name for p in (tmp_path / "folder").iterdir()) == before


def test_floor_deck_with_a_binary_record_is_named_before_the_port_opens(store, tmp_path, capsys):
    # `feltctl floor PORT deck FILE` read FILE as text: a binary file was a UnicodeDecodeError traceback
    rec = tmp_path / "deck.txt"
    rec.write_bytes(BINARY)
    assert feltctl(["floor", str(tmp_path / "no-such.tty"), "--device", "table1", "--floor", "alice", "--keys",
                    store.root, "deck", str(rec)]) == 1
    err = _one_error_line(capsys, "floor")
    assert "%s is not a text file" % rec in err and "no-such.tty" not in err, err
