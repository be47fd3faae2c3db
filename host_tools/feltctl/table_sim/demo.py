# `feltctl sim --demo` (host tools): a simulated table plays a seeded series of hands of several
# games on the REAL firmware (MicroPython by default), shown live in the terminal -- seat lights,
# display lines, actions, alerts, results -- and the firmware's own hand histories are written to a
# folder. The players' decisions come from seeded bots (felt.history.selfplay on the host); every card and
# every action reaches the firmware as a physical event (phh2events) and every figure shown is read
# back from the firmware's state. Ends with a summary: hands, chips conserved, alerts.
import argparse
import os
import sys
import tempfile
import time

from feltctl.table_sim import phh2events
from feltctl.table_sim.process import SimProcess, SimProcessError

SEATS = 6
BUY_IN = 10000
# (PHH variant, table game words, selfplay structure); hands of one game share a table, so the
# button and blinds move between them (BLIND-3)
SERIES = (
    ("NT", "holdem no_limit sb=50 bb=100", {"blinds": (50, 100), "min_bet": 100}),
    ("PO", "omaha pot_limit sb=50 bb=100", {"blinds": (50, 100), "min_bet": 100}),
    ("FT", "holdem limit sb=50 bb=100 small_bet=100 big_bet=200", {"blinds": (50, 100), "small_bet": 100,
                                                                    "big_bet": 200}),
    ("FO/8", "omaha8 limit sb=50 bb=100 small_bet=100 big_bet=200", {"blinds": (50, 100), "small_bet": 100,
                                                                      "big_bet": 200}),
    ("F7S", "stud7 limit ante=10 bring_in=25 small_bet=100 big_bet=200", {"ante": 10, "bring_in": 25,
                                                                          "small_bet": 100, "big_bet": 200}),
    ("F7S/8", "stud7_8 limit ante=10 bring_in=25 small_bet=100 big_bet=200", {"ante": 10, "bring_in": 25,
                                                                              "small_bet": 100, "big_bet": 200}),
    ("F5D", "draw5 limit sb=50 bb=100 small_bet=100 big_bet=200", {"blinds": (50, 100), "small_bet": 100,
                                                                    "big_bet": 200}),
    ("F5S", "stud5 limit ante=10 bring_in=25 small_bet=100 big_bet=200", {"ante": 10, "bring_in": 25,
                                                                          "small_bet": 100, "big_bet": 200}),
)
HANDS_PER_TABLE = 3


def lights_text(snap):
    """' 1 .  2 D  3 sb  4 BB>  5 .  6 A' -- per seat: D dealer button, sb/BB blinds, > action, A all in."""
    lt = snap["lights"]
    out = []
    for i in range(len(snap["stacks"])):
        s = i + 1
        if snap["stacks"][i] is None:
            out.append("%d -" % s)
            continue
        mark = ""
        if lt["button"] == s:
            mark += "D"
        if lt["sb"] == s:
            mark += "sb"
        if lt["bb"] == s:
            mark += "BB"
        if lt["action"] == s:
            mark += ">"
        if s in lt["allin"]:
            mark += "A"
        out.append("%d %s" % (s, mark or "."))
    return "  ".join(out)


def act_words(ev, legal):
    """'seat 4 raises to 600' from the console statement and the legal record shown before it."""
    w = ev.text.split()
    seat, verb = w[1], w[2]
    call = legal["call"] if legal and str(legal["seat"]) == seat else None
    if verb == "call":
        return "seat %s %s" % (seat, "checks" if call == 0 else "calls %s" % call if call else "calls")
    if verb == "raise":
        return "seat %s %s %s" % (seat, "bets" if call == 0 else "raises to", w[3])
    if verb == "check":
        return "seat %s stands pat" % seat
    return "seat %s %s" % (seat, {"fold": "folds", "bringin": "brings in"}.get(verb, verb))


def display_text(snap):
    return " | ".join(snap["display"][1:])


