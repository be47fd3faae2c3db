# MicroPython side of bench_firmware.py (not a test): the assembled firmware (felt.runtime.app.build) plays a
# ten-seat limit Omaha hi-lo hand twice in one interpreter.
#  1. record: on the simulated hardware (sim HAL with the register-level MFRC522s, the PN532 shoe,
#     the console line, the display); every value the hardware hands the firmware is recorded --
#     each SPI answer, UART read and any(), input pin level and clock reading -- and what each loop
#     step did (console action, card read by the shoe, card arriving on an antenna, antenna visit).
#  2. replay: a fresh firmware on the Pico's own backend (felt.hal.machine_hal.MachineHAL) whose
#     `machine`, `neopixel` and `time` modules hand back the recorded values in order: the device
#     models are cut out, what is timed is the firmware (drivers, loop, table, engine, journal,
#     secrecy guard, display) plus these replay stubs (a list index each; their own cost is timed
#     alone and printed). The replayed table must end where the recorded one did.
# The two run in separate interpreters (the tape in a JSON file between them): the replay's heap
# holds nothing of the recording. Prints KEY=VALUE lines for bench_firmware.py.
# usage: micropython firmware_replay.py record DATA_ROOT TAPE.json
#        micropython firmware_replay.py replay DATA_ROOT TAPE.json REPS
import gc
import json
import os
import sys
import time
from binascii import hexlify, unhexlify

import calibrate
from felt.runtime import app as applib
from felt.hal.machine_hal import MachineHAL
from felt.sim.autoplay import Lcg, shuffled, play_calling_hand
from felt.sim.runner import Sim, registry
from felt.table.controller import Table

ticks_us = time.ticks_us
ticks_diff = time.ticks_diff
SEATS = 10
PICO_JOURNAL = {"kind": "ring", "start": -262144, "length": 262144}
REPS = int(sys.argv[4]) if len(sys.argv) > 4 else 3
DEBUG = 0


def rm(path):
    try:
        names = os.listdir(path)
    except OSError:
        try:
            os.remove(path)
        except OSError:
            pass
        return
    for n in names:
        rm(path + "/" + n)
    os.rmdir(path)


class Tape:
    """What the hardware said, in order, per source."""

    def __init__(self):
        self.spi = []  # every SPI answer (bytes), all chips in bus order
        self.uart = {}  # port -> [read result]
        self.any = {}  # port -> [any() result]
        self.pins = {}  # gpio -> [level]
        self.ticks = []
        self.steps = []  # per loop step: a label set (see Recorder.step)


class RecDevice:
    def __init__(self, dev, tape):
        self._dev = dev
        self._tape = tape
        self.cs = dev.cs

    def transfer(self, out_buf, in_buf):
        self._dev.transfer(out_buf, in_buf)
        self._tape.spi.append(bytes(in_buf))


class RecBus:
    def __init__(self, bus, tape):
        self._bus = bus
        self._tape = tape

    def device(self, cs):
        return RecDevice(self._bus.device(cs), self._tape)


class RecUART:
    def __init__(self, uart, port, tape):
        self._u = uart
        self._reads = tape.uart.setdefault(port, [])
        self._anys = tape.any.setdefault(port, [])

    def read(self, n=-1):
        got = self._u.read(n)
        self._reads.append(bytes(got))
        return got

    def write(self, data):
        return self._u.write(data)

    def any(self):
        n = self._u.any()
        self._anys.append(n)
        return n


class RecInput:
    def __init__(self, pin, levels):
        self._p = pin
        self._levels = levels

    def value(self):
        v = self._p.value()
        self._levels.append(v)
        return v

    def irq(self, handler, edge="both"):
        return self._p.irq(handler, edge)


