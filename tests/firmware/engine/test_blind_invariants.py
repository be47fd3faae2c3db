# Long seeded runs of felt.engine.between_hands.blinds.next_hand with players busting, sitting out,
# returning and arriving, checking the invariants of BLIND-3/4/6/7/12/13/16 and DEAL-5 on
# every hand. The generator is a small LCG so CPython and MicroPython see the same hands.
from check import eq
from felt.engine.between_hands.blinds import ACTIVE, BACK, EMPTY, NEW, OUT, Seat, next_hand
from felt.errors import RuleError

MODES = (("cash", {}), ("cash", {"hr.button_mode": "moving"}), ("tournament", {}))


class Lcg:
    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) % 2147483648
        return (self.x >> 8) % n


def churn(rng, table):
    # Between hands: a few players leave, sit out, come back or arrive.
    out = [s.copy() for s in table]
    for i in range(len(out)):
        r = rng.below(100)
        st = out[i].status
        if st == EMPTY and r < 6:
            out[i] = Seat(NEW, post=rng.below(2) == 0)
        elif st == ACTIVE and r < 3:
            out[i] = Seat(EMPTY)
        elif st == ACTIVE and r < 7:
            out[i] = out[i].copy(status=OUT)
        elif st == OUT and r < 15:
            out[i] = out[i].copy(status=BACK, post=rng.below(2) == 0)
    return out


def check_hand(h, prev, table, mode, dead_button=True):
    n = len(table)
    seats = list(h.seats)
    assert len(seats) >= 2
    assert h.bb in seats  # BLIND-12
    if h.sb is not None:
        assert h.sb in seats
    # Positions run clockwise from the seat left of the button; the button is last if dealt.
    dist = [(s - h.button - 1) % n for s in seats]
    eq(dist, sorted(dist))
    if not h.button_dead:
        eq(seats[-1], h.button)
    if h.heads_up:
        assert h.sb == h.button and h.bb != h.button  # BLIND-6
    elif prev is not None:
        assert h.bb != prev.bb
        if dead_button:
            # BLIND-4: the BB passes over nobody who is due to play.
            s = prev.bb % n + 1
            while s != h.bb:
                st = table[s - 1].status
                assert st == EMPTY or (st == OUT and mode == "cash"), (prev.bb, h.bb, s, st)
                if st == OUT:
                    assert h.table[s - 1].missed_bb  # BLIND-13
                s = s % n + 1
    # DEAL-5: nobody owing or new is dealt in without posting or taking the BB.
    for s in seats:
        seat = table[s - 1]
        if mode == "cash" and (seat.status == NEW or (seat.status == BACK and seat.owes)):
            kinds = [p.kind for p in h.post_of(s)]
            assert "bb" in kinds or "post_bb" in kinds or "dead_sb" in kinds, (s, seat, kinds)
        assert seat.status != EMPTY
    for s in range(1, n + 1):
        if table[s - 1].status == OUT and mode == "cash":
            assert s not in seats
    eq(len(h.blinds_or_straddles), len(seats))
    eq(sum(h.blinds_or_straddles) + sum(h.dead) + sum(h.antes), sum(p.amount for p in h.posts))


def run(mode, rules, seed, hands=150):
    rng = Lcg(seed)
    table = [Seat(ACTIVE) for _ in range(9)]
    prev = None
    played = 0
    bbs = []
    for _ in range(hands):
        try:
            h = next_hand(table, prev, button=None if prev else 1, sb=1, bb=2, ante=0, mode=mode, rules=rules)
        except RuleError as e:  # too few players: refill the table and go on
            eq(e.rule, "BLIND-12")
            table = [Seat(ACTIVE) if s.status == EMPTY else s for s in table]
            continue
        check_hand(h, prev, table, mode, rules.get("hr.button_mode", "dead") == "dead")
        bbs.append(h.bb)
        played += 1
        prev = h
        table = churn(rng, h.table)
    return played, bbs


def test_BLIND_invariants_over_long_runs():
    for mode, rules in MODES:
        for seed in (1, 2, 3):
            played, bbs = run(mode, rules, seed)
            assert played > 100


def test_BLIND_4_steady_table_everyone_takes_the_bb_once_per_orbit():
    table = [Seat(ACTIVE) if s % 3 else Seat(EMPTY) for s in range(1, 11)]
    prev = None
    bbs = []
    for _ in range(14):
        h = next_hand(table, prev, button=None if prev else 1, sb=1, bb=2)
        bbs.append(h.bb)
        prev, table = h, h.table
    eq(bbs[:7], [4, 5, 7, 8, 10, 1, 2])
    eq(bbs[7:], bbs[:7])
