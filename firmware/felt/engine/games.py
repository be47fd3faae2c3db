# Games as data (engine layer, pure): every variant Felt deals is one Game record of Street
# records, so the hand state machine has no per-game code paths (GAME-1). Keys are PHH variant
# codes plus Felt codes for games PHH lacks; game_for() maps the RULES.md names.
from collections import namedtuple

from felt.compat import const
from felt.errors import ConfigError

# How the first actor of a street is chosen (GAME-3/4/11/12, razz as pokerkit does it).
OPEN_POSITION = "position"  # left of the largest blind preflop, left of the button later
OPEN_LOW_CARD = "low_card"  # stud 3rd street: lowest upcard brings in (ace high, clubs lowest)
OPEN_HIGH_CARD = "high_card"  # razz 3rd street: highest upcard (ace low) brings in
OPEN_HIGH_HAND = "high_hand"  # stud later streets: best showing hand (RANK-20)
OPEN_LOW_HAND = "low_hand"  # razz later streets: best (lowest) showing hand

# One betting round and the cards before it.
#   burn: a burn precedes the street's cards;  hole: up-flag per hole card dealt to each player
#   board: community cards;  draw: players discard and are replaced before the betting
#   big: fixed limit uses the big bet (BET-2);  opening: OPEN_* above
Street = namedtuple("Street", "burn hole board draw big opening")

# code: PHH/Felt code; structure: "limit" | "pot_limit" | "no_limit"; family: "board" | "stud" | "draw"
# hi: evaluator for the high (or only) half: "high" "omaha" "short" "low27" "lowA5" "badugi"
# lo: None or "low8" (8-or-better, RANK-15..18); deck: "standard" | "short" (36 cards, 6 and up)
# forced: "blinds" | "bring_in"; max_players; raises: default hr.limit_raises_per_round (BET-4)
Game = namedtuple("Game", "code name structure family streets hi lo deck forced max_players raises")

def _board_streets(hole_count):
    return (
        Street(False, (False,) * hole_count, 0, False, False, OPEN_POSITION),
        Street(True, (), 3, False, False, OPEN_POSITION),
        Street(True, (), 1, False, True, OPEN_POSITION),
        Street(True, (), 1, False, True, OPEN_POSITION),
    )


def _stud7_streets(low):
    first = OPEN_HIGH_CARD if low else OPEN_LOW_CARD
    later = OPEN_LOW_HAND if low else OPEN_HIGH_HAND
    return (
        Street(False, (False, False, True), 0, False, False, first),
        Street(True, (True,), 0, False, False, later),
        Street(True, (True,), 0, False, True, later),
        Street(True, (True,), 0, False, True, later),
        Street(True, (False,), 0, False, True, later),
    )


def _stud5_streets():  # built with the first stud5 game record, not at import
    return (  # GAME-14: 1 down + 1 up, then three single upcards; big bet rounds 3-4 (BET-2)
        Street(False, (False, True), 0, False, False, OPEN_LOW_CARD),
        Street(True, (True,), 0, False, False, OPEN_HIGH_HAND),
        Street(True, (True,), 0, False, True, OPEN_HIGH_HAND),
        Street(True, (True,), 0, False, True, OPEN_HIGH_HAND),
    )


def _draw_streets(hole_count, draws, big_from):
    # big_from: index of the first street played with the big bet
    streets = [Street(False, (False,) * hole_count, 0, False, False, OPEN_POSITION)]
    for i in range(1, draws + 1):
        streets.append(Street(True, (), 0, True, i >= big_from, OPEN_POSITION))
    return tuple(streets)


