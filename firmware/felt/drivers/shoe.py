# Dealing-shoe reader driver -- drivers layer: owns an injected UART-like object (read(n), write(b),
# any()) and a codec (PN532 HSU or plain ASCII lines); poll(now_ms) -> events. Knows nothing of
# poker: it reports tag UIDs in the order they were read, plus reader health. No sleeps and no time
# module -- every deadline is measured against the now_ms passed in.
# Implements hardware/protocols/pn532-hsu.md ("Driver dialogue") and ascii-reader.md.
from felt.proto import pn532  # the ASCII codec is loaded only by a table with an ASCII reader

CARD = "card"  # a tag was read: uid, repeat (same UID as the previous read within repeat_window_ms)
READY = "reader_ready"  # PN532 initialised; detail = FirmwareVersion
STOPPED = "reader_stopped"  # nothing valid heard for stopped_after_ms; detail = silent ms
RECOVERED = "reader_recovered"  # valid traffic again after STOPPED
FAULT = "reader_fault"  # a bad frame/line or an unexpected answer; detail = the error text
# FAULT reason of an answer that stayed broken through max_nacks NACKs (or whose resend never came):
# a card that left the shoe may be unreported, so the table must count it from the antennas.
LOST_RESPONSE = "lost_response"


class ShoeEvent:
    """kind is one of CARD, READY, STOPPED, RECOVERED, FAULT; at_ms is the poll time it was seen;
    reason names a FAULT's cause when it matters to the caller (LOST_RESPONSE), else None."""

    def __init__(self, kind, at_ms, uid=None, repeat=False, detail=None, reason=None):
        self.kind = kind
        self.at_ms = at_ms
        self.uid = uid
        self.repeat = repeat
        self.detail = detail
        self.reason = reason

    def __repr__(self):
        if self.kind == CARD:
            return "ShoeEvent(card %s%s @%d)" % (self.uid.hex(), " repeat" if self.repeat else "", self.at_ms)
        return "ShoeEvent(%s %r @%d)" % (self.kind, self.detail, self.at_ms)


class ShoeConfig:
    """Timing in milliseconds. ack_timeout_ms: a command must be ACKed within it; response_timeout_ms:
    answer to SAMConfiguration/GetFirmwareVersion; poll_window_ms: how long one InListPassiveTarget
    may wait for a card before it is aborted (with an ACK) and re-issued, which also proves the chip
    is alive; retry_ms: pause before re-initialising after a timeout; stopped_after_ms: silence
    that raises STOPPED; repeat_window_ms: a UID equal to the previous one within this window is
    flagged repeat=True (a lingering card or a tag read twice; the controller decides).
    max_nacks: how many times a broken answer is asked for again before it is given up as lost.
    baud / inter_byte_ms: a partial frame (or stray bytes while an answer is due) with no new byte
    for inter_byte_ms is a broken answer -- the chip sends a frame back to back, so a gap that long
    means bytes were lost. Default: 32 character times at `baud`, plus 1 ms for the poll clock."""

    def __init__(self, ack_timeout_ms=50, response_timeout_ms=200, poll_window_ms=500, retry_ms=200,
                 stopped_after_ms=2000, repeat_window_ms=1500, max_nacks=3, baud=115200, inter_byte_ms=None):
        self.ack_timeout_ms = ack_timeout_ms
        self.response_timeout_ms = response_timeout_ms
        self.poll_window_ms = poll_window_ms
        self.retry_ms = retry_ms
        self.stopped_after_ms = stopped_after_ms
        self.repeat_window_ms = repeat_window_ms
        self.max_nacks = max_nacks
        self.baud = baud
        if inter_byte_ms is None:
            inter_byte_ms = 1 + (32 * 10 * 1000 + baud - 1) // baud  # 10 bits a character (8N1)
        self.inter_byte_ms = inter_byte_ms


