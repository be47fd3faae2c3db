# Dealer-console line protocol "FELT1" (our design) -- proto layer: pure codec, no I/O.
# Grammar, verbs and version policy: hardware/protocols/console.md. One line per message:
#   FELT1 <seq> <verb> <args...> [key=value...] ["text"] *<CRC16>\r\n
# CRC-16/CCITT-FALSE over every byte before the '*', as 4 upper-case hex digits. Decoding is
# strict: any deviation is a ConsoleError with a named `code` (and the line's seq when readable).
from felt.errors import FrameError

MAGIC = "FELT1"  # protocol major version 1; a different major is refused with code 'version'
VERSION = "1.5"  # major.minor announced in `hello`; minor additions are new verbs/keys only
# 1.1 added the floor-key verbs challenge / auth / deckline and the ok keys nonce= and sha256=
# 1.2 added the count verbs pot (BET-26) and count (BET-48) and the get keys jackpot and dispute
# 1.4 added bj WORD [BOX] [AMOUNT] (a blackjack table's console entries, issue 17 item 3)
# 1.3 added pub (a signed room message in upper-case hex pieces, table -> bridge) and puback (issue 15)
# 1.5 puback carries the floor's HMAC: puback NAME TAG "SEQS" (was puback SEQ, which anyone on the
#     broker or the bridge could make; felt.room.ack)
MAX_LINE = 240
MAX_SEQ = 65535
MAX_SEATS = 10
MAX_CHIPS = 10 ** 9
MAX_CHIP_COUNT = 64  # chips in one push
MAX_DECK_LINES = 64  # lines of one deck record sent with `deckline` (felt-deck 1: 58)

CONSOLE = "console"  # verbs the dealer console sends
TABLE = "table"  # verbs the table (firmware) sends
BOTH = "both"

ACTIONS = ("fold", "check", "call", "bet", "raise", "allin", "bringin", "complete")
DECLARED = ("raise", "allin", "call", "pot")  # what was said before the chips landed (BET-10, BET-12..15, BET-28)
PULLED = ("none", "part", "all")  # earlier bet chips left, partly or fully pulled back (BET-16)
MARKS = ("exposed", "boxed", "tabled", "mucked", "absent", "string_bet", "dealer_error", "pulled_back", "undercall")
LEVELS = ("info", "warn", "error")
CONFIG_KEYS = ("game", "structure", "mode", "sb", "bb", "ante", "bringin", "small_bet", "big_bet", "straddle",
               "unit", "seats", "level", "players_left", "hand_for_hand", "level_clock", "jackpot", "dispute",
               "audit_free")  # get audit_free: the event log's room (issue 16 item 4, security/eventlog.py)


class ConsoleError(FrameError):
    """A console line that breaks the protocol. `code` is one of: 'too_long', 'not_ascii',
    'checksum', 'version', 'syntax', 'seq', 'unknown_verb', 'direction', 'bad_args'.
    `seq` is the line's sequence number when it could be read (so a reply can name it)."""

    def __init__(self, code, message, seq=None, line=b""):
        super().__init__("console %s: %s" % (code, message))
        self.code = code
        self.seq = seq
        self.line = bytes(line)


# ---- value types: parse(token) -> value, and format(value) -> token ----

_RANKS = "23456789TJQKA"
_SUITS = "cdhs"
_HEXDIGITS = "0123456789abcdefABCDEF"


def inert(text):
    """Text someone typed at the console, made inert before the table echoes any of it (issue 12
    item 1): every rank+suit pair ('Ah', also inside 'AhKd') becomes '??' and every run of 8 or
    more hex digits (a tag UID) '?'s, whatever the table's state. No card filter downstream (the
    table's redaction, the secrecy guard) then finds anything in it to change: a filter that
    masked only the live hole cards inside an echo was an oracle for them."""
    if not text:
        return text
    out = None
    n = len(text)
    i = 0
    while i + 1 < n:
        if text[i] in _RANKS and text[i + 1] in _SUITS:
            if out is None:
                out = list(text)
            out[i] = out[i + 1] = "?"
            i += 2
        else:
            i += 1
    s = text if out is None else "".join(out)
    run = 0
    for i in range(len(s) + 1):
        if i < len(s) and s[i] in _HEXDIGITS:
            run += 1
            continue
        if run >= 8:
            s = s[:i - run] + "?" * run + s[i:]
        run = 0
    return s


