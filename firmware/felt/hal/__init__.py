"""Hardware abstraction layer (hal layer): the one written contract every backend keeps.

Backends: machine_hal (MicroPython `machine`, RP2040 Pico), rpi_hal (Raspberry Pi Linux:
RPi.GPIO, spidev, pyserial, /dev/i2c-N) and sim_hal (deterministic, scripted by tests).
Drivers are handed the objects below and never create hardware themselves. The same text, with
examples, is in hardware/hal.md.

A backend is an object (opened once by firmware/main.py, never at import time) that

MUST implement
  spi(bus, baud=..., sck=None, mosi=None, miso=None) -> SPIBus
      SPIBus.device(cs) -> SPIDevice; `cs` is a GPIO number driven LOW for one exchange, or a
      chip-select object with value(0|1) and a hashable `key` (DecodedChipSelect below: ten
      seats need 13 chip-selects, more than a Pico has pins to spare, so a 74HC154 decodes them).
      SPIDevice.transfer(out_buf, in_buf): full duplex, len(out_buf) == len(in_buf) bytes,
      SPI mode 0, chip-select held low for the whole transfer and high afterwards. Must not
      allocate per call when the backend can avoid it (drivers call it in hot loops).
      SPIDevice.cs is the chip-select pin number.
  uart(port, baud=..., tx=None, rx=None) -> UART with
      read(n) -> bytes (possibly empty; never blocks), write(b) -> int, any() -> int (bytes waiting).
  input_pin(pin, pull=None|"up"|"down") -> InputPin with value() -> 0 or 1.
  output_pin(pin, value=0) -> OutputPin with value(v) (set) and value() (read back the last set).
  ticks_ms() -> int: a millisecond clock. ONLY the runtime loop reads it; drivers are given
      now_ms as an argument. Values only increase within one run (backends that wrap, like
      MicroPython's ticks, are unwrapped by the backend).

MAY implement (raise ConfigError naming the missing capability otherwise)
  InputPin.irq(handler, edge="both"|"rising"|"falling"): handler(pin) runs in interrupt (or,
      on Linux, callback-thread) context: it may only put small ints into a pre-allocated
      felt.drivers.ringbuf.RingBuffer -- no allocation, no parsing, no clock.
  i2c(bus, freq=..., scl=None, sda=None) -> I2C with writeto(addr, buf) (raises OSError when
      no device acknowledges) and optionally readfrom(addr, n).
  neopixel(pin, count) -> PixelChain with count and write(rgb) where rgb is a bytes-like of
      3*count values in R, G, B order (the backend reorders to the chain's G, R, B wire order).
  flash(start, length) -> a block device over raw on-chip flash (the MicroPython extended block
      protocol: readblocks(n, buf, off), writeblocks(n, buf, off) programs without erasing,
      ioctl(4) block count, ioctl(5) block size, ioctl(6, n) erases block n), `length` bytes
      from `start` of the board's storage region (start < 0: from its end). For the ring journal
      (felt.recovery.ring; the board file's "journal" says which journal a board uses).
  output_port(pins, value=0) -> OutputPort with width (len(pins)) and value(n): bit i of n drives
      pins[i], all in one register write (value() reads back the last n). machine_hal on an
      RP2040/RP2350: one store to the SIO's GPIO_OUT_XOR (machine.mem32) for pins in GPIO 0..29;
      elsewhere each pin's own write (felt.hal.shared.PinGroup, the documented fallback). The
      decoder's address pins (board.chip_selects) use it when the backend has it.
  close(): release pins and buses.

Every backend has `name` ("machine", "rpi", "sim"). Pin numbers are the board's GPIO numbers
(RP2040 GPn, Raspberry Pi BCM); hardware/boards/*.json hold them.
"""
from felt.errors import ConfigError

MUST = ("spi", "uart", "input_pin", "output_pin", "ticks_ms")
MAY = ("i2c", "neopixel", "flash", "output_port", "close")

PULLS = (None, "up", "down")
EDGES = ("both", "rising", "falling")


def missing(backend):
    """Names of MUST capabilities `backend` lacks ([] for a conforming backend)."""
    return [name for name in MUST if not callable(getattr(backend, name, None))]


def check_backend(backend):
    """Raise ConfigError when `backend` does not keep the MUST part of the contract."""
    gone = missing(backend)
    if gone:
        raise ConfigError("HAL backend %r lacks %s" % (getattr(backend, "name", "?"), ", ".join(gone)))
    return backend


def check_pull(pull):
    if pull not in PULLS:
        raise ConfigError("pull must be None, 'up' or 'down', got %r" % (pull,))
    return pull


def check_edge(edge):
    if edge not in EDGES:
        raise ConfigError("edge must be 'both', 'rising' or 'falling', got %r" % (edge,))
    return edge


def unsupported(backend_name, capability):
    return ConfigError("HAL backend %r has no %s" % (backend_name, capability))


class Decoder:
    """A 74HC154 4-to-16 line decoder driving chip-selects: output Yn is low while the address
    pins hold n and /E (enable_pin, with the second enable tied low) is low. `address`: the
    address pins as an OutputPort (backend.output_port: all of them in one write where the
    hardware allows) or a list of OutputPins of any backend (each written on its own);
    line(n) gives the chip-select object for SPIBus.device()."""

    def __init__(self, address, enable_pin, name="74HC154"):
        if isinstance(address, (list, tuple)):
            from felt.hal.shared import PinGroup

            address = PinGroup(address)
        if not 1 <= address.width <= 4:
            raise ConfigError("a 74HC154 has 4 address inputs, got %d" % address.width)
        self.address = address
        self.enable_pin = enable_pin
        self.name = name
        self.lines = 1 << address.width
        self.current = None  # the line the address pins hold (None: not driven yet)
        enable_pin.value(1)

    def set_address(self, n):
        """Drive the address pins to line n (/E must be high)."""
        self.address.value(n)
        self.current = n

    def line(self, n):
        if not 0 <= n < self.lines:
            raise ConfigError("%s has lines 0..%d, not %d" % (self.name, self.lines - 1, n))
        return DecodedChipSelect(self, n)


class DecodedChipSelect:
    """Chip-select n of a Decoder; value(0) selects (address first, then enable), value(1) ends.
    The address pins are driven only when the line changes -- once per antenna visit, as the
    poller talks to one chip at a time; every transfer toggles only /E (issue 20: the address
    rewritten on both edges of each transfer was most of the MFRC522 path's CPU)."""

    def __init__(self, decoder, n):
        self.decoder = decoder
        self.line = n
        self.key = (decoder.name, n)

    def value(self, v):
        d = self.decoder
        if v:
            d.enable_pin.value(1)
            return
        if d.current != self.line:
            # /E high first (it is, unless the last exchange raised): every output stays high
            # while the address moves
            d.enable_pin.value(1)
            d.set_address(self.line)
        d.enable_pin.value(0)
