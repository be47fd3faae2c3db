# The Raspberry Pi backend: the shared driver suite (tests/firmware/hal/test_hal_suite.py) over fakes
# of RPi.GPIO, spidev and pyserial, plus the fake's own rules, WS2812-over-SPI encoding and
# /dev/i2c-N access.
import errno

import pytest

import kit
from fake_rpi_gpio import BCM, BOARD, OUT, FakeGPIO, FakeSerialModule, FakeSpidevModule
from felt.hal.rpi_hal import I2C_SLAVE, WS2812_RESET_BYTES, LinuxI2C, RPiHAL, ws2812_spi_encode
from felt.hal.sim.hal import SimClock, SimI2C


class FakeTime:
    def __init__(self):
        self.ns = 5_000_000_000

    def monotonic_ns(self):
        return self.ns


def ws2812_decode(spi_bytes):
    """Back from SPI bits to WS2812 bytes (each 3-bit group 110 = 1, 100 = 0)."""
    bits = "".join("{:08b}".format(b) for b in spi_bytes)
    out = bytearray()
    for i in range(0, len(bits) - 23, 24):
        byte = 0
        for k in range(8):
            group = bits[i + 3 * k: i + 3 * k + 3]
            assert group in ("110", "100"), group
            byte = (byte << 1) | (group == "110")
        out.append(byte)
    return bytes(out)


class RPiRig:
    UART_PORT = "/dev/serial0"

    def __init__(self):
        self.gpio = FakeGPIO()
        self.spidev = FakeSpidevModule(self.gpio)
        self.serial = FakeSerialModule()
        self.i2c_buses = {}
        self.time = FakeTime()
        self.hal = RPiHAL(gpio=self.gpio, spidev_module=self.spidev, serial_module=self.serial,
                          i2c_factory=self._i2c, time_module=self.time)
        self.clock = SimClock()

    def _i2c(self, bus):
        return self.i2c_buses.setdefault(bus, SimI2C(bus, 400000))

    def model_clock(self):
        return self.clock

    def attach_spi(self, bus, cs, model):
        return self.spidev.attach(bus, cs, model)

    def drive(self, pin, level):
        self.gpio.drive(pin, level)

    def output_level(self, pin):
        return self.gpio.level[pin]

    def pixels(self, pin):
        chain_dev = [d for d in self.spidev.devices if d.written][-1]
        grb = ws2812_decode(chain_dev.written[-1][:-WS2812_RESET_BYTES])
        return bytes(b for i in range(0, len(grb), 3) for b in (grb[i + 1], grb[i], grb[i + 2]))

    def attach_i2c(self, bus, addr, model):
        return self._i2c(bus).attach(addr, model)

    def uart_feed(self, data):
        self.serial.ports[self.UART_PORT].rx.extend(data)

    def uart_sent(self):
        return bytes(self.serial.ports[self.UART_PORT].tx)

    def advance_ms(self, ms):
        self.time.ns += ms * 1_000_000


@pytest.mark.parametrize("check", kit.HAL_CHECKS, ids=lambda c: c.__name__)
def test_rpi_backend_keeps_the_contract(check):
    check(RPiRig())


def test_rpi_opens_in_bcm_mode_and_drives_chip_select_by_gpio():
    rig = RPiRig()
    assert rig.gpio.getmode() == BCM
    kit.hal_check_spi_mfrc522(rig)
    dev = rig.spidev.devices[0]
    assert (dev.bus, dev.mode, dev.max_speed_hz, dev.no_cs) == (0, 0, 4000000, True)
    outs = [c for c in rig.gpio.calls if c[0] == "output" and c[1] == kit.CS]
    assert outs[:2] == [("output", kit.CS, 0), ("output", kit.CS, 1)]  # low for the exchange, then high


def test_rpi_pixels_on_spi1_at_2_4_mhz():
    rig = RPiRig()
    kit.hal_check_lights(rig)
    dev = [d for d in rig.spidev.devices if d.written][0]
    assert (dev.bus, dev.max_speed_hz) == (1, 2400000)
    assert len(dev.written[0]) == 30 * 3 + WS2812_RESET_BYTES


def test_ws2812_spi_encoding_bytes():
    # 0x80 = 1000 0000 -> 110 100 100 100 100 100 100 100 -> 1101 0010 0100 1001 0010 0100
    assert ws2812_spi_encode(b"\x80")[:3] == bytes([0xD2, 0x49, 0x24])
    assert ws2812_spi_encode(b"\xFF")[:3] == bytes([0xDB, 0x6D, 0xB6])
    assert ws2812_spi_encode(b"\x00")[:3] == bytes([0x92, 0x49, 0x24])
    assert ws2812_spi_encode(b"\x00")[3:] == bytes(WS2812_RESET_BYTES)  # latch gap
    data = bytes(range(0, 255, 7))
    assert ws2812_decode(ws2812_spi_encode(data)[:-WS2812_RESET_BYTES]) == data