class Demo:
    def __init__(self, proc, write, out_dir):
        self.proc = proc
        self.write = write
        self.out_dir = out_dir
        self.hands = 0
        self.alerts = []
        self.mismatches = []
        self.files = []
        self.replayed = 0
        self.tables = []  # (game, chips at start, chips at end)
        self.histories = []  # PHH texts the firmware wrote, not yet saved
        self.last = None  # the newest snapshot

    def say(self, line):
        self.write(line + "\n")

    def send(self, text):
        self.proc.send(text)

    def snap(self):
        snap = self.proc.state()
        self.histories.extend(snap.get("phh", []))
        self.last = snap
        return snap

    def table(self, code, words, structure, rng, hands):
        from felt.history.selfplay import play_hand

        self.send("table %s seats=%d button=1" % (words, SEATS))
        for s in range(1, SEATS + 1):
            self.send("seat %d %d" % (s, BUY_IN))
        stacks = dict((s, BUY_IN) for s in range(1, SEATS + 1))
        self.say("")
        self.say("=== new table: %s, %d seats, %d chips each ===" % (phh2events.VARIANTS[code][0], SEATS, BUY_IN))
        for _ in range(hands):
            self.send("hand")
            snap = self.snap()
            seats = snap["seats_in"]
            if len(seats) < 3:
                self.say("   (fewer than three players left: the table closes)")
                break
            self.hands += 1
            self.say("-- hand %d (%s hand %d)  %s" % (self.hands, code, snap["hand"], snap["display"][0]))
            self.say("   lights  %s   | %s" % (lights_text(snap), display_text(snap)))
            hand, actions = play_hand(code, structure, [stacks[s] for s in seats], seats, rng)
            from felt.history import phh
            from felt.history.selfplay import history_of

            text = phh.write(history_of(code, structure, hand, actions, seats, self.hands))
            events = phh2events.hand_events(phh.read(text), seats)
            snap = self.play(events)
            self.finish(code, hand, seats, snap, stacks)
            self.send("clear")
        total = sum(stacks.values())
        self.tables.append((code, SEATS * BUY_IN, total))

    def play(self, events):
        dealt = 0
        snap = None
        for k, ev in enumerate(events):
            self.send(ev.text)
            nxt = events[k + 1] if k + 1 < len(events) else None
            if ev.kind == "deal":
                dealt += 1
                if nxt is not None and nxt.kind == "deal":
                    continue
                snap = self.snap()
                self.say("   shoe -> %d cards to the seats   lights %s | %s" % (dealt, lights_text(snap),
                                                                                 display_text(snap)))
                dealt = 0
            elif ev.kind == "board":
                if nxt is not None and nxt.kind == "board":
                    continue
                snap = self.snap()
                self.say("   board %-12s lights %s | %s" % (snap.get("board", ""), lights_text(snap),
                                                              display_text(snap)))
            elif ev.kind == "act":
                before = self.last.get("legal") if self.last else None
                snap = self.snap()
                self.say("   %-22s lights %s | %s" % (act_words(ev, before), lights_text(snap), display_text(snap)))
            elif ev.kind == "draw" and ev.note:
                self.say("   %s" % ev.note)
        return self.snap()

    def finish(self, code, hand, seats, snap, stacks):
        for a in snap["alerts"]:
            self.alerts.append(a)
            self.say("   ALERT %s: %s" % ("/".join(a["rules"]) or a.get("device"), a["text"]))
        if snap["street"] != "over":
            self.mismatches.append(self.hands)
            self.say("   the hand did not finish on the table (street %s)" % snap["street"])
            return
        for line in snap.get("result", []):
            self.say("   result: %s" % line)
        want = hand.finishing_stacks()
        got = [snap["stacks"][s - 1] for s in seats]
        for i in range(len(seats)):
            stacks[seats[i]] = got[i]
        if got != want:
            self.mismatches.append(self.hands)
            self.say("   FIRMWARE %s != ENGINE %s" % (got, want))
        self.say("   stacks  %s" % "  ".join("%d:%d" % (s, stacks[s]) for s in sorted(stacks)))
        for text in self.histories:
            self.save(code, text, want)
        self.histories = []

    def save(self, code, text, want):
        from felt.history import replay

        name = "%03d-%s.phh" % (self.hands, code.replace("/", ""))
        with open(os.path.join(self.out_dir, name), "w") as f:
            f.write(text)
        self.files.append(name)
        again = replay.replay_text(text)[0]
        if again.get("finishing_stacks") == want:
            self.replayed += 1


