"""Simulated NXP MFRC522 at register level (hal layer, sim backend), with ISO/IEC 14443 A tags.

Attach it to a SimSPIBus by chip-select. It decodes the SPI address byte, keeps the registers,
the 64-byte FIFO, the CRC coprocessor and the timer, and answers Transceive from the tags placed
on its antenna (REQA/WUPA, anticollision with cascade levels, SELECT, HLTA). Time is modelled:
frames on air cost etu (128/fc), the timer period follows TModeReg/TPrescalerReg/TReloadReg, and
a wait is fast-forwarded on the shared SimClock. See hardware/protocols/mfrc522.md.
"""

# Register addresses (MFRC522 datasheet rev 3.9, section 9.2).
COMMAND = 0x01
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
TX_CONTROL = 0x14
CRC_RESULT_H = 0x21
CRC_RESULT_L = 0x22
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# Commands (section 10.3).
IDLE = 0x00
CALC_CRC = 0x03
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F

ETU_NS = 9440  # one bit at 106 kbit/s: 128 / 13.56 MHz
FDT_NS = 91150  # PICC frame delay time 1236 / fc (ISO/IEC 14443-3, 6.2.1.2)

# Tag states (ISO/IEC 14443-3, 6.3).
POWER_OFF = 0
IDLE_STATE = 1
READY = 2
ACTIVE = 3
HALT = 4


def crc_a(data, crc=0x6363):
    """CRC_A of ISO/IEC 14443-3 (annex B): returns the 16-bit value; sent low byte first."""
    for b in data:
        b ^= crc & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return crc


def air_bits(nbits):
    """Bits on air for `nbits` data bits: start + data + one parity per whole byte + end."""
    return 2 + nbits + nbits // 8


class SimTag:
    """A type A tag: 4-, 7- or 10-byte UID. Faults: bad_crc / bad_bcc count the next answers
    sent with a broken CRC_A (SAK) or BCC (anticollision)."""

    # Defaults as class attributes: an instance holds only what differs (a fault set by a test,
    # the state of a powered tag). A hand has ~48 tags in play, and on the emulated board the
    # sim shares the firmware's heap.
    power_up_us = 2000
    state = POWER_OFF
    level = 0
    bad_crc = 0
    bad_bcc = 0

    def __init__(self, uid, sak=None, power_up_us=2000):
        self.uid = bytes(uid)
        n = len(self.uid)
        if n not in (4, 7, 10):
            raise ValueError("tag UID must be 4, 7 or 10 bytes, got %d" % n)
        self.levels = (n + 2) // 3 - 1 if n > 4 else 1  # 4 -> 1, 7 -> 2, 10 -> 3
        self.sak = (0x08 if n == 4 else 0x00) if sak is None else sak
        if power_up_us != 2000:
            self.power_up_us = power_up_us

    @property
    def atqa(self):
        """ATQA (2 bytes, first byte sent first): the UID size in bits 7..6, bit frame
        anticollision (bit 2)."""
        return bytes(((0x04, 0x44, 0x84)[self.levels - 1], 0x00))

    def cl_frame(self, level):
        """UID CLn (4 bytes, with the cascade tag 0x88 when more levels follow) + BCC."""
        u = self.uid
        if level + 1 < self.levels:
            part = bytes([0x88]) + u[3 * level: 3 * level + 3]
        else:
            part = u[3 * level: 3 * level + 4]
        bcc = part[0] ^ part[1] ^ part[2] ^ part[3]
        return part + bytes([bcc])


def _le_int(data):
    v = 0
    for i in range(len(data) - 1, -1, -1):
        v = (v << 8) | data[i]
    return v


