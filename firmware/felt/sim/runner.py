# The simulated table runner (sim layer): builds the sim HAL with a Pico-like board map -- a PN532
# (or ASCII) shoe on UART 0, FELT1 console on UART 1, one register-level MFRC522 per location behind
# a 74HC154 on SPI 0, seat-button pins, a NeoPixel chain and an SSD1306 -- runs the REAL firmware
# (table.py + loop.py + drivers) on it, and executes STIMULUS statements (hardware/sim-protocol.md).
# After each statement the manual clock advances until the firmware is idle. No wall clock.
# The firmware runs here (a local board) or, given `board` (felt.sim.remote.RemoteBoard), in another
# MicroPython VM that holds only what a board holds: the same statements drive either; only the few
# queries below (_on_antenna, _cards_on, turn, snapshot) ask the remote board rather than its objects.
import json

from felt.runtime import loop as looplib
from felt import view
from felt.engine.cards import parse_card
from felt.errors import FeltError, FormatError
from felt.hal.sim.hal import SimHAL
from felt.hal.sim.mfrc522 import SimMFRC522, SimTag
from felt.hal.sim.pn532 import SimPN532
from felt.proto import console as proto
# shared with the blackjack board and the two-VM board (registry: the deck registry of the sim cards)
from felt.sim.board_map import DECKS, UID_PREFIX, card_uid, registry, sim_board  # noqa: F401
from felt.table.controller import Table, TableConfig
from felt.textnum import is_digits, parse_uint

STRUCTURES = ("no_limit", "pot_limit", "limit")
GAMES = ("holdem", "omaha", "omaha8", "stud7", "stud7_8", "stud5", "draw5")
PLACES = ("board", "burn", "muck")
NUMBERS = ("sb", "bb", "ante", "small_bet", "big_bet", "bring_in", "unit", "button")
# Device traces a statement keeps (nothing here reads them; they are emptied after every
# statement): on the emulated board the sim shares the firmware's heap. The decoder address pins
# toggle on every SPI transfer: 64 changes each were ~16 KB inside a hand, and recording any
# change at all was 60 % of what a hand allocates (32 -> 14 MB a hand without it).
PIN_HISTORY = 0
MAX_STEPS = 20000  # per statement: a firmware that never settles is reported, not looped on
WAIT_SLICE_MS = 10000  # `wait` settles in slices of this much table time (each within MAX_STEPS)


def parse_levels(text):
    """`levels=` of the table statement: rows SB/BB/ANTE/MINUTES (or `break/MINUTES`) separated by
    commas -> TableConfig levels (the floor's `level N` rows, the level clock's table, TOUR-1)."""
    rows = []
    for row in text.split(","):
        f = row.split("/")
        if len(f) == 2 and f[0] == "break":
            rows.append({"is_break": True, "minutes": parse_uint(f[1], "break minutes")})
        elif len(f) == 4:
            rows.append({"sb": parse_uint(f[0], "level sb"), "bb": parse_uint(f[1], "level bb"),
                         "ante": parse_uint(f[2], "level ante"), "minutes": parse_uint(f[3], "level minutes")})
        else:
            raise FormatError("levels=SB/BB/ANTE/MINUTES,... (or break/MINUTES), got %r" % row)
    return rows


class SimError(FeltError):
    pass


