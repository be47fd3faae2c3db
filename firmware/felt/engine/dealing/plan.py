# The dealing plan (engine layer, pure): what the dealing check (check.py) expects of one hand -- the seats
# dealt in, in dealing order (DEAL-2, DEAL-5), and per street the burn, the hole cards (down/up) and the
# board cards; built from plain data or a games.Game's `streets` (no import of games.py). Also the places
# a card lands, DealCheck's phases and the card words of the findings (Finding itself: engine/findings.py).
from felt.errors import ConfigError

FAMILY_BOARD = "board"  # hold'em, omaha: hole cards + community board
FAMILY_STUD = "stud"  # stud: hole cards (some up) on every street, no board
FAMILY_DRAW = "draw"  # draw: hole cards, then discard-and-replace streets

# Places a card can land (besides a seat number 1..10). None = nowhere = a burn (DEAL-3).
BOARD = "board"
BURN = "burn"
MUCK = "muck"
STUB = "stub"  # only for foreign(): a foreign card found in the undealt stub
FOREIGN = -2  # a non-standard card (joker, other deck) in a holding; see foreign()

# DealCheck.phase (check.py)
DEALING = "dealing"  # the current street's cards are being dealt
BETTING = "betting"  # the current street's cards are out; its betting is open
SHOWDOWN = "showdown"  # the last street's betting closed
OVER = "over"  # the hand ended; a draw now is rabbit hunting (DEAL-49)
MISDEALT = "misdealt"  # a confirmed misdeal: redeal with redeal_plan() (DEAL-14)
VOID = "void"  # a confirmed fouled deck or void hand: every bet returned (DEAL-18, DEAL-19)

_RANKS = "23456789TJQKA"
_SUITS = "cdhs"


def card_text(card):
    if card == FOREIGN:
        return "the foreign card"
    return _RANKS[card >> 2] + _SUITS[card & 3]


def cards_text(cards):
    return " ".join(card_text(c) for c in cards)


def seventh_street(stub, players, earlier_burns=3):
    """DEAL-46: how 7th street is dealt from a stub of `stub` cards to `players` players.
    "deal" (enough cards), "A" (scramble stub + earlier burns, deal one each), "B" (burn, one community
    card), "C" (scramble stub + burns, burn, one community card)."""
    need = players + 2  # one card each, a burn, and one card that stays undealt
    if stub >= need:
        return "deal"
    if stub + earlier_burns >= need:
        return "A"
    if stub >= 3:
        return "B"
    return "C"


class StreetPlan:
    """One street: `burn` (0 or 1 card burned before it), `hole` (tuple of up-flags, one per card
    each player in the deal receives on this street: False = down, True = up), `board` (community
    cards dealt), `draw` (players discard and are replaced)."""

    def __init__(self, burn=0, hole=(), board=0, draw=False):
        self.burn = burn
        self.hole = hole
        self.board = board
        self.draw = draw

    def __repr__(self):
        return "StreetPlan(burn=%d, hole=%r, board=%d, draw=%r)" % (self.burn, self.hole, self.board, self.draw)


class Plan:
    """Normalised plan. seats: dealing order (first = first seat left of the button; heads-up the
    non-button player; the button last). button: the seat that takes the button's part in DEAL-23 /
    DEAL-24. dead: seats dealt in whose hands are dead from the start (tournament absent or penalised
    seats, BLIND-23, DEAL-14). deck: the card ints of the deck in play (52 cards unless short deck)."""

    def __init__(self, seats, streets, button, dead, deck, family):
        self.seats = seats
        self.streets = streets
        self.button = button
        self.dead = dead
        self.deck = deck
        self.family = family
        self.rounds = len(streets[0].hole)

    def street_name(self, index):
        return street_name(self.family, index, len(self.streets))


_BOARD_NAMES = ("preflop", "flop", "turn", "river")


def street_name(family, index, count):
    if family == FAMILY_BOARD and count == 4 and index < 4:
        return _BOARD_NAMES[index]
    if family == FAMILY_STUD:
        # 7-card stud starts on 3rd street; 5-card stud has rounds 1..4
        return "%s street" % _ordinal(index + 3) if count == 5 else "round %d" % (index + 1)
    if family == FAMILY_DRAW:
        return "pre-draw" if index == 0 else ("draw %d" % index if count > 2 else "the draw")
    return "street %d" % (index + 1)


def _ordinal(n):
    return "%d%s" % (n, "rd" if n == 3 else "th")


def _field(street, name, fallback):
    if isinstance(street, dict):
        return street.get(name, fallback)
    return getattr(street, name, fallback)


