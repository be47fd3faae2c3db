"""Simulated HAL backend (hal layer): deterministic, scripted by the test, state readable by it.

Keeps the contract of felt.hal. No threads, no randomness, no wall clock: time is a SimClock
that tests (and simulated devices modelling their own timing) advance. Device models attach to
the SPI bus by chip-select, to I2C by address, to UARTs by port; pins are driven with set().
Runs under MicroPython too (`feltctl sim`).
"""
from felt.errors import ConfigError
from felt.hal import check_edge, check_pull

_ENODEV = 19


class SimClock:
    """Manual clock; the runtime loop reads ticks_ms(), models advance it. Kept as whole
    milliseconds and the microseconds into the current one: each stays a small int for 12 days of
    table time on a 32-bit MicroPython, where one count of microseconds passes 2**30 after 18
    minutes and then allocates at every SPI transfer's clock step (hardware/memory.md, "Second
    round"). `now_us` is the whole count, for tests and short spans; models measure a span from
    a stamp (ms, us) with since_us()."""

    def __init__(self, start_ms=0):
        self.ms = start_ms
        self.us = 0  # 0..999

    @property
    def now_us(self):
        return self.ms * 1000 + self.us

    def ticks_ms(self):
        return self.ms

    def ticks_us(self):
        return self.ms * 1000 + self.us

    def since_us(self, ms, us):
        """Microseconds since the stamp (ms, us) (a small int for any span under 17 minutes)."""
        return (self.ms - ms) * 1000 + self.us - us

    def advance_us(self, us):
        if us < 0:
            raise ValueError("time cannot go back (%d us)" % us)
        us += self.us
        if us < 1000:
            self.us = us
        else:
            self.ms += us // 1000
            self.us = us % 1000

    def advance_ms(self, ms):
        if ms < 0:
            raise ValueError("time cannot go back (%d ms)" % ms)
        self.ms += ms

    def advance_to_us(self, t_us):
        if t_us > self.ms * 1000 + self.us:
            self.ms = t_us // 1000
            self.us = t_us % 1000

    def advance_to_ms(self, t_ms):
        """advance_to_us(t_ms * 1000) without the microsecond count."""
        if t_ms > self.ms:
            self.ms = t_ms
            self.us = 0


HISTORY = 64  # pin changes kept per pin (a long simulation must not grow without bound)


class SimPin:
    """A GPIO. Input: the test drives the outside world with set(level), which fires the irq
    handler on a matching edge. Output: value(v) records (time_us, v) in `history` (the last
    hal.pin_history changes, HISTORY unless the HAL was made with fewer); `changes` counts them all."""

    def __init__(self, hal, pin, mode, pull=None, value=0):
        self.hal = hal
        self.pin = pin
        self.mode = mode
        self.pull = pull
        self.level = (1 if pull == "up" else 0) if mode == "in" else value
        self.history = [] if mode == "in" or not hal.pin_history else [(hal.clock.now_us, value)]
        self.changes = 0
        self._handler = None
        self._edge = None

    def value(self, v=None):
        if v is None:
            return self.level
        if self.mode != "out":
            raise ConfigError("pin %d is an input; it cannot be driven" % self.pin)
        self.level = 1 if v else 0
        self._record()
        return None

    def _record(self):
        self.changes += 1
        if self.hal.pin_history:
            self.history.append((self.hal.clock.now_us, self.level))
            if len(self.history) > self.hal.pin_history:
                self.history.pop(0)

    def irq(self, handler, edge="both"):
        if self.mode != "in":
            raise ConfigError("pin %d is an output; it has no interrupt" % self.pin)
        self._edge = check_edge(edge)
        self._handler = handler

    def set(self, level):
        """Test side: the outside world drives this input to `level`."""
        level = 1 if level else 0
        old = self.level
        self.level = level
        self._record()
        if self._handler is None or old == level:
            return
        if self._edge == "both" or (self._edge == "rising") == (level == 1):
            self._handler(self)


class SimSPIDevice:
    """cs_pin: a SimPin (key: its number) or a chip-select object with value() and key."""

    def __init__(self, bus, cs_pin, key):
        self.bus = bus
        self.cs = key
        self._cs_pin = cs_pin

    def transfer(self, out_buf, in_buf):
        self._cs_pin.value(0)
        try:
            self.bus._transfer(self.cs, out_buf, in_buf)
        finally:
            self._cs_pin.value(1)


