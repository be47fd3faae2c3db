# PN532 frame codec for HSU (UART) mode -- proto layer: pure bytes in, events out, no I/O, no clock.
# Implements hardware/protocols/pn532-hsu.md, which follows NXP UM0701-02 (PN532 user manual):
# section 6.2.1 frames (normal, extended, ACK, NACK, error), 7.2.2 GetFirmwareVersion,
# 7.2.10 SAMConfiguration, 7.3.5 InListPassiveTarget. The same parser serves both directions
# (host side reads D5 frames; the simulated chip reads D4 frames).
from felt.errors import FrameError

ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
# UM0701-02 6.2.1.5: the chip's answer to a frame it cannot interpret at application level.
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
# HSU wake-up: the chip sleeps (LowVbat/power-down) until it sees 0x55 on RX, then needs time for
# its oscillator; the zeros fill that time and are ignored as preamble. 0x55 0x55 + 14 x 0x00 is
# the sequence long-standing host stacks send before the first SAMConfiguration.
WAKEUP = b"\x55\x55" + bytes(14)

TFI_HOST = 0xD4  # host controller -> PN532
TFI_PN532 = 0xD5  # PN532 -> host controller
TFI_ERROR = 0x7F  # the single data byte of the error frame

CMD_GET_FIRMWARE_VERSION = 0x02
CMD_SAM_CONFIGURATION = 0x14
CMD_IN_LIST_PASSIVE_TARGET = 0x4A

BRTY_106_TYPE_A = 0x00  # InListPassiveTarget BrTy: 106 kbps ISO/IEC 14443 type A
SAM_NORMAL = 0x01  # SAMConfiguration mode: normal, no SAM

MAX_NORMAL_LEN = 255  # LEN counts TFI + data
MAX_EXTENDED_LEN = 265  # firmware limit of UM0701-02 6.2.1.2 (264 data bytes + TFI)
SEL_RES_ISO14443_4 = 0x20  # SEL_RES bit 6: target speaks ISO/IEC 14443-4, so an ATS follows


class PN532FrameError(FrameError):
    """A broken frame on the wire. `field` names what failed: 'LCS', 'DCS', 'LEN' or 'TFI';
    `raw` holds the bytes judged (from the start code on)."""

    def __init__(self, field, message, raw=b""):
        super().__init__("PN532 %s: %s" % (field, message))
        self.field = field
        self.raw = bytes(raw)


class PN532ResponseError(FrameError):
    """A frame with valid checksums whose content is not the expected answer."""


class Ack:
    kind = "ack"

    def __eq__(self, other):
        return isinstance(other, Ack)

    def __repr__(self):
        return "Ack()"


class Nack:
    kind = "nack"

    def __eq__(self, other):
        return isinstance(other, Nack)

    def __repr__(self):
        return "Nack()"


class ErrorFrame:
    """The chip's application-level syntax error frame (UM0701-02 6.2.1.5)."""

    kind = "error"

    def __eq__(self, other):
        return isinstance(other, ErrorFrame)

    def __repr__(self):
        return "ErrorFrame()"


class Frame:
    """A normal or extended information frame: `tfi` (0xD4/0xD5) and `data` (PD0..PDn, without
    TFI); `command` is PD0, `params` the rest."""

    kind = "frame"

    def __init__(self, tfi, data):
        self.tfi = tfi
        self.data = bytes(data)

    @property
    def command(self):
        return self.data[0] if self.data else None

    @property
    def params(self):
        return self.data[1:]

    def __eq__(self, other):
        return isinstance(other, Frame) and other.tfi == self.tfi and other.data == self.data

    def __repr__(self):
        return "Frame(0x%02X, %s)" % (self.tfi, self.data.hex())


def checksum(data):
    """The byte that makes the low byte of sum(data) + checksum zero (LCS and DCS)."""
    return (-sum(data)) & 0xFF


