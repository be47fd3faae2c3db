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


def crc_a(data, crc=0x6363, start=0, end=None):
    """CRC_A of ISO/IEC 14443-3 (annex B) of data[start:end] (no slice made): returns the 16-bit
    value; sent low byte first."""
    for i in range(start, len(data) if end is None else end):
        b = data[i] ^ (crc & 0xFF)
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

    def cl_byte(self, level, i):
        """Byte i (0..4) of cl_frame(level), made without building the frame: a SELECT compares
        every ready tag's frame, and on the emulated board the sim's garbage shares the heap."""
        u = self.uid
        cascade = level + 1 < self.levels
        if i == 4:
            return self.cl_byte(level, 0) ^ self.cl_byte(level, 1) ^ self.cl_byte(level, 2) ^ self.cl_byte(level, 3)
        if cascade:
            return 0x88 if i == 0 else u[3 * level + i - 1]
        return u[3 * level + i]


def _le_int(data, start=0, end=None):
    # data[start:end] as a little-endian int (no slice made)
    v = 0
    for i in range((len(data) if end is None else end) - 1, start - 1, -1):
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
        # the 64-byte FIFO as one buffer: bytes _fifo_r.._fifo_n - 1 are in it (no slice a byte read)
        self._fifo = bytearray(64)
        self._fifo_r = self._fifo_n = 0
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
        self._fifo_r = self._fifo_n = 0
        self._wait = None  # us from the stamp (_t_ms, _t_us) of the last transmission to its answer or timeout
        self._t_ms = self._t_us = 0
        self._pending = False  # an answer is due when the wait ends (else the timer fires)
        self._n_ans = 0  # the answer being received: _add, _collide, _receive
        self._ans_first = self._ans_v = self._ans_w = self._ans_diff = 0
        self._coll = None
        self._rx_align = 0
        self._spins = 0
        self._set_field(False)

    def _read(self, reg):
        if reg == FIFO_DATA:
            k = self._fifo_r
            if k >= self._fifo_n:
                return 0
            self._fifo_r = k + 1
            return self._fifo[k]
        if reg == FIFO_LEVEL:
            return self._fifo_n - self._fifo_r
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
            self._fifo_put(v)
        elif reg == FIFO_LEVEL:
            if v & 0x80:
                self._fifo_r = self._fifo_n = 0
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

    def _fifo_put(self, v):
        f = self._fifo
        k = self._fifo_r
        n = self._fifo_n
        if n - k >= 64:
            self.regs[ERROR] |= 0x10  # BufferOvfl
            return
        if n == 64:  # room only before the read position: move the bytes down
            for i in range(k, n):
                f[i - k] = f[i]
            n -= k
            self._fifo_r = 0
        f[n] = v
        self._fifo_n = n + 1

    def _command(self, cmd):
        if cmd == SOFT_RESET:
            self._reset()
        elif cmd == IDLE:
            self._wait = None
        elif cmd == CALC_CRC:
            crc = crc_a(self._fifo, 0x6363, self._fifo_r, self._fifo_n)
            self._fifo_r = self._fifo_n = 0
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
    # Allocation-free in the common case (REQA/WUPA, SELECT of known tags, HLTA): the frame is read
    # where it sits in the FIFO buffer, the answers of all tags are merged as they come (_add) and
    # the answer is written back into the same buffer. On the emulated board the sim shares the
    # firmware's heap, and a board's real chips make no garbage there (hardware/memory.md).
    def _transmit(self):
        f = self._fifo
        k = self._fifo_r
        n = self._fifo_n - k
        if k:  # the frame to the start of the buffer
            for i in range(n):
                f[i] = f[k + i]
        self._fifo_r = self._fifo_n = 0
        framing = self.regs[BIT_FRAMING]
        last = framing & 0x07
        self._rx_align = (framing >> 4) & 0x07
        nbits = n * 8 if last == 0 else (n - 1) * 8 + last
        if self.frame_log:
            self.frames.append((bytes(f[:n]), nbits))
            if len(self.frames) > self.frame_log:
                self.frames.pop(0)
        self._t_ms = self.clock.ms  # the stamp the wait counts from
        self._t_us = self.clock.us
        end_tx = air_bits(nbits) * ETU_NS  # ns after the stamp
        self._spins = self.spin_reads
        if self._answer(f, nbits, n):
            self._collide()
            self._pending = True
            self._wait = (end_tx + FDT_NS + air_bits(self._ans_w) * ETU_NS + 999) // 1000
        elif self.regs[T_MODE] & 0x80:  # TAuto: the timer starts when transmission ends
            self._pending = False
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
        if not self._pending:
            self.regs[COM_IRQ] |= 0x01  # TimerIRq
            return
        self._receive()

    def _receive(self):
        rx_align = self._rx_align
        total = rx_align + self._ans_w
        value = self._ans_v << rx_align
        nbytes = (total + 7) // 8
        out = self._fifo
        for i in range(nbytes):
            out[i] = (value >> (8 * i)) & 0xFF
        self._fifo_r = 0
        self._fifo_n = nbytes
        r = self.regs
        r[CONTROL] = (r[CONTROL] & 0xF8) | (total % 8)
        err = 0
        coll = self._coll
        if coll is not None:
            err |= 0x08  # CollErr
            pos = coll + rx_align + 1
            r[COLL] = (r[COLL] & 0x80) | (0x20 if pos > 32 else (pos & 0x1F))
        if self.frame_error_next > 0:
            self.frame_error_next -= 1
            err |= 0x01  # ProtocolErr
        r[ERROR] = err
        r[COM_IRQ] |= 0x30 | (0x02 if err else 0)  # RxIRq, IdleIRq (+ ErrIRq)

    def _add(self, value, width):
        """One tag's answer (value: its bits, first sent lowest); answers of several tags are
        merged as they arrive on air: bits where they differ collide (_collide)."""
        if self._n_ans:
            self._ans_diff |= value ^ self._ans_first
            self._ans_v |= value
        else:
            self._ans_first = self._ans_v = value
            self._ans_w = width
            self._ans_diff = 0
        self._n_ans += 1

    def _collide(self):
        """Several tags answering at once: the first differing bit is the collision reported."""
        diff = self._ans_diff
        if not diff:
            self._coll = None
            return
        coll = 0
        while not (diff >> coll) & 1:
            coll += 1
        self._coll = coll
        if not self.regs[COLL] & 0x80:  # ValuesAfterColl = 0: bits after the collision cleared
            self._ans_v &= (1 << (coll + 1)) - 1

    def _up_us(self):
        # how long the field has been on, the tags it has powered woken (-1: the field is off)
        if self._on_ms is None:
            return -1
        up = self.clock.since_us(self._on_ms, self._on_us)
        for t in self.tags:
            if up >= t.power_up_us and t.state == POWER_OFF:
                t.state = IDLE_STATE
        return up

    def _answer(self, data, nbits, n=None):
        """The tags' answers to the frame data[:n] of `nbits` bits, merged (_add); returns how many
        tags answered."""
        if n is None:
            n = len(data)
        self._n_ans = 0
        up = self._up_us()
        if up < 0 or not n:
            return 0
        if nbits == 7:
            self._request(up, data[0])
            return self._n_ans
        cmd = data[0]
        if cmd == 0x50 and nbits == 32 and crc_a(data, 0x6363, 0, 2) == data[2] | (data[3] << 8):
            for t in self.tags:
                if up >= t.power_up_us and t.state == ACTIVE:
                    t.state = HALT
            return 0
        if cmd in (0x93, 0x95, 0x97) and nbits >= 16:
            level = (cmd - 0x93) // 2
            if data[1] == 0x70 and nbits == 72:
                self._select(up, data, level)
            else:
                self._anticollision(up, data, n, nbits, level)
            return self._n_ans
        for t in self.tags:  # anything else sends a tag back to IDLE (or HALT)
            if up >= t.power_up_us:
                t.state = HALT if t.state == HALT else IDLE_STATE
        return 0

    def _request(self, up, cmd):
        for t in self.tags:
            if up < t.power_up_us:
                continue
            if (cmd == 0x26 and t.state == IDLE_STATE) or (cmd == 0x52 and t.state in (IDLE_STATE, HALT)):
                t.state = READY
                t.level = 0
                self._add((0x04, 0x44, 0x84)[t.levels - 1], 16)  # _le_int(t.atqa), made without bytes

    def _anticollision(self, up, data, n, nbits, level):
        known = nbits - 16
        if known != ((data[1] >> 4) - 2) * 8 + (data[1] & 0x0F) or known >= 40:
            return
        mask = (1 << known) - 1
        want = _le_int(data, 2, n) & mask
        for t in self.tags:
            if up < t.power_up_us or t.state != READY or t.level != level:
                continue
            frame = bytearray(t.cl_frame(t.level))
            if t.bad_bcc > 0:
                t.bad_bcc -= 1
                frame[4] ^= 0xFF
            v = _le_int(frame)
            if v & mask == want:
                self._add(v >> known, 40 - known)

    def _select(self, up, data, level):
        if crc_a(data, 0x6363, 0, 7) != data[7] | (data[8] << 8):
            return
        for t in self.tags:
            if up < t.power_up_us or t.state != READY or t.level != level:
                continue
            if not _selects(t, level, data):
                t.state = IDLE_STATE
                continue
            last = level + 1 >= t.levels
            sak = t.sak if last else 0x04
            if last:
                t.state = ACTIVE
            else:
                t.level = level + 1
            crc = crc_a(b"\x00", 0x6363 ^ sak)  # CRC_A of the one byte sak
            if t.bad_crc > 0:
                t.bad_crc -= 1
                crc ^= 0x5A5A
            self._add(sak | (crc << 8), 24)


def _selects(tag, level, data):
    # the SELECT frame's UID CLn + BCC (data[2:7]) is the tag's cl_frame(level)
    for i in range(5):
        if tag.cl_byte(level, i) != data[2 + i]:
            return False
    return True


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
