# Power-loss harness for the simulated table (firmware sim layer; MicroPython and CPython): a flash
# that loses power at chosen journal appends (KillFlash, KillBlockDevice for the raw ring), the sim
# runner with the firmware journaled and rebuilt by felt.recovery.restore.restore_table on a power cycle
# (PowerSim), and run_line / reboot, which carry one bench statement through cuts (hardware/journal.md).
from felt.recovery import journal as jr
from felt.runtime import loop as looplib
from felt.recovery import restore as recovery
from felt.recovery.ring import MemBlockDevice, RingHandLog, RingJournal
from felt.proto import console as proto
from felt.sim.runner import Sim, registry
from felt.table.controller import Table

CONSOLE_STATEMENTS = ("seat", "hand", "act")
# cut positions inside a record, cycled: boundary (0), inside the header, inside the payload,
# inside the CRC, the whole record written but the input not yet in effect (-1 = len)
OFFSETS = (0, 1, 7, 9, 13, -5, -2, -1)


class KillFlash(jr.MemFlash):
    """A flash that loses power on every `every`-th journal append (while armed), cutting that
    record at OFFSETS[k % len] bytes (negative: from its end; -1 = written whole)."""

    def __init__(self, every=None, phase=0):
        jr.MemFlash.__init__(self)
        self.every = every
        self.count = phase
        self.kills = 0
        self.armed = False

    def append(self, name, data):
        if self.armed and self.every and name.startswith("j"):
            self.count += 1
            if self.count % self.every == 0:
                off = OFFSETS[self.kills % len(OFFSETS)]
                cut = off if off >= 0 else len(data) + 1 + off
                cut = min(cut, len(data))
                self.files.setdefault(name, bytearray()).extend(bytes(data)[:cut])
                self.bytes_written += cut
                self.kills += 1
                raise jr.PowerCut("killed at append %d, byte %d of %d" % (self.count, cut, len(data)))
        jr.MemFlash.append(self, name, data)

    def open_journal(self):
        return jr.Journal(self), jr.HandLog(self)


class KillBlockDevice(MemBlockDevice):
    """The raw-ring counterpart of KillFlash: every `every`-th program (while armed) is cut."""

    def __init__(self, every=None, phase=0, blocks=24, block_size=4096):
        MemBlockDevice.__init__(self, blocks, block_size)
        self.every = every
        self.count = phase
        self.kills = 0
        self.armed = False

    def writeblocks(self, block, buf, off=0):
        if self.armed and self.every:
            self.count += 1
            if self.count % self.every == 0:
                o = OFFSETS[self.kills % len(OFFSETS)]
                cut = min(o if o >= 0 else len(buf) + 1 + o, len(buf))
                self.kills += 1
                self._program(block * self.bs + off, buf, cut)
                raise jr.PowerCut("killed at program %d, byte %d of %d" % (self.count, cut, len(buf)))
        MemBlockDevice.writeblocks(self, block, buf, off)

    def open_journal(self):
        j = RingJournal(self)
        return j, RingHandLog(j)


class PowerSim(Sim):
    """The sim runner with the firmware journaled on `flash`; restart() is a power cycle of the
    board: new HAL, new drivers, table rebuilt by recovery; the devices keep their state."""

    def __init__(self, flash, shoe="pn532", history=None):
        # history: the finished-hand PHH sink; the recorder writes each hand to the hand log first
        # and delivers it once, also when the hand ends while the journal is replayed after a cut
        Sim.__init__(self, shoe=shoe, history=history)
        self.flash = flash
        self.reports = []
        self.restarts = 0
        self.seal = None  # felt.recovery.seal.JournalSeal: the journal's tag UIDs sealed (issue 16 item 5)

    def build(self, config):
        Sim.build(self, config)  # devices and board map (and a plain table, dropped here) ...
        self.config = config
        self.restart()  # ... the journaled firmware boots on them
        self.restarts = 0

    def _make_table(self, history):
        return Table(self.config, registry(), log=self._log, history=history)

    def _boot(self):
        self.flash.armed = False
        journal, self.handlog = self.flash.open_journal()
        table, rec, report = recovery.restore_table(journal, self._make_table, self.handlog, history=self.history,
                                                     seal=self.seal)
        self.reports.append(report)
        self.table = table
        self.recorder = rec
        self.rt = looplib.build(self.hal, self.board, table, self.shoe_protocol, log=self._log,
                                console_filters=[rec.console_entry])
        rec.seed_console(self.rt.link)
        self.rt.start()
        self.flash.armed = True

    def restart(self):
        hal = self.rewire()
        self.restarts += 1
        self._boot()
        self.pins = self.pins_of(hal)

    def next_seq(self):
        return self.recorder.journal.next_seq

    def _send(self, verb, args=(), opts=None):
        Sim._send(self, verb, args, opts)
        self.last_line = proto.encode(proto.Message(self.seq, verb, args, opts))


def reboot(sim, log):
    while True:
        try:
            sim.restart()
            break
        except jr.PowerCut:
            continue
    log.append(sim.reports[-1].message)
    # The first sweeps after a boot re-report every card on the antennas: a burst that a short
    # kill period would cut for ever. The next kill comes `every` appends after it.
    sim.flash.armed = False
    sim.settle(sweeps=2)
    sim.flash.armed = True
    sim.flash.count = 0


def run_line(sim, line, log):
    """One statement, surviving power cuts. A console entry is sent again after a restart, with
    the same seq, as a console that never got its reply does: if the table had taken it, the
    link (seeded by the recorder) answers it again instead of applying it twice."""
    try:
        sim.run(line)
        return
    except jr.PowerCut:
        pass
    while True:
        reboot(sim, log)
        if line.split()[0] not in CONSOLE_STATEMENTS:
            return  # the physical action (a card drawn, moved) happened; the table sees it
        sim.console.feed(sim.last_line)
        try:
            sim.settle(sweeps=1)
            return
        except jr.PowerCut:
            continue
