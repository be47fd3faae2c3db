# Blackjack round histories (history layer; hardware/blackjack-history.md): one text line a round --
# there is no PHH for blackjack -- written by the table after each round and read back by
# `feltctl replay`, which plays the line's inputs through the engine again and checks the recorded
# result. Runs on MicroPython like the PHH reader; loaded only for blackjack (a .bjh file).
from felt.engine.blackjack import rules as bjrules
from felt.engine.blackjack import tokens
from felt.engine.blackjack.round import DONE, Round
from felt.engine.cards import cards_text
from felt.errors import ConfigError, FeltError, FormatError

HEADER = "# felt blackjack history 1"
SUFFIX = ".bjh"
_FIELDS = ("round", "shoe", "table", "rules")


def write_line(rnd, round_no, shoe=None, table=None):
    """The history line of a settled round `rnd` (a Round): fields, the inputs, the result."""
    if rnd.phase != DONE:
        raise FormatError("only a settled round has a history line (round %d is %s)" % (round_no, rnd.phase))
    head = ["round=%d" % round_no]
    if shoe is not None:
        head.append("shoe=%s" % shoe)
    if table is not None:
        head.append("table=%s" % table)
    rules = rnd.rules.text()
    if rules:
        head.append("rules=" + rules.replace(" ", ","))
    nets = ["%d:%+d" % (b, rnd.net(b)) for b in rnd.boxes()]
    return " ".join(head) + " | " + " ".join(rnd.log) + " | net " + " ".join(nets)


def parse_line(line, number=None):
    """(fields dict, token list, {box: net} recorded) of one history line; FormatError if malformed."""
    parts = line.split(" | ")
    if len(parts) != 3:
        raise FormatError("a round line is 'FIELDS | INPUTS | net BOX:NET ...'", number)
    fields = {}
    for f in parts[0].split():
        at = f.find("=")
        if at <= 0 or f[:at] not in _FIELDS:
            raise FormatError("%r is no round field (%s)" % (f, ", ".join(_FIELDS)), number)
        fields[f[:at]] = f[at + 1:]
    if "round" not in fields or not fields["round"].isdigit():
        raise FormatError("a round line starts with round=N", number)
    result = parts[2].split()
    if not result or result[0] != "net":
        raise FormatError("the result part starts with 'net'", number)
    nets = {}
    for item in result[1:]:
        box, _, net = item.partition(":")
        sign = net[:1]
        if not box.isdigit() or sign not in ("+", "-") or not net[1:].isdigit():
            raise FormatError("%r is not BOX:+NET" % item, number)
        nets[int(box)] = int(net)
    return fields, parts[1].split(), nets


def replay_line(line, number=None):
    """Play one round line through the engine: a result dict (round, boxes' nets, dealer, hands)
    or {'error': ...} naming the line and, for a refused input, its rule and token."""
    try:
        fields, toks, recorded = parse_line(line, number)
        rules = bjrules.parse(fields.get("rules", "").replace(",", " "))
    except (FormatError, ConfigError) as e:
        return {"error": str(e), "line": number}
    rnd = Round(rules)
    for i in range(len(toks)):
        try:
            tokens.apply(rnd, toks[i])
        except FeltError as e:
            out = {"error": str(e), "line": number, "round": int(fields["round"]), "input": i + 1, "token": toks[i]}
            if getattr(e, "rule", None):
                out["rule"] = e.rule
            return out
        except Exception as e:  # an engine bug must not end a run over many rounds
            return {"error": "internal error: %s: %s" % (type(e).__name__, e), "line": number, "input": i + 1}
    out = {"round": int(fields["round"])}
    if rnd.phase != DONE:
        out["error"] = "the inputs end before the round is settled (%s)" % rnd.phase
        out["line"] = number
        return out
    nets = rnd.results()
    out["net"] = dict([(str(b), nets[b]) for b in nets])
    out["dealer"] = cards_text(rnd.dealer)
    out["hands"] = ["%d:%s:%s:%d:%d" % (h.box, cards_text(h.cards), h.outcome, h.stake, h.paid) for h in rnd.hands]
    if "shoe" in fields:
        out["shoe"] = fields["shoe"]
    if nets != recorded:
        out["error"] = "the replay nets %s differ from the recorded %s" % (_nets(nets), _nets(recorded))
        out["line"] = number
    return out


def _nets(d):
    return " ".join(["%d:%+d" % (b, d[b]) for b in sorted(d)])


def iter_lines(lines):
    """The rounds of a history given line by line (str, or bytes as read from a file), a result
    dict at a time: a long history is never held whole in RAM (128 KB board)."""
    number = 0
    for line in lines:
        number += 1
        if not isinstance(line, str):
            line = line.decode()
        line = line.strip()
        if number == 1:
            if line != HEADER:
                yield {"error": "a blackjack history starts with the line %r" % HEADER, "line": 1}
                return
        elif line and not line.startswith("#"):
            yield replay_line(line, number)
    if number == 0:
        yield {"error": "an empty file is no blackjack history", "line": 1}


def replay_lines(lines):
    """[result dict] for every round of `lines` (iter_lines)."""
    return list(iter_lines(lines))


def replay_text(text):
    """Every round of a history file's text: [result dict]."""
    return replay_lines(text.split("\n"))


def rewrite_text(text):
    """The history re-written by the engine: each round replayed and its line written again from
    the replayed round (write_line); a round that does not replay stays as it was, after a
    '# error: ...' comment line. write(read(x)) == x for a history the table wrote."""
    out = [HEADER]
    lines = text.split("\n")
    for i in range(1, len(lines)):
        line = lines[i].strip()
        if not line or line.startswith("#"):
            continue
        r = replay_line(line, i + 1)
        if "error" in r:
            out.append("# error: " + r["error"])
            out.append(line)
            continue
        fields, toks, _nets = parse_line(line, i + 1)
        rnd = tokens.play(Round(bjrules.parse(fields.get("rules", "").replace(",", " "))), " ".join(toks))
        out.append(write_line(rnd, int(fields["round"]), fields.get("shoe"), fields.get("table")))
    return "\n".join(out) + "\n"