class Sim:
    """One simulated table. run(line) executes one statement and returns the output lines (a JSON
    snapshot for `state`). shoe: "pn532" or "ascii". log: callable(str) for the firmware's log.
    board: None (the firmware runs here, on this VM's heap) or a felt.sim.remote.RemoteBoard (the
    firmware runs in the board VM; rt and table are then its proxies)."""

    def __init__(self, shoe="pn532", log=None, history=None, board=None):
        self.remote = board
        self.shoe_protocol = shoe
        self.log_sink = log
        self.history = history
        self.rt = None
        self.table = None
        self.line_no = 0
        self.seq = 0
        self.replies = []  # table -> console lines of the last statement (text)
        self._deferred = None  # run_steps: the statement's settle, run by the caller step by step

    # -- building ------------------------------------------------------------------------------
    def _log(self, line):
        # the board's log is a public output: it passes the runtime's text filters (the secrecy
        # guard a test adds with secrecy.install) like the display and the console
        if self.log_sink is not None:
            if self.rt is not None:
                for f in self.rt.text_filters:
                    line = f(line)
            self.log_sink(line)

    def build(self, config):
        hal = SimHAL(pin_history=PIN_HISTORY)
        b = sim_board(config.seats)
        self.hal = hal
        self.board = b
        self.chips = {}
        bus = hal.spi(0)
        for loc, line in b.antennas:
            # nothing here reads the chips' frame logs: none is kept (a frame logged is garbage on
            # the emulated board's heap, every transmission of every chip)
            self.chips[loc] = bus.attach(("74HC154", line), SimMFRC522(hal.clock, frame_log=0))
        if self.shoe_protocol == "pn532":
            self.reader = SimPN532()
        else:
            from felt.hal.sim.ascii_reader import SimAsciiReader  # loaded only for an ASCII shoe

            self.reader = SimAsciiReader()
        hal.uart(0).attach(self.reader)
        self.console = hal.uart(1)
        self.oled = hal.add_display(0, 0x3C)
        self.tags = {}  # (location, uid) -> SimTag placed there
        if self.remote is not None:  # the firmware in the board VM, on this world's devices
            self.rt, self.table = self.remote.build(hal, b, config, self.shoe_protocol, self.log_sink)
            self.pins = dict([(seat, self.remote.pin(gpio)) for seat, gpio in b.buttons])
            self.trace_pins = []  # the board's output pins are levels on the wire, with no history
            self.settle(sweeps=1)
            return
        self.table = Table(config, registry(), log=self._log, history=self.history)
        self.rt = looplib.build(hal, b, self.table, self.shoe_protocol, log=self._log)
        self.pins = dict([(seat, hal.pin(gpio)) for seat, gpio in b.buttons])
        self.trace_pins = list(b.decoder["address"]) + [b.decoder["enable"]]  # toggled by every SPI transfer
        self.rt.start()
        self.settle(sweeps=1)

    def rewire(self):
        """A power cycle of the board, not of the devices: a new HAL on the same clock with the
        same antenna chips, shoe reader, console and display wired to it. Returns the HAL; the
        caller builds the firmware on it (the button pins follow with pins_of())."""
        hal = SimHAL(clock=self.hal.clock, pin_history=PIN_HISTORY)
        bus = hal.spi(0)
        for loc, line in self.board.antennas:
            bus.attach(("74HC154", line), self.chips[loc])
        hal.uart(0).attach(self.reader)
        self.console = hal.uart(1)
        self.oled = hal.add_display(0, 0x3C)
        self.hal = hal
        return hal

    def pins_of(self, hal):
        return dict([(seat, hal.pin(gpio)) for seat, gpio in self.board.buttons])

    # -- time ----------------------------------------------------------------------------------
    def settle(self, sweeps=1, min_ms=0, until=None):
        """Run the loop on the manual clock until the firmware is idle: at least min_ms went by,
        no card is between shoe and antenna, no byte is waiting, and either `until()` holds (the
        expected antenna change was seen) or, without it, `sweeps` full antenna sweeps passed.
        With `until`, 2 + sweeps sweeps is the most it waits (a dead antenna never reports)."""
        if self._deferred is not None:
            if self._deferred:
                raise SimError("this statement settles more than once: it cannot be stepped")
            self._deferred.append((sweeps, min_ms, until))
            return
        for _step in self._settling(sweeps, min_ms, until):
            pass

    def run_steps(self, text):
        """run(text) as a generator that yields after every main-loop step, for a harness that
        must collect between steps (the WebAssembly port collects only between calls from JS).
        Only for statements whose last act is to settle once (table, seat, hand, draw, act, clear,
        ...); returns run's lines."""
        self._deferred = []
        try:
            out = self.run(text)
            todo = self._deferred
        finally:
            self._deferred = None
        for args in todo:
            yield from self._settling(args[0], args[1], args[2])
        return out

    def _settling(self, sweeps, min_ms, until):
        rt = self.rt
        clock = self.hal.clock
        start = clock.ticks_ms()
        first = rt.poller.sweeps
        for _ in range(MAX_STEPS):
            due = rt.next_due_ms()
            if due > clock.ticks_ms():
                clock.advance_to_ms(due)
            rt.step()
            yield
            if clock.ticks_ms() - start < min_ms or self.table.busy() or self.console.rx or self.reader.any():
                continue
            done = rt.poller.sweeps - first
            if until is None:
                if done >= sweeps:
                    break
            elif done >= sweeps + 2 or until():
                break
        else:
            raise SimError("the firmware did not settle within %d steps" % MAX_STEPS)
        self._trim()

    def _seen(self, loc, uid, present=True):
        hexu = "".join(["%02X" % b for b in uid])
        return lambda: self._on_antenna(loc, hexu) == present

    # -- what the statements ask the board (a remote board answers with small ints) -------------
    def _on_antenna(self, loc, hexu):
        """True when the firmware's antenna poller sees the card `hexu` on `loc`."""
        if self.remote is not None:
            return self.remote.on_antenna(loc, hexu)
        return hexu in self.rt.poller.present(loc)

    def _cards_on(self, loc):
        """How many cards the firmware's poller sees on `loc`."""
        if self.remote is not None:
            return self.remote.cards_on(loc)
        return len(self.rt.poller.present(loc))

    def turn(self):
        """(seat, "call" or "check") of the player to act in a hand being played, else None."""
        if self.remote is not None:
            return self.remote.turn()
        t = self.table
        h = t.hand
        if t.state != "playing" or h.actor is None:
            return None
        return t.setup.seats[h.actor], "call" if h.legal().call else "check"

    def seat_order(self):
        """The hand's seats in dealing order (the hand has started)."""
        if self.remote is not None:
            return self.remote.seat_order()
        return list(self.table.setup.seats)

    def _trim(self):
        # the device models keep traces for tests; a long run must not grow them without bound
        self.oled.commands = []
        self.hal.uart(0).sent = bytearray()
        for n in self.trace_pins:
            self.hal.pin(n).history = []
        if hasattr(self.reader, "commands"):
            self.reader.commands = []
        sent = self.console.sent
        if sent:
            for raw in bytes(sent).split(b"\r\n"):
                if raw:
                    self.replies.append(raw.decode())
            self.console.sent = bytearray()
        if len(self.replies) > 20:
            self.replies = self.replies[-20:]

    # -- statements ----------------------------------------------------------------------------
    def run(self, text):
        """Execute one statement line; returns a list of output lines."""
        self.line_no += 1
        body = text.split("#", 1)[0].strip()
        if not body:
            return []
        w = body.split()
        verb = w[0]
        if verb != "table" and self.table is None:
            raise FormatError("the script must start with a table statement", self.line_no)
        fn = getattr(self, "_s_" + verb, None)
        if fn is None:
            raise FormatError("unknown statement %r" % verb, self.line_no)
        try:
            return fn(w[1:]) or []
        except FormatError as e:
            if e.line is None:  # e.g. a bad card name: name the statement's line
                raise FormatError(e.message, self.line_no)
            raise
        except (ValueError, IndexError, KeyError) as e:
            raise FormatError("bad %s statement: %s" % (verb, e), self.line_no)

    def _s_table(self, args):
        if len(args) < 2 or args[0] not in GAMES or args[1] not in STRUCTURES:
            raise FormatError("table GAME STRUCTURE seats=N ... (games: %s)" % " ".join(GAMES), self.line_no)
        kw = {}
        rules = {}
        seats = None
        mode = "cash"
        for tok in args[2:]:
            k, eq, v = tok.partition("=")
            if not eq:
                raise FormatError("expected NAME=VALUE, got %r" % tok, self.line_no)
            # ASCII digits only (felt.textnum): int() took ' 5', '+5' and Arabic-Indic digits, and
            # str.isdigit() let '\u00b2' through to an int() that then failed
            if k == "seats":
                seats = parse_uint(v, "seats")
            elif k == "mode":
                mode = v
            elif k == "levels":
                kw["levels"] = parse_levels(v)
            elif k in NUMBERS:
                kw[k] = parse_uint(v, k)
            elif k.startswith("hr."):
                rules[k] = int(v) if is_digits(v) else (v == "true" if v in ("true", "false") else v)
            else:
                raise FormatError("unknown table setting %r" % k, self.line_no)
        if seats is None:
            raise FormatError("table needs seats=N", self.line_no)
        try:
            cfg = TableConfig(game=args[0], structure=args[1], seats=seats, mode=mode, rules=rules, **kw)
        except FeltError as e:
            raise FormatError(str(e), self.line_no)
        self.build(cfg)

    def _send(self, verb, args=(), opts=None):
        self.seq = (self.seq + 1) % 65536
        self.console.feed(proto.encode(proto.Message(self.seq, verb, args, opts)))

    def _s_seat(self, args):
        self._send("stack", [int(args[0]), int(args[1])])
        self.settle(sweeps=0)

    def _s_hand(self, args):
        self._send("newhand")
        self.settle(sweeps=1)

    def _card_uid(self, tok):
        if tok.startswith("uid:"):
            h = tok[4:]
            if len(h) not in (8, 14) or len(h) % 2:
                raise ValueError("uid:HEX needs 4 or 7 bytes")
            return bytes([int(h[i:i + 2], 16) for i in range(0, len(h), 2)])
        return card_uid(parse_card(tok))

    def _location(self, tok_list):
        # ["seat", "3"] | ["board"] | ["burn"] | ["muck"] | ["nowhere"] -> (location or None, used)
        if tok_list[0] == "seat":
            s = int(tok_list[1])
            if not 1 <= s <= self.table.config.seats:
                raise ValueError("seat %d is not a seat of this table" % s)
            return "seat%d" % s, 2
        if tok_list[0] in PLACES:
            return tok_list[0], 1
        if tok_list[0] == "nowhere":
            return None, 1
        raise ValueError("unknown place %r" % tok_list[0])

    def _place(self, loc, uid):
        tag = SimTag(uid)
        self.tags[(loc, uid)] = tag
        self.chips[loc].place(tag)

    def _unplace(self, loc, uid):
        tag = self.tags.pop((loc, uid), None)
        if tag is None:
            raise ValueError("%s holds no such card" % loc)
        self.chips[loc].remove(tag)

    def _s_draw(self, args):
        if len(args) < 3 or args[1] != "to":
            raise ValueError("draw CARD to PLACE")
        uid = self._card_uid(args[0])
        loc, _ = self._location(args[2:])
        if not self.reader.silent:  # a dead shoe reader reads nothing
            self.reader.present(uid)
        if loc is not None:
            self._place(loc, uid)
            self.settle(sweeps=1, until=self._seen(loc, uid))
        else:
            self.settle(sweeps=1)

    def _s_move(self, args):
        uid = self._card_uid(args[0])
        if args[1] != "from":
            raise ValueError("move CARD from PLACE to PLACE")
        a, used = self._location(args[2:])
        if args[2 + used] != "to":
            raise ValueError("move CARD from PLACE to PLACE")
        b, _ = self._location(args[3 + used:])
        if a is not None:  # from nowhere: a card off the table put (back) on an antenna
            self._unplace(a, uid)
        if b is not None:
            self._place(b, uid)
        gone = self._seen(a, uid, False) if a is not None else (lambda: True)
        there = self._seen(b, uid) if b is not None else (lambda: True)
        self.settle(sweeps=3, until=lambda: gone() and there())

    def _s_remove(self, args):
        uid = self._card_uid(args[0])
        if args[1] != "from":
            raise ValueError("remove CARD from PLACE")
        a, _ = self._location(args[2:])
        self._unplace(a, uid)
        self.settle(sweeps=3, until=self._seen(a, uid, False))

    def _s_clear(self, args):
        for key in sorted(self.tags):
            self.chips[key[0]].remove(self.tags.pop(key))
        self.settle(sweeps=3, until=self._empty)

    def _empty(self):
        for loc in self.chips:
            if self._cards_on(loc):
                return False
        return True

    def _s_act(self, args):
        seat = int(args[0])
        verb = args[1]
        if verb not in proto.ACTIONS:
            raise ValueError("unknown action %r" % verb)
        a = [seat]
        if len(args) > 2:
            a.append(int(args[2]))
        self._send(verb, a)
        self.settle(sweeps=0)

    def _s_push(self, args):
        # push SEAT CHIPS [declared=raise|allin|call|pot] [said=AMOUNT]: chips as in FELT1, e.g. 100,25x2
        opts = {}
        for tok in args[2:]:
            k, eq, v = tok.partition("=")
            if k not in ("declared", "said") or not eq:
                raise ValueError("push SEAT CHIPS [declared=WORD] [said=AMOUNT]")
            opts[k] = int(v) if k == "said" else v
        chips = []
        for part in args[1].split(","):
            d, x, n = part.partition("x")
            for _ in range(int(n) if x else 1):
                chips.append(int(d))
        self._send("push", [int(args[0]), chips], opts)
        self.settle(sweeps=0)

    def _s_mark(self, args):
        # mark SEAT boxed|exposed [DRAW]: the dealer's console mark (DRAW: shoe draw number, 1-based)
        opts = {"card": int(args[2])} if len(args) > 2 else None
        self._send("mark", [int(args[0]), args[1]], opts)
        self.settle(sweeps=0)

    def _ruling(self, verb, args):
        if args:
            aid = int(args[0])
        else:
            pend = self.table.pending()
            if not pend:
                self._send(verb, [0])  # the table refuses it (no proposal) and says so
                self.settle(sweeps=0)
                return
            aid = pend[-1].id
        self._send(verb, [aid])
        self.settle(sweeps=0)

    def _s_confirm(self, args):
        self._ruling("confirm", args)

    def _s_reject(self, args):
        self._ruling("reject", args)

    def _s_press(self, args):
        seat = int(args[0])
        pin = self.pins[seat]
        hold = 1700 if len(args) > 1 and args[1] == "long" else 120
        pin.set(0)  # active low
        self.settle(sweeps=0, min_ms=hold)
        pin.set(1)
        self.settle(sweeps=0, min_ms=100)

    def _s_wait(self, args):
        # a long wait (a level clock's 20 minutes) in slices, each settled on its own: MAX_STEPS
        # bounds one slice (the loop steps every POLL_MS at most; 20000 steps were ~60 s of table
        # time, so `wait 600000` failed as a firmware that never settles) and the device traces are
        # trimmed after each (issue 18 item 8)
        left = parse_uint(args[0], "wait MS")
        while True:
            ms = left if left < WAIT_SLICE_MS else WAIT_SLICE_MS
            self.settle(sweeps=0, min_ms=ms)
            left -= ms
            if left <= 0:
                break

    def _s_set(self, args):
        # a console `set KEY VALUE` (FELT1): a house rule, blinds between hands, `level_clock start`
        if len(args) != 2:
            raise ValueError("set KEY VALUE")
        self._send("set", [args[0], int(args[1]) if is_digits(args[1]) else args[1]])
        self.settle(sweeps=0)

    def _s_fault(self, args):
        kind = args[0]
        rest = args[1:]
        if kind == "corrupt-frame":
            if self.shoe_protocol == "pn532":
                self.reader.corrupt_next_response("DCS")
            else:
                self.reader.corrupt_next_line()
        elif kind == "drop-byte":
            # A byte of the reader's next answer is lost on the wire (UART overrun, noise).
            if self.shoe_protocol != "pn532":
                raise ValueError("fault drop-byte needs the PN532 shoe (shoe=pn532)")
            self.reader.drop_byte_in_next_response()
        elif kind == "double-read":
            self.reader.present(self._card_uid(rest[0]), times=2)
            loc, _ = self._location(rest[2:]) if len(rest) > 2 else (None, 0)
            if loc is not None:
                self._place(loc, self._card_uid(rest[0]))
            self.settle(sweeps=1)
        elif kind == "silent":
            if rest[0] == "shoe":
                self.reader.stop_answering()
                self.settle(sweeps=1, min_ms=2500)
            else:
                loc, _ = self._location(rest)
                self.chips[loc].silent = True
                self.settle(sweeps=4)
        elif kind == "resume":
            if rest[0] == "shoe":
                self.reader.resume()
                self.settle(sweeps=1, min_ms=500)
            else:
                loc, _ = self._location(rest)
                self.chips[loc].silent = False
                self.settle(sweeps=4)
        elif kind == "console-garbage":
            self.console.feed(b"FELT1 7 fold 3 *0000\r\n")  # a line with a wrong checksum
            self.settle(sweeps=0)
        elif kind == "noisy":
            loc, _ = self._location(rest)
            self.chips[loc].frame_error_next = 6  # the next answers arrive with protocol errors
            self.settle(sweeps=6)
        elif kind == "collision":
            loc, _ = self._location(rest)
            for i in (1, 2):
                self._place(loc, bytes((0x04, 0xEE, 0x00, 0x00, 0x00, 0x00, i)))
            self.settle(sweeps=3)
        elif kind == "two-antennas":
            uid = self._card_uid(rest[0])
            loc, _ = self._location(rest[1:])
            self.tags[(loc, uid)] = self.chips[loc].place(SimTag(uid))
            self.settle(sweeps=4)  # the loop asks the old antenna again after miss_limit + 1 sweeps
        elif kind == "bounce":
            pin = self.pins[int(rest[0])]
            for _ in range(12):
                pin.set(0)
                self.settle(sweeps=0, min_ms=6)
                pin.set(1)
                self.settle(sweeps=0, min_ms=6)
            self.settle(sweeps=0, min_ms=50)
        elif kind == "stuck":
            pin = self.pins[int(rest[0])]
            pin.set(0)
            self.settle(sweeps=0, min_ms=100)  # debounced: the press is seen
            self.hal.clock.advance_ms(31000)  # a switch held half a minute: one jump of the clock
            self.settle(sweeps=0, min_ms=50)
        elif kind == "release":
            self.pins[int(rest[0])].set(1)
            self.settle(sweeps=0, min_ms=100)
        else:
            raise ValueError("unknown fault %r" % kind)

    def _s_state(self, args):
        return [json.dumps(self.snapshot())]

    def snapshot(self):
        snap = view.snapshot(self.table) if self.remote is None else self.remote.snapshot()
        snap["oled"] = self.oled.text_lines()
        snap["now_ms"] = self.hal.clock.ticks_ms()
        return snap


def run_lines(lines, out, shoe="pn532", log=None, history=None):
    """Execute statements from an iterable of lines; out(text) receives every output line.
    A bad statement prints `error LINE: message` and stops (a malformed script is never a pass)."""
    sim = Sim(shoe=shoe, log=log, history=history)
    for line in lines:
        try:
            for o in sim.run(line):
                out(o)
        except FormatError as e:
            out(json.dumps({"error": e.message, "line": e.line if e.line is not None else sim.line_no}))
            return 1
    return 0

