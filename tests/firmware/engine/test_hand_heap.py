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


def _omaha8_at_the_showdown():
    # ten-seat fixed-limit Omaha hi-lo, everyone calling to the river (the bench's hand, bench_memory.py)
    h = Hand("FO/8", [100000] * 10, blinds=[10, 20], small_bet=20, big_bet=40)
    d = [(i * 19) % 52 for i in range(52)]
    k = 0
    while h.phase != "showdown":
        if h.actor is not None:
            h.check_call(h.actor)
        elif h.pending_board:
            if not h.burned and h.game.streets[h.street].burn:
                h.burn(d[k])
                k += 1
            n = h.pending_board
            h.deal_board(d[k:k + n])
            k += n
        else:
            for p in range(h.n):
                if h.pending_hole[p]:
                    h.deal_hole(p, d[k])
                    k += 1
    return h


def test_SHOW_1_POT_7_the_showdown_of_a_ten_seat_omaha8_hand_makes_little_garbage():
    # The showdown is the busiest main-loop step of a hand (hardware/memory.md, showdown round): ten
    # hands tabled, then the pots divided and the award texts written (GAME-9, POT-7, SHOW-18). On the
    # 32-bit WebAssembly port a tabled hand allocated 208 B and the last one, which settles, 4,928 B
    # (416 / 9,632 on 64-bit: rank words split into lists of 13, sorted copies and key tuples for
    # one pot and one winner, a set of one total, comprehensions that are closures with cells); now
    # 96 / 2,240 (192 / 4,256): check_show no longer copies the hole it checked.
    gc, micropython = _micropython()
    h = _omaha8_at_the_showdown()
    order = h.show_order()
    h.rules.rake, h.rules.bbj_hand, h.rules.hilo_identical_scoop  # defaults read once a table, not per hand
    worst = 0
    for p in order[:-1]:
        gc.collect()
        before = gc.mem_alloc()
        h.show(p)
        used = gc.mem_alloc() - before
        worst = used if used > worst else worst
    gc.collect()
    before = gc.mem_alloc()
    h.show(order[-1])
    last = gc.mem_alloc() - before
    eq(h.reasons, ["player 3 wins the high half of the main pot with three of a kind, jacks",
                   "player 4 wins the low half of the main pot with a 6-4-3-2-A low"])
    import sys
    small = sys.maxsize < 2 ** 32
    assert worst <= (112 if small else 224), worst
    assert last <= (2500 if small else 4700), last


def test_BLIND_4_the_next_hands_setup_makes_little_garbage():
    # btn.next_hand runs in the main-loop step that starts a hand, on the 32-bit two-VM board the
    # busiest after the showdown (hardware/memory.md, showdown round): HouseRules.get built a whole
    # register record to check a key (four keys a hand), ring lists and closures found each seat, and
    # every seat record was copied twice. 32-bit: 7,456 -> 3,344 B; 64-bit: 14,368 -> 6,592.
    gc, micropython = _micropython()
    from felt.engine.between_hands import blinds as btn
    from felt.engine.house.rules import HouseRules
    rules = HouseRules("cash", "FO/8")
    setup = btn.next_hand([btn.Seat("active") for _ in range(10)], button=1, sb=10, bb=20, rules=rules)
    setup = btn.next_hand(setup.table, prev=setup, sb=10, bb=20, rules=rules)
    gc.collect()
    before = gc.mem_alloc()
    got = btn.next_hand(setup.table, prev=setup, sb=10, bb=20, rules=rules)
    used = gc.mem_alloc() - before
    eq((got.button, got.sb, got.bb, got.seats), (3, 4, 5, (4, 5, 6, 7, 8, 9, 10, 1, 2, 3)))
    import sys
    assert used <= (3700 if sys.maxsize < 2 ** 32 else 7200), used