class RecordingHAL:
    """The sim HAL behind the felt.hal contract, every answer written to the tape."""

    name = "sim"

    def __init__(self, hal, tape):
        self._hal = hal
        self.tape = tape

    def ticks_ms(self):
        t = self._hal.ticks_ms()
        self.tape.ticks.append(t)
        return t

    def spi(self, bus, **kw):
        return RecBus(self._hal.spi(bus, **kw), self.tape)

    def uart(self, port, **kw):
        return RecUART(self._hal.uart(port, **kw), port, self.tape)

    def input_pin(self, pin, pull=None):
        return RecInput(self._hal.input_pin(pin, pull=pull), self.tape.pins.setdefault(pin, []))

    def output_pin(self, pin, value=0):
        return self._hal.output_pin(pin, value=value)

    def i2c(self, bus, **kw):
        return self._hal.i2c(bus, **kw)

    def neopixel(self, pin, count):
        return self._hal.neopixel(pin, count)

    def flash(self, start, length):  # the board's own storage, not a device: nothing to record
        return self._hal.flash(start, length)

    def close(self):
        self._hal.close()


class RecordSim(Sim):
    """The sim runner with the firmware assembled by felt.runtime.app on a recording HAL."""

    def __init__(self, root):
        Sim.__init__(self)
        self.root = root
        self.tape = Tape()
        self.statements = []  # (statement, first step, steps)
        self._cur = None

    def build(self, config):
        Sim.build(self, config)  # the devices (and a plain table, dropped)
        self.config = config
        self.board.journal = PICO_JOURNAL  # as hardware/boards/pico.json (older firmware ignores it)
        hal = self.rewire()
        rec = RecordingHAL(hal, self.tape)
        self.app = applib.build(rec, self.board, lambda h, log: Table(config, registry(), history=h), self.root,
                                pressed=False)
        self.table = self.app.table
        self.rt = self.app.runtime
        self._label()
        applib.start(self.app)
        self.pins = self.pins_of(hal)
        self.settle(sweeps=2)

    def _label(self):
        rt = self.rt
        dispatch = rt._dispatch
        cur = self._cur = [[]]

        def dispatch_and_label(kind, e):
            if kind == 1:
                cur[0].append("console")
            elif kind == 0:
                cur[0].append("shoe")
            elif kind == 3 and e[0] == "card-arrived":
                cur[0].append("arrival")
            return dispatch(kind, e)
        rt._dispatch = dispatch_and_label

    def _step(self):
        # rt.step as the device's loop calls it (felt.runtime.app wraps it; antenna_check unwraps itself)
        rt = self.rt
        poller = rt.poller
        labels = []
        self._cur[0] = labels
        on = poller._on
        loc = poller.readers[on][0] if on is not None else None
        rt.step()
        if on is not None and poller._on is None:
            labels.append("inventory")
            labels.append(loc)
        elif on is None and poller._on is not None:
            labels.append("field-on")
            labels.append(poller.readers[poller._on][0])
        self.tape.steps.append(labels)

    def settle(self, sweeps=1, min_ms=0, until=None):
        # felt.sim.runner.Sim.settle, each step through _step (labelled)
        if self._cur is None:  # the plain table Sim.build makes first
            return Sim.settle(self, sweeps, min_ms, until)
        rt = self.rt
        clock = self.hal.clock
        start = clock.ticks_ms()
        first = rt.poller.sweeps
        for _ in range(20000):
            due = rt.next_due_ms()
            if due > clock.ticks_ms():
                clock.advance_to_us(due * 1000)
            self._step()
            if clock.ticks_ms() - start < min_ms or self.table.busy() or self.console.rx or self.reader.any():
                continue
            done = rt.poller.sweeps - first
            if until is None:
                if done >= sweeps:
                    break
            elif done >= sweeps + 2 or until():
                break
        else:
            raise ValueError("the firmware did not settle")
        self._trim()

    def run(self, text):
        first = len(self.tape.steps)
        out = Sim.run(self, text)
        self.statements.append((text, first, len(self.tape.steps) - first))
        return out


# -- replay: the machine, neopixel and time modules of a Pico, answering from the tape ------------

