# The assembled device application (felt.app) on the simulated table: boot order, journal, audit,
# secrecy guard and hand files under an absolute data root; a power cut (every object dropped) and
# a rebuild from the same root gives back the same table. Runs on CPython and MicroPython.
import os

from check import eq

from felt import app as applib
from felt import view
from felt.hal.sim_hal import SimHAL
from felt.security import audit as auditlib
from felt.security import bootcheck
from felt.sim.runner import Sim, registry
from felt.table import Table


def _tmp(tag):
    root = "/tmp/felt_app_%s_%d" % (tag, os.getpid() if hasattr(os, "getpid") else 0)
    _rm(root)
    return root


def _rm(path):
    try:
        names = os.listdir(path)
    except OSError:
        try:
            os.remove(path)
        except OSError:
            pass
        return
    for n in names:
        _rm(path + "/" + n)
    os.rmdir(path)


class FakeMicropython:
    def __init__(self):
        self.calls = []

    def kbd_intr(self, c):
        self.calls.append(c)


class AppSim(Sim):
    """The sim runner with the firmware assembled by felt.app; boot() is a power cycle: new HAL,
    drivers, table and app objects, the devices (tags on antennas, shoe, console) kept."""

    def __init__(self, root, pressed=False):
        Sim.__init__(self)
        self.root = root
        self.pressed = pressed
        self.logged = []
        self.mpy = FakeMicropython()

    def build(self, config):
        Sim.build(self, config)  # the devices (and a plain table, dropped)
        self.config = config
        self.boot()

    def _make_table(self, history):
        return Table(self.config, registry(), log=self._log, history=history)

    def _log(self, line):
        self.logged.append(line)

    def boot(self):
        hal = SimHAL(clock=self.hal.clock)
        bus = hal.spi(0)
        for loc, line in self.board.antennas:
            bus.attach(("74HC154", line), self.chips[loc])
        hal.uart(0).attach(self.reader)
        self.console = hal.uart(1)
        self.oled = hal.add_display(0, 0x3C)
        self.hal = hal
        self.app = applib.build(hal, self.board, self._make_table, self.root, pressed=self.pressed,
                                log=self._log, micropython_module=self.mpy)
        self.table = self.app.table
        self.rt = self.app.runtime
        applib.start(self.app)
        self.pins = dict([(seat, hal.pin(gpio)) for seat, gpio in self.board.buttons])
        self.settle(sweeps=2)


HEAD = "table holdem no_limit seats=3 sb=50 bb=100 button=1"


def _state(sim):
    s = view.snapshot(sim.table)
    return s


def _play_hand(sim, cards, order=(2, 3, 1)):
    # DEAL-2 from the first seat left of the button; GAME-3 left of the big blind acts first
    sim.run("hand")
    for i in range(6):
        sim.run("draw %s to seat %d" % (cards[i], order[i % 3]))
    sim.run("act %d call" % order[2])
    sim.run("act %d call" % order[0])
    sim.run("act %d check" % order[1])


def _finish_hand(sim):
    sim.run("draw 3c to burn")
    for c in ("7h", "8h", "9c"):
        sim.run("draw %s to board" % c)
    for line in ("act 2 check", "act 3 check", "act 1 check"):
        sim.run(line)
    sim.run("draw 4c to burn")
    sim.run("draw Jd to board")
    for line in ("act 2 check", "act 3 check", "act 1 check"):
        sim.run(line)
    sim.run("draw 5d to burn")
    sim.run("draw 2d to board")
    for line in ("act 2 check", "act 3 check", "act 1 check"):
        sim.run(line)


def _hand_files(root):
    return sorted([n for n in os.listdir(root + "/hands") if n.endswith(".phh")])


def test_app_plays_journals_and_rebuilds_after_a_power_cut():
    root = _tmp("cut")
    sim = AppSim(root)
    sim.run(HEAD)
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    eq(sim.app.mode, bootcheck.PRODUCTION)
    eq(sim.mpy.calls, [-1])  # production: Ctrl-C off, no REPL while the table runs
    assert sim.app.keys is None and sim.app.desk is None
    assert [ln for ln in sim.logged if ln.startswith("unprovisioned board: running unsigned")], sim.logged
    _play_hand(sim, ["Ah", "Kd", "Qs", "Qh", "Kc", "2s"])
    _finish_hand(sim)
    eq(sim.table.state != "playing", True)
    sim.run("clear")
    eq(len(_hand_files(root)), 1)
    # second hand, cut in the middle of the flop betting
    _play_hand(sim, ["As", "Kh", "Qd", "Qc", "Ks", "2h"], order=(3, 1, 2))  # button on seat 2
    sim.run("draw 3d to burn")
    for c in ("7d", "8d", "9d"):
        sim.run("draw %s to board" % c)
    sim.run("act 3 bet 200")
    before = _state(sim)
    eq(before["street"], "flop")
    assert sum(before["stacks"]) < 3000  # chips are in the pot: a hand really is in progress
    sim.app = sim.table = sim.rt = None  # power cut: every firmware object dropped
    sim.boot()
    eq(_state(sim), before)
    assert sim.app.report.message.startswith("recovered to event "), sim.app.report.message
    assert sim.app.report.replayed > 0
    assert sim.app.report.message in sim.logged
    # the hand goes on after the restart and its history is stored once
    for line in ("act 1 call", "act 2 fold"):
        sim.run(line)
    sim.run("draw 4d to burn")
    sim.run("draw Jc to board")
    sim.run("act 3 check")
    sim.run("act 1 check")
    sim.run("draw 5c to burn")
    sim.run("draw 2c to board")
    sim.run("act 3 check")
    sim.run("act 1 check")
    eq(sim.table.state != "playing", True)
    eq(sum(sim.table.stacks), 3000)  # chips conserved across the cut
    eq(len(_hand_files(root)), 2)
    with open(root + "/hands/" + _hand_files(root)[1]) as f:
        eq(f.read(), sim.app.handlog.histories()[1])  # the file is the PHH text the hand log holds
    eq(len(sim.app.handlog.histories()), 2)
    # the audit log's chain holds (unkeyed board: chain without MACs)
    with open(root + "/audit.log") as f:
        lines = [ln for ln in f.read().split("\n") if ln]
    recs = auditlib.verify(lines)
    eq([r.kind for r in recs], ["boot", "boot"])  # one record per boot (two boots)
    assert "production mode, unsigned tree" in recs[1].text, recs[1].text


def test_maintenance_mode_is_audited_and_console_stays_open():
    root = _tmp("maint")
    sim = AppSim(root, pressed=True)
    sim.run(HEAD)
    eq(sim.app.mode, bootcheck.MAINTENANCE)
    eq(sim.mpy.calls, [])
    with open(root + "/audit.log") as f:
        lines = [ln for ln in f.read().split("\n") if ln]
    recs = auditlib.verify(lines)
    assert [r for r in recs if r.kind == "maintenance" and "key switch held" in r.text], lines
    # a second boot appends to the same chain
    sim.boot()
    with open(root + "/audit.log") as f:
        lines2 = [ln for ln in f.read().split("\n") if ln]
    eq(len(auditlib.verify(lines2)), 2 * len(lines))  # maintenance entry + boot record again


def test_data_root_is_absolute():
    eq(applib.join("/", "hands"), "/hands")
    eq(applib.join("/var/lib/felt/", "journal"), "/var/lib/felt/journal")
    assert applib.data_root("/").startswith("/")
