# PHH (Poker Hand History, TOML based) reader -- firmware layer, text in, no I/O; the records and
# the writer are felt.history.phh_write (what a table loads), re-exported here. MicroPython has
# no tomllib, so this holds a small parser for the TOML subset PHH uses (strings, ints, decimals,
# booleans, arrays incl. multi-line, inline tables, comments, times and the `[1]`, `[2]` tables of
# multi-hand `.phhs` files). Money is never a float: decimal amounts become integer chips through
# one scale factor per hand (10 ** most decimal places used).
from felt.errors import FormatError
from felt.textnum import is_digits as _digits
# the records and the writer: re-exported, so that phh.History, phh.write, ... stay where they were
from felt.history.phh_write import (FIELD_ORDER, _BARE, Dec, History, Raw, Table, format_amount,  # noqa: F401
                                    write, write_all)

MONEY_FIELDS = ("antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet", "min_bet",
                "starting_stacks")
_DIGITS = "0123456789"
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}
_RANKS = "23456789TJQKA?"
_SUITS = "cdhs?"
_VERBS = ("f", "cc", "cbr", "pb", "sm", "sd")
_SIMPLE_VERBS = ("f", "cc", "pb", "sm", "sd")  # verbs that may stand alone after the player
_WORD_END = " \t\r\n,]}#"
_SPECIAL = ("inf", "+inf", "-inf", "nan", "+nan", "-nan")


def parse_number(text, line=None):
    """TOML integer or decimal text -> int or Dec (exact; exponents allowed, no floats)."""
    if _digits(text):
        return int(text)
    t = text
    if "_" in t:
        # TOML: each underscore stands between two digits ('1_000'; not '_', '1_', '1__0')
        for k in range(len(t)):
            if t[k] == "_" and not (0 < k < len(t) - 1 and _digits(t[k - 1]) and _digits(t[k + 1])):
                raise FormatError("bad number %r" % text, line)
        t = t.replace("_", "")
    sign = 1
    if t and t[0] in "+-":
        sign = -1 if t[0] == "-" else 1
        t = t[1:]
    exp = 0
    for e in "eE":
        if e in t:
            t, x = t.split(e, 1)
            if not _digits(x[1:] if x and x[0] in "+-" else x):
                raise FormatError("bad number %r" % text, line)
            exp = int(x)
    whole, dot, frac = t.partition(".")
    if not _digits(whole) or (dot and not _digits(frac)):
        raise FormatError("bad number %r" % text, line)
    units = sign * int(whole + frac)
    places = len(frac) - exp
    if not dot and exp == 0:
        return units
    if places < 0:
        return Dec(units * 10 ** -places, 0)
    return Dec(units, places)


def _line(s, i):
    return s.count("\n", 0, i) + 1


def _fail(s, i, message):
    raise FormatError(message, _line(s, i))


def _skip(s, i, n):
    # whitespace, newlines and comments
    while i < n:
        c = s[i]
        if c == " " or c == "\n" or c == "\t" or c == "\r":
            i += 1
        elif c == "#":
            j = s.find("\n", i)
            i = n if j < 0 else j
        else:
            break
    return i


def _skip_inline(s, i, n):
    while i < n and (s[i] == " " or s[i] == "\t"):
        i += 1
    return i


def _end_of_line(s, i, n):
    i = _skip_inline(s, i, n)
    if i < n and s[i] == "\r":
        i += 1
    if i < n and s[i] == "#":
        j = s.find("\n", i)
        i = n if j < 0 else j
    if i < n:
        if s[i] != "\n":
            _fail(s, i, "unexpected %r after a value" % s[i])
        i += 1
    return i


def _key(s, i, n):
    if i < n and (s[i] == '"' or s[i] == "'"):
        k, i = _string(s, i, n)
    else:
        j = i
        while j < n and s[j] in _BARE:
            j += 1
        if j == i:
            _fail(s, i, "expected a key")
        k = s[i:j]
        i = j
    i = _skip_inline(s, i, n)
    if i < n and s[i] == ".":
        _fail(s, i, "dotted keys are not part of PHH")
    return k, i