class SimSPIBus:
    """SPI bus with device models attached by chip-select. A model has
    spi_transfer(out_buf, in_buf). Each transfer costs txn_us + len * byte_ns of modelled time
    (default 4 MHz SCK plus the interpreter's per-call overhead)."""

    def __init__(self, hal, bus_id, baud, txn_us=20):
        self.hal = hal
        self.bus_id = bus_id
        self.baud = baud
        self.txn_us = txn_us
        self.byte_ns = 8 * 1000000000 // baud
        self.models = {}
        self.transfers = {}  # cs -> number of transfers (tests read it)
        self.bytes_moved = 0

    def attach(self, cs, model):
        """cs: a pin number, or the key of a decoded chip-select (e.g. ("74HC154", 3))."""
        self.models[cs] = model
        return model

    def device(self, cs):
        if isinstance(cs, int):
            return SimSPIDevice(self, self.hal.output_pin(cs, value=1), cs)
        return SimSPIDevice(self, cs, cs.key)

    def _transfer(self, cs, out_buf, in_buf):
        n = len(out_buf)
        if len(in_buf) != n:
            raise ValueError("SPI transfer needs equal buffers (%d != %d)" % (n, len(in_buf)))
        self.transfers[cs] = self.transfers.get(cs, 0) + 1
        self.bytes_moved += n
        self.hal.clock.advance_us(self.txn_us + (n * self.byte_ns + 999) // 1000)
        model = self.models.get(cs)
        if model is None:
            for i in range(n):  # nothing drives MISO: it reads as 0 (pull-down)
                in_buf[i] = 0
        else:
            model.spi_transfer(out_buf, in_buf)


class SimUART:
    """Host side of a serial port. With a model attached (write(b), read(n), any() from the
    chip's side) bytes go to and come from it; otherwise tests feed() bytes and read `sent`."""

    def __init__(self, port, baud):
        self.port = port
        self.baud = baud
        self.model = None
        self.rx = bytearray()
        self.sent = bytearray()

    def attach(self, model):
        self.model = model
        return model

    def feed(self, data):
        self.rx.extend(data)

    def any(self):
        return self.model.any() if self.model is not None else len(self.rx)

    def read(self, n=-1):
        if self.model is not None:
            return bytes(self.model.read(n))
        if n is None or n < 0 or n > len(self.rx):
            n = len(self.rx)
        out = bytes(self.rx[:n])
        self.rx = self.rx[n:]
        return out

    def write(self, data):
        self.sent.extend(data)
        if self.model is not None:
            self.model.write(bytes(data))
        return len(data)


class SimI2C:
    """I2C bus; models attach by 7-bit address and have i2c_write(buf) (and i2c_read(n))."""

    def __init__(self, bus_id, freq):
        self.bus_id = bus_id
        self.freq = freq
        self.models = {}

    def attach(self, addr, model):
        self.models[addr] = model
        return model

    def writeto(self, addr, buf):
        model = self.models.get(addr)
        if model is None:
            raise OSError(_ENODEV)  # no ACK, as machine.I2C reports it
        model.i2c_write(bytes(buf))
        return len(buf)

    def readfrom(self, addr, n):
        model = self.models.get(addr)
        if model is None:
            raise OSError(_ENODEV)
        return model.i2c_read(n)


class SimPixelChain:
    """A WS2812 chain: `writes` counts frames sent, pixel(i) is the (r, g, b) latched at LED i."""

    def __init__(self, pin, count):
        self.pin = pin
        self.count = count
        self.frame = bytearray(3 * count)
        self.writes = 0

    def write(self, rgb):
        if len(rgb) != 3 * self.count:
            raise ValueError("chain of %d needs %d bytes, got %d" % (self.count, 3 * self.count, len(rgb)))
        self.frame[:] = rgb
        self.writes += 1

    def pixel(self, i):
        j = 3 * i
        return (self.frame[j], self.frame[j + 1], self.frame[j + 2])


# SSD1306 commands that carry argument bytes (datasheet command table).
_SSD1306_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1, 0xA3: 2,
                 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class SimSSD1306:
    """A 128x64 SSD1306 at the I2C byte level: decodes control bytes, commands and GDDRAM writes
    in page (and horizontal) addressing. text_lines() reads the text back from the pixels."""

    def __init__(self, width=128, height=64):
        self.width = width
        self.pages = height // 8
        self.ram = bytearray(width * self.pages)
        self.on = False
        self.mode = 2  # page addressing after reset
        self.page = 0
        self.col = 0
        self.col_range = (0, width - 1)
        self.page_range = (0, self.pages - 1)
        self.commands = []  # every command byte and argument, in order
        self._pending = []
        self._want = 0

    def i2c_write(self, buf):
        i = 0
        n = len(buf)
        while i < n:
            control = buf[i]
            i += 1
            is_data = control & 0x40
            if control & 0x80:  # Co = 1: exactly one byte follows, then another control byte
                if i < n:
                    self._data(buf[i]) if is_data else self._command(buf[i])
                    i += 1
                continue
            while i < n:
                self._data(buf[i]) if is_data else self._command(buf[i])
                i += 1

    def _command(self, b):
        self.commands.append(b)
        if self._want:
            self._pending.append(b)
            self._want -= 1
            if not self._want:
                self._apply(self._pending)
            return
        if b in _SSD1306_ARGS:
            self._pending = [b]
            self._want = _SSD1306_ARGS[b]
            return
        if b == 0xAE or b == 0xAF:
            self.on = b == 0xAF
        elif 0xB0 <= b <= 0xB7:
            self.page = b & 0x07
        elif b <= 0x0F:
            self.col = (self.col & 0xF0) | b
        elif 0x10 <= b <= 0x1F:
            self.col = (self.col & 0x0F) | ((b & 0x0F) << 4)

    def _apply(self, cmd):
        op = cmd[0]
        if op == 0x20:
            self.mode = cmd[1] & 0x03
        elif op == 0x21:
            self.col_range = (cmd[1], cmd[2])
            self.col = cmd[1]
        elif op == 0x22:
            self.page_range = (cmd[1] & 7, cmd[2] & 7)
            self.page = cmd[1] & 7

    def _data(self, b):
        if self.col < self.width:
            self.ram[self.page * self.width + self.col] = b
        self.col += 1
        if self.mode == 2:  # page addressing: column wraps within the page
            if self.col >= self.width:
                self.col = 0
            return
        if self.col > self.col_range[1]:  # horizontal addressing
            self.col = self.col_range[0]
            self.page = self.page + 1 if self.page < self.page_range[1] else self.page_range[0]

    def pixel(self, x, y):
        return (self.ram[(y // 8) * self.width + x] >> (y % 8)) & 1

    def text_lines(self):
        """The 8 text rows (16 cells of 8x8 each), read back from GDDRAM with the display
        driver's own glyphs; an unknown cell reads as '?'. Trailing blanks are stripped."""
        from felt.drivers.display import glyph_table

        table = glyph_table()
        lines = []
        for page in range(self.pages):
            row = []
            base = page * self.width
            for cell in range(self.width // 8):
                key = bytes(self.ram[base + cell * 8: base + cell * 8 + 8])
                row.append(table.get(key, "?"))
            lines.append("".join(row).rstrip())
        return lines


class FileBlockDevice:
    """NOR flash kept in a file (the sim board's raw flash outside the simulator): the extended
    block protocol of rp2.Flash, programming clears bits only, ioctl(6) erases a block to 0xFF.
    Read and written in place, never held in RAM (an emulated board has a Pico's heap)."""

    def __init__(self, path, blocks, block_size=4096):
        self.path = path
        self.n = blocks
        self.bs = block_size
        try:
            with open(path, "rb") as f:
                have = len(f.read())
        except OSError:
            have = 0
        if have < blocks * block_size:
            with open(path, "ab") as f:
                erased = b"\xff" * block_size
                for _ in range(have // block_size, blocks):
                    f.write(erased)

    def readblocks(self, block, buf, off=0):
        with open(self.path, "rb") as f:
            f.seek(block * self.bs + off)
            f.readinto(buf)

    def writeblocks(self, block, buf, off=0):
        a = block * self.bs + off
        with open(self.path, "r+b") as f:
            f.seek(a)
            old = f.read(len(buf))
            new = bytearray(len(buf))
            for i in range(len(buf)):
                new[i] = old[i] & buf[i]
            f.seek(a)
            f.write(new)

    def ioctl(self, op, arg):
        if op == 4:
            return self.n
        if op == 5:
            return self.bs
        if op == 6:
            with open(self.path, "r+b") as f:
                f.seek(arg * self.bs)
                f.write(b"\xff" * self.bs)
            return 0
        return None


_POWER_UPS = [0]


class SimEntropy:
    """The simulated board's noise source: a 64-bit xorshift stream, seeded differently at every
    simulated power-up (a count, so runs repeat; a real board's source is the ring oscillator or
    the kernel: never the same twice). Only the simulator uses it; the firmware checks and
    conditions it like any source."""

    def __init__(self, seed=None):
        if seed is None:
            _POWER_UPS[0] += 1
            seed = 0x9E3779B97F4A7C15 ^ (_POWER_UPS[0] * 0x2545F4914F6CDD1D)
        self.x = (seed & 0xFFFFFFFFFFFFFFFF) or 1

    def __call__(self, n):
        out = bytearray(n)
        x = self.x
        for i in range(n):
            x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
            x ^= x >> 7
            x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
            out[i] = (x >> 24) & 255
        self.x = x
        return bytes(out)


class SimHAL:
    """The sim backend. Every pin is claimed once (a second claim raises ConfigError, as a
    miswired board would be caught); tests reach the models through the returned objects or
    pin(n), spi_bus(id), uart_port(p), i2c_bus(id), chain(pin)."""

    name = "sim"

    def __init__(self, clock=None, pin_history=HISTORY):
        self.clock = clock if clock is not None else SimClock()
        self.pin_history = pin_history  # changes each output pin keeps in `history`
        self._pins = {}
        self._spi = {}
        self._uarts = {}
        self._i2c = {}
        self._chains = {}
        self.flash_device = None  # the raw flash (a test hands the same one to the next HAL: a power cycle)
        self.flash_path = None  # set: the raw flash is this file (main.py on a sim board: survives a reboot)
        self.held = {}  # pin -> level the outside world holds it at from power-on (bare_sim: a key switch)
        # the simulated board's entropy source (issue 16 item 6): SimEntropy; a test sets None (a
        # board without one) or a stuck source to see the firmware refuse
        self.entropy_source = SimEntropy()

    def ticks_ms(self):
        return self.clock.ticks_ms()

    def entropy(self, n):
        if self.entropy_source is None:
            from felt.security.entropy import EntropyError
            raise EntropyError("this simulated board has no entropy source")
        return self.entropy_source(n)

    def _claim(self, pin, pin_obj):
        if pin in self._pins:
            raise ConfigError("pin %d is already in use (%s)" % (pin, self._pins[pin].mode))
        self._pins[pin] = pin_obj
        return pin_obj

    def input_pin(self, pin, pull=None):
        p = self._claim(pin, SimPin(self, pin, "in", check_pull(pull)))
        if pin in self.held:
            p.level = self.held[pin]  # held by the outside world since power-on (a key switch)
        return p

    def output_pin(self, pin, value=0):
        return self._claim(pin, SimPin(self, pin, "out", value=1 if value else 0))

    def spi(self, bus, baud=4000000, sck=None, mosi=None, miso=None):
        if bus not in self._spi:
            self._spi[bus] = SimSPIBus(self, bus, baud)
        return self._spi[bus]

    def uart(self, port, baud=115200, tx=None, rx=None):
        if port not in self._uarts:
            self._uarts[port] = SimUART(port, baud)
        return self._uarts[port]

    def i2c(self, bus, freq=400000, scl=None, sda=None):
        if bus not in self._i2c:
            self._i2c[bus] = SimI2C(bus, freq)
        return self._i2c[bus]

    def neopixel(self, pin, count):
        self._claim(pin, SimPin(self, pin, "out"))
        chain = SimPixelChain(pin, count)
        self._chains[pin] = chain
        return chain

    def flash(self, start, length):
        """RAM NOR flash (felt.recovery.ring.MemBlockDevice) of `length` bytes; `start` only names
        where it would be on a board. Made on first use, kept in flash_device."""
        if self.flash_device is None:
            if self.flash_path is not None:
                self.flash_device = FileBlockDevice(self.flash_path, length // 4096)
            else:
                from felt.recovery.ring import MemBlockDevice

                self.flash_device = MemBlockDevice(blocks=length // 4096)
        return self.flash_device

    def close(self):
        self._pins = {}

    # -- test side --------------------------------------------------------------------------
    def pin(self, n):
        return self._pins[n]

    def spi_bus(self, bus=0):
        return self.spi(bus)

    def uart_port(self, port):
        return self._uarts[port]

    def i2c_bus(self, bus=0):
        return self.i2c(bus)

    def chain(self, pin):
        return self._chains[pin]

    def add_display(self, bus=0, addr=0x3C):
        return self.i2c(bus).attach(addr, SimSSD1306())