def encode_frame(data, tfi=TFI_HOST):
    """Wrap PD0..PDn in a frame: normal up to 254 data bytes, extended beyond (UM0701-02 6.2.1)."""
    n = len(data) + 1
    if n > MAX_EXTENDED_LEN:
        raise ValueError("PN532 frame too long: %d > %d bytes" % (n, MAX_EXTENDED_LEN))
    body = bytes([tfi]) + bytes(data)
    if n <= MAX_NORMAL_LEN:
        head = bytes([0x00, 0x00, 0xFF, n, checksum((n,))])
    else:
        hi, lo = n >> 8, n & 0xFF
        head = bytes([0x00, 0x00, 0xFF, 0xFF, 0xFF, hi, lo, checksum((hi, lo))])
    return head + body + bytes([checksum(body), 0x00])


def encode_command(code, params=b""):
    return encode_frame(bytes([code]) + bytes(params), TFI_HOST)


def encode_response(code, params=b""):
    """A chip -> host frame answering command `code` (the response code is code + 1)."""
    return encode_frame(bytes([code + 1]) + bytes(params), TFI_PN532)


def get_firmware_version():
    return encode_command(CMD_GET_FIRMWARE_VERSION)


def sam_configuration(mode=SAM_NORMAL, timeout=0x14, irq=1):
    """Mode 1 = normal (no SAM); timeout in 50 ms units (only used in virtual-card mode)."""
    return encode_command(CMD_SAM_CONFIGURATION, bytes([mode, timeout, irq]))


def in_list_passive_target(max_targets=1, baud=BRTY_106_TYPE_A, initiator_data=b""):
    if max_targets not in (1, 2):
        raise ValueError("InListPassiveTarget MaxTg must be 1 or 2, got %r" % (max_targets,))
    return encode_command(CMD_IN_LIST_PASSIVE_TARGET, bytes([max_targets, baud]) + bytes(initiator_data))


class FirmwareVersion:
    def __init__(self, ic, ver, rev, support):
        self.ic = ic
        self.ver = ver
        self.rev = rev
        self.support = support

    def __eq__(self, other):
        return isinstance(other, FirmwareVersion) and (other.ic, other.ver, other.rev, other.support) == (
            self.ic, self.ver, self.rev, self.support)

    def __repr__(self):
        return "FirmwareVersion(ic=0x%02X, ver=%d, rev=%d, support=0x%02X)" % (self.ic, self.ver, self.rev, self.support)


class TargetA:
    """One 106 kbps type A target of an InListPassiveTarget answer: `tg` (logical number),
    `sens_res` (2 bytes, ATQA as sent), `sel_res` (SAK), `uid` (NFCID1: 4, 7 or 10 bytes),
    `ats` (b"" unless the target speaks ISO/IEC 14443-4)."""

    def __init__(self, tg, sens_res, sel_res, uid, ats=b""):
        self.tg = tg
        self.sens_res = bytes(sens_res)
        self.sel_res = sel_res
        self.uid = bytes(uid)
        self.ats = bytes(ats)

    def __eq__(self, other):
        return isinstance(other, TargetA) and (other.tg, other.sens_res, other.sel_res, other.uid, other.ats) == (
            self.tg, self.sens_res, self.sel_res, self.uid, self.ats)

    def __repr__(self):
        return "TargetA(tg=%d, sens_res=%s, sel_res=0x%02X, uid=%s)" % (
            self.tg, self.sens_res.hex(), self.sel_res, self.uid.hex())


def _expect(frame, code):
    if not isinstance(frame, Frame) or frame.tfi != TFI_PN532:
        raise PN532ResponseError("PN532: expected a D5 response frame, got %r" % (frame,))
    if frame.command != code + 1:
        raise PN532ResponseError("PN532: expected response 0x%02X, got 0x%02X" % (code + 1, frame.command or 0))
    return frame.params