class ReplayMachine:
    def __init__(self, tape):
        spi_answers = tape.spi
        uart_reads = tape.uart
        uart_anys = tape.any
        pin_levels = tape.pins
        self.pos = pos = {"spi": 0}

        class Pin:
            IN = 0
            OUT = 1
            PULL_UP = 1
            PULL_DOWN = 2
            IRQ_FALLING = 4
            IRQ_RISING = 8

            def __init__(self, id, mode=-1, pull=-1, value=None):
                self.id = id
                self.levels = pin_levels.get(id, []) if mode != 1 else None  # outputs read back
                self.level = 1 if value else 0
                self.at = 0

            def value(self, v=None):
                if v is None:
                    if self.levels is None:
                        return self.level
                    i = self.at
                    self.at = i + 1
                    return self.levels[i]
                self.level = v

            def irq(self, handler=None, trigger=0):
                pass

        class SPI:
            def __init__(self, id, baudrate=1000000, polarity=0, phase=0, sck=None, mosi=None, miso=None):
                self.at = 0

            def write_readinto(self, out_buf, in_buf):
                i = self.at
                in_buf[:] = spi_answers[i]
                self.at = i + 1
                pos["spi"] = i + 1

            def write(self, buf):
                pass

        class UART:
            def __init__(self, id, baudrate=115200, timeout=0, tx=None, rx=None):
                self.reads = uart_reads.get(id, [])
                self.anys = uart_anys.get(id, [])
                self.r = 0
                self.a = 0

            def read(self, n=-1):
                i = self.r
                self.r = i + 1
                got = self.reads[i]
                return got if got else None  # machine.UART.read gives None when nothing waits

            def write(self, data):
                return len(data)

            def any(self):
                i = self.a
                self.a = i + 1
                return self.anys[i]

        class I2C:
            def __init__(self, id, scl=None, sda=None, freq=400000):
                pass

            def writeto(self, addr, buf):
                return 1

            def readfrom(self, addr, n):
                return bytes(n)

        self.Pin = Pin
        self.SPI = SPI
        self.UART = UART
        self.I2C = I2C
        # machine.mem32: the decoder's address goes out as one store to the SIO (a dict store
        # here, a C store on the board: nothing reads it back)
        self.mem32 = {}


class ReplayNeoPixel:
    class NeoPixel:
        def __init__(self, pin, count):
            self.buf = [None] * count

        def __setitem__(self, i, v):
            self.buf[i] = v

        def write(self):
            pass


