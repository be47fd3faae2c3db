# How much a normal betting action allocates on MicroPython (BET-38 hot path of the table
# controller): the turn and legality queries allocate nothing (checked with micropython.heap_lock()),
# and an action allocates only its Op record and the log slot. MicroPython only.
from check import MICROPYTHON, Skip, eq
from felt.engine.cards import parse_cards
from felt.engine.games import GAMES
from felt.engine.hand.machine import Hand


def _hand():
    h = Hand(game=GAMES["NT"], stacks=[10000] * 6, blinds=[50, 100])
    for p, t in enumerate(("AhKh", "QsQd", "7c2d", "9c9d", "5h6h", "JcTc")):
        h.deal_hole(p, parse_cards(t))
    return h


def _micropython():
    if not MICROPYTHON:
        raise Skip("heap_lock() and gc.mem_alloc() are MicroPython's")
    import gc
    import micropython
    return gc, micropython


def test_BET_38_turn_and_legality_queries_allocate_nothing():
    gc, micropython = _micropython()
    h = _hand()
    p = h.actor
    gc.collect()
    micropython.heap_lock()
    try:
        a = h.actor
        c1 = h.can_check_call(p)
        c2 = h.can_fold(p)
        c3 = h.can_bet_raise_to(p, 300)
        c4 = h.can_bet_raise_to(p, 10000)
        call = h.round.to_call(p, h.stacks[p])
    finally:
        micropython.heap_unlock()
    eq(a, p)
    eq([c1, c2, c3, c4], [True, True, True, True])
    eq(call, 100)


def test_BET_38_an_action_allocates_only_its_record():
    gc, micropython = _micropython()
    h = _hand()
    worst = 0
    for step in range(4):  # call, raise, call, fold
        p = h.actor
        gc.collect()
        before = gc.mem_alloc()
        if step == 1:
            h.bet_raise_to(p, 300)
        elif step == 3:
            h.fold(p)
        else:
            h.check_call(p)
        used = gc.mem_alloc() - before
        if used > worst:
            worst = used
    # the Op namedtuple (7 fields) plus, now and then, the log list growing
    assert worst <= 160, worst
