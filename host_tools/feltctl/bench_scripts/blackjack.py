# Bench scripts for a blackjack table (host tools; hardware/bench-scripts.md section 5): the
# statements and expectations of a script whose table statement is `table blackjack ...`. They are
# played by felt.sim.blackjack_board on the assembled firmware (sim HAL, real drivers) in a child
# interpreter (feltctl.table_sim.process, game "blackjack"); the house rules are checked by the
# firmware's own register (felt.engine.blackjack.rules) before anything runs.
import re

SPOTS = "box N | dealer"
WORDS = ("newshoe", "close", "hit", "stand", "double", "split", "surrender", "redouble", "insure", "even",
         "noinsure", "closeinsurance")
PHASES = ("idle", "betting", "dealing", "insurance", "playing", "dealer", "done")
SIGNED = re.compile(r"^[+-]?[0-9]+$")
BOXES = 7


class BlackjackValidator:
    """Checks blackjack statements one at a time (the bench's Validator hands them over after a
    `table blackjack` statement); raises the bench's BenchError naming the line."""

    def __init__(self, error, poker):
        self.error = error  # BenchError
        self.poker = poker  # the bench's Validator: alert / no alert / display expectations are shared
        self.boxes = BOXES

    def table(self, a, line):
        from felt.engine.blackjack.rules import BlackjackRules
        from felt.errors import FeltError

        rules = {}
        for tok in a[1:]:
            k, eq, v = tok.partition("=")
            if not eq or not v:
                raise self.error("table settings are NAME=VALUE, got %r" % tok, line)
            if k == "decks":
                rules["decks"] = v
            elif k.startswith("bj.") and len(k) > 3:
                rules[k[3:]] = v
            else:
                raise self.error("a blackjack table takes decks=N and bj.KEY=VALUE (hardware/rules-blackjack.md "
                                 "section 2), got %r" % tok, line)
        try:
            got = BlackjackRules(rules)
        except FeltError as e:
            raise self.error(getattr(e, "message", None) or str(e), line)
        self.boxes = min(BOXES, got.boxes)

    def box(self, tok, line):
        if not tok.isdigit() or not 1 <= int(tok) <= self.boxes:
            raise self.error("a box is 1..%d, got %r" % (self.boxes, tok), line)

    def statement(self, verb, a, line):
        if verb in ("shoe", "round", "close", "cut", "clear"):
            if a:
                raise self.error("`%s` takes nothing, got %r" % (verb, " ".join(a)), line)
        elif verb == "bet":
            if len(a) != 2 or not a[1].isdigit():
                raise self.error("bet BOX AMOUNT", line)
            self.box(a[0], line)
        elif verb == "draw":
            if len(a) < 3 or a[1] != "to":
                raise self.error("draw CARD to %s" % SPOTS, line)
            self.poker.card(a[0], line, uid_ok=False)
            if a[2:] != ["dealer"]:
                if len(a) != 4 or a[2] != "box":
                    raise self.error("draw CARD to %s" % SPOTS, line)
                self.box(a[3], line)
        elif verb == "press":
            if not a or len(a) > 2 or (len(a) == 2 and a[1] != "long"):
                raise self.error("press BOX [long]", line)
            self.box(a[0], line)
        elif verb == "bj":
            if not a or a[0] not in WORDS or len(a) > 3 or not all(x.isdigit() for x in a[1:]):
                raise self.error("bj WORD [BOX] [AMOUNT]; WORD is one of %s" % " ".join(WORDS), line)
        elif verb == "wait":
            if len(a) != 1 or not a[0].isdigit():
                raise self.error("wait MS", line)
        elif verb == "expect":
            self.expect(a, line)
        else:
            raise self.error("unknown blackjack statement %r (shoe round bet close draw cut clear press bj wait expect)"
                             % verb, line)

    def expect(self, a, line):
        if not a:
            raise self.error("expect WHAT ...", line)
        k, r = a[0], a[1:]
        if k in ("alert", "no", "display"):
            return self.poker.expect(a, line)
        if k == "action":
            if len(r) != 1:
                raise self.error("expect action BOX | none", line)
            if r[0] != "none":
                self.box(r[0], line)
        elif k == "insure":
            if not r:
                raise self.error("expect insure BOX... | none", line)
            if r != ["none"]:
                for b in r:
                    self.box(b, line)
        elif k == "net":
            if len(r) != 2 or not SIGNED.match(r[1]):
                raise self.error("expect net BOX CHIPS (like +10, -20, 0)", line)
            self.box(r[0], line)
        elif k == "house":
            if len(r) != 1 or not SIGNED.match(r[0]):
                raise self.error("expect house CHIPS", line)
        elif k == "reply":
            if r not in (["ok"], ["error"]):
                raise self.error("expect reply ok | error", line)
        elif k == "round":
            if len(r) != 1 or not r[0].isdigit():
                raise self.error("expect round N", line)
        elif k == "phase":
            if len(r) != 1 or r[0] not in PHASES:
                raise self.error("expect phase %s" % " | ".join(PHASES), line)
        else:
            raise self.error("unknown blackjack expectation %r (alert, no alert, display, action, insure, net, "
                             "house, reply, round, phase)" % k, line)


def _boxes(boxes):
    return " ".join(str(b) for b in boxes) if boxes else "none"


def check(st, snap, shared):
    """One `expect` of a blackjack script against its snapshot -> None, or (expected, got).
    shared(st, snap): the bench's own check (alert, no alert, display)."""
    k, r = st.args[0], st.args[1:]
    want = " ".join(st.args)
    if k in ("alert", "no", "display"):
        return shared(st, snap)
    if k == "action":
        got = snap["lights"]["action"]
        return None if got == (None if r[0] == "none" else int(r[0])) else (want, "action %s" % (got or "none"))
    if k == "insure":
        boxes = [] if r == ["none"] else sorted(int(b) for b in r)
        got = sorted(snap["lights"]["insure"])
        return None if got == boxes else ("insure " + _boxes(boxes), "insure " + _boxes(got))
    if k == "net":
        got = snap["result"].get(r[0])
        return None if got == int(r[1]) else (want, "net %s %s" % (r[0], "none" if got is None else "%+d" % got))
    if k == "house":
        return None if snap["house"] == int(r[0]) else (want, "house %+d" % snap["house"])
    if k == "reply":
        got = [x[0] for x in snap["replies"]]
        return None if got == [r[0]] else (want, "reply %s" % (" ".join(
            "%s %s" % (x[0], x[1] or "") for x in snap["replies"]) or "none"))
    if k == "round":
        return None if snap["round"] == int(r[0]) else (want, "round %d" % snap["round"])
    if k == "phase":
        return None if snap["phase"] == r[0] else (want, "phase " + snap["phase"])
    raise ValueError(k)  # the validator admits nothing else
