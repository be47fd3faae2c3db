# Bench scripts, format version 1 (host tools; hardware/bench-scripts.md): a strict parser that turns
# a script into statements with line numbers (a malformed script is a BenchError naming its line,
# never a pass), and a runner that plays the stimulus statements on the real firmware's simulated
# table (table_sim.process: MicroPython by default) and checks each `expect` against the firmware's state.
import re

from feltctl.table_sim.process import SimProcess, SimProcessError

VERSION = 1
SUFFIX = ".felt"
GAMES = ("holdem", "omaha", "omaha8", "stud7", "stud7_8", "stud5", "draw5")
STRUCTURES = ("no_limit", "pot_limit", "limit")
TABLE_INTS = ("seats", "sb", "bb", "ante", "small_bet", "big_bet", "bring_in", "unit", "button")
ACTIONS = ("fold", "check", "call", "allin", "bringin")
SIZED = ("bet", "raise", "complete")
STREETS = ("idle", "preflop", "flop", "turn", "river", "showdown", "over", "void", "pre-draw", "the draw",
           "3rd street", "4th street", "5th street", "6th street", "7th street",
           "round 1", "round 2", "round 3", "round 4")
STATUSES = ("note", "proposed", "confirmed", "rejected", "lapsed")
RULE_ID = re.compile(r"^[A-Z]+-[0-9]+$")
DEVICE = re.compile(r"^(shoe|board|burn|muck|console|seat[0-9]+|button[0-9]+)$")
CARD = re.compile(r"^[23456789TJQKA][cdhs]$")
UID = re.compile(r"^uid:([0-9A-Fa-f]{8}|[0-9A-Fa-f]{14})$")
LIGHTS = ("button", "sb", "bb", "action")  # expect LIGHT SEAT|none
CHIPS = re.compile(r"^[0-9]+(x[0-9]+)?(,[0-9]+(x[0-9]+)?)*$")


class BenchError(Exception):
    """A malformed script: message and the 1-based line."""

    def __init__(self, message, line):
        super().__init__("line %d: %s" % (line, message))
        self.message = message
        self.line = line


class Statement:
    """One statement: line (1-based), verb, args (words), text (the statement without its comment)."""

    def __init__(self, line, verb, args, text):
        self.line = line
        self.verb = verb
        self.args = args
        self.text = text

    def __repr__(self):
        return "Statement(%d, %r)" % (self.line, self.text)


# ---- parsing --------------------------------------------------------------------------------------

def _int(tok, what, line, low=0):
    if not re.match(r"^[0-9]+$", tok):
        raise BenchError("%s must be a whole number, got %r" % (what, tok), line)
    v = int(tok)
    if v < low:
        raise BenchError("%s must be at least %d, got %d" % (what, low, v), line)
    return v


def _table_config(game, structure, seen, line):
    """The table statement's settings as the firmware takes them (felt.table.controller.TableConfig,
    through the sim runner's own parsing): what the rules forbid -- a small blind above the big blind
    (BLIND-2), a big bet below the small bet (BET-1), more seats than the game has players (GAME-1:
    stud 8), an unknown house rule or value -- is refused here, before anything runs."""
    from felt.errors import FeltError
    from felt.sim.runner import NUMBERS, parse_levels
    from felt.table.controller import TableConfig
    from felt.textnum import is_digits

    kw = {}
    rules = {}
    for k in seen:
        v = seen[k]
        if k in NUMBERS:
            kw[k] = int(v)
        elif k == "levels":
            kw["levels"] = v
        elif k.startswith("hr."):
            rules[k] = int(v) if is_digits(v) else (v == "true" if v in ("true", "false") else v)
    try:
        if "levels" in kw:
            kw["levels"] = parse_levels(kw["levels"])
        TableConfig(game=game, structure=structure, seats=int(seen["seats"]), mode=seen.get("mode", "cash"),
                    rules=rules, **kw)
    except FeltError as e:
        raise BenchError(getattr(e, "message", None) or str(e), line)


