# The helpers firmware tests share (tests by layer, issue 13 item 5): test modules import only
# check and this, never each other (tests/host/test_tests_layout.py keeps it so). Runs under
# CPython (pytest) and the MicroPython interpreter (tests/mprun.py) alike.
import json
import os

from check import eq, raises

from felt import hal as contract
from felt import view
from felt.drivers.buttons import SeatButtons
from felt.drivers.display import SSD1306
from felt.drivers.mfrc522 import MFRC522
from felt.drivers.neopixel_lights import SeatLights
from felt.engine.hand.machine import BET, DEAL
from felt.errors import ConfigError
from felt.hal.sim.hal import SimSSD1306
from felt.hal.sim.mfrc522 import SimMFRC522, SimTag
from felt.proto import console as proto
from felt.proto import pn532
from felt.runtime import app as applib
from felt.security import audit as auditlib
from felt.security import bootcheck
from felt.security import keys as keylib
from felt.security import manifest as mf
from felt.sim.powerloss import KillBlockDevice, KillFlash, PowerSim, run_line
from felt.sim.runner import Sim, registry
from felt.table.controller import PLAYING, Table


# ---- console lines through the sim table (was in test_table_rulings.py) ---------------------------


def wire(sim, verb, args=(), opts=None, text=None):
    """Send one console line; the table's reply to it (text)."""
    sim.seq = (sim.seq + 1) % 65536
    sim.console.feed(proto.encode(proto.Message(sim.seq, verb, args, opts, text)))
    sim.settle(sweeps=0)
    got = [r for r in sim.replies if (" re=%d " % sim.seq) in r and (" ok " in r or " error " in r)]
    assert len(got) == 1, (verb, sim.replies)
    return got[0]


def snapshot(t):
    h = t.hand
    return (t.state, t.hand_no, h.actor if h is not None else None, list(h.live) if h else None,
            h.pot_total() if h else None, list(t.stacks), t.misdeals)


def refused(sim, rule, verb, args=(), opts=None, text=None):
    """The entry is answered `error rule=RULE code=rule`, the display names the rule, nothing changed."""
    from felt import view
    before = snapshot(sim.table)
    r = wire(sim, verb, args, opts, text)
    assert " error " in r and ("rule=%s " % rule) in r and "code=rule" in r, r
    eq(snapshot(sim.table), before)
    shown = view.lines(sim.table)
    assert [ln for ln in shown if ln.startswith("!") and rule in ln], shown
    return r


def replayed(histories, t):
    """The table wrote one PHH for the hand, and felt.history.replay plays it to the table's stacks."""
    from felt.history import phh
    from felt.history import replay
    eq(len(histories), 1)
    h = phh.read(histories[0])
    r = replay.replay(h)
    assert "error" not in r, (r, h.actions)
    eq(r["finishing_stacks"], [t.stacks[s - 1] for s in t.setup.seats])
    return h.actions


# ---- stud third street (was in test_table_absent_stud.py) -----------------------------------------


DOWNS = ("Ah", "Ad", "As", "Ac", "Kh", "Qd", "Jh", "Td")


def deal_third_street(sim, ups):
    t = sim.table
    order = list(t.setup.seats)
    for k in range(2):
        for seat in order:
            sim.run("draw %s to seat %d" % (DOWNS[k * 4 + seat - 1], seat))
    for seat in order:
        sim.run("draw %s to seat %d" % (ups[seat], seat))


def bring_in_alert(t, seat):
    return [a for a in t.alerts if a.rules == ("BLIND-23",) and a.seat == seat and "bring-in" in a.text]


# ---- tournament table (was in test_table_hand_for_hand.py) ----------------------------------------


HOLES = ("Ah", "Kd", "2c", "7s", "Ac", "Kc", "3d", "8s")


LEVELS = [{"sb": 50, "bb": 100, "minutes": 20}, {"sb": 100, "bb": 200, "ante": 25, "minutes": 20}]


