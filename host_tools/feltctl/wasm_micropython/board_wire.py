# The two-VM emulated board's `machine`, `neopixel` and `time` (host harness, at the root of the
# board VM's ROM image; never on a board). felt.hal.machine_hal.MachineHAL -- the backend a Pico runs
# -- is given this one module as all three. Every call goes to the simulated world through the
# launcher's JS module `wire` with small ints only (GPIO numbers, levels, buffer addresses from
# uctypes.addressof, lengths): the hot calls (Pin.value, SPI.write_readinto, ticks_ms, UART.any)
# allocate nothing on the board's heap (tests/host/test_wasm_two_vm.py checks it under heap_lock).
# A Pico's machine module is C and holds no RAM: these classes' code is in ROM here too, but their
# objects and names (~1-2 KB) are on the board's heap, an overstatement of the board (said so in
# hardware/memory.md, "Fourth round"). UART reads allocate their bytes, as machine.UART.read does.
import uctypes
import wire
from micropython import const
from time import ticks_add, ticks_diff  # noqa: F401 (the C ones: MachineHAL unwraps ticks_ms with ticks_diff)

# bound once: the first lookup of a JS attribute makes its proxy object (RAM), later ones reuse it
_pin_set = wire.pin_set
_pin_get = wire.pin_get
_call = wire.call
_spi = wire.spi
_put = wire.put
_get = wire.get
IRQS = {}  # GPIO -> Pin whose handler the world's edges call (board_side, op IRQ)
_TICKS = const(20)  # felt.sim.remote's world ops (const: no RAM, as the firmware's _NAME = const(...))
_UART_OPEN = const(21)
_UART_ANY = const(22)
_UART_READ = const(23)
_UART_WRITE = const(24)
_I2C_OPEN = const(25)
_I2C_WRITE = const(26)
_I2C_READ = const(27)
_SPI_OPEN = const(28)
_NP_OPEN = const(29)
_NP_WRITE = const(30)
_UART_RX = const(256)  # bytes of one read: rp2's machine.UART has a 256-byte receive ring on the heap too


def ticks_ms():
    return _call(_TICKS, 0, 0)


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4  # rp2's values
    IRQ_RISING = 8

    def __init__(self, n, mode=-1, pull=None, value=None):
        self.n = n  # (a handler only once irq() is called: one attribute less on every pin)
        if mode == 1:
            _pin_set(n, 1 if value else 0)
        elif mode == 0 and pull == 1:
            _pin_set(n, 1)  # the pull-up holds it high until the world drives it

    def value(self, v=None):
        if v is None:
            return _pin_get(self.n)
        _pin_set(self.n, v)
        return None

    def irq(self, handler=None, trigger=12):
        self.handler = handler
        IRQS[self.n] = self
        wire.pin_irq(self.n, (1 if trigger & 4 else 0) | (2 if trigger & 8 else 0))


class SPI:
    def __init__(self, bus, baudrate=1000000, polarity=0, phase=0, sck=None, mosi=None, miso=None):
        self.bus = bus
        _call(_SPI_OPEN, bus, baudrate)

    def write_readinto(self, out_buf, in_buf):
        n = len(out_buf)
        if len(in_buf) != n:
            raise ValueError("buffers must be the same length")
        _spi(self.bus, uctypes.addressof(out_buf), uctypes.addressof(in_buf), n)


class UART:
    def __init__(self, port, baudrate=115200, timeout=0, tx=None, rx=None):
        self.port = port
        self._rx = bytearray(_UART_RX)
        self._at = uctypes.addressof(self._rx)
        self._mv = memoryview(self._rx)
        _call(_UART_OPEN, port, baudrate)

    def any(self):
        return _call(_UART_ANY, self.port, 0)

    def read(self, n=-1):
        if n is None or n < 0 or n > _UART_RX:
            n = _UART_RX
        k = _get(_UART_READ, self.port, self._at, n)
        return bytes(self._mv[:k]) if k > 0 else None  # machine.UART.read: None when nothing came

    def write(self, data):
        return _put(_UART_WRITE, self.port, uctypes.addressof(data), len(data))


class I2C:
    def __init__(self, bus, freq=400000, scl=None, sda=None):
        self.bus = bus
        _call(_I2C_OPEN, bus, freq)

    def writeto(self, addr, buf, stop=True):
        r = _put(_I2C_WRITE, (self.bus << 8) | addr, uctypes.addressof(buf), len(buf))
        if r < 0:
            raise OSError(-r)  # no device acknowledged (ENODEV, as machine.I2C)
        return r

    def readfrom(self, addr, n, stop=True):
        buf = bytearray(n)
        r = _get(_I2C_READ, (self.bus << 8) | addr, uctypes.addressof(buf), n)
        if r < 0:
            raise OSError(-r)
        return bytes(buf)


class NeoPixel:
    """micropython-lib's neopixel (Python on a Pico too): a G, R, B buffer, write() sends it."""

    def __init__(self, pin, n):
        self.pin = pin.n
        self.n = n
        self.buf = bytearray(3 * n)
        _call(_NP_OPEN, pin.n, n)

    def __setitem__(self, i, rgb):
        j = 3 * i
        b = self.buf
        b[j] = rgb[1]
        b[j + 1] = rgb[0]
        b[j + 2] = rgb[2]

    def write(self):
        _put(_NP_WRITE, self.pin, uctypes.addressof(self.buf), len(self.buf))
