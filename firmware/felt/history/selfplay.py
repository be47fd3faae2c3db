# Self-play for the demo (firmware layer above the engine): a seeded dealer and seeded bots play a
# series of hands of several games through the engine's Hand, each hand is written as PHH, read
# back and replayed, and a summary is printed. Deterministic: one Rng, passed in, drives the
# shuffles and the bots (the engine itself has no randomness). Runs on MicroPython and CPython.
# usage: micropython -m felt.history.selfplay [--hands N] [--seed S] [--out DIR]
import sys

from felt.history import phh
from felt.history import replay
from felt.engine.cards import cards_text
from felt.engine.games import GAMES
from felt.engine.hand.machine import Hand
from felt.engine.house.rules import CASH, HouseRules

SEATS = 6
BUY_IN = 10000
# (PHH variant, structure). Blinds 50/100 or antes 25 with a 25 bring-in (stud), limit 100/200.
SERIES = (
    ("NT", {"blinds": (50, 100), "min_bet": 100}),
    ("PO", {"blinds": (50, 100), "min_bet": 100}),
    ("FT", {"blinds": (50, 100), "small_bet": 100, "big_bet": 200}),
    ("FO/8", {"blinds": (50, 100), "small_bet": 100, "big_bet": 200}),
    ("F7S", {"ante": 10, "bring_in": 25, "small_bet": 100, "big_bet": 200}),
    ("F7S/8", {"ante": 10, "bring_in": 25, "small_bet": 100, "big_bet": 200}),
    ("FR", {"ante": 10, "bring_in": 25, "small_bet": 100, "big_bet": 200}),
    ("NS", {"blinds": (50, 100), "min_bet": 100, "ante": 10}),
    ("N2L1D", {"blinds": (50, 100), "min_bet": 100}),
    ("F2L3D", {"blinds": (50, 100), "small_bet": 100, "big_bet": 200}),
    ("FB", {"blinds": (50, 100), "small_bet": 100, "big_bet": 200}),
)