def tour_sim(sim=None, mode="tournament", extra=""):
    """Three seats of 1,000 at NL 50/100, button 1; `extra`: more `table` settings (hr.X=V ...)."""
    sim = sim or Sim()
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1 mode=%s%s" % (mode, extra and " " + extra))
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    return sim


def deal(sim):
    t = sim.table
    seats = list(t.setup.seats)
    for k in range(2):
        for i in range(len(seats)):
            sim.run("draw %s to seat %d" % (HOLES[k * len(seats) + i], seats[i]))


def fold_out(sim):
    t = sim.table
    while t.state == "playing":
        assert " ok " in wire(sim, "fold", [t.setup.seats[t.hand.actor]])
    sim.run("clear")


def clock(sim):
    r = wire(sim, "get", ["hand_for_hand"])
    assert " ok " in r, r
    return r.split("value=")[1].split()[0]


# ---- action clock (was in test_table_clock.py) ----------------------------------------------------


def at(sim, ms):
    """The manual clock to exactly `ms`, then one loop step."""
    sim.hal.clock.advance_to_us(ms * 1000)
    sim.rt.step()


def actor(t):
    return t.setup.seats[t.hand.actor]


def check_down(sim):
    """The board dealt (with its burns) and every street checked to the end of the hand."""
    t = sim.table
    for card, place in (("2d", "burn"), ("3h", "board"), ("4s", "board"), ("9c", "board"), ("5h", "burn"),
                        ("Td", "board"), ("6s", "burn"), ("Jc", "board")):
        if t.state == "playing" and t.hand.actor is not None:
            wire(sim, "check", [actor(t)])
            wire(sim, "check", [actor(t)])
        sim.run("draw %s to %s" % (card, place))
    while t.state == "playing" and t.hand.actor is not None:
        wire(sim, "check", [actor(t)])


# ---- PN532 byte feeding (was in test_proto_pn532.py) ----------------------------------------------


def feed_bytewise(data):
    p = pn532.Parser()
    out = []
    for i in range(len(data)):
        out.extend(p.feed(data[i:i + 1]))
    return out


# ---- power cuts (was in test_power_loss.py) -------------------------------------------------------


try:
    HANDS = int(os.environ.get("FELT_POWER_HANDS", "3"))
except AttributeError:  # MicroPython's os has getenv only (the WebAssembly port not even that)
    HANDS = int((os.getenv("FELT_POWER_HANDS") if hasattr(os, "getenv") else None) or "3")


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


GAME_LINES = {
    "holdem": "table holdem no_limit seats=4 sb=5 bb=10 button=1",
    "omaha8": "table omaha8 limit seats=4 sb=5 bb=10 small_bet=10 big_bet=20 button=2",
    "stud7": "table stud7 limit seats=3 ante=2 bring_in=5 small_bet=10 big_bet=20 button=3",
    "omaha": "table omaha pot_limit seats=3 sb=5 bb=10 button=1",
}


def short_card(c):
    """The card as its two-letter text (Ah), for sim statements."""
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
        do(decide_action(t, lg, rng))
    raise AssertionError("the scripted hand did not end")


def _deal_street(t, h, deck, do):
    st = t.config.record.streets[h.street]
    order = [s for s in t.setup.seats if h.live[t.position(s)]]
    if st.burn:
        do("draw %s to burn" % short_card(deck.pop()))
    for _k in st.hole:
        for s in order:
            do("draw %s to seat %d" % (short_card(deck.pop()), s))
    for _k in range(st.board):
        do("draw %s to board" % short_card(deck.pop()))


def decide_action(t, lg, rng):
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


def outcome(sim, histories, trace):
    return {"stacks": list(sim.table.stacks), "hand_no": sim.table.hand_no, "histories": histories,
            "lights": view.lights(sim.table), "trace": trace}


def _point(t):
    # what the players see after each statement: street, pot, lights
    pot = t.hand.pot_total() if t.state == PLAYING else None
    return (view.street(t), pot, view.lights(t))


