# A blackjack table on the simulated board (sim layer; issue 17 item 5): the assembled firmware --
# felt.runtime.app.run with table.json "game": "blackjack", its real drivers -- on the sim HAL, its
# device models (app.bare_sim: PN532 shoe, MFRC522 antennas, seat-button pins, the FELT1 console
# UART, the NeoPixel chain, the SSD1306) driven from the outside by bench statements, and read back
# from those devices (display cells, LEDs, console replies). `feltctl bench` runs blackjack scripts
# through it (host_tools/feltctl/table_sim/driver.py --blackjack; hardware/bench-scripts.md).
# Board map as felt.runtime.blackjack: seat antenna N is box N, the board antenna the dealer's spot.
import json
import os

from felt.engine.cards import parse_card
from felt.errors import FormatError
from felt.hal.sim.hal import SimHAL
from felt.hal.sim.mfrc522 import SimTag
from felt.proto import console as proto
from felt.sim.board_map import card_uid, sim_board

BOXES = 7
CUT_UID = bytes([0x04, 0xFE, 0x17, 0x43, 0x55, 0x54, 0x01])  # the cut card's tag (bj.cut_card=tag)
DECK_IDS = "ABCDEFGH"
WORDS = ("newshoe", "close", "hit", "stand", "double", "split", "surrender", "redouble", "insure", "even",
         "noinsure", "closeinsurance")
_PRESS_MS = 120
_LONG_MS = 1700


def settle(rt, clock, console, sweeps=2, min_ms=0):
    """Run the blackjack runtime `rt` on the sim HAL's manual clock until its antennas have swept
    `sweeps` times, `min_ms` have passed and the console has nothing left to read."""
    p = rt.d.poller
    first = p.sweeps
    start = clock.ticks_ms()
    for _ in range(20000):
        due = rt.next_due_ms()
        if due > clock.ticks_ms():
            clock.advance_to_ms(due)
        rt.step()
        if p.sweeps - first >= sweeps and clock.ticks_ms() - start >= min_ms and not console.rx:
            return
    raise FormatError("the firmware did not settle", None)


def _hexu(u):
    return "".join(["%02X" % b for b in u])


def _value(text):
    if text.isdigit():
        return int(text)
    return {"true": True, "false": False}.get(text, text)


