# Simulated blackjack table (sim layer; issue 17 item 5): seeded rounds played through the blackjack
# table controller (felt.table.blackjack) as physical events -- a tag read leaving the shoe, then the
# card arriving on a box or the dealer antenna, seat buttons for hit and stand, console entries for
# bets, double, split, surrender and insurance -- shown live as the display and lights compute them
# (felt.table.blackjack_view). Each settled round is written as a .bjh line; at the end the history
# is replayed through the engine and the chips are checked. Runs on MicroPython and CPython alike:
#   micropython -m felt.sim.blackjack [--rounds N] [--seed S] [--out FILE.bjh] [--quiet]
import sys

from felt.engine.blackjack import totals
from felt.engine.blackjack.round import DEALER, DOUBLE, SPLIT, SURRENDER
from felt.engine.blackjack.rules import BlackjackRules
from felt.engine.deck import DeckRegistry
from felt.history import blackjack as bjh
from felt.table import blackjack_view as view
from felt.table.blackjack import BlackjackTable

CUT_TAG = bytes([0x04, 0xC0, 0x7C, 0x7C, 0x7C, 0x7C, 0x01])
DECKS = 6


class Lcg:
    """A seeded generator that gives the same numbers on every interpreter."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 12345) % 2147483648

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) % 2147483648
        return (self.x >> 8) % n


def tag(deck, card):
    return bytes([0x04, 0xB0 + deck, 0x5E, 0xED, 0x00, deck, card])


def hexu(u):
    return "".join(["%02X" % b for b in u])


def registry():
    reg = DeckRegistry()
    for d in range(1, DECKS + 1):
        reg.register("S%d" % d, dict([(tag(d, c), c) for c in range(52)]))
    return reg


def shuffled(rng):
    """The shoe's tags in dealing order, the cut card placed at about three quarters."""
    tags = [tag(d, c) for d in range(1, DECKS + 1) for c in range(52)]
    for i in range(len(tags) - 1, 0, -1):
        j = rng.below(i + 1)
        tags[i], tags[j] = tags[j], tags[i]
    cut = len(tags) * 3 // 4 + rng.below(20) - 10
    tags.insert(cut, CUT_TAG)
    return tags


def choose(hand, up, legal):
    """A simple fixed player (the basic-strategy player lives host side): split aces and eights,
    double 10 and 11, surrender 16 against a ten, hit to 17 (12-16 stand against 2-6)."""
    t, soft = hand.total()
    u = totals.value(up)
    if SPLIT in legal and totals.value(hand.cards[0]) in (8, 11):
        return SPLIT
    if SURRENDER in legal and not soft and t == 16 and u == 10:
        return SURRENDER
    if DOUBLE in legal and not soft and (t == 11 or (t == 10 and u <= 9)):
        return DOUBLE
    if soft:
        return "hit" if t <= 17 else "stand"
    if t <= 11 or (t <= 16 and u >= 7):
        return "hit"
    return "stand"