def parse_firmware_version(frame):
    p = _expect(frame, CMD_GET_FIRMWARE_VERSION)
    if len(p) != 4:
        raise PN532ResponseError("PN532 GetFirmwareVersion: 4 bytes expected, got %d" % len(p))
    return FirmwareVersion(p[0], p[1], p[2], p[3])


def parse_sam_configuration(frame):
    p = _expect(frame, CMD_SAM_CONFIGURATION)
    if p:
        raise PN532ResponseError("PN532 SAMConfiguration: no parameters expected, got %d" % len(p))
    return True


def parse_in_list_passive_target(frame):
    """The targets of a 106 kbps type A InListPassiveTarget answer (an empty list: no card)."""
    p = _expect(frame, CMD_IN_LIST_PASSIVE_TARGET)
    if not p:
        raise PN532ResponseError("PN532 InListPassiveTarget: NbTg missing")
    count = p[0]
    if count > 2:
        raise PN532ResponseError("PN532 InListPassiveTarget: NbTg %d > 2" % count)
    targets = []
    i = 1
    for _ in range(count):
        if len(p) < i + 5:
            raise PN532ResponseError("PN532 InListPassiveTarget: target data truncated")
        tg, sel_res, uid_len = p[i], p[i + 3], p[i + 4]
        sens_res = p[i + 1:i + 3]
        if uid_len not in (4, 7, 10):
            raise PN532ResponseError("PN532 InListPassiveTarget: NFCIDLength %d is not 4, 7 or 10" % uid_len)
        i += 5
        uid = p[i:i + uid_len]
        i += uid_len
        if len(uid) != uid_len:
            raise PN532ResponseError("PN532 InListPassiveTarget: NFCID1 truncated")
        ats = b""
        if sel_res & SEL_RES_ISO14443_4:
            # The ATS length byte TL counts itself (ISO/IEC 14443-4), so the ATS field is TL bytes.
            tl = p[i] if i < len(p) else 0
            if tl < 1 or i + tl > len(p):
                raise PN532ResponseError("PN532 InListPassiveTarget: ATS truncated")
            ats = p[i:i + tl]
            i += tl
        targets.append(TargetA(tg, sens_res, sel_res, uid, ats))
    if i != len(p):
        raise PN532ResponseError("PN532 InListPassiveTarget: %d trailing bytes" % (len(p) - i))
    return targets


