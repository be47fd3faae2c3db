# Plain ASCII serial RFID reader codec -- proto layer: pure bytes in, events out, no I/O.
# One hex UID per line, as common serial 13.56 MHz readers print it. What is accepted is written
# down in hardware/protocols/ascii-reader.md:
#   [STX] [UID: | UID=] HEX [ETX] (CR | LF | CRLF | ETX)
# HEX is 8, 14 or 20 hex digits (4, 7 or 10 byte UID), either case, optionally with one ' ', ':'
# or '-' between byte pairs. Empty lines are skipped. A bad line yields an AsciiLineError event
# and the parser carries on with the next line.
from felt.errors import FrameError

STX = 0x02
ETX = 0x03
CR = 0x0D
LF = 0x0A
MAX_LINE = 64  # longer than any accepted form; a longer line is noise
UID_LENGTHS = (4, 7, 10)
_HEX = "0123456789abcdefABCDEF"


class AsciiLineError(FrameError):
    """A line that is not a UID. `reason`: 'too_long', 'not_ascii', 'not_hex', 'odd_digits',
    'uid_length' or 'separator'; `line` holds the raw bytes (without the line end)."""

    def __init__(self, reason, message, line=b""):
        super().__init__("ASCII reader %s: %s" % (reason, message))
        self.reason = reason
        self.line = bytes(line)


class TagLine:
    """A UID read by the reader (`uid` as bytes)."""

    kind = "uid"

    def __init__(self, uid):
        self.uid = bytes(uid)

    def __eq__(self, other):
        return isinstance(other, TagLine) and other.uid == self.uid

    def __repr__(self):
        return "TagLine(%s)" % self.uid.hex()


def encode_line(uid, ending=b"\r\n", framed=False, separator=""):
    """The line a reader prints for `uid` (used by the simulated reader)."""
    text = separator.join("%02X" % b for b in bytes(uid))
    body = text.encode()
    if framed:
        return bytes([STX]) + body + bytes([ETX]) + ending
    return body + ending


def parse_line(raw):
    """One line (no line end) -> TagLine, None for an empty line; raises AsciiLineError."""
    raw = bytes(raw)
    if raw and raw[0] == STX:
        raw = raw[1:]
    if raw and raw[-1] == ETX:
        raw = raw[:-1]
    for b in raw:
        if b < 0x20 or b > 0x7E:
            raise AsciiLineError("not_ascii", "byte 0x%02X in line" % b, raw)
    text = raw.decode().strip()
    if not text:
        return None
    head = text[:4].upper()
    if head in ("UID:", "UID="):
        text = text[4:].strip()
    sep = ""
    for s in (" ", ":", "-"):
        if s in text:
            sep = s
            break
    if sep:
        pairs = text.split(sep)
        for p in pairs:
            if len(p) != 2:
                raise AsciiLineError("separator", "bytes must be 2 hex digits each: %r" % text, raw)
        text = "".join(pairs)
    for c in text:
        if c not in _HEX:
            raise AsciiLineError("not_hex", "%r is not a hex digit" % c, raw)
    if len(text) % 2:
        raise AsciiLineError("odd_digits", "%d hex digits" % len(text), raw)
    uid = bytes(int(text[i:i + 2], 16) for i in range(0, len(text), 2))
    if len(uid) not in UID_LENGTHS:
        raise AsciiLineError("uid_length", "%d-byte UID (4, 7 or 10 expected)" % len(uid), raw)
    return TagLine(uid)


class Parser:
    """Push parser: feed(bytes) -> [TagLine | AsciiLineError], in order. CR, LF and ETX end a
    line (so CRLF, LFCR and STX..ETX CRLF give one line, the empty remainder being skipped).
    An STX starts a fresh line (bytes before it are counted in `garbage_bytes`). An over-long
    line is reported once and skipped up to the next line end."""

    def __init__(self):
        self._line = bytearray()
        self._overflow = False
        self.lines = 0
        self.garbage_bytes = 0

    def feed(self, data):
        events = []
        for b in data:
            if b == CR or b == LF or b == ETX:
                if b == ETX:
                    self._line.append(b)
                self._end_line(events)
            elif b == STX:
                # A frame start resynchronises mid-line: what came before it was noise.
                self.garbage_bytes += len(self._line)
                self._line = bytearray([STX])
                self._overflow = False
            elif self._overflow:
                continue
            elif len(self._line) >= MAX_LINE:
                self._overflow = True
                events.append(AsciiLineError("too_long", "line longer than %d bytes" % MAX_LINE, self._line))
                self._line = bytearray()
            else:
                self._line.append(b)
        return events

    def _end_line(self, events):
        if self._overflow:
            self._overflow = False
            self._line = bytearray()
            return
        line, self._line = self._line, bytearray()
        try:
            event = parse_line(line)
        except AsciiLineError as e:
            events.append(e)
            self.lines += 1
            return
        if event is not None:
            self.lines += 1
            events.append(event)
