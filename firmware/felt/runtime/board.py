"""Board pin maps as data (hardware/boards/*.json), checked at start -- sits between hal and drivers.

load(dict) checks a pin map and returns a Board: every seat wired (antenna chip-select and button),
board/burn/muck antennas present, every pin a valid GPIO of that board and valid for its function
(SPI/I2C/UART pins from the board's own "functions" table), no pin used twice (reserved pins count
as used). Any problem raises ConfigError naming it. open_*() build HAL objects from a Board.
"""
from felt.errors import ConfigError
from felt.hal import Decoder

MAX_SEATS = 10
TABLE_ANTENNAS = ("board", "burn", "muck")
DECODER_ADDRESS_PINS = {"74HC154": 4, "74HC138": 3}  # 16 and 8 active-low outputs


def _expect(value, kind, what):
    """`value` checked against `kind`: int (a whole number, not a bool), list (a list of whole
    numbers -- every list in a board file is a pin list), dict or bool. JSON gives any type anywhere,
    so every value is checked before it is used."""
    if kind is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ConfigError("%s must be a whole number, got %r" % (what, value))
    elif kind is list:
        if not isinstance(value, list):
            raise ConfigError("%s must be a list of GPIO numbers, got %r" % (what, value))
        for v in value:
            _expect(v, int, "%s entry" % what)
    elif kind is dict:
        if not isinstance(value, dict):
            raise ConfigError("%s must be an object, got %r" % (what, value))
    elif kind is bool:
        if not isinstance(value, bool):
            raise ConfigError("%s must be true or false, got %r" % (what, value))
    else:
        raise ValueError("board._expect: unknown kind %r" % (kind,))  # a bug here, not in the file
    return value


def _need(data, key, kind, where):
    if key not in data:
        raise ConfigError("%s: missing %r" % (where, key))
    return _expect(data[key], kind, "%s: %r" % (where, key))


def _optional(data, key, kind, where):
    # An optional setting (baud, freq, ...): checked here so the open_*() helpers can trust it.
    if key in data:
        _expect(data[key], kind, "%s: %r" % (where, key))


def _is_number(key):
    # A seat or pin number used as a JSON object key. Plain ASCII digits only: str.isdigit() also
    # accepts digits such as '\u00b9' that int() refuses on CPython.
    return isinstance(key, str) and key != "" and not [c for c in key if c not in "0123456789"]


def _number_key(key, what):
    if not _is_number(key):
        raise ConfigError("%s: %r is not a GPIO number" % (what, key))
    return int(key)


class Board:
    """A checked pin map. Attributes: name, board, hal, seats, spi (dict), decoder (dict or None),
    antennas (list of (location, chip-select: GPIO or decoder line) in poll order), buttons (list
    of (seat, GPIO)), buttons_active_low, buttons_pull, neopixel, i2c, uarts (dicts), pins
    ({GPIO: what uses it}). A record without methods, made by load(): a map in use does not keep
    this module loaded, so a board drops it once its drivers are open (felt.runtime.heap.forget;
    hardware/memory.md, Idioms 7)."""


def _new_board(data):
    b = Board()
    b.data = data
    b.board = data.get("board", "?")
    b.name = data.get("name", b.board)
    b.hal = data.get("hal")
    b.pins = {}
    b.functions = {}
    b._gpio = None
    return b


def _use(board, pin, what):
    _expect(pin, int, "%s: pin" % what)
    if pin not in board._gpio:
        raise ConfigError("%s: GPIO %d is not a usable pin on %s" % (what, pin, board.board))
    if pin in board.pins:
        raise ConfigError("GPIO %d used twice: %s and %s" % (pin, board.pins[pin], what))
    board.pins[pin] = what


def _function(board, bus_name, role, pin, what):
    table = board.functions.get(bus_name)  # checked by _functions()
    if table is None:
        raise ConfigError("%s: %s has no %s" % (what, board.board, bus_name))
    if pin not in table.get(role, ()):
        raise ConfigError("%s: GPIO %d cannot be %s %s (allowed: %s)" % (
            what, pin, bus_name, role.upper(), ", ".join(str(p) for p in table.get(role, ()))))
    _use(board, pin, what)


def load(data):
    """Check a pin map (a dict, as json.load gives it) and return a Board."""
    if not isinstance(data, dict):
        raise ConfigError("a board file must hold a JSON object")
    b = _new_board(data)
    where = "board %s" % b.board
    gpio = _need(data, "gpio", list, where)
    b._gpio = set(gpio)
    b.seats = _need(data, "seats", int, where)
    if not 1 <= b.seats <= MAX_SEATS:
        raise ConfigError("%s: seats must be 1..%d, got %d" % (where, MAX_SEATS, b.seats))
    _functions(b, where)
    reserved = _expect(data.get("reserved", {}), dict, "%s: 'reserved'" % where)
    for key in sorted(reserved):
        _use(b, _number_key(key, "reserved"), "reserved (%s)" % (reserved[key],))
    _spi(b, where)
    _antennas(b, where)
    _buttons(b, where)
    _peripherals(b, where)
    _journal(b, where)
    # the checked record keeps what the drivers are opened from; the raw map and the usable-GPIO
    # set served only the checks (~1.5 KB of RAM for the whole run otherwise)
    b.data = None
    b._gpio = None
    return b


