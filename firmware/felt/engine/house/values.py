# House-rule values (engine layer, pure): validation naming the key and the legal options (ConfigError),
# the rake record (CASH-7 / POT-20) and jackpot drop (CASH-12), and loading rules from a plain dict or a
# small JSON / "key = value" text. Loaded on first use: a hand on default rules needs none of it.
from felt.compat import const
from felt.errors import ConfigError, RuleError
from felt.engine.house.rules import CASH, MODES, HouseRules, _bare, rule_of

# the kinds of rules.py
_CHOICE = const("choice")
_BOOL = const("bool")
_INT = const("int")
_CHIPS = const("chips")
_SECONDS_OFF = const("seconds_or_off")
_NA = const("n/a")


def legal_text(row):
    """The legal values of a register row, in words."""
    if row.kind == _CHOICE:
        return ", ".join(row.options)
    if row.kind == _BOOL:
        return "false, true"
    if row.kind == _INT:
        return "an integer %d..%d" % (row.lo, row.hi)
    if row.kind == _CHIPS:
        return "a chip amount >= 0"
    if row.kind == _SECONDS_OFF:
        return "off, or whole seconds >= 1"
    return 'off, or {"percent": P, "cap": C} (P up to 2 decimals in 0..100, C chips or none)'


def _digits(text):
    # ASCII digits only: CPython's str.isdigit() also accepts '\u00b9' and kin, which int()
    # refuses (no digit lies below '0', so the largest character tells).
    return text.isdigit() and max(text) <= "9"


def _percent_bp(value, key):
    # Percent as an int or a decimal text with up to 2 decimals -> basis points (no floats: chips rule).
    if isinstance(value, bool):
        value = None
    if isinstance(value, int):
        bp = value * 100
    elif isinstance(value, str):
        text = value.strip()
        whole, dot, frac = text.partition(".")
        if not _digits(whole) or (dot and (not _digits(frac) or len(frac) > 2)):
            raise ConfigError("hr.%s: percent %r is not a number with at most 2 decimals" % (key, value))
        bp = int(whole) * 100 + (int((frac + "00")[:2]) if dot else 0)
    else:
        raise ConfigError("hr.%s: percent must be an int or decimal text (no floats), got %r" % (key, value))
    if bp <= 0 or bp > 10000:
        raise ConfigError("hr.%s: percent must be in (0, 100], got %r" % (key, value))
    return bp


class Rake:
    """A configured percentage (basis points, 100 bp = 1 %) with an optional cap in chips."""

    def __init__(self, bp, cap=None):
        self.bp = bp
        self.cap = cap

    def __eq__(self, other):
        return isinstance(other, Rake) and other.bp == self.bp and other.cap == self.cap

    def __repr__(self):
        return "Rake(bp=%d, cap=%r)" % (self.bp, self.cap)

    def take(self, pot, unit=1):
        """Chips taken from `pot`: percent of the pot, capped, rounded down to a multiple of `unit`
        (POT-20 convention; CASH-7)."""
        amount = pot * self.bp // 10000
        if self.cap is not None and amount > self.cap:
            amount = self.cap
        return amount - amount % unit

    def __call__(self, pots, unit=1):
        """The pots of a hand with this rake taken off before the award (POT-20, take_rake below).
        A call, not a named method (RAM: hardware/memory.md, Idioms)."""
        return take_rake(pots, self.bp, self.cap, 0, unit)[0]


def take_rake(pots, rake_bp=0, cap=None, drop_bp=0, unit=1):
    """POT-20: rake and jackpot drop come off before the award.

    Both are in basis points of the whole pot before either deduction (5 % = 500,
    0.5 % = 50; no floats; Rake.bp is the same unit), each rounded down to a
    multiple of unit; cap bounds the rake only.
    Returns (pots, rake, drop) with new Pot records. Convention (the seeds say only "from
    the pot"): the deductions are taken from the main pot first, then the side pots in order."""
    from felt.engine.hand.pots import Pot
    if rake_bp < 0 or drop_bp < 0 or unit < 1:
        raise RuleError("POT-20: rake and drop must be >= 0 and unit >= 1")
    total = 0
    for pot in pots:
        total += pot.amount
    rake = total * rake_bp // 10000 // unit * unit
    if cap is not None and rake > cap:
        rake = cap // unit * unit
    drop = total * drop_bp // 10000 // unit * unit
    owed = rake + drop
    out = []
    for pot in pots:
        take = owed if owed < pot.amount else pot.amount
        owed -= take
        out.append(Pot(pot.index, pot.amount - take, pot.eligible))
    return out, rake, drop


