# The blackjack table controller (felt.table.blackjack) and its view (felt.table.blackjack_view):
# cards read leaving the shoe and arriving on the box and dealer antennas, seat buttons (a short press
# offers hit, double, split, surrender, re-double / insure, even money; a long press takes the offer or
# stands / declines), console entries, lights and display computed from state, each settled round as a
# history line, and the journal: a power cut at any input loses nothing of the round.
from check import eq
import kit
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


def shown_alert(t, rule):
    """The display shows the newest alert with its rule ID first ("!BJ-25 ..."), wrapped to 16."""
    return [ln for ln in view.lines(t) if ln.startswith("!" + rule + " ")] != []


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
    t.button(1, "short")  # offers hit
    t.button(1, "long")  # takes it
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
    assert shown_alert(t, "BJ-25"), view.lines(t)
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
    t.button(1, "short")  # offers insurance (half the bet)
    t.button(1, "long")  # takes it
    eq(t.insure(2, "maybe"), False)
    eq(t.alerts[-1][1], "BJ-15")
    t.insure(2, "no")
    eq(t.last_result, {1: 0, 2: -10})  # the dealer's blackjack: box 1 insured


# ---- the seat buttons: every decision without the console (issue 17 item 3) ----------------------------

def offered(t):
    return [ln for ln in view.lines(t) if "?" in ln and ":" in ln]


def test_BJ_6_a_short_press_offers_each_legal_decision_and_a_long_press_takes_it():
    # BJ-6 hit/stand, BJ-8 double, BJ-11 split, BJ-14 surrender -- on the seat button alone
    t = table(surrender="late")
    d = opened(t, {1: 10, 2: 10, 3: 10})
    for text, spot in (("8h", "box1"), ("Tc", "box2"), ("5c", "box3"), ("6d", "dealer"), ("8s", "box1"),
                       ("6c", "box2"), ("6h", "box3"), ("Ts", "dealer")):
        d.deal(text, spot)
    eq(t.options(1), ["hit", "double", "split", "surrender"])
    eq(offered(t), [])
    seen = []
    for _ in range(5):
        assert t.button(1, "short") is True
        seen.append(offered(t))
    # each press offers the next one, round and round; nothing is taken yet
    eq(seen, [["1: HIT? hold"], ["1: DOUBLE? hold"], ["1: SPLIT? hold"], ["1: SURRENDER?"], ["1: HIT? hold"]])
    eq(len(t.round.hands), 3)
    t.button(1, "short")
    t.button(1, "short")  # SPLIT?
    assert t.button(1, "long") is True
    eq([len(h.cards) for h in t.round.box_hands(1)], [1, 1])  # split (BJ-11)
    d.deal("3d", "box1")  # first hand 8 3 = 11: the old offer lapsed with the split
    eq(offered(t), [])
    t.button(1, "short")
    t.button(1, "short")  # DOUBLE? (BJ-9 double after split)
    t.button(1, "long")
    d.deal("9c", "box1")  # 20, doubled: one card, it stands (BJ-8)
    d.deal("Kd", "box1")  # second hand 8 K = 18
    t.button(1, "long")  # nothing offered: a long press stands (BJ-6)
    eq(t.round.acting().box, 2)
    for _ in range(4):
        t.button(2, "short")  # HIT, DOUBLE, SURRENDER? -- T 6 is no pair, so split is not offered
    eq(offered(t), ["2: HIT? hold"])
    t.button(2, "short")
    t.button(2, "short")
    eq(offered(t), ["2: SURRENDER?"])
    t.button(2, "long")  # surrender (BJ-14)
    t.button(3, "short")
    t.button(3, "long")  # hit
    d.deal("Jd", "box3")  # 21 stands by itself
    d.deal("7s", "dealer")  # dealer 6 T 7 = 23
    eq(t.last_result, {1: 30, 2: -5, 3: 10})


