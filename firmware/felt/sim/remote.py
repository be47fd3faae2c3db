# The simulated world's side of the two-VM emulated board (sim layer; hardware/memory.md, "Fourth
# round"): the firmware runs in another MicroPython VM that holds only what a board holds (its
# harness: host_tools/feltctl/wasm_micropython/board_side.py, its `machine`: board_wire.py). This VM
# keeps the devices (felt.hal.sim models on a SimHAL) and answers the board's bus calls at the wire:
# an SPI exchange goes to the chip the 74HC154's address and enable pins select (the levels the board
# drove), UART/I2C/NeoPixel bytes to the models. felt.sim.runner.Sim drives the board through the
# proxies here (RemoteRuntime, RemoteTable). `bridge` is the launcher's JS module `board` (launcher.mjs
# says what each call does): small ints across, bytes through the two mailboxes.
import json

# board ops (board_side.py answers them; op 1 is the main-loop step, counted by the launcher)
STEP = 1
IRQ = 2
BUILD = 3
NEXT_DUE = 4
SWEEPS = 5
BUSY = 6
TURN = 7
STATE = 8
ON_ANTENNA = 9
CARDS_ON = 10
SNAPSHOT = 11
PENDING = 12
SEATS = 13
ALERTS = 14
BUILD_STEP = 15
FEED_DELAY = 18
# world ops (the board's machine shims ask them)
TICKS = 20
UART_OPEN = 21
UART_ANY = 22
UART_READ = 23
UART_WRITE = 24
I2C_OPEN = 25
I2C_WRITE = 26
I2C_READ = 27
SPI_OPEN = 28
NP_OPEN = 29
NP_WRITE = 30
LOG = 31
ENODEV = 19
TICKS_MASK = 0x3FFFFFFF  # a board's time.ticks_ms() wraps at 2**30 (MicroPython's ticks period)
SPI_IN = 256  # the world mailbox: an exchange's MOSI bytes at 0, its MISO bytes at SPI_IN


class BoardError(Exception):
    """The board VM raised (its traceback is on stderr) or refused a call."""


class RemotePin:
    """An input pin of the board as the outside world drives it (a seat button): set(level)."""

    def __init__(self, bridge, gpio):
        self._bridge = bridge
        self.pin = gpio

    def set(self, level):
        self._bridge.drive(self.pin, 1 if level else 0)

    def value(self):
        return self._bridge.level(self.pin)


class _Poller:
    def __init__(self, bridge):
        self._bridge = bridge

    @property
    def sweeps(self):
        return self._bridge.call(SWEEPS, 0, 0)


class RemoteRuntime:
    """What Sim asks of felt.runtime.loop.Runtime, answered by the board. Times are this world's
    clock: the board's HAL counts from when it was built (t0_ms)."""

    text_filters = ()  # the board passes its log through its own filters

    def __init__(self, remote, t0_ms):
        self._remote = remote
        self._bridge = remote.bridge
        self.t0_ms = t0_ms
        self.poller = _Poller(remote.bridge)

    def step(self):
        if self._bridge.call(STEP, 0, 0) < 0:
            raise BoardError("the board's main-loop step raised (its traceback is above)")

    def next_due_ms(self):
        return self._bridge.call(NEXT_DUE, 0, 0) + self.t0_ms


class _Pending:
    def __init__(self, aid):
        self.id = aid


class RemoteTable:
    """What Sim and its callers ask of felt.table.controller.Table. config: the world's copy of the
    TableConfig the board was built from (read-only here)."""

    def __init__(self, remote, config):
        self._remote = remote
        self._bridge = remote.bridge
        self.config = config

    def busy(self):
        return self._bridge.call(BUSY, 0, 0) == 1

    @property
    def state(self):
        return self._remote.text(STATE)

    @property
    def alerts(self):
        """The alerts of the hand, as their log lines (Alert.line())."""
        return json.loads(self._remote.text(ALERTS))

    def pending(self):
        aid = self._bridge.call(PENDING, 0, 0)
        return [_Pending(aid)] if aid >= 0 else []