class Rng:
    """xorshift32: the same numbers on every interpreter (MicroPython's random differs)."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF or 1

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def below(self, n):
        return self.next() % n

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def _deck(game, rng):
    low = 16 if game.deck == "short" else 0  # short deck: sixes (rank 4) and up
    cards = list(range(low, 52))
    rng.shuffle(cards)
    return cards


def _bot_bet(hand, rng, p):
    # a loose, seeded player: mostly checks/calls, sometimes bets, raises or folds
    legal = hand.legal()
    r = rng.below(100)
    if legal.bring_in:
        if legal.can_raise and r < 25:
            return "cbr", legal.min_to
        return "pb", None
    if legal.call == 0:
        if legal.can_raise and r < 30:
            return "cbr", _amount(legal, rng)
        return "cc", None
    if r < 18:
        return "f", None
    if legal.can_raise and r > 85:
        return "cbr", _amount(legal, rng)
    return "cc", None


def _amount(legal, rng):
    if legal.max_to <= legal.min_to or rng.below(100) < 60:
        return legal.min_to
    return legal.min_to + rng.below(legal.max_to - legal.min_to + 1)


def _discards(hand, rng, p):
    # keep the low cards (every PHH draw game here is lowball or badugi): throw the high ones
    hole = hand.hole[p]
    high = [c for c in hole if c // 4 >= 7]  # nine and up
    k = rng.below(len(high) + 1)
    return high[:k]


def _table(game_code, structure, positions):
    game = GAMES[game_code]
    n = len(positions)
    blinds = [0] * n
    if "blinds" in structure:
        blinds[0], blinds[1] = structure["blinds"]
    antes = [structure.get("ante", 0)] * n
    return game, blinds, antes


def play_hand(game_code, structure, stacks, seats, rng):
    """One hand. stacks/seats in position order (0 = left of the button). Returns (Hand, actions)."""
    game, blinds, antes = _table(game_code, structure, stacks)
    hand = Hand(game=game, stacks=stacks, blinds=blinds, antes=antes,
                bring_in=structure.get("bring_in", 0), small_bet=structure.get("small_bet", 0),
                big_bet=structure.get("big_bet", 0), min_bet=structure.get("min_bet", 0),
                rules=HouseRules(CASH, game.code), seats=seats)
    deck = _deck(game, rng)
    actions = []
    steps = 0
    while not hand.finished:
        steps += 1
        if steps > 1000:
            raise RuntimeError("the demo hand does not end")  # an engine bug: stop loudly
        if hand.phase == "draw" and hand.drawer() is not None:
            p = hand.drawer()
            out = _discards(hand, rng, p)
            hand.draw(p, out)
            actions.append(("p%d sd %s" % (p + 1, cards_text(out))).rstrip())
        elif hand.phase in ("deal", "draw"):
            p = hand.next_hole_position()
            if p is not None:
                cards = [deck.pop() for _ in range(hand.pending_hole[p])]
                hand.deal_hole(p, cards)
                actions.append("d dh p%d %s" % (p + 1, cards_text(cards)))
            elif hand.pending_board:
                if hand.can_burn(deck[-1]):
                    hand.burn(deck.pop())  # PHH leaves burns out
                cards = [deck.pop() for _ in range(hand.pending_board)]
                hand.deal_board(cards)
                actions.append("d db " + cards_text(cards))
            else:
                raise RuntimeError("no card is due and no one acts")
        elif hand.phase == "bet":
            p = hand.actor
            verb, amount = _bot_bet(hand, rng, p)
            if verb == "f":
                hand.fold(p)
            elif verb == "cc":
                hand.check_call(p)
            elif verb == "pb":
                hand.post_bring_in(p)
            else:
                hand.bet_raise_to(p, amount)
            actions.append("p%d %s" % (p + 1, verb) + ("" if amount is None else " %d" % amount))
        else:  # showdown: every contender tables in position order
            for p in range(hand.n):
                if hand.live[p] and not hand.mucked[p] and not hand.shown[p] and not hand.finished:
                    hand.show(p)
                    actions.append("p%d sm %s" % (p + 1, cards_text(hand.hole[p])))
    return hand, actions


def history_of(game_code, structure, hand, actions, seats, number):
    """The played hand as a phh.History (file order = positions)."""
    game, blinds, antes = _table(game_code, structure, hand.starting_stacks)
    extra = [("hand", number), ("seats", list(seats)), ("seat_count", SEATS),
             ("event", "Felt self-play demo")]
    return phh.History(game_code, hand.starting_stacks, actions, antes=antes,
                       blinds_or_straddles=None if game.forced == "bring_in" else blinds,
                       bring_in=structure.get("bring_in"), small_bet=structure.get("small_bet"),
                       big_bet=structure.get("big_bet"), min_bet=structure.get("min_bet"),
                       players=["Bot %d" % s for s in seats], ante_trimming_status=True,
                       finishing_stacks=hand.finishing_stacks(), extra=extra)


def _commas(n):
    s = str(n)
    out = ""
    while len(s) > 3:
        out = "," + s[-3:] + out
        s = s[:-3]
    return s + out


def play_series(count, seed, save=None, write=None):
    """Plays `count` hands cycling through SERIES; save(name, text) stores each PHH file;
    write(line) gets the summary. Returns 0 when every hand replayed identically and the chips
    add up, else 1."""
    rng = Rng(seed)
    stacks = {}  # seat -> chips
    for s in range(1, SEATS + 1):
        stacks[s] = BUY_IN
    rebuys = 0
    identical = 0
    games_played = {}
    write("Felt demo: %d seeded hands (seed %d), %d seats, %s buy-in" % (count, seed, SEATS, _commas(BUY_IN)))
    for k in range(count):
        code, structure = SERIES[k % len(SERIES)]
        button = k % SEATS + 1
        seats = [(button + i) % SEATS + 1 for i in range(SEATS)]  # left of the button first
        for s in seats:
            if stacks[s] == 0:
                stacks[s] = BUY_IN  # a busted bot buys in again (counted in the chip check)
                rebuys += 1
        hand, actions = play_hand(code, structure, [stacks[s] for s in seats], seats, rng)
        finish = hand.finishing_stacks()
        for i in range(SEATS):
            stacks[seats[i]] = finish[i]
        name = "%03d-%s.phh" % (k + 1, code.replace("/", ""))
        text = phh.write(history_of(code, structure, hand, actions, seats, k + 1))
        if save is not None:
            save(name, text)
        again = replay.replay_text(text)[0]
        same = again.get("finishing_stacks") == finish
        identical += 1 if same else 0
        games_played[code] = games_played.get(code, 0) + 1
        pot = 0
        for a in hand.results:
            pot += a.amount
        reasons = "; ".join(hand.reasons or [])
        write("#%-3d %-5s button seat %d  pot %7s  %s" % (k + 1, code, button, _commas(pot), reasons))
        write("     %s -> %s" % (name, "replayed: identical" if same else "REPLAY DIFFERS: %s" % replay.dumps(again)))
    total = 0
    for s in stacks:
        total += stacks[s]
    expected = SEATS * BUY_IN + rebuys * BUY_IN
    games = ", ".join(["%s %d" % (g, games_played[g]) for g in sorted(games_played)])
    write("totals: %d hands (%s)" % (count, games))
    write("replay: %d of %d PHH files replay to identical finishing stacks" % (identical, count))
    write("chips: %s bought in (%d rebuys), %s on the table -> %s" % (
        _commas(expected), rebuys, _commas(total), "conserved" if total == expected else "NOT CONSERVED"))
    return 0 if identical == count and total == expected else 1


def main(argv):
    count = 22
    seed = 1
    out = None
    i = 0
    while i < len(argv):
        if argv[i] == "--hands":
            count = int(argv[i + 1])
        elif argv[i] == "--seed":
            seed = int(argv[i + 1])
        elif argv[i] == "--out":
            out = argv[i + 1]
        i += 2

    def save(name, text):
        with open(out + "/" + name, "w") as f:
            f.write(text)

    def write(line):
        print(line)

    return play_series(count, seed, save if out else None, write)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
