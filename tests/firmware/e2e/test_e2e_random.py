# End to end, seeded random play: for every game, hands with random legal-looking entries (fold,
# call, minimum raise, all-in, draws) dealt in the right order through the simulated table. Checks
# that every hand ends with the pot awarded, chips conserved, no dealing alert, and no entry
# rejected except the ones a random player can make (above the pot limit, off the limit size).
from check import eq

from felt import view
from felt.engine.cards import card_text
from felt.sim.runner import Sim

GAMES = (("holdem", "no_limit", "sb=5 bb=10"), ("holdem", "pot_limit", "sb=5 bb=10"),
         ("holdem", "limit", "sb=5 bb=10 small_bet=10 big_bet=20"), ("omaha", "pot_limit", "sb=5 bb=10"),
         ("omaha8", "limit", "sb=5 bb=10 small_bet=10 big_bet=20"),
         ("stud7", "limit", "ante=2 bring_in=5 small_bet=10 big_bet=20"),
         ("stud7_8", "limit", "ante=2 bring_in=5 small_bet=10 big_bet=20"),
         ("stud5", "limit", "ante=2 bring_in=5 small_bet=10 big_bet=20"), ("draw5", "no_limit", "sb=5 bb=10"))
EXPECTED = ("BET-24", "BET-3", "GAME-16")  # random amounts a real dealer would not enter


class Rng:
    def __init__(self, seed):
        self.s = seed * 7919 + 1

    def below(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n


def shuffled(rng):
    d = list(range(52))
    for i in range(51, 0, -1):
        j = rng.below(i + 1)
        d[i], d[j] = d[j], d[i]
    return d


def next_card(sim, t, rng, deck, k):
    """One physical step of dealing: what the engine says is due. Returns the new deck index."""
    h = t.hand
    g = t.config.record
    if g.streets[h.street].burn and not h.burned:  # DEAL-47: the burn comes first, even if all stand pat
        sim.run("draw %s to burn" % card_text(deck[k]))
        return k + 1
    if h.phase == "draw" and h.drawer() is not None:
        seat = t.setup.seats[h.drawer()]
        if rng.below(2):
            sim.run("move %s from seat %d to muck" % (card_text(h.hole[h.drawer()][0]), seat))
            sim.run("draw %s to seat %d" % (card_text(deck[k]), seat))
            return k + 1
        sim.run("act %d check" % seat)  # stands pat
        return k
    p = h.next_hole_position()
    if p is not None:
        sim.run("draw %s to seat %d" % (card_text(deck[k]), t.setup.seats[p]))
        return k + 1
    sim.run("draw %s to board" % card_text(deck[k]))
    return k + 1


def act(sim, t, rng):
    h = t.hand
    lg = h.legal()
    seat = t.setup.seats[h.actor]
    r = rng.below(20)
    if lg.bring_in:
        sim.run("act %d bringin" % seat)
    elif r < 3:
        sim.run("act %d fold" % seat)
    elif r < 6 and lg.can_raise:
        sim.run("act %d raise %d" % (seat, lg.min_to))
    elif r < 7:
        sim.run("act %d allin" % seat)
    else:
        sim.run("act %d call" % seat)


def scaled(extra, scale):
    """'sb=5 bb=10' with every amount times `scale`."""
    out = []
    for word in extra.split():
        k, v = word.split("=")
        out.append("%s=%d" % (k, int(v) * scale))
    return " ".join(out)


def numbers(lines):
    """The whole numbers shown, as strings ('MIN 7692 MAX 9800' -> '7692', '9800')."""
    out = []
    for line in lines:
        run = ""
        for c in line + " ":
            if c.isdigit():
                run += c
            elif run:
                out.append(run)
                run = ""
    return out


def check_display(t):
    # the view never makes a line wider than the panel (the driver would cut it), and the
    # amounts it shows are whole: a cut number misreads ("MAX 980" for 9800)
    lines = view.lines(t)
    assert len(lines) <= 8, lines
    for line in lines:
        assert len(line) <= view.WIDTH, (line, lines)
    live = [a for a in t.alerts if a.level != "info"]
    if live:
        # the newest alert's words follow its rule line whole (a panel has room for some of them)
        a = live[-1]
        words = a.text.split()
        k = 0
        while k < len(lines) and not lines[k].startswith("!"):
            k += 1
        k += 1
        if k < len(lines) and a.rules and not [r for r in lines[k].split("/") if r not in a.rules]:
            k += 1  # the rule IDs took a second line
        got = " ".join([x for x in lines[k:] if not x.startswith("CONFIRM #")]).split()
        eq(got, words[:len(got)], "alert words")
        return  # the alert took the place of the lower status lines
    shown = numbers(lines)
    want = [t.hand_no]
    if t.state == "playing":
        h = t.hand
        want.append(h.pot_total())
        lg = h.legal()
        if lg is not None:
            want.append(lg.bring_in or lg.call or t.setup.seats[lg.position])
            if lg.can_raise:
                want.extend([lg.min_to, lg.max_to])
    elif t.state == "over":
        for a in (t.hand.results or [])[:3]:
            want.append(sum([c for _p, c in a.shares]))
    for n in want:
        assert "%d" % n in shown, (n, lines)


def play(seed, hands=2, scale=1, display=False):
    rng = Rng(seed)
    game, structure, extra = GAMES[seed % len(GAMES)]
    seats = 2 + rng.below(5)
    sim = Sim()
    sim.run("table %s %s seats=%d %s button=1" % (game, structure, seats, scaled(extra, scale)))
    for s in range(1, seats + 1):
        sim.run("seat %d %d" % (s, (60, 200, 500)[rng.below(3)] * scale + rng.below(scale)))
    t = sim.table
    total = sum(t.stacks)
    for _ in range(hands):
        sim.run("hand")
        if t.state != "playing":
            break  # fewer than two players left
        deck = shuffled(rng)
        k = 0
        for _step in range(300):
            if t.state != "playing":
                break
            assert t.hand.phase != "showdown", t.alerts
            if t.hand.phase in ("deal", "draw"):
                k = next_card(sim, t, rng, deck, k)
            else:
                act(sim, t, rng)
            if display:
                check_display(t)
        eq(t.state, "over", game)
        if display:
            check_display(t)
            want = [line.upper() for line in view.lines(t)]  # case-blind: the CPython font is upper case
            eq([line.upper() for line in sim.oled.text_lines()[:len(want)]], want)  # every line shown whole
        bad = [a for a in t.alerts if a.level != "info" and not (a.rules and a.rules[0] in EXPECTED)]
        eq(bad, [], game)
        eq(sum(t.stacks), total, game)
        sim.run("clear")


def test_random_holdem_no_limit():
    play(0)


def test_random_holdem_pot_limit():
    play(1)


def test_random_holdem_limit():
    play(2)


def test_random_omaha():
    play(3)


def test_random_omaha8():
    play(4)


def test_random_stud7():
    play(5)


def test_random_stud7_8():
    play(6)


def test_random_stud5():
    play(7)


def test_random_draw5():
    play(8)


def test_display_lines_never_exceed_the_panel_width_in_random_play():
    # every game at stakes where amounts run to 5-6 digits ("MIN 7692 MAX 9800" does not fit)
    for seed in range(len(GAMES)):
        play(seed, hands=2, scale=997, display=True)
