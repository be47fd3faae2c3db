# PN532 HSU codec (felt.proto.pn532): datasheet byte strings (NXP UM0701-02) encoded exactly and
# parsed back -- every sample fed whole, one byte at a time, and with garbage around it.
import check
from check import eq, raises

from felt.errors import FrameError
from felt.proto import pn532
from felt.proto.pn532 import Ack, ErrorFrame, Frame, Nack, PN532FrameError, PN532ResponseError, TargetA
from kit import feed_bytewise


def h(text):
    return bytes.fromhex(text.replace(" ", ""))


# UM0701-02 6.2.1.3 / 6.2.1.4 / 6.2.1.5
ACK = h("00 00 FF 00 FF 00")
NACK = h("00 00 FF FF 00 00")
ERROR = h("00 00 FF 01 FF 7F 81 00")
# GetFirmwareVersion (UM0701-02 7.2.2): command, and the answer of a PN532 v1.6
# (IC 0x32, Ver 1, Rev 6, Support 0x07 = ISO 14443A + 14443B + ISO 18092).
GFV_CMD = h("00 00 FF 02 FE D4 02 2A 00")
GFV_RSP = h("00 00 FF 06 FA D5 03 32 01 06 07 E8 00")
# SAMConfiguration normal mode, timeout 0x14 (1 s), IRQ used (UM0701-02 7.2.10), and its answer.
SAM_CMD = h("00 00 FF 05 FB D4 14 01 14 01 02 00")
SAM_RSP = h("00 00 FF 02 FE D5 15 16 00")
# InListPassiveTarget, MaxTg 1, 106 kbps type A (UM0701-02 7.3.5).
ILPT_CMD = h("00 00 FF 04 FC D4 4A 01 00 E1 00")
# Answers: a MIFARE Classic 1K (SENS_RES 00 04, SEL_RES 08, 4-byte UID), a MIFARE Ultralight
# (SENS_RES 00 44, SEL_RES 00, 7-byte UID) and "no target" (NbTg 0).
ILPT_RSP_4 = h("00 00 FF 0C F4 D5 4B 01 01 00 04 08 04 DE AD BE EF 96 00")
ILPT_RSP_7 = h("00 00 FF 0F F1 D5 4B 01 01 00 44 00 07 04 7B CB 51 96 22 80 C0 00")
ILPT_RSP_NONE = h("00 00 FF 03 FD D5 4B 00 E0 00")


def feed_whole(data):
    return pn532.Parser().feed(data)


def feed_all_ways(data, want):
    """The parser gives `want` fed whole, byte by byte, and wrapped in garbage."""
    eq(feed_whole(data), want, "whole")
    eq(feed_bytewise(data), want, "bytewise")
    p = pn532.Parser()
    garbage = h("13 37 FF 55 AA 00 FE")
    got = p.feed(garbage) + p.feed(data) + p.feed(garbage)
    eq(got, want, "garbage around")
    eq(p.garbage_bytes, 12, "garbage counted (non-zero bytes only)")


def test_checksums_satisfy_the_manual_relations():
    for frame in (GFV_CMD, GFV_RSP, SAM_CMD, SAM_RSP, ILPT_CMD, ILPT_RSP_4, ILPT_RSP_7, ILPT_RSP_NONE):
        length, lcs = frame[3], frame[4]
        eq((length + lcs) & 0xFF, 0, "LEN + LCS")
        eq((sum(frame[5:5 + length]) + frame[5 + length]) & 0xFF, 0, "TFI + data + DCS")
        eq(len(frame), 5 + length + 2)


def test_encode_commands_match_datasheet_bytes():
    eq(pn532.get_firmware_version(), GFV_CMD)
    eq(pn532.sam_configuration(), SAM_CMD)
    eq(pn532.in_list_passive_target(), ILPT_CMD)
    eq(pn532.encode_response(pn532.CMD_GET_FIRMWARE_VERSION, h("32 01 06 07")), GFV_RSP)
    eq(pn532.encode_response(pn532.CMD_SAM_CONFIGURATION), SAM_RSP)