def _value(s, i, n, starts):
    """(value, next index); `starts` (a list or None) gets the offset of each array element."""
    if i >= n:
        _fail(s, i, "missing value")
    c = s[i]
    if c == '"' or c == "'":
        return _string(s, i, n)
    if c == "[":
        return _array(s, i + 1, n, starts)
    if c == "{":
        return _inline_table(s, i + 1, n)
    j = i
    while j < n and s[j] not in _WORD_END:
        j += 1
    word = s[i:j]
    if word == "true":
        return True, j
    if word == "false":
        return False, j
    if not word:
        _fail(s, i, "missing value")
    if word in _SPECIAL or ":" in word or word.count("-") > 1:
        return Raw(word), j
    if _digits(word):
        return int(word), j
    try:
        return parse_number(word), j
    except FormatError as e:
        _fail(s, i, e.message)  # the line is counted only for a broken number


def _array(s, i, n, starts):
    items = []
    while True:
        i = _skip(s, i, n)
        if i >= n:
            _fail(s, i, "unterminated array")
        if s[i] == "]":
            return items, i + 1
        if starts is not None:
            starts.append(i)
        c = s[i]
        if c == "'" and s[i + 1:i + 3] != "''":
            # fast path for the common element, a one-line literal string (every action)
            k = s.find("'", i + 1)
            nl = s.find("\n", i + 1)
            if k < 0 or 0 <= nl < k:
                _fail(s, i, "unterminated string")
            items.append(s[i + 1:k])
            i = k + 1
        else:
            k = _plain_int(s, i) if "0" <= c <= "9" else -1
            if k > i:  # fast path for a plain whole number (stacks, blinds, antes)
                items.append(int(s[i:k]))
                i = k
            else:
                v, i = _value(s, i, n, None)  # only the outer array's elements are line-tracked
                items.append(v)
        if i < n and s[i] == ",":
            i += 1
            continue
        i = _skip(s, i, n)
        if i < n and s[i] == ",":
            i += 1
        elif i < n and s[i] != "]":
            _fail(s, i, "expected , or ] in an array")


def _plain_int(s, i):
    # end of the digits at i when only blanks follow them up to the next ',' or ']', else -1
    j = s.find(",", i)
    k = s.find("]", i)
    if j < 0 or 0 <= k < j:
        j = k
    if j < 0:
        return -1
    word = s[i:j].rstrip(" ")
    return i + len(word) if _digits(word) else -1


def _inline_table(s, i, n):
    t = Table("", _line(s, i))
    i = _skip_inline(s, i, n)
    if i < n and s[i] == "}":
        return t, i + 1
    while True:
        i = _skip_inline(s, i, n)
        k, i = _key(s, i, n)
        if i >= n or s[i] != "=":
            _fail(s, i, "expected = in an inline table")
        v, i = _value(s, _skip_inline(s, i + 1, n), n, None)
        t.put(k, v, t.line, None)
        i = _skip_inline(s, i, n)
        if i < n and s[i] == ",":
            i += 1
        elif i < n and s[i] == "}":
            return t, i + 1
        else:
            _fail(s, i, "expected , or } in an inline table")


def _string(s, i, n):
    q = s[i]
    if s.startswith(q * 3, i):
        j = s.find(q * 3, i + 3)
        if j < 0:
            _fail(s, i, "unterminated string")
        body = s[i + 3:j]
        if body.startswith("\n"):
            body = body[1:]
        return (body if q == "'" else _unescape(body, s, i)), j + 3
    j = i + 1
    while True:
        k = s.find(q, j)
        nl = s.find("\n", j)
        if k < 0 or (0 <= nl < k):
            _fail(s, i, "unterminated string")
        if q == '"':
            # a quote preceded by an odd number of backslashes is escaped
            b = k - 1
            while s[b] == "\\":
                b -= 1
            if (k - 1 - b) % 2:
                j = k + 1
                continue
        body = s[i + 1:k]
        return (body if q == "'" else _unescape(body, s, i)), k + 1


