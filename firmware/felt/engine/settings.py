# House rules (RULES.md §12.2): every `hr.*` key with its legal options and its default per mode
# (cash / tournament), validation that names the key and the legal options (ConfigError), loading
# from a plain dict or a small JSON / "key = value" text, the rake (CASH-7 / POT-20) and the jackpot
# drop (CASH-12); buy-ins and the bad-beat jackpot (CASH-1/2, CASH-8..11) are in cashrules.py,
# reached through this module. Engine layer: pure.
from collections import namedtuple

from felt.errors import ConfigError

CASH = "cash"
TOURNAMENT = "tournament"
MODES = (CASH, TOURNAMENT)

# Kinds of value a key can take.
_CHOICE = "choice"  # one of a tuple of strings
_BOOL = "bool"  # False / True (register writes them `false`, `true`)
_INT = "int"  # integer in [lo, hi]
_CHIPS = "chips"  # integer chip amount >= 0, or None = not set (venue sets)
_SECONDS_OFF = "seconds_or_off"  # "off" or a positive whole number of seconds
_RAKE = "rake"  # "off" or {"percent": ..., "cap": ...}

_NA = "n/a"  # the key does not apply in that mode (its value is None there)
_BY_GAME = "by_game"  # hr.limit_raises_per_round: 3, or 4 for two-round (draw) games (BET-4, D33)

# Games with two betting rounds (single-draw games): their limit cap default is 4 raises (BET-4).
_TWO_ROUND_GAMES = ("draw5", "N5D", "F5D", "P5D", "N2L1D")


# One row of the §12.2 register (a namedtuple: small on a microcontroller). key is without "hr.";
# options: legal strings of a _CHOICE key; cash / tournament: defaults (or _NA / _BY_GAME); rules: the
# rule IDs; fixed: a mode in which the value may not be changed (TOUR-12 etc.); lo / hi: _INT range.
HouseRule = namedtuple("HouseRule", "key kind options cash tournament rules fixed lo hi")


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


