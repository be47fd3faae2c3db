"""MicroPython `machine` HAL backend (hal layer) for RP2040 (Pico-class) boards.

Keeps the contract of felt.hal with machine.Pin/SPI/UART/I2C and the neopixel module. The modules
are imported when the backend is opened (never at import of this file) and can be injected, so the
same code is tested against a recording fake on any interpreter.
"""
from felt.hal import check_edge, check_pull, unsupported
from felt.errors import ConfigError


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

    def value(self, v=None):
        if v is None:
            return self._level
        self._level = 1 if v else 0
        self._pin.value(self._level)
        return None


class MachineSPIDevice:
    def __init__(self, spi, cs_pin, key):
        self._spi = spi
        self._cs = cs_pin
        self.cs = key

    def transfer(self, out_buf, in_buf):
        self._cs.value(0)
        try:
            self._spi.write_readinto(out_buf, in_buf)
        finally:
            self._cs.value(1)


class MachineSPIBus:
    def __init__(self, hal, spi):
        self._hal = hal
        self._spi = spi

    def device(self, cs):
        if isinstance(cs, int):
            return MachineSPIDevice(self._spi, self._hal.output_pin(cs, value=1), cs)
        return MachineSPIDevice(self._spi, cs, cs.key)


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

    def write(self, rgb):
        if len(rgb) != 3 * self.count:
            raise ValueError("chain of %d needs %d bytes, got %d" % (self.count, 3 * self.count, len(rgb)))
        np = self._np
        for i in range(self.count):
            j = 3 * i
            np[i] = (rgb[j], rgb[j + 1], rgb[j + 2])  # the neopixel module orders G, R, B itself
        np.write()


class MachineHAL:
    """machine_module / neopixel_module / time_module default to the real ones."""

    name = "machine"

    def __init__(self, machine_module=None, neopixel_module=None, time_module=None):
        if machine_module is None:
            import machine as machine_module
        if time_module is None:
            import time as time_module
        self.machine = machine_module
        self._neopixel = neopixel_module
        self._time = time_module
        self._claimed = {}
        self._spi = {}
        self._last_ticks = time_module.ticks_ms()
        self._total_ms = 0

    def ticks_ms(self):
        # time.ticks_ms() wraps (2**30 on rp2); ticks_diff unwraps it into a growing count.
        now = self._time.ticks_ms()
        self._total_ms += self._time.ticks_diff(now, self._last_ticks)
        self._last_ticks = now
        return self._total_ms

    def _claim(self, pin, what):
        if pin in self._claimed:
            raise ConfigError("pin %d is already in use (%s)" % (pin, self._claimed[pin]))
        self._claimed[pin] = what

    def input_pin(self, pin, pull=None):
        P = self.machine.Pin
        check_pull(pull)
        self._claim(pin, "input")
        mode_pull = {None: None, "up": P.PULL_UP, "down": P.PULL_DOWN}[pull]
        return MachineInput(self.machine, P(pin, P.IN, mode_pull))

    def output_pin(self, pin, value=0):
        P = self.machine.Pin
        self._claim(pin, "output")
        return MachineOutput(P(pin, P.OUT, value=1 if value else 0))

    def spi(self, bus, baud=4000000, sck=None, mosi=None, miso=None):
        if bus not in self._spi:
            P = self.machine.Pin
            kw = {}
            for name, pin in (("sck", sck), ("mosi", mosi), ("miso", miso)):
                if pin is not None:
                    self._claim(pin, "SPI%d %s" % (bus, name))
                    kw[name] = P(pin)
            spi = self.machine.SPI(bus, baudrate=baud, polarity=0, phase=0, **kw)
            self._spi[bus] = MachineSPIBus(self, spi)
        return self._spi[bus]

    def uart(self, port, baud=115200, tx=None, rx=None):
        P = self.machine.Pin
        kw = {}
        for name, pin in (("tx", tx), ("rx", rx)):
            if pin is not None:
                self._claim(pin, "UART%s %s" % (port, name))
                kw[name] = P(pin)
        return MachineUART(self.machine.UART(port, baudrate=baud, timeout=0, **kw))

    def i2c(self, bus, freq=400000, scl=None, sda=None):
        P = self.machine.Pin
        kw = {}
        for name, pin in (("scl", scl), ("sda", sda)):
            if pin is not None:
                self._claim(pin, "I2C%d %s" % (bus, name))
                kw[name] = P(pin)
        return self.machine.I2C(bus, freq=freq, **kw)  # writeto/readfrom already keep the contract

    def neopixel(self, pin, count):
        module = self._neopixel
        if module is None:
            try:
                import neopixel as module
            except ImportError:
                raise unsupported(self.name, "neopixel module")
        self._claim(pin, "NeoPixel")
        return MachinePixelChain(module.NeoPixel(self.machine.Pin(pin, self.machine.Pin.OUT), count), count)

    def close(self):
        self._claimed = {}