class Validator:
    """Checks statements one at a time (the table statement sets the seat range); statement()
    raises BenchError naming the line. Used by parse() and by the interactive `feltctl sim`."""

    def __init__(self):
        self.seats = None  # of the current table
        self.bj = None  # a blackjack table's validator (feltctl.bench_scripts.blackjack), or None

    def seat(self, tok, line):
        v = _int(tok, "a seat", line, 1)
        if v > self.seats:
            raise BenchError("seat %d: this table has seats 1..%d" % (v, self.seats), line)
        return v

    def card(self, tok, line, uid_ok=True):
        if CARD.match(tok) or (uid_ok and UID.match(tok)):
            return tok
        raise BenchError("%r is not a card (like Ah, Td, 2c)%s" % (tok, " or uid:HEX (4 or 7 bytes)" if uid_ok else ""),
                         line)

    def place(self, words, line):
        """PLACE at the start of words -> number of words used."""
        if not words:
            raise BenchError("a place is missing (seat N | board | burn | muck | nowhere)", line)
        if words[0] == "seat":
            if len(words) < 2:
                raise BenchError("`seat` needs a seat number", line)
            self.seat(words[1], line)
            return 2
        if words[0] in ("board", "burn", "muck", "nowhere"):
            return 1
        raise BenchError("%r is not a place (seat N | board | burn | muck | nowhere)" % words[0], line)

    def end(self, words, used, line, form):
        if len(words) != used:
            raise BenchError("expected `%s`, got extra words %r" % (form, " ".join(words[used:])), line)

    def table(self, a, line):
        self.bj = None
        if a and a[0] == "blackjack":  # issue 17: a blackjack table speaks its own statements
            from feltctl.bench_scripts.blackjack import BlackjackValidator

            bj = BlackjackValidator(BenchError, self)
            bj.table(a, line)
            self.bj = bj
            self.seats = bj.boxes
            return
        if len(a) < 2 or a[0] not in GAMES:
            raise BenchError("table GAME STRUCTURE seats=N ... (or table blackjack [decks=N] [bj.KEY=VALUE ...]); "
                             "GAME is one of %s" % " ".join(GAMES), line)
        if a[1] not in STRUCTURES:
            raise BenchError("STRUCTURE is one of %s, got %r" % (" ".join(STRUCTURES), a[1]), line)
        seen = {}
        for tok in a[2:]:
            k, eq, v = tok.partition("=")
            if not eq or not v:
                raise BenchError("table settings are NAME=VALUE, got %r" % tok, line)
            if k in seen:
                raise BenchError("table setting %s given twice" % k, line)
            seen[k] = v
            if k in TABLE_INTS:
                _int(v, k, line)
            elif k == "mode":
                if v not in ("cash", "tournament"):
                    raise BenchError("mode is cash or tournament, got %r" % v, line)
            elif k == "shoe":
                if v not in ("pn532", "ascii"):
                    raise BenchError("shoe is pn532 or ascii, got %r" % v, line)
            elif k != "levels" and not (k.startswith("hr.") and len(k) > 3):
                raise BenchError("unknown table setting %r" % k, line)
        if "seats" not in seen:
            raise BenchError("table needs seats=N", line)
        seats = int(seen["seats"])
        if not 2 <= seats <= 10:
            raise BenchError("seats=N is 2..10 (GAME-1), got %d" % seats, line)
        _table_config(a[0], a[1], seen, line)
        self.seats = seats
        if "button" in seen:
            self.seat(seen["button"], line)

    def statement(self, verb, a, line):
        if verb == "version":
            raise BenchError("`version` must be the first statement", line)
        if verb == "table":
            return self.table(a, line)
        if self.seats is None:
            raise BenchError("the script must start with a table statement (after an optional `version 1`)", line)
        if self.bj is not None:
            return self.bj.statement(verb, a, line)
        if verb == "seat":
            if len(a) != 2:
                raise BenchError("seat SEAT STACK", line)
            self.seat(a[0], line)
            _int(a[1], "STACK", line, 1)
        elif verb in ("hand", "clear"):
            self.end(a, 0, line, verb)
        elif verb == "draw":
            if len(a) < 3 or a[1] != "to":
                raise BenchError("draw CARD to PLACE", line)
            self.card(a[0], line)
            self.end(a, 2 + self.place(a[2:], line), line, "draw CARD to PLACE")
        elif verb == "move":
            if len(a) < 5 or a[1] != "from":
                raise BenchError("move CARD from PLACE to PLACE", line)
            self.card(a[0], line)
            used = 2 + self.place(a[2:], line)
            if len(a) <= used or a[used] != "to":
                raise BenchError("move CARD from PLACE to PLACE", line)
            self.end(a, used + 1 + self.place(a[used + 1:], line), line, "move CARD from PLACE to PLACE")
        elif verb == "remove":
            if len(a) < 3 or a[1] != "from":
                raise BenchError("remove CARD from PLACE", line)
            self.card(a[0], line)
            if a[2] == "nowhere":
                raise BenchError("remove takes a card off an antenna: from seat N | board | burn | muck", line)
            self.end(a, 2 + self.place(a[2:], line), line, "remove CARD from PLACE")
        elif verb == "act":
            if len(a) < 2:
                raise BenchError("act SEAT fold|check|call|bet AMOUNT|raise AMOUNT|allin|bringin", line)
            self.seat(a[0], line)
            if a[1] in ACTIONS:
                self.end(a, 2, line, "act SEAT %s" % a[1])
            elif a[1] in SIZED:
                if len(a) != 3:
                    raise BenchError("act SEAT %s AMOUNT (the new total for the street)" % a[1], line)
                _int(a[2], "AMOUNT", line, 1)
            else:
                raise BenchError("unknown action %r (fold check call bet raise allin bringin complete)" % a[1], line)
        elif verb == "push":
            # a FELT1 chip push read by BET-8..17: CHIPS like 500, 250,100 or 100x3
            if len(a) < 2:
                raise BenchError("push SEAT CHIPS [declared=raise|allin|call|pot] [said=AMOUNT]", line)
            self.seat(a[0], line)
            if not CHIPS.match(a[1]):
                raise BenchError("CHIPS are chip values like 500, 250,100 or 100x3, got %r" % a[1], line)
            for tok in a[2:]:
                k, eq, v = tok.partition("=")
                if k == "declared" and v in ("raise", "allin", "call", "pot"):
                    continue
                if k == "said" and eq:
                    _int(v, "said", line, 1)
                    continue
                raise BenchError("push options are declared=raise|allin|call|pot and said=AMOUNT, got %r" % tok, line)
        elif verb == "mark":
            # the dealer marks a card seen face up: boxed in the deck or exposed (DEAL-7/11/17/21/22);
            # or a seat's held out-of-turn action as prompted by the dealer (BET-42), a string bet (BET-36)
            if len(a) not in (2, 3) or a[1] not in ("boxed", "exposed", "dealer_error", "string_bet") \
                    or (len(a) == 3 and a[1] not in ("boxed", "exposed")):
                raise BenchError("mark SEAT boxed|exposed [DRAW] | mark SEAT dealer_error|string_bet", line)
            self.seat(a[0], line)
            if len(a) == 3:
                _int(a[2], "DRAW", line, 1)
        elif verb == "press":
            if not a or len(a) > 2 or (len(a) == 2 and a[1] != "long"):
                raise BenchError("press SEAT [long]", line)
            self.seat(a[0], line)
        elif verb in ("confirm", "reject"):
            if len(a) > 1:
                raise BenchError("%s [ALERT-ID]" % verb, line)
            if a:
                _int(a[0], "ALERT-ID", line, 1)
        elif verb == "wait":
            if len(a) != 1:
                raise BenchError("wait MS", line)
            _int(a[0], "MS", line, 1)
        elif verb == "set":
            if len(a) != 2:
                raise BenchError("set KEY VALUE (a console `set`: hr.NAME, sb, bb, ..., level_clock start)", line)
        elif verb == "fault":
            self.fault(a, line)
        elif verb == "expect":
            self.expect(a, line)
        else:
            raise BenchError("unknown statement %r" % verb, line)

    def fault(self, a, line):
        if not a:
            raise BenchError("fault KIND [ARGS]", line)
        k, r = a[0], a[1:]
        if k in ("corrupt-frame", "drop-byte", "console-garbage"):
            self.end(r, 0, line, "fault " + k)
        elif k == "double-read":
            if len(r) < 3 or r[1] != "to":
                raise BenchError("fault double-read CARD to PLACE", line)
            self.card(r[0], line)
            self.end(r, 2 + self.place(r[2:], line), line, "fault double-read CARD to PLACE")
        elif k in ("silent", "resume"):
            if r == ["shoe"]:
                return
            if r and r[0] == "nowhere":
                raise BenchError("fault %s shoe | PLACE (an antenna)" % k, line)
            self.end(r, self.place(r, line), line, "fault %s shoe | PLACE" % k)
        elif k in ("collision", "noisy"):
            if r and r[0] == "nowhere":
                raise BenchError("fault %s PLACE (an antenna)" % k, line)
            self.end(r, self.place(r, line), line, "fault %s PLACE" % k)
        elif k == "two-antennas":
            if len(r) < 2:
                raise BenchError("fault two-antennas CARD PLACE", line)
            self.card(r[0], line)
            self.end(r, 1 + self.place(r[1:], line), line, "fault two-antennas CARD PLACE")
        elif k in ("bounce", "stuck", "release"):
            if len(r) != 1:
                raise BenchError("fault %s SEAT" % k, line)
            self.seat(r[0], line)
        else:
            raise BenchError("unknown fault %r (corrupt-frame drop-byte double-read silent resume noisy collision "
                             "two-antennas bounce stuck release console-garbage)" % k, line)

    def expect(self, a, line):
        if not a:
            raise BenchError("expect WHAT ...", line)
        k, r = a[0], a[1:]
        if k == "alert":
            if not r or len(r) > 2 or not (RULE_ID.match(r[0]) or DEVICE.match(r[0])):
                raise BenchError("expect alert RULE-ID|DEVICE [STATUS]", line)
            if len(r) == 2 and r[1] not in STATUSES:
                raise BenchError("alert status is one of %s" % " ".join(STATUSES), line)
        elif k == "no":
            if not r or r[0] != "alert" or len(r) > 3 or (len(r) >= 2 and not (RULE_ID.match(r[1]) or
                                                                             DEVICE.match(r[1]))):
                raise BenchError("expect no alert [RULE-ID|DEVICE [STATUS]]", line)
            if len(r) == 3 and r[2] not in STATUSES:
                raise BenchError("alert status is one of %s" % " ".join(STATUSES), line)
        elif k == "allin":
            if r == ["none"]:
                return
            if not r:
                raise BenchError("expect allin SEAT... | none", line)
            for s in r:
                self.seat(s, line)
        elif k in LIGHTS:
            if len(r) != 1:
                raise BenchError("expect %s SEAT | none" % k, line)
            if r[0] != "none":
                self.seat(r[0], line)
        elif k == "stacks":
            if len(r) != self.seats:
                raise BenchError("expect stacks needs %d values (one per seat, '-' for empty), got %d"
                                 % (self.seats, len(r)), line)
            for v in r:
                if v != "-":
                    _int(v, "a stack", line)
        elif k == "street":
            if " ".join(r) not in STREETS:
                raise BenchError("expect street %s" % " | ".join(STREETS), line)
        elif k in ("pot", "hand", "pending"):
            if len(r) != 1:
                raise BenchError("expect %s N" % k, line)
            _int(r[0], k, line)
        elif k == "board":
            if len(r) != 1:
                raise BenchError("expect board CARDS (like 7h8h9c) | none", line)
            if r[0] != "none":
                t = r[0]
                if len(t) % 2 or not all(CARD.match(t[i:i + 2]) for i in range(0, len(t), 2)):
                    raise BenchError("%r is not a row of cards like 7h8h9c" % t, line)
        elif k == "display":
            if not r:
                raise BenchError("expect display TEXT", line)
        else:
            raise BenchError("unknown expectation %r (alert, no alert, allin, button, sb, bb, action, stacks, "
                             "street, pot, board, hand, pending, display)" % k, line)


