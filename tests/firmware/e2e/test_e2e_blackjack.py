# End to end (issue 17 item 3): the assembled firmware (felt.runtime.app.run on the sim HAL, its
# board models from app.bare_sim) with table.json "game": "blackjack" plays a round through the
# devices -- tags read by the PN532 shoe, landing on the MFRC522 antennas of box 1, box 2 (seat
# antennas) and the dealer's spot (board antenna), seat buttons for hit and stand, FELT1 console
# entries for bets, split and double -- with lights and display computed from the table; a power
# cycle (app.run again on the same data) rebuilds it from the journal.
import json
import os

from check import eq
import kit

from felt.hal.sim.hal import SimHAL
from felt.hal.sim.mfrc522 import SimTag
from felt.engine.cards import parse_card
from felt.proto import console as proto
from felt.runtime import app as applib
from felt.sim.runner import card_uid, sim_board

DECK_IDS = "ABCDEF"  # six decks (bj.decks 6, BJ-22)
CUT = bytes([0x04, 0xFE, 0x17, 0x5A, 0x00, 0x00, 0x01])


def hexu(u):
    return "".join(["%02X" % b for b in u])


def write_config(root):
    os.mkdir(root)
    decks = {}
    for d in DECK_IDS:
        decks[d] = dict([(hexu(card_uid(c, d)), c) for c in range(52)])
    with open(root + "/decks.json", "w") as f:
        json.dump(decks, f)
    with open(root + "/table.json", "w") as f:
        json.dump({"game": "blackjack", "name": "BJ1", "decks": list(DECK_IDS), "cut_uid": hexu(CUT),
                   "bj": {"surrender": "late"}}, f)


class Board:
    """The devices app.bare_sim attached to the sim HAL, driven from the outside."""

    def __init__(self, hal, board, app):
        self.hal = hal
        self.app = app
        self.rt = app.runtime
        self.reader = hal.uart_port(board.uarts["shoe"]["port"]).model
        self.console = hal.uart_port(board.uarts["console"]["port"])
        bus = hal.spi_bus(board.spi["bus"])
        self.chips = dict([(loc, bus.models[("74HC154", line)]) for loc, line in board.antennas])
        self.pins = dict(board.buttons)
        self.seq = 0
        self.used = {}

    def settle(self, sweeps=2, min_ms=0):
        clock = self.hal.clock
        p = self.rt.d.poller
        first = p.sweeps
        start = clock.ticks_ms()
        for _ in range(20000):
            due = self.rt.next_due_ms()
            if due > clock.ticks_ms():
                clock.advance_to_ms(due)
            self.rt.step()
            if p.sweeps - first >= sweeps and clock.ticks_ms() - start >= min_ms and not self.console.rx:
                return
        raise AssertionError("the firmware did not settle")

    def send(self, verb, *args):
        self.seq += 1
        self.console.sent = bytearray()
        self.console.feed(proto.encode(proto.Message(self.seq, verb, list(args))))
        self.settle(sweeps=0, min_ms=20)
        replies = [proto.decode_line(raw, proto.TABLE) for raw in bytes(self.console.sent).split(b"\r\n") if raw]
        return [(m.verb, m.text) for m in replies if m.opts.get("re") == self.seq]

    def deal(self, text, loc):
        c = parse_card(text)
        n = self.used.get(c, 0)
        self.used[c] = n + 1
        u = card_uid(c, DECK_IDS[n])
        self.reader.present(u)
        self.chips[loc].place(SimTag(u))
        self.settle()

    def press(self, seat, long=False):
        pin = self.hal.pin(self.pins[seat])
        pin.set(0)  # active low
        self.settle(sweeps=0, min_ms=1700 if long else 120)
        pin.set(1)
        self.settle(sweeps=0, min_ms=100)

    def action_led(self, seat):
        # the ACTION role's LED of a seat (neopixel_lights default layout: 5 LEDs a seat, action 4th)
        return self.hal.chain(22).pixel((seat - 1) * 5 + 3) != (0, 0, 0)


