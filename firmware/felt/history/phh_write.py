# PHH (Poker Hand History) records and writer -- firmware layer, text out, no I/O: what a table
# needs to write each finished hand (felt.table.hand_history). The reader (felt.history.phh: the
# TOML subset parser, actions, cards; about two thirds of the code) is not loaded by a table that only
# writes (RAM: hardware/memory.md, Idioms 1, and "The firmware's own live RAM"); felt.history.phh
# re-exports everything here, so phh.History, phh.write etc. are the same objects.
from felt.errors import FormatError

# Order in which the writer emits the fields it knows (then the others, in their read order).
FIELD_ORDER = ("variant", "ante_trimming_status", "antes", "blinds_or_straddles", "bring_in",
               "small_bet", "big_bet", "min_bet", "starting_stacks", "actions")
_BARE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"


class Dec:
    """An exact decimal number from the file: value = units / 10 ** places."""

    def __init__(self, units, places):
        self.units = units
        self.places = places

    def __eq__(self, other):
        return isinstance(other, Dec) and self.units == other.units and self.places == other.places

    def __repr__(self):
        return "Dec(%s)" % self.text()

    def text(self):
        return format_amount(self.units, 10 ** self.places)


class Raw:
    """A TOML value kept as written (times, dates, inf): passed through, never interpreted."""

    def __init__(self, text):
        self.text = text

    def __eq__(self, other):
        return isinstance(other, Raw) and self.text == other.text

    def __repr__(self):
        return "Raw(%s)" % self.text


def format_amount(chips, scale):
    """Chips (int) in file units: an int when scale is 1, else an exact decimal string
    with every place of the scale ("1259450.25", "12.50")."""
    if scale == 1:
        return chips
    places = len(str(scale)) - 1
    sign = "-" if chips < 0 else ""
    whole, frac = divmod(abs(chips), scale)
    frac = str(frac)
    return "%s%d.%s" % (sign, whole, "0" * (places - len(frac)) + frac)


class Table:
    """Key -> value with the file order and the line of each key (MicroPython dicts are unordered)."""

    def __init__(self, name, line):
        self.name = name
        self.line = line
        self.keys = []
        self.values = {}
        self.lines = {}
        self.item_lines = {}

    def has(self, key):
        return key in self.values

    def put(self, key, value, line, item_lines):
        if key not in self.values:
            self.keys.append(key)
        self.values[key] = value
        self.lines[key] = line
        if item_lines:
            self.item_lines[key] = item_lines

    def get(self, key, default=None):
        return self.values.get(key, default)


class History:
    """One hand history. Money fields are integer chips = file amount * scale; `actions` are the
    action strings as written, `action_lines` their 1-based lines (None when not read from text).
    `extra` holds every other field as [(key, value)] in file order; `finishing_stacks` is None
    when absent or not a whole number of chips at this scale (see `finishing_raw`)."""

    def __init__(self, variant, starting_stacks, actions, antes=0, blinds_or_straddles=None,
                 bring_in=None, small_bet=None, big_bet=None, min_bet=None, players=None,
                 finishing_stacks=None, ante_trimming_status=None, scale=1, extra=None,
                 action_lines=None, name=None, line=1):
        self.variant = variant
        self.starting_stacks = list(starting_stacks)
        self.actions = list(actions)
        n = len(self.starting_stacks)
        self.antes = _per_player(antes, n)
        self.blinds_or_straddles = None if blinds_or_straddles is None else _per_player(blinds_or_straddles, n)
        self.bring_in = bring_in
        self.small_bet = small_bet
        self.big_bet = big_bet
        self.min_bet = min_bet
        self.players = players
        self.finishing_stacks = finishing_stacks
        self.finishing_raw = None
        self.ante_trimming_status = ante_trimming_status
        self.scale = scale
        self.extra = extra or []
        self.action_lines = action_lines
        self.name = name  # table name in a .phhs file ("1", "2", ...), else None
        self.line = line

    def action_line(self, index):
        if self.action_lines and index < len(self.action_lines):
            return self.action_lines[index]
        return None

    def get(self, key, default=None):
        for k, v in self.extra:
            if k == key:
                return v
        return default


def _per_player(value, n):
    # pokerkit semantics: one number = everybody; a shorter list is padded with zeros
    if isinstance(value, list):
        return (list(value) + [0] * n)[:n]
    return [value] * n


def _text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Dec):
        return value.text()
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, str):
        if "'" not in value and "\n" not in value:
            return "'" + value + "'"
        out = []
        for c in value:
            if c == '"' or c == "\\":
                out.append("\\" + c)
            elif c == "\n":
                out.append("\\n")
            elif ord(c) < 32 or ord(c) == 127:
                out.append("\\u%04x" % ord(c))
            else:
                out.append(c)
        return '"' + "".join(out) + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join([_text(v) for v in value]) + "]"
    if isinstance(value, Table):
        return "{" + ", ".join(["%s = %s" % (_key_text(k), _text(value.values[k])) for k in value.keys]) + "}"
    if isinstance(value, dict):
        return "{" + ", ".join(["%s = %s" % (_key_text(k), _text(value[k])) for k in sorted(value)]) + "}"
    raise FormatError("cannot write %r" % (value,))


def _key_text(k):
    for c in k:
        if c not in _BARE:
            return _text(k)
    return k if k else "''"


def _money(chips, scale):
    if isinstance(chips, list):
        return [_money(c, scale) for c in chips]
    a = format_amount(chips, scale)
    return a if scale == 1 else Dec(chips, len(str(scale)) - 1)


def write(h):
    """History -> PHH text (one hand, newline-terminated; pokerkit 0.7.7 reads it)."""
    s = h.scale
    known = {
        "variant": h.variant, "ante_trimming_status": h.ante_trimming_status,
        "antes": _money(h.antes, s),
        "blinds_or_straddles": None if h.blinds_or_straddles is None else _money(h.blinds_or_straddles, s),
        "bring_in": None if h.bring_in is None else _money(h.bring_in, s),
        "small_bet": None if h.small_bet is None else _money(h.small_bet, s),
        "big_bet": None if h.big_bet is None else _money(h.big_bet, s),
        "min_bet": None if h.min_bet is None else _money(h.min_bet, s),
        "starting_stacks": _money(h.starting_stacks, s),
    }
    lines = []
    for k in FIELD_ORDER:
        if k == "actions":
            lines.append("actions = [")
            for a in h.actions:
                lines.append("  %s," % _text(a))
            lines.append("]")
        elif known[k] is not None:
            lines.append("%s = %s" % (k, _text(known[k])))
    for k, v in h.extra:
        if v is not None:
            lines.append("%s = %s" % (_key_text(k), _text(v)))
    if h.players is not None:
        lines.append("players = %s" % _text(h.players))
    if h.finishing_stacks is not None:
        lines.append("finishing_stacks = %s" % _text(_money(h.finishing_stacks, s)))
    elif h.finishing_raw is not None:
        lines.append("finishing_stacks = %s" % _text(h.finishing_raw))
    return "\n".join(lines) + "\n"


def write_all(histories):
    """[History] -> .phhs text with tables [1], [2], ..."""
    return "\n".join(["[%d]\n%s" % (k + 1, write(h)) for k, h in enumerate(histories)])
