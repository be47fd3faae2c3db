# Games as data (engine layer, pure): every variant Felt deals is one Game record of Street
# records, so the hand state machine has no per-game code paths (GAME-1). Keys are PHH variant
# codes plus Felt codes for games PHH lacks; game_for() maps the RULES.md names.
from collections import namedtuple

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

_P = OPEN_POSITION


def _board_streets(hole_count):
    return (
        Street(False, (False,) * hole_count, 0, False, False, _P),
        Street(True, (), 3, False, False, _P),
        Street(True, (), 1, False, True, _P),
        Street(True, (), 1, False, True, _P),
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


_STUD5_STREETS = (  # GAME-14: 1 down + 1 up, then three single upcards; big bet rounds 3-4 (BET-2)
    Street(False, (False, True), 0, False, False, OPEN_LOW_CARD),
    Street(True, (True,), 0, False, False, OPEN_HIGH_HAND),
    Street(True, (True,), 0, False, True, OPEN_HIGH_HAND),
    Street(True, (True,), 0, False, True, OPEN_HIGH_HAND),
)


def _draw_streets(hole_count, draws, big_from):
    # big_from: index of the first street played with the big bet
    streets = [Street(False, (False,) * hole_count, 0, False, False, _P)]
    for i in range(1, draws + 1):
        streets.append(Street(True, (), 0, True, i >= big_from, _P))
    return tuple(streets)


def _game(code, name, structure, family, streets, hi, lo=None, deck="standard", forced="blinds",
          max_players=10, raises=3):
    return Game(code, name, structure, family, streets, hi, lo, deck, forced, max_players, raises)


_HOLDEM = _board_streets(2)
_OMAHA = _board_streets(4)
_STUD7 = _stud7_streets(False)
_RAZZ = _stud7_streets(True)
_DRAW1 = _draw_streets(5, 1, 1)
_DRAW3_5 = _draw_streets(5, 3, 2)
_DRAW3_4 = _draw_streets(4, 3, 2)

GAMES = {}
for _g in (
    _game("NT", "no-limit hold'em", "no_limit", "board", _HOLDEM, "high"),
    _game("PT", "pot-limit hold'em", "pot_limit", "board", _HOLDEM, "high"),
    _game("FT", "fixed-limit hold'em", "limit", "board", _HOLDEM, "high"),
    _game("NS", "no-limit short-deck hold'em", "no_limit", "board", _HOLDEM, "short", deck="short"),
    _game("PO", "pot-limit Omaha", "pot_limit", "board", _OMAHA, "omaha"),
    _game("FO", "fixed-limit Omaha", "limit", "board", _OMAHA, "omaha"),
    _game("NO", "no-limit Omaha", "no_limit", "board", _OMAHA, "omaha"),
    _game("PO/8", "pot-limit Omaha hi-lo 8 or better", "pot_limit", "board", _OMAHA, "omaha", "low8"),
    # pokerkit plays FO/8 pot-limit; RULES GAME-1 and the code say fixed limit, and so do we.
    _game("FO/8", "fixed-limit Omaha hi-lo 8 or better", "limit", "board", _OMAHA, "omaha", "low8"),
    _game("F7S", "fixed-limit 7-card stud", "limit", "stud", _STUD7, "high", forced="bring_in",
          max_players=8),
    _game("F7S/8", "fixed-limit 7-card stud hi-lo 8 or better", "limit", "stud", _STUD7, "high", "low8",
          forced="bring_in", max_players=8),
    _game("FR", "fixed-limit razz", "limit", "stud", _RAZZ, "lowA5", forced="bring_in", max_players=8),
    _game("F5S", "fixed-limit 5-card stud", "limit", "stud", _STUD5_STREETS, "high", forced="bring_in"),
    _game("P5S", "pot-limit 5-card stud", "pot_limit", "stud", _STUD5_STREETS, "high", forced="bring_in"),
    _game("N5S", "no-limit 5-card stud", "no_limit", "stud", _STUD5_STREETS, "high", forced="bring_in"),
    # two betting rounds: bet + 4 raises (BET-4, S3)
    _game("F5D", "fixed-limit 5-card draw", "limit", "draw", _DRAW1, "high", max_players=6, raises=4),
    _game("P5D", "pot-limit 5-card draw", "pot_limit", "draw", _DRAW1, "high", max_players=6),
    _game("N5D", "no-limit 5-card draw", "no_limit", "draw", _DRAW1, "high", max_players=6),
    _game("N2L1D", "no-limit 2-7 single draw", "no_limit", "draw", _DRAW1, "low27", max_players=6),
    _game("F2L3D", "fixed-limit 2-7 triple draw", "limit", "draw", _DRAW3_5, "low27", max_players=6),
    _game("FB", "fixed-limit badugi", "limit", "draw", _DRAW3_4, "badugi", max_players=6),
):
    GAMES[_g.code] = _g

_STRUCTURE_LETTER = {"limit": "F", "pot_limit": "P", "no_limit": "N"}
_GAME_CODE = {"holdem": "%sT", "omaha": "%sO", "omaha8": "%sO/8", "stud7": "%s7S", "stud7_8": "%s7S/8",
              "stud5": "%s5S", "draw5": "%s5D"}


def game_for(game, structure):
    """The Game record for a RULES.md game name and structure (GAME-1, BET-1),
    e.g. game_for("omaha8", "limit") is GAMES["FO/8"]."""
    pattern = _GAME_CODE.get(game)
    letter = _STRUCTURE_LETTER.get(structure)
    record = GAMES.get(pattern % letter) if pattern and letter else None
    if record is None:
        raise ConfigError("GAME-1: no game %r with structure %r" % (game, structure))
    return record
