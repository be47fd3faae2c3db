"""Pin and chip-select bookkeeping shared by the hardware backends (hal layer): machine_hal
(MicroPython boards) and rpi_hal (Raspberry Pi). Each backend keeps its own library calls; what
is the same on both -- one owner per pin, a chip-select held low for exactly one exchange, and
SPIBus.device() taking a GPIO number or a chip-select object -- lives here once (felt.hal contract).
"""
from felt.errors import ConfigError


class PinClaims:
    """Which pins a backend has handed out: each at most once (two drivers on one pin is a wiring
    or board-file mistake, named with the first user)."""

    def __init__(self):
        self._claimed = {}

    def claim(self, pin, what):
        if pin in self._claimed:
            raise ConfigError("pin %d is already in use (%s)" % (pin, self._claimed[pin]))
        self._claimed[pin] = what

    def clear(self):
        self._claimed = {}


class PinGroup:
    """OutputPort of the contract built from single OutputPins: bit i of value(n) drives pins[i],
    each pin through its own write (the fallback where a backend has no port write)."""

    def __init__(self, pins, level=None):
        self.pins = pins
        self.width = len(pins)
        self._level = level

    def value(self, n=None):
        if n is None:
            return self._level
        pins = self.pins
        for i in range(len(pins)):
            pins[i].value((n >> i) & 1)
        self._level = n
        return None


class SelectedDevice:
    """SPIDevice of the contract: chip-select low, one full-duplex exchange, chip-select high
    (also when the exchange raises). exchange(out_buf, in_buf) is the backend's library call,
    given as a bound method so the hot path is one call deep. cs: the key the drivers see."""

    def __init__(self, exchange, cs_pin, key):
        self._exchange = exchange
        self._cs = cs_pin
        self.cs = key

    def transfer(self, out_buf, in_buf):
        self._cs.value(0)
        try:
            self._exchange(out_buf, in_buf)
        finally:
            self._cs.value(1)


class DecodedDevice:
    """SPIDevice behind a decoder line (hal.DecodedChipSelect): the address pins are driven only
    when another line was selected last; every transfer toggles only /E, through the pin's own
    library call where the backend offers it (raw_value: no read-back bookkeeping) -- the SPI
    path of ten seats' readers runs ~30k transfers a hand (issue 20).
    No try/finally here: it would put this frame on the heap at every call (a MicroPython frame
    above 11 words is allocated, and an exception handler costs 3). Should the bus library raise
    (machine.SPI.write_readinto does only for bad arguments), /E stays low until the next transfer;
    a change of line raises /E before the address moves (DecodedChipSelect.value), so no other
    chip is ever selected by it."""

    def __init__(self, exchange, cs, key):
        self._exchange = exchange
        self._cs = cs
        self.cs = key
        self._decoder = cs.decoder
        self._line = cs.line
        enable = cs.decoder.enable_pin
        self._enable = getattr(enable, "raw_value", None) or enable.value

    def transfer(self, out_buf, in_buf):
        if self._decoder.current != self._line:
            self._cs.value(0)  # /E high, the address, then /E low
        else:
            self._enable(0)
        self._exchange(out_buf, in_buf)
        self._enable(1)


class ChipSelectBus:
    """SPIBus of the contract for a backend whose chip-selects are its own GPIOs: device(cs) with
    a GPIO number opens that pin as an output held high (claimed like any pin); any other cs is a
    chip-select object with value() and a hashable key (hal.DecodedChipSelect)."""

    def __init__(self, hal, exchange, port=None):
        self._hal = hal
        self._exchange = exchange
        self.port = port  # the library's bus object (closed by the backend's close())

    def device(self, cs):
        if isinstance(cs, int):
            return SelectedDevice(self._exchange, self._hal.output_pin(cs, value=1), cs)
        if getattr(cs, "decoder", None) is not None:
            return DecodedDevice(self._exchange, cs, cs.key)
        return SelectedDevice(self._exchange, cs, cs.key)
