# Hot paths that must not allocate (issue 20 item 4), proven as micropython-lib's usb tests do:
# the step runs under micropython.heap_lock(), so any allocation raises MemoryError. The steady
# antenna revisit -- a seat holding four cards visited again (field on, inventory by reselect,
# field off), through the 74HC154 chip-select path -- talks to a device that replays the SPI
# answers a simulated chip gave for the same visit (the chip model itself allocates). MicroPython
# only (CPython has no heap lock: SKIP there); the replay itself is checked on both.
from check import MICROPYTHON, Skip, eq

from felt.drivers.antennas import AntennaPoller
from felt.drivers.mfrc522 import MFRC522
from felt.hal import Decoder
from felt.hal.shared import ChipSelectBus
from felt.hal.sim.hal import SimHAL
from felt.hal.sim.mfrc522 import SimMFRC522, SimTag


class Pin:
    level = 1

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v


class TapeBus:
    """The SPI exchange of a board: to the simulated chip while recording, from the tape after."""

    def __init__(self, chip):
        self.chip = chip
        self.tape = []
        self.at = 0
        self.replaying = False

    def exchange(self, out_buf, in_buf):
        if self.replaying:
            i = self.at
            in_buf[:] = self.tape[i]
            self.at = i + 1
            return
        self.chip.spi_transfer(out_buf, in_buf)
        self.tape.append(bytes(in_buf))


def _rig():
    hal = SimHAL()
    chip = SimMFRC522(hal.clock)
    for n in range(4):
        chip.place(SimTag(bytes([0x04, 0xFE, 0x17, 0x41, 0x00, 0x00, n])))
    bus = TapeBus(chip)
    decoder = Decoder([Pin() for _ in range(4)], Pin())
    reader = MFRC522(ChipSelectBus(None, bus.exchange).device(decoder.line(3)), name="seat1")
    poller = AntennaPoller([("seat1", reader)])
    poller.start()
    return hal, bus, poller


def _visit(hal, poller):
    out = []
    for _ in range(2):  # field on, then (settle_ms later) inventory and field off
        hal.clock.advance_to_us(max(hal.clock.now_us, poller.next_due_ms * 1000))
        out.extend(poller.poll(hal.clock.ticks_ms()))
    return out


def _steady():
    hal, bus, poller = _rig()
    eq(len(_visit(hal, poller)), 5)  # 4 card-arrived + the collision report (four cards on one antenna)
    _visit(hal, poller)  # known cards: reselect from here on
    del bus.tape[:]
    eq(_visit(hal, poller), [])
    bus.replaying = True
    return hal, bus, poller


def test_steady_revisit_replays_the_same_spi_exchanges():
    hal, bus, poller = _steady()
    eq(_visit(hal, poller), [])
    eq(bus.at, len(bus.tape))  # exactly the recorded exchanges, in the same number
    eq(len(poller.present("seat1")), 4)


def test_steady_antenna_revisit_does_not_allocate():
    if not MICROPYTHON:
        raise Skip("micropython.heap_lock is MicroPython's")
    import gc
    import micropython

    hal, bus, poller = _steady()
    now = hal.clock.ticks_ms() + 100
    gc.collect()
    for step in range(2):
        micropython.heap_lock()
        try:
            events = poller.poll(now + 7 * step)
        finally:
            micropython.heap_unlock()
        eq(len(events), 0)
    eq(bus.at, len(bus.tape))
    eq(len(poller.present("seat1")), 4)