def _functions(b, where):
    # {"spi0": {"sck": [pins], ...}, "uart0": {...}}: which GPIO can take which bus role.
    funcs = _expect(b.data.get("functions", {}), dict, "%s: 'functions'" % where)
    for name in sorted(funcs):  # name order: the same first error on every interpreter
        table = _expect(funcs[name], dict, "functions: %r" % (name,))
        for role in sorted(table):
            _expect(table[role], list, "functions: %s %r" % (name, role))
    b.functions = funcs


def _spi(b, where):
    spi = _need(b.data, "spi", dict, where)
    bus = "spi%d" % _need(spi, "bus", int, "spi")
    for role in ("sck", "mosi", "miso"):
        _function(b, bus, role, _need(spi, role, int, "spi"), "SPI %s" % role.upper())
    _optional(spi, "baud", int, "spi")
    b.spi = spi
    cs = b.data.get("chip_select", "direct")
    b.decoder = None
    if cs == "direct":
        return
    if not isinstance(cs, dict) or not isinstance(cs.get("decoder"), str) or cs["decoder"] not in DECODER_ADDRESS_PINS:
        raise ConfigError("%s: chip_select must be \"direct\" or a decoder (%s)" % (
            where, ", ".join(sorted(DECODER_ADDRESS_PINS))))
    address = _need(cs, "address", list, "chip_select")
    if len(address) != DECODER_ADDRESS_PINS[cs["decoder"]]:
        raise ConfigError("chip_select: a %s needs %d address pins, got %d" % (
            cs["decoder"], DECODER_ADDRESS_PINS[cs["decoder"]], len(address)))
    for i in range(len(address)):
        _use(b, address[i], "chip-select decoder A%d" % i)
    _use(b, _need(cs, "enable", int, "chip_select"), "chip-select decoder enable")
    b.decoder = cs


def _locations(seats):
    return ["seat%d" % s for s in range(1, seats + 1)] + list(TABLE_ANTENNAS)


def _antennas(b, where):
    ant = _need(b.data, "antennas", dict, where)
    wanted = _locations(b.seats)
    for loc in sorted(ant):
        if loc not in wanted:
            raise ConfigError("antennas: %r is not a location of a %d-seat table" % (loc, b.seats))
    lines = {}
    b.antennas = []
    for loc in wanted:
        if loc not in ant:
            raise ConfigError("antennas: %s is not wired" % loc)
        cs = ant[loc]
        if b.decoder is None:
            _use(b, cs, "chip-select of antenna %s" % loc)
        else:
            top = 1 << len(b.decoder["address"])
            if not isinstance(cs, int) or isinstance(cs, bool) or not 0 <= cs < top:
                raise ConfigError("antennas: %s on decoder line %r, lines are 0..%d" % (loc, cs, top - 1))
            if cs in lines:
                raise ConfigError("decoder line %d used twice: antenna %s and antenna %s" % (cs, lines[cs], loc))
            lines[cs] = loc
        b.antennas.append((loc, cs))


def _buttons(b, where):
    btn = _need(b.data, "buttons", dict, where)
    pins = _need(btn, "pins", dict, "buttons")
    for key in sorted(pins):
        if not _is_number(key) or not 1 <= int(key) <= b.seats:
            raise ConfigError("buttons: %r is not a seat of a %d-seat table" % (key, b.seats))
    b.buttons = []
    for seat in range(1, b.seats + 1):
        if str(seat) not in pins:
            raise ConfigError("buttons: seat %d is not wired" % seat)
        _use(b, pins[str(seat)], "button of seat %d" % seat)
        b.buttons.append((seat, pins[str(seat)]))
    _optional(btn, "active_low", bool, "buttons")
    b.buttons_active_low = btn.get("active_low", True)
    b.buttons_pull = btn.get("pull", "up")
    if b.buttons_pull not in (None, "up", "down"):
        raise ConfigError("buttons: pull must be up, down or null, got %r" % (b.buttons_pull,))