class ShoeHealth:
    """Counters shown by `feltctl info` and used for the degraded/stopped alerts."""

    def __init__(self):
        self.reads = 0
        self.repeats = 0
        self.frame_errors = 0  # bad LCS/DCS/TFI/LEN (lost bytes), bad ASCII lines
        self.nacks = 0  # NACKs sent to have a broken answer sent again
        self.lost_responses = 0  # answers given up after max_nacks (FAULT reason LOST_RESPONSE)
        self.resends_dropped = 0  # a resend of an answer already taken, not reported twice
        self.chip_errors = 0  # PN532 syntax-error frames, unexpected answers
        self.timeouts = 0
        self.empty_polls = 0
        self.garbage_bytes = 0
        self.last_seen_ms = None  # last valid frame/line from the reader
        self.last_read_ms = None
        self.stopped = False
        self.firmware = None

    def as_dict(self):
        return {
            "reads": self.reads, "repeats": self.repeats, "frame_errors": self.frame_errors,
            "chip_errors": self.chip_errors, "timeouts": self.timeouts, "empty_polls": self.empty_polls,
            "garbage_bytes": self.garbage_bytes, "nacks": self.nacks, "lost_responses": self.lost_responses,
            "resends_dropped": self.resends_dropped, "last_seen_ms": self.last_seen_ms,
            "last_read_ms": self.last_read_ms, "stopped": self.stopped,
        }


_NONE = []  # what a poll without events returns: shared, never appended to (issue 20 item 4)


def _elapsed(now_ms, then_ms):
    # Plain subtraction: callers pass a monotonic count (ticks_diff is the loop's concern).
    return now_ms - then_ms


class _ShoeBase:
    def __init__(self, uart, config=None, log=None):
        self.uart = uart
        self.config = config or ShoeConfig()
        self.health = ShoeHealth()
        self.log = log  # optional callable(str): the log sink
        self._events = []
        self._last_uid = None
        self._started_ms = None

    def _read_available(self):
        n = self.uart.any()
        if not n:
            return b""
        return self.uart.read(n) or b""

    def _emit(self, kind, now_ms, uid=None, repeat=False, detail=None, reason=None):
        event = ShoeEvent(kind, now_ms, uid, repeat, detail, reason)
        self._events.append(event)
        if self.log is not None and kind != CARD:
            self.log("shoe: %s %s" % (kind, event.detail))

    def _card(self, uid, now_ms):
        h = self.health
        repeat = (uid == self._last_uid and h.last_read_ms is not None
                  and _elapsed(now_ms, h.last_read_ms) <= self.config.repeat_window_ms)
        h.reads += 1
        if repeat:
            h.repeats += 1
        h.last_read_ms = now_ms
        self._last_uid = uid
        self._emit(CARD, now_ms, uid=uid, repeat=repeat)

    def _fault(self, now_ms, error, chip=False):
        if chip:
            self.health.chip_errors += 1
        else:
            self.health.frame_errors += 1
        self._emit(FAULT, now_ms, detail=str(error))

    def _heard(self, now_ms):
        self._timeouts_in_row = 0
        h = self.health
        h.last_seen_ms = now_ms
        if h.stopped:
            h.stopped = False
            self._emit(RECOVERED, now_ms)

    def _check_silence(self, now_ms):
        h = self.health
        since = h.last_seen_ms if h.last_seen_ms is not None else self._started_ms
        if since is None or h.stopped:
            return
        silent = _elapsed(now_ms, since)
        if silent >= self.config.stopped_after_ms:
            h.stopped = True
            self._emit(STOPPED, now_ms, detail=silent)

    def _take_events(self):
        events = self._events
        if not events:
            return _NONE  # the steady poll allocates nothing
        self._events = []
        return events


# PN532 dialogue states
_WAKE = 0  # send wake-up + SAMConfiguration
_WAIT_ACK = 1
_WAIT_RESPONSE = 2
_IDLE = 3  # waiting out retry_ms before re-initialising