def test_wakeup_sequence_is_55_55_then_zeros():
    eq(pn532.WAKEUP[:2], b"\x55\x55")
    eq(pn532.WAKEUP[2:], bytes(len(pn532.WAKEUP) - 2))
    # The zeros are preamble filler: a frame right after the wake-up parses unharmed.
    p = pn532.Parser()
    eq(p.feed(pn532.WAKEUP + SAM_CMD), [Frame(0xD4, h("14 01 14 01"))])
    eq(p.garbage_bytes, 2)  # the two 0x55 bytes


def test_ack_nack_error_frames():
    feed_all_ways(ACK, [Ack()])
    feed_all_ways(NACK, [Nack()])
    feed_all_ways(ERROR, [ErrorFrame()])


def test_information_frames_parse_both_directions():
    feed_all_ways(GFV_CMD, [Frame(0xD4, h("02"))])
    feed_all_ways(GFV_RSP, [Frame(0xD5, h("03 32 01 06 07"))])
    feed_all_ways(ACK + SAM_RSP, [Ack(), Frame(0xD5, h("15"))])


def test_firmware_version_response():
    (frame,) = feed_whole(GFV_RSP)
    v = pn532.parse_firmware_version(frame)
    eq((v.ic, v.ver, v.rev, v.support), (0x32, 1, 6, 7))


def test_sam_configuration_response():
    (frame,) = feed_whole(SAM_RSP)
    eq(pn532.parse_sam_configuration(frame), True)


def test_in_list_passive_target_4_byte_uid():
    (frame,) = feed_bytewise(ILPT_RSP_4)
    (t,) = pn532.parse_in_list_passive_target(frame)
    eq(t, TargetA(1, h("00 04"), 0x08, h("DE AD BE EF")))
    eq(t.uid, h("DEADBEEF"))


def test_in_list_passive_target_7_byte_uid():
    (frame,) = feed_whole(ILPT_RSP_7)
    (t,) = pn532.parse_in_list_passive_target(frame)
    eq((t.tg, t.sens_res, t.sel_res, t.uid, t.ats), (1, h("00 44"), 0x00, h("04 7B CB 51 96 22 80"), b""))


def test_in_list_passive_target_no_card():
    (frame,) = feed_whole(ILPT_RSP_NONE)
    eq(pn532.parse_in_list_passive_target(frame), [])


def test_in_list_passive_target_with_ats_and_two_targets():
    # Target 1 speaks ISO 14443-4 (SEL_RES 0x20): its ATS (TL counts itself) follows the UID.
    params = h("02 01 03 44 20 07 01 02 03 04 05 06 07 05 78 80 70 02 02 00 04 08 04 0A 0B 0C 0D")
    frame = Frame(0xD5, bytes([0x4B]) + params)
    targets = pn532.parse_in_list_passive_target(frame)
    eq(len(targets), 2)
    eq(targets[0].ats, h("05 78 80 70 02"))
    eq(targets[1], TargetA(2, h("00 04"), 0x08, h("0A0B0C0D")))


def test_in_list_passive_target_rejects_bad_content():
    for params, why in (
        (h("01 01 00 04 08 05 01 02 03 04 05"), "not 4, 7 or 10"),
        (h("01 01 00 04 08 07 01 02 03"), "truncated"),
        (h("01 01 00 04 08 04 01 02 03 04 99"), "trailing"),
        (h(""), "NbTg missing"),
        (h("03"), "NbTg 3"),
    ):
        with raises(PN532ResponseError, match=why):
            pn532.parse_in_list_passive_target(Frame(0xD5, bytes([0x4B]) + params))
    with raises(PN532ResponseError, match="expected response 0x4B"):
        pn532.parse_in_list_passive_target(Frame(0xD5, h("03 32 01 06 07")))
    with raises(PN532ResponseError, match="D5 response"):
        pn532.parse_in_list_passive_target(Frame(0xD4, h("4B 00")))
    with raises(FrameError):  # a response error is a FrameError too
        pn532.parse_firmware_version(Frame(0xD5, h("03 32")))


def test_bad_lcs_is_named_and_following_frame_survives():
    bad = bytearray(GFV_RSP)
    bad[4] ^= 0x01
    for got in (feed_whole(bytes(bad) + SAM_RSP), feed_bytewise(bytes(bad) + SAM_RSP)):
        eq(len(got), 2)
        assert isinstance(got[0], PN532FrameError) and isinstance(got[0], FrameError)
        eq(got[0].field, "LCS")
        eq(got[1], Frame(0xD5, h("15")))


