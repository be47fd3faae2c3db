"""MicroPython `machine` HAL backend (hal layer) for RP2040 (Pico-class) boards.

Keeps the contract of felt.hal with machine.Pin/SPI/UART/I2C and the neopixel module. The modules
are imported when the backend is opened (never at import of this file) and can be injected, so the
same code is tested against a recording fake on any interpreter.
"""
from felt.errors import ConfigError
from felt.hal import check_edge, check_pull, unsupported
from felt.hal.shared import ChipSelectBus, PinClaims, PinGroup

# The SIO (single-cycle IO) block of the RP2040 and RP2350 (datasheets, chapter SIO; pico-sdk
# hardware/regs/sio.h): GPIO_OUT and its atomic XOR alias (GPIO_OUT ^= written value) for GPIO
# 0..31, by chip. An RP2350B's GPIO 32..47 sit in the GPIO_HI_* registers: not handled here.
SIO_BASE = 0xD0000000
SIO_GPIO_OUT = {"RP2040": 0x010, "RP2350": 0x010}
SIO_GPIO_OUT_XOR = {"RP2040": 0x01C, "RP2350": 0x028}
PORT_PINS = 30  # GPIO 0..29: the bank every Pico-class board's header pins are in


def chip_of(text):
    """"RP2040" or "RP2350" named in `text` (sys.implementation._machine, e.g. "Raspberry Pi Pico
    with RP2040"), else None."""
    for chip in ("RP2040", "RP2350"):
        if chip in text:
            return chip
    return None


def port_mask(pins, n):
    """The GPIO_OUT bits that are high when the port's pins hold n (bit i of n on pins[i])."""
    mask = 0
    for i in range(len(pins)):
        if (n >> i) & 1:
            mask |= 1 << pins[i]
    return mask


class SIOPort:
    """OutputPort of the contract on the SIO: value(n) is ONE store to GPIO_OUT_XOR of exactly
    the pins that change, so they change on the same clock edge (a 74HC154's address: hal.Decoder).
    The port owns its pins (claimed like any output), so the level it last wrote is theirs:
    nothing is read back, and the store allocates nothing (masks made once, the register address
    held as an object)."""

    def __init__(self, mem32, xor_address, pins, level):
        self._mem32 = mem32
        self._xor = xor_address
        self.pins = pins
        self.width = len(pins)
        self._masks = [port_mask(pins, n) for n in range(1 << len(pins))]
        self._level = level

    def value(self, n=None):
        if n is None:
            return self._level
        flip = self._masks[n] ^ self._masks[self._level]
        if flip:
            self._mem32[self._xor] = flip
        self._level = n
        return None


class MachineInput:
    def __init__(self, machine, pin):
        self._pin = pin
        self._machine = machine

    def value(self):
        return self._pin.value()

    def irq(self, handler, edge="both"):
        P = self._machine.Pin
        trigger = {"both": P.IRQ_RISING | P.IRQ_FALLING, "rising": P.IRQ_RISING,
                   "falling": P.IRQ_FALLING}[check_edge(edge)]
        self._pin.irq(handler=handler, trigger=trigger)


class MachineOutput:
    def __init__(self, pin):
        self._pin = pin
        self._level = pin.value()
        # machine.Pin.value itself, for a pin one owner toggles in a hot loop (a decoder's /E:
        # hal.shared.DecodedDevice); value() then reads back what value(v) last set, not this
        self.raw_value = pin.value

    def value(self, v=None):
        if v is None:
            return self._level
        self._level = 1 if v else 0
        self._pin.value(self._level)
        return None


class MachineUART:
    def __init__(self, uart):
        self._uart = uart

    def read(self, n=-1):
        got = self._uart.read(n) if n is not None and n >= 0 else self._uart.read()
        return got if got is not None else b""  # machine.UART.read returns None on timeout

    def write(self, data):
        return self._uart.write(data) or 0

    def any(self):
        return self._uart.any()


class MachinePixelChain:
    def __init__(self, np, count):
        self._np = np
        self.count = count
        # one LED's R, G, B, handed to the neopixel module for every LED: it copies the three values
        # into its own buffer (in its order, G, R, B), so a tuple a LED was only garbage -- 1.6 KB a
        # lights refresh on a ten-seat chain (hardware/memory.md, Fourth round)
        self._led = bytearray(3)

    def write(self, rgb):
        if len(rgb) != 3 * self.count:
            raise ValueError("chain of %d needs %d bytes, got %d" % (self.count, 3 * self.count, len(rgb)))
        np = self._np
        led = self._led
        for i in range(self.count):
            j = 3 * i
            led[0] = rgb[j]
            led[1] = rgb[j + 1]
            led[2] = rgb[j + 2]
            np[i] = led  # the neopixel module orders G, R, B itself
        np.write()


