# Seeded hands played through the simulated table without a script (simulation layer): a shuffle
# that is the same on CPython and MicroPython, and one hand dealt from it with every player
# checking or calling to the showdown -- what the memory and speed benchmarks and the memory
# budget test play, one copy for all of them.
from felt.engine.cards import card_text


class Lcg:
    """The C library's rand() recurrence: the same stream on every interpreter."""

    def __init__(self, seed):
        self.s = seed

    def next(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n


def shuffled(rng):
    """A 52-card deck (card ints) in the order `rng` (an Lcg) deals it."""
    d = list(range(52))
    for i in range(51, 0, -1):
        j = rng.next(i + 1)
        d[i], d[j] = d[j], d[i]
    return d


def play_calling_hand(sim, deck, hole=4):
    """Start a hand on `sim` (felt.sim.runner.Sim) and deal it from `deck`: `hole` cards a seat,
    burns and a flop-turn-river board, every player checking or calling. Returns the table; the
    caller checks it ended cleanly (state "over", no alerts)."""
    for _step in calling_hand(sim, deck, hole):
        pass
    return sim.table


def calling_hand(sim, deck, hole=4):
    """play_calling_hand as a generator that yields after every main-loop step (Sim.run_steps): a
    harness that must collect between steps steps it (the WebAssembly port collects only between
    calls)."""
    yield from sim.run_steps("hand")
    order = sim.seat_order()
    k = 0
    for _r in range(hole):
        for s in order:
            yield from sim.run_steps("draw %s to seat %d" % (card_text(deck[k]), s))
            k += 1
    for street in range(4):
        if street:
            yield from sim.run_steps("draw %s to burn" % card_text(deck[k]))
            k += 1
            for _n in range(3 if street == 1 else 1):
                yield from sim.run_steps("draw %s to board" % card_text(deck[k]))
                k += 1
        for _a in range(40):
            turn = sim.turn()  # (seat, "call" / "check"): the board's answer (felt.sim.remote on two VMs)
            if turn is None:
                break
            yield from sim.run_steps("act %d %s" % turn)