# CASH-12: 0.5 % of every hand on a jackpot table goes into the bad-beat fund.
JACKPOT_DROP = Rake(50)


def validate(key, value, mode):
    """Check one value for `key` in `mode`; return it normalised (e.g. "true" -> True, rake dict ->
    Rake). Raises ConfigError naming the key and the legal options."""
    row = rule_of(key)
    if mode not in MODES:
        raise ConfigError("mode must be one of %s, got %r" % (", ".join(MODES), mode))
    default = row.cash if mode == CASH else row.tournament
    name = "hr." + row.key
    if default == _NA:
        raise ConfigError("%s does not apply in %s mode (%s)" % (name, mode, ", ".join(row.rules)))
    got = _normalise(row, value, name)
    if row.fixed == mode and got != default:
        raise ConfigError("%s is fixed to %r in %s mode (%s)" % (name, default, mode, ", ".join(row.rules)))
    return got


def _normalise(row, value, name):
    bad = ConfigError("%s: %r is not legal; legal: %s" % (name, value, legal_text(row)))
    kind = row.kind
    if kind == _CHOICE:
        if isinstance(value, str) and value in row.options:
            return value
        raise bad
    if kind == _BOOL:
        if value is True or value is False:
            return value
        if value in ("true", "false"):
            return value == "true"
        raise bad
    if kind == _INT or kind == _CHIPS:
        if kind == _CHIPS and value is None:
            return None
        if isinstance(value, str) and _digits(value.strip()):
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad
        if kind == _INT and not (row.lo <= value <= row.hi):
            raise bad
        if kind == _CHIPS and value < 0:
            raise bad
        return value
    if kind == _SECONDS_OFF:
        if value == "off":
            return "off"
        if isinstance(value, str) and _digits(value.strip()):
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise bad
        return value
    # _RAKE
    if value == "off" or value is None:
        return "off"
    if isinstance(value, Rake):
        return value
    if not isinstance(value, dict) or "percent" not in value:
        raise bad
    for k in value:
        if k not in ("percent", "cap"):
            raise ConfigError("%s: unknown field %r; fields: percent, cap" % (name, k))
    cap = value.get("cap")
    if isinstance(cap, str) and _digits(cap.strip()):
        cap = int(cap.strip())
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 0):
        raise ConfigError("%s: cap must be a chip amount >= 0 or none, got %r" % (name, cap))
    return Rake(_percent_bp(value["percent"], row.key), cap)


def from_dict(data):
    """Build from a plain dict: {"mode": "cash", "game": "holdem", "hr.sa_definition": "tda", ...}.
    Keys may omit the "hr." prefix; "mode" defaults to cash. ConfigError on anything unknown."""
    if not isinstance(data, dict):
        raise ConfigError("house rules must be a mapping, got %r" % (type(data).__name__,))
    mode = data.get("mode", CASH)
    game = data.get("game")
    values = {}
    for key in data:
        if key in ("mode", "game"):
            continue
        values[key] = data[key]
    return HouseRules(mode, game, values)


def _scalar(text):
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    if _digits(text):
        return int(text)
    if text in ("none", "null"):
        return None
    return text


def parse_text(text):
    """Parse a small config text: either one JSON object, or lines "key = value" ('#' comments,
    blank lines ignored). The rake may be written `hr.rake = 5% cap 150`, `hr.rake = 2.5%` or `off`.
    Returns a HouseRules record; ConfigError names the line of a bad entry."""
    body = text.strip()
    if body.startswith("{"):
        import json

        try:
            data = json.loads(body)
        except ValueError as e:
            raise ConfigError("house rules: bad JSON (%s)" % e)
        return from_dict(data)
    data = {}
    n = 0
    for line in text.split("\n"):
        n += 1
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        key, eq_sign, value = line.partition("=")
        key = key.strip()
        if not eq_sign or not key:
            raise ConfigError("house rules line %d: expected 'key = value', got %r" % (n, line))
        if key in data:
            raise ConfigError("house rules line %d: %s given twice" % (n, key))
        value = value.strip()
        if _bare(key) == "rake" and "%" in value:
            pct, _, rest = value.partition("%")
            rest = rest.split()
            cap = None
            if rest:
                if len(rest) != 2 or rest[0] != "cap":
                    raise ConfigError("house rules line %d: rake is 'P%%' or 'P%% cap C', got %r" % (n, value))
                cap = _scalar(rest[1])
            data[key] = {"percent": pct.strip(), "cap": cap}
        else:
            data[key] = _scalar(value)
    try:
        return from_dict(data)
    except ConfigError as e:
        raise ConfigError("house rules: %s" % e)