def _int_token(tok, lo, hi, what):
    if not tok or not tok.isdigit() or (len(tok) > 1 and tok[0] == "0"):
        raise ValueError("%s must be a whole number without sign or leading zeros, got %r" % (what, tok))
    v = int(tok)
    if v < lo or v > hi:
        raise ValueError("%s must be in %d..%d, got %d" % (what, lo, hi, v))
    return v


def _p_amount(tok):
    return _int_token(tok, 0, MAX_CHIPS, "amount")


def _p_chips(tok):
    """'1000,500,100x3' -> [1000, 500, 100, 100, 100] (order as pushed; 'DxN' repeats D N times)."""
    chips = []
    for part in tok.split(","):
        denom, x, count = part.partition("x")
        d = _int_token(denom, 1, MAX_CHIPS, "chip")
        n = _int_token(count, 1, MAX_CHIP_COUNT, "chip count") if x else 1
        if len(chips) + n > MAX_CHIP_COUNT:
            raise ValueError("more than %d chips in one push" % MAX_CHIP_COUNT)
        for _ in range(n):
            chips.append(d)
    return chips


def _f_chips(chips):
    if not chips:
        raise ValueError("a push needs at least one chip")
    out = []
    i = 0
    while i < len(chips):
        j = i
        while j < len(chips) and chips[j] == chips[i]:
            j += 1
        out.append("%dx%d" % (chips[i], j - i) if j - i > 1 else "%d" % chips[i])
        i = j
    return ",".join(out)


def _word_ok(tok, extra=""):
    if not tok or not ("a" <= tok[0] <= "z"):
        return False
    for c in tok:
        if not ("a" <= c <= "z" or "0" <= c <= "9" or c == "_" or c in extra):
            return False
    return True


def _p_word(tok):
    if not _word_ok(tok):
        raise ValueError("expected a lower-case word, got %r" % tok)
    return tok


def _p_key(tok):
    """A configuration key: one of CONFIG_KEYS or hr.<name> (a house rule, RULES.md §12.2)."""
    if tok in CONFIG_KEYS or (tok.startswith("hr.") and _word_ok(tok[3:])):
        return tok
    raise ValueError("unknown configuration key %r (%s or hr.<name>)" % (tok, ", ".join(CONFIG_KEYS)))


def _p_name(tok):
    """A floor key name as provisioned (security/keys.py): 1..32 of letters, digits and - _ ."""
    if not tok or len(tok) > 32:
        raise ValueError("a floor key name is 1..32 characters, got %r" % tok[:12])
    for c in tok:
        if not ("a" <= c <= "z" or "A" <= c <= "Z" or "0" <= c <= "9" or c in "-_."):
            raise ValueError("bad character %r in floor key name" % c)
    return tok


def _p_value(tok):
    for c in tok:
        if not ("a" <= c <= "z" or "A" <= c <= "Z" or "0" <= c <= "9" or c in "_.%:/-+"):
            raise ValueError("bad character %r in value %r" % (c, tok))
    if not tok:
        raise ValueError("empty value")
    if tok.isdigit() and (tok == "0" or tok[0] != "0"):
        return int(tok)  # plain numbers travel as ints (chips, counts); anything else stays text
    return tok


def _f_value(v):
    return "%d" % v if isinstance(v, int) and not isinstance(v, bool) else str(v)


def _p_rule(tok):
    """A RULES.md ID such as BET-12, or '-' for none."""
    if tok == "-":
        return tok
    head, dash, num = tok.partition("-")
    if not dash or not head.isalpha() or not head.isupper() or not num.isdigit() or num[0] == "0":
        raise ValueError("expected a rule ID like BET-12, got %r" % tok)
    return tok


