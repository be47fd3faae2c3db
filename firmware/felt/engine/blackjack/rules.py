# Blackjack house rules (engine layer, pure; hardware/rules-blackjack.md §2): every option the seed
# names, and those common casino practice varies, as one named key with its legal values, its
# default and the BJ-* rule it governs. BlackjackRules is the record a round reads; text() and
# parse() give the one-token-a-key form the round histories carry (hardware/blackjack-history.md).
from felt.errors import ConfigError

_BOOL = "bool"
_INT = "int"

# key | kind (a comma list of choices, bool or int lo..hi) | default | rule ID
_ROWS = """
soft17|stand,hit|stand|BJ-18
blackjack_pays|3:2,6:5|3:2|BJ-19
payout_rounding|down,up,exact|down|BJ-20
double_on|any_two,9_11,10_11|any_two|BJ-8
double_after_split|bool|1|BJ-9
redouble|bool|0|BJ-10
split_match|rank,pictures,value|pictures|BJ-11
split_max_hands|int 1..8|4|BJ-13
resplit_aces|bool|0|BJ-12
split_aces_one_card|bool|1|BJ-12
surrender|none,late|none|BJ-14
surrender_vs_ace|bool|1|BJ-14
insurance|bool|1|BJ-15
even_money|bool|1|BJ-16
hole_card|peek,enhc|peek|BJ-17
enhc_loses|all,original|all|BJ-17
boxes|int 1..7|7|BJ-3
min_bet|int 1..1000000|1|BJ-3
max_bet|int 1..100000000|10000|BJ-3
decks|int 1..8|6|BJ-22
cut_card|tag,count|tag|BJ-23
cut_percent|int 10..95|75|BJ-23
"""


def _rows():
    out = []
    for line in _ROWS.split("\n"):
        if line:
            out.append(line.split("|"))
    return out


def _convert(key, kind, value):
    # a value given as text (a history, a config file) or as itself; ConfigError names the key
    if kind == _BOOL:
        if value in (True, 1, "1", "true", "on", "yes"):
            return True
        if value in (False, 0, "0", "false", "off", "no"):
            return False
        raise ConfigError("bj.%s is true or false, not %r" % (key, value))
    if kind.startswith(_INT):
        lo, hi = kind[4:].split("..")
        try:
            n = int(value)
        except (TypeError, ValueError):
            n = None
        if n is None or isinstance(value, bool) or isinstance(value, float) or n < int(lo) or n > int(hi):
            raise ConfigError("bj.%s is a whole number in %s..%s, not %r" % (key, lo, hi, value))
        return n
    options = kind.split(",")
    if value not in options:
        raise ConfigError("bj.%s is one of %s, not %r" % (key, ", ".join(options), value))
    return value


def keys():
    """Every house-rule key, in register order."""
    return [r[0] for r in _rows()]


def rule_of(key):
    """The BJ-* rule a key governs; ConfigError for an unknown key."""
    for r in _rows():
        if r[0] == key:
            return r[3]
    raise ConfigError("unknown blackjack house rule %r; known: %s" % (key, ", ".join(keys())))


class BlackjackRules:
    """The house rules of a blackjack table: every key of the register as an attribute, the
    default unless `values` ({key: value}, values may be text) says otherwise. Everything is
    validated before anything is set; the record is immutable by convention (replace())."""

    def __init__(self, values=None):
        values = dict(values or {})
        got = {}
        for key, kind, default, _rule in _rows():
            if key in values:
                got[key] = _convert(key, kind, values.pop(key))
            else:
                got[key] = _convert(key, kind, default)
        if values:
            raise ConfigError("unknown blackjack house rule(s) %s; known: %s"
                              % (", ".join(sorted(values)), ", ".join(keys())))
        if got["min_bet"] > got["max_bet"]:
            raise ConfigError("bj.min_bet %d is above bj.max_bet %d" % (got["min_bet"], got["max_bet"]))
        for key in got:
            setattr(self, key, got[key])

    def as_dict(self):
        return dict([(k, getattr(self, k)) for k in keys()])

    def replace(self, values):
        merged = self.as_dict()
        merged.update(values)
        return BlackjackRules(merged)

    def text(self):
        """'key=value' tokens for the keys that differ from the defaults, register order, space
        separated ('' for the defaults): what a round history records."""
        out = []
        base = BlackjackRules()
        for key in keys():
            v = getattr(self, key)
            if v != getattr(base, key):
                out.append("%s=%s" % (key, (1 if v else 0) if v is True or v is False else v))
        return " ".join(out)

    def __eq__(self, other):
        return isinstance(other, BlackjackRules) and other.as_dict() == self.as_dict()

    def __repr__(self):
        return "BlackjackRules(%s)" % (self.text() or "defaults")


def parse(text):
    """BlackjackRules from 'key=value key=value' (text() inverted); ConfigError on a bad token."""
    values = {}
    for token in text.split():
        at = token.find("=")
        if at <= 0:
            raise ConfigError("a blackjack house rule is key=value, not %r" % (token,))
        values[token[:at]] = token[at + 1:]
    return BlackjackRules(values)