def test_BJ_5_a_button_out_of_turn_or_an_illegal_decision_is_a_named_error_on_display_and_log():
    logged = []
    t = BlackjackTable(BlackjackRules({"redouble": True}), REG, IDS, cut_uid=CUT_TAG, log=logged.append)
    eq(t.button(1, "short"), False)  # no round
    eq(t.alerts[-1][1], "BJ-5")
    d = opened(t, {1: 10, 2: 10})
    eq(t.button(2, "long"), False)  # before the deal
    for text, spot in (("5h", "box1"), ("As", "box2"), ("9d", "dealer"), ("6s", "box1"), ("As", "box2"),
                       ("8s", "dealer")):
        d.deal(text, spot)
    before = t.round.log[:]
    eq(t.button(2, "short"), False)  # box 1 decides
    eq(t.alerts[-1][:2], ("error", "BJ-5"))
    assert "box 1 decides now" in t.alerts[-1][2], t.alerts
    assert [x for x in logged if x.startswith("error BJ-5: box 2 button")], logged
    assert shown_alert(t, "BJ-5"), view.lines(t)
    eq(t.round.log, before)  # nothing changed (BJ-21)
    t.button(1, "short")
    t.button(1, "short")
    t.button(1, "long")  # double on 11
    d.deal("2c", "box1")  # 13 doubled: re-double is offered (BJ-10), hit is not (BJ-8)
    eq(t.options(1), ["redouble"])
    t.button(1, "short")
    eq(offered(t), ["1: REDOUBLE?"])
    t.button(1, "long")
    d.deal("4c", "box1")  # 17, three times the bet
    eq(t.round.acting().box, 2)
    t.button(2, "short")
    t.button(2, "short")
    t.button(2, "short")  # HIT, DOUBLE, SPLIT: the aces split
    t.button(2, "long")
    d.deal("5d", "box2")  # A 5: a split ace takes one card and stands (BJ-12)
    eq(t.button(2, "short"), False)  # the second ace is owed its card first (BJ-7): named, shown
    eq(t.alerts[-1][1], "BJ-7")
    assert shown_alert(t, "BJ-7"), view.lines(t)


def test_BJ_15_BJ_16_insurance_and_even_money_on_the_seat_buttons_and_their_lights():
    from felt.runtime import blackjack as bjrt
    from felt.drivers import neopixel_lights as leds

    t = table()
    d = opened(t, {1: 10, 2: 10, 3: 10})
    for text, spot in (("Th", "box1"), ("Ac", "box2"), ("9s", "box3"), ("Ad", "dealer"), ("7h", "box1"),
                       ("Kc", "box2"), ("8c", "box3"), ("5s", "dealer")):
        d.deal(text, spot)
    eq(bjrt.lights(t)[leds.ALL_IN], [1, 2, 3])  # every box may answer: their lights say so
    eq(bjrt.lights(t)[leds.ACTION], None)
    t.button(1, "short")
    eq(offered(t), ["1: INSURE? hold"])
    t.button(1, "long")  # insures half the bet
    t.button(2, "short")
    t.button(2, "short")
    eq(offered(t), ["2: EVEN MONEY?"])
    t.button(2, "long")
    eq(bjrt.lights(t)[leds.ALL_IN], [3])
    t.button(3, "long")  # nothing offered: declines
    eq(t.round.insurance, {1: 5, 2: 0, 3: 0})
    eq(bjrt.lights(t)[leds.ACTION], 1)  # no dealer blackjack: box 1 decides
    eq(t.round.box_hands(2)[0].even_money, True)


# ---- the display: every line fits the 16-character SSD1306 (issue 17 item 3) ----------------------------

def _fits(t, seen):
    got = view.lines(t)
    assert len(got) <= 8, got
    for ln in got:
        assert len(ln) <= 16, (ln, got)  # drivers/display.py cuts at 16: nothing may be cut
    r = t.round
    if r is not None and r.acting() is not None and not t.alerts:
        assert [ln for ln in got if ln.startswith(">")], got  # the acting hand stays in view
    seen.append(got)


def _tags(rng):
    tags = [uid(d, c) for d in range(1, 7) for c in range(52)]
    for i in range(len(tags) - 1, 0, -1):  # Fisher-Yates with the test's own generator
        j = rng.below(i + 1)
        tags[i], tags[j] = tags[j], tags[i]
    return tags


def _play_round(t, rng, tags, seen):
    from felt.engine.blackjack.round import DECISIONS

    if t.shoe is None or t.shoe.finished:
        t.new_shoe()
        tags[:] = _tags(rng)
    t.new_hand()
    for b in range(1, 8):
        if rng.below(3):
            t.bet(b, (1, 7, 99, 2500, 10000)[rng.below(5)])
            _fits(t, seen)
    t.close_bets()
    r = t.round
    while r.phase != "done":
        kind, who = r.expect()
        if kind == "card":
            u = tags.pop()
            t.shoe_card(u)
            t.antenna(("card-arrived", "dealer" if who == 0 else "box%d" % who, hexu(u)))
        elif kind == "insurance":
            t.button(who[0], "short" if rng.below(2) else "long")
        elif rng.below(6) == 0:
            t.button(1 + rng.below(7), "short")  # out of turn, or an offer: a named alert (BJ-5)
        elif rng.below(4) == 0:
            t.decide(who, DECISIONS[rng.below(len(DECISIONS))])  # maybe illegal: a named alert
        else:
            for _ in range(rng.below(4)):
                t.button(who, "short")
                _fits(t, seen)
            t.button(who, "long")
        if len(r.hands) < 20 and kind == "decision" and r.acting() is not None and r.can(who, "split"):
            t.decide(who, "split")  # as many split hands as the rules allow
        _fits(t, seen)