# The register, in RULES.md §12.2 order, one row a line: key | kind | options | cash | tournament |
# rules | fixed | lo | hi (lists comma-separated; trailing empty fields left out; bool defaults 0/1;
# "" = None). Defaults follow §0.3 precedence (tournament: TDA19 first; cash: the club's written
# rules first); every seed disagreement of §12.1 is one of these keys. Kept as one constant and
# read row by row on demand: 44 namedtuples with their option tuples cost ~15 KB of a board's RAM
# (hardware/memory.md); the defaults of a mode are built once (_defaults).
_ROWS = """
initial_button|choice|high_card_by_suit,first_highest_dealt,first_seated|high_card_by_suit|high_card_by_suit|BLIND-1
button_mode|choice|dead,moving|dead|dead|BLIND-4,BLIND-5,TOUR-12|tournament
headsup_blinds|choice|button_is_sb,button_is_bb|button_is_sb|button_is_sb|BLIND-6
missed_blind_makeup|choice|standard,s0_penalty_literal,bb_only|standard|n/a|BLIND-14
straddle|choice|off,utg_2x|off|off|BLIND-20|tournament
blind_chop|choice|off,on|off|off|BLIND-26|tournament
limit_raises_per_round|int||by_game|by_game|BET-4||1|10
limit_headsup_uncapped|choice|cash_rule,event_heads_up_only|cash_rule|event_heads_up_only|BET-5,TOUR-13
fifty_pct_basis|choice|largest_full_increment,previous_bet|largest_full_increment|largest_full_increment|BET-9
multichip_silent|choice|tda,raise_evident|tda|tda|BET-14
nl_short_allin_reopen|choice|full_raise,half_raise|full_raise|full_raise|BET-18
limit_short_allin_reopen|choice|at_least_half,more_than_half|more_than_half|at_least_half|BET-21
public_pot_display|choice|pl_only,always,never|pl_only|pl_only|BET-26
undercall_cash|choice|must_correct,complete_or_forfeit|must_correct|n/a|BET-30
two_motion_raise|bool||0|0|BET-36
oot_mode|choice|tda2019,club_chips_stay|club_chips_stay|tda2019|BET-39,BET-40
skipped_player_forfeit|choice|sa,two_actions,three_players|two_actions|sa|BET-41
stack_display|choice|tda_on_request,approximate_any_time|approximate_any_time|tda_on_request|BET-48
sa_definition|choice|tda,two_actions|two_actions|tda|DEAL-6
boxed_misdeal_threshold|int||2|2|DEAL-7||2|3
single_extra_card|choice|burn,misdeal|burn|misdeal|DEAL-10,DEAL-16
foreign_card_after_sa|choice|scrap,void_refund|void_refund|scrap|DEAL-19
noburn_flop|choice|tda_random,restore_order|restore_order|tda_random|DEAL-28
premature_turn|choice|tda2019,tda2017|tda2019|tda2019|DEAL-31
presence_check|choice|console,seat_button|console|console|DEAL-39
self_exposure|choice|live_penalty,cash_club|cash_club|live_penalty|DEAL-41
stud_exposed_downcard|choice|tda2019,tda2017,tda2004|tda2019|tda2019|DEAL-42
premature_stud|choice|tda2019,tda2017|tda2019|tda2019|DEAL-45
draw_max_replace|int||5|5|GAME-15,DEAL-47||0|5
stud5_first_action|choice|bring_in_lowest,highest_card|bring_in_lowest|bring_in_lowest|GAME-14
stud_odd_chip_low|choice|high_card_by_suit,lowest_card|high_card_by_suit|high_card_by_suit|POT-12
hilo_identical_scoop|choice|even_split,halves_then_odd|even_split|even_split|POT-15
rake|rake||off|off|POT-20,CASH-7
allin_face_up|choice|immediate,at_showdown|at_showdown|immediate|GAME-7,POT-7,SHOW-7,SHOW-8,SHOW-9
show_request|choice|tda2019,club_cash,any_caller|club_cash|tda2019|SHOW-11
nut_check_last_to_act|choice|flag_only,require_bet|flag_only|flag_only|SHOW-19
clock|choice|tda2019,legacy_60_10|n/a|tda2019|TOUR-6
simultaneous_bust|choice|start_stack_order|n/a|start_stack_order|TOUR-9
balance_move|choice|tda2019,tda2004|n/a|tda2019|TOUR-14
penalty_unit|choice|hands,minutes|n/a|hands|TOUR-17
stud_open_pair_double|choice|off,on|off|off|TOUR-20
short_buyin_once|bool||0|n/a|CASH-2
bbj_min_rake|chips|||n/a|CASH-9
cash_action_timer|seconds_or_off||off|n/a|CASH-13"""


def _value(kind, text):
    if text == _NA or text == _BY_GAME:
        return text
    if kind == _BOOL:
        return text == "1"
    if kind == _INT:
        return int(text)
    if kind == _CHIPS:
        return int(text) if text else None
    return text


def _row(key):
    # the register row of a bare key, or None (a key holding a separator is no key: "x|y" must not
    # match inside a row)
    if not key or "|" in key or "\n" in key:
        return None
    at = _ROWS.find("\n" + key + "|")
    if at < 0:
        return None
    end = _ROWS.find("\n", at + 1)
    f = _ROWS[at + 1:end if end >= 0 else len(_ROWS)].split("|")
    f += [""] * (9 - len(f))
    kind = f[1]
    return HouseRule(f[0], kind, tuple(f[2].split(",")) if f[2] else None, _value(kind, f[3]),
                     _value(kind, f[4]), tuple(f[5].split(",")), f[6] or None,
                     int(f[7]) if f[7] else None, int(f[8]) if f[8] else None)


def _order():
    # the keys in §12.2 order (new strings each call: nothing kept at import)
    return [line.split("|", 1)[0] for line in _ROWS.split("\n") if line]


def register():
    """Every register row (HouseRule records, built on each call), in §12.2 order."""
    return tuple([_row(k) for k in _order()])


_CASH_RULES = ("check_buy_in", "check_short_buy_in", "jackpot_shares", "bad_beat")


def __getattr__(name):
    # settings.REGISTER (the rows as records), ORDER (keys in §12.2 order) and KEYS (sorted), as
    # before, but built when asked for and not kept; the CASH-* functions from cashrules.py
    if name == "REGISTER":
        return register()
    if name == "ORDER":
        return tuple(_order())
    if name == "KEYS":
        return tuple(sorted(_order()))
    if name in _CASH_RULES:
        from felt.engine import cashrules

        return getattr(cashrules, name)
    raise AttributeError(name)


