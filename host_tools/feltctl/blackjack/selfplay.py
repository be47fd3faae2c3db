# Blackjack self-play (host side): seeded rounds at a full table -- several boxes, varied bets,
# basic strategy with the odd insurance, even money and surrender -- played on the firmware's engine
# from the firmware's shoe, written as a round history (felt.history.blackjack, .bjh). Used by the
# tests of `feltctl replay` and by the demo.
import random

from felt.engine.blackjack import rules as bjrules
from felt.engine.blackjack.round import DONE, SURRENDER, Round
from felt.engine.blackjack.shoe import Shoe
from felt.history import blackjack as bjh
from feltctl.blackjack import edge, strategy


def rounds(n, seed=1, rules_text="surrender=late", boxes=(1, 3, 4, 7)):
    """Yield (round number, shoe number, settled Round) for `n` rounds."""
    rng = random.Random(seed)
    rules = bjrules.parse(rules_text).replace({"cut_card": "count"})
    reg = edge.registry(rules.decks)
    ids = ["D%d" % d for d in range(1, rules.decks + 1)]
    tags = []
    for d in ids:
        tags.extend(reg.tags(d))
    played = shoe_no = 0
    while played < n:
        rng.shuffle(tags)
        shoe = Shoe(reg, ids, rules)
        shoe_no += 1
        it = iter(tags)
        while played < n and not shoe.end_round():
            played += 1
            yield played, shoe_no, _round(rules, rng, boxes, lambda: shoe.draw(next(it)))


def _round(rules, rng, boxes, draw):
    r = Round(rules)
    for b in boxes:
        if rng.random() < 0.8:
            r.bet(b, rng.choice((10, 20, 50, 100)))
    if not r.bets:
        r.bet(boxes[0], 10)
    r.close_bets()
    while r.phase != DONE:
        kind, box = r.expect()
        if kind == "card":
            r.deal(draw(), box)
        elif kind == "insurance":
            b = box[0]
            hand = r.box_hands(b)[0]
            if hand.natural() and rng.random() < 0.5:
                r.even_money(b)
            elif rules.insurance and rng.random() < 0.2:
                r.insure(b)
            elif rng.random() < 0.1:
                r.close_insurance()
            else:
                r.decline_insurance(b)
        else:
            hand = r.acting()
            legal = r.legal(box)
            choice = strategy.decide(hand.cards, r.dealer[0], legal, rules)
            if SURRENDER in legal and rng.random() < 0.05:
                choice = SURRENDER
            r.decide(box, choice)
    return r


def history(n, seed=1, rules_text="surrender=late", table="T1"):
    """A whole .bjh text of `n` rounds."""
    lines = [bjh.HEADER]
    for no, shoe_no, r in rounds(n, seed, rules_text):
        lines.append(bjh.write_line(r, no, shoe=shoe_no, table=table))
    return "\n".join(lines) + "\n"
