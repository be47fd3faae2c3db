# Dealing check under scrambled event streams (a fixed-seed LCG, same on CPython and MicroPython):
# only RuleError may be raised, and after every event each card out of the stub sits in exactly one
# logical place (seat, board, burns, muck, aside, premature piles) -- the DEAL-37/48 tag log is exact.
from felt.engine.dealing import plan as dealplan
from felt.engine.dealing.check import DealCheck
from felt.engine.dealing.plan import BOARD, BURN, MISDEALT, MUCK, STUB, VOID
from felt.engine.house.rules import HouseRules
from felt.errors import RuleError

PATTERNS = (dealplan.HOLDEM, dealplan.OMAHA, dealplan.STUD7, dealplan.STUD5, dealplan.DRAW5)


class LCG:
    def __init__(self, seed):
        self.x = seed * 2654435761 % 2147483648 + 1

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) % 2147483648
        return (self.x >> 8) % n

    def pick(self, items):
        return items[self.below(len(items))]


def check_places(d):
    places = {}
    piles = [d.board, d._early_board, d.burns, d.muck, d.aside]
    for seat in sorted(d.holes):
        piles.append(d.holes[seat])
    piles.append([c for _, c in d._early_seat])
    for pile in piles:
        for c in pile:
            if c >= 0:
                assert c not in places, "card %d in two places" % c
                places[c] = True
    for c in d._out:
        assert c in places, "card %d is out but nowhere" % c
    for c in places:
        assert c in d._out, "card %d placed but in the stub" % c


def step(d, r, seats, deck):
    x = r.below(100)
    if x < 60 and deck:
        c = deck.pop() if r.below(30) else r.below(52)
        d.card(c, r.pick(seats + seats + [None, BOARD, BURN, MUCK, 1 + r.below(10)]))
    elif x < 70:
        kind = r.pick(["fold", "check", "call", "bet", "raise", "post"])
        d.action(r.pick(seats), kind, 10 if kind in ("call", "bet", "raise") else 0)
    elif x < 78:
        d.betting_closed()
    elif x < 86 and d.pending():
        f = r.pick(d.pending())
        choices = list(f.cards) + list(d.board)
        if r.below(2):
            d.confirm(f.id, card=r.pick(choices) if choices else None)
        else:
            d.reject(f.id)
    elif x < 90 and d.draws:
        d.mark_boxed(1 + r.below(len(d.draws)))
    elif x < 94 and d.draws:
        d.mark_exposed(1 + r.below(len(d.draws)), r.below(2) == 0)
    elif x < 96:
        d.foreign(r.pick(seats + [BOARD, STUB, None]))
    elif x < 98:
        d.reshuffled(r.pick([(), ("muck",), ("burn",), ("muck", "burn")]))
    else:
        seat = r.pick(seats)
        d.discard(seat, [c for c in d.holding(seat)[:r.below(4)] if c >= 0])


def test_scrambled_event_streams_keep_the_tag_log_exact():
    for seed in range(150):
        r = LCG(seed)
        seats = []
        while len(seats) < 2 + r.below(6):
            s = 1 + r.below(10)
            if s not in seats:
                seats.append(s)
        mode = r.pick(["cash", "tournament"])
        rules = HouseRules(mode, values={"hr.premature_turn": r.pick(["tda2019", "tda2017"]),
                                         "hr.premature_stud": r.pick(["tda2019", "tda2017"]),
                                         "hr.noburn_flop": r.pick(["tda_random", "restore_order"])})
        d = DealCheck(dealplan.make_plan(seats, r.pick(PATTERNS), button=seats[-1]), rules)
        deck = list(range(52))
        for i in range(51, 0, -1):
            j = r.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        for _ in range(60):
            if d.phase in (MISDEALT, VOID):
                break
            try:
                step(d, r, seats, deck)
            except RuleError:
                pass  # a refused input; the state must still be consistent
            check_places(d)