def _p_range(tok):
    lo, dots, hi = tok.partition("..")
    if not dots:
        raise ValueError("expected MIN..MAX, got %r" % tok)
    a, b = _p_amount(lo), _p_amount(hi)
    if a > b:
        raise ValueError("range %r is empty" % tok)
    return (a, b)


def _f_range(r):
    return "%d..%d" % (r[0], r[1])


def _choice(tok, options, what):
    if tok not in options:
        raise ValueError("%s must be one of %s, got %r" % (what, "|".join(options), tok))
    return tok


def _hex(tok, n, what):
    if len(tok) != n or any(c not in "0123456789abcdef" for c in tok):
        raise ValueError("%s must be %d lower-case hex digits, got %r" % (what, n, tok[:12]))
    return tok


def _parse(type_name, tok):
    """The value of token `tok` of a schema type (ValueError if it is not one). A chain of tests
    rather than a table of parsers: a dict of closures would sit in RAM for the whole run."""
    if type_name == "seat":
        return _int_token(tok, 1, MAX_SEATS, "seat")
    if type_name == "amount":
        return _p_amount(tok)
    if type_name == "id":
        return _int_token(tok, 0, MAX_SEQ, "id")
    if type_name == "value":
        return _p_value(tok)
    if type_name == "word":
        return _p_word(tok)
    if type_name == "rule":
        return _p_rule(tok)
    if type_name == "chips":
        return _p_chips(tok)
    if type_name == "action":
        return _choice(tok, ACTIONS, "action")
    if type_name == "key":
        return _p_key(tok)
    if type_name == "range":
        return _p_range(tok)
    if type_name in ("declared", "pulled", "mark", "level"):
        return _choice(tok, _CHOICES[type_name], type_name)
    if type_name == "name":
        return _p_name(tok)
    if type_name in ("nonce", "tag", "sha256"):
        return _hex(tok, 32 if type_name == "nonce" else 64, type_name)
    if type_name == "line":
        return _int_token(tok, 1, MAX_DECK_LINES, "line")
    raise ValueError("unknown argument type %r" % type_name)


_CHOICES = {"declared": DECLARED, "pulled": PULLED, "mark": MARKS, "level": LEVELS}


def _format_value(type_name, value):
    if type_name == "chips":
        return _f_chips(value)
    if type_name == "value":
        return _f_value(value)
    if type_name == "range":
        return _f_range(value)
    return str(value)


class Verb:
    """Schema of one verb: who may send it, positional argument types (required, then optional),
    allowed options (key -> type; '*' allows any word key with a value token, for replies and
    state) and whether a quoted text is 'no', 'optional' or 'required'. Built from its _SCHEMA
    row by verb(name) when a line needs it, not held for every verb. The options stay the row's
    text ("key:type,..." in encoding order, "-" for none): the codec looks a key up in it (type_of)
    and walks it in order; `opts` and `opt_order` are made only when asked for (a dict and a tuple
    of small texts were most of the garbage of every console line on the 32-bit port,
    hardware/memory.md, showdown round)."""

    def __init__(self, sender, args=(), optional=(), options="-", text="no"):
        self.sender = sender
        self.args = args
        self.optional = optional
        self.options = options
        self.text = text

    def type_of(self, key):
        """The type of option `key` as the schema declares it ('*' for the open keys), or None."""
        if not isinstance(key, str):
            return None
        f = self.options
        i = 0
        while True:
            j = f.find(":", i)
            if j < 0:
                return None
            end = f.find(",", j)
            if end < 0:
                end = len(f)
            if j - i == len(key) and f.startswith(key, i):
                return f[j + 1:end]
            i = end + 1

    @property
    def opts(self):
        """key -> type of every declared option."""
        return dict([tuple(o.split(":")) for o in _list(self.options)])

    @property
    def opt_order(self):
        """The declared keys in encoding order (dicts are unordered on MicroPython)."""
        return tuple([o.split(":")[0] for o in _list(self.options)])

    @property
    def open_opts(self):
        return self.type_of("*") is not None


