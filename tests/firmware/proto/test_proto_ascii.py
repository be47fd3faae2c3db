# ASCII serial RFID reader codec (felt.proto.ascii_reader): every accepted form fed whole, one
# byte at a time and with garbage around it; each kind of bad line is named and the next line
# still parses.
import check
from check import eq, raises

from felt.errors import FrameError
from felt.proto import ascii_reader
from felt.proto.ascii_reader import AsciiLineError, TagLine

UID4 = bytes.fromhex("DEADBEEF")
UID7 = bytes.fromhex("047BCB51962280")


def kinds(events):
    return [e.reason if isinstance(e, AsciiLineError) else e.uid.hex() for e in events]


def feed_all_ways(data, want):
    eq(kinds(ascii_reader.Parser().feed(data)), want, "whole")
    p = ascii_reader.Parser()
    got = []
    for i in range(len(data)):
        got.extend(p.feed(data[i:i + 1]))
    eq(kinds(got), want, "bytewise")
    # Garbage between line ends is a bad line of its own; the sample's lines survive it.
    p = ascii_reader.Parser()
    got = p.feed(b"\r\n\x00zz\r\n") + p.feed(data) + p.feed(b"\r\n#!\r\n")
    eq(kinds(got), ["not_ascii"] + want + ["not_hex"], "garbage around")


def test_line_endings_cr_lf_crlf():
    for end in (b"\r", b"\n", b"\r\n", b"\n\r"):
        feed_all_ways(b"DEADBEEF" + end, ["deadbeef"])
        feed_all_ways(b"047BCB51962280" + end + b"deadbeef" + end, ["047bcb51962280", "deadbeef"])


def test_stx_etx_framing_with_and_without_newline():
    feed_all_ways(b"\x02DEADBEEF\x03\r\n", ["deadbeef"])
    feed_all_ways(b"\x02DEADBEEF\x03\x02047BCB51962280\x03", ["deadbeef", "047bcb51962280"])


def test_separators_and_uid_prefix():
    for line in (b"DE AD BE EF", b"de:ad:be:ef", b"DE-AD-BE-EF", b"UID: DEADBEEF", b"uid=de ad be ef", b"  DEADBEEF  "):
        feed_all_ways(line + b"\r\n", ["deadbeef"])


def test_encode_line_round_trips():
    for framed in (False, True):
        for sep in ("", " ", ":"):
            wire = ascii_reader.encode_line(UID7, framed=framed, separator=sep)
            eq(ascii_reader.Parser().feed(wire), [TagLine(UID7)])
    eq(ascii_reader.encode_line(UID4), b"DEADBEEF\r\n")
    eq(ascii_reader.encode_line(UID4, framed=True, ending=b""), b"\x02DEADBEEF\x03")


def test_empty_lines_are_skipped():
    eq(ascii_reader.Parser().feed(b"\r\n\r\n\n\nDEADBEEF\r\n\r\n"), [TagLine(UID4)])


def test_bad_lines_are_named_and_parser_resyncs():
    cases = (
        (b"DEADBEE\r\n", "odd_digits"),
        (b"DEADBEEFAA\r\n", "uid_length"),
        (b"DEADBEXF\r\n", "not_hex"),
        (b"DEA DBE EF\r\n", "separator"),
        (b"DE\xffADBEEF\r\n", "not_ascii"),
    )
    for line, reason in cases:
        feed_all_ways(line + b"047BCB51962280\n", [reason, "047bcb51962280"])


def test_overlong_line_reported_once_then_resync():
    p = ascii_reader.Parser()
    got = p.feed(b"A" * 200 + b"\r\nDEADBEEF\r\n")
    eq(kinds(got), ["too_long", "deadbeef"])
    assert len(p._line) == 0


def test_stx_mid_line_resyncs():
    p = ascii_reader.Parser()
    eq(p.feed(b"noise\x02DEADBEEF\x03"), [TagLine(UID4)])
    eq(p.garbage_bytes, 5)


def test_errors_are_frame_errors_with_raw_line():
    (err,) = ascii_reader.Parser().feed(b"XYZ\n")
    assert isinstance(err, FrameError)
    eq(err.line, b"XYZ")
    assert "not_hex" in str(err)
    with raises(AsciiLineError, match="uid_length"):
        ascii_reader.parse_line(b"0102")
    eq(ascii_reader.parse_line(b"   "), None)


def test_every_example_in_ascii_reader_md_parses():
    with open(check.repo_path("hardware/protocols/ascii-reader.md")) as f:
        lines = f.read().split("\n")
    found = 0
    for text in lines:
        if "->" not in text or not text[:2].strip() or text[2:3] != " ":
            continue
        hexpart = text.split('"')[0].split("STX")[0].split()
        wire = bytes.fromhex("".join(hexpart))
        (event,) = ascii_reader.Parser().feed(wire)
        assert isinstance(event, TagLine), text
        want = text.split("->")[1].strip()
        if want.startswith("uid "):
            eq(event.uid.hex(), want[4:].replace(" ", "").lower())
        found += 1
    eq(found, 5)