def test_bad_dcs_is_named_and_following_frames_survive():
    bad = bytearray(ILPT_RSP_4)
    bad[-2] ^= 0xFF
    stream = ACK + bytes(bad) + ILPT_RSP_7 + ACK
    for got in (feed_whole(stream), feed_bytewise(stream)):
        eq([e.kind if hasattr(e, "kind") else e.field for e in got], ["ack", "DCS", "frame", "ack"])
        eq(pn532.parse_in_list_passive_target(got[2])[0].uid, h("04 7B CB 51 96 22 80"))


def test_corrupted_data_byte_fails_dcs():
    bad = bytearray(GFV_RSP)
    bad[7] ^= 0x10
    (err,) = feed_whole(bytes(bad))
    eq(err.field, "DCS")
    assert "data checksum" in str(err)


def test_unknown_tfi_and_empty_frame_are_named():
    (err,) = feed_whole(h("00 00 FF 02 FE 11 02 ED 00"))
    eq(err.field, "TFI")
    got = feed_whole(h("00 00 FF 00 00") + ACK)
    eq(got[0].field, "LEN")
    eq(got[1], Ack())


def test_extended_frame_round_trip():
    data = bytes(range(256)) + b"\x01\x02\x03"  # 259 data bytes + TFI = 260 > 255
    wire = pn532.encode_frame(data, pn532.TFI_PN532)
    eq(wire[:8], h("00 00 FF FF FF 01 04") + bytes([(-(1 + 4)) & 0xFF]))
    feed_all_ways(wire, [Frame(0xD5, data)])
    with raises(ValueError):
        pn532.encode_frame(bytes(300))
    # Extended length checksum broken -> named, and the next frame still parses.
    bad = bytearray(wire)
    bad[7] ^= 1
    got = feed_whole(bytes(bad) + ACK)
    eq(got[0].field, "LCS")
    eq(got[-1], Ack())


def test_short_frame_encoding_uses_normal_frame():
    wire = pn532.encode_frame(bytes(254))  # 254 + TFI = 255: still a normal frame
    eq(wire[3:5], h("FF 01"))
    feed_all_ways(wire, [Frame(0xD4, bytes(254))])


def test_garbage_with_fake_start_code_does_not_swallow_frames():
    # "00 FF 07 12" looks like a start code with a bad LCS; the real ACK right behind must survive.
    got = feed_whole(h("00 FF 07 12") + ACK + GFV_RSP)
    eq(got[0].field, "LCS")
    eq(got[1:], [Ack(), Frame(0xD5, h("03 32 01 06 07"))])


def test_parser_buffer_stays_small_on_noise():
    p = pn532.Parser()
    for _ in range(50):
        eq(p.feed(b"\x12\x34\x56\x78" * 8), [])
    assert len(p._buf) <= 1
    eq(p.garbage_bytes, 50 * 32)


def test_in_list_passive_target_argument_checks():
    eq(pn532.in_list_passive_target(2), h("00 00 FF 04 FC D4 4A 02 00 E0 00"))
    with raises(ValueError):
        pn532.in_list_passive_target(3)


def _doc_hex_lines(name):
    """Leading runs of hex byte tokens of the lines in a protocol note (the byte-level examples)."""
    with open(check.repo_path("hardware/protocols/" + name)) as f:
        lines = f.read().split("\n")
    out = []
    for text in lines:
        tokens = text.split()
        run = []
        for tok in tokens:
            if len(tok) == 2 and tok[0] in "0123456789ABCDEF" and tok[1] in "0123456789ABCDEF":
                run.append(tok)
            else:
                break
        if len(run) >= 6 and (len(run) == len(tokens) or tokens[len(run)] != "..."):
            out.append(bytes.fromhex("".join(run)))
    return out


def test_every_frame_quoted_in_pn532_md_parses_cleanly():
    frames = [b for b in _doc_hex_lines("pn532-hsu.md") if b[:3] == b"\x00\x00\xff"]
    assert len(frames) >= 12, len(frames)
    for wire in frames:
        got = feed_whole(wire)
        eq(len(got), 1, wire.hex())
        assert not isinstance(got[0], FrameError), (wire.hex(), got)