class Parser:
    """Push parser. feed(bytes) -> list of events, in wire order: Ack(), Nack(), ErrorFrame(),
    Frame(tfi, data), or a PN532FrameError instance for a broken frame (returned, not raised, so
    the frames after it are never lost). Bytes outside frames are skipped: zeros silently (preamble,
    postamble, wake-up filler), anything else counted in `garbage_bytes`.

    Resync: after a bad LCS the length cannot be trusted, so scanning resumes right after the start
    code. A frame is judged only once its postamble byte is in (the chip always sends one 00): when
    DCS fails or the postamble is not 00 and a start code (00 FF) lies where the body/DCS/postamble
    should be, a byte was lost on the wire and LEN over-reached into the next frame -- the broken
    frame is reported (field 'LEN') and scanning resumes at that start code, so the next frame is
    never eaten. Otherwise a bad DCS skips the whole frame (its length was vouched for by LCS).

    A byte dropped from a frame that is the last thing sent (the chip then waits for the host)
    leaves a partial frame in the buffer: pending() says how many bytes, and expire() -- called by
    the driver when the line has been quiet for longer than an inter-byte gap -- reports it as a
    'LEN' error. A dropped 00 data byte keeps DCS valid (the postamble is read as DCS); only the
    missing postamble betrays it, so such a frame is held until its postamble arrives."""

    def __init__(self):
        self._buf = bytearray()
        self.garbage_bytes = 0

    def reset(self):
        self._buf = bytearray()

    def feed(self, data):
        self._buf.extend(data)
        events = []
        while True:
            event = self._next()
            if event is None:
                return events
            events.append(event)

    def _drop(self, n):
        self._buf[0:n] = b""

    def _skip_to_start(self):
        buf = self._buf
        i = buf.find(b"\x00\xff")
        if i < 0:
            # Keep a trailing 0x00: it may be the first half of a start code.
            keep = 1 if buf and buf[-1] == 0 else 0
            self._count_garbage(len(buf) - keep)
            self._drop(len(buf) - keep)
            return False
        self._count_garbage(i)
        self._drop(i)
        return True

    def _count_garbage(self, n):
        buf = self._buf
        for k in range(n):
            if buf[k]:
                self.garbage_bytes += 1

    def _next(self):
        if not self._skip_to_start():
            return None
        buf = self._buf
        if len(buf) < 4:
            return None
        length, lcs = buf[2], buf[3]
        if length == 0x00 and lcs == 0xFF:
            self._drop(4)
            return Ack()
        if length == 0xFF and lcs == 0x00:
            self._drop(4)
            return Nack()
        start = 4
        if length == 0xFF and lcs == 0xFF:
            if len(buf) < 7:
                return None
            hi, lo, lcs = buf[4], buf[5], buf[6]
            if (hi + lo + lcs) & 0xFF:
                return self._reject("LCS", "extended length checksum fails", 7, 2)
            length = (hi << 8) | lo
            start = 7
            if length > MAX_EXTENDED_LEN:
                return self._reject("LEN", "extended length %d > %d" % (length, MAX_EXTENDED_LEN), 7, 2)
        elif (length + lcs) & 0xFF:
            return self._reject("LCS", "LEN 0x%02X + LCS 0x%02X is not 0 mod 256" % (length, lcs), 4, 2)
        if length == 0:
            return self._reject("LEN", "empty frame (no TFI)", 4, 2)
        end = start + length + 1  # data + DCS; buf[end] is the postamble
        if len(buf) <= end:
            return None
        body = buf[start:start + length]
        dcs_ok = not (sum(body) + buf[end - 1]) & 0xFF
        if not dcs_ok or buf[end]:
            return self._broken(start, end, dcs_ok)
        tfi = body[0]
        self._drop(end)
        if length == 1 and tfi == TFI_ERROR:
            return ErrorFrame()
        if tfi not in (TFI_HOST, TFI_PN532):
            return PN532FrameError("TFI", "unknown frame identifier 0x%02X" % tfi, body)
        return Frame(tfi, body[1:])

    def _broken(self, start, end, dcs_ok):
        # A start code inside the claimed frame (up to its postamble) means the frame ended early:
        # a byte was dropped and LEN reached into the next frame. Resume scanning right there.
        cut = self._buf.find(b"\x00\xff", start, end + 1)
        if cut >= 0:
            return self._reject("LEN", "frame shorter than LEN (a byte was lost): a start code at byte %d" % cut,
                                cut, cut)
        if not dcs_ok:
            return self._reject("DCS", "data checksum fails", end, end)
        # DCS held but the postamble is not 00: the frame is not as long as LEN says.
        return self._reject("LEN", "postamble 0x%02X is not 00 (a byte was lost)" % self._buf[end], end + 1, end)

    def pending(self):
        """How many bytes of a begun frame wait for the rest (0 between frames). The buffer holds at
        most a lone 00 (maybe the first half of a start code) or one partial frame from its start code."""
        n = len(self._buf)
        return n if n > 1 else 0

    def expire(self):
        """The line went quiet inside a frame (the caller's inter-byte timeout): report the partial
        frame as a 'LEN' error, then rescan what followed its start code. -> list of events."""
        if not self.pending():
            return []
        raw = bytes(self._buf)
        self._drop(2)
        events = [PN532FrameError("LEN", "frame cut short: %d bytes, then the line went quiet (a byte was lost)"
                                  % len(raw), raw)]
        events.extend(self.feed(b""))
        return events

    def _reject(self, field, message, shown, skip):
        raw = bytes(self._buf[0:shown])
        self._drop(skip)
        return PN532FrameError(field, message, raw)