_DEFAULTS = {}  # (mode, two-round game) -> {key: default}


class _Holder:
    pass


def _defaults(mode, game):
    two = game in _TWO_ROUND_GAMES
    got = _DEFAULTS.get((mode, two))
    if got is None:
        # set as attributes of a bare holder, then its dict kept: attribute names are interned,
        # so the cached keys are no heap strings (~3 KB less RAM than a dict of split() keys)
        got = _Holder()
        for key in _order():
            row = _row(key)
            value = row.cash if mode == CASH else row.tournament
            if value == _NA:
                value = None
            elif value == _BY_GAME:
                value = 4 if two else 3
            setattr(got, key, value)
        got = _DEFAULTS[(mode, two)] = got.__dict__
    return got


def _bare(key):
    if not isinstance(key, str):
        raise ConfigError("house-rule key must be text, got %r" % (key,))
    return key[3:] if key.startswith("hr.") else key


def rule_of(key):
    """The register row of `key` ("hr.sa_definition" or "sa_definition"); ConfigError if unknown."""
    row = _row(_bare(key))
    if row is None:
        raise ConfigError("unknown house rule %r; known keys: %s" % (key, ", ".join(["hr." + k for k in sorted(_order())])))
    return row


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


def default(key, mode, game=None):
    """Default of `key` in `mode` (None where the register says n/a)."""
    bare = _bare(key)
    if mode not in MODES:
        rule_of(key)
        raise ConfigError("mode must be one of %s, got %r" % (", ".join(MODES), mode))
    got = _defaults(mode, game)
    if bare not in got:
        rule_of(key)  # raises ConfigError naming the known keys
    return got[bare]


class HouseRules:
    """The house-rule record of one table: every §12.2 key as an attribute (without "hr."), set to
    the mode default unless overridden. `rules.sa_definition`, `rules["hr.sa_definition"]` and
    `rules.get("sa_definition")` all read the same value; keys that do not apply in the mode read
    None. Immutable by convention: use replace() to change values (validated, all-or-nothing)."""

    def __init__(self, mode=CASH, game=None, values=None):
        if mode not in MODES:
            raise ConfigError("mode must be one of %s, got %r" % (", ".join(MODES), mode))
        self.mode = mode
        self.game = game
        chosen = dict(_defaults(mode, game))
        if values:
            # validate everything first so a bad value leaves nothing half-applied
            for key in sorted(values):
                chosen[_bare(key)] = validate(key, values[key], mode)
        for key in chosen:
            setattr(self, key, chosen[key])

    def __getitem__(self, key):
        return getattr(self, rule_of(key).key)

    def get(self, key, fallback=None):
        bare = _bare(key)
        return getattr(self, bare) if bare in _defaults(self.mode, self.game) else fallback

    def as_dict(self):
        """{"hr.<key>": value} for every key (n/a keys included as None)."""
        out = {}
        for key in _order():
            out["hr." + key] = getattr(self, key)
        return out

    def changed(self):
        """Sorted [(hr.key, value)] of values that differ from the mode defaults."""
        # The record is immutable by convention (replace() makes a new one), so the scan of
        # every key runs once per record, not once per Hand that asks (replay speed).
        out = getattr(self, "_changed", None)
        if out is None:
            out = []
            defaults = _defaults(self.mode, self.game)
            for key in sorted(_order()):
                value = getattr(self, key)
                if value != defaults[key]:
                    out.append(("hr." + key, value))
            self._changed = out
        return list(out)

    def replace(self, values):
        """A new record with `values` applied on top of this one's changes."""
        merged = {}
        for key, value in self.changed():
            merged[key[3:]] = value
        for key in values:
            merged[_bare(key)] = values[key]
        return HouseRules(self.mode, self.game, merged)

    def __eq__(self, other):
        return isinstance(other, HouseRules) and other.mode == self.mode and other.as_dict() == self.as_dict()

    def __repr__(self):
        return "HouseRules(%r, changed=%r)" % (self.mode, self.changed())


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