class RemoteBoard:
    """The board VM seen from the world. build() is Sim.build's remote half."""

    def __init__(self, bridge, mailbox=65536, boot="bare"):
        import uctypes  # MicroPython only: this world runs in the two-VM launcher

        self.bridge = bridge
        self.mb = bytearray(mailbox)
        self.mv = memoryview(self.mb)
        self.hal = None
        self.log_sink = None
        self.locations = []
        self._keys = None
        self._views = {}  # n -> (MOSI, MISO) views of the mailbox for an n-byte exchange
        self.phase_hook = None  # fn(k) after each build phase (a measurement's: the board's heap then)
        self.imported_hook = None  # fn() after the phase that ends the firmware's imports
        # "bare": the board builds the table as Sim.build does; "app": it boots as firmware/main.py does,
        # through felt.runtime.app.run, from the files in its own file system (its table.json, not
        # the config sent here; board_side._booting)
        self.boot = boot
        bridge.attach(self._spi, self._call, uctypes.addressof(self.mb), mailbox)

    def build(self, hal, board, config, shoe_protocol, log_sink):
        """Builds the firmware on the board (felt.sim.runner.Sim.build does the same on one heap):
        the table's config goes over as JSON (a board reads its table.json). Returns (rt, table)
        proxies."""
        self.hal = hal
        self.log_sink = log_sink
        self.locations = [loc for loc, _line in board.antennas]
        address = list(board.decoder["address"])
        self._keys = [(board.decoder["decoder"], n) for n in range(1 << len(address))]
        # the launcher decodes the line from the levels on these pins (launcher.mjs, spi)
        self.bridge.decoder(*([board.decoder["enable"]] + address))
        self._views = {}
        c = config
        data = {"game": c.game, "structure": c.structure, "seats": c.seats, "sb": c.sb, "bb": c.bb, "ante": c.ante,
                "small_bet": c.small_bet, "big_bet": c.big_bet, "bring_in": c.bring_in, "unit": c.unit,
                "mode": c.mode, "button": c.button, "deck": c.deck, "levels": c.levels, "level": c.level,
                "rules": dict(c.house.changed())}  # the house rules that differ from the mode's defaults
        flags = (1 if shoe_protocol == "ascii" else 0) | (2 if log_sink is not None else 0) | (
            4 if self.boot == "app" else 0)
        t0 = hal.clock.ticks_ms()
        more = self.put(BUILD, flags, json.dumps(data).encode())
        k = 0
        while more > 0:  # the board builds in phases, collecting between them (board_side._building)
            more = self.bridge.call(BUILD_STEP, 0, 0)
            k += 1
            if self.phase_hook is not None:
                self.phase_hook(k)
            if more == 2 and self.imported_hook is not None:  # board_side.IMPORTED
                self.imported_hook()
        if more < 0:
            raise BoardError("the board could not build the table (its traceback is above)")
        return RemoteRuntime(self, t0), RemoteTable(self, config)

    def set_feed_delay(self, ms):
        """The app-booted board's secrecy feed delay (as tests set app.feed.delay_ms)."""
        if self.bridge.call(FEED_DELAY, ms, 0) < 0:
            raise BoardError("the board could not set its feed delay")

    def pin(self, gpio):
        return RemotePin(self.bridge, gpio)

    # -- calls into the board ------------------------------------------------------------------
    def put(self, op, a, data):
        n = len(data)
        self.mb[:n] = data
        return self.bridge.put(op, a, n)

    def raw(self, op, a=0):
        k = self.bridge.get(op, a)
        if k < 0:
            raise BoardError("the board could not answer op %d" % op)
        return bytes(self.mv[:k])

    def text(self, op, a=0):
        return self.raw(op, a).decode()

    def on_antenna(self, loc, hexu):
        return self.put(ON_ANTENNA, self.locations.index(loc), hexu.encode()) == 1

    def cards_on(self, loc):
        return self.bridge.call(CARDS_ON, self.locations.index(loc), 0)

    def turn(self):
        r = self.bridge.call(TURN, 0, 0)
        if r < 0:
            return None
        return r >> 1, "call" if r & 1 else "check"

    def seat_order(self):
        return list(self.raw(SEATS))

    def snapshot(self):
        return json.loads(self.text(SNAPSHOT))

    # -- the board's bus calls (the world side of its machine module) ---------------------------
    def _spi(self, bus, n, line):
        # the chip the board selected: `line` is what the 74HC154's /E and address pins held (the
        # launcher read the levels the board drove; -1: /E high, no chip selected: MISO reads 0)
        views = self._views.get(n)
        if views is None:
            views = self._views[n] = (self.mv[0:n], self.mv[SPI_IN:SPI_IN + n])
        self.hal.spi(bus)._transfer(self._keys[line] if line >= 0 else None, views[0], views[1])
        return 0

    def _call(self, op, a, b, n):
        hal = self.hal
        if op == TICKS:
            return hal.clock.ticks_ms() & TICKS_MASK
        if op == UART_ANY:
            return hal.uart(a).any()
        if op == UART_READ:
            data = hal.uart(a).read(b)
            k = len(data)
            self.mb[:k] = data
            return k
        if op == UART_WRITE:
            return hal.uart(a).write(bytes(self.mv[:n]))
        if op == I2C_WRITE:
            try:
                return hal.i2c(a >> 8).writeto(a & 255, bytes(self.mv[:n]))
            except OSError:
                return -ENODEV
        if op == NP_WRITE:
            grb = self.mv
            rgb = bytearray(n)
            for i in range(0, n - 2, 3):  # the wire's G, R, B back to the model's R, G, B
                rgb[i] = grb[i + 1]
                rgb[i + 1] = grb[i]
                rgb[i + 2] = grb[i + 2]
            hal.chain(a).write(rgb)
            return 0
        if op == LOG:
            if self.log_sink is not None:
                self.log_sink(bytes(self.mv[:n]).decode())
            return 0
        return self._open(op, a, b)

    def _open(self, op, a, b):
        hal = self.hal
        if op == UART_OPEN:
            hal.uart(a, baud=b)
        elif op == SPI_OPEN:
            hal.spi(a, baud=b)
        elif op == I2C_OPEN:
            hal.i2c(a, freq=b)
        elif op == NP_OPEN:
            hal.neopixel(a, b)
        elif op == I2C_READ:
            try:
                data = hal.i2c(a >> 8).readfrom(a & 255, b)
            except OSError:
                return -ENODEV
            self.mb[:len(data)] = data
            return len(data)
        else:
            return -1
        return 0
