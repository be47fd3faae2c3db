"""Raspberry Pi Linux HAL backend (hal layer), CPython on a Pi 4/5.

Keeps the contract of felt.hal with RPi.GPIO (BCM numbering) for pins and chip-selects, spidev
for SPI (chip-selects are GPIOs or decoder lines, so the kernel's CE lines are not used), pyserial
for UARTs, /dev/i2c-N for I2C, and a WS2812 chain driven from an SPI MOSI line (each data bit is
three SPI bits at 2.4 MHz). RPi.GPIO only imports on a Pi (it raises RuntimeError elsewhere), so
every module is imported when the backend is opened, and all of them can be injected for tests.
"""
from felt.hal import check_edge, check_pull
from felt.hal.shared import ChipSelectBus, PinClaims

I2C_SLAVE = 0x0703  # ioctl from linux/i2c-dev.h
WS2812_SPI_HZ = 2400000  # 3 SPI bits per WS2812 bit: 1.25 us per WS2812 bit
WS2812_RESET_BYTES = 90  # 300 us of low line latches the chain (WS2812B needs >= 280 us)


def ws2812_spi_encode(grb):
    """SPI bytes for WS2812 data bytes (already in G, R, B order): bit 1 -> 110, bit 0 -> 100,
    MSB first, then the latch gap of zero bytes."""
    out = bytearray(len(grb) * 3 + WS2812_RESET_BYTES)
    j = 0
    for byte in grb:
        bits = 0
        for k in range(7, -1, -1):
            bits = (bits << 3) | (0b110 if (byte >> k) & 1 else 0b100)
        out[j] = (bits >> 16) & 0xFF
        out[j + 1] = (bits >> 8) & 0xFF
        out[j + 2] = bits & 0xFF
        j += 3
    return out


class RPiInput:
    def __init__(self, gpio, pin):
        self._gpio = gpio
        self.pin = pin

    def value(self):
        return 1 if self._gpio.input(self.pin) else 0

    def irq(self, handler, edge="both"):
        g = self._gpio
        kind = {"both": g.BOTH, "rising": g.RISING, "falling": g.FALLING}[check_edge(edge)]
        # RPi.GPIO calls back from its own thread; the handler only queues into a RingBuffer.
        g.add_event_detect(self.pin, kind, callback=lambda _channel: handler(self))


class RPiOutput:
    def __init__(self, gpio, pin, value):
        self._gpio = gpio
        self.pin = pin
        self._level = value

    def value(self, v=None):
        if v is None:
            return self._level
        self._level = 1 if v else 0
        self._gpio.output(self.pin, self._gpio.HIGH if self._level else self._gpio.LOW)
        return None


def spidev_exchange(spi):
    """The full-duplex exchange of the contract on a spidev handle (xfer2 takes and returns lists)."""
    def exchange(out_buf, in_buf):
        got = spi.xfer2(list(out_buf))
        for i in range(len(in_buf)):
            in_buf[i] = got[i]
    return exchange


class RPiUART:
    def __init__(self, port):
        self._port = port

    def read(self, n=-1):
        if n is None or n < 0:
            n = self._port.in_waiting
        return bytes(self._port.read(n)) if n else b""

    def write(self, data):
        return self._port.write(bytes(data)) or 0

    def any(self):
        return self._port.in_waiting


class LinuxI2C:
    """I2C through /dev/i2c-N: select the address with ioctl(I2C_SLAVE), then plain write()."""

    def __init__(self, bus, os_module=None, fcntl_module=None):
        if os_module is None:
            import os as os_module
        if fcntl_module is None:
            import fcntl as fcntl_module
        self._os = os_module
        self._fcntl = fcntl_module
        self._fd = os_module.open("/dev/i2c-%d" % bus, os_module.O_RDWR)
        self._addr = None

    def _select(self, addr):
        if addr != self._addr:
            self._fcntl.ioctl(self._fd, I2C_SLAVE, addr)
            self._addr = addr

    def writeto(self, addr, buf):
        self._select(addr)
        return self._os.write(self._fd, bytes(buf))  # OSError (ENXIO/EREMOTEIO) when no ACK

    def readfrom(self, addr, n):
        self._select(addr)
        return self._os.read(self._fd, n)

    def close(self):
        self._os.close(self._fd)


