# `feltctl audit verify` over a rotated audit log (audit.log + audit.log.<first seq>): the files
# given one by one in any order or as their folder, verified as one chain; a tampered, truncated
# or missing file is named in the refusal; records that rolled off before they were verified
# (the stored anchor is older than the oldest file kept) are refused too.
import os

import pytest

from felt.security import audit as al
from feltctl.cli import main as feltctl
from feltctl.board.signing import KeyStore


@pytest.fixture
def store(tmp_path):
    from felt.security import keys as keylib
    s = KeyStore(str(tmp_path / "keys"))
    s.create("table1", ["alice"])
    s.board = keylib.decode(s.device_key_file("table1"))  # the board's keys (its device key is only there)
    return s


def _board_log(store, folder, n, keep=8):
    os.makedirs(folder, exist_ok=True)
    log = al.AuditLog(al.FileStore(os.path.join(folder, "audit.log"), al.Rotation(max_bytes=1024, keep=keep)),
                      store.board.signer())
    for i in range(n):
        log.append("floor", "stack %d 1000 -- a floor command with a longer text to fill the file" % (i % 10),
                   who="alice", t_ms=i * 1000)
    return log


def _verify(store, *paths, extra=()):
    return feltctl(["audit", "verify"] + [str(p) for p in paths] + ["--device", "table1", "--keys", store.root,
                                                                    "--quiet"] + list(extra))


def test_a_rotated_set_verifies_by_folder_or_by_files_in_any_order(store, tmp_path, capsys):
    folder = tmp_path / "export"
    log = _board_log(store, folder, 20)
    names = sorted(os.listdir(folder))
    assert len(names) >= 4 and "audit.log" in names
    assert _verify(store, folder, extra=["--no-anchor"]) == 0
    out = capsys.readouterr().out
    assert "audit log intact: %d records" % log.seq in out
    assert _verify(store, *[folder / n for n in reversed(names)]) == 0
    assert "audit log intact" in capsys.readouterr().out
    assert store.anchor("table1")[0] == log.seq


def test_tampered_truncated_or_missing_file_is_named(store, tmp_path, capsys):
    folder = tmp_path / "export"
    _board_log(store, folder, 20)
    rotated = al.order(os.listdir(folder), "audit.log")[:-1]
    victim = folder / rotated[1]
    original = victim.read_text()
    victim.write_text(original.replace("stack", "stock", 1))
    assert _verify(store, folder, extra=["--no-anchor"]) == 1
    err = capsys.readouterr().err
    assert "TAMPERED" in err and "%s: audit record" % rotated[1] in err and "signature does not verify" in err
    victim.write_text("".join(original.splitlines(True)[:-1]))
    assert _verify(store, folder, extra=["--no-anchor"]) == 1
    assert "%s was truncated" % rotated[1] in capsys.readouterr().err
    victim.unlink()
    assert _verify(store, folder, extra=["--no-anchor"]) == 1
    assert "%s is missing" % rotated[1] in capsys.readouterr().err


def test_records_rolled_off_before_they_were_verified_are_refused(store, tmp_path, capsys):
    folder = tmp_path / "board"
    log = _board_log(store, folder, 6, keep=2)
    assert _verify(store, folder) == 0  # anchors the last record
    capsys.readouterr()
    for i in range(30):
        log.append("alert", "DECK-5 unknown tag %d -- more than two files' worth of records" % i, who="shoe")
    assert _verify(store, folder) == 1
    assert "rolled off the board" in capsys.readouterr().err


def test_two_live_files_are_a_usage_error(store, tmp_path, capsys):
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    a.write_text("")
    b.write_text("")
    assert _verify(store, a, b) == 2
    assert "more than one live log file" in capsys.readouterr().err


def test_a_folder_without_an_audit_log_is_not_an_intact_log(store, tmp_path, capsys):
    # The wrong folder (nothing of the board's log in it) was "audit log intact: 0 records", exit 0.
    wrong = tmp_path / "hands"
    wrong.mkdir()
    (wrong / "001-NT.phh").write_text("variant = 'NT'\n")
    assert _verify(store, wrong, extra=["--no-anchor"]) == 1
    err = capsys.readouterr().err
    assert "no audit log" in err and str(wrong) in err


def test_a_byte_that_is_not_utf8_is_a_damaged_record_named_like_any_other(store, tmp_path, capsys):
    # A flipped byte that breaks UTF-8 was "error: 'utf-8' codec can't decode byte 0xff in position
    # 40" (exit 2), naming neither file nor record; read off the board (--port) the same bytes are
    # decoded with replacement and refused by record. Now the same refusal either way.
    folder = tmp_path / "export"
    _board_log(store, folder, 5)
    path = folder / "audit.log"
    data = path.read_bytes()
    second = data.index(b"\n") + 1 + 40  # inside the live file's second record
    n = int(data.split(b"\t")[0]) + 1  # (2 before signed records grew: the live file began at 1)
    path.write_bytes(data[:second] + b"\xff" + data[second + 1:])
    assert _verify(store, folder, extra=["--no-anchor"]) == 1
    err = capsys.readouterr().err
    assert "TAMPERED or damaged" in err and "record %d" % n in err, err
