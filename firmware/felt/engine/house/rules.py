# House rules (engine layer, pure; RULES.md §12.2): every `hr.*` key with its legal options and its
# default per mode (cash / tournament), and the HouseRules record of a table. Validation, the rake and
# loading from a dict or text are in values.py; buy-ins and the bad-beat jackpot in cash.py (both
# imported where they are used, loaded on first use).
from collections import namedtuple

from felt.compat import const
from felt.errors import ConfigError

CASH = "cash"
TOURNAMENT = "tournament"
MODES = (CASH, TOURNAMENT)

# Kinds of value a key can take (values.py has the same constants).
_CHOICE = const("choice")  # one of a tuple of strings
_BOOL = const("bool")  # False / True (register writes them `false`, `true`)
_INT = const("int")  # integer in [lo, hi]
_CHIPS = const("chips")  # integer chip amount >= 0, or None = not set (venue sets)
_SECONDS_OFF = const("seconds_or_off")  # "off" or a positive whole number of seconds
_RAKE = const("rake")  # "off" or {"percent": ..., "cap": ...}

_NA = const("n/a")  # the key does not apply in that mode (its value is None there)
_BY_GAME = const("by_game")  # hr.limit_raises_per_round: 3, or 4 for two-round (draw) games (BET-4, D33)

# Games with two betting rounds (single-draw games): their limit cap default is 4 raises (BET-4).
_TWO_ROUND_GAMES = const("draw5 N5D F5D P5D N2L1D")


# One row of the §12.2 register (a namedtuple: small on a microcontroller). key is without "hr.";
# options: legal strings of a _CHOICE key; cash / tournament: defaults (or _NA / _BY_GAME); rules: the
# rule IDs; fixed: a mode in which the value may not be changed (TOUR-12 etc.); lo / hi: _INT range.
HouseRule = namedtuple("HouseRule", "key kind options cash tournament rules fixed lo hi")


# The register, in RULES.md §12.2 order, one row a line: key | kind | options | cash | tournament |
# rules | fixed | lo | hi (lists comma-separated; trailing empty fields left out; bool defaults 0/1;
# "" = None). Defaults follow §0.3 precedence (tournament: TDA19 first; cash: the club's written
# rules first); every seed disagreement of §12.1 is one of these keys. One text, read row by row on
# demand (RAM: hardware/memory.md, Idioms).
_ROWS = const("""
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
bbj_hand|choice|off,four_sevens,four_eights,four_nines,four_tens,four_jacks,four_queens,four_kings,four_aces,straight_flush|off|n/a|CASH-8,CASH-9,CASH-10,CASH-11,CASH-12
cash_action_timer|seconds_or_off||off|n/a|CASH-13""")


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


def _default(row, mode, game):
    # the default of a register row in `mode` (None where n/a; the BET-4 cap by the game's rounds)
    value = row.cash if mode == CASH else row.tournament
    if value == _NA:
        return None
    if value == _BY_GAME:
        return 4 if game in _TWO_ROUND_GAMES.split() else 3
    return value


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


def default(key, mode, game=None):
    """Default of `key` in `mode` (None where the register says n/a)."""
    row = rule_of(key)  # ConfigError naming the known keys if unknown
    if mode not in MODES:
        raise ConfigError("mode must be one of %s, got %r" % (", ".join(MODES), mode))
    return _default(row, mode, game)


class HouseRules:
    """The house-rule record of one table: every §12.2 key as an attribute (without "hr."), set to
    the mode default unless overridden. `rules.sa_definition`, `rules["hr.sa_definition"]` and
    `rules.get("sa_definition")` all read the same value; keys that do not apply in the mode read
    None. Immutable by convention: use replace() to change values (validated, all-or-nothing).
    A default is read from the register the first time its key is read and kept as an attribute
    from then on (a table reads a dozen of the 44 keys; RAM: hardware/memory.md, Idioms)."""

    def __init__(self, mode=CASH, game=None, values=None):
        if mode not in MODES:
            raise ConfigError("mode must be one of %s, got %r" % (", ".join(MODES), mode))
        self.mode = mode
        self.game = game
        self._changed = None  # changed(), worked out once
        given = {}
        if values:
            from felt.engine.house.values import validate

            # validate everything first so a bad value leaves nothing half-applied
            for key in sorted(values):
                given[_bare(key)] = validate(key, values[key], mode)
        self._given = given
        for key in given:
            setattr(self, key, given[key])

    def __getattr__(self, name):
        # only for a name not set yet: a register key's default, then kept (no second lookup)
        row = _row(name)
        if row is None:
            raise AttributeError(name)
        value = _default(row, self.mode, self.game)
        setattr(self, name, value)
        return value

    def __getitem__(self, key):
        return getattr(self, rule_of(key).key)

    def get(self, key, fallback=None):
        bare = _bare(key)
        # a register key? looked up in the register text as _row() does, without building its record
        # (BLIND-* read four keys at every new hand: hardware/memory.md, showdown round)
        if not bare or "|" in bare or "\n" in bare or _ROWS.find("\n" + bare + "|") < 0:
            return fallback
        return getattr(self, bare)

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
        out = self._changed
        if out is None:
            out = []
            for key in sorted(self._given):
                value = self._given[key]
                if value != _default(_row(key), self.mode, self.game):
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