def test_BJ_4_every_display_line_fits_the_16_character_display():
    # before: blackjack_view formatted 21-character lines ("insurance? 1 2 3 4 5", " 3 soft 20 x2 ...",
    # long alerts) and drivers/display.py cut them at 16
    rng = kit.Rng(17)
    seen = []
    for rules in ({"surrender": "late", "redouble": True, "resplit_aces": True, "split_max_hands": 8,
                   "cut_card": "count"},
                  {"hole_card": "enhc", "blackjack_pays": "6:5", "cut_card": "count", "cut_percent": 10}):
        t = BlackjackTable(BlackjackRules(rules), REG, IDS)
        _fits(t, seen)
        tags = []
        for _ in range(12):
            _play_round(t, rng, tags, seen)
    assert len(seen) > 300, len(seen)
    shown = " ".join([ln for got in seen for ln in got])
    for word in ("insurance?", "soft", "bust", "!BJ-", "x2", "win", "lose"):
        assert word in shown, word  # the states the check went through
    t.tilt("journal record 1,204 does not verify: HMAC mismatch in sealed antenna record")
    _fits(t, seen)
    eq(view.lines(t)[:2], ["TILT", "PLAY LOCKED"])


# ---- the journal: a power cut at any input ------------------------------------------------------------

SCRIPT = [("new_shoe", ()), ("new_hand", ()), ("bet", (1, 10)), ("bet", (2, 20)), ("close_bets", ())]
CARDS = [("Th", "box1"), ("8c", "box2"), ("6d", "dealer"), ("6h", "box1"), ("8d", "box2"), ("Ts", "dealer")]
LATER = [("button", (1, "short")), ("button", (1, "long")), ("card", ("4c", "box1")), ("button", (1, "long")), ("decide", (2, "split")),
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


def _secret_free(where, texts, card, tag):
    for s in texts:
        assert card not in s and tag not in s, "%s names the face-down %s: %r" % (where, card, s)


def test_BJ_17_the_hole_card_is_named_on_no_display_log_console_or_audit_before_it_is_turned_up():
    # BJ-17 (peek): the hole card is dealt face down; as poker's secrecy guard keeps hole cards off
    # every public text (SHOW-11), a blackjack alert never names it before it is turned up -- here
    # three alerts that did: BJ-26 (the card read for the hole dropped on a box), BJ-24 (a card slid
    # onto the dealer's spot past the shoe reader), BJ-24 (the face-down card's tag read again at the
    # shoe). The log, the display, the console (notify) and the audit (notify) see one text.
    logged = []
    sent = []
    t = BlackjackTable(BlackjackRules({}), REG, IDS, cut_uid=CUT_TAG, log=logged.append, notify=sent.append)
    d = opened(t, {1: 10})
    for text, spot in (("Th", "box1"), ("6d", "dealer"), ("6h", "box1")):
        d.deal(text, spot)
    ok, hole = d.deal("9c", "box1")  # the hole card's read, dropped on box 1 (BJ-26)
    eq((ok, t.alerts[-1][1]), (False, "BJ-26"))
    assert "?? reached box 1" in t.alerts[-1][2], t.alerts[-1]
    stranger = uid(2, parse_card("8s"))  # a shoe card the reader never saw, on the dealer's spot (BJ-24)
    eq(t.antenna(("card-arrived", "dealer", hexu(stranger))), False)
    eq(t.alerts[-1][1], "BJ-24")
    _secret_free("alert", [a[2] for a in t.alerts], "8s", hexu(stranger))
    assert t.antenna(("card-arrived", "dealer", hexu(hole))) is True  # moved: the hole card, face down
    eq(view.lines(t)[1], "D 6d ??")
    eq(t.secret(), (["9c"], [hexu(hole)]))  # what every text leaving the table is cleaned of
    eq(t.shoe_card(hole), False)  # its tag read again at the shoe: already out (BJ-24)
    eq(t.alerts[-1][1], "BJ-24")
    for where, texts in (("alert", [a[2] for a in t.alerts]), ("log", logged), ("console/audit", [a[2] for a in sent]),
                         ("display", view.lines(t))):
        _secret_free(where, texts, "9c", hexu(hole))
    # turned up: the dealer plays; from now on the card is named as any other (not a blanket veil)
    assert t.decide(1, "stand") is True
    d.deal("Ks", "dealer")
    eq(t.round.phase, "done")
    eq(t.shoe_card(hole), False)
    assert "9c (deck D1) is already out" in t.alerts[-1][2], t.alerts[-1]
    assert "9c (deck D1) is already out" in logged[-1], logged[-1]


def test_BJ_17_veil_hides_card_words_only():
    from felt.table.blackjack import EVERY, veil

    eq(veil("The Qs on AhQs, not Qsx", ["Qs"], []), "The ?? on Ah??, not Qsx")
    eq(veil("tag 04AB on Kd", EVERY, ["04AB"]), "tag ?? on ??")
    eq(veil("As 5c", ["9c"], []), "As 5c")