def _unescape(body, s, at):
    if "\\" not in body:
        return body
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = body[i + 1:i + 2]
        if e in _ESCAPES:
            out.append(_ESCAPES[e])
            i += 2
        elif e in ("u", "U"):
            k = 4 if e == "u" else 8
            h = body[i + 2:i + 2 + k]
            code = -1
            if len(h) == k:
                try:
                    code = int(h, 16)
                except ValueError:
                    code = -1
            if code < 0:
                _fail(s, at, "bad escape \\%s%s" % (e, h))
            out.append(chr(code))
            i += 2 + k
        else:
            _fail(s, at, "bad escape \\%s" % e)
    return "".join(out)


def _lines_of(s, offsets, first=0, first_line=1):
    # 1-based lines of ascending offsets, counting newlines only between neighbours
    out = []
    line = first_line
    prev = first
    for o in offsets:
        line += s.count("\n", prev, o)
        prev = o
        out.append(line)
    return out


def _parse(s):
    # Line by line: a `key = value` line whose value is a plain string, whole number, boolean or
    # a one-line array of those is read with str methods (every line of a typical PHH file);
    # anything else (table headers, multi-line arrays, escapes, decimals, inline tables, a comment
    # after the value) is parsed char by char by _entry from the same offset.
    n = len(s)
    table = Table("", 1)
    tables = [("", table)]
    i = 0
    line = 1
    while i < n:
        j = s.find("\n", i)
        if j < 0:
            j = n
        t = s[i:j]
        if t and t[-1] == "\r":
            t = t[:-1]
        t = t.strip(" \t")
        if not t or t[0] == "#":
            i = j + 1
            line += 1
            continue
        key, eq, v = t.partition("=")
        key = key.rstrip(" \t")
        if eq and (key in _KEYS_OK or _bare_key(key)):
            value = _line_value(v.lstrip(" \t"))
            if value is not _NOT_SIMPLE:
                if key in table.values:
                    raise FormatError("key %r defined twice" % key, line)
                table.put(key, value, line, [line] * len(value) if value and isinstance(value, list) else None)
                i = j + 1
                line += 1
                continue
        k = _skip(s, i, n)  # the first character that is no blank (the old rules for '\r')
        if k >= n:
            break
        skipped = s.count("\n", i, k)
        if skipped:  # nothing on this line after all
            line += skipped
            i = s.rfind("\n", i, k) + 1
            continue
        i, table = _entry(s, k, n, line, table, tables)
        line += s.count("\n", k, i)
    return tables


_NOT_SIMPLE = Raw("")  # _line_value: leave this value to the char-by-char parser
_KEYS_OK = set()  # bare keys already checked (a few dozen field names)


def _bare_key(key):
    if not key:
        return False
    for c in key:
        if c not in _BARE:
            return False
    if len(_KEYS_OK) < 64:
        _KEYS_OK.add(key)
    return True


def _line_value(v):
    # the value of one line when it is simple, else _NOT_SIMPLE. Each accepted form is matched
    # whole, so a comment or a second value on the line always takes the slow path.
    if not v:
        return _NOT_SIMPLE
    c = v[0]
    if c == "'":
        if len(v) > 1 and v[-1] == "'" and v.count("'") == 2:
            return v[1:-1]
        return _NOT_SIMPLE
    if c == '"':
        if len(v) > 1 and v[-1] == '"' and v.count('"') == 2 and "\\" not in v:
            return v[1:-1]
        return _NOT_SIMPLE
    if c == "[":
        if v[-1] != "]":
            return _NOT_SIMPLE
        inner = v[1:-1].strip(" \t")
        if not inner:
            return []
        if inner[0] == "'":
            # 'a', 'b', 'c': every quote is a delimiter when their count is two per item, so no
            # item holds a quote and the text is exactly a list of literal strings
            if inner[-1] != "'":
                return _NOT_SIMPLE
            items = inner[1:-1].split("', '")
            if inner.count("'") != 2 * len(items):
                return _NOT_SIMPLE
            return items
        items = [w.strip(" \t") for w in inner.split(",")]
        digits = "".join(items)  # every item plain ASCII digits (_digits), none empty
        if "" in items or not digits.isdigit() or max(digits) > "9":
            return _NOT_SIMPLE
        return [int(w) for w in items]
    if _digits(v):
        return int(v)
    if v == "true":
        return True
    if v == "false":
        return False
    return _NOT_SIMPLE