class PN532Shoe(_ShoeBase):
    """Wake-up, SAMConfiguration, GetFirmwareVersion, then InListPassiveTarget (one card, 106 kbps
    type A) over and over. A missing ACK or response is a timeout and the chip is re-initialised
    after retry_ms. STOPPED is raised once when nothing valid was heard for stopped_after_ms;
    RECOVERED follows the first valid frame after that.

    A broken answer is asked for again with a NACK (UM0701-02 6.2.1.4: the chip resends its last
    response): bad LCS/DCS, a frame shorter than its LEN, a partial frame or stray bytes with no new
    byte for inter_byte_ms (a lost byte: the chip sends a frame back to back), or an answer whose
    content does not parse (a lost 00 data byte keeps DCS valid). After max_nacks NACKs, or when
    the resend never comes, the answer is given up: FAULT with reason LOST_RESPONSE and
    health.lost_responses -- never a silent loss. A resend equal to the card answer already taken
    (our NACK reached the chip before its new answer) is dropped: a card is never reported twice."""

    def __init__(self, uart, config=None, log=None):
        _ShoeBase.__init__(self, uart, config, log)
        self._parser = pn532.Parser()
        self._state = _WAKE
        self._command = None
        self._deadline_ms = 0
        self._nacks = 0
        self._timeouts_in_row = 0
        self._aborted = False  # an aborted poll's answer may still be on the wire (before the next ACK)
        self._rx_ms = 0  # poll time of the last byte received
        self._noise_mark = 0  # parser.garbage_bytes when the last command or NACK was written
        self._last_answer = None  # data of the last card answer taken (to spot its resend)
        self._poll_wire = None  # the InListPassiveTarget frame (_poll_card)
        self.ready = False

    def poll(self, now_ms):
        if self._started_ms is None:
            self._started_ms = now_ms
        # A few rounds per call: the chip may answer within the same call (in-process sim or a
        # fast UART) and one call should carry a read through to the next command.
        for _ in range(8):
            if not self._round(now_ms):
                break
        self._check_silence(now_ms)
        return self._take_events()

    # Small methods on purpose: a MicroPython frame above 11 words is allocated on the heap at
    # every call, and the quiet poll runs every few milliseconds (issue 20 item 4).
    def _round(self, now_ms):
        """One read of the line and the deadlines; True when another round is worth it."""
        data = self._read_available()
        nacked = False
        if data:
            self._take_bytes(data, now_ms)
        else:
            nacked = self._check_gap(now_ms)
        self.health.garbage_bytes = self._parser.garbage_bytes
        return self._step(now_ms) or data or nacked

    def _take_bytes(self, data, now_ms):
        self._rx_ms = now_ms
        for event in self._parser.feed(data):
            self._on_wire(event, now_ms)

    # -- sending ------------------------------------------------------------------------------
    def _send(self, command, wire, now_ms, prefix=b""):
        self.uart.write(prefix + wire if prefix else wire)
        self._command = command
        self._state = _WAIT_ACK
        self._deadline_ms = now_ms + self.config.ack_timeout_ms
        self._nacks = 0
        self._noise_mark = self._parser.garbage_bytes

    def _start(self, now_ms):
        self.ready = False
        self._aborted = False
        self._parser.reset()
        self._send(pn532.CMD_SAM_CONFIGURATION, pn532.sam_configuration(), now_ms, prefix=pn532.WAKEUP)

    def _poll_card(self, now_ms):
        # the same frame every time (one card, 106 kbps type A): made once, not per window
        wire = self._poll_wire
        if wire is None:
            wire = self._poll_wire = pn532.in_list_passive_target(1)
        self._send(pn532.CMD_IN_LIST_PASSIVE_TARGET, wire, now_ms)

    def _step(self, now_ms):
        """Deadlines and pending sends; True when something was written (worth another round)."""
        state = self._state
        if state == _WAKE:
            self._start(now_ms)
            return True
        if state == _IDLE:
            if _elapsed(now_ms, self._deadline_ms) >= 0:
                self._state = _WAKE
                return self._step(now_ms)
            return False
        if _elapsed(now_ms, self._deadline_ms) < 0:
            return False
        if state == _WAIT_RESPONSE and self._nacks:
            # The chip answered (broken) and the resend we asked for never came: not an empty poll.
            self._give_up(now_ms, "no resend within %d ms of NACK %d" % (self.config.response_timeout_ms, self._nacks))
            return False
        if state == _WAIT_RESPONSE and self._command == pn532.CMD_IN_LIST_PASSIVE_TARGET:
            # No card in the window: abort the pending command and ask again (healthy, not a fault).
            self.health.empty_polls += 1
            self.uart.write(pn532.ACK)
            self._poll_card(now_ms)
            self._aborted = True
            return True
        self.health.timeouts += 1
        self._timeouts_in_row += 1
        if self._timeouts_in_row == 1:  # the first of a run is reported; the rest are only counted
            self._emit(FAULT, now_ms, detail="timeout waiting for %s to 0x%02X" % (
                "ACK" if state == _WAIT_ACK else "response", self._command))
        self._state = _IDLE
        self._deadline_ms = now_ms + self.config.retry_ms
        return False

    # -- broken answers -----------------------------------------------------------------------
    def _check_gap(self, now_ms):
        """No new byte this round. A partial frame, or stray bytes where the answer was due, that
        stayed so for inter_byte_ms is a broken answer (a byte was lost). True when a NACK was written."""
        if _elapsed(now_ms, self._rx_ms) < self.config.inter_byte_ms:
            return False
        if not self._parser.pending() and (self._state != _WAIT_RESPONSE
                                           or self._parser.garbage_bytes == self._noise_mark):
            return False  # a quiet line: nothing partial, no stray bytes
        return self._gap(now_ms)

    def _gap(self, now_ms):
        parser = self._parser
        before = self.health.nacks
        if parser.pending():
            for event in parser.expire():
                self._on_wire(event, now_ms)
        elif self._state == _WAIT_RESPONSE and parser.garbage_bytes != self._noise_mark:
            # Only stray bytes: the answer's start code itself was hit (e.g. its FF dropped).
            self._broken(now_ms, "%d stray bytes where the answer to 0x%02X was due" % (
                parser.garbage_bytes - self._noise_mark, self._command or 0))
        return self.health.nacks != before

    def _broken(self, now_ms, error):
        self._fault(now_ms, error)
        self._noise_mark = self._parser.garbage_bytes
        if self._state != _WAIT_RESPONSE:
            return  # not an answer we wait for: the ACK deadline decides
        if self._nacks < self.config.max_nacks:
            self._nacks += 1
            self.health.nacks += 1
            self.uart.write(pn532.NACK)  # ask for the response again (UM0701-02 6.2.1.4)
            self._deadline_ms = now_ms + self.config.response_timeout_ms
            return
        self._give_up(now_ms, "still broken after %d NACKs" % self._nacks)

    def _give_up(self, now_ms, why):
        self.health.lost_responses += 1
        if self._command == pn532.CMD_IN_LIST_PASSIVE_TARGET:
            self._emit(FAULT, now_ms, detail="card answer lost (%s): a card may have left the shoe unreported" % why,
                       reason=LOST_RESPONSE)
        else:
            self._emit(FAULT, now_ms, detail="answer to 0x%02X lost (%s)" % (self._command or 0, why))
        self._state = _IDLE  # re-initialise after retry_ms, as after a timeout
        self._deadline_ms = now_ms + self.config.retry_ms

    # -- receiving ----------------------------------------------------------------------------
    def _on_wire(self, event, now_ms):
        if isinstance(event, pn532.PN532FrameError):
            self._broken(now_ms, event)
            return
        kind = event.kind
        if kind == "ack":
            self._heard(now_ms)
            self._aborted = False  # the chip has taken the next command: no older answer follows
            if self._state == _WAIT_ACK:
                self._state = _WAIT_RESPONSE
                window = self.config.poll_window_ms if self._command == pn532.CMD_IN_LIST_PASSIVE_TARGET \
                    else self.config.response_timeout_ms
                self._deadline_ms = now_ms + window
            return
        if kind == "error":
            self._heard(now_ms)
            self._fault(now_ms, "PN532 answered with a syntax-error frame to 0x%02X" % (self._command or 0), chip=True)
            self._state = _IDLE
            self._deadline_ms = now_ms + self.config.retry_ms
            return
        if self._aborted and kind == "frame" and event.tfi == pn532.TFI_PN532 \
                and event.command == pn532.CMD_IN_LIST_PASSIVE_TARGET + 1:
            # The card answer crossed our abort ACK on the wire (an ACK after the chip has answered
            # aborts nothing): the tag was read and has left the field, so report it.
            self._aborted = False
            self._heard(now_ms)
            try:
                self._take_cards(event, now_ms)
            except pn532.PN532ResponseError as e:
                self._fault(now_ms, e, chip=True)
            return
        answer = kind == "frame" and event.tfi == pn532.TFI_PN532
        if answer and self._state == _WAIT_ACK and event.command == (self._command or 0) + 1:
            # The answer proves the command was taken: its ACK was lost on the wire.
            self._state = _WAIT_RESPONSE
        if answer and self._nacks and self._state == _WAIT_RESPONSE and event.command != (self._command or 0) + 1:
            # Our NACK reached the chip before it answered: it resent an older answer. Keep waiting.
            self._stale_resend(now_ms)
            return
        if not answer or self._state != _WAIT_RESPONSE or event.command != (self._command or 0) + 1:
            self._fault(now_ms, "unexpected %r" % (event,), chip=True)
            return
        self._heard(now_ms)
        try:
            self._on_response(event, now_ms)
        except pn532.PN532ResponseError as e:
            # Valid checksums, content that does not parse: a lost 00 data byte does that (DCS still
            # holds). Asked for again like any broken answer; given up after max_nacks.
            self._broken(now_ms, e)

    def _stale_resend(self, now_ms):
        self.health.resends_dropped += 1
        self._nacks = 0
        window = self.config.poll_window_ms if self._command == pn532.CMD_IN_LIST_PASSIVE_TARGET \
            else self.config.response_timeout_ms
        self._deadline_ms = now_ms + window

    def _take_cards(self, frame, now_ms):
        targets = pn532.parse_in_list_passive_target(frame)
        if targets:
            self._last_answer = frame.data
        for target in targets:
            self._card(target.uid, now_ms)

    def _on_response(self, frame, now_ms):
        code = self._command
        if code == pn532.CMD_SAM_CONFIGURATION:
            pn532.parse_sam_configuration(frame)
            self._send(pn532.CMD_GET_FIRMWARE_VERSION, pn532.get_firmware_version(), now_ms)
        elif code == pn532.CMD_GET_FIRMWARE_VERSION:
            self.health.firmware = pn532.parse_firmware_version(frame)
            self.ready = True
            self._emit(READY, now_ms, detail=self.health.firmware)
            self._poll_card(now_ms)
        else:
            if self._nacks and frame.data == self._last_answer:
                # The resend of the card answer already taken, not a second card: the chip still holds
                # our command (a real repeat read of the same tag is counted once by the table anyway).
                self._stale_resend(now_ms)
                return
            self._take_cards(frame, now_ms)
            self._poll_card(now_ms)


