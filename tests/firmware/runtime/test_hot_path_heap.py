# Hot paths that must not allocate (issue 20 item 4), proven as micropython-lib's usb tests do:
# the step runs under micropython.heap_lock(), so any allocation raises MemoryError. The steady
# antenna revisit -- a seat holding four cards visited again (field on, inventory by reselect,
# field off), through the 74HC154 chip-select path -- talks to a device that replays the SPI
# answers a simulated chip gave for the same visit (the chip model itself allocates). MicroPython
# only (CPython has no heap lock: SKIP there); the replay itself is checked on both.
import kit
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


# -- the whole loop step of the assembled firmware (felt.runtime.app.build) -----------------------
# A three-seat hold'em hand stands on the flop, waiting for a bet: every seat's antenna holds two
# cards, the board three, the burn one; the shoe polls for cards, nobody types, nobody presses.
# One full antenna cycle is recorded through the simulated chips (their models allocate), then
# replayed from that tape: each replayed step sends the very bytes the recorded one sent. A step
# with nothing to do -- no byte on the shoe or console line, no card moving, no lights/display
# refresh or shoe window due (the loop's and the shoe's own deadlines, read from them) -- runs
# under micropython.heap_lock(): any allocation raises MemoryError. Those few steps that have a
# periodic job run unlocked (they allocate: the view's lights and lines, the shoe's next frame).


class _Tape:
    def __init__(self):
        self.sent = []
        self.answers = []
        self.at = 0
        self.replaying = False
        self.mismatches = 0


class _TapeDevice:
    def __init__(self, dev, tape):
        self._dev = dev
        self._tape = tape
        self.cs = dev.cs

    def transfer(self, out_buf, in_buf):
        t = self._tape
        if t.replaying:
            i = t.at
            if out_buf != t.sent[i]:  # bytearray against bytes: compared in place
                t.mismatches += 1
            in_buf[:] = t.answers[i]
            t.at = i + 1
            return
        self._dev.transfer(out_buf, in_buf)
        t.sent.append(bytes(out_buf))
        t.answers.append(bytes(in_buf))


class _TapeBus:
    def __init__(self, bus, tape):
        self._bus = bus
        self._tape = tape

    def device(self, cs):
        return _TapeDevice(self._bus.device(cs), self._tape)


class _TapeHAL:
    """The sim HAL with its SPI devices behind the tape; everything else passes through."""

    def __init__(self, hal, tape):
        self._hal = hal
        self._tape = tape
        self.name = hal.name
        self.ticks_ms = hal.ticks_ms  # read every step: bound once (__getattr__ would allocate)

    def spi(self, bus, **kw):
        return _TapeBus(self._hal.spi(bus, **kw), self._tape)

    def __getattr__(self, name):
        return getattr(self._hal, name)


def _app_sim(root):
    from felt.runtime import app as applib
    from felt.sim.runner import Sim, registry
    from felt.table.controller import Table

    class TapeAppSim(Sim):
        tape = None

        def build(self, config):
            Sim.build(self, config)  # the devices (and a plain table, dropped)
            self.tape = _Tape()
            hal = self.rewire()
            self.board.journal = {"kind": "ring", "start": -65536, "length": 65536}  # as a Pico's
            self.app = applib.build(_TapeHAL(hal, self.tape), self.board,
                                    lambda h, log: Table(config, registry(), history=h), root, pressed=False)
            self.table = self.app.table
            self.rt = self.app.runtime
            applib.start(self.app)
            self.pins = self.pins_of(hal)
            self.settle(sweeps=2)

    return TapeAppSim()


def _quiet(rt, now):
    # no periodic job due in this step: the loop's lights/display refresh and panel rewrite, the
    # shoe's window (felt.runtime.loop, felt.drivers.shoe)
    from felt.runtime import loop

    return (now - rt._applied_ms < loop.REFRESH_MS and now - rt._panel_ms < loop.PANEL_MS
            and now < rt.shoe._deadline_ms)


def _cycle(sim, lock):
    """One antenna cycle of loop steps (from the schedule's start back to it); returns (steps,
    steps run under the heap lock, inventories among them)."""
    import gc

    rt = sim.rt
    p = rt.poller
    clock = sim.hal.clock
    steps = locked = inventories = 0
    while True:
        due = rt.next_due_ms()
        if due > clock.ticks_ms():
            clock.advance_to_us(due * 1000)
        was_on = p._on
        if lock and _quiet(rt, clock.ticks_ms()):
            import micropython

            gc.collect()
            micropython.heap_lock()
            try:
                n = rt.step()
            finally:
                micropython.heap_unlock()
            locked += 1
            if was_on is not None and p._on is None:
                inventories += 1
        else:
            n = rt.step()
        eq(n, 0, "events in a steady step")
        steps += 1
        if p._pos == 0 and p._on is None and steps > 1:
            return steps, locked, inventories


def _steady_table(root):
    sim = _app_sim(root)
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1")
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    sim.run("hand")
    for card, seat in (("Ah", 2), ("Kd", 3), ("Qs", 1), ("Qh", 2), ("Kc", 3), ("2s", 1)):
        sim.run("draw %s to seat %d" % (card, seat))
    for line in ("act 1 call", "act 2 call", "act 3 check", "draw 3c to burn", "draw 7h to board",
                 "draw 8h to board", "draw 9c to board"):
        sim.run(line)
    eq(len(sim.table.hand.board), 3)  # on the flop, the big blind to act
    p = sim.rt.poller
    while not (p._pos == 0 and p._on is None):  # to the start of an antenna cycle
        sim.rt.step()
        sim.hal.clock.advance_ms(1)
    _cycle(sim, False)  # one more cycle: every antenna's result is the remembered one
    sim.tape.sent = []
    sim.tape.answers = []
    _cycle(sim, False)  # recorded
    sim.tape.replaying = True
    return sim


def _root(tag):
    return kit.tmp_root("heap_" + tag)  # one folder per process, on every runtime (the wasm port has no urandom)


def test_steady_loop_cycle_replays_the_same_spi_exchanges():
    sim = _steady_table(_root("replay"))
    recorded = len(sim.tape.sent)
    for _ in range(2):
        sim.tape.at = 0
        _cycle(sim, False)
        eq(sim.tape.at, recorded)  # exactly the recorded exchanges, byte for byte
        eq(sim.tape.mismatches, 0)
    eq(len(sim.rt.poller.present("seat1")), 2)
    eq(len(sim.rt.poller.present("board")), 3)


def test_steady_loop_step_of_the_assembled_firmware_does_not_allocate():
    if not MICROPYTHON:
        raise Skip("micropython.heap_lock is MicroPython's")
    sim = _steady_table(_root("lock"))
    recorded = len(sim.tape.sent)
    locked = inventories = steps = 0
    for _ in range(3):
        sim.tape.at = 0
        s, lk, inv = _cycle(sim, True)
        steps += s
        locked += lk
        inventories += inv
        eq(sim.tape.at, recorded)
        eq(sim.tape.mismatches, 0)
    # most steps have nothing periodic to do; every antenna's inventory ran locked at least once
    assert locked * 10 >= steps * 8, (locked, steps)
    assert inventories >= len(sim.rt.poller.readers), (inventories, len(sim.rt.poller.readers))
    eq(len(sim.rt.poller.present("seat1")), 2)
