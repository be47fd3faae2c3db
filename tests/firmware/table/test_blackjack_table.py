# The blackjack table controller (felt.table.blackjack) and its view (felt.table.blackjack_view):
# cards read leaving the shoe and arriving on the box and dealer antennas, seat buttons (short = hit,
# long = stand), console entries, lights and display computed from state, each settled round as a
# history line, and the journal: a power cut at any input loses nothing of the round.
from check import eq
from felt.engine.blackjack.rules import BlackjackRules
from felt.engine.cards import parse_card
from felt.engine.deck import DeckRegistry
from felt.history import blackjack as bjh
from felt.recovery import journal as jr
from felt.recovery import restore as rs
from felt.table import blackjack_view as view
from felt.table.blackjack import BlackjackTable

CUT_TAG = bytes([0x04, 0xCC, 0xCC, 0xCC, 0xCC, 0xCC, 0x01])
IDS = ["D1", "D2", "D3", "D4", "D5", "D6"]


def uid(deck, card):
    return bytes([0x04, deck, 0x10, 0x20, 0x30, 0x40, card])


def hexu(u):
    return "".join(["%02X" % b for b in u])


REG = DeckRegistry()
for _d in range(1, 8):
    REG.register("D%d" % _d, dict([(uid(_d, c), c) for c in range(52)]))


def table(history=None, **rules):
    t = BlackjackTable(BlackjackRules(rules), REG, IDS, cut_uid=CUT_TAG, history=history)
    return t


class Dealer:
    """Deals named cards: the shoe reads the tag, then it lands on a spot (deck D1, then D2 ...)."""

    def __init__(self, t):
        self.t = t
        self.used = {}

    def tag(self, text):
        c = parse_card(text)
        n = self.used.get(c, 0) + 1
        self.used[c] = n
        return uid(n, c)

    def deal(self, text, spot, to=None):
        u = self.tag(text)
        assert self.t.shoe_card(u) is True
        return self.t.antenna(("card-arrived", to or spot, hexu(u))), u


def opened(t, bets):
    t.new_shoe()
    t.new_hand()
    for b in sorted(bets):
        t.bet(b, bets[b])
    t.close_bets()
    return Dealer(t)


def test_BJ_4_a_round_through_shoe_antennas_buttons_and_console():
    got = []
    t = table(history=got.append)
    d = opened(t, {1: 10, 3: 20})
    for text, spot in (("Th", "box1"), ("9c", "box3"), ("6d", "dealer"), ("6h", "box1"), ("Ac", "box3"), ("Ts", "dealer")):
        d.deal(text, spot)
    eq(view.lights(t), {1: "act", 2: "off", 3: "bet", 4: "off", 5: "off", 6: "off", 7: "off"})
    eq(view.lines(t)[1:4], ["D 6d ??", ">1 16", " 3 soft 20"])  # the hole card stays hidden
    assert t.button(3, "short") is False  # not box 3's turn
    t.button(1, "short")  # hit
    d.deal("2c", "box1")
    eq(view.lines(t)[2], ">1 18")
    t.button(1, "long")  # stand
    eq(view.lights(t)[3], "act")
    t.decide(3, "stand")
    eq(t.round.expect(), ("card", 0))
    eq(view.lines(t)[1], "D 6d Ts 16")  # the hole card turned over
    d.deal("3s", "dealer")
    eq(view.lights(t)[1], "lost")
    eq(view.lights(t)[3], "won")
    eq(t.last_result, {1: -10, 3: 20})
    eq(t.house, -10)
    eq(len(got), 1)
    eq(bjh.replay_line(got[0])["net"], {"1": -10, "3": 20})
    assert got[0].startswith("round=1 shoe=1 table=T1 | b1=10 b3=20 go 1:Th"), got[0]


def test_BJ_25_card_on_the_wrong_box_waits_until_the_dealer_moves_it():
    t = table()
    d = opened(t, {1: 10, 3: 20})
    ok, u = d.deal("Th", "box1", to="box3")
    assert ok is False
    eq(t.alerts[-1][1], "BJ-25")
    assert view.lines(t)[-1].startswith("!BJ-25"), view.lines(t)
    eq(len(t.drawn), 1)
    assert t.antenna(("card-arrived", "box1", hexu(u))) is True  # moved to box 1
    eq(t.round.box_hands(1)[0].cards, [parse_card("Th")])


def test_BJ_26_missed_hole_card_is_shown():
    t = table()
    d = opened(t, {1: 10})
    for text, spot in (("Th", "box1"), ("6d", "dealer"), ("6h", "box1")):
        d.deal(text, spot)
    d.deal("9c", "box1")  # the hole card went to box 1
    eq(t.alerts[-1][1], "BJ-26")
    eq(t.button(1, "short"), False)  # no decision before the hole card
    eq(t.alerts[-1][1], "BJ-26")


