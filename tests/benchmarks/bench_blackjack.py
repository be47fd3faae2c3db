# Benchmark (not a test; issue 17 item 5): the blackjack table controller in the MicroPython
# interpreter, as ratios to peers measured in the same run (absolute times on this shared machine
# mean little):
#  1. cost per input event of felt.table.blackjack.BlackjackTable playing seven-box rounds as
#     physical events (a shoe read and an antenna arrival per card, seat buttons for hit and stand,
#     console entries for double, split, surrender, even money) against the peer: the bare engine
#     (felt.engine.blackjack.round.Round) playing the same rounds -- same cards, same decisions;
#  2. against the poker table controller (felt.table.controller.Table, hold'em, seven seats, every
#     card a shoe read and an antenna arrival, everyone checks or calls down) per input event.
# The decisions are felt.sim.blackjack.choose (a fixed simple player); both sides call it.
# usage: python tests/benchmarks/bench_blackjack.py [--rounds N] [--hands N] [--runtime micropython|cpython]
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "host_tools"))

from feltctl.commands.replay import compiled_firmware  # noqa: E402
from feltctl.paths import FIRMWARE, micropython_binary  # noqa: E402

DRIVER = r'''
import sys, time
try:
    ticks = time.ticks_us
    diff = time.ticks_diff
except AttributeError:
    ticks = lambda: int(time.perf_counter() * 1000000)
    diff = lambda a, b: a - b
from felt.engine.blackjack.round import Round
from felt.engine.blackjack.rules import BlackjackRules
from felt.sim.blackjack import DECKS, Lcg, choose, hexu, registry, tag
from felt.table.blackjack import BlackjackTable

RULES = {"surrender": "late", "cut_card": "count"}

def shoe(rng):
    tags = [tag(d, c) for d in range(1, DECKS + 1) for c in range(52)]
    for i in range(len(tags) - 1, 0, -1):
        j = rng.below(i + 1)
        tags[i], tags[j] = tags[j], tags[i]
    return tags

def bets(rng):
    return [(b, (5, 10, 25, 50)[rng.below(4)]) for b in range(1, 8) if rng.below(10) < 7] or [(4, 10)]

def table_rounds(rounds, plan):
    t = BlackjackTable(BlackjackRules(RULES), registry(), ["S%d" % d for d in range(1, DECKS + 1)])
    rng = Lcg(5)
    events = spent = 0
    for _ in range(rounds):
        if t.shoe is None or t.shoe.finished:
            t.new_shoe()
            tags = shoe(rng)
        stake = bets(rng)
        used = []
        t0 = ticks()
        t.new_hand()
        for b, a in stake:
            t.bet(b, a)
        t.close_bets()
        events += 2 + len(stake)
        r = t.round
        while r.phase != "done":
            kind, who = r.expect()
            if kind == "card":
                u = tags.pop()
                used.append(u[6])
                t.shoe_card(u)
                t.antenna(("card-arrived", "dealer" if who == 0 else "box%d" % who, hexu(u)))
                events += 2
            elif kind == "insurance":
                b = who[0]
                if r.box_hands(b)[0].natural():
                    t.insure(b, "even")
                else:
                    t.button(b, "long")
                events += 1
            else:
                d = choose(r.acting(), r.dealer[0], r.legal(who))
                if d == "hit":
                    t.button(who, "short")
                    t.button(who, "long")
                    events += 2
                elif d == "stand":
                    t.button(who, "long")
                    events += 1
                else:
                    t.decide(who, d)
                    events += 1
        spent += diff(ticks(), t0)
        assert not [a for a in t.alerts if a[0] == "error"], t.alerts
        plan.append((stake, used, r.results()))
    return events, spent

def engine_rounds(plan):
    rules = BlackjackRules(RULES)
    spent = 0
    for stake, cards, want in plan:
        cards = list(cards)
        cards.reverse()
        t0 = ticks()
        r = Round(rules)
        for b, a in stake:
            r.bet(b, a)
        r.close_bets()
        while r.phase != "done":
            kind, who = r.expect()
            if kind == "card":
                r.deal(cards.pop(), who)
            elif kind == "insurance":
                b = who[0]
                if r.box_hands(b)[0].natural():
                    r.even_money(b)
                else:
                    r.decline_insurance(b)
            else:
                r.decide(who, choose(r.acting(), r.dealer[0], r.legal(who)))
        spent += diff(ticks(), t0)
        assert r.results() == want, (r.results(), want)  # the peer played the same rounds
    return spent

def poker_hands(hands):
    from felt.sim.runner import card_uid, registry as poker_registry
    from felt.table.controller import Table, TableConfig
    t = Table(TableConfig(game="holdem", structure="limit", seats=7, sb=5, bb=10, small_bet=10, big_bet=20,
                          button=1), poker_registry())
    for s in range(1, 8):
        t.sit(s, 1000000)
    rng = Lcg(9)
    events = spent = 0
    for _ in range(hands):
        deck = list(range(52))
        for i in range(51, 0, -1):
            j = rng.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        t0 = ticks()
        t.new_hand()
        order = list(t.setup.seats)
        k = 0
        places = ["seat%d" % s for s in order] * 2 + ["burn", "board", "board", "board", "burn", "board",
                                                     "burn", "board"]
        events += 1
        for street in range(4):
            if street:
                n = 4 if street == 1 else 2
            else:
                n = 2 * len(order)
            for _n in range(n):
                uid = card_uid(deck[k])
                t.shoe_card(uid)
                t.antenna(("card-arrived", places[k], "".join(["%02X" % b for b in uid])))
                k += 1
                events += 2
            for _a in range(40):
                h = t.hand
                if t.state != "playing" or h.actor is None:
                    break
                lg = h.legal()
                t.act(t.setup.seats[h.actor], "call" if lg.call else "check")
                events += 1
        spent += diff(ticks(), t0)
        for hexu_ in sorted(t.onant):
            t.antenna(("card-left", t.onant[hexu_], hexu_))
        assert t.state == "over", t.state
    return events, spent

rounds = int(sys.argv[1])
hands = int(sys.argv[2])
plan = []
ev, us = table_rounds(rounds, plan)
peer = engine_rounds(plan)
pev, pus = poker_hands(hands)
print("BJ rounds=%d events=%d us=%d engine_us=%d poker_hands=%d poker_events=%d poker_us=%d"
      % (rounds, ev, us, peer, hands, pev, pus))
'''


