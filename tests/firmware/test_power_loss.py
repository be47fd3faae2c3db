# Power-loss proof on the simulated table (real firmware: table.py + loop.py + drivers on the sim
# HAL, journaled through felt.recovery.TableRecorder). The firmware is killed at journal appends --
# on an event boundary (nothing of the record written), inside the record (torn) or right after it
# (written, not yet in effect) -- and rebooted on the same devices (antenna chips with their tags,
# shoe reader, console); the dealer re-enters a console entry the table never took. The finishing
# stacks, hand histories and lights must equal the uninterrupted run; chips are conserved.
# FELT_POWER_HANDS (default 3 per game here) sets the length; tests/soak/soak.py runs long ones.
import os

from check import eq

from felt import journal as jr
from felt import loop as looplib
from felt import recovery, view
from felt.engine.hand import BET, DEAL
from felt.hal.sim_hal import SimHAL
from felt.journal_ring import MemBlockDevice, RingHandLog, RingJournal
from felt.sim.runner import Sim, registry
from felt.table import PLAYING, Table

try:
    HANDS = int(os.environ.get("FELT_POWER_HANDS", "3"))
except AttributeError:  # MicroPython's os has getenv only
    HANDS = int(os.getenv("FELT_POWER_HANDS") or "3")

CONSOLE_STATEMENTS = ("seat", "hand", "act")
# cut positions inside a record, cycled: boundary (0), inside the header, inside the payload,
# inside the CRC, the whole record written but the input not yet in effect (-1 = len)
OFFSETS = (0, 1, 7, 9, 13, -5, -2, -1)