class ReplayRp2:
    """rp2.Flash as RAM: the ring journal's raw flash (programs land on erased bytes only)."""

    def __init__(self):
        try:
            from felt.recovery.ring import MemBlockDevice
        except ImportError:  # firmware without the ring
            MemBlockDevice = object

        class Flash(MemBlockDevice):
            def __init__(self, start=0, len=2 * 1024 * 1024):
                MemBlockDevice.__init__(self, blocks=len // 4096)

            def _program(self, a, buf, n):  # rp2.Flash programs in C: no per-byte Python here
                self.data[a:a + n] = buf[:n]
        self.Flash = Flash


class ReplayOs:
    """os.statvfs of a Pico whose littlefs leaves the last 256 KB of the 2 MB storage region
    (ReplayRp2.Flash's default) to the ring (hardware/journal.md 3b). Without it machine_hal
    asks the host's statvfs('/'), finds the ring inside that "file system", refuses it and the
    firmware journals to host files with a sync per record -- not the Pico's path."""

    def statvfs(self, path):
        return (4096, 4096, (2 * 1024 * 1024 - 262144) // 4096, 0, 0, 0, 0, 0, 0, 255)


class ReplayTime:
    def __init__(self, ticks):
        self.ticks = [0] + ticks  # MachineHAL() reads the clock once when it is opened
        self.at = 0

    def ticks_ms(self):
        i = self.at
        self.at = i + 1
        return self.ticks[i]

    def ticks_diff(self, a, b):
        return a - b


def stub_cost_us(tape):
    """The replay stubs alone: every recorded SPI answer, UART read and clock reading handed out
    once, with nobody asking for anything else (their share of the replayed time)."""
    m = ReplayMachine(tape)
    spi = m.SPI(0)
    buf2 = bytearray(2)
    bufs = {}
    for a in tape.spi:
        if len(a) not in bufs:
            bufs[len(a)] = bytearray(len(a))
    uarts = [m.UART(p) for p in tape.uart]
    tm = ReplayTime(tape.ticks)
    t0 = ticks_us()
    for a in tape.spi:
        spi.write_readinto(a, bufs[len(a)] if len(a) != 2 else buf2)
    for u in uarts:
        for _ in u.reads:
            u.read()
        for _ in u.anys:
            u.any()
    for _ in tm.ticks:
        tm.ticks_ms()
    return ticks_diff(ticks_us(), t0)


def replay(tape, board, config, root, statements, hand_first, hand_steps, per_step=False):
    machine = ReplayMachine(tape)
    tm = ReplayTime(tape.ticks)
    hal = None
    for kw in ({"rp2_module": ReplayRp2(), "os_module": ReplayOs(), "chip": "RP2040"},
               {"rp2_module": ReplayRp2(), "os_module": ReplayOs()},  # before the decoder's port write
               {"rp2_module": ReplayRp2()},  # firmware before the file-system overlap check
               {}):  # firmware before the ring journal: no raw flash in its machine backend
        try:
            hal = MachineHAL(machine_module=machine, neopixel_module=ReplayNeoPixel, time_module=tm, **kw)
            break
        except TypeError:
            pass
    app = applib.build(hal, board, lambda h, log: Table(config, registry(), history=h), root, pressed=False)
    rt = app.runtime
    applib.start(app)
    due = rt.next_due_ms
    cost = []
    step_alloc = []
    i = 0
    n = len(tape.steps)
    alloc = None
    while i < n:
        if i == hand_first:
            gc.collect()
            gc.disable()  # with the collector off, the heap's growth is what the hand allocates
            a0 = gc.mem_alloc()
        if DEBUG and (i % 50 == 0 or 1280 < i < 1300):
            print(i, tm.at, tm.ticks[tm.at], machine.pos["spi"], tape.steps[i])
        due()
        if per_step:  # gc.mem_alloc() walks the heap's whole allocation table: not in timed replays
            m0 = gc.mem_alloc()
            rt.step()
            step_alloc.append(gc.mem_alloc() - m0)  # exact within the hand (collector off)
            cost.append(0)
        else:
            t0 = ticks_us()
            rt.step()
            cost.append(ticks_diff(ticks_us(), t0))
        i += 1
        if i == hand_first + hand_steps:
            alloc = gc.mem_alloc() - a0
            gc.enable()
    app.journal_kind = type(getattr(app, "journal", None)).__name__
    app.port_writes = len(machine.mem32)
    app.step_alloc = step_alloc
    return app, cost, alloc, machine.pos["spi"]


TABLE = "table omaha8 limit seats=%d sb=10 bb=20 small_bet=20 big_bet=40 button=1" % SEATS


def _hex(b):
    return hexlify(b).decode()


def save_tape(path, tape, hand_first, hand_steps, want):
    """The tape as JSON (bytes as hex): the replay runs in a fresh interpreter, its heap holding
    nothing of the recording (the simulated devices' garbage changed where the replayed firmware's
    objects land, and with it the unix port's speed by up to 5x on the same code)."""
    with open(path, "w") as f:
        json.dump({"spi": [_hex(a) for a in tape.spi],
                   "uart": dict((str(p), [_hex(r) for r in tape.uart[p]]) for p in tape.uart),
                   "any": dict((str(p), tape.any[p]) for p in tape.any),
                   "pins": dict((str(p), tape.pins[p]) for p in tape.pins),
                   "ticks": tape.ticks, "steps": tape.steps, "hand_first": hand_first,
                   "hand_steps": hand_steps, "want": want}, f)


def load_tape(path):
    with open(path) as f:
        d = json.load(f)
    tape = Tape()
    tape.spi = [unhexlify(a) for a in d["spi"]]
    tape.uart = dict((int(p), [unhexlify(r) for r in d["uart"][p]]) for p in d["uart"])
    tape.any = dict((int(p), d["any"][p]) for p in d["any"])
    tape.pins = dict((int(p), d["pins"][p]) for p in d["pins"])
    tape.ticks = d["ticks"]
    tape.steps = d["steps"]
    return tape, d["hand_first"], d["hand_steps"], d["want"]


def record(root, path):
    rm(root)
    os.mkdir(root)
    sim = RecordSim(root + "/rec")
    sim.run(TABLE)
    for s in range(1, SEATS + 1):
        sim.run("seat %d 100000" % s)
    hand_first = len(sim.tape.steps)
    play_calling_hand(sim, shuffled(Lcg(7)))
    hand_steps = len(sim.tape.steps) - hand_first
    t = sim.table
    if t.state != "over" or t.alerts:
        print("BROKEN record %s %r" % (t.state, t.alerts[:2]))
        return
    save_tape(path, sim.tape, hand_first, hand_steps, [t.hand_no, list(t.stacks)])
    print("RECORDED steps=%d spi=%d" % (len(sim.tape.steps), len(sim.tape.spi)))


def board_and_config():
    """The recorded table's board (sim pin map, the Pico's ring journal) and configuration: the
    same statement run on a plain sim (dropped before anything is timed)."""
    sim = Sim()
    sim.run(TABLE)
    board = sim.board
    board.journal = PICO_JOURNAL
    return board, sim.table.config


def main_replay(root, path):
    tape, hand_first, hand_steps, want = load_tape(path)
    board, config = board_and_config()
    gc.collect()
    stubs = stub_cost_us(tape)
    cost = None
    for rep in range(REPS):  # the smallest of REPS replays per step: other processes only add time
        rm(root)
        os.mkdir(root)
        app, c, alloc, spi_used = replay(tape, board, config, root + "/replay", None, hand_first, hand_steps)
        t = app.table
        got = [t.hand_no, list(t.stacks)]
        if t.state != "over" or got != want or spi_used != len(tape.spi):
            print("BROKEN replay %s %r %r spi %d/%d" % (t.state, got, want, spi_used, len(tape.spi)))
            return
        journal = app.journal_kind
        port = app.port_writes
        cost = c if cost is None else [min(cost[i], c[i]) for i in range(len(c))]
        app = None
        gc.collect()
    rm(root)
    os.mkdir(root)
    app, _c, _a, _s = replay(tape, board, config, root + "/replay", None, hand_first, hand_steps, per_step=True)
    step_alloc = app.step_alloc
    app = None
    gc.collect()
    calib = calibrate.score(reps=max(9, REPS))  # the peer, min of N passes like the firmware
    print("CALIB us=%d" % calib)
    print("JOURNAL kind=%s" % journal)
    print("DECODER port=%s" % ("sio" if port else "pins"))
    # per kind of step, in the hand: [steps, total us, max us]
    kinds = {}

    def add(kind, us):
        k = kinds.get(kind)
        if k is None:
            k = kinds[kind] = []
        k.append(us)
    hand_us = 0
    seat_visit = {}  # seat -> [field-on us, inventory us] of visits where nothing happened
    for i in range(hand_first, hand_first + hand_steps):
        labels = tape.steps[i]
        us = cost[i]
        hand_us += us
        if "console" in labels:
            add("console", us)
        elif "arrival" in labels:
            add("arrival", us)
        elif "shoe" in labels:
            add("shoe", us)
        elif "inventory" in labels:
            loc = labels[labels.index("inventory") + 1]
            add("idle-inventory-seat" if loc.startswith("seat") else "idle-inventory-other", us)
        elif "field-on" in labels:
            add("field-on", us)
        else:
            add("other", us)
    print("HAND steps=%d us=%d alloc=%d spi=%d stubs_us=%d total_steps=%d" % (
        hand_steps, hand_us, alloc, len(tape.spi), stubs, len(tape.steps)))
    for k in sorted(kinds):
        v = sorted(kinds[k])
        print("KIND name=%s n=%d us=%d median=%d max=%d" % (k, len(v), sum(v), v[len(v) // 2], v[-1]))
    # steps with no event (no console line, no card read or arriving): how many allocated at all
    quiet = allocating = quiet_bytes = 0
    for i in range(hand_first, hand_first + hand_steps):
        labels = tape.steps[i]
        if "console" in labels or "arrival" in labels or "shoe" in labels:
            continue
        quiet += 1
        if step_alloc[i] > 0:
            allocating += 1
            quiet_bytes += step_alloc[i]
    print("QUIET steps=%d allocating=%d bytes=%d" % (quiet, allocating, quiet_bytes))



if sys.argv[1] == "record":
    record(sys.argv[2], sys.argv[3])
else:
    main_replay(sys.argv[2], sys.argv[3])