def test_BJ_27_foreign_deck_and_cards_not_from_the_shoe_are_named():
    t = table()
    d = opened(t, {1: 10})
    eq(t.shoe_card(uid(7, 5)), False)  # D7 is registered but not in the shoe
    eq(t.alerts[-1][1], "BJ-27")
    eq(t.shoe.dealt, 0)
    eq(t.antenna(("card-arrived", "box1", hexu(uid(7, 5)))), False)
    eq(t.alerts[-1][1], "BJ-27")
    eq(t.antenna(("card-arrived", "box1", hexu(uid(2, 5)))), False)  # a shoe card the reader never saw
    eq(t.alerts[-1][1], "BJ-24")
    d.deal("Th", "box1")
    eq(t.round.box_hands(1)[0].cards, [parse_card("Th")])


def test_BJ_23_cut_card_finishes_the_shoe_after_the_round():
    t = table()
    d = opened(t, {1: 10})
    d.deal("Th", "box1")
    assert t.shoe_card(CUT_TAG)
    eq(t.alerts[-1][1], "BJ-23")
    for text, spot in (("6d", "dealer"), ("9h", "box1"), ("Ts", "dealer")):
        d.deal(text, spot)
    t.button(1, "long")
    d.deal("5s", "dealer")
    eq(t.state, "idle")
    assert t.shoe.finished
    eq(t.new_hand(), False)  # a new shoe first
    assert t.new_shoe() and t.new_hand()


def test_BJ_15_insurance_buttons_and_console_answers():
    t = table()
    d = opened(t, {1: 10, 2: 10})
    for text, spot in (("Th", "box1"), ("9c", "box2"), ("Ad", "dealer"), ("7h", "box1"), ("8c", "box2"), ("Ks", "dealer")):
        d.deal(text, spot)
    eq(view.lights(t)[1], "insure")
    t.button(1, "short")  # insures half the bet
    eq(t.insure(2, "maybe"), False)
    eq(t.alerts[-1][1], "BJ-15")
    t.insure(2, "no")
    eq(t.last_result, {1: 0, 2: -10})  # the dealer's blackjack: box 1 insured


# ---- the journal: a power cut at any input ------------------------------------------------------------

SCRIPT = [("new_shoe", ()), ("new_hand", ()), ("bet", (1, 10)), ("bet", (2, 20)), ("close_bets", ())]
CARDS = [("Th", "box1"), ("8c", "box2"), ("6d", "dealer"), ("6h", "box1"), ("8d", "box2"), ("Ts", "dealer")]
LATER = [("button", (1, "short")), ("card", ("4c", "box1")), ("button", (1, "long")), ("decide", (2, "split")),
         ("card", ("3c", "box2")), ("decide", (2, "double")), ("card", ("9s", "box2")), ("card", ("Kc", "box2")),
         ("button", (2, "long")), ("card", ("2h", "dealer")), ("new_hand", ()), ("bet", (1, 10))]


def inputs():
    out = list(SCRIPT)
    for c in CARDS:
        out.append(("card", c))
    return out + LATER


def run(t, steps, tags):
    for name, args in steps:
        if name == "card":
            text, spot = args
            u = tags.pop(0)
            t.shoe_card(u)
            t.antenna(("card-arrived", spot, hexu(u)))
        else:
            getattr(t, name)(*args)


def tag_list():
    d = Dealer(None)
    return [d.tag(text) for name, args in inputs() if name == "card" for text in (args[0],)]


def boot(flash, got):
    j = jr.Journal(flash)
    t, rec, report = rs.restore_table(j, lambda sink: table(history=sink), history=got.append)
    return t


def state(t):
    return (view.lines(t), view.lights(t), t.round.log if t.round else None, t.house, t.shoe.save() if t.shoe else None)


def test_BJ_21_power_cut_after_any_input_loses_nothing():
    steps = inputs()
    # the run with no cut
    flash = jr.MemFlash()
    whole = []
    t = boot(flash, whole)
    run(t, steps, tag_list())
    want = state(t)
    eq(len(whole), 1)
    for k in range(1, len(steps)):
        flash = jr.MemFlash()
        got = []
        t = boot(flash, got)
        tags = tag_list()
        run(t, steps[:k], tags)
        t2 = boot(flash.copy(), got)  # the power went after input k; the board boots again
        run(t2, steps[k:], tags)
        eq(state(t2), want, "cut after input %d" % k)
        eq(got, whole, "cut after input %d" % k)