class SPIPixelChain:
    """A WS2812 chain on an SPI MOSI line (no chip-select needed; the chain ignores SCK)."""

    def __init__(self, spi, count):
        self._spi = spi
        self.count = count

    def write(self, rgb):
        if len(rgb) != 3 * self.count:
            raise ValueError("chain of %d needs %d bytes, got %d" % (self.count, 3 * self.count, len(rgb)))
        grb = bytearray(len(rgb))
        grb[0::3] = rgb[1::3]
        grb[1::3] = rgb[0::3]
        grb[2::3] = rgb[2::3]
        self._spi.writebytes2(ws2812_spi_encode(grb))


class RPiHAL:
    """gpio / spidev_module / serial_module / i2c_factory / time_module default to the real
    ones (RPi.GPIO, spidev, pyserial, LinuxI2C, time). neopixel_spi_bus: the SPI bus whose MOSI
    drives the chain (board file "neopixel": {"spi_bus": 1})."""

    name = "rpi"

    @staticmethod
    def entropy(n):
        """n bytes from the kernel's getrandom (issue 16 item 6; checked by felt.security.entropy)."""
        import os
        return os.urandom(n)

    def __init__(self, gpio=None, spidev_module=None, serial_module=None, i2c_factory=None, time_module=None,
                 neopixel_spi_bus=1):
        if gpio is None:
            import RPi.GPIO as gpio  # raises RuntimeError when not on a Raspberry Pi
        if spidev_module is None:
            import spidev as spidev_module
        if serial_module is None:
            import serial as serial_module
        if time_module is None:
            import time as time_module
        self.gpio = gpio
        self._spidev = spidev_module
        self._serial = serial_module
        self._i2c_factory = i2c_factory if i2c_factory is not None else LinuxI2C
        self._time = time_module
        self.neopixel_spi_bus = neopixel_spi_bus
        self._pins = PinClaims()
        self._spi = {}
        gpio.setwarnings(False)
        gpio.setmode(gpio.BCM)

    def ticks_ms(self):
        return self._time.monotonic_ns() // 1000000

    def input_pin(self, pin, pull=None):
        g = self.gpio
        check_pull(pull)
        self._pins.claim(pin, "input")
        g.setup(pin, g.IN, pull_up_down={None: g.PUD_OFF, "up": g.PUD_UP, "down": g.PUD_DOWN}[pull])
        return RPiInput(g, pin)

    def output_pin(self, pin, value=0):
        g = self.gpio
        self._pins.claim(pin, "output")
        g.setup(pin, g.OUT, initial=g.HIGH if value else g.LOW)
        return RPiOutput(g, pin, 1 if value else 0)

    def _open_spi(self, bus, baud):
        spi = self._spidev.SpiDev()
        spi.open(bus, 0)
        spi.max_speed_hz = baud
        spi.mode = 0
        try:
            spi.no_cs = True  # chip-selects are ours; some kernels refuse, which is harmless
        except OSError:
            pass
        return spi

    def spi(self, bus, baud=4000000, sck=None, mosi=None, miso=None):
        if bus not in self._spi:
            spi = self._open_spi(bus, baud)
            self._spi[bus] = ChipSelectBus(self, spidev_exchange(spi), spi)
        return self._spi[bus]

    def uart(self, port, baud=115200, tx=None, rx=None):
        return RPiUART(self._serial.serial_for_url(port, baudrate=baud, timeout=0))

    def i2c(self, bus, freq=400000, scl=None, sda=None):
        return self._i2c_factory(bus)  # the bus speed is set by the device tree, not here

    def neopixel(self, pin, count):
        self._pins.claim(pin, "NeoPixel (SPI%d MOSI)" % self.neopixel_spi_bus)
        return SPIPixelChain(self._open_spi(self.neopixel_spi_bus, WS2812_SPI_HZ), count)

    def close(self):
        for bus in sorted(self._spi):
            self._spi[bus].port.close()
        self.gpio.cleanup()
        self._pins.clear()