class MachineHAL:
    """machine_module / neopixel_module / time_module default to the real ones."""

    name = "machine"

    def __init__(self, machine_module=None, neopixel_module=None, time_module=None, rp2_module=None,
                 os_module=None, chip=None):
        if machine_module is None:
            import machine as machine_module
        if time_module is None:
            import time as time_module
        self.machine = machine_module
        self._neopixel = neopixel_module
        self._rp2 = rp2_module
        self._os = os_module
        self._chip = chip  # "RP2040" / "RP2350" (None: read from sys.implementation when needed)
        self._time = time_module
        self._pins = PinClaims()
        self._spi = {}
        self._last_ticks = time_module.ticks_ms()
        self._total_ms = 0

    def entropy(self, n):
        """n bytes from the board's true entropy source: os.urandom, which on rp2 reads the ring
        oscillator's random bit (RP2040) or the TRNG (RP2350). EntropyError where the port has none
        (issue 16 item 6: felt.security.entropy checks what it returns before use)."""
        os_module = self._os
        if os_module is None:
            import os as os_module
        if not hasattr(os_module, "urandom"):
            from felt.security.entropy import EntropyError
            raise EntropyError("this board's MicroPython has no os.urandom: no true entropy source")
        return os_module.urandom(n)

    def ticks_ms(self):
        # time.ticks_ms() wraps (2**30 on rp2); ticks_diff unwraps it into a growing count.
        now = self._time.ticks_ms()
        self._total_ms += self._time.ticks_diff(now, self._last_ticks)
        self._last_ticks = now
        return self._total_ms

    def _bus_pins(self, what, pins):
        """machine.Pin keyword arguments for a bus's pins ((name, GPIO or None) pairs), each claimed."""
        kw = {}
        for name, pin in pins:
            if pin is not None:
                self._pins.claim(pin, "%s %s" % (what, name))
                kw[name] = self.machine.Pin(pin)
        return kw

    def input_pin(self, pin, pull=None):
        P = self.machine.Pin
        check_pull(pull)
        self._pins.claim(pin, "input")
        mode_pull = {None: None, "up": P.PULL_UP, "down": P.PULL_DOWN}[pull]
        return MachineInput(self.machine, P(pin, P.IN, mode_pull))

    def output_pin(self, pin, value=0):
        P = self.machine.Pin
        self._pins.claim(pin, "output")
        return MachineOutput(P(pin, P.OUT, value=1 if value else 0))

    def output_port(self, pins, value=0):
        """Output pins written together (bit i of value(n) on pins[i]): one store to the SIO's
        GPIO_OUT_XOR on an RP2040/RP2350 when every pin is in GPIO 0..29 (machine.mem32);
        otherwise, the documented fallback, each pin's own machine.Pin write (PinGroup)."""
        P = self.machine.Pin
        for p in pins:
            self._pins.claim(p, "output")
        outs = [MachineOutput(P(pins[i], P.OUT, value=(value >> i) & 1)) for i in range(len(pins))]
        chip = self._port_chip(pins)
        if chip is None:
            return PinGroup(outs, value)
        return SIOPort(self.machine.mem32, SIO_BASE + SIO_GPIO_OUT_XOR[chip], list(pins), value)

    def _port_chip(self, pins):
        # the chip whose SIO takes the port write, or None (no machine.mem32, another chip, a pin
        # outside GPIO 0..29)
        if getattr(self.machine, "mem32", None) is None:
            return None
        chip = self._chip
        if chip is None:
            import sys

            chip = chip_of(getattr(sys.implementation, "_machine", ""))
        if chip not in SIO_GPIO_OUT_XOR:
            return None
        for p in pins:
            if not 0 <= p < PORT_PINS:
                return None
        return chip

    def spi(self, bus, baud=4000000, sck=None, mosi=None, miso=None):
        if bus not in self._spi:
            kw = self._bus_pins("SPI%d" % bus, (("sck", sck), ("mosi", mosi), ("miso", miso)))
            spi = self.machine.SPI(bus, baudrate=baud, polarity=0, phase=0, **kw)
            self._spi[bus] = ChipSelectBus(self, spi.write_readinto, spi)
        return self._spi[bus]

    def uart(self, port, baud=115200, tx=None, rx=None):
        kw = self._bus_pins("UART%s" % port, (("tx", tx), ("rx", rx)))
        return MachineUART(self.machine.UART(port, baudrate=baud, timeout=0, **kw))

    def i2c(self, bus, freq=400000, scl=None, sda=None):
        kw = self._bus_pins("I2C%d" % bus, (("scl", scl), ("sda", sda)))
        return self.machine.I2C(bus, freq=freq, **kw)  # writeto/readfrom already keep the contract

    def neopixel(self, pin, count):
        module = self._neopixel
        if module is None:
            try:
                import neopixel as module
            except ImportError:
                raise unsupported(self.name, "neopixel module")
        self._pins.claim(pin, "NeoPixel")
        return MachinePixelChain(module.NeoPixel(self.machine.Pin(pin, self.machine.Pin.OUT), count), count)

    def flash(self, start, length):
        """rp2.Flash over `length` bytes at `start` of the storage region (start < 0: from its
        end). The region must lie outside the mounted file system (hardware/journal.md 3b)."""
        module = self._rp2
        if module is None:
            try:
                import rp2 as module
            except ImportError:
                raise unsupported(self.name, "raw flash (rp2.Flash)")
        if start < 0:
            whole = module.Flash()
            start += whole.ioctl(4, 0) * whole.ioctl(5, 0)
            if start < 0:
                raise unsupported(self.name, "%d bytes of raw flash" % length)
        fs = self._fs_bytes()
        if fs is not None and start < fs:
            # a stock MicroPython image mounts littlefs over the whole storage region: the ring
            # would erase the file system's blocks. Refused, never written.
            raise ConfigError("raw flash at %d..%d of the storage region overlaps the file system (%d bytes "
                              "from 0): flash a build with a smaller file system (hardware/journal.md 3b)"
                              % (start, start + length, fs))
        return module.Flash(start=start, len=length)

    def _fs_bytes(self):
        osm = self._os
        if osm is None:
            import os as osm
        try:
            st = osm.statvfs("/")
        except (OSError, AttributeError):
            return None
        return st[1] * st[2]  # f_frsize * f_blocks

    def close(self):
        self._pins.clear()
