# PN532 HSU parser (felt.proto.pn532) against answers that lost bytes on the wire (UART overrun,
# noise): the broken frame is named, the next good frame is never eaten, whatever the feeding
# (whole, byte by byte, garbage around) -- hardware/protocols/pn532-hsu.md "Lost bytes".
import check
from check import eq

from felt.proto import pn532
from felt.proto.pn532 import Frame, PN532FrameError
from kit import feed_bytewise


def h(text):
    return bytes.fromhex(text.replace(" ", ""))


ILPT_RSP_4 = h("00 00 FF 0C F4 D5 4B 01 01 00 04 08 04 DE AD BE EF 96 00")
ILPT_RSP_7 = h("00 00 FF 0F F1 D5 4B 01 01 00 44 00 07 04 7B CB 51 96 22 80 C0 00")
# A UID holding a 00 byte: dropping it keeps DCS valid (the postamble is read as the DCS).
ILPT_RSP_ZERO_UID = pn532.encode_response(pn532.CMD_IN_LIST_PASSIVE_TARGET, h("01 01 00 04 08 04 DE 00 BE EF"))
GFV_RSP = h("00 00 FF 06 FA D5 03 32 01 06 07 E8 00")
SAM_RSP = h("00 00 FF 02 FE D5 15 16 00")
SAM_FRAME = Frame(0xD5, h("15"))
ANSWERS = (ILPT_RSP_4, ILPT_RSP_7, ILPT_RSP_ZERO_UID, GFV_RSP)
GARBAGE = h("13 37 FF 55 AA 00 FE")


def drop(data, i, count=1):
    return data[:i] + data[i + count:]


def summary(events):
    """Events as comparable values (error instances compare by identity)."""
    return [("error", e.field) if isinstance(e, PN532FrameError) else e for e in events]


def test_dropped_byte_at_every_position_then_a_good_frame_is_always_decoded():
    for answer in ANSWERS:
        for i in range(len(answer)):
            stream = drop(answer, i) + SAM_RSP
            whole = summary(pn532.Parser().feed(stream))
            eq(whole[-1], SAM_FRAME, "answer %s, byte %d dropped" % (answer.hex(), i))
            eq(summary(feed_bytewise(stream)), whole, "bytewise, byte %d" % i)
            p = pn532.Parser()
            around = summary(p.feed(GARBAGE) + p.feed(stream) + p.feed(GARBAGE))
            eq(around, whole, "garbage around, byte %d" % i)
            eq(p.pending(), 0)


def test_a_dropped_byte_is_named_or_harmless_never_a_silent_wrong_frame():
    # Back to back with the next frame, a dropped byte gives a named error, or the frame intact
    # (a preamble/start-code 00 or the postamble was lost), or -- only for the start code's FF --
    # stray bytes counted in garbage_bytes. The one case a parser cannot see without timing: a lost
    # 00 data byte when the next frame follows at once (DCS holds); alone on the line (as in the
    # HSU dialogue, where the chip then waits) the frame waits for its postamble and expire() names it.
    for answer in ANSWERS:
        body = answer[5:-2]
        for i in range(len(answer)):
            p = pn532.Parser()
            events = p.feed(drop(answer, i) + SAM_RSP)[:-1]
            errors = [e for e in events if isinstance(e, PN532FrameError)]
            frames = [e for e in events if isinstance(e, Frame)]
            if errors:
                assert errors[0].field in ("LCS", "DCS", "LEN"), errors[0].field
                eq(frames, [], "byte %d" % i)
            elif i == 2:
                eq(events, [])
                assert p.garbage_bytes > 0
            elif frames and frames[0].data == body[1:]:
                assert i in (0, 1, len(answer) - 1), i
            else:
                eq(answer[i], 0x00, "only a lost 00 data byte keeps the checksums (byte %d)" % i)
                assert 5 <= i < len(answer) - 2, i
                alone = pn532.Parser()
                eq(alone.feed(drop(answer, i)), [])
                assert alone.pending() > 0
                (error,) = alone.expire()
                eq(error.field, "LEN")
                assert "cut short" in str(error)


def test_answer_alone_with_a_dropped_byte_is_held_then_expired_as_len_error():
    # The card answer is the last thing the chip sends before it waits for the host.
    for answer in ANSWERS:
        for i in range(len(answer)):
            p = pn532.Parser()
            events = p.feed(drop(answer, i)) + p.expire()
            if i in (0, 1):  # a preamble / start-code 00: the frame is whole
                eq(events, [Frame(0xD5, answer[6:-2])])
            elif i == 2:  # the start code's FF: nothing frame-like is left, only stray bytes
                eq(events, [])
                assert p.garbage_bytes > 0
            else:
                assert isinstance(events[0], PN532FrameError), (i, events)
                assert not [e for e in events if isinstance(e, Frame)], (i, events)
            eq(p.pending(), 0)
            eq(p.expire(), [])


