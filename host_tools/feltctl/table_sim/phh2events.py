# PHH hand history -> physical events on the simulated table (host tools): the `table` and `seat`
# statements, then shoe draws landing on seat / board / burn antennas in dealing order (one burn
# before each later street, DEAL-3), console actions, discards moved to the muck (draw games) and
# folded or mucked hands moved to the muck. The statements are the bench-script language
# (hardware/bench-scripts.md), so the firmware's sim runner plays them; this module decides nothing
# about the outcome -- the firmware does.
from felt.history import phh
from felt.engine.cards import card_text
from felt.errors import FormatError

# PHH variant -> (table game, structure): the games the table plays (felt.engine.games.game_for)
VARIANTS = {
    "NT": ("holdem", "no_limit"), "PT": ("holdem", "pot_limit"), "FT": ("holdem", "limit"),
    "NO": ("omaha", "no_limit"), "PO": ("omaha", "pot_limit"), "FO": ("omaha", "limit"),
    "PO/8": ("omaha8", "pot_limit"), "FO/8": ("omaha8", "limit"),
    "F7S": ("stud7", "limit"), "F7S/8": ("stud7_8", "limit"),
    "F5S": ("stud5", "limit"), "P5S": ("stud5", "pot_limit"), "N5S": ("stud5", "no_limit"),
    "F5D": ("draw5", "limit"), "P5D": ("draw5", "pot_limit"), "N5D": ("draw5", "no_limit"),
}
STUD = ("stud7", "stud7_8", "stud5")
ALL_CARDS = [card_text(c) for c in range(52)]


class Unsupported(Exception):
    """The hand history uses something the table cannot play (a variant, straddles, uneven antes)."""


class Event:
    """One statement for the runner. kind: "setup" | "deal" | "board" | "burn" | "act" | "draw" |
    "muck" | "show"; seat: the seat concerned or None; text: the bench statement; note: what a viewer
    reads (e.g. "p3 raises to 600")."""

    def __init__(self, kind, text, seat=None, note=""):
        self.kind = kind
        self.text = text
        self.seat = seat
        self.note = note

    def __repr__(self):
        return "Event(%r)" % self.text


class Conversion:
    """events: [Event]; seats[i]: the seat of PHH player i (p1 = index 0); game, structure;
    history: the phh.History read."""

    def __init__(self, history, game, structure, events, seats):
        self.history = history
        self.game = game
        self.structure = structure
        self.events = events
        self.seats = seats


def read(text):
    """PHH text (one hand) -> phh.History (FormatError on broken text)."""
    hands = phh.read_all(text)
    if len(hands) != 1:
        raise Unsupported("the file holds %d hands; the simulated table replays one hand per file" % len(hands))
    return hands[0]


def table_statement(h, game, structure, seats, button):
    n = len(h.starting_stacks)
    words = ["table", game, structure, "seats=%d" % seats]
    antes = h.antes or [0] * n
    ante = antes[0] if antes else 0
    for a in antes:
        if a != ante:
            raise Unsupported("antes differ between players (%s); the table takes one ante for all" % antes)
    if game in STUD:
        words += ["ante=%d" % ante, "bring_in=%d" % (h.bring_in or 0), "small_bet=%d" % (h.small_bet or 0),
                  "big_bet=%d" % (h.big_bet or 0)]
    else:
        blinds = [b for b in (h.blinds_or_straddles or []) if b]
        if len(blinds) != 2:
            raise Unsupported("the table plays two blinds, not %r (straddles are not replayed)" % (h.blinds_or_straddles,))
        sb, bb = min(blinds), max(blinds)
        words += ["sb=%d" % sb, "bb=%d" % bb]
        if ante:
            words.append("ante=%d" % ante)
        if structure == "limit":
            words += ["small_bet=%d" % (h.small_bet or bb), "big_bet=%d" % (h.big_bet or 2 * bb)]
        elif h.min_bet is not None and h.min_bet != bb:
            raise Unsupported("min_bet %d differs from the big blind %d" % (h.min_bet, bb))
    words.append("button=%d" % button)
    return " ".join(words)


def _parsed(h):
    out = []
    n = len(h.starting_stacks)
    for k, text in enumerate(h.actions):
        a = phh.parse_action(text, h.scale, h.action_line(k))
        if not a.verb:
            continue
        p = a.dealee if a.verb == "dh" else a.actor
        if isinstance(p, int) and not 0 <= p < n:  # the engine's replay names it too (SHOW-1, BET-...)
            raise FormatError("%r: player p%d, but the hand has %d players" % (text, p + 1, n), h.action_line(k))
        out.append(a)
    return out