# The register of games, one row each: code | name | structure | family | streets | hi | lo |
# forced | max_players | raises ("" = the default: lo None, blinds, 10 players, 3 raises; the deck
# is "short" for the short-deck game only). A record is built the first time a hand asks for its
# game (RAM: hardware/memory.md, Idioms).
_ROWS = const("""NT|no-limit hold'em|no_limit|board|H|||||
PT|pot-limit hold'em|pot_limit|board|H|||||
FT|fixed-limit hold'em|limit|board|H|||||
NS|no-limit short-deck hold'em|no_limit|board|H|short||||
PO|pot-limit Omaha|pot_limit|board|O|omaha||||
FO|fixed-limit Omaha|limit|board|O|omaha||||
NO|no-limit Omaha|no_limit|board|O|omaha||||
PO/8|pot-limit Omaha hi-lo 8 or better|pot_limit|board|O|omaha|low8|||
FO/8|fixed-limit Omaha hi-lo 8 or better|limit|board|O|omaha|low8|||
F7S|fixed-limit 7-card stud|limit|stud|S7|||bring_in|8|
F7S/8|fixed-limit 7-card stud hi-lo 8 or better|limit|stud|S7||low8|bring_in|8|
FR|fixed-limit razz|limit|stud|R7|lowA5||bring_in|8|
F5S|fixed-limit 5-card stud|limit|stud|S5|||bring_in||
P5S|pot-limit 5-card stud|pot_limit|stud|S5|||bring_in||
N5S|no-limit 5-card stud|no_limit|stud|S5|||bring_in||
F5D|fixed-limit 5-card draw|limit|draw|D1||||6|4
P5D|pot-limit 5-card draw|pot_limit|draw|D1||||6|
N5D|no-limit 5-card draw|no_limit|draw|D1||||6|
N2L1D|no-limit 2-7 single draw|no_limit|draw|D1|low27|||6|
F2L3D|fixed-limit 2-7 triple draw|limit|draw|D35|low27|||6|
FB|fixed-limit badugi|limit|draw|D34|badugi|||6|""")
# Notes kept from the rows: pokerkit plays FO/8 pot-limit; RULES GAME-1 and the code say fixed
# limit, and so do we. F5D: two betting rounds, so bet + 4 raises (BET-4, S3).


def _streets(kind):
    if kind == "H" or kind == "O":
        return _board_streets(2 if kind == "H" else 4)
    if kind == "S7" or kind == "R7":
        return _stud7_streets(kind == "R7")
    if kind == "S5":
        return _stud5_streets()
    if kind == "D1":
        return _draw_streets(5, 1, 1)
    return _draw_streets(int(kind[2]), 3, 2)  # D35 / D34: triple draw of 5 or 4 cards


def _record(line):
    f = line.split("|")
    hi = f[5] or "high"
    return Game(f[0], f[1], f[2], f[3], _streets(f[4]), hi, f[6] or None,
                "short" if hi == "short" else "standard", f[7] or "blinds", int(f[8] or 10), int(f[9] or 3))


class _Games:
    """GAMES[code], GAMES.get(code), `code in GAMES`, iteration over the codes: the register above,
    a record built on first use and kept (so GAMES[code] is always the same record)."""

    def __init__(self):
        self._built = {}

    def get(self, code, fallback=None):
        record = self._built.get(code)
        if record is None and isinstance(code, str):
            for line in _ROWS.split("\n"):  # only the first time a game is asked for
                if line.split("|", 1)[0] == code:
                    record = self._built[code] = _record(line)
                    break
        return fallback if record is None else record

    def __getitem__(self, code):
        record = self.get(code)
        if record is None:
            raise KeyError(code)
        return record

    def __contains__(self, code):
        return self.get(code) is not None

    def __iter__(self):
        return iter([line.split("|", 1)[0] for line in _ROWS.split("\n")])

    def __len__(self):
        return _ROWS.count("\n") + 1


GAMES = _Games()

# RULES.md names -> the parts of a code: structure letter + game ("omaha8", "limit" -> "F" + "O/8"),
# as texts read on use (RAM: hardware/memory.md, Idioms).
_GAME_PARTS = const(" holdem:T omaha:O omaha8:O/8 stud7:7S stud7_8:7S/8 stud5:5S draw5:5D ")
_STRUCTURE_PARTS = const(" limit:F pot_limit:P no_limit:N ")


def _part(parts, name):
    if not isinstance(name, str) or " " in name or ":" in name:
        return None  # not a name: must not match across entries ("holdem:T omaha")
    key = " " + name + ":"
    at = parts.find(key)
    if at < 0:
        return None
    at += len(key)
    return parts[at:parts.find(" ", at)]


def game_for(game, structure):
    """The Game record for a RULES.md game name and structure (GAME-1, BET-1),
    e.g. game_for("omaha8", "limit") is GAMES["FO/8"]."""
    code = _part(_GAME_PARTS, game)
    letter = _part(_STRUCTURE_PARTS, structure)
    record = GAMES.get(letter + code) if code and letter else None
    if record is None:
        raise ConfigError("GAME-1: no game %r with structure %r" % (game, structure))
    return record