# One row a verb: name, sender (c console, t table, b both), required argument types, optional
# argument types, options key:type (in encoding order), text (n no, o optional, r required);
# '-' for none, lists comma-separated. One str constant: on a board it stays in flash (ROMFS),
# where a dict of 31 Verb records cost ~11 KB of RAM for the whole run.
_SCHEMA = """
hello b - - proto:value,role:word,fw:value n
ping b - - - n
pong b - - re:id n
fold c seat - - n
check c seat - - n
call c seat amount declared:declared n
bet c seat,amount - declared:declared n
raise c seat,amount - declared:declared n
allin c seat amount - n
bringin c seat amount - n
complete c seat,amount - - n
post c seat,word amount - n
push c seat,chips - declared:declared,said:amount,prior:chips,pulled:pulled n
confirm c id - - n
reject c id - - n
kill c seat - rule:rule o
misdeal c - - rule:rule o
mark c seat,mark - card:id n
floor c word seat rule:rule,amount:amount o
newhand c - - - n
stack c seat,amount - - n
set c key value - o
get c key - - n
pot c - seat - n
count c seat seat - n
challenge c - - - n
auth c name,nonce,tag - - r
deckline c line - - r
puback c name,tag - - r
bj c word seat,amount - n
ok t - - re:id,nonce:nonce,sha256:sha256,*:value n
error t - - re:id,rule:rule,legal:range,code:word r
propose t id - rule:rule,seat:seat,remedy:word r
alert t level - rule:rule,seat:seat,device:word r
state t - - *:value n
pub t value,line,line - - r
"""
# hello/ping/pong: session. fold..complete: actions (amount = the player's new total on this
# street, BET-8); post: blinds/antes/straddle postings; push: chips pushed silently or after a
# declaration (BET-9..17); confirm..stack: rulings on ASSIST proposals and floor decisions;
# set/get: configuration; pot [ASKER] / count SEAT [ASKER] (1.2): a player's request for the pot
# (BET-26) or an opponent's stack (BET-48), answered `ok pot= max=` / `ok stack= approx=`;
# challenge/auth/deckline (1.1, hardware/security.md section 5): a fresh
# challenge, the answer HMAC(floor key, device, nonce, name, command) with the command as text,
# deck record lines; ok..state: replies and events from the table.
_SENDERS = {"c": CONSOLE, "t": TABLE, "b": BOTH}
_TEXTS = {"n": "no", "o": "optional", "r": "required"}


def _list(field):
    if field == "-":
        return ()
    return tuple(field.split(",")) if "," in field else (field,)


def verb(name):
    """The Verb schema of `name`, or None for an unknown verb. Built on every line the table
    encodes or decodes, so with as few objects as it can (hardware/memory.md, showdown round)."""
    if not name or " " in name or "\n" in name:
        return None
    i = _SCHEMA.find("\n" + name + " ")
    if i < 0:
        return None
    w = _SCHEMA[i + 1:_SCHEMA.find("\n", i + 1)].split(" ")
    return Verb(_SENDERS[w[1]], _list(w[2]), _list(w[3]), w[4], _TEXTS[w[5]])


def verb_names():
    """Every verb of the protocol, in schema order."""
    return [row.split(" ", 1)[0] for row in _SCHEMA.split("\n") if row]


class Message:
    """One console line. `args` are typed positional values, `opts` a dict of typed options,
    `text` a str or None. Equality compares all fields except the wire checksum."""

    def __init__(self, seq, verb, args=(), opts=None, text=None):
        self.seq = seq
        self.verb = verb
        self.args = list(args)
        self.opts = dict(opts or {})
        self.text = text

    def __eq__(self, other):
        return (isinstance(other, Message) and other.seq == self.seq and other.verb == self.verb
                and other.args == self.args and other.opts == self.opts and other.text == self.text)

    def __repr__(self):
        return "Message(%d, %r, %r, %r, %r)" % (self.seq, self.verb, self.args, self.opts, self.text)


try:
    import re

    _NOT_PRINTABLE = re.compile(b"[^ -~]")
except ImportError:  # a port without re: the byte loop alone
    _NOT_PRINTABLE = None