def _known_holes(actions, n):
    """Per player, the hole cards in dealing order, '??' where unknown -- filled from the cards the
    player shows later (a PHH hand often deals '????' and tables the cards at the showdown)."""
    holes = [[] for _ in range(n)]
    for a in actions:
        if a.verb == "dh":
            holes[a.dealee].extend(a.cards)
    for a in actions:
        if a.verb == "sm" and a.cards:
            have = holes[a.actor]
            for c in a.cards:
                if c in have:
                    continue
                for i in range(len(have)):
                    if have[i] == "??":
                        have[i] = c
                        break
    return holes


def convert(h):
    """phh.History -> Conversion: a fresh table (seat i+1 for player pi+1, the button on the last
    seat, so p1 is left of the button and heads-up p1 is the big blind, as in PHH) and the hand."""
    if h.variant not in VARIANTS:
        raise Unsupported("variant %r is not a game of the table (%s)" % (h.variant, " ".join(sorted(VARIANTS))))
    game, structure = VARIANTS[h.variant]
    n = len(h.starting_stacks)
    if not 2 <= n <= 10:
        raise Unsupported("%d players; a table has 2..10 seats" % n)
    for s in h.starting_stacks:
        if s <= 0:
            raise Unsupported("a starting stack of %r chips" % (s,))
    seats = [p + 1 for p in range(n)]
    events = [Event("setup", table_statement(h, game, structure, n, n))]
    for p in range(n):
        events.append(Event("setup", "seat %d %d" % (seats[p], h.starting_stacks[p]), seats[p]))
    events.append(Event("setup", "hand"))
    events.extend(hand_events(h, seats))
    return Conversion(h, game, structure, events, seats)


def hand_events(h, seats):
    """The physical events of one hand already started on the table (after `hand`). seats[i] is the
    seat of PHH player i in position order (seats[0] left of the button). Unknown cards and the
    burns come from the cards the history does not use, in a fixed order (deterministic)."""
    if h.variant not in VARIANTS:
        raise Unsupported("variant %r is not a game of the table" % (h.variant,))
    game = VARIANTS[h.variant][0]
    n = len(h.starting_stacks)
    actions = _parsed(h)
    holes = _known_holes(actions, n)
    used = {}
    for a in actions:
        for c in (a.cards or ()):
            used[c] = True
    for p in range(n):
        for c in holes[p]:
            used[c] = True
    pool = [c for c in ALL_CARDS if c not in used]
    for p in range(n):  # still unknown: cards nobody sees, the player mucks them (PokerKit does the same)
        for i in range(len(holes[p])):
            if holes[p][i] == "??":
                # stud: the highest cards left, so an unknown upcard never takes the bring-in (GAME-11)
                holes[p][i] = pool.pop() if game in STUD else pool.pop(0)
    events = []
    _play(actions, holes, list(seats), pool, events, game)
    return events


def _showdown_muckers(actions, holes_known_unknown, n):
    """Players who reach the showdown and give up (PHH `pN sm` without cards), or whose cards were
    never known (PokerKit mucks them), and the index of the last action before the showdown."""
    live = [True] * n
    for a in actions:
        if a.verb == "f":
            live[a.actor] = False
    muck = []
    shown = {}
    for a in actions:
        if a.verb == "sm":
            if a.cards:
                shown[a.actor] = True
            elif live[a.actor]:
                muck.append(a.actor)
    if sum(1 for x in live if x) >= 2:
        for p in range(n):
            if live[p] and p not in shown and p not in muck and holes_known_unknown[p]:
                muck.append(p)
    last = 0
    for i in range(len(actions)):
        if actions[i].verb not in ("sm",):
            last = i
    while last > 0 and actions[last].verb == "dh" and actions[last - 1].verb == "dh":
        last -= 1  # a group of deals is played as one (_deal_group): muck before it starts
    return sorted(muck), last