def test_BJ_4_blackjack_round_on_the_assembled_firmware_and_after_a_power_cycle():
    root = kit.tmp_root("bj_e2e")
    write_config(root)
    board = sim_board(7)  # seat antennas 1..7 are boxes 1..7, the board antenna is the dealer's spot
    log = []
    hal = SimHAL()
    app = applib.run(hal, board, root, log=log.append, steps=3)
    b = Board(hal, board, app)
    t = app.table
    eq(type(t).__name__, "BlackjackTable")
    b.settle()
    ok = [("ok", None)]
    eq(b.send("bj", "newshoe"), ok)
    eq(b.send("newhand"), ok)
    eq(b.send("bet", 1, 10), ok)
    eq(b.send("bet", 2, 20), ok)
    eq(b.send("bj", "close"), ok)
    for text, loc in (("Th", "seat1"), ("8c", "seat2"), ("6d", "board"), ("6h", "seat1"), ("8d", "seat2"),
                      ("Ts", "board")):
        b.deal(text, loc)
    eq(b.rt.display.lines[1], "D 6d ??")  # the hole card stays hidden (BJ-4)
    eq((b.action_led(1), b.action_led(2)), (True, False))  # box 1 decides (16)
    b.press(1)  # short: hit (BJ-7)
    b.deal("4c", "seat1")  # 20
    b.press(1, long=True)  # long: stand
    eq((b.action_led(1), b.action_led(2)), (False, True))
    eq(b.send("bj", "split", 2), ok)  # BJ-11
    eq(b.send("bj", "hit", 7)[0][0], "error")  # not box 7's turn: a named refusal on the console
    b.deal("3c", "seat2")  # 8 3 = 11
    eq(b.send("bj", "double", 2), ok)  # BJ-8, BJ-9
    b.deal("9s", "seat2")  # 20, doubled
    b.deal("Kc", "seat2")  # second hand 8 K = 18
    b.press(2, long=True)
    b.deal("2h", "board")  # dealer 6 T 2 = 18 stands (BJ-18)
    eq(t.last_result, {1: 10, 2: 40})  # 20 beats 18; doubled 20 wins 2 x 20; 18 pushes
    eq(t.house, -50)
    with open(root + "/hands/rounds.bjh") as f:
        rounds = f.read().strip().split("\n")
    eq(len(rounds), 2)  # the header and the round
    eq(rounds[1].split(" | net ")[1], "1:+10 2:+40")
    # a power cycle: the table comes back from the journal, the shoe keeps its accounting
    left = t.shoe.left()
    hal2 = SimHAL(clock=hal.clock)
    app2 = applib.run(hal2, board, root, log=log.append, steps=3)
    eq((app2.table.round_no, app2.table.house, app2.table.shoe.left()), (1, -50, left))
    b2 = Board(hal2, board, app2)
    eq(b2.send("newhand"), [("ok", None)])
    eq(b2.send("bet", 8, 10)[0][0], "error")  # box 8 is no box (BJ-3)
    kit.rm_tree(root)


def test_blackjack_table_is_refused_on_a_provisioned_board_and_without_decks():
    # the blackjack runtime does not run the signed boot check yet: a board with a key file must
    # not run it unsigned; a table.json naming no decks is a named ConfigError (BJ-22)
    from felt.errors import ConfigError

    root = kit.tmp_root("bj_e2e_keys")
    write_config(root)
    with open(root + "/felt.keys", "w") as f:
        f.write("{}")
    board = sim_board(7)
    for fix in ("keys", "decks"):
        try:
            applib.run(SimHAL(), board, root, log=lambda line: None, steps=1)
        except ConfigError as e:
            assert ("provisioned" if fix == "keys" else "no decks") in str(e), e
        else:
            raise AssertionError("a blackjack table ran (%s)" % fix)
        if fix == "keys":
            os.remove(root + "/felt.keys")
            with open(root + "/table.json", "w") as f:
                json.dump({"game": "blackjack"}, f)
    kit.rm_tree(root)