def _entry(s, i, n, line, table, tables):
    # one table header or key = value from offset i (its first character), char by char;
    # returns (offset of the next line, current table)
    if s[i] == "[":
        if s.startswith("[[", i):
            _fail(s, i, "arrays of tables are not part of PHH")
        name, i = _key(s, _skip_inline(s, i + 1, n), n)
        if i >= n or s[i] != "]":
            _fail(s, i, "expected ] after a table name")
        for other, _t in tables:
            if other == name:
                _fail(s, i, "table [%s] defined twice" % name)
        table = Table(name, line)
        tables.append((name, table))
        return _end_of_line(s, i + 1, n), table
    pos = i
    key, i = _key(s, i, n)
    if i >= n or s[i] != "=":
        _fail(s, i, "expected = after key %r" % key)
    starts = []
    value, i = _value(s, _skip_inline(s, i + 1, n), n, starts)
    if table.has(key):
        raise FormatError("key %r defined twice" % key, line)
    table.put(key, value, line, _lines_of(s, starts, pos, line) if starts else None)
    return _end_of_line(s, i, n), table


def parse_toml(text):
    """TOML subset -> [(table name, Table)]; the root table is first with name ""."""
    if not isinstance(text, str):
        raise FormatError("a hand history must be text")
    return _parse(text)


def _places(value):
    # decimal places a money value needs (type() is checked first: the common value is all ints)
    t = type(value)
    if t is int:
        return 0
    if t is list:
        p = 0
        for v in value:
            if type(v) is not int:
                q = _places(v)
                if q > p:
                    p = q
        return p
    if t is Dec:
        return value.places
    return 0


def _chips(value, scale, what, line):
    if type(value) is list:
        if scale == 1:
            for v in value:
                if type(v) is not int:
                    break
            else:
                return list(value)  # whole chips already (bools are no ints by type())
        return [_chips(v, scale, what, line) for v in value]
    if isinstance(value, bool) or not isinstance(value, (int, Dec)):
        raise FormatError("%s must be a number, not %r" % (what, value), line)
    if isinstance(value, int):
        return value * scale
    p = 10 ** value.places
    if (value.units * scale) % p:
        raise FormatError("%s %s is finer than the file's unit" % (what, value.text()), line)
    return value.units * scale // p


def _action_amount(text):
    # the amount of a `pN cbr X` action, if any (None otherwise)
    words = text.split("#", 1)[0].split()
    if len(words) == 3 and words[1] == "cbr":
        return words[2]
    return None


# -- writer --------------------------------------------------------------------------------

