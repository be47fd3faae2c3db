# The house-edge reference check (issue 17 item 6; host side). A basic-strategy player (strategy.py)
# plays one box, flat bets, round after round on the firmware's engine (felt.engine.blackjack.Round)
# dealt from the firmware's shoe (felt.engine.blackjack.shoe.Shoe: registered decks of tagged cards,
# cut card counted at bj.cut_percent) shuffled by a seeded generator; the mean loss per initial bet
# is compared with the published house edge for the same rules (PUBLISHED).
#
# Standard error: rounds of one shoe share its cards, so they are not independent; the error is taken
# from batch means over shoes (the ratio estimator sum(net) / sum(bets) with its delta-method
# variance over the shoes); the per-round i.i.d. figure is reported beside it for comparison.
#
# usage: python -m feltctl.blackjack.edge [--rounds N] [--seed S] [--rules "soft17=hit ..."] [--sigmas K]
import argparse
import math
import random
import sys
import time

from felt.engine.blackjack import rules as bjrules
from felt.engine.blackjack.round import DONE, Round
from felt.engine.blackjack.shoe import Shoe
from felt.engine.deck import DeckRegistry
from feltctl.blackjack import strategy

BET = 10  # chips a round: 3:2 (15), 6:5 (12) and half (5) are whole numbers

# Published house edges (%, player's loss per initial bet) for the rules text given, with the source.
PUBLISHED = {
    "soft17=hit": (0.639, "Wizard of Odds blackjack house-edge calculator: 6 decks, dealer hits soft 17, double "
                          "any two, double after split, re-split to 4 hands, aces split once, 3:2, no surrender "
                          "(as quoted in wizardofvegas.com forum thread 39582, 2024-10-13)"),
    "": (0.42, "the same calculator's rules with the dealer standing on soft 17: 0.639% minus the S17 gain "
               "of ~0.22% (the same thread); thecolorofblackjack.com's additive table gives 0.42% too "
               "(single-deck base -0.02%, six decks -0.53%, DAS +0.13%)"),
}


def registry(decks):
    """`decks` registered decks of made-up tags (7-byte UIDs), ids D1.."""
    reg = DeckRegistry()
    for d in range(1, decks + 1):
        reg.register("D%d" % d, dict([(bytes([4, d, 0x42, 0x4A, 0, 0, c]), c) for c in range(52)]))
    return reg


def play_round(rules, draw):
    """One round, one box, basic strategy; returns the box's net in chips."""
    r = Round(rules)
    r.bet(1, BET)
    r.close_bets()
    while r.phase != DONE:
        kind, box = r.expect()
        if kind == "card":
            r.deal(draw(), box)
        elif kind == "insurance":
            r.decline_insurance(box[0])  # never insure, never take even money
        else:
            hand = r.acting()
            r.decide(box, strategy.decide(hand.cards, r.dealer[0], r.legal(box), rules))
    return r.net(1)


def simulate(rules, rounds, seed):
    """Play `rounds` rounds; returns a dict of the figures (edge in %, standard errors in %)."""
    rng = random.Random(seed)
    reg = registry(rules.decks)
    ids = ["D%d" % d for d in range(1, rules.decks + 1)]
    tags = []
    for d in ids:
        tags.extend(reg.tags(d))
    shoes = []  # (net chips, rounds) per shoe
    total = total_sq = 0
    played = 0
    while played < rounds:
        rng.shuffle(tags)
        shoe = Shoe(reg, ids, rules)
        it = iter(tags)

        def draw():
            return shoe.draw(next(it))

        net_shoe = n_shoe = 0
        while played < rounds and not shoe.end_round():
            net = play_round(rules, draw)
            net_shoe += net
            n_shoe += 1
            played += 1
            total += net
            total_sq += net * net
        shoes.append((net_shoe, n_shoe))
    return _figures(shoes, total, total_sq, played)


def _figures(shoes, total, total_sq, n):
    mean = total / n  # chips a round
    var = total_sq / n - mean * mean
    s = len(shoes)
    per_shoe = n / s
    resid = sum([(y - mean * m) ** 2 for y, m in shoes])
    se_batch = math.sqrt(resid / (s * (s - 1))) / per_shoe if s > 1 else float("nan")
    return {"rounds": n, "shoes": s, "edge_pct": -100.0 * mean / BET,
            "se_pct": 100.0 * se_batch / BET, "se_iid_pct": 100.0 * math.sqrt(var / n) / BET,
            "sd_per_round": math.sqrt(var) / BET}


def check(rules_text, rounds, seed, sigmas):
    """Simulate and compare with PUBLISHED; returns (ok, lines of the report)."""
    rules = bjrules.parse(rules_text).replace({"cut_card": "count"})  # BJ-23: cut card at bj.cut_percent
    published, source = PUBLISHED[rules_text]
    t0 = time.time()
    f = simulate(rules, rounds, seed)
    took = time.time() - t0
    diff = f["edge_pct"] - published
    bound = sigmas * f["se_pct"]
    ok = abs(diff) <= bound
    lines = [
        "rules: 6 decks, %s (bj: %s), cut card at %d%%, one box, flat bet %d, basic strategy"
        % ("H17" if rules.soft17 == "hit" else "S17", rules_text or "defaults", rules.cut_percent, BET),
        "rounds %d in %d shoes (%.1f s, %.0f rounds/s), seed %d" % (f["rounds"], f["shoes"], took, f["rounds"] / took, seed),
        "house edge measured %.3f%% +- %.3f%% (1 SE, batch means over shoes; i.i.d. SE %.3f%%, SD %.3f bets a round)"
        % (f["edge_pct"], f["se_pct"], f["se_iid_pct"], f["sd_per_round"]),
        "published %.3f%% (%s)" % (published, source),
        "difference %+.3f%% = %+.2f SE; bound %.1f SE = %.3f%%: %s"
        % (diff, diff / f["se_pct"], sigmas, bound, "OK" if ok else "FAIL"),
    ]
    return ok, lines, f


def main(argv=None):
    ap = argparse.ArgumentParser(description="blackjack basic-strategy house edge vs the published figure")
    ap.add_argument("--rounds", type=int, default=1000000)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--rules", default="soft17=hit", choices=sorted(PUBLISHED),
                    help="bj house rules that differ from the defaults (a key of PUBLISHED)")
    ap.add_argument("--sigmas", type=float, default=3.0, help="bound in standard errors (default 3)")
    a = ap.parse_args(argv)
    ok, lines, _f = check(a.rules, a.rounds, a.seed, a.sigmas)
    for line in lines:
        print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