def _play(actions, holes, seats, pool, events, game):
    n = len(seats)
    unknown = [False] * n
    # a player whose every original card was '??' and never shown: mucks at the showdown
    for p in range(n):
        orig = []
        for a in actions:
            if a.verb == "dh" and a.dealee == p:
                orig.extend(a.cards)
        shown = [a for a in actions if a.verb == "sm" and a.actor == p and a.cards]
        unknown[p] = ("??" in orig) and not shown
    muckers, last = _showdown_muckers(actions, unknown, n)
    dealt = [0] * n  # hole cards dealt so far per player (index into holes[p])
    on_seat = [[] for _ in range(n)]
    streets_dealt = 0
    i = 0
    while i < len(actions):
        a = actions[i]
        if i == last and muckers:
            for p in muckers:
                _to_muck(p, on_seat, seats, events, "seat %d mucks at the showdown" % seats[p])
        if a.verb == "dh":
            group = []
            while i < len(actions) and actions[i].verb == "dh":
                group.append(actions[i])
                i += 1
            if streets_dealt > 0:
                events.append(Event("burn", "draw %s to burn" % pool.pop(0), None, "burn"))
            _deal_group(group, holes, dealt, on_seat, seats, events)
            streets_dealt += 1
            continue
        if a.verb == "db":
            events.append(Event("burn", "draw %s to burn" % pool.pop(0), None, "burn"))
            for c in a.cards:
                events.append(Event("board", "draw %s to board" % c, None, "board %s" % c))
            streets_dealt += 1
        elif a.verb in ("f", "cc", "cbr", "pb"):
            seat = seats[a.actor]
            if a.verb == "f":
                events.append(Event("act", "act %d fold" % seat, seat, "seat %d folds" % seat))
                # the dealer gathers the folded cards (off the table): a muck antenna reads at most 8
                # cards (felt.drivers.antennas max_cards), so it keeps only showdown mucks and discards
                for c in on_seat[a.actor]:
                    events.append(Event("muck", "remove %s from seat %d" % (c, seat), seat, ""))
                on_seat[a.actor] = []
            elif a.verb == "cc":
                events.append(Event("act", "act %d call" % seat, seat, "seat %d checks/calls" % seat))
            elif a.verb == "pb":
                events.append(Event("act", "act %d bringin" % seat, seat, "seat %d brings in" % seat))
            else:
                events.append(Event("act", "act %d raise %d" % (seat, a.amount), seat,
                                    "seat %d bets/raises to %d" % (seat, a.amount)))
        elif a.verb == "sd":
            group = []
            while i < len(actions) and actions[i].verb in ("sd", "dh"):
                group.append(actions[i])
                i += 1
            _draw_round(group, holes, dealt, on_seat, seats, pool, events)
            continue
        i += 1


def _draw_round(group, holes, dealt, on_seat, seats, pool, events):
    # the dealer serves one player at a time in draw order (GAME-15, DEAL-47): the discards go to the
    # muck antenna, then the replacements come from the shoe; a player who stands pat says so on the console (`act SEAT check`)
    order = []
    discards = {}
    wanted = {}
    for g in group:
        if g.verb == "sd":
            order.append(g.actor)
            discards[g.actor] = list(g.cards or ())
        else:
            wanted[g.dealee] = wanted.get(g.dealee, 0) + len(g.cards)
    # one burn first, before anyone is served -- even when every player stands pat, the draw is a
    # street and the firmware's dealing check expects its burn (DEAL-3, DEAL-47)
    events.append(Event("burn", "draw %s to burn" % pool.pop(0), None, "burn"))
    for p in order:
        seat = seats[p]
        if not discards[p]:
            events.append(Event("act", "act %d check" % seat, seat, "seat %d stands pat" % seat))
            continue
        for c in discards[p]:
            if c not in on_seat[p]:
                raise Unsupported("p%d discards %s, which it does not hold" % (p + 1, c))
            on_seat[p].remove(c)
            events.append(Event("draw", "move %s from seat %d to muck" % (c, seat), seat,
                                "seat %d discards %s" % (seat, c)))
        for _ in range(wanted.get(p, 0)):
            c = holes[p][dealt[p]]
            dealt[p] += 1
            on_seat[p].append(c)
            events.append(Event("deal", "draw %s to seat %d" % (c, seat), seat, "replacement to seat %d" % seat))


def _deal_group(group, holes, dealt, on_seat, seats, events):
    # the dealer deals one card at a time, round the table in seat order (DEAL-2), however PHH
    # groups them per player
    want = {}
    for g in group:
        want[g.dealee] = want.get(g.dealee, 0) + len(g.cards)
    order = sorted(want)  # position order: from the first seat left of the button
    rounds = max(want.values())
    for r in range(rounds):
        for p in order:
            if r < want[p]:
                c = holes[p][dealt[p]]
                dealt[p] += 1
                on_seat[p].append(c)
                events.append(Event("deal", "draw %s to seat %d" % (c, seats[p]), seats[p], "card to seat %d" % seats[p]))


def _to_muck(p, on_seat, seats, events, note):
    for c in list(on_seat[p]):
        events.append(Event("muck", "move %s from seat %d to muck" % (c, seats[p]), seats[p], note))
    on_seat[p] = []
