# Fuzzing the wire codecs (PN532 HSU frames, ASCII reader lines, FELT1 console lines) with
# hypothesis: random and mutated bytes never raise out of feed(); every bad input comes back as a
# named FrameError subclass; feeding in any chunking gives the same events; after garbage the
# parser resynchronises and decodes the next good frame/line. Examples per test: FELT_FUZZ_EXAMPLES
# (default 200; `make fuzz` runs a long campaign). Cases found here are replayed under MicroPython
# in tests/firmware/proto/test_fuzz_regressions.py.
import os

from hypothesis import HealthCheck, given, settings, strategies as st

from felt.errors import FeltError, FrameError
from felt.proto import ascii_reader, console, pn532

EXAMPLES = int(os.environ.get("FELT_FUZZ_EXAMPLES", "200"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def mutate(data, edits):
    """Apply (op, position, byte) edits: 0 flip a bit, 1 replace, 2 insert, 3 delete."""
    buf = bytearray(data)
    for op, pos, b in edits:
        if not buf and op != 2:
            continue
        i = pos % (len(buf) + (1 if op == 2 else 0))
        if op == 0:
            buf[i] ^= 1 << (b & 7)
        elif op == 1:
            buf[i] = b
        elif op == 2:
            buf.insert(i, b)
        else:
            del buf[i]
    return bytes(buf)


EDITS = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10 ** 6), st.integers(0, 255)), max_size=8)


def chunked(data, cuts):
    """Split data at the given cut points (sorted, deduplicated, in range)."""
    points = sorted(set(c % (len(data) + 1) for c in cuts))
    out, last = [], 0
    for p in points:
        out.append(data[last:p])
        last = p
    out.append(data[last:])
    return out


def summary(events):
    """Comparable form of an event list (error objects have no __eq__)."""
    out = []
    for e in events:
        if isinstance(e, FeltError):
            out.append(("error", type(e).__name__, str(e)))
        else:
            out.append(("event", repr(e)))
    return out


# ---- PN532 ----------------------------------------------------------------------------------

PN532_GOOD = [
    pn532.ACK,
    pn532.NACK,
    pn532.ERROR_FRAME,
    pn532.encode_response(pn532.CMD_GET_FIRMWARE_VERSION, b"\x32\x01\x06\x07"),
    pn532.encode_response(pn532.CMD_IN_LIST_PASSIVE_TARGET, b"\x01\x01\x00\x44\x00\x07\x04\x11\x22\x33\x44\x55\x66"),
    pn532.encode_response(pn532.CMD_SAM_CONFIGURATION),
    pn532.encode_frame(bytes(range(256)) + bytes(range(4)), pn532.TFI_PN532),  # extended frame
    pn532.sam_configuration(),
]
PN532_EVENTS = (pn532.Ack, pn532.Nack, pn532.ErrorFrame, pn532.Frame, pn532.PN532FrameError)


def check_pn532_events(events):
    for e in events:
        assert isinstance(e, PN532_EVENTS), e
        if isinstance(e, pn532.PN532FrameError):
            assert e.field in ("LCS", "DCS", "LEN", "TFI")


@FUZZ
@given(st.binary(max_size=600), st.lists(st.integers(0, 10 ** 6), max_size=12))
def test_pn532_random_bytes_never_raise_and_chunking_does_not_matter(data, cuts):
    whole = pn532.Parser().feed(data)
    check_pn532_events(whole)
    p = pn532.Parser()
    parts = []
    for piece in chunked(data, cuts):
        parts.extend(p.feed(piece))
    assert summary(parts) == summary(whole)