def plain_run(lines):
    hist = []
    sim = Sim(history=hist.append)
    trace = []
    for line in lines:
        sim.run(line)
        trace.append(_point(sim.table))
    return outcome(sim, hist, trace)


class CountingNonces:
    """A nonce source for tests (the wasm port has no os.urandom): distinct, not secret."""

    def __init__(self):
        self.n = 0

    def __call__(self, k):
        self.n += 1
        return bytes([(self.n >> (8 * (i % 4))) & 255 for i in range(k)])


def killed_run(lines, every, phase=0, ring=False, sealed=False, blocks=24):
    flash = KillBlockDevice(every, phase, blocks=blocks) if ring else KillFlash(every, phase)
    sim = PowerSim(flash)
    if sealed:  # issue 16 item 5: CARD/ANTENNA records sealed with a per-hand key
        from felt.recovery.seal import JournalSeal
        sim.seal = JournalSeal(b"\x55" * 32, CountingNonces())
    log = []
    total = None
    trace = []
    for line in lines:
        run_line(sim, line, log)
        trace.append(_point(sim.table))
        if sim.table.state != PLAYING:
            s = sum(sim.table.stacks)
            if total is None or line.startswith("seat"):
                total = s
            eq(s, total, "chips conserved after %r" % line)
    return outcome(sim, sim.handlog.histories(), trace), flash, log


def check_game(game, seed, everies, ring=False, sealed=False, blocks=24):
    lines = script_game(game, HANDS, seed)
    want = plain_run(lines)
    got, flash, _log = killed_run(lines, None, ring=ring, sealed=sealed, blocks=blocks)
    eq(got, want, "%s journaled, no kill" % game)
    kills = 0
    for every, phase in everies:
        got, flash, log = killed_run(lines, every, phase, ring, sealed, blocks)
        eq(got, want, "%s killed every %d appends (phase %d)" % (game, every, phase))
        kills += flash.kills
    return kills


# ---- the assembled board (was in test_app.py; felt.runtime.app) ----------------------------------


if hasattr(os, "getpid"):
    _RUN = "%d" % os.getpid()
elif hasattr(os, "urandom"):
    _RUN = "".join(["%02x" % b for b in os.urandom(4)])
else:  # the WebAssembly port (issue 19): neither; its file system is its own, one run at a time
    _RUN = "wasm"


def tmp_root(tag):
    # one folder per process: MicroPython's unix port has no getpid, and two suites running at once
    # (two checkouts on one machine) wrote into each other's boards
    root = "/tmp/felt_app_%s_%s" % (tag, _RUN)
    rm_tree(root)
    return root


def rm_tree(path):
    try:
        names = os.listdir(path)
    except OSError:
        try:
            os.remove(path)
        except OSError:
            pass
        return
    for n in names:
        rm_tree(path + "/" + n)
    os.rmdir(path)


class FakeMicropython:
    def __init__(self):
        self.calls = []

    def kbd_intr(self, c):
        self.calls.append(c)


class AppSim(Sim):
    """The sim runner with the firmware assembled by felt.runtime.app; boot() is a power cycle: new HAL,
    drivers, table and app objects, the devices (tags on antennas, shoe, console) kept."""

    def __init__(self, root, pressed=False):
        Sim.__init__(self)
        self.root = root
        self.pressed = pressed
        self.logged = []
        self.mpy = FakeMicropython()
        self.rotation = None  # the audit log's Rotation (None: felt.runtime.app's default)
        self.room = None  # room.json's contents (felt.room.setup; None: no room)
        self.entropy = True  # the sim board's entropy source: True (SimEntropy), None (none), or a callable

    def build(self, config):
        Sim.build(self, config)  # the devices (and a plain table, dropped)
        self.config = config
        self.boot()

    def _make_table(self, history, log):
        return Table(self.config, registry(), log=log, history=history)

    def _log(self, line):
        self.logged.append(line)

    def boot(self):
        hal = self.rewire()
        if self.entropy is not True:
            hal.entropy_source = self.entropy  # issue 16 item 6: none, or a failing source
        self.app = applib.build(hal, self.board, self._make_table, self.root, pressed=self.pressed,
                                log=self._log, micropython_module=self.mpy, audit_rotation=self.rotation,
                                room=self.room)
        self.table = self.app.table
        self.rt = self.app.runtime
        applib.start(self.app)
        self.pins = self.pins_of(hal)
        self.settle(sweeps=2)