def _crc_tables():
    hi = bytearray(256)
    lo = bytearray(256)
    for n in range(256):
        crc = n << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
        hi[n] = crc >> 8
        lo[n] = crc & 0xFF
    return bytes(hi), bytes(lo)


# CRC of each byte value, high and low halves (512 bytes): one lookup a byte instead of eight
# shifts -- every console line is checked on the way in and out (issue 20: console action cost)
_CRC_HI, _CRC_LO = _crc_tables()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection); "123456789" -> 0x29B1."""
    hi = _CRC_HI
    lo = _CRC_LO
    for b in data:
        i = (crc >> 8) ^ b
        crc = (((crc & 0xFF) ^ hi[i]) << 8) | lo[i]
    return crc


def _quote(text):
    for c in text:
        if c < " " or c > "~":
            raise ValueError("text must be printable ASCII, got %r" % c)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _opt_type(schema, key):
    t = schema.type_of(key)
    if t is None and schema.open_opts and _word_ok(key):
        t = schema.type_of("*")
    return t


def encode(message):
    """Message -> the line as bytes, with checksum and CRLF. Validates like the decoder, so
    whatever is encoded decodes back to an equal Message (ValueError otherwise)."""
    schema = verb(message.verb)
    if schema is None:
        raise ValueError("unknown verb %r" % (message.verb,))
    if not (0 <= message.seq <= MAX_SEQ):
        raise ValueError("seq must be 0..%d" % MAX_SEQ)
    types = schema.args + schema.optional
    if not (len(schema.args) <= len(message.args) <= len(types)):
        raise ValueError("%s takes %d..%d arguments, got %d" % (message.verb, len(schema.args), len(types), len(message.args)))
    parts = [MAGIC, "%d" % message.seq, message.verb]
    for i in range(len(message.args)):
        parts.append(_format(types[i], message.args[i]))
    # Options in schema order, then open keys sorted: the same message always gives the same bytes.
    _declared_opts(schema, message.opts, parts)
    keys = []  # a loop: a comprehension reading `schema` made it a cell on every encode
    for k in message.opts:
        if schema.type_of(k) is None:
            keys.append(k)
    keys.sort()
    for k in keys:
        t = _opt_type(schema, k)
        if t is None:
            raise ValueError("%s does not take option %r" % (message.verb, k))
        parts.append(k + "=" + _format(t, message.opts[k]))
    if message.text is not None:
        if schema.text == "no":
            raise ValueError("%s takes no text" % message.verb)
        parts.append(_quote(message.text))
    elif schema.text == "required":
        raise ValueError("%s needs a text" % message.verb)
    raw = (" ".join(parts) + " ").encode()
    line = raw + ("*%04X" % crc16(raw)).encode()
    # The encoder never emits what the decoder would refuse. Every token above went through the
    # decoder's own _parse, the options through _opt_type and the text through _quote, so what the
    # decoder alone still checks is the line: its length and its bytes (a rule ID's isalpha/isdigit
    # also pass non-ASCII letters and digits on CPython). Only such a line is decoded again, for the
    # decoder's own error: decoding every line made ~2.4 KB of garbage a reply on the 32-bit port.
    if len(line) > MAX_LINE or _NOT_PRINTABLE is None or _NOT_PRINTABLE.search(line) is not None:
        try:
            decode_line(line)
        except ConsoleError as e:
            raise ValueError("cannot encode %s: %s" % (message.verb, e))
    return line + b"\r\n"


def _declared_opts(schema, opts, parts):
    # the options the schema declares, in its order ('*', the open keys, apart), walked in the row's
    # text: no list of keys made
    f = schema.options
    i = 0
    while True:
        j = f.find(":", i)
        if j < 0:
            return
        end = f.find(",", j)
        if end < 0:
            end = len(f)
        for k in opts:
            if k != "*" and isinstance(k, str) and len(k) == j - i and f.startswith(k, i):
                parts.append(k + "=" + _format(f[j + 1:end], opts[k]))
        i = end + 1


def _format(type_name, value):
    tok = _format_value(type_name, value)
    _parse(type_name, tok)
    return tok


def _split(text, seq):
    """Tokens of the body (between seq/verb and '*'); a quoted text may only come last."""
    tokens = []
    quoted = None
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == " ":
            i += 1
            continue
        if c == '"':
            out = []
            i += 1
            while i < n and text[i] != '"':
                if text[i] == "\\":
                    i += 1
                    if i >= n or text[i] not in '"\\':
                        raise ConsoleError("syntax", "bad escape in text", seq)
                out.append(text[i])
                i += 1
            if i >= n:
                raise ConsoleError("syntax", "unterminated text", seq)
            quoted = "".join(out)
            i += 1
            if text[i:].strip():
                raise ConsoleError("syntax", "text must come last", seq)
            break
        j = text.find(" ", i)
        j = n if j < 0 else j
        tokens.append(text[i:j])
        i = j
    return tokens, quoted


def decode_line(raw, sender=None):
    """One line (without line end) -> Message; raises ConsoleError. `sender` (CONSOLE or TABLE)
    restricts the verbs to those that side may send."""
    raw = bytes(raw)
    if len(raw) > MAX_LINE:
        raise ConsoleError("too_long", "line longer than %d bytes" % MAX_LINE, None, raw)
    if _NOT_PRINTABLE is None or _NOT_PRINTABLE.search(raw) is not None:  # one search in C first
        for b in raw:
            if b < 0x20 or b > 0x7E:
                raise ConsoleError("not_ascii", "byte 0x%02X" % b, None, raw)
    text = raw.decode()
    # the magic and the seq found by index (a split made a list and a copy of the rest of the line;
    # every console line is decoded in its main-loop step: hardware/memory.md, showdown round)
    sp = text.find(" ")
    num = None  # the word after the magic
    seq = None
    if sp >= 0:
        end = text.find(" ", sp + 1)
        num = text[sp + 1:] if end < 0 else text[sp + 1:end]
        if num.isdigit() and len(num) <= 5:
            seq = int(num)
    if not text.startswith("FELT"):
        raise ConsoleError("syntax", "line must start with %s" % MAGIC, seq, raw)
    if not text.startswith(MAGIC) or sp != (len(MAGIC) if sp >= 0 else -1) or (sp < 0 and text != MAGIC):
        raise ConsoleError("version", "protocol %s not supported (this side speaks %s)" % (
            text if sp < 0 else text[:sp], MAGIC), seq, raw)
    star = text.rfind(" *")
    if star < 0 or len(text) != star + 6:
        raise ConsoleError("checksum", "missing ' *XXXX' checksum", seq, raw)
    want = text[star + 2:]
    for c in want:
        if c not in "0123456789ABCDEF":
            raise ConsoleError("checksum", "checksum %r is not 4 upper-case hex digits" % want, seq, raw)
    got = crc16(memoryview(raw)[:star + 1])
    if got != int(want, 16):
        raise ConsoleError("checksum", "CRC %s on the line, %04X computed" % (want, got), seq, raw)
    if seq is None or (len(num) > 1 and num[0] == "0") or seq > MAX_SEQ:
        raise ConsoleError("seq", "sequence number must be 0..%d" % MAX_SEQ, None, raw)
    return _decode_body(text[:star], seq, sender, raw)


def _decode_body(text, seq, sender, raw):
    tokens, quoted = _split(text, seq)
    if len(tokens) < 3:
        raise ConsoleError("syntax", "no verb", seq, raw)
    verb_name = tokens[2]
    schema = verb(verb_name)
    if schema is None:
        raise ConsoleError("unknown_verb", "unknown verb %r" % verb_name, seq, raw)
    if sender is not None and schema.sender not in (sender, BOTH):
        raise ConsoleError("direction", "%s may not send %r" % (sender, verb_name), seq, raw)
    positional = []
    opts = {}
    for n in range(3, len(tokens)):
        tok = tokens[n]
        eq_sign = tok.find("=")
        if eq_sign >= 0:
            key = tok[:eq_sign]
            value = tok[eq_sign + 1:]
            t = _opt_type(schema, key)
            if t is None:
                raise ConsoleError("bad_args", "%s does not take option %r" % (verb_name, key), seq, raw)
            if key in opts:
                raise ConsoleError("bad_args", "option %r given twice" % key, seq, raw)
            opts[key] = _typed(t, value, verb_name, seq, raw)
        elif opts:
            raise ConsoleError("syntax", "positional %r after options" % tok, seq, raw)
        else:
            positional.append(tok)
    types = schema.args + schema.optional
    if not (len(schema.args) <= len(positional) <= len(types)):
        raise ConsoleError("bad_args", "%s takes %d..%d arguments, got %d" % (
            verb_name, len(schema.args), len(types), len(positional)), seq, raw)
    for i in range(len(positional)):  # typed in place
        positional[i] = _typed(types[i], positional[i], verb_name, seq, raw)
    args = positional
    if quoted is not None and schema.text == "no":
        raise ConsoleError("bad_args", "%s takes no text" % verb_name, seq, raw)
    if quoted is None and schema.text == "required":
        raise ConsoleError("bad_args", "%s needs a text" % verb_name, seq, raw)
    return Message(seq, verb_name, args, opts, quoted)


def _typed(type_name, tok, verb, seq, raw):
    try:
        return _parse(type_name, tok)
    except ValueError as e:
        raise ConsoleError("bad_args", "%s: %s" % (verb, e), seq, raw)


class Parser:
    """Push parser: feed(bytes) -> [Message | ConsoleError] in order; CR, LF or CRLF end a line,
    empty lines are skipped, an over-long line is reported once and skipped to its end.
    `sender` restricts accepted verbs (CONSOLE on the table side, TABLE on the console side)."""

    def __init__(self, sender=None):
        self.sender = sender
        self._line = bytearray()
        self._overflow = False

    def feed(self, data):
        # a run of bytes up to the next CR/LF is taken in one slice (find() runs in C): the
        # per-byte loop was most of a console line's cost on a board (issue 20)
        events = []
        i = 0
        n = len(data)
        while i < n:
            cr = data.find(b"\r", i)
            lf = data.find(b"\n", i)
            end = cr if lf < 0 or 0 <= cr < lf else lf
            stop = n if end < 0 else end
            if stop > i and not self._overflow:
                room = MAX_LINE - len(self._line)
                if stop - i > room:
                    self._line.extend(data[i:i + room])
                    events.append(ConsoleError("too_long", "line longer than %d bytes" % MAX_LINE, None,
                                               self._line))
                    self._overflow = True
                    self._line = bytearray()
                else:
                    self._line.extend(data[i:stop])
            if end < 0:
                break
            if self._overflow:
                self._overflow = False
            elif self._line:
                events.append(self._decode(self._line))
            self._line = bytearray()
            i = end + 1
        return events

    def _decode(self, line):
        try:
            msg = decode_line(line, self.sender)
        except ConsoleError as e:
            return e
        msg.raw = bytes(line)  # the line as received (CRC included): journaled as it came
        return msg


# ---- builders for the common messages ----

def action(seq, verb, seat, amount=None, declared=None):
    if verb not in ACTIONS:
        raise ValueError("not an action: %r" % (verb,))
    return Message(seq, verb, [seat] if amount is None else [seat, amount], {"declared": declared} if declared else None)


def push(seq, seat, chips, declared=None, said=None, prior=None, pulled=None):
    opts = {}
    for k, v in (("declared", declared), ("said", said), ("prior", prior), ("pulled", pulled)):
        if v is not None:
            opts[k] = v
    return Message(seq, "push", [seat, list(chips)], opts)


def ok(seq, re, **results):
    results["re"] = re
    return Message(seq, "ok", (), results)


def error(seq, re, text, rule=None, legal=None, code=None):
    opts = {"re": re}
    for k, v in (("rule", rule), ("legal", legal), ("code", code)):
        if v is not None:
            opts[k] = v
    return Message(seq, "error", (), opts, text)


def error_reply(seq, exc):
    """The table's reply to a line that failed to decode (ConsoleError) -- names its seq if known."""
    opts = {"code": exc.code}
    if exc.seq is not None:
        opts["re"] = exc.seq
    return Message(seq, "error", (), opts, str(exc)[:120])
