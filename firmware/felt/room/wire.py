# Room messages over the FELT1 console (room layer, pure apart from the link it is handed): a Pico
# table has no network, so its signed messages go out as FELT1 `pub SEQ N COUNT "HEX"` lines to the
# bridge on the console port (feltctl bridge), which publishes them and relays the floor's `stored`
# acknowledgement as `puback NAME TAG "SEQS"` (the floor's HMAC, felt.room.ack: the bridge is not
# trusted either); only an authentic one makes the outbox drop a message. Upper-case hex pieces:
# no piece can read as a card ('Ah' needs a lower-case suit) or a tag UID (never 8 or 14 digits),
# so the secrecy guard on the link passes them unchanged (hardware/floor.md sections 4-5).
from felt.room.ack import AckError
from felt.room.outbox import Outbox  # noqa: F401 (the type this sender drains)

PIECE = 176  # hex digits a line (a FELT1 line is at most 240 bytes)
MAX_PIECES = 64  # proto MAX_DECK_LINES: the `line` type of N and COUNT
RESEND_MS = 5000  # a message the floor has not acknowledged by then goes again
WINDOW = 8  # messages sent and not yet acknowledged: a floor that is away gets these again, not the whole outbox
PIECES_A_STEP = 4  # lines written in one loop step (~0.7 KB: the loop stays responsive)
_HEX = "0123456789ABCDEF"


class WireError(ValueError):
    """A message too long for the console, or pieces that do not fit together."""


def pieces(payload):
    """The payload text as upper-case hex pieces of at most PIECE digits (never 8 or 14 long)."""
    raw = payload.encode()
    hexed = "".join([_HEX[b >> 4] + _HEX[b & 15] for b in raw])
    out = [hexed[i:i + PIECE] for i in range(0, len(hexed), PIECE)]
    if len(out) > 1 and len(out[-1]) in (8, 14):
        both = out[-2] + out[-1]
        out[-2:] = [both[:-20], both[-20:]]
    elif len(out) == 1 and len(out[0]) in (8, 14):
        raise WireError("a room message of %d bytes is too short to be one" % len(raw))
    if len(out) > MAX_PIECES:
        raise WireError("a room message of %d bytes needs %d console lines (at most %d)" % (len(raw), len(out),
                                                                                      MAX_PIECES))
    return out


def unhex(hexed):
    if len(hexed) % 2:
        raise WireError("odd hex length")
    try:
        return bytes([int(hexed[i:i + 2], 16) for i in range(0, len(hexed), 2)]).decode()
    except (ValueError, UnicodeError):
        raise WireError("room message pieces are not hex of UTF-8 text")


class ConsoleSender:
    """The Pico side: sends the outbox's messages as `pub` lines over `link` (a ConsoleLink) a few
    lines a step, at most WINDOW unacknowledged at a time, and drops a message when an authentic
    `puback NAME TAG "SEQS"` names it (the floor's `stored` acknowledgement relayed by the bridge,
    checked by acks: an ack.AckCheck with the board's floor keys; None: nothing is dropped). A
    forged, altered or replayed puback is refused: alert(text) (the table's device alert: display,
    log, audit) and the outbox keeps the message. A message not acknowledged within RESEND_MS goes
    again; so does one older than an acknowledged one at once (the floor has a later seq, so this
    one was lost on the way: a gap). As a console filter (__call__) it takes `puback` entries; as
    an after-step hook (step) it sends."""

    def __init__(self, link, outbox, acks=None, alert=None):
        self.link = link
        self.outbox = outbox
        self.acks_check = acks
        self.alert = alert
        self._sending = None  # [seq, pieces, next index]
        self._sent_ms = {}  # seq -> when its last piece went (waiting for puback); None: due again
        self.acks = 0
        self.resent = 0
        self.refused = 0

    def __call__(self, msg):
        if msg.verb != "puback":
            return False
        try:
            if self.acks_check is None:
                raise AckError("refused: stored acknowledgement, but this board has no floor key to check it")
            done = self.acks_check.take(msg.args[0], msg.args[1], msg.text, self.outbox)
        except AckError as e:
            self.refused += 1
            if self.alert is not None:
                self.alert(str(e))
            return True
        sent = self._sent_ms
        top = 0
        for seq in done:
            if seq in sent:
                del sent[seq]
            if seq > top:
                top = seq
        for s in list(sent):
            if s < top:
                sent[s] = None  # the floor has a later one: this one was lost, send it now
        self.acks += 1
        return True  # nothing to answer: the bridge waits for nothing

    def step(self, now_ms):
        budget = PIECES_A_STEP
        while budget > 0:
            if self._sending is None and not self._next(now_ms):
                return
            seq, parts, i = self._sending
            self.link.send("pub", (seq, i + 1, len(parts)), None, parts[i])
            budget -= 1
            if i + 1 == len(parts):
                self._sent_ms[seq] = now_ms
                self._sending = None
            else:
                self._sending[2] = i + 1

    def _next(self, now_ms):
        sent = self._sent_ms
        for seq, _kind in self.outbox.waiting():
            if seq in sent:
                at = sent[seq]
                if at is not None and now_ms - at < RESEND_MS:
                    continue
                self.resent += 1
            elif len(sent) >= WINDOW:
                return False  # oldest first: everything after this one is new too
            try:
                self._sending = [seq, pieces(self.outbox.payload(seq)), 0]
            except WireError:
                self.outbox.ack(seq)  # cannot travel this way; the floor sees the seq gap
                continue
            return True
        return False


class Reassembler:
    """The bridge side: feed(message) with each FELT1 `pub` Message; returns (seq, payload text)
    once a message is complete, else None. A piece out of order restarts that message."""

    def __init__(self):
        self._parts = {}  # seq -> [pieces so far]

    def feed(self, msg):
        seq, n, count = msg.args[0], msg.args[1], msg.args[2]
        got = self._parts.get(seq)
        if n == 1:
            got = self._parts[seq] = []
        elif got is None or len(got) != n - 1:
            if seq in self._parts:
                del self._parts[seq]
            return None
        got.append(msg.text)
        if n < count:
            return None
        del self._parts[seq]
        return seq, unhex("".join(got))