class Sim:
    def __init__(self, seed, out, show):
        self.rng = Lcg(seed)
        self.show = show
        self.history = []
        self.table = BlackjackTable(BlackjackRules({"surrender": "late"}), registry(), ["S%d" % d for d in range(1, DECKS + 1)],
                                    cut_uid=CUT_TAG, name="BJ1", log=None, history=self.history.append,
                                    notify=self._alert)
        self.tags = []
        self.alerts = []  # the rule of each alert
        self.out = out
        self.wrong_box_shown = False

    def _alert(self, a):
        self.alerts.append(a[1])
        if self.show:
            print("  ! %s %s: %s" % (a[0], a[1], a[2]))

    def screen(self, what):
        if not self.show:
            return
        t = self.table
        lights = view.lights(t)
        row = " ".join(["%d:%s" % (b, lights[b]) for b in sorted(lights) if lights[b] != "off"])
        print("  [%s] lights %s" % (what, row or "-"))
        for line in view.lines(t):
            print("  | " + line)

    def deal_one(self, spot):
        t = self.table
        u = self.tags.pop(0)
        t.shoe_card(u)
        if u == CUT_TAG:
            u = self.tags.pop(0)
            t.shoe_card(u)
        loc = "dealer" if spot == DEALER else "box%d" % spot
        if not self.wrong_box_shown and spot != DEALER and t.round.phase == "playing":
            # once: the dealer puts a hit card on the box beside; the table refuses it (BJ-25)
            self.wrong_box_shown = True
            other = 7 if spot != 7 else 1
            t.antenna(("card-arrived", "box%d" % other, hexu(u)))
            self.screen("card on the wrong box")
        t.antenna(("card-arrived", loc, hexu(u)))

    def round(self):
        t = self.table
        rng = self.rng
        if t.shoe is None or t.shoe.finished:
            t.new_shoe()
            self.tags = shuffled(rng)
        t.new_hand()
        for b in (1, 2, 4, 5, 7):
            if rng.below(10) < 7:
                t.bet(b, (5, 10, 25, 50)[rng.below(4)])
        if not t.round.bets:
            t.bet(4, 10)
        t.close_bets()
        r = t.round
        shown = False
        while r.phase != "done":
            kind, who = r.expect()
            if kind == "card":
                self.deal_one(who)
            elif kind == "insurance":
                b = who[0]
                if r.box_hands(b)[0].natural():
                    t.insure(b, "even")
                else:
                    t.button(b, "long")  # no insurance
            else:
                if not shown:
                    self.screen("dealt")
                    shown = True
                d = choose(r.acting(), r.dealer[0], r.legal(who))
                if d in ("hit", "stand"):  # the seat button: short offers hit, long takes it (or stands)
                    if d == "hit":
                        t.button(who, "short")
                    t.button(who, "long")
                else:
                    t.decide(who, d)
        self.screen("settled")


def main(argv):
    rounds = 12
    seed = 1
    out = None
    show = True
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--rounds", "--seed", "--out") and i + 1 < len(argv):
            if a == "--out":
                out = argv[i + 1]
            else:
                v = int(argv[i + 1])
                if a == "--rounds":
                    rounds = v
                else:
                    seed = v
            i += 2
        elif a == "--quiet":
            show = False
            i += 1
        else:
            print("usage: felt.sim.blackjack [--rounds N] [--seed S] [--out FILE.bjh] [--quiet]")
            return 2
    sim = Sim(seed, out, show)
    t = sim.table
    nets = 0
    for n in range(rounds):
        if show:
            print("round %d" % (n + 1))
        sim.round()
        for b in t.last_result:
            nets += t.last_result[b]
    text = bjh.HEADER + "\n" + "\n".join(sim.history) + "\n"
    if out:
        with open(out, "w") as f:
            f.write(text)
    replayed = bjh.replay_text(text)
    same = 0
    for r in replayed:
        if "error" not in r:
            same += 1
    print("=== blackjack summary ===")
    print("rounds: %d in %d shoe(s); boxes %+d, house %+d: chips conserved: %s" % (
        rounds, t.shoe_no, nets, t.house, "yes" if nets == -t.house else "NO"))
    print("alerts: %d (%d wrong box BJ-25, shown once on purpose; %d cut card and shoe ends BJ-23; %d other)" % (
        len(sim.alerts), sim.alerts.count("BJ-25"), sim.alerts.count("BJ-23"),
        len(sim.alerts) - sim.alerts.count("BJ-25") - sim.alerts.count("BJ-23")))
    print("round histories: %d lines%s, %d replay to the same nets" % (
        len(sim.history), (" written to " + out) if out else "", same))
    others = len(sim.alerts) - sim.alerts.count("BJ-25") - sim.alerts.count("BJ-23")
    return 0 if nets == -t.house and same == rounds and not others else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