HEAD = "table holdem no_limit seats=3 sb=50 bb=100 button=1"


def play_app_hand(sim, cards, order=(2, 3, 1)):
    # DEAL-2 from the first seat left of the button; GAME-3 left of the big blind acts first
    sim.run("hand")
    for i in range(6):
        sim.run("draw %s to seat %d" % (cards[i], order[i % 3]))
    sim.run("act %d call" % order[2])
    sim.run("act %d call" % order[0])
    sim.run("act %d check" % order[1])


def finish_app_hand(sim):
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


def in_slot(slot, fn):
    here = os.getcwd()
    os.chdir(slot)
    try:
        return fn()
    finally:
        os.chdir(here)


def boardlib_sim(seats):
    from felt.sim.runner import sim_board
    return sim_board(seats)


# ---- a provisioned board in production mode (was in test_security_attacks_i12b.py) ----------------


OWNER = b"\x42" * 32  # the board's device signing seed (issue 16: signs audit and feed records)
RELEASE = b"\x52" * 32  # the release key's seed: the host's, never on the board
_PUBLIC = {}


def public(seed):
    """The Ed25519 public key of a test seed (cached: plain Python on MicroPython)."""
    if seed not in _PUBLIC:
        from felt.security import ed25519
        _PUBLIC[seed] = ed25519.public_key(seed)
    return _PUBLIC[seed]


def test_keys(device=None, floor=None):
    """A board's key set: device key OWNER, release public key of RELEASE."""
    return keylib.Keys(device or DEVICE, OWNER, floor or {"alice": b"\x21" * 32}, b"\x33" * 32, [public(RELEASE)])


DEVICE = "table1"


HOLE = ["Ah", "Kd", "Qs", "Qh", "Kc", "2s"]


def provisioned_root(tag, keys_text=None, release=RELEASE):
    """A data root with /felt.keys (the given key file text, or a fixed test key set) and a code
    slot holding one file signed by the release key. Returns (root, slot)."""
    root = tmp_root(tag)
    os.mkdir(root)
    with open(root + "/felt.keys", "w") as f:
        f.write(keys_text or keylib.encode(test_keys()))
    slot = root + "/slot"
    os.mkdir(slot)
    with open(slot + "/main.py", "w") as f:
        f.write("pass\n")
    entries = [[rel] + list(mf.file_hash(slot + "/" + rel)) for rel in mf.walk(slot)]
    with open(slot + "/" + mf.NAME, "w") as f:
        f.write(mf.sign(keylib.load(root + "/felt.keys").device, release, "v1", 1, entries))
    return root, slot


class ProductionSim(AppSim):
    """AppSim on a provisioned board, production mode (no maintenance switch), booted from the
    signed slot. feed(): the public and broadcast records the board sent (its FEED lines)."""

    def __init__(self, root, slot):
        AppSim.__init__(self, root, pressed=False)
        self.slot = slot

    def boot(self):
        in_slot(self.slot, lambda: AppSim.boot(self))

    def feed(self):
        return [json.loads(ln[5:]) for ln in self.logged if ln.startswith("FEED ")]


def play_one_hand(sim, delay_ms=1000):
    """A whole hold'em hand to showdown, then past its release (hand end + delay)."""
    sim.run(HEAD)
    eq(sim.app.mode, bootcheck.PRODUCTION)
    eq(sim.app.halted, None)
    sim.app.feed.delay_ms = delay_ms
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    play_app_hand(sim, HOLE)
    finish_app_hand(sim)
    sim.run("wait %d" % (delay_ms + 1000))
    return sim.feed()


