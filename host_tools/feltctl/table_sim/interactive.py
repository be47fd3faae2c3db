# `feltctl sim` without arguments (host tools): a line-based terminal UI on the simulated table.
# A person types bench statements (hardware/bench-scripts.md) -- deal from the shoe, move cards
# between antennas, press seat buttons, enter console actions, inject faults, `expect ...` checks --
# each is checked, forwarded to the firmware's sim runner, and the lights, the display, the cards on
# each antenna, the stacks, a finished hand's result in words and any new alert are shown after every
# step.
import json
import sys

from feltctl.bench_scripts import script as bench
from feltctl.table_sim.demo import lights_text
from feltctl.table_sim.process import SimProcess, SimProcessError

DEFAULT_TABLE = ("table holdem no_limit seats=6 sb=50 bb=100 button=1",
                 "seat 1 1000", "seat 2 1000", "seat 3 1000", "seat 4 1000", "seat 5 1000", "seat 6 1000")
HELP = """statements (one a line; see hardware/bench-scripts.md):
  table GAME STRUCTURE seats=N [sb= bb= ante= small_bet= big_bet= bring_in= button= mode= levels= hr.NAME=]
  seat SEAT STACK | hand | clear | draw CARD to PLACE | move CARD from PLACE to PLACE
  remove CARD from PLACE | act SEAT fold|check|call|bet N|raise N|allin|bringin | press SEAT [long]
  confirm | reject | fault KIND ... | wait MS | set KEY VALUE | expect ...
  PLACE: seat N | board | burn | muck | nowhere
other: help | state (the raw JSON snapshot) | alerts (every alert of this hand) | quit"""


RANKS = "23456789TJQKA"


def _card_key(name):
    # high cards first ("AhQh"); a raw tag ("uid:...") after the cards
    return (-RANKS.index(name[0]), name) if len(name) == 2 and name[0] in RANKS else (1, name)


def antennas_text(snap):
    """'seat 2 AhQh  seat 3 KdKc  board 7h8h9c  burn 3c' -- the cards each antenna sees now (seats
    first, in seat order, then board, burn, muck); '' when no antenna sees a card."""
    ant = snap.get("antennas") or {}

    def order(loc):
        return (0, int(loc[4:])) if loc.startswith("seat") else (1, ("board", "burn", "muck").index(loc)
                                                                  if loc in ("board", "burn", "muck") else 9, loc)
    out = []
    for loc in sorted(ant, key=order):
        names = sorted(ant[loc], key=_card_key)
        out.append("%s %s" % (loc.replace("seat", "seat "),
                              "".join(names) if all(len(n) == 2 for n in names) else " ".join(names)))
    return "  ".join(out)


def result_lines(snap):
    """The finished hand in words: who won which pot with what, and how many chips (POT-19: the
    losing hands still on their antennas are killed before the push)."""
    out = []
    awards = snap.get("awards") or []
    by_reason = [a for a in awards if a.get("reason")]
    if by_reason:
        for a in by_reason:
            out.append("%s (%d chips)" % (a["reason"], a["amount"]))
    else:
        out.extend(snap.get("result") or [])
    kill = snap.get("kill_first") or []
    if kill:
        out.append("kill the losing hand%s of seat %s before the chips are pushed (POT-19)"
                   % ("s" if len(kill) > 1 else "", ", ".join(str(x) for x in kill)))
    return out


def render(snap, seen, write):
    """Lights, display (as the OLED shows it), the cards on the antennas, stacks, the result of a
    finished hand and the alerts not shown before."""
    write("  lights : %s\n" % lights_text(snap))
    oled = [line for line in snap.get("oled") or snap["display"]]
    while oled and not oled[-1]:
        oled.pop()
    write("  display: +%s+\n" % ("-" * 16))
    for line in oled:
        write("           |%-16s|\n" % line)
    write("           +%s+\n" % ("-" * 16))
    write("  cards  : %s\n" % (antennas_text(snap) or "none on the antennas"))
    write("  stacks : %s   street: %s%s\n" % (
        "  ".join("%d:%s" % (i + 1, "-" if v is None else v) for i, v in enumerate(snap["stacks"])),
        snap["street"], ("  pot %d" % snap["pot"]) if "pot" in snap else ""))
    if snap["street"] == "over" and ("result", snap["hand"]) not in seen:
        seen[("result", snap["hand"])] = True
        for line in result_lines(snap):
            write("  RESULT : %s\n" % line)
    for a in snap["alerts"]:
        key = (snap["hand"], a["id"], a["status"])
        if key in seen:
            continue
        seen[key] = True
        write("  ALERT #%d [%s] %s: %s%s\n" % (a["id"], a["status"], "/".join(a["rules"]) or a.get("device") or "-",
                                               a["text"], (" -> " + a["remedy"]) if a.get("remedy") else ""))
    if snap["pending"]:
        write("  waiting for the dealer: confirm or reject #%s\n" % ", #".join(str(x) for x in snap["pending"]))