class AsciiShoe(_ShoeBase):
    """A reader that prints one UID per line unasked. It sends nothing, so its silence cannot be
    told from an empty shoe: STOPPED is only raised when config.stopped_after_ms is not None and
    no line arrived for that long (useful with readers that print a periodic heartbeat line)."""

    def __init__(self, uart, config=None, log=None):
        if config is None:
            config = ShoeConfig(stopped_after_ms=None)
        _ShoeBase.__init__(self, uart, config, log)
        from felt.proto import ascii_reader

        self._line_error = ascii_reader.AsciiLineError
        self._parser = ascii_reader.Parser()
        self.ready = True

    def poll(self, now_ms):
        if self._started_ms is None:
            self._started_ms = now_ms
        data = self._read_available()
        if data:
            for event in self._parser.feed(data):
                if isinstance(event, self._line_error):
                    self._fault(now_ms, event)
                else:
                    self._heard(now_ms)
                    self._card(event.uid, now_ms)
        self.health.garbage_bytes = self._parser.garbage_bytes
        if self.config.stopped_after_ms is not None:
            self._check_silence(now_ms)
        return self._take_events()


def Shoe(uart, protocol="pn532", config=None, log=None):
    """The shoe driver for `protocol` ('pn532' or 'ascii')."""
    if protocol == "pn532":
        return PN532Shoe(uart, config, log)
    if protocol == "ascii":
        return AsciiShoe(uart, config, log)
    raise ValueError("unknown shoe protocol %r (pn532 or ascii)" % (protocol,))