def run(runtime, rounds, hands):
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(DRIVER)
        path = f.name
    try:
        env = dict(os.environ)
        if runtime == "micropython":
            env["MICROPYPATH"] = compiled_firmware()
            cmd = [micropython_binary(), "-X", "heapsize=8M", path, str(rounds), str(hands)]
        else:
            env["PYTHONPATH"] = FIRMWARE
            cmd = [sys.executable, path, str(rounds), str(hands)]
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800)
    finally:
        os.remove(path)
    line = [x for x in out.stdout.splitlines() if x.startswith("BJ ")]
    if out.returncode != 0 or not line:
        raise SystemExit("bench_blackjack: the %s run failed:\n%s%s" % (runtime, out.stdout[-2000:], out.stderr[-2000:]))
    return dict(kv.split("=") for kv in line[0].split()[1:])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=400)
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--runtime", choices=("micropython", "cpython"), default="micropython")
    a = ap.parse_args(argv)
    got = dict((k, int(v)) for k, v in run(a.runtime, a.rounds, a.hands).items())
    per_event = got["us"] / got["events"]
    poker_per_event = got["poker_us"] / got["poker_events"]
    print("blackjack table (%s): %d seven-box rounds, %d input events" % (a.runtime, got["rounds"], got["events"]))
    print("  table / bare engine, same rounds, same run:      %.2fx  (the controller's share: shoe and "
          "antenna matching, buttons, alerts, history line)" % (got["us"] / got["engine_us"]))
    print("  per input event, blackjack / poker table (hold'em, 7 seats, %d hands, same run): %.2fx"
          % (got["poker_hands"], per_event / poker_per_event))
    print("  (absolute, this run only: %.0f us a blackjack event, %.0f us a poker event, %.0f us a round)"
          % (per_event, poker_per_event, got["us"] / got["rounds"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
