# Fakes of the Raspberry Pi Linux interfaces for host tests of felt.hal.rpi_hal: RPi.GPIO (the
# real module raises RuntimeError on import off a Pi), spidev and pyserial's serial_for_url.
# FakeGPIO keeps the real API's constants and rules (messages as RPi.GPIO 0.7 words them) and
# records every call in `calls`; tests drive inputs with drive(channel, level).

BOARD = 10
BCM = 11
OUT = 0
IN = 1
LOW = 0
HIGH = 1
PUD_OFF = 20
PUD_DOWN = 21
PUD_UP = 22
RISING = 31
FALLING = 32
BOTH = 33

MODE_MSG = "Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or GPIO.setmode(GPIO.BCM)"
# Physical header pins that carry a GPIO (BOARD numbering) -> BCM number.
BOARD_TO_BCM = {3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10, 21: 9,
                22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26,
                38: 20, 40: 21}


class FakeGPIO:
    """Module-shaped fake of RPi.GPIO (pass an instance where the module is expected)."""

    BOARD, BCM, OUT, IN, LOW, HIGH = BOARD, BCM, OUT, IN, LOW, HIGH
    PUD_OFF, PUD_DOWN, PUD_UP, RISING, FALLING, BOTH = PUD_OFF, PUD_DOWN, PUD_UP, RISING, FALLING, BOTH

    def __init__(self):
        self.calls = []
        self.mode = None
        self.warnings = True
        self.direction = {}  # BCM channel -> IN / OUT
        self.pull = {}
        self.level = {}  # BCM channel -> 0/1 (driven by us for outputs, by the world for inputs)
        self.events = {}  # BCM channel -> (edge, callback)

    # -- the API ------------------------------------------------------------------------------
    def setmode(self, mode):
        self.calls.append(("setmode", mode))
        if mode not in (BOARD, BCM):
            raise ValueError("An invalid mode was passed to setmode()")
        if self.mode is not None and self.mode != mode:
            raise ValueError("A different mode has already been set!")
        self.mode = mode

    def getmode(self):
        return self.mode

    def setwarnings(self, flag):
        self.calls.append(("setwarnings", flag))
        self.warnings = bool(flag)

    def _channel(self, channel):
        if self.mode is None:
            raise RuntimeError(MODE_MSG)
        if not isinstance(channel, int):
            raise ValueError("Channel must be an integer or list/tuple of integers")
        if self.mode == BOARD:
            if channel not in BOARD_TO_BCM:
                raise ValueError("The channel sent is invalid on a Raspberry Pi")
            return BOARD_TO_BCM[channel]
        if not 0 <= channel <= 27:
            raise ValueError("The channel sent is invalid on a Raspberry Pi")
        return channel

    def setup(self, channel, direction, pull_up_down=PUD_OFF, initial=-1):
        self.calls.append(("setup", channel, direction, pull_up_down, initial))
        if isinstance(channel, (list, tuple)):
            for c in channel:
                self.setup(c, direction, pull_up_down, initial)
            return
        bcm = self._channel(channel)
        if direction not in (IN, OUT):
            raise ValueError("An invalid direction was passed to setup()")
        if direction == OUT and pull_up_down != PUD_OFF:
            raise ValueError("pull_up_down parameter is not valid for outputs")
        if direction == IN and initial != -1:
            raise ValueError("initial parameter is not valid for inputs")
        if pull_up_down not in (PUD_OFF, PUD_DOWN, PUD_UP):
            raise ValueError("Invalid value for pull_up_down - should be either PUD_OFF, PUD_UP or PUD_DOWN")
        self.direction[bcm] = direction
        self.pull[bcm] = pull_up_down
        if direction == OUT:
            self.level[bcm] = 1 if initial == HIGH else 0
        elif bcm not in self.level:
            self.level[bcm] = 1 if pull_up_down == PUD_UP else 0

    def output(self, channel, value):
        self.calls.append(("output", channel, value))
        bcm = self._channel(channel)
        if self.direction.get(bcm) != OUT:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        self.level[bcm] = 1 if value else 0

    def input(self, channel):
        self.calls.append(("input", channel))
        bcm = self._channel(channel)
        if bcm not in self.direction:
            raise RuntimeError("You must setup() the GPIO channel first")
        return self.level[bcm]

    def add_event_detect(self, channel, edge, callback=None, bouncetime=None):
        self.calls.append(("add_event_detect", channel, edge, bouncetime))
        bcm = self._channel(channel)
        if self.direction.get(bcm) != IN:
            raise RuntimeError("You must setup() the GPIO channel as an input first")
        if edge not in (RISING, FALLING, BOTH):
            raise ValueError("The edge must be set to RISING, FALLING or BOTH")
        if bcm in self.events:
            raise RuntimeError("Conflicting edge detection already enabled for this GPIO channel")
        self.events[bcm] = (edge, callback)

    def remove_event_detect(self, channel):
        self.calls.append(("remove_event_detect", channel))
        self.events.pop(self._channel(channel), None)

    def cleanup(self, channel=None):
        self.calls.append(("cleanup", channel))
        if channel is None:
            self.direction.clear()
            self.events.clear()
            self.mode = None
        else:
            bcm = self._channel(channel)
            self.direction.pop(bcm, None)
            self.events.pop(bcm, None)

    # -- the outside world --------------------------------------------------------------------
    def drive(self, channel, level):
        """A button or signal drives input `channel` (BCM); edge callbacks run synchronously
        (the real module runs them on its own thread)."""
        if self.direction.get(channel) != IN:
            raise RuntimeError("test drives GPIO %d, which is not set up as an input" % channel)
        old = self.level[channel]
        self.level[channel] = 1 if level else 0
        if channel in self.events and old != self.level[channel]:
            edge, callback = self.events[channel]
            if edge == BOTH or (edge == RISING) == bool(level):
                if callback is not None:
                    callback(channel)