def console_line(sim, verb, args=(), opts=None, text=None):
    """One FELT1 line on the console wire, as the dealer console (or a laptop on it) sends it."""
    from felt.proto import console as proto
    sim.seq = (sim.seq + 1) % 65536
    sim.console.feed(proto.encode(proto.Message(sim.seq, verb, args, opts, text)))
    sim.settle(sweeps=0)


def audit_set(root):
    """[(name, lines)] of the board's audit log files, oldest first."""
    out = []
    for name in auditlib.order(os.listdir(root), "audit.log"):
        with open(root + "/" + name) as f:
            out.append((name, [ln for ln in f.read().split("\n") if ln]))
    return out


FLOOD_TEXT = "x" * 180  # near what the console carries: each record ~360 bytes on flash


def flooded_board(tag, warnings, gap_ms=0, max_bytes=1024, keys_text=None, release=RELEASE):
    root, slot = provisioned_root(tag, keys_text, release)
    sim = ProductionSim(root, slot)
    sim.rotation = auditlib.Rotation(max_bytes=max_bytes, keep=2)  # 3 files: a small board
    sim.run(HEAD)
    eq(sim.app.mode, bootcheck.PRODUCTION)
    first = auditlib.verify_files(audit_set(root), public(keylib.load(root + "/felt.keys").sign))
    boot = [r for r in first if r.kind == "boot"][-1]
    for i in range(warnings):
        console_line(sim, "floor", ["warning", 2], None, "%d %s" % (i, FLOOD_TEXT))
        if gap_ms:
            sim.hal.clock.advance_ms(gap_ms)
    return root, sim, boot


def decoded_wire(sim, verb, args=(), opts=None, text=None):
    """One console line and the table's reply to it (decoded)."""
    from felt.proto import console as proto
    console_line(sim, verb, args, opts, text)
    got = [r for r in sim.replies if (" re=%d " % sim.seq) in r and (" ok " in r or " error " in r)]
    eq(len(got), 1, verb)
    return proto.decode_line(got[0].encode())


# the floor key of these boards, floor commands over the console, deck records
FLOOR = b"\x21" * 32


def floor_auth(sim, nonce, command, key=FLOOR):
    from felt.security.auth import answer
    return decoded_wire(sim, "auth", ["alice", nonce, answer(key, DEVICE, nonce, "alice", command)], None, command)


def seated_board(tag):
    root, slot = provisioned_root(tag)
    sim = ProductionSim(root, slot)
    sim.run(HEAD)
    eq(sim.app.mode, bootcheck.PRODUCTION)
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    return root, sim


def deck_record(deck_id, who="alice", key=FLOOR, device=DEVICE, salt=0x33):
    from felt.security import deckmap
    e = deckmap.Enrollment()
    for i in range(52):
        e.add(bytes([4, salt, 0x44, 0, 0, 0, i]))
    return deckmap.sign(device, deck_id, who, key, e.scan.mapping)


def send_deck(sim, record):
    """The record line by line over the console; the last reply (sha256= on the sig line)."""
    rows = record.rstrip("\n").split("\n")
    r = None
    for i in range(len(rows)):
        r = decoded_wire(sim, "deckline", [i + 1], None, rows[i])
    return r


# ---- the one HAL driver suite (was in test_hal_suite.py) ------------------------------------------


UID = bytes([0x04, 0x52, 0x19, 0xA2, 0x7C, 0x3B, 0x80])


# Pins used by the suite (valid on a Pico; the fakes accept them too).
SCK, MOSI, MISO, CS = 18, 19, 16, 17


BUTTON, LED_OUT, PIXELS, SDA, SCL = 2, 15, 22, 20, 21


