"""MFRC522 (13.56 MHz, ISO/IEC 14443 A reader IC) over SPI -- drivers layer.

Speaks the register protocol of hardware/protocols/mfrc522.md: SPI address bytes, CommandReg /
ComIrqReg / FIFO, REQA/WUPA as 7-bit short frames, bit-oriented anticollision with cascade levels
(cascade tag 0x88, BCC check), SELECT with CRC_A from the chip's coprocessor, HLTA. Every wait is
bounded by the chip's own timer (TAuto), so an empty antenna costs about one timer period; the
driver never reads a clock. It is handed an SPIDevice (felt.hal contract) and knows no poker.
"""
from felt.compat import const
from felt.errors import DeviceTimeout

# Registers (datasheet rev 3.9, table 20).
_COMMAND = const(0x01)
_COM_IRQ = const(0x04)
_DIV_IRQ = const(0x05)
_ERROR = const(0x06)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_CONTROL = const(0x0C)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_CONTROL = const(0x14)
_TX_ASK = const(0x15)
_CRC_RESULT_H = const(0x21)
_CRC_RESULT_L = const(0x22)
_T_MODE = const(0x2A)
_T_PRESCALER = const(0x2B)
_T_RELOAD_H = const(0x2C)
_T_RELOAD_L = const(0x2D)
_VERSION = const(0x37)

# Commands (table 149).
_CMD_IDLE = const(0x00)
_CMD_CALC_CRC = const(0x03)
_CMD_TRANSCEIVE = const(0x0C)
_CMD_SOFT_RESET = const(0x0F)

# ISO/IEC 14443-3 type A commands.
REQA = const(0x26)
WUPA = const(0x52)
SEL_CL1 = const(0x93)
CASCADE_TAG = const(0x88)

# Transceive outcomes.
OK = const(0)
NO_TAG = const(1)
COLLISION = const(2)
FRAME = const(3)  # parity/protocol/overflow error, short frame, BCC mismatch
CRC = const(4)

# Known VersionReg values: 0x91 v1.0, 0x92 v2.0, 0x88 FM17522 clone, 0x12 counterfeit.
VERSIONS = (0x91, 0x92, 0x88, 0x12, 0xB2)

FC_HZ = 13560000


def timer_settings(timeout_us, prescaler=169):
    """(prescaler, reload) so the timer fires after `timeout_us`. prescaler 169 gives a tick of
    (2*169+1)/13.56 MHz = 25 us exactly (datasheet 8.5: f_timer = 13.56 MHz / (2*TPrescaler+1))."""
    tick_ns = (2 * prescaler + 1) * 100000 // 1356
    reload = (timeout_us * 1000 + tick_ns - 1) // tick_ns - 1
    if not 0 <= reload <= 0xFFFF:
        raise ValueError("timeout %d us does not fit the 16-bit reload at prescaler %d" % (timeout_us, prescaler))
    return prescaler, reload


