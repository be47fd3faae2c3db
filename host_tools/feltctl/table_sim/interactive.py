# `feltctl sim` without arguments (host tools): a line-based terminal UI on the simulated table.
# A person types bench statements (hardware/bench-scripts.md) -- deal from the shoe, move cards
# between antennas, press seat buttons, enter console actions, inject faults, `expect ...` checks --
# each is checked, forwarded to the firmware's sim runner, and the lights, the display, the stacks
# and any new alert are shown after every step.
import json
import sys

from feltctl.bench_scripts import script as bench
from feltctl.table_sim.demo import lights_text
from feltctl.table_sim.process import SimProcess, SimProcessError

DEFAULT_TABLE = ("table holdem no_limit seats=6 sb=50 bb=100 button=1",
                 "seat 1 1000", "seat 2 1000", "seat 3 1000", "seat 4 1000", "seat 5 1000", "seat 6 1000")
HELP = """statements (one a line; see hardware/bench-scripts.md):
  table GAME STRUCTURE seats=N [sb= bb= ante= small_bet= big_bet= bring_in= button= mode= hr.NAME=]
  seat SEAT STACK | hand | clear | draw CARD to PLACE | move CARD from PLACE to PLACE
  remove CARD from PLACE | act SEAT fold|check|call|bet N|raise N|allin|bringin | press SEAT [long]
  confirm | reject | fault KIND ... | wait MS | expect ...      PLACE: seat N | board | burn | muck | nowhere
other: help | state (the raw JSON snapshot) | alerts (every alert of this hand) | quit"""


def render(snap, seen, write):
    """Lights, display (as the OLED shows it), stacks, and the alerts not shown before."""
    write("  lights : %s\n" % lights_text(snap))
    oled = [line for line in snap.get("oled") or snap["display"]]
    while oled and not oled[-1]:
        oled.pop()
    write("  display: +%s+\n" % ("-" * 16))
    for line in oled:
        write("           |%-16s|\n" % line)
    write("           +%s+\n" % ("-" * 16))
    write("  stacks : %s   street: %s%s\n" % (
        "  ".join("%d:%s" % (i + 1, "-" if v is None else v) for i, v in enumerate(snap["stacks"])),
        snap["street"], ("  pot %d" % snap["pot"]) if "pot" in snap else ""))
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
        self.snap = None

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
            self.write(json.dumps(self.proc.state(), sort_keys=True) + "\n")
            return True
        if words[0] == "alerts":
            for a in self.proc.state()["alerts"]:
                self.write("  #%d [%s] %s: %s\n" % (a["id"], a["status"], "/".join(a["rules"]) or a.get("device"),
                                                   a["text"]))
            return True
        try:
            self.parser.statement(words[0], words[1:], 1)
        except bench.BenchError as e:
            self.write("  ? %s\n" % e.message)
            return True
        if words[0] == "expect":
            snap = self.proc.state()
            bad = bench.check(bench.Statement(0, words[0], words[1:], body), snap)
            self.write("  ok\n" if bad is None else "  FAILED: expected %s, got %s\n" % bad)
            return True
        if words[0] == "table" and [w for w in words if w.startswith("shoe=")]:
            self.write("  ? shoe= is chosen when feltctl sim starts (--ascii)\n")
            return True
        self.proc.send(body)
        try:
            snap = self.proc.state()
        except SimProcessError as e:
            if e.crash:
                raise
            self.write("  ? %s\n" % e.message)  # the runner refused the statement; the table is unchanged
            return True
        render(snap, self.seen, self.write)
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
            render(proc.state(), s.seen, write)
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