class Rng:
    """xorshift32: the same stream on CPython and MicroPython."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF or 1

    def below(self, n):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x % n


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

    def __init__(self, flash, shoe="pn532"):
        Sim.__init__(self, shoe=shoe)
        self.flash = flash
        self.reports = []
        self.restarts = 0

    def build(self, config):
        Sim.build(self, config)  # devices and board map (and a plain table, dropped here) ...
        self.config = config
        self.restart()  # ... the journaled firmware boots on them
        self.restarts = 0

    def _make_table(self):
        return Table(self.config, registry(), log=self._log, history=None)

    def _boot(self):
        self.flash.armed = False
        journal, self.handlog = self.flash.open_journal()
        table, rec, report = recovery.restore_table(journal, self._make_table, self.handlog)
        self.reports.append(report)
        self.table = table
        self.recorder = rec
        self.rt = looplib.build(self.hal, self.board, table, self.shoe_protocol, log=self._log)
        self.rt.start()
        self.flash.armed = True

    def restart(self):
        old = self.hal
        hal = SimHAL(clock=old.clock)
        bus = hal.spi(0)
        for loc, line in self.board.antennas:
            bus.attach(("74HC154", line), self.chips[loc])
        hal.uart(0).attach(self.reader)
        self.console = hal.uart(1)
        self.oled = hal.add_display(0, 0x3C)
        self.hal = hal
        self.restarts += 1
        self._boot()
        self.pins = dict([(seat, hal.pin(gpio)) for seat, gpio in self.board.buttons])

    def next_seq(self):
        return self.recorder.journal.next_seq


def took(sim, since_seq, method):
    """Did a `method` call journaled at or after since_seq survive the restart?"""
    for r in sim.recorder.journal.records():
        if r.seq >= since_seq and recovery.decode_call(r)[0] == method:
            return True
    return False


METHOD = {"seat": "sit", "hand": "new_hand", "act": "act"}


def run_line(sim, line, log):
    """One statement, surviving power cuts: after a restart a console entry the table never
    took is entered again (the dealer reads "re-enter it" on the display)."""
    verb = line.split()[0]
    while True:
        since = sim.next_seq() if verb in CONSOLE_STATEMENTS else None
        try:
            sim.run(line)
            return
        except jr.PowerCut:
            pass
        while True:
            try:
                sim.restart()
                break
            except jr.PowerCut:
                continue
        log.append(sim.reports[-1].message)
        # The first sweeps after a boot re-report every card on the antennas: a burst that a
        # short kill period would cut for ever. The next kill comes `every` appends after it.
        sim.flash.armed = False
        sim.settle(sweeps=2)
        sim.flash.armed = True
        sim.flash.count = 0
        if since is None or took(sim, since, METHOD[verb]):
            return
        sim.line_no -= 1  # the same statement again


# -- a dealer and players that script hands from the table's own state ------------------------

GAME_LINES = {
    "holdem": "table holdem no_limit seats=4 sb=5 bb=10 button=1",
    "omaha8": "table omaha8 limit seats=4 sb=5 bb=10 small_bet=10 big_bet=20 button=2",
    "stud7": "table stud7 limit seats=3 ante=2 bring_in=5 small_bet=10 big_bet=20 button=3",
    "omaha": "table omaha pot_limit seats=3 sb=5 bb=10 button=1",
}


def _ct(c):
    from felt.engine.cards import card_text as ct

    return ct(c)


def script_game(game, hands, seed, stacks=400):
    """Play `hands` hands on a plain sim with seeded decisions; returns the statement lines."""
    sim = Sim()
    lines = []

    def do(line):
        lines.append(line)
        sim.run(line)

    do(GAME_LINES[game])
    seats = sim.table.config.seats
    for s in range(1, seats + 1):
        do("seat %d %d" % (s, stacks))
    rng = Rng(seed)
    for _ in range(hands):
        for s in range(1, seats + 1):
            if sim.table.stacks[s - 1] == 0:
                do("seat %d %d" % (s, stacks))  # a busted player buys in again
        _script_hand(sim, do, rng)
        do("clear")
    return lines


def _script_hand(sim, do, rng):
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    do("hand")
    t = sim.table
    dealt = -1
    for _ in range(400):
        if t.state != PLAYING:
            return
        h = t.hand
        if h.phase == DEAL and dealt < h.street:
            dealt = h.street
            _deal_street(t, h, deck, do)
            continue
        lg = h.legal() if h.phase == BET else None
        if lg is None:
            return
        do(_decide(t, lg, rng))
    raise AssertionError("the scripted hand did not end")


def _deal_street(t, h, deck, do):
    st = t.config.record.streets[h.street]
    order = [s for s in t.setup.seats if h.live[t.position(s)]]
    if st.burn:
        do("draw %s to burn" % _ct(deck.pop()))
    for _k in st.hole:
        for s in order:
            do("draw %s to seat %d" % (_ct(deck.pop()), s))
    for _k in range(st.board):
        do("draw %s to board" % _ct(deck.pop()))


def _decide(t, lg, rng):
    seat = t.setup.seats[lg.position]
    r = rng.below(60)
    if lg.bring_in:
        return "act %d bringin" % seat
    stack = t.hand.stacks[lg.position]
    if lg.call and (r < 9 or (lg.call * 3 > stack and r < 40)):
        return "act %d fold" % seat
    if lg.can_raise and r >= 48:
        verb = "raise" if lg.call else "bet"
        amount = lg.max_to if r == 59 else lg.min_to
        return "act %d %s %d" % (seat, verb, amount)
    return "act %d %s" % (seat, "call" if lg.call else "check")


# -- outcome -----------------------------------------------------------------------------------

def outcome(sim, histories):
    return {"stacks": list(sim.table.stacks), "hand_no": sim.table.hand_no, "histories": histories,
            "lights": view.lights(sim.table)}


def plain_run(lines):
    hist = []
    sim = Sim(history=hist.append)
    for line in lines:
        sim.run(line)
    return outcome(sim, hist)


def killed_run(lines, every, phase=0, ring=False):
    flash = KillBlockDevice(every, phase) if ring else KillFlash(every, phase)
    sim = PowerSim(flash)
    log = []
    total = None
    for line in lines:
        run_line(sim, line, log)
        if sim.table.state != PLAYING:
            s = sum(sim.table.stacks)
            if total is None or line.startswith("seat"):
                total = s
            eq(s, total, "chips conserved after %r" % line)
    return outcome(sim, sim.handlog.histories()), flash, log


def check_game(game, seed, everies, ring=False):
    lines = script_game(game, HANDS, seed)
    want = plain_run(lines)
    got, flash, _log = killed_run(lines, None, ring=ring)
    eq(got, want, "%s journaled, no kill" % game)
    kills = 0
    for every, phase in everies:
        got, flash, log = killed_run(lines, every, phase, ring)
        eq(got, want, "%s killed every %d appends (phase %d)" % (game, every, phase))
        kills += flash.kills
    return kills


def test_holdem_survives_kills_at_every_offset_of_every_seventh_append():
    kills = check_game("holdem", 1, [(7, 0), (7, 3)])
    eq(kills > 10, True, "enough kills happened (%d)" % kills)


def test_omaha8_limit_survives_kills():
    check_game("omaha8", 2, [(9, 4)])


def test_stud7_survives_kills():
    check_game("stud7", 3, [(8, 1)])


def test_journaled_run_without_kills_equals_the_plain_run_pot_limit_omaha():
    lines = script_game("omaha", HANDS, 4)
    got, flash, _log = killed_run(lines, None)
    eq(got, plain_run(lines))
    eq(flash.kills, 0)