def parse(text):
    """Script text -> [Statement]. Raises BenchError (with the line) on anything malformed."""
    p = Validator()
    out = []
    first = True
    for i, raw in enumerate(text.split("\n")):
        n = i + 1
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        words = body.split()
        if first and words[0] == "version":
            if words[1:] != [str(VERSION)]:
                raise BenchError("this is bench format version %d; got %r" % (VERSION, body), n)
            first = False
            continue
        first = False
        p.statement(words[0], words[1:], n)
        out.append(Statement(n, words[0], words[1:], " ".join(words)))
    if p.seats is None:
        raise BenchError("the script has no table statement", len(text.split("\n")))
    return out


# ---- expectations -----------------------------------------------------------------------------------

def _seat_list(seats):
    return " ".join(str(s) for s in seats) if seats else "none"


def _alert_words(alerts):
    if not alerts:
        return "no alerts"
    out = []
    for a in alerts:
        name = "/".join(a["rules"]) if a["rules"] else (a.get("device") or "alert")
        out.append("%s (%s)" % (name, a["status"]))
    return "alerts " + ", ".join(out)


def _cites(a, key):
    return key in a["rules"] or (DEVICE.match(key) and a.get("device") == key)


def check(st, snap):
    """One `expect` statement against a snapshot -> None when it holds, else (expected, got)."""
    if snap.get("game") == "blackjack" and st.args[0] not in ("alert", "no", "display"):
        from feltctl.bench_scripts import blackjack

        return blackjack.check(st, snap, check)
    k, r = st.args[0], st.args[1:]
    want = " ".join(st.args)
    alerts = snap["alerts"]
    if k == "alert":
        hit = [a for a in alerts if _cites(a, r[0]) and (len(r) == 1 or a["status"] == r[1])]
        return None if hit else (want, _alert_words(alerts))
    if k == "no":
        hit = [a for a in alerts if len(r) == 1 or (_cites(a, r[1]) and (len(r) == 2 or a["status"] == r[2]))]
        return None if not hit else (want, _alert_words(hit))
    lights = snap["lights"]
    if k == "allin":
        seats = [] if r == ["none"] else sorted(int(s) for s in r)
        got = sorted(lights["allin"])
        return None if got == seats else ("allin " + _seat_list(seats), "allin " + _seat_list(got))
    if k in LIGHTS:
        seat = None if r[0] == "none" else int(r[0])
        got = lights[k]
        return None if got == seat else (want, "%s %s" % (k, got if got is not None else "none"))
    if k == "stacks":
        seats = [None if v == "-" else int(v) for v in r]
        got = snap["stacks"]
        return None if got == seats else (want, "stacks " + " ".join("-" if v is None else str(v) for v in got))
    if k == "street":
        got = snap["street"]
        return None if got == " ".join(r) else (want, "street " + got)
    if k in ("pot", "hand"):
        got = snap.get(k)
        return None if got == int(r[0]) else (want, "%s %s" % (k, got if got is not None else "none"))
    if k == "pending":
        got = len(snap["pending"])
        return None if got == int(r[0]) else (want, "pending %d" % got)
    if k == "board":
        got = snap.get("board") or "none"
        return None if got == r[0] else (want, "board " + got)
    if k == "display":
        # what the SSD1306 shows, read back from its pixels by the sim (view.py's lines otherwise)
        text = " ".join(r).upper()
        screen = [line for line in (snap.get("oled") or snap["display"]) if line]
        ok = [line for line in screen if text in line.upper()]
        return None if ok else (want, "display %s" % " | ".join(screen))
    raise ValueError(k)  # parse() admits nothing else