def test_runs_of_dropped_bytes_never_eat_the_next_frame():
    # An overrun loses several bytes: LEN then reaches into the next frame. Before resync the
    # parser skipped LEN bytes and lost the next frame (13 of 18 positions for 2 bytes, no preamble).
    nopre = SAM_RSP[1:]
    for count in (2, 3, 5):
        for nxt in (SAM_RSP, nopre):
            for i in range(len(ILPT_RSP_7) - count + 1):
                stream = drop(ILPT_RSP_7, i, count) + nxt
                whole = summary(pn532.Parser().feed(stream))
                eq(whole[-1], SAM_FRAME, "%d bytes dropped at %d" % (count, i))
                eq(summary(feed_bytewise(stream)), whole)


def test_start_code_inside_the_claimed_frame_is_a_len_error_and_resync():
    # The byte example of pn532-hsu.md: the card answer lost 04 08 04 DE AD (an overrun), so
    # LEN 0C reaches into the NACK resend that follows it.
    broken = h("00 00 FF 0C F4 D5 4B 01 01 00 BE EF 96 00")
    p = pn532.Parser()
    events = p.feed(broken + ILPT_RSP_4)
    eq(len(events), 2)
    eq(events[0].field, "LEN")
    assert "start code" in str(events[0])
    eq(events[0].raw, h("00 FF 0C F4 D5 4B 01 01 00 BE EF 96 00 00"))  # up to the next start code
    eq(events[1], Frame(0xD5, ILPT_RSP_4[6:-2]))
    eq(p.pending(), 0)


def test_non_zero_postamble_is_a_len_error():
    # DCS holds (a lost 00 data byte) but the byte after it is not the 00 postamble.
    broken = drop(ILPT_RSP_4, 9)  # the 00 of SENS_RES 00 04
    events = pn532.Parser().feed(broken + h("42") + SAM_RSP)
    eq(summary(events), [("error", "LEN"), SAM_FRAME])
    assert "postamble 0x42" in str(events[0])


def test_frame_waits_for_its_postamble():
    p = pn532.Parser()
    eq(p.feed(SAM_RSP[:-1]), [])
    eq(p.pending(), 7)  # 00 FF 02 FE D5 15 16 (from the start code)
    eq(p.feed(SAM_RSP[-1:]), [SAM_FRAME])
    eq(p.pending(), 0)


def test_expire_rescans_after_the_start_code():
    # A partial frame that hides a complete one: expire names the partial and finds the frame in it.
    partial = h("00 00 FF 20 E0 D5 4B") + SAM_RSP
    p = pn532.Parser()
    eq(p.feed(partial), [])
    events = p.expire()
    eq(summary(events), [("error", "LEN"), SAM_FRAME])
    eq(events[0].raw[:4], h("00 FF 20 E0"))
    eq(p.pending(), 0)


def test_pending_ignores_a_lone_zero():
    p = pn532.Parser()
    eq(p.feed(h("00 00 00")), [])
    eq(p.pending(), 0)  # a lone 00 may start a start code, but it is no frame yet
    eq(p.expire(), [])
    eq(p.feed(SAM_RSP[2:]), [SAM_FRAME])  # and it does: 00 + FF 02 FE ...


def _doc_lost_lines():
    """The 'lost:' byte examples of pn532-hsu.md, as bytes (hex tokens up to the first other token)."""
    with open(check.repo_path("hardware/protocols/pn532-hsu.md")) as f:
        lines = f.read().split("\n")
    out = []
    for text in lines:
        tokens = text.split()
        if not tokens or tokens[0] != "lost:":
            continue
        run = []
        for tok in tokens[1:]:
            if len(tok) != 2 or tok[0] not in "0123456789ABCDEF" or tok[1] not in "0123456789ABCDEF":
                break
            run.append(tok)
        out.append(bytes.fromhex("".join(run)))
    return out


def test_lost_byte_examples_of_pn532_md_behave_as_described():
    lost = _doc_lost_lines()
    eq(len(lost), 4)
    want = [[("error", "LEN")], [("error", "LEN")], [], [("error", "LEN"), Frame(0xD5, ILPT_RSP_4[6:-2])]]
    # The last example ends in '...' after 8 bytes of the resend: its tail is added here.
    lost[3] += ILPT_RSP_4[8:]
    for wire, expected in zip(lost, want):
        p = pn532.Parser()
        got = p.feed(wire) + p.expire()
        eq(summary(got), expected, wire.hex())
        if len(expected) == 1:
            assert "cut short" in str(got[0]), got[0]
    p = pn532.Parser()
    p.feed(lost[2])
    eq(p.garbage_bytes, 14)  # the FF-less answer: stray bytes only (its 14 non-zero bytes)