class BlackjackBoard:
    """One simulated blackjack board with its data under `root` (an absolute folder, created).
    run(line) plays one statement; state() is the snapshot the bench checks."""

    def __init__(self, root):
        self.root = root
        self.app = self.hal = None
        self.seq = 0
        self.used = {}  # card -> how many of it went out (the next comes from the next deck)
        self.alerts = []  # every table alert (level, rule, text), in order
        self.replies = []  # (verb, text) of the console's answers to the last entry
        self.log = []  # the newest log lines (a board's log goes out on the console, not into RAM)

    # ---- the table statement ----------------------------------------------------------------------
    def table(self, words):
        decks = 6
        rules = {}
        for w in words:
            k, _eq, v = w.partition("=")
            if k == "decks":
                decks = int(v)
            elif k.startswith("bj."):
                rules[k[3:]] = _value(v)
            else:
                raise FormatError("unknown blackjack table setting %r" % w, None)
        rules["decks"] = decks
        ids = DECK_IDS[:decks]
        try:
            os.mkdir(self.root)
        except OSError:
            pass
        reg = {}
        for d in ids:
            reg[d] = dict([(_hexu(card_uid(c, d)), c) for c in range(52)])
        with open(self.root + "/decks.json", "w") as f:
            json.dump(reg, f)
        with open(self.root + "/table.json", "w") as f:
            json.dump({"game": "blackjack", "name": "BJ1", "decks": list(ids), "cut_uid": _hexu(CUT_UID),
                       "bj": rules}, f)
        from felt.runtime import app as applib

        self.board = sim_board(BOXES)
        self.hal = SimHAL()
        self.app = applib.run(self.hal, self.board, self.root, log=self._log, steps=3)
        if self.app.halted is not None:
            raise FormatError("the table did not start: %s" % self.app.halted, None)
        self.rt = self.app.runtime
        self.rt.alert_sinks.append(self.alerts.append)  # every alert, not only the display's newest
        self.reader = self.hal.uart_port(self.board.uarts["shoe"]["port"]).model
        self.console = self.hal.uart_port(self.board.uarts["console"]["port"])
        bus = self.hal.spi_bus(self.board.spi["bus"])
        self.chips = dict([(loc, bus.models[("74HC154", line)]) for loc, line in self.board.antennas])
        self.pins = dict(self.board.buttons)
        self.settle(sweeps=4)

    def _log(self, line):
        self.log.append(line)
        if len(self.log) > 20:
            self.log.pop(0)

    # ---- time and devices --------------------------------------------------------------------------
    def settle(self, sweeps=2, min_ms=0):
        settle(self.rt, self.hal.clock, self.console, sweeps, min_ms)

    def send(self, verb, args):
        self.seq += 1
        self.console.sent = bytearray()
        self.console.feed(proto.encode(proto.Message(self.seq, verb, args)))
        self.settle(sweeps=0, min_ms=20)
        got = [proto.decode_line(raw, proto.TABLE) for raw in bytes(self.console.sent).split(b"\r\n") if raw]
        self.replies = [(m.verb, m.text) for m in got if m.opts.get("re") == self.seq]

    def spot(self, words):
        if words == ["dealer"]:
            return "board"
        if len(words) == 2 and words[0] == "box" and words[1].isdigit() and 1 <= int(words[1]) <= BOXES:
            return "seat" + words[1]
        raise FormatError("a spot is `box N` (1..%d) or `dealer`, got %r" % (BOXES, " ".join(words)), None)

    def draw(self, text, loc):
        c = parse_card(text)
        n = self.used.get(c, 0)
        if n >= len(DECK_IDS):
            raise FormatError("no more %s in the decks" % text, None)
        self.used[c] = n + 1
        u = card_uid(c, DECK_IDS[n])
        self.reader.present(u)
        self.chips[loc].place(SimTag(u))
        self.settle()

    def press(self, box, long):
        pin = self.hal.pin(self.pins[box])
        pin.set(0)  # active low
        self.settle(sweeps=0, min_ms=_LONG_MS if long else _PRESS_MS)
        pin.set(1)
        self.settle(sweeps=0, min_ms=100)

    # ---- statements ----------------------------------------------------------------------------------
    def run(self, line):
        w = line.split("#", 1)[0].split()
        if not w:
            return
        verb, a = w[0], w[1:]
        if verb == "table":
            return self.table(a[1:])
        if self.app is None:
            raise FormatError("the script must start with a table statement", None)
        if verb == "shoe":
            self.send("bj", ["newshoe"])
            if self.replies and self.replies[0][0] == "ok":
                self.used = {}  # a fresh shoe: every card of its decks may come out again
        elif verb == "round":
            self.send("newhand", [])
        elif verb == "bet":
            self.send("bet", [int(a[0]), int(a[1])])
        elif verb == "close":
            self.send("bj", ["close"])
        elif verb == "bj":
            self.send("bj", [a[0]] + [int(x) for x in a[1:]])
        elif verb == "draw":
            self.draw(a[0], self.spot(a[2:]))
        elif verb == "clear":  # the dealer gathers every card off the boxes and the dealer's spot
            for loc in self.chips:
                chip = self.chips[loc]
                for tag in list(chip.tags):
                    chip.remove(tag)
            self.settle(sweeps=4)
        elif verb == "cut":
            self.reader.present(CUT_UID)
            self.settle()
        elif verb == "press":
            self.press(int(a[0]), len(a) > 1)
        elif verb == "wait":
            self.settle(sweeps=0, min_ms=int(a[0]))
        else:
            raise FormatError("unknown blackjack statement %r" % verb, None)

    def state(self):
        """What the devices show and the table holds: display cells, action / insure LEDs, every
        alert so far, the console's replies to the last entry, round, house, last result, hands."""
        t = self.app.table
        chain = self.hal.chain(self.board.neopixel["pin"])
        action = None
        insure = []
        for box in range(1, BOXES + 1):
            if chain.pixel((box - 1) * 5 + 3) != (0, 0, 0):
                action = box
            if chain.pixel((box - 1) * 5 + 4) != (0, 0, 0):
                insure.append(box)
        r = t.round
        hands = []
        if r is not None:
            for h in r.hands:
                hands.append([h.box, len(h.cards), h.outcome])
        alerts = []
        for i in range(len(self.alerts)):
            a = self.alerts[i]
            alerts.append({"id": i + 1, "rules": [a[1]] if a[1] else [], "device": None, "level": a[0],
                           "status": "note", "text": a[2]})
        result = {}
        for b in t.last_result or {}:
            result[str(b)] = t.last_result[b]
        return {"game": "blackjack", "display": list(self.rt.display.lines), "oled": self.hal_lines(),
                "lights": {"action": action, "insure": insure}, "alerts": alerts,
                "replies": [list(x) for x in self.replies], "round": t.round_no, "house": t.house,
                "result": result, "hands": hands, "phase": r.phase if r is not None else "idle",
                "left": t.shoe.left() if t.shoe is not None else None}

    def hal_lines(self):
        # the SSD1306 model's cells, read back with the driver's glyphs (what a person would read)
        i2c = self.board.i2c
        return self.hal.i2c_bus(i2c["bus"]).models[i2c.get("display", 0x3C)].text_lines()