# ---- running ----------------------------------------------------------------------------------------

class Failure:
    def __init__(self, line, expected, got):
        self.line = line
        self.expected = expected
        self.got = got

    def as_dict(self):
        return {"line": self.line, "expected": self.expected, "got": self.got}


class Result:
    """The outcome of one script. error: (line, message) when it is malformed or the sim failed."""

    def __init__(self, file):
        self.file = file
        self.failures = []
        self.error = None
        self.alerts = {}  # (table number, alert id) -> alert dict, every hand of the script
        self.snapshot = None

    @property
    def passed(self):
        return self.error is None and not self.failures

    def messages(self):
        out = []
        if self.error is not None:
            out.append("%s:%s: error: %s" % (self.file, self.error[0] if self.error[0] else "?", self.error[1]))
        for f in self.failures:
            out.append("%s:%d: expected %s, got %s" % (self.file, f.line, f.expected, f.got))
        return out

    def indicators(self):
        return indicators(self.snapshot) if self.snapshot else None

    def as_dict(self):
        alerts = [self.alerts[k] for k in sorted(self.alerts)]
        d = {"file": self.file, "passed": self.passed, "failures": [f.as_dict() for f in self.failures],
             "alerts": [{"id": a["id"], "rules": a["rules"], "device": a.get("device"), "level": a["level"],
                         "status": a["status"], "text": a["text"]} for a in alerts],
             "indicators": self.indicators()}
        if self.error is not None:
            d["error"] = {"line": self.error[0], "message": self.error[1]}
        return d