class FakeSpiDev:
    def __init__(self, world):
        self.world = world
        self.bus = None
        self.max_speed_hz = 0
        self.mode = 0
        self.no_cs = False
        self.written = []

    def open(self, bus, device):
        self.bus = bus
        self.world.opened.append((bus, device))

    def _check_open(self):
        if self.bus is None:
            raise OSError(9, "Bad file descriptor")  # what spidev says before open()

    def xfer2(self, data):
        self._check_open()
        gpio = self.world.gpio
        low = [cs for cs in sorted(self.world.models.get(self.bus, {})) if gpio.level.get(cs, 1) == 0
               and gpio.direction.get(cs) == OUT]
        if len(low) > 1:
            raise RuntimeError("bus contention: chip-selects %r low together" % low)
        out = bytearray(data)
        inb = bytearray(len(out))
        if low:
            self.world.models[self.bus][low[0]].spi_transfer(out, inb)
        return list(inb)

    def writebytes2(self, data):
        self._check_open()
        self.written.append(bytes(data))

    def close(self):
        self.bus = None


class FakeSpidevModule:
    """Module-shaped fake of spidev; SPI transfers reach the model whose chip-select GPIO (on the
    FakeGPIO) is low."""

    def __init__(self, gpio):
        self.gpio = gpio
        self.models = {}
        self.opened = []
        self.devices = []

    def SpiDev(self):
        dev = FakeSpiDev(self)
        self.devices.append(dev)
        return dev

    def attach(self, bus, cs, model):
        self.models.setdefault(bus, {})[cs] = model
        return model


class FakeSerialPort:
    def __init__(self, url, baudrate, timeout):
        self.url = url
        self.baudrate = baudrate
        self.timeout = timeout
        self.rx = bytearray()
        self.tx = bytearray()

    @property
    def in_waiting(self):
        return len(self.rx)

    def read(self, n=1):
        out = bytes(self.rx[:n])
        del self.rx[:n]
        return out

    def write(self, data):
        self.tx.extend(data)
        return len(data)


class FakeSerialModule:
    def __init__(self):
        self.ports = {}

    def serial_for_url(self, url, baudrate=9600, timeout=None):
        port = FakeSerialPort(url, baudrate, timeout)
        self.ports[url] = port
        return port
