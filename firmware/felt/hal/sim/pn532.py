# A simulated PN532 in HSU mode at byte level -- sim backend for the shoe: pure, deterministic,
# scripted by the caller. It has the UART face the drivers expect from the chip's side:
# write(bytes) is what the host sends, read(n)/any() is what the chip answers. Used in-process
# (MicroPython `feltctl sim`, firmware tests) and behind a pty by host_tools/feltctl/device_sim.
# Behaviour follows hardware/protocols/pn532-hsu.md; faults are injected by method calls.
from felt.hal.sim.uart import DeviceUART
from felt.proto import pn532

# What the simulated chip does with a 106 kbps type A InListPassiveTarget when no tag is queued:
# "wait" holds the command until a tag is presented or the host aborts it with an ACK (the chip's
# default, MxRtyPassiveActivation = 0xFF); "empty" answers NbTg = 0 at once (a finite retry count).
WAIT = "wait"
EMPTY = "empty"


class SimTag:
    def __init__(self, uid, sens_res=None, sel_res=None):
        self.uid = bytes(uid)
        if len(self.uid) not in (4, 7, 10):
            raise ValueError("tag UID must be 4, 7 or 10 bytes, got %d" % len(self.uid))
        # MIFARE Classic 1K answers 00 04 / 08 with a 4-byte UID; Ultralight 00 44 / 00 with 7.
        four = len(self.uid) == 4
        self.sens_res = bytes(sens_res) if sens_res is not None else (b"\x00\x04" if four else b"\x00\x44")
        self.sel_res = sel_res if sel_res is not None else (0x08 if four else 0x00)

    def target_data(self, tg):
        return bytes([tg]) + self.sens_res + bytes([self.sel_res, len(self.uid)]) + self.uid


class SimPN532(DeviceUART):
    """Scripted PN532. Starts asleep (LowVbat, as the C106 powers up): frames are ignored until a
    0x55 wake-up byte arrives. Answers GetFirmwareVersion, SAMConfiguration and
    InListPassiveTarget; any other command gets ACK + the syntax-error frame. A host NACK makes it
    resend its last response; a host ACK aborts a pending command. Frames with a bad checksum are
    ignored (no ACK), as the chip does.

    Script: present(uid) queues a tag for the next InListPassiveTarget; present(uid, times=2) is a
    tag read twice. Faults: corrupt_next_response('DCS'|'LCS'), drop_byte_in_next_response(position,
    count, times), noise(bytes), stop_answering(), resume(). Faults are queued and spent one per response sent,
    a NACK's resend included: times=5 garbles the answer and its next four resends."""

    def __init__(self, firmware=(0x32, 0x01, 0x06, 0x07), no_tag=WAIT, asleep=True):
        self.firmware = bytes(firmware)
        self.no_tag = no_tag
        self.awake = not asleep
        self.sam_configured = False
        self.silent = False
        self.commands = []  # command codes received, in order (for tests)
        self.frames_ignored = 0
        self._parser = pn532.Parser()
        DeviceUART.__init__(self)
        self._tags = []
        self._pending = None  # the held InListPassiveTarget (MaxTg), if any
        self._last_response = None
        self._faults = []  # one entry per garbled transmission: 'DCS', 'LCS' or (position, count)

    # -- script -------------------------------------------------------------------------------
    def present(self, uid, times=1, sens_res=None, sel_res=None):
        tag = SimTag(uid, sens_res, sel_res)
        for _ in range(times):
            self._tags.append(tag)
        if self._pending is not None and not self.silent:
            max_targets, self._pending = self._pending, None
            self._respond(pn532.CMD_IN_LIST_PASSIVE_TARGET, self._take_targets(max_targets))

    def tags_waiting(self):
        return len(self._tags)

    def corrupt_next_response(self, field="DCS"):
        if field not in ("DCS", "LCS"):
            raise ValueError("field must be 'DCS' or 'LCS'")
        self._faults.append(field)

    def drop_byte_in_next_response(self, position=None, count=1, times=1):
        """The next response loses `count` bytes at `position` on the wire (index into the frame from
        its preamble; negative counts from the end; None = the middle), as a UART overrun or noise
        eats them. times > 1 garbles that many transmissions in a row (the resends a NACK asks for)."""
        if count < 1 or times < 1:
            raise ValueError("count and times must be at least 1")
        for _ in range(times):
            self._faults.append((position, count))

    def noise(self, data):
        """Bytes on the line that belong to no frame (a glitch on the chip's TX)."""
        self._out.extend(data)

    def stop_answering(self):
        """The reader goes dead: it swallows every byte and answers nothing."""
        self.silent = True
        self._pending = None
        self._out = bytearray()

    def resume(self, asleep=True):
        """Power comes back; like a real power-up the chip is asleep until woken again."""
        self.silent = False
        self.awake = not asleep
        self.sam_configured = False
        self._parser.reset()

    # -- UART face (chip side) ----------------------------------------------------------------
    def write(self, data):
        taken = len(data)  # every byte is taken off the wire, whatever the chip makes of it
        if self.silent:
            return taken
        if not self.awake:
            i = bytes(data).find(b"\x55")
            if i < 0:
                return taken
            self.awake = True
            self._parser.reset()
            data = bytes(data)[i + 1:]
        for event in self._parser.feed(data):
            self._handle(event)
        return taken


    # -- behaviour ----------------------------------------------------------------------------
    def _handle(self, event):
        kind = getattr(event, "kind", None)
        if kind == "ack":
            self._pending = None  # abort (UM0701-02 6.2.1.3)
            return
        if kind == "nack":
            if self._last_response is not None:
                self._transmit(self._last_response)  # UM0701-02 6.2.1.4: the last response again
            return
        if kind != "frame" or event.tfi != pn532.TFI_HOST:
            self.frames_ignored += 1
            return
        code = event.command
        self.commands.append(code)
        self._out.extend(pn532.ACK)
        params = event.params
        if code == pn532.CMD_SAM_CONFIGURATION and len(params) >= 1:
            self.sam_configured = True
            self._respond(code, b"")
        elif code == pn532.CMD_GET_FIRMWARE_VERSION and not params:
            self._respond(code, self.firmware)
        elif code == pn532.CMD_IN_LIST_PASSIVE_TARGET and len(params) >= 2 and params[1] == pn532.BRTY_106_TYPE_A:
            if self._tags or self.no_tag == EMPTY:
                self._respond(code, self._take_targets(params[0]))
            else:
                self._pending = params[0]
        else:
            self._out.extend(pn532.ERROR_FRAME)

    def _take_targets(self, max_targets=1):
        found = []
        while self._tags and len(found) < max_targets:
            found.append(self._tags.pop(0))
        data = bytes([len(found)])
        for i in range(len(found)):
            data += found[i].target_data(i + 1)
        return data

    def _respond(self, code, params):
        wire = pn532.encode_response(code, params)
        self._last_response = wire
        self._transmit(wire)

    def _transmit(self, wire):
        """Put a response on the wire, spending the next queued fault on it."""
        if self._faults:
            fault = self._faults.pop(0)
            bad = bytearray(wire)
            if fault == "DCS":
                bad[-2] ^= 0x5A
            elif fault == "LCS":
                bad[4] ^= 0x5A
            else:
                position, count = fault
                if position is None:
                    position = len(bad) // 2
                elif position < 0:
                    position += len(bad)
                bad[position:position + count] = b""
            wire = bytes(bad)
        self._out.extend(wire)
