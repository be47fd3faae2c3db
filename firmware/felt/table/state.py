# Table controller state names and small helpers (controller layer, pure): the table's states, the
# Hand phases it follows, antenna capacities and the proposal kinds that hold the action. Shared by
# felt.table.controller (Table) and the function modules of felt/table it loads.
from felt.engine.dealing.plan import FOREIGN  # noqa: F401 (for the table parts)

BETTING = "bet"  # Hand.phase values (engine/hand.py BET, DRAW, SHOWDOWN)
DRAW = "draw"
SHOWDOWN = "showdown"

IDLE = "idle"  # no hand yet
PLAYING = "playing"
OVER = "over"  # the last hand ended; the next `hand` starts another
VOID = "void"  # the last hand was void (fouled deck DEAL-18, a floor void): every bet returned

QUIET = ("deal_complete", "substantial_action")  # findings that are log lines, not alerts
SEAT_CAP = 8  # cards one seat antenna may hold (7-card stud + one)
CAPACITY = {"board": 5, "burn": 4}
HOLD = ("noburn_flop", "burn_error", "four_card_flop")  # proposals that may rebuild the board
PICK = ("four_card_flop", "noburn_flop")  # remedies where the floor picks a card (DEAL-27, DEAL-28)
CONFIG_NUMBERS = ("sb", "bb", "ante", "bring_in", "small_bet", "big_bet", "unit")  # console `set` keys


def location_place(location):
    """'seat3' -> 3; 'board'/'burn'/'muck' unchanged (antenna location -> dealing place)."""
    if location.startswith("seat"):
        return int(location[4:])
    return location


def place_text(place):
    if place is None:
        return "nowhere"
    return "seat %d" % place if isinstance(place, int) else "the " + place