@FUZZ
@given(st.lists(st.sampled_from(PN532_GOOD), min_size=1, max_size=5), EDITS)
def test_pn532_mutated_frames_give_named_errors_then_resync(frames, edits):
    data = mutate(b"".join(frames), edits)
    p = pn532.Parser()
    check_pn532_events(p.feed(data))
    # A broken frame can swallow at most its (checked) length: 270 bytes of good frames later the
    # parser is back in step, and every following frame decodes.
    sentinel = pn532.encode_response(pn532.CMD_SAM_CONFIGURATION)
    p.feed(sentinel * (280 // len(sentinel) + 1))
    assert p.feed(sentinel) == [pn532.Frame(pn532.TFI_PN532, b"\x15")]


@FUZZ
@given(st.binary(max_size=40), st.sampled_from((pn532.CMD_GET_FIRMWARE_VERSION, pn532.CMD_SAM_CONFIGURATION,
                                                pn532.CMD_IN_LIST_PASSIVE_TARGET)))
def test_pn532_response_parsers_raise_only_response_errors(data, code):
    frame = pn532.Frame(pn532.TFI_PN532, bytes([code + 1]) + data)
    parse = {pn532.CMD_GET_FIRMWARE_VERSION: pn532.parse_firmware_version,
             pn532.CMD_SAM_CONFIGURATION: pn532.parse_sam_configuration,
             pn532.CMD_IN_LIST_PASSIVE_TARGET: pn532.parse_in_list_passive_target}[code]
    try:
        parse(frame)
    except pn532.PN532ResponseError:
        pass


# ---- ASCII reader ---------------------------------------------------------------------------

ASCII_GOOD = [b"04A1B2C3D4E5F6\r\n", b"\x02DEADBEEF\x03\r\n", b"UID: 04:11:22:33:44:55:66\n", b"0102030405060708090A\r"]


def check_ascii_events(events):
    for e in events:
        assert isinstance(e, (ascii_reader.TagLine, ascii_reader.AsciiLineError)), e
        if isinstance(e, ascii_reader.AsciiLineError):
            assert e.reason in ("too_long", "not_ascii", "not_hex", "odd_digits", "uid_length", "separator")
        else:
            assert len(e.uid) in ascii_reader.UID_LENGTHS


@FUZZ
@given(st.binary(max_size=300), st.lists(st.integers(0, 10 ** 6), max_size=12))
def test_ascii_random_bytes_never_raise_and_chunking_does_not_matter(data, cuts):
    whole = ascii_reader.Parser().feed(data)
    check_ascii_events(whole)
    p = ascii_reader.Parser()
    parts = []
    for piece in chunked(data, cuts):
        parts.extend(p.feed(piece))
    assert summary(parts) == summary(whole)


@FUZZ
@given(st.lists(st.sampled_from(ASCII_GOOD), min_size=1, max_size=4), EDITS)
def test_ascii_mutated_lines_then_resync(lines, edits):
    p = ascii_reader.Parser()
    check_ascii_events(p.feed(mutate(b"".join(lines), edits)))
    # A pending line is ended (and decoded or reported) by the line end; the next line is good.
    events = p.feed(b"\r\n04A1B2C3D4E5F6\r\n")
    check_ascii_events(events)
    assert events[-1] == ascii_reader.TagLine(bytes.fromhex("04A1B2C3D4E5F6"))
    assert len(events) <= 2, "at most the pending line, then the good one"


@FUZZ
@given(st.text(max_size=80))
def test_ascii_parse_line_raises_only_line_errors(text):
    try:
        r = ascii_reader.parse_line(text.encode("utf-8"))
    except ascii_reader.AsciiLineError:
        return
    assert r is None or len(r.uid) in ascii_reader.UID_LENGTHS


# ---- FELT1 console ----------------------------------------------------------------------------

def line(seq, verb, args=(), opts=None, text=None):
    return console.encode(console.Message(seq, verb, args, opts, text))


CONSOLE_GOOD = [
    line(1, "fold", [3]),
    line(2, "raise", [4, 1200], {"declared": "raise"}),
    line(3, "push", [2, [1000, 500, 100, 100]], {"said": 1600}),
    line(4, "set", ["hr.rake"], text="5% cap 150"),
    line(5, "kill", [7], {"rule": "DEAL-5"}, "exposed card"),
    line(6, "hello", [], {"proto": "1.0", "role": "console"}),
]
CODES = ("too_long", "not_ascii", "checksum", "version", "syntax", "seq", "unknown_verb", "direction", "bad_args")


def check_console_events(events):
    for e in events:
        assert isinstance(e, (console.Message, console.ConsoleError)), e
        if isinstance(e, console.ConsoleError):
            assert e.code in CODES, e.code
            assert e.seq is None or 0 <= e.seq <= console.MAX_SEQ


@FUZZ
@given(st.binary(max_size=600), st.lists(st.integers(0, 10 ** 6), max_size=12))
def test_console_random_bytes_never_raise_and_chunking_does_not_matter(data, cuts):
    whole = console.Parser(console.CONSOLE).feed(data)
    check_console_events(whole)
    p = console.Parser(console.CONSOLE)
    parts = []
    for piece in chunked(data, cuts):
        parts.extend(p.feed(piece))
    assert summary(parts) == summary(whole)


@FUZZ
@given(st.lists(st.sampled_from(CONSOLE_GOOD), min_size=1, max_size=4), EDITS)
def test_console_mutated_lines_are_named_errors_then_resync(lines, edits):
    p = console.Parser(console.CONSOLE)
    check_console_events(p.feed(mutate(b"".join(lines), edits)))
    events = p.feed(b"\r\n" + CONSOLE_GOOD[0])
    check_console_events(events)
    assert events[-1] == console.Message(1, "fold", [3])
    assert len(events) <= 2, "at most the pending line, then the good one"


@FUZZ
@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=120))
def test_console_decode_of_printable_text_raises_only_console_errors(body):
    # With a correct CRC the body reaches the grammar: every verb, argument and option check.
    raw = body.encode()
    star = body + " *%04X" % console.crc16((body + " ").encode())
    for candidate in (raw, star.encode(), ("FELT1 7 " + star).encode()):
        try:
            msg = console.decode_line(candidate)
        except console.ConsoleError as e:
            assert e.code in CODES
            continue
        # Whatever decodes re-encodes to a line that decodes to the same message.
        assert console.decode_line(console.encode(msg)[:-2]) == msg


SEATS = st.integers(1, console.MAX_SEATS)
AMOUNTS = st.integers(0, console.MAX_CHIPS)


@FUZZ
@given(st.integers(0, console.MAX_SEQ), st.sampled_from(("fold", "check", "call", "bet", "raise", "allin")),
       SEATS, AMOUNTS, st.sampled_from((None,) + console.DECLARED))
def test_console_action_lines_round_trip(seq, verb, seat, amount, declared):
    needs_amount = verb in ("bet", "raise")
    amount_arg = amount if needs_amount or verb in ("call", "allin") else None
    if verb in ("fold", "check", "allin"):
        declared = None
    msg = console.action(seq, verb, seat, amount_arg, declared)
    assert console.decode_line(console.encode(msg)[:-2], console.CONSOLE) == msg


def test_a_frame_error_is_a_felt_error():
    # The 'named error' contract: every codec error is a FrameError, hence a FeltError.
    for cls in (pn532.PN532FrameError, pn532.PN532ResponseError, ascii_reader.AsciiLineError, console.ConsoleError):
        assert issubclass(cls, FrameError)