def _peripherals(b, where):
    neo = _need(b.data, "neopixel", dict, where)
    _use(b, _need(neo, "pin", int, "neopixel"), "NeoPixel data")
    if _need(neo, "count", int, "neopixel") < 5 * b.seats:
        raise ConfigError("neopixel: %d LEDs, a %d-seat table needs %d (5 per seat)" % (neo["count"], b.seats, 5 * b.seats))
    b.neopixel = neo
    i2c = _need(b.data, "i2c", dict, where)
    bus = "i2c%d" % _need(i2c, "bus", int, "i2c")
    _function(b, bus, "sda", _need(i2c, "sda", int, "i2c"), "I2C SDA")
    _function(b, bus, "scl", _need(i2c, "scl", int, "i2c"), "I2C SCL")
    _optional(i2c, "freq", int, "i2c")
    _optional(i2c, "display", int, "i2c")
    b.i2c = i2c
    uarts = _need(b.data, "uarts", dict, where)
    for name in ("shoe", "console"):
        u = _need(uarts, name, dict, "uarts")
        if "port" not in u:
            raise ConfigError("uarts: %s has no port" % name)
        _optional(u, "baud", int, name)
        if "tx" in u or "rx" in u:
            bus = "uart%s" % u["port"] if isinstance(u["port"], int) else _uart_of(b, u)
            _function(b, bus, "tx", _need(u, "tx", int, name), "UART %s TX" % name)
            _function(b, bus, "rx", _need(u, "rx", int, name), "UART %s RX" % name)
    b.uarts = uarts


JOURNAL_KINDS = ("files", "ring")
SECTOR = 4096


def _journal(b, where):
    # Where the journal lives (hardware/journal.md section 3): "files" (a directory on the file
    # system; the default, the Raspberry Pi) or "ring" (raw flash sectors, boards with on-chip
    # flash: start and length in bytes of the storage region, start < 0 counts from its end).
    j = _expect(b.data.get("journal", {"kind": "files"}), dict, "%s: 'journal'" % where)
    kind = j.get("kind")
    if kind not in JOURNAL_KINDS:
        raise ConfigError("journal: kind must be one of %s, got %r" % (", ".join(JOURNAL_KINDS), kind))
    if kind == "ring":
        start = _need(j, "start", int, "journal")
        length = _need(j, "length", int, "journal")
        if start % SECTOR or length % SECTOR or length < 3 * SECTOR:
            raise ConfigError("journal: a ring needs whole %d-byte sectors, at least 3 (start %d, length %d)"
                              % (SECTOR, start, length))
    b.journal = j


def _uart_of(b, u):
    # A Linux port name (/dev/serial0) says nothing of pins: find the UART whose TX is u["tx"].
    funcs = b.functions
    for name in sorted(funcs):
        if name.startswith("uart") and u.get("tx") in funcs[name].get("tx", ()):
            return name
    return "uart?"


def load_file(path):
    import json

    with open(path) as f:
        try:
            data = json.load(f)
        except ValueError as e:
            raise ConfigError("%s: not valid JSON (%s)" % (path, e))
    return load(data)


# -- building HAL objects from a checked board ---------------------------------------------------

def chip_selects(board, hal):
    """{location: chip-select for SPIBus.device()} -- a GPIO number or a decoded line."""
    if board.decoder is None:
        return dict(board.antennas)
    pins = board.decoder["address"]
    if callable(getattr(hal, "output_port", None)):  # the address in one port write (hal contract, MAY)
        address = hal.output_port(pins, value=0)
    else:
        address = [hal.output_pin(p, value=0) for p in pins]
    decoder = Decoder(address, hal.output_pin(board.decoder["enable"], value=1), board.decoder["decoder"])
    return {loc: decoder.line(line) for loc, line in board.antennas}


def open_antenna_devices(board, hal):
    """[(location, SPIDevice)] in the board's poll order."""
    spi = board.spi
    bus = hal.spi(spi["bus"], baud=spi.get("baud", 4000000), sck=spi["sck"], mosi=spi["mosi"], miso=spi["miso"])
    cs = chip_selects(board, hal)
    return [(loc, bus.device(cs[loc])) for loc, _line in board.antennas]


def open_buttons(board, hal):
    """[(seat, InputPin)] with the board's pull."""
    return [(seat, hal.input_pin(pin, pull=board.buttons_pull)) for seat, pin in board.buttons]


def open_pixel_chain(board, hal):
    return hal.neopixel(board.neopixel["pin"], board.neopixel["count"])


def open_i2c(board, hal):
    i = board.i2c
    return hal.i2c(i["bus"], freq=i.get("freq", 400000), scl=i["scl"], sda=i["sda"])


def display_address(board):
    return board.i2c.get("display", 0x3C)


def open_uart(board, hal, name):
    """The UART called `name` ("shoe" or "console") in the board file."""
    u = board.uarts[name]
    return hal.uart(u["port"], baud=u.get("baud", 115200), tx=u.get("tx"), rx=u.get("rx"))