def indicators(snap):
    """Final lights per seat (seat number as text -> lit roles) plus the lights and display lines."""
    lt = snap["lights"]
    seats = {}
    if isinstance(snap.get("indicators"), list):  # the firmware's own per-seat view (view.py)
        for i, on in enumerate(snap["indicators"]):
            seats[str(i + 1)] = list(on)
        return {"seats": seats, "lights": lt, "display": snap["display"]}
    for i in range(len(snap["stacks"])):
        s = i + 1
        on = [role for role in ("button", "sb", "bb", "action") if lt.get(role) == s]
        if s in lt.get("allin", []):
            on.append("allin")
        seats[str(s)] = on
    return {"seats": seats, "lights": lt, "display": snap["display"]}


def run_statements(statements, result, runtime="micropython", on_snapshot=None):
    """Play parsed statements on a simulated table; fills result (failures, alerts, snapshot)."""
    proc = None
    sent = []  # script line of each line sent to the current process
    fresh = None  # snapshot valid until the next stimulus
    tables = [0]  # alert ids start again on each table

    def snap():
        s = proc.state()
        sent.append(None)
        for a in s["alerts"]:
            result.alerts[(tables[0], a["id"])] = a
        result.snapshot = s
        if on_snapshot is not None:
            on_snapshot(s)
        return s

    try:
        for st in statements:
            if st.verb == "table":
                if proc is not None:
                    snap()
                    proc.close()
                shoe = "pn532"
                words = []
                for w in st.args:
                    if w.startswith("shoe="):
                        shoe = w[5:]
                    else:
                        words.append(w)
                proc = SimProcess(runtime, shoe=shoe, game="blackjack" if words[:1] == ["blackjack"] else "poker")
                sent = []
                tables[0] += 1
                proc.send(" ".join(["table"] + words))
                sent.append(st.line)
                fresh = None
                continue
            if st.verb == "expect":
                if fresh is None:
                    fresh = snap()
                bad = check(st, fresh)
                if bad is not None:
                    result.failures.append(Failure(st.line, bad[0], bad[1]))
                continue
            if st.verb == "hand":
                snap()  # the finished hand's alerts are kept in the report
            proc.send(st.text)
            sent.append(st.line)
            fresh = None
        snap()
    except SimProcessError as e:
        line = None
        if e.line is not None and 1 <= e.line <= len(sent):
            line = sent[e.line - 1]
        if line is None:
            lines = [x for x in sent if x is not None]
            line = lines[-1] if lines else None
        result.error = (line, e.message)
    finally:
        if proc is not None:
            proc.close()
    return result


def run_text(text, file="<script>", runtime="micropython"):
    result = Result(file)
    try:
        statements = parse(text)
    except BenchError as e:
        result.error = (e.line, e.message)
        return result
    return run_statements(statements, result, runtime)


def run_file(path, runtime="micropython", name=None):
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as text mode reads
    except (OSError, UnicodeError) as e:
        # reported like a malformed script, so the scripts around it still run and report
        result = Result(name or path)
        result.error = (None, "not a text file (bench scripts are UTF-8)" if isinstance(e, UnicodeError)
                        else "cannot read: %s" % (e.strerror or e))
        return result
    return run_text(text, name or path, runtime)