# -- the fake keeps RPi.GPIO's rules (so the backend is held to them) -----------------------

def test_fake_gpio_needs_setmode_before_setup():
    g = FakeGPIO()
    with pytest.raises(RuntimeError, match="Please set pin numbering mode"):
        g.setup(4, g.IN)


def test_fake_gpio_needs_setup_before_output_and_input():
    g = FakeGPIO()
    g.setmode(BCM)
    with pytest.raises(RuntimeError, match="has not been set up as an OUTPUT"):
        g.output(4, 1)
    with pytest.raises(RuntimeError, match="setup\\(\\) the GPIO channel first"):
        g.input(4)
    g.setup(4, g.IN, pull_up_down=g.PUD_UP)
    with pytest.raises(RuntimeError, match="not been set up as an OUTPUT"):
        g.output(4, 1)
    assert g.input(4) == 1


def test_fake_gpio_argument_rules():
    g = FakeGPIO()
    g.setmode(BCM)
    with pytest.raises(ValueError, match="different mode"):
        g.setmode(BOARD)
    with pytest.raises(ValueError, match="invalid on a Raspberry Pi"):
        g.setup(28, g.IN)
    with pytest.raises(ValueError, match="not valid for outputs"):
        g.setup(5, OUT, pull_up_down=g.PUD_UP)
    with pytest.raises(ValueError, match="initial parameter is not valid for inputs"):
        g.setup(5, g.IN, initial=g.HIGH)
    with pytest.raises(RuntimeError, match="as an input first"):
        g.add_event_detect(6, g.BOTH)
    g.setup(6, g.IN)
    g.add_event_detect(6, g.BOTH, callback=lambda ch: None)
    with pytest.raises(RuntimeError, match="Conflicting edge detection"):
        g.add_event_detect(6, g.FALLING)


def test_fake_gpio_board_numbering():
    g = FakeGPIO()
    g.setmode(BOARD)
    g.setup(11, OUT, initial=g.HIGH)  # header pin 11 is BCM 17
    assert g.level[17] == 1
    with pytest.raises(ValueError, match="invalid"):
        g.setup(1, g.IN)  # pin 1 is 3V3


def test_fake_spidev_needs_open():
    rig = RPiRig()
    dev = rig.spidev.SpiDev()
    with pytest.raises(OSError):
        dev.xfer2([0x80, 0])


def test_rpi_close_cleans_up():
    rig = RPiRig()
    rig.hal.output_pin(5)
    rig.hal.spi(0)
    rig.hal.close()
    assert rig.gpio.calls[-1] == ("cleanup", None)
    assert rig.spidev.devices[0].bus is None


def test_real_rpi_gpio_is_only_for_a_pi():
    try:
        import RPi.GPIO  # noqa: F401
    except ImportError:
        pytest.skip("RPi.GPIO not installed here")
    except RuntimeError as e:  # what it does off a Pi
        assert "Raspberry Pi" in str(e) or "SOC" in str(e)
    else:
        pytest.skip("running on a Raspberry Pi")


# -- /dev/i2c-N ------------------------------------------------------------------------------

class FakeOS:
    O_RDWR = 2

    def __init__(self, present=(0x3C,)):
        self.present = present
        self.opened = []
        self.writes = []
        self.addr = None

    def open(self, path, flags):
        self.opened.append((path, flags))
        return 7

    def write(self, fd, data):
        if self.addr not in self.present:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.writes.append((self.addr, bytes(data)))
        return len(data)

    def read(self, fd, n):
        return bytes(n)

    def close(self, fd):
        self.opened.append(("close", fd))


class FakeFcntl:
    def __init__(self, os_fake):
        self.os = os_fake
        self.ioctls = []

    def ioctl(self, fd, request, arg):
        self.ioctls.append((fd, request, arg))
        if request == I2C_SLAVE:
            self.os.addr = arg


def test_linux_i2c_selects_address_then_writes():
    fos = FakeOS()
    fcntl = FakeFcntl(fos)
    bus = LinuxI2C(1, os_module=fos, fcntl_module=fcntl)
    assert fos.opened == [("/dev/i2c-1", FakeOS.O_RDWR)]
    assert bus.writeto(0x3C, b"\x00\xAE") == 2
    bus.writeto(0x3C, b"\x40\x01")
    assert fcntl.ioctls == [(7, 0x0703, 0x3C)]  # address chosen once
    assert fos.writes == [(0x3C, b"\x00\xAE"), (0x3C, b"\x40\x01")]
    with pytest.raises(OSError):
        bus.writeto(0x3D, b"\x00")  # nobody acknowledges 0x3D