def history_from_table(table, name=None):
    """Table -> History: checks the required fields and converts money to chips."""
    def need(key, kinds):
        if not table.has(key):
            raise FormatError("missing field %r" % key, table.line)
        v = table.get(key)
        if not isinstance(v, kinds) or isinstance(v, bool) and bool not in kinds:
            raise FormatError("field %r has the wrong type" % key, table.lines[key])
        return v

    variant = need("variant", (str,))
    stacks = need("starting_stacks", (list,))
    actions = need("actions", (list,))
    lines = table.item_lines.get("actions") or []
    try:
        joined = "\n".join(actions)  # one C call: all strings, and the text scanned below
    except TypeError:
        for k in range(len(actions)):
            if not isinstance(actions[k], str):
                raise FormatError("actions must be strings", lines[k] if k < len(lines) else table.lines["actions"])
        raise
    if not stacks:
        raise FormatError("starting_stacks is empty", table.lines["starting_stacks"])
    places = 0
    for key in MONEY_FIELDS:
        places = max(places, _places(table.get(key)))
    decimal = "." in joined or "e-" in joined or "E-" in joined
    for k in range(len(actions) if decimal else 0):
        # only a decimal amount can change the scale ('.' or a negative exponent)
        a = actions[k]
        t = _action_amount(a) if ("." in a or "e-" in a or "E-" in a) else None
        if t is not None:
            ln = lines[k] if k < len(lines) else None
            v = parse_number(t, ln)
            places = max(places, _places(v))
    scale = 10 ** places
    money = {}
    for key in MONEY_FIELDS:
        if table.has(key):
            money[key] = _chips(table.get(key), scale, key, table.lines[key])
    h = History(variant, money["starting_stacks"], actions, antes=money.get("antes", 0),
                blinds_or_straddles=money.get("blinds_or_straddles"), bring_in=money.get("bring_in"),
                small_bet=money.get("small_bet"), big_bet=money.get("big_bet"),
                min_bet=money.get("min_bet"), players=table.get("players"),
                ante_trimming_status=table.get("ante_trimming_status"), scale=scale,
                action_lines=lines, name=name, line=table.line)
    fin = table.get("finishing_stacks")
    if fin is not None:
        h.finishing_raw = fin
        try:
            h.finishing_stacks = _chips(fin, scale, "finishing_stacks", table.lines["finishing_stacks"])
        except FormatError:
            h.finishing_stacks = None  # e.g. half chips recorded for a split pot: kept raw
    h.extra = [(k, table.values[k]) for k in table.keys if k not in _KNOWN]
    return h


_KNOWN = MONEY_FIELDS + ("variant", "actions", "players", "finishing_stacks", "ante_trimming_status")


def read(text):
    """One hand (.phh text) -> History. Broken text -> FormatError naming the line."""
    tables = parse_toml(text)
    if len(tables) > 1:
        if tables[0][1].keys:
            raise FormatError("fields before the first [table] of a multi-hand file", tables[0][1].line)
        if len(tables) == 2:
            return history_from_table(tables[1][1], tables[1][0])
        raise FormatError("%d hands in this text; read it with read_all" % (len(tables) - 1), tables[2][1].line)
    return history_from_table(tables[0][1])


def read_all(text):
    """A .phhs file (tables [1], [2], ...) or a single hand -> [History] in file order."""
    tables = parse_toml(text)
    if len(tables) == 1:
        return [history_from_table(tables[0][1])]
    if tables[0][1].keys:
        raise FormatError("fields before the first [table] of a multi-hand file", tables[0][1].line)
    return [history_from_table(t, name) for name, t in tables[1:]]


class Action:
    """One parsed action line. actor: "d" (dealer) or a 0-based position. verb: "dh" "db" "f"
    "cc" "cbr" "pb" "sm" "sd" or "" (comment only). cards: list of 2-char texts ("Ah", "??") or
    None; amount: chips (cbr); comment: text after '#' or None; line: 1-based or None."""

    def __init__(self, actor, verb, cards=None, amount=None, comment=None, line=None, text=""):
        self.actor = actor
        self.verb = verb
        self.cards = cards
        self.amount = amount
        self.comment = comment
        self.line = line
        self.text = text
        self.dealee = None  # 'd dh pN': the 0-based position dealt to


_CARD_TEXTS = set(["??"] + [r + u for r in _RANKS[:-1] for u in _SUITS[:-1]])


def split_cards(text, line=None):
    """'AhKd' / '????' -> ['Ah', 'Kd'] / ['??', '??'] (format checked; '-' is not supported)."""
    if len(text) % 2:
        raise FormatError("bad cards %r" % text, line)
    if len(text) == 2:
        out = [text]
    elif len(text) == 4:
        out = [text[:2], text[2:]]
    else:
        out = [text[i:i + 2] for i in range(0, len(text), 2)]
    for c in out:
        if c not in _CARD_TEXTS:
            raise FormatError("bad card %r" % c, line)
    return out


