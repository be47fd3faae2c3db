# Clean hands raise nothing (DEAL-2, DEAL-3, DEAL-4, GAME-2/8/10/14/15): every game pattern, every
# table size, shuffled decks from a fixed seed -- the dealing check must stay silent except for its
# "deal complete" and "substantial action" notes.
from check import eq
from felt.engine.dealing import plan as dealplan
from felt.engine.dealing.check import DealCheck
from felt.engine.dealing.plan import BETTING, BOARD, SHOWDOWN
from felt.engine.house.rules import CASH, TOURNAMENT, HouseRules

QUIET = ("deal_complete", "substantial_action")


class Shuffled:
    """A deck in an order fixed by `seed` (a small LCG, the same under CPython and MicroPython)."""

    def __init__(self, seed):
        cards = list(range(52))
        x = seed
        for i in range(51, 0, -1):
            x = (x * 1103515245 + 12345) % 2147483648
            j = x % (i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        self.cards = cards

    def next(self):
        return self.cards.pop()


def play(pattern, seats, mode, seed, deck=None):
    plan = dealplan.make_plan(seats, pattern, button=seats[-1], deck=deck)
    d = DealCheck(plan, HouseRules(mode))
    deck = Shuffled(seed)
    if plan.deck != tuple(range(52)):
        deck.cards = [c for c in deck.cards if c in plan.deck]
    noise = []
    for street in range(len(plan.streets)):
        sp = plan.streets[street]
        if street:
            noise += d.betting_closed()
        if sp.burn:
            noise += d.card(deck.next(), None)
        for _ in sp.hole:
            for seat in seats:
                noise += d.card(deck.next(), seat)
        for _ in range(sp.board):
            noise += d.card(deck.next(), BOARD)
        if sp.draw:
            for i in range(len(seats)):
                seat = seats[i]
                n = (seed + i) % 4
                noise += d.discard(seat, d.holding(seat)[:n])
                for _ in range(n):
                    noise += d.card(deck.next(), seat)
        eq(d.phase, BETTING, "street %d" % street)
        if street == 0:
            noise += d.action(seats[0], "call", 100)
            noise += d.action(seats[1 % len(seats)], "check")
    noise += d.betting_closed()
    eq(d.phase, SHOWDOWN)
    return [f.kind for f in noise if f.kind not in QUIET]


def test_clean_holdem_and_omaha_every_table_size():
    for pattern in (dealplan.HOLDEM, dealplan.OMAHA):
        for n in range(2, 11):
            seats = list(range(1, n + 1))
            for mode in (CASH, TOURNAMENT):
                eq(play(pattern, seats, mode, seed=n * 7 + len(pattern[0]["hole"])), [], "%d players" % n)


def test_clean_stud_every_table_size():
    for n in range(2, 7):  # 7-card stud up to 6: more players run into DEAL-46
        eq(play(dealplan.STUD7, list(range(1, n + 1)), TOURNAMENT, seed=n), [], "stud7 %d" % n)
    for n in range(2, 10):
        eq(play(dealplan.STUD5, list(range(1, n + 1)), CASH, seed=n + 50), [], "stud5 %d" % n)


def test_clean_draw_every_table_size():
    for n in range(2, 7):
        eq(play(dealplan.DRAW5, list(range(1, n + 1)), CASH, seed=n + 90), [], "draw5 %d" % n)


def test_clean_deal_with_seat_gaps_and_dead_button_order():
    # seats 2, 5, 7, 9 with the button on 9: dealing order 2, 5, 7, 9
    eq(play(dealplan.HOLDEM, [2, 5, 7, 9], CASH, seed=3), [])


def test_clean_hand_for_every_games_record():
    # the plan is built straight from games.py Game.streets (the controller's path)
    from felt.engine import games

    for code in sorted(games.GAMES):
        game = games.GAMES[code]
        deck = None if game.deck == "standard" else [c for c in range(52) if c >= 16]  # short deck: 6 and up
        eq(play(game.streets, [1, 2, 3], CASH, seed=len(code), deck=deck), [], code)