class SimMFRC522:
    """Register-level chip model. Script: place(tag) / remove(tag); faults: silent (MISO stays
    low, writes ignored), frame_error_next (answers flagged ProtocolErr), spin_reads (how many
    ComIrqReg reads see 'not yet' before a pending wait is fast-forwarded)."""

    def __init__(self, clock, version=0x92, frame_log=64):
        self.clock = clock
        # frames kept for tests to inspect; a long simulation keeps few: on the emulated board the
        # sim shares the firmware's heap, and 13 chips x 64 frames were ~60 KB of it inside a hand
        self.frame_log = frame_log
        self.version = version
        self.silent = False
        self.frame_error_next = 0
        self.spin_reads = 0
        self.tags = []
        self.frames = []  # (bytes sent, bit count) of every transmission, newest last (max frame_log)
        # times are stamps (ms, us) of the clock and spans from them (SimClock.since_us): small ints
        # on a 32-bit MicroPython however long the simulation runs
        self._on_ms = None  # the stamp of the field switching on (None: off)
        self._on_us = 0
        self.field_time_us = 0  # total time any field was on, for duty-cycle checks
        self.regs = bytearray(64)
        self.fifo = bytearray()
        self._reset()

    # -- script -------------------------------------------------------------------------------
    def place(self, tag):
        if tag not in self.tags:
            self.tags.append(tag)
            tag.state = POWER_OFF
        return tag

    def remove(self, tag):
        if tag in self.tags:
            self.tags.remove(tag)
        tag.state = POWER_OFF

    def field_is_on(self):
        return self._on_ms is not None

    # -- SPI face -----------------------------------------------------------------------------
    def spi_transfer(self, out_buf, in_buf):
        n = len(out_buf)
        in_buf[0] = 0
        if self.silent:
            for i in range(1, n):
                in_buf[i] = 0
            return
        first = out_buf[0]
        if first & 0x80:  # read: each address byte is answered during the next byte
            for i in range(1, n):
                prev = out_buf[i - 1]
                in_buf[i] = self._read((prev >> 1) & 0x3F) if prev & 0x80 else 0
        else:
            reg = (first >> 1) & 0x3F
            for i in range(1, n):
                in_buf[i] = 0
                self._write(reg, out_buf[i])

    # -- registers ----------------------------------------------------------------------------
    def _reset(self):
        r = self.regs
        for i in range(64):
            r[i] = 0
        r[COMMAND] = 0x20
        r[COM_IRQ] = 0x14
        r[FIFO_LEVEL] = 0
        r[CONTROL] = 0x10
        r[0x11] = 0x3F  # ModeReg
        r[TX_CONTROL] = 0x80
        r[COLL] = 0x80
        self.fifo = bytearray()
        self._wait = None  # us from the stamp (_t_ms, _t_us) of the last transmission to its answer or timeout
        self._t_ms = self._t_us = 0
        self._pending = None
        self._spins = 0
        self._set_field(False)

    def _read(self, reg):
        if reg == FIFO_DATA:
            if not self.fifo:
                return 0
            b = self.fifo[0]
            self.fifo = self.fifo[1:]
            return b
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        if reg == VERSION:
            return self.version
        if reg == COM_IRQ:
            self._advance(True)
        return self.regs[reg]

    def _write(self, reg, v):
        r = self.regs
        if reg == COMMAND:
            self._command(v & 0x0F)
            if (v & 0x0F) != SOFT_RESET:
                r[COMMAND] = v & 0x1F
        elif reg == COM_IRQ or reg == DIV_IRQ:
            r[reg] = (r[reg] | (v & 0x7F)) if v & 0x80 else (r[reg] & ~v & 0x7F)
        elif reg == FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo.append(v)
            else:
                r[ERROR] |= 0x10  # BufferOvfl
        elif reg == FIFO_LEVEL:
            if v & 0x80:
                self.fifo = bytearray()
                r[ERROR] &= ~0x10 & 0xFF
        elif reg == BIT_FRAMING:
            r[reg] = v & 0x7F
            if v & 0x80 and (r[COMMAND] & 0x0F) == TRANSCEIVE:
                self._transmit()
        elif reg == TX_CONTROL:
            r[reg] = v
            self._set_field((v & 0x03) != 0)
        else:
            r[reg] = v

    def _command(self, cmd):
        if cmd == SOFT_RESET:
            self._reset()
        elif cmd == IDLE:
            self._wait = None
        elif cmd == CALC_CRC:
            crc = crc_a(self.fifo)
            self.fifo = bytearray()
            self.regs[CRC_RESULT_H] = crc >> 8
            self.regs[CRC_RESULT_L] = crc & 0xFF
            self.regs[DIV_IRQ] |= 0x04  # CRCIRq
            self.clock.advance_us(2)

    def _set_field(self, on):
        c = self.clock
        if on and self._on_ms is None:
            self._on_ms = c.ms
            self._on_us = c.us
        elif not on and self._on_ms is not None:
            self.field_time_us += c.since_us(self._on_ms, self._on_us)
            self._on_ms = None
            for t in self.tags:  # no field, no power: every tag forgets its state
                t.state = POWER_OFF
                t.level = 0

    def timer_period_ns(self):
        r = self.regs
        prescaler = ((r[T_MODE] & 0x0F) << 8) | r[T_PRESCALER]
        reload = (r[T_RELOAD_H] << 8) | r[T_RELOAD_L]
        ticks = (2 * prescaler + 1) * (reload + 1)
        return ticks * 73 + ticks * 1012 // 1356  # ticks * 100000 // 1356 (73 * 1356 + 1012), in small ints

    # -- the air interface --------------------------------------------------------------------
    def _transmit(self):
        data = bytes(self.fifo)
        self.fifo = bytearray()
        framing = self.regs[BIT_FRAMING]
        last = framing & 0x07
        rx_align = (framing >> 4) & 0x07
        nbits = len(data) * 8 if last == 0 else (len(data) - 1) * 8 + last
        if self.frame_log:
            self.frames.append((data, nbits))
            if len(self.frames) > self.frame_log:
                self.frames.pop(0)
        self._t_ms = self.clock.ms  # the stamp the wait counts from
        self._t_us = self.clock.us
        end_tx = air_bits(nbits) * ETU_NS  # ns after the stamp
        answer = self._answer(data, nbits)  # (value, width) or list of them, or None
        self._spins = self.spin_reads
        if answer:
            value, width, coll = self._combine(answer)
            self._pending = (value, width, coll, rx_align)
            self._wait = (end_tx + FDT_NS + air_bits(width) * ETU_NS + 999) // 1000
        elif self.regs[T_MODE] & 0x80:  # TAuto: the timer starts when transmission ends
            self._pending = None
            self._wait = (end_tx + self.timer_period_ns() + 999) // 1000
        else:
            self._wait = None  # no answer and no timer: the wait never ends

    def _advance(self, spinning):
        wait = self._wait
        if wait is None:
            return
        left = wait - self.clock.since_us(self._t_ms, self._t_us)
        if left > 0:
            if not spinning or self._spins > 0:
                self._spins -= 1
                return
            self.clock.advance_us(left)
        self._wait = None
        if self._pending is None:
            self.regs[COM_IRQ] |= 0x01  # TimerIRq
            return
        self._receive(*self._pending)

    def _receive(self, value, width, coll, rx_align):
        total = rx_align + width
        value <<= rx_align
        nbytes = (total + 7) // 8
        out = bytearray(nbytes)
        for i in range(nbytes):
            out[i] = (value >> (8 * i)) & 0xFF
        self.fifo = out
        r = self.regs
        r[CONTROL] = (r[CONTROL] & 0xF8) | (total % 8)
        err = 0
        if coll is not None:
            err |= 0x08  # CollErr
            pos = coll + rx_align + 1
            r[COLL] = (r[COLL] & 0x80) | (0x20 if pos > 32 else (pos & 0x1F))
        if self.frame_error_next > 0:
            self.frame_error_next -= 1
            err |= 0x01  # ProtocolErr
        r[ERROR] = err
        r[COM_IRQ] |= 0x30 | (0x02 if err else 0)  # RxIRq, IdleIRq (+ ErrIRq)

    def _combine(self, answers):
        """Several tags answering at once: bits where they differ collide (first one reported)."""
        value, width = answers[0]
        merged = value
        diff = 0
        for v, _w in answers[1:]:
            diff |= v ^ value
            merged |= v
        if not diff:
            return value, width, None
        coll = 0
        while not (diff >> coll) & 1:
            coll += 1
        if not self.regs[COLL] & 0x80:  # ValuesAfterColl = 0: bits after the collision cleared
            merged &= (1 << (coll + 1)) - 1
        return merged, width, coll

    def _powered(self):
        if self._on_ms is None:
            return []
        up = self.clock.since_us(self._on_ms, self._on_us)
        out = []
        for t in self.tags:
            if up >= t.power_up_us:
                if t.state == POWER_OFF:
                    t.state = IDLE_STATE
                out.append(t)
        return out

    def _answer(self, data, nbits):
        tags = self._powered()
        if not tags or not data:
            return None
        if nbits == 7:
            return self._request(tags, data[0])
        cmd = data[0]
        if cmd == 0x50 and nbits == 32 and crc_a(data[:2]) == data[2] | (data[3] << 8):
            for t in tags:
                if t.state == ACTIVE:
                    t.state = HALT
            return None
        if cmd in (0x93, 0x95, 0x97) and nbits >= 16:
            level = (cmd - 0x93) // 2
            ready = [t for t in tags if t.state == READY and t.level == level]
            if data[1] == 0x70 and nbits == 72:
                return self._select(ready, data, level)
            return self._anticollision(ready, data, nbits)
        for t in tags:  # anything else sends a tag back to IDLE (or HALT)
            t.state = HALT if t.state == HALT else IDLE_STATE
        return None

    def _request(self, tags, cmd):
        answers = []
        for t in tags:
            if (cmd == 0x26 and t.state == IDLE_STATE) or (cmd == 0x52 and t.state in (IDLE_STATE, HALT)):
                t.state = READY
                t.level = 0
                answers.append((_le_int(t.atqa), 16))
        return answers

    def _anticollision(self, ready, data, nbits):
        known = nbits - 16
        if known != ((data[1] >> 4) - 2) * 8 + (data[1] & 0x0F) or known >= 40:
            return None
        mask = (1 << known) - 1
        want = _le_int(data[2:]) & mask
        answers = []
        for t in ready:
            frame = bytearray(t.cl_frame(t.level))
            if t.bad_bcc > 0:
                t.bad_bcc -= 1
                frame[4] ^= 0xFF
            v = _le_int(frame)
            if v & mask == want:
                answers.append((v >> known, 40 - known))
        return answers

    def _select(self, ready, data, level):
        if crc_a(data[:7]) != data[7] | (data[8] << 8):
            return None
        answers = []
        for t in ready:
            if t.cl_frame(level) != data[2:7]:
                t.state = IDLE_STATE
                continue
            last = level + 1 >= t.levels
            sak = t.sak if last else 0x04
            if last:
                t.state = ACTIVE
            else:
                t.level = level + 1
            crc = crc_a(bytes([sak]))
            if t.bad_crc > 0:
                t.bad_crc -= 1
                crc ^= 0x5A5A
            answers.append((sak | (crc << 8), 24))
        return answers


def attach_chips(hal, board):
    """One SimMFRC522 per antenna of a checked felt.runtime.board.Board, on the sim HAL's SPI bus at the
    board's chip-selects (GPIO numbers, or decoder lines keyed (decoder, line)). Returns
    {location: chip}; call before felt.runtime.board.open_antenna_devices()."""
    bus = hal.spi(board.spi["bus"])
    chips = {}
    for loc, cs in board.antennas:
        key = cs if board.decoder is None else (board.decoder["decoder"], cs)
        chips[loc] = bus.attach(key, SimMFRC522(hal.clock))
    return chips