def is_demo_file(name):
    """A name the demos write (`feltctl demo`, `feltctl sim --demo`): NNN-CODE.phh, e.g.
    004-FO8.phh or 1000-NT.phh. Other hand histories in the folder are the user's: never removed."""
    head, dash, rest = name.partition("-")
    code = rest[:-4] if rest.endswith(".phh") else ""
    return (dash == "-" and len(head) >= 3 and head.isdigit() and head.isascii() and code != ""
            and code.isalnum() and code.isascii() and code.upper() == code)


def hand_count(text):
    """argparse type of the demos' --hands: a whole number above 0."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError("%r: a whole number of hands above 0" % text)
    return n


BLACKJACK_ROUNDS = 4  # rounds of blackjack after the poker tables


def prepare_out(out_dir):
    """Make the demos' --out folder and remove the series a previous run left in it (only that).
    OSError (a file in the way, no permission) goes to the caller, before anything is played."""
    os.makedirs(out_dir, exist_ok=True)
    # a folder that exists but takes no file (read-only, a read-only file system): found now, not
    # by the first history written, deep in a run (and inside MicroPython: a traceback)
    fd, probe = tempfile.mkstemp(prefix=".felt-probe-", dir=out_dir)
    os.close(fd)
    os.remove(probe)
    for name in os.listdir(out_dir):  # a re-run replaces the previous series -- and only that
        if is_demo_file(name):
            os.remove(os.path.join(out_dir, name))


def _where(path):
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def run(args):
    from felt.history.selfplay import Rng

    out_dir = args.out
    try:
        prepare_out(out_dir)
    except OSError as e:
        sys.stderr.write("feltctl sim: error: --out %s: %s\n" % (out_dir, e.strerror or e))
        return 1
    write = sys.stdout.write
    start = time.time()
    rng = Rng(args.seed)
    write("Felt demo: the real firmware (%s) on a simulated table -- PN532 shoe, MFRC522 antennas, seat\n"
          "buttons, FELT1 console, NeoPixel lights, SSD1306 display. %d hands, seed %d.\n" % (
              args.runtime, args.hands, args.seed))
    write("lights: D dealer button, sb/BB blinds, > action on, A all in; after '|': the table's display\n")
    try:
        with SimProcess(args.runtime, shoe="ascii" if args.ascii else "pn532") as proc:
            demo = Demo(proc, lambda s: (write(s), sys.stdout.flush()), out_dir)
            k = 0
            while demo.hands < args.hands:
                code, words, structure = SERIES[k % len(SERIES)]
                demo.table(code, words, structure, rng, min(HANDS_PER_TABLE, args.hands - demo.hands))
                k += 1
    except SimProcessError as e:
        write("the simulated table failed: %s\n" % e.message)
        return 2
    conserved = all(t[1] == t[2] for t in demo.tables)
    write("\n=== summary ===\n")
    write("hands: %d on %d tables (%s)\n" % (demo.hands, len(demo.tables), ", ".join(t[0] for t in demo.tables)))
    write("chips: %s\n" % "; ".join("%s %d -> %d" % t for t in demo.tables))
    write("chips conserved: %s\n" % ("yes" if conserved else "NO"))
    write("firmware stacks equal the players' engine: %d of %d hands\n" % (demo.hands - len(demo.mismatches),
                                                                            demo.hands))
    write("alerts: %d\n" % len(demo.alerts))
    write("hand histories: %d written by the firmware to %s (%d replay to the same stacks)\n" % (
        len(demo.files), _where(out_dir), demo.replayed))
    write("time: %.1f s\n" % (time.time() - start))
    ok = conserved and not demo.mismatches and not demo.alerts and demo.replayed == demo.hands
    # then a few rounds of blackjack, the second game family (issue 17), on its own simulated table
    from feltctl.commands import sim as simcmd

    write("\n=== blackjack: %d rounds on a 6-deck shoe (box lights and dealer display after each deal) ===\n" % BLACKJACK_ROUNDS)
    sys.stdout.flush()
    args.out = os.path.join(os.path.dirname(os.path.abspath(out_dir)), "blackjack", "rounds.bjh")
    bj = simcmd.blackjack(args, rounds=BLACKJACK_ROUNDS)
    args.out = out_dir
    return 0 if ok and bj == 0 else 1