_PLAYERS = {}  # "p3" -> 2: player words already checked (a few dozen at most)


def _player(word, line):
    p = _PLAYERS.get(word)
    if p is not None:
        return p
    if len(word) < 2 or word[0] != "p" or not _digits(word[1:]) or word[1] == "0":
        raise FormatError("bad player %r" % word, line)
    p = int(word[1:]) - 1
    if len(_PLAYERS) < 64:
        _PLAYERS[word] = p
    return p


def parse_action(text, scale=1, line=None):
    """An action string -> Action (amounts converted with the hand's scale)."""
    actor, verb, cards, amount, dealee, comment = fields(text, scale, line)
    a = Action(actor, verb, cards, amount, comment, line, text)
    a.dealee = dealee
    return a


def fields(text, scale=1, line=None, split=True):
    """parse_action() as a tuple (actor, verb, cards, amount, dealee, comment), with no Action
    built: what a replay reads once per action. split=False leaves the cards of 'd dh'/'d db'
    as written ('AhKd'): the caller checks them (replay maps them to ints with split_cards'
    rules and calls split_cards for the error)."""
    comment = None
    body = text  # the common line: no comment, no partition copies
    if "#" in text:
        body, _, comment = text.partition("#")
        comment = comment.strip()
    w = body.split()
    k = len(w)
    # fast paths by word count (a known player word is one dict read; _player checks a new one)
    if k == 2:
        verb = w[1]
        if verb in _SIMPLE_VERBS and w[0] != "d":  # 'pN f' / 'pN cc' / 'pN pb' / 'pN sm' / 'pN sd'
            p = _PLAYERS.get(w[0])
            if p is None:
                p = _player(w[0], line)
            return p, verb, [] if verb == "sm" or verb == "sd" else None, None, None, comment
    elif k == 4:
        if not split and w[1] == "dh" and w[0] == "d":
            # a replay's 'd dh pN cards', the cards as written (the caller checks them)
            p = _PLAYERS.get(w[2])
            if p is None:
                p = _player(w[2], line)
            return "d", "dh", w[3], None, p, comment
    elif k == 3:
        a = w[2]
        if w[1] == "cbr" and w[0] != "d" and _digits(a):
            # a whole-number bet (parse_number and _chips give int(a) * scale)
            p = _PLAYERS.get(w[0])
            if p is None:
                p = _player(w[0], line)
            return p, "cbr", None, int(a) * scale, None, comment
    if not w:
        return None, "", None, None, None, comment
    if w[0] == "d":
        if k == 4 and w[1] == "dh":
            cards = split_cards(w[3], line) if split else w[3]
            p = _PLAYERS.get(w[2])
            if p is None:
                p = _player(w[2], line)
            return "d", "dh", cards, None, p, comment
        if k == 3 and w[1] == "db":
            return "d", "db", split_cards(w[2], line) if split else w[2], None, None, comment
        raise FormatError("bad dealing action %r" % text, line)
    p = _player(w[0], line)
    verb = w[1] if k > 1 else ""
    if verb not in _VERBS:
        raise FormatError("bad action %r" % text, line)
    if verb == "cbr":
        if k != 3:
            raise FormatError("cbr needs one amount: %r" % text, line)
        return p, verb, None, _chips(parse_number(w[2], line), scale, "amount", line), None, comment
    if verb in ("sm", "sd"):
        if k > 3:
            raise FormatError("bad action %r" % text, line)
        return p, verb, split_cards(w[2], line) if k == 3 else [], None, None, comment
    if k != 2:
        raise FormatError("bad action %r" % text, line)
    return p, verb, None, None, None, comment


def actions_of(history):
    """Every action of a History, parsed, with its line."""
    return [parse_action(a, history.scale, history.action_line(k)) for k, a in enumerate(history.actions)]