class Session:
    def __init__(self, proc, write):
        self.proc = proc
        self.write = write
        self.parser = bench.Validator()
        self.seen = {}
        self.snap = None  # the last snapshot read (after every step, refused or not)

    def state(self):
        """The table's snapshot now; a statement the runner refused before it is told ('? ...'), and
        the snapshot read with it is still taken (issue 18 item 4: left unread, every later screen
        was one step behind)."""
        try:
            self.snap = self.proc.state()
        except SimProcessError as e:
            if e.crash or e.snapshot is None:
                raise
            self.write("  ? %s\n" % e.message)  # the runner refused the statement; the table is unchanged
            self.snap = e.snapshot
            return None
        return self.snap

    def show(self):
        snap = self.state()
        if snap is not None:
            render(snap, self.seen, self.write)

    def _warn_cards_down(self, before):
        # a new hand dealt over the last hand's cards: the antennas already see them, so they are
        # neither dealt nor gathered -- say so once the hand has started (the dealer may `clear`)
        if before is None or self.snap is None or self.snap["hand"] == before["hand"]:
            return  # no new hand (refused: the last one is not over, or no table)
        down = antennas_text(self.snap)
        if down:
            self.write("  WARNING: hand %d started with cards still down: %s -- `clear` gathers them\n"
                       % (self.snap["hand"], down))

    def step(self, text):
        """One typed line -> True to go on, False to quit."""
        body = text.split("#", 1)[0].strip()
        if not body:
            return True
        words = body.split()
        if words[0] in ("quit", "exit"):
            return False
        if words[0] == "help":
            self.write(HELP + "\n")
            return True
        if words[0] == "state":
            snap = self.state()
            if snap is not None:
                self.write(json.dumps(snap, sort_keys=True) + "\n")
            return True
        if words[0] == "alerts":
            snap = self.state()
            for a in (snap or self.snap)["alerts"]:
                self.write("  #%d [%s] %s: %s\n" % (a["id"], a["status"], "/".join(a["rules"]) or a.get("device"),
                                                   a["text"]))
            return True
        try:
            self.parser.statement(words[0], words[1:], 1)
        except bench.BenchError as e:
            self.write("  ? %s\n" % e.message)
            return True
        if words[0] == "expect":
            snap = self.state()
            if snap is not None:
                bad = bench.check(bench.Statement(0, words[0], words[1:], body), snap)
                self.write("  ok\n" if bad is None else "  FAILED: expected %s, got %s\n" % bad)
            return True
        if words[0] == "table" and [w for w in words if w.startswith("shoe=")]:
            self.write("  ? shoe= is chosen when feltctl sim starts (--ascii)\n")
            return True
        before = self.snap
        self.proc.send(body)
        self.show()
        if words[0] == "hand":
            self._warn_cards_down(before)
        return True


def run(args):
    write = sys.stdout.write
    interactive = sys.stdin.isatty()
    write("Felt simulated table: the real firmware (%s). Type `help` for the statements, `quit` to leave.\n"
          % args.runtime)
    try:
        with SimProcess(args.runtime, shoe="ascii" if args.ascii else "pn532", keep_going=True) as proc:
            s = Session(proc, write)
            for line in DEFAULT_TABLE:
                s.parser.statement(line.split()[0], line.split()[1:], 1)
                proc.send(line)
            write("%s (six players with 1000); type `hand` to start, or a new `table` statement.\n"
                  % DEFAULT_TABLE[0])
            s.show()
            while True:
                try:
                    line = input("felt> ") if interactive else sys.stdin.readline()
                except EOFError:
                    break
                if not interactive:
                    if not line:
                        break
                    write("felt> %s" % line if line.endswith("\n") else "felt> %s\n" % line)
                if not s.step(line):
                    break
                sys.stdout.flush()
    except SimProcessError as e:
        write("the simulated table stopped: %s\n" % e.message)
        return 2
    except KeyboardInterrupt:
        write("\n")
    return 0