def hal_check_contract(rig):
    eq(contract.missing(rig.hal), [])
    contract.check_backend(rig.hal)
    rig.hal.input_pin(BUTTON, pull="up")
    with raises(ConfigError, match="already in use"):
        rig.hal.output_pin(BUTTON)
    with raises(ConfigError, match="pull must be"):
        rig.hal.input_pin(3, pull="sideways")


def hal_check_spi_mfrc522(rig):
    chip = SimMFRC522(rig.model_clock())
    rig.attach_spi(0, CS, chip)
    bus = rig.hal.spi(0, baud=4000000, sck=SCK, mosi=MOSI, miso=MISO)
    reader = MFRC522(bus.device(CS), name="suite")
    eq(reader.init(), 0x92)
    eq(rig.output_level(CS), 1)  # chip-select released between exchanges
    chip.place(SimTag(UID))
    reader.field(True)
    rig.model_clock().advance_ms(6)
    result = reader.inventory()
    reader.field(False)
    eq(result.uids, [UID])
    eq(chip.field_is_on(), False)


def hal_check_buttons(rig):
    pin = rig.hal.input_pin(BUTTON, pull="up")
    eq(pin.value(), 1)
    buttons = SeatButtons([(1, pin)], debounce_ms=30)
    eq(buttons.poll(0), [])
    rig.drive(BUTTON, 0)
    events = []
    for t in range(0, 100, 10):
        events += buttons.poll(t)
    rig.drive(BUTTON, 1)
    for t in range(100, 200, 10):
        events += buttons.poll(t)
    eq(events, [("button", 1, "short")])


def hal_check_button_irq(rig):
    pin = rig.hal.input_pin(BUTTON, pull="up")
    buttons = SeatButtons([(3, pin)])
    buttons.attach_irqs()
    rig.drive(BUTTON, 0)
    rig.drive(BUTTON, 1)
    eq(len(buttons.queue), 2)
    eq(buttons.queue.get(), 0)


def hal_check_output(rig):
    out = rig.hal.output_pin(LED_OUT, value=0)
    eq((out.value(), rig.output_level(LED_OUT)), (0, 0))
    out.value(1)
    eq((out.value(), rig.output_level(LED_OUT)), (1, 1))


def hal_check_lights(rig):
    chain = rig.hal.neopixel(PIXELS, 10)
    lights = SeatLights(chain, 2, brightness=255)
    lights.apply({"dealer": 2, "all_in": [1]})
    want = bytearray(30)
    want[12:15] = b"\xFF\x00\x00"  # seat 1 all-in: red
    want[15:18] = b"\xFF\xFF\xFF"  # seat 2 dealer: white
    eq(rig.pixels(PIXELS), bytes(want))


def hal_check_display(rig):
    panel = rig.attach_i2c(0, 0x3C, SimSSD1306())
    display = SSD1306(rig.hal.i2c(0, freq=400000, scl=SCL, sda=SDA))
    display.init()
    display.show(["SEAT 4 ALL IN", "POT 12,400"])
    eq(panel.text_lines()[:2], ["SEAT 4 ALL IN", "POT 12,400"])


def hal_check_uart(rig):
    u = rig.hal.uart(rig.UART_PORT, baud=115200, tx=4, rx=5)
    eq((u.any(), u.read(4)), (0, b""))
    rig.uart_feed(b"04A1B2\n")
    eq(u.any(), 7)
    eq(u.read(3), b"04A")
    eq(u.read(10), b"1B2\n")
    eq(u.write(b"OK\n"), 3)
    eq(rig.uart_sent(), b"OK\n")


def hal_check_ticks(rig):
    t0 = rig.hal.ticks_ms()
    rig.advance_ms(1500)
    eq(rig.hal.ticks_ms() - t0, 1500)


HAL_CHECKS = (hal_check_contract, hal_check_spi_mfrc522, hal_check_buttons, hal_check_button_irq, hal_check_output, hal_check_lights,
          hal_check_display, hal_check_uart, hal_check_ticks)