def _hole(value, n):
    # accept a string of d/u, or a sequence of up-flags (games.py), or of "down"/"up"
    if isinstance(value, str):
        out = []
        for ch in value:
            if ch not in "du":
                raise ConfigError("plan street %d: hole %r must use d (down) and u (up)" % (n, value))
            out.append(ch == "u")
        return tuple(out)
    out = []
    for item in value:
        if item is True or item == "up" or item == "u":
            out.append(True)
        elif item is False or item == "down" or item == "d":
            out.append(False)
        else:
            raise ConfigError("plan street %d: hole entry %r is not down/up" % (n, item))
    return tuple(out)


def _street(street, n):
    burn = _field(street, "burn", 0)
    if burn is True or burn is False:
        burn = 1 if burn else 0
    if burn not in (0, 1):
        raise ConfigError("plan street %d: burn must be 0 or 1 (DEAL-3), got %r" % (n, burn))
    board = _field(street, "board", 0)
    if isinstance(board, bool) or not isinstance(board, int) or board < 0 or board > 5:
        raise ConfigError("plan street %d: board must be 0..5 cards, got %r" % (n, board))
    draw = bool(_field(street, "draw", False))
    hole = _hole(_field(street, "hole", ()), n)
    return StreetPlan(burn, hole, board, draw)


def make_plan(seats, streets, button=None, dead=(), deck=None):
    """Validate and normalise. ConfigError names the field that is wrong."""
    seats = tuple(seats)
    if len(seats) < 2 or len(seats) > 10:
        raise ConfigError("plan: 2..10 seats are dealt in (GAME-1), got %d" % len(seats))
    for s in seats:
        if isinstance(s, bool) or not isinstance(s, int) or s < 1 or s > 10:
            raise ConfigError("plan: seat %r is not a seat number 1..10" % (s,))
        if seats.count(s) > 1:
            raise ConfigError("plan: seat %d listed twice" % s)
    if not streets:
        raise ConfigError("plan: at least one street")
    plan_streets = []
    for i in range(len(streets)):
        plan_streets.append(_street(streets[i], i + 1))
    first = plan_streets[0]
    if first.burn:
        raise ConfigError("plan: no card is burned before the initial deal (DEAL-2)")
    if not first.hole:
        raise ConfigError("plan: the first street must deal hole cards (DEAL-2)")
    if button is None or button not in seats:
        # dead button (BLIND-4) or not given: the seat dealt last in every round stands in for it
        button = seats[-1]
    dead = tuple(sorted(dead))
    for s in dead:
        if s not in seats:
            raise ConfigError("plan: dead seat %r is not dealt in" % (s,))
    if deck is None:
        deck = tuple(range(52))
    else:
        deck = tuple(sorted(deck))
    family = FAMILY_STUD
    for st in plan_streets:
        if st.board:
            family = FAMILY_BOARD
            break
        if st.draw:
            family = FAMILY_DRAW
    return Plan(seats, tuple(plan_streets), button, dead, deck, family)


def plan_from_dict(data):
    """{"seats": [4, 5, 6, 1, 2, 3], "button": 3, "streets": [{"hole": "dd"}, {"burn": 1, "board": 3},
    {"burn": 1, "board": 1}, {"burn": 1, "board": 1}], "dead": [], "deck": None}"""
    if not isinstance(data, dict):
        raise ConfigError("plan must be a mapping")
    for key in data:
        if key not in ("seats", "button", "streets", "dead", "deck"):
            raise ConfigError("plan: unknown field %r; fields: seats, button, streets, dead, deck" % (key,))
    if "seats" not in data or "streets" not in data:
        raise ConfigError("plan: seats and streets are required")
    return make_plan(data["seats"], data["streets"], data.get("button"), data.get("dead", ()), data.get("deck"))


# Ready-made street patterns (RULES.md GAME-1); games.py Game.streets may be used instead.
HOLDEM = ({"hole": "dd"}, {"burn": 1, "board": 3}, {"burn": 1, "board": 1}, {"burn": 1, "board": 1})
OMAHA = ({"hole": "dddd"}, {"burn": 1, "board": 3}, {"burn": 1, "board": 1}, {"burn": 1, "board": 1})
STUD7 = ({"hole": "ddu"}, {"burn": 1, "hole": "u"}, {"burn": 1, "hole": "u"}, {"burn": 1, "hole": "u"},
         {"burn": 1, "hole": "d"})
STUD5 = ({"hole": "du"}, {"burn": 1, "hole": "u"}, {"burn": 1, "hole": "u"}, {"burn": 1, "hole": "u"})
DRAW5 = ({"hole": "ddddd"}, {"burn": 1, "draw": True})


# ---- wording shared by the dealing-check modules (check, marks, remedies)

def premature_rules(family, street):
    if family == FAMILY_STUD:
        return ("DEAL-45",)
    if street == 1:
        return ("DEAL-30",)
    if street == 2:
        return ("DEAL-31",)
    return ("DEAL-32",)


def place_text(place):
    if place is None:
        return "the stub"
    if isinstance(place, int):
        return "seat %d" % place
    return "the " + place