def timer_period_us(prescaler, reload):
    """Timer period of the chip: (2*TPrescaler+1)*(TReload+1)/13.56 MHz, in whole microseconds."""
    return ((2 * prescaler + 1) * (reload + 1) * 100000 // 1356 + 999) // 1000


def crc16_a(data, n):
    """CRC_A (ISO/IEC 14443-3 annex B) of data[:n], the 16-bit value (sent low byte first).
    Computed here rather than by the chip's coprocessor: the frame on air is the same, and a
    coprocessor round trip is ~8 SPI transfers (issue 20)."""
    crc = 0x6363
    for i in range(n):
        b = data[i] ^ (crc & 0xFF)
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return crc


# Transfers that never change, made once (datasheet 8.1.2.3: address byte = R/W, 6-bit address, 0)
_W_IDLE = bytes((_COMMAND << 1, _CMD_IDLE))
_W_CLEAR_IRQ = bytes((_COM_IRQ << 1, 0x7F))
_W_FLUSH = bytes((_FIFO_LEVEL << 1, 0x80))
_W_TRANSCEIVE = bytes((_COMMAND << 1, _CMD_TRANSCEIVE))
_R_COM_IRQ = bytes((0x80 | (_COM_IRQ << 1), 0))
_FIFO_REQA = bytes((_FIFO_DATA << 1, REQA))
_FIFO_WUPA = bytes((_FIFO_DATA << 1, WUPA))
_FIFO_HLTA = bytes((_FIFO_DATA << 1, 0x50, 0x00, 0x57, 0xCD))  # HLTA with its CRC_A (annex B: 50 00 -> 57 CD)


# A known card's SELECT frames (select_card, reselect): per cascade level the FIFO write as sent
# (the address byte + SELECT + CRC_A: 10 bytes) and the answer it gave (SAK + CRC_A: 3 bytes); the
# SAK's cascade bit says another level follows. A reader keeps the frames of all the cards it holds
# as ONE bytes object, one card after another (MFRC522._frames): as a list of pairs of bytes objects
# they were ~190 B a card on a 32-bit word, as a bytes object a card in a (uid, frames) pair ~65 B,
# now the frames' 13 bytes a level; a ten-seat Omaha hand has ~45 cards on the antennas
# (hardware/memory.md, "The firmware's own live RAM").
_LEVEL_FIFO = const(10)
_LEVEL = const(13)
_CASCADE_BIT = const(0x04)  # in the SAK: UID not complete, the next cascade level follows


def _card_end(frames, at):
    # the end of the card whose SELECT frames start at frames[at]: its last level has a SAK
    # without the cascade bit
    while frames[at + _LEVEL_FIFO] & _CASCADE_BIT:
        at += _LEVEL
    return at + _LEVEL


def air_bits_us(nbits):
    """Time on air of a frame of `nbits` data bits at 106 kbit/s (start, parity per byte, end)."""
    return ((2 + nbits + nbits // 8) * 9440 + 999) // 1000


class ScanResult:
    """What one inventory of an antenna found: `uids` (bytes each, in the order selected),
    `collisions` (bit collisions seen: two or more cards answered together), `crc_errors`,
    `frame_errors`."""

    collisions = 0  # the counters start as the class's: a clean poll makes one attribute
    crc_errors = 0
    frame_errors = 0

    def __init__(self):
        self.uids = []

    def errors(self):
        return self.crc_errors + self.frame_errors


class MFRC522:
    """One reader chip. `device` keeps the SPIDevice contract (transfer(out, in)); `timeout_us`
    bounds each exchange with a tag; `max_spins` bounds the ComIrqReg polling so a chip whose
    timer never fires (not answering) raises DeviceTimeout instead of hanging."""

    # Transfer buffers and the answer buffer are the class's, shared by every chip: a table has
    # 13 readers on one SPI bus and the loop talks to one at a time, each exchange finished (and
    # its answer read) inside one call. Per chip, with the FIFO buffers of each length, they were
    # ~1.6 KB of RAM a reader; polling still allocates nothing once each length has been used.
    _out2 = bytearray(2)
    _in2 = bytearray(2)
    _out4 = bytes((0x80 | (_ERROR << 1), 0x80 | (_FIFO_LEVEL << 1), 0x80 | (_CONTROL << 1), 0))
    _in4 = bytearray(4)
    _pairs = {}  # length -> (out, in) buffers, made on first use
    rx = bytearray(16)  # the last answer: rx[:rx_len]
    # frames of one card's selection, also shared and made once: a poll allocates only the
    # UIDs it returns and their ScanResult (the frames were ~10 objects a card a poll)
    _frame = bytearray(9)  # anticollision (up to 7 bytes), SELECT (9), HLTA (4)
    _check = bytearray(3)  # SAK + its CRC_A, recomputed
    _known = bytearray(5)  # UID CLn + BCC of the cascade level being resolved
    _uid = bytearray(10)  # the UID so far, through the cascade levels
    _sel_out = bytearray(_LEVEL_FIFO)  # a known card's SELECT as sent (reselect), copied from its frames

    # The default timing and the state before the first exchange, also the class's: an instance
    # holds only its device, its name and what differs (13 readers, RAM on the instance dicts).
    prescaler, reload = timer_settings(1000)
    timeout_us = timer_period_us(prescaler, reload)
    max_spins = 400
    version = None
    # What the last exchange answered besides rx, written on the class like rx itself (one exchange
    # at a time; as instance attributes they were 32 B a reader on a 32-bit word).
    rx_len = 0
    rx_last_bits = 0
    coll_pos = 0
    # The cards the last inventory read, in order: their UIDs are _same.uids, their SELECT frames
    # _frames (one card after another, see _card_end); reselect finds them again by these.
    _frames = b""
    _same = ScanResult()  # the result of exactly the held cards, returned while nothing changes (never altered)
    _miss = 0  # OK: the status of the first known card that did not answer (inventory), also the class's

    def __init__(self, device, timeout_us=1000, max_spins=400, name=""):
        self.device = device
        self.name = name
        if timeout_us != 1000:
            self.prescaler, self.reload = timer_settings(timeout_us)
            self.timeout_us = timer_period_us(self.prescaler, self.reload)
        if max_spins != 400:
            self.max_spins = max_spins

    # -- register access (datasheet 8.1.2.3: address byte = R/W bit, 6-bit address, 0) ------------
    def write_reg(self, reg, value):
        o = self._out2
        o[0] = (reg << 1) & 0x7E
        o[1] = value
        self.device.transfer(o, self._in2)

    def read_reg(self, reg):
        o = self._out2
        o[0] = 0x80 | ((reg << 1) & 0x7E)
        o[1] = 0
        self.device.transfer(o, self._in2)
        return self._in2[1]

    def _pair(self, n):
        pair = self._pairs.get(n)
        if pair is None:
            pair = (bytearray(n), bytearray(n))
            self._pairs[n] = pair
        return pair

    def _write_fifo(self, data, n):
        out, inb = self._pair(n + 1)
        out[0] = (_FIFO_DATA << 1) & 0x7E
        for i in range(n):
            out[i + 1] = data[i]
        self.device.transfer(out, inb)

    def _read_fifo(self, n):
        out, inb = self._pair(n + 1)
        for i in range(n):
            out[i] = 0x80 | (_FIFO_DATA << 1)
        out[n] = 0
        self.device.transfer(out, inb)
        rx = self.rx
        for i in range(n):
            rx[i] = inb[i + 1]

    # -- setup -------------------------------------------------------------------------------
    def init(self):
        """Soft reset, check the chip answers, program the timer, leave the field off."""
        self._set_held([])
        self.write_reg(_COMMAND, _CMD_SOFT_RESET)
        for _ in range(self.max_spins):
            if not self.read_reg(_COMMAND) & 0x10:  # PowerDown cleared: reset done
                break
        else:
            raise DeviceTimeout("MFRC522 %s: soft reset never finished" % self.name)
        v = self.read_reg(_VERSION)
        if v not in VERSIONS:
            raise DeviceTimeout("MFRC522 %s not answering (VersionReg 0x%02X)" % (self.name, v))
        self.version = v
        # TAuto: the timer starts at the end of every transmission and stops on the first
        # received bits, so "no answer" is the TimerIRq after one period (datasheet 8.5).
        self.write_reg(_T_MODE, 0x80 | (self.prescaler >> 8))
        self.write_reg(_T_PRESCALER, self.prescaler & 0xFF)
        self.write_reg(_T_RELOAD_H, self.reload >> 8)
        self.write_reg(_T_RELOAD_L, self.reload & 0xFF)
        self.write_reg(_TX_ASK, 0x40)  # Force100ASK: type A modulation
        self.write_reg(_MODE, 0x3D)  # CRC preset 6363h (CRC_A)
        self.write_reg(_COLL, 0x00)  # ValuesAfterColl = 0: bits after a collision read as 0
        self.field(False)
        return v

    def field(self, on):
        """Antenna drivers TX1/TX2 on or off (TxControlReg bits 1..0); read back to prove the
        chip is alive -- a silent chip reads 0x00 (or 0xFF) whatever was written."""
        want = 0x83 if on else 0x80
        self.write_reg(_TX_CONTROL, want)
        got = self.read_reg(_TX_CONTROL)
        if got != want:
            raise DeviceTimeout("MFRC522 %s not answering (TxControlReg 0x%02X, wrote 0x%02X)" % (self.name, got, want))

    # -- one exchange with the tags ----------------------------------------------------------
    def transceive(self, data, n, tx_last_bits=0, rx_align=0):
        """Send n bytes (the last one holding tx_last_bits bits when non-zero); the answer lands
        in self.rx[:self.rx_len]. Returns OK, NO_TAG (timer ran out), COLLISION (self.coll_pos,
        1-based, RxAlign included) or FRAME."""
        out, _inb = self._pair(n + 1)
        out[0] = (_FIFO_DATA << 1) & 0x7E
        for i in range(n):
            out[i + 1] = data[i]
        return self._transceive(out, (rx_align << 4) | tx_last_bits)

    # The exchange is split in small methods on purpose: a MicroPython frame of more than 11 words
    # (locals + stack, 3 more per exception handler) is allocated on the heap at every call --
    # ~2,500 exchanges a hand, each with a dozen SPI transfers (issue 20 item 4)
    def _transceive(self, fifo_out, framing):
        # fifo_out: the whole FIFO write (address byte 0x12 + the frame), made once for frames
        # that never change (REQA, HLTA, a known card's SELECTs): the same bytes on the wire as
        # write_reg/_write_fifo would send, without rebuilding them for every exchange
        self._send(fifo_out, framing)
        if not self._wait_irq() & 0x30:
            return NO_TAG
        return self._answer()

    def _send(self, fifo_out, framing):
        dev = self.device
        dev.transfer(_W_IDLE, self._in2)
        dev.transfer(_W_CLEAR_IRQ, self._in2)  # clear every interrupt request bit
        dev.transfer(_W_FLUSH, self._in2)
        inb = self._pair(len(fifo_out))[1]
        dev.transfer(fifo_out, inb)
        self._start(framing)

    def _start(self, framing):
        dev = self.device
        o = self._out2
        o[0] = (_BIT_FRAMING << 1) & 0x7E
        o[1] = framing
        dev.transfer(o, self._in2)
        dev.transfer(_W_TRANSCEIVE, self._in2)
        o[1] = framing | 0x80  # StartSend
        dev.transfer(o, self._in2)

    def _wait_irq(self):
        # ComIrqReg until RxIRq | IdleIRq | TimerIRq
        for _ in range(self.max_spins):
            self.device.transfer(_R_COM_IRQ, self._in2)
            if self._in2[1] & 0x31:
                return self._in2[1]
        raise DeviceTimeout("MFRC522 %s not answering (no interrupt in %d reads)" % (self.name, self.max_spins))

    def _answer(self):
        # ErrorReg, FIFOLevelReg and ControlReg in one transfer: a read burst answers each
        # address byte in the next byte (datasheet 8.1.2.1), 1 SPI transfer instead of 3
        i4 = self._in4
        self.device.transfer(self._out4, i4)
        err = i4[1]
        if err & 0x13:  # BufferOvfl | ParityErr | ProtocolErr
            return FRAME
        n_rx = i4[2] & 0x7F
        if n_rx > len(self.rx):
            return FRAME
        MFRC522.rx_len = n_rx
        MFRC522.rx_last_bits = i4[3] & 0x07
        if n_rx:
            self._read_fifo(n_rx)
        if err & 0x08:  # CollErr
            return self._collision()
        return OK

    def _collision(self):
        coll = self.read_reg(_COLL)
        if coll & 0x20:  # CollPosNotValid
            return FRAME
        MFRC522.coll_pos = (coll & 0x1F) or 32
        return COLLISION

    def _wait(self, reg, mask):
        for _ in range(self.max_spins):
            v = self.read_reg(reg)
            if v & mask:
                return v
        raise DeviceTimeout("MFRC522 %s not answering (no interrupt in %d reads)" % (self.name, self.max_spins))

    def crc_a(self, data, n, out, at):
        """CRC_A of data[:n] from the chip's coprocessor, written low byte first at out[at:at+2]."""
        self.write_reg(_COMMAND, _CMD_IDLE)
        self.write_reg(_DIV_IRQ, 0x04)  # clear CRCIRq
        self.write_reg(_FIFO_LEVEL, 0x80)
        self._write_fifo(data, n)
        self.write_reg(_COMMAND, _CMD_CALC_CRC)
        self._wait(_DIV_IRQ, 0x04)
        self.write_reg(_COMMAND, _CMD_IDLE)
        out[at] = self.read_reg(_CRC_RESULT_L)
        out[at + 1] = self.read_reg(_CRC_RESULT_H)

    # -- ISO/IEC 14443-3 type A --------------------------------------------------------------
    def request(self, wupa=False):
        """REQA (or WUPA) as a 7-bit short frame. Returns OK when a tag answered (ATQA may carry
        bit collisions when different tag types answer: that still means 'cards present')."""
        st = self._transceive(_FIFO_WUPA if wupa else _FIFO_REQA, 7)
        if st == COLLISION:
            return OK
        if st == OK and (self.rx_len != 2 or self.rx_last_bits):
            return FRAME
        return st

    def halt(self):
        """HLTA + CRC_A; a tag that understood stays silent (NO_TAG is success here)."""
        return self._transceive(_FIFO_HLTA, 0)

    def _anticollision(self, sel, known, result):
        """Bit-frame anticollision in one cascade level; on a collision the bit is taken as 1
        (ISO/IEC 14443-3 6.5.3.1). Fills known[0:5] (UID CLn + BCC)."""
        known_bits = 0
        frame = self._frame
        frame[0] = sel
        for _ in range(40):
            nbytes = known_bits >> 3
            rbits = known_bits & 7
            frame[1] = ((2 + nbytes) << 4) | rbits  # NVB
            frame[2:7] = known
            st = self.transceive(frame, 2 + nbytes + (1 if rbits else 0), rbits, rbits)
            if st != OK and st != COLLISION:
                return st
            rx = self.rx
            for i in range(self.rx_len):
                j = nbytes + i
                if j < 5:
                    keep = ((1 << rbits) - 1) if i == 0 else 0
                    known[j] = (known[j] & keep) | (rx[i] & ~keep & 0xFF)
            if st == OK:
                if nbytes + self.rx_len != 5 or self.rx_last_bits:
                    return FRAME
                return OK
            result.collisions += 1
            at = nbytes * 8 + self.coll_pos - 1  # CollPos counts from bit 0 of the byte RxAlign starts in
            if at < known_bits or at >= 32:
                return FRAME
            byte = at >> 3
            bit = at & 7
            known[byte] = (known[byte] & ((1 << bit) - 1)) | (1 << bit)
            for k in range(byte + 1, 5):
                known[k] = 0
            known_bits = at + 1
        return FRAME

    def _select(self, sel, known):
        """SELECT (SEL, NVB=0x70, UID CLn, BCC, CRC_A); returns (status, SAK)."""
        frame = self._frame
        frame[0] = sel
        frame[1] = 0x70
        frame[2:7] = known
        crc = crc16_a(frame, 7)
        frame[7] = crc & 0xFF
        frame[8] = crc >> 8
        st = self.transceive(frame, 9)
        if st != OK:
            return st, 0
        if self.rx_len != 3 or self.rx_last_bits:
            return FRAME, 0
        rx = self.rx
        crc = crc16_a(rx, 1)
        if rx[1] != crc & 0xFF or rx[2] != crc >> 8:
            return CRC, 0
        return OK, rx[0]

    def select_card(self, result, frames=None):
        """Anticollision + SELECT through the cascade levels. Returns (status, uid bytes). With a
        bytearray `frames`, each level's FIFO write as sent (10 bytes) and the answer (SAK +
        CRC_A, 3 bytes) are appended: a card that stays can be selected again by them alone
        (inventory, reselect)."""
        uid = self._uid
        n = 0
        known = self._known
        for level in range(3):
            sel = SEL_CL1 + 2 * level
            for k in range(5):
                known[k] = 0
            st = self._anticollision(sel, known, result)
            if st != OK:
                return st, None
            if known[0] ^ known[1] ^ known[2] ^ known[3] != known[4]:
                return FRAME, None  # BCC mismatch
            st, sak = self._select(sel, known)
            if st != OK:
                return st, None
            if frames is not None:
                # the FIFO write as sent, then the answer: SAK + CRC_A
                frames.append(_FIFO_DATA << 1)
                frames.extend(self._frame)
                for k in range(3):
                    frames.append(self.rx[k])
            if sak & _CASCADE_BIT:  # UID not complete
                if known[0] != CASCADE_TAG:
                    return FRAME, None
                for k in range(3):
                    uid[n + k] = known[1 + k]
                n += 3
                continue
            for k in range(4):
                uid[n + k] = known[k]
            return OK, bytes(uid[:n + 4])
        return FRAME, None

    def reselect(self, frames, at=0):
        """Select a card already known by its SELECT frames (select_card's `frames`, starting at
        frames[at]): REQA, then each cascade level's SELECT as sent before, the answer compared
        with the one it gave then -- the anticollision and every CRC_A are skipped (ISO/IEC
        14443-3 6.4.3: a PICC in READY answers a SELECT carrying its UID CLn; the others go back
        to IDLE). The card's last level is the one whose SAK has no cascade bit. Returns OK,
        NO_TAG (the card no longer answers), CRC or FRAME."""
        st = self.request()
        if st != OK:
            return st
        while True:
            st = self._reselect_level(frames, at)
            if st != OK or not frames[at + _LEVEL_FIFO] & _CASCADE_BIT:
                return st
            at += _LEVEL

    def _reselect_level(self, frames, at):
        st = self._transceive(self._sel_fifo(frames, at), 0)
        if st == COLLISION:
            return FRAME
        if st != OK:
            return st
        if self.rx_len != 3 or self.rx_last_bits:
            return FRAME
        return self._same_answer(frames, at + _LEVEL_FIFO)

    def _same_answer(self, frames, at):
        # the SAK + CRC_A just read against the card's answer at frames[at:at + 3]
        rx = self.rx
        if rx[0] != frames[at] or rx[1] != frames[at + 1] or rx[2] != frames[at + 2]:
            crc = crc16_a(rx, 1)
            return CRC if rx[1] != crc & 0xFF or rx[2] != crc >> 8 else FRAME
        return OK

    def _sel_fifo(self, frames, at):
        # the level's FIFO write, copied out of the card's frames into the shared buffer (a slice
        # would allocate at every visit)
        out = self._sel_out
        for i in range(_LEVEL_FIFO):
            out[i] = frames[at + i]
        return out

    def inventory(self, max_cards=4):
        """Every tag on the (already powered) antenna: select one, HLTA it, ask again, until
        nothing answers or max_cards. Cards the last inventory read are selected again by their
        UID first (reselect: no anticollision, no CRC work); then REQA finds any new card. A
        card that no longer answers is left out (the poller decides it is gone). Card-level
        errors are counted, not raised; a chip that does not answer raises DeviceTimeout.
        When every known card answered and nothing else did, the result is the same object as
        the last time (never changed once returned): the steady state allocates nothing."""
        kept = self._revisit(max_cards)
        if self._miss != OK:
            return self._after_miss(kept, max_cards)  # a known card did not answer
        if kept >= max_cards:
            return self._same if kept == len(self._same.uids) else self._result_of(self._held()[:kept])
        st = self.request()
        if st == NO_TAG:
            return self._same  # every known card there, nothing new
        return self._new_cards(st, None, max_cards)

    # The steady visit (every known card answers, nothing new) runs inventory, _revisit,
    # reselect, _reselect_level and the exchange only: each frame fits MicroPython's C stack
    # (<= 11 words; a bigger one is allocated on the heap at every call). The rest is the
    # change path.
    def _revisit(self, max_cards):
        """Reselect and halt the known cards in order while each answers; returns how many did
        (at most max_cards). self._miss: the status of the first one that did not (OK: none)."""
        MFRC522._miss = OK
        n = len(self._same.uids)
        kept = 0
        at = 0  # where the card's frames start in self._frames
        while kept < n and kept < max_cards:
            st = self.reselect(self._frames, at)
            if st != OK:
                MFRC522._miss = st
                break
            self._transceive(_FIFO_HLTA, 0)
            kept += 1
            at = _card_end(self._frames, at)
        return kept

    def _after_miss(self, k, max_cards):
        # held[k] answered self._miss (not OK), held[:k] were kept: the known cards after it are
        # visited, a card error ends the inventory (that card is resolved afresh next time)
        held = self._held()
        n = len(held)
        fresh = held[:k]
        kept = k
        st = self._miss
        while True:
            if st == OK:
                self._transceive(_FIFO_HLTA, 0)
                kept += 1
                fresh.append(held[k])
            elif st != NO_TAG:  # NO_TAG: gone, the poller counts the miss
                result = self._result_of(fresh)
                if st == CRC:
                    result.crc_errors += 1
                else:
                    result.frame_errors += 1
                self._set_held(fresh + list(held[k + 1:]))
                return result
            k += 1
            if k >= n or kept >= max_cards:
                break
            st = self.reselect(held[k][1])
        if kept >= max_cards:
            return self._result_of(fresh or held[:kept])
        st = self.request()
        if st == NO_TAG:
            self._set_held(fresh)
            return self._same
        return self._new_cards(st, fresh, max_cards)

    def _new_cards(self, st, fresh, max_cards):
        # REQA was answered (st): select the new cards one by one, each halted after its SELECT
        if fresh is None:
            fresh = self._held()
        result = self._result_of(fresh)
        uids = result.uids
        while True:
            frames = bytearray()
            if st == OK:
                st, uid = self.select_card(result, frames)
            if st == OK:
                uids.append(uid)
                fresh.append((uid, bytes(frames)))
                self.halt()
                if len(uids) >= max_cards:
                    break
                st = self.request()
                if st == NO_TAG:
                    break
                continue
            if st == CRC:
                result.crc_errors += 1
            elif st == FRAME:
                result.frame_errors += 1
            break  # a tag that vanished mid-way (NO_TAG) or errored: try again next sweep
        self._set_held(fresh)
        if not result.errors() and not result.collisions:
            # the same cards as _same, in the same order: handing it out now makes the very next
            # visit the poller's unchanged case already (no second, allocating comparison)
            return self._same
        return result

    def _result_of(self, entries):
        result = ScanResult()
        for e in entries:
            result.uids.append(e[0])
        return result

    def _held(self):
        # the held cards as a list of (uid, SELECT frames) pairs (the change paths work on these)
        out = []
        frames = self._frames
        at = 0
        for uid in self._same.uids:
            end = _card_end(frames, at)
            out.append((uid, frames[at:end]))
            at = end
        return out

    def _set_held(self, held):
        # held: [(uid, SELECT frames)] -> the UIDs as _same, the frames one after another
        frames = bytearray()
        for e in held:
            frames.extend(e[1])
        self._frames = bytes(frames)
        self._same = self._result_of(held)

    def forget(self):
        """Drop the remembered cards: the next inventory resolves everything from scratch."""
        self._set_held([])
