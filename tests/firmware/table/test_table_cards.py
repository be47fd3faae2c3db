# The table controller alone (no hardware): physical events as method calls -- shoe reads, antenna
# arrivals/departures -- and the per-hand account of the 52 cards, cards drawn 'nowhere' (DEAL-3),
# missed shoe reads, double reads, foreign tags (DECK-5), the PHH hand history sink.
from check import eq, raises

from felt.history import phh
from felt.errors import RuleError
from felt.sim.runner import card_uid, registry
from felt.engine.cards import parse_card
from felt.table.controller import Table, TableConfig


def hexu(card):
    return "".join(["%02X" % b for b in card_uid(parse_card(card))])


def new_table(seats=3, history=None, log=None):
    t = Table(TableConfig(game="holdem", structure="no_limit", seats=seats, sb=50, bb=100, button=1), registry(),
              log=log, history=history)
    for s in range(1, seats + 1):
        t.sit(s, 1000)
    t.new_hand()
    return t


def draw(t, card, loc):
    """Shoe read, then the antenna at `loc` sees it (loc None: no antenna)."""
    t.shoe_card(card_uid(parse_card(card)))
    if loc is not None:
        t.antenna(("card-arrived", loc, hexu(card)))


def deal(t, pairs):
    for card, loc in pairs:
        draw(t, card, loc)


HOLE = [("Ah", "seat2"), ("Kd", "seat3"), ("Qs", "seat1"), ("Qh", "seat2"), ("Kc", "seat3"), ("2s", "seat1")]


def test_account_of_all_52_cards():
    t = new_table()
    eq(t.account(), {"shoe": 52})
    deal(t, HOLE)
    eq(t.account(), {"shoe": 46, "seat 1": 2, "seat 2": 2, "seat 3": 2})
    t.act(1, "call")
    t.act(2, "call")
    t.act(3, "check")
    deal(t, [("3c", "burn"), ("7h", "board"), ("8h", "board"), ("9c", "board")])
    eq(t.account(), {"shoe": 42, "seat 1": 2, "seat 2": 2, "seat 3": 2, "the burn": 1, "the board": 3})
    t.antenna(("card-left", "seat1", hexu("Qs")))
    eq(t.account()["off"], 1)
    eq(t.hand.board, [parse_card("7h"), parse_card("8h"), parse_card("9c")])


def test_DEAL_3_a_read_card_that_reaches_no_antenna_is_a_burn():
    t = new_table()
    deal(t, HOLE)
    t.act(1, "call")
    t.act(2, "call")
    t.act(3, "check")
    draw(t, "3c", None)
    eq(t.busy(), True)  # the loop waits a full sweep before calling it a burn
    draw(t, "7h", "board")  # the next read settles the first: it went nowhere
    eq(t.hand.burns, [parse_card("3c")])
    eq(t.where[parse_card("3c")], "nowhere")
    eq(t.busy(), False)


def test_antenna_before_shoe_waits_for_the_read_then_a_missed_read_is_taken_from_the_antenna():
    t = new_table()
    t.antenna(("card-arrived", "seat2", hexu("Ah")))
    eq(t.busy(), True)
    t.shoe_card(card_uid(parse_card("Ah")))  # the read comes late: the card lands
    eq(t.where[parse_card("Ah")], 2)
    eq(t.alerts, [])
    t.antenna(("card-arrived", "seat3", hexu("Kd")))  # never read by the shoe
    t.resolve()
    eq(t.where[parse_card("Kd")], 3)
    eq(t.alerts[-1].rules, ("DECK-5",))
    assert "without a shoe read" in t.alerts[-1].text, t.alerts[-1]
    eq(t.alerts[-1].device, "shoe")


def test_tag_read_twice_counts_once():
    t = new_table()
    uid = card_uid(parse_card("Ah"))
    t.shoe_card(uid)
    t.shoe_card(uid, repeat=True)
    t.antenna(("card-arrived", "seat2", hexu("Ah")))
    eq(len(t.dc.draws), 1)
    eq(t.alerts[-1].rules, ("DECK-5",))


def test_DECK_5_unknown_and_foreign_tags():
    t = new_table()
    t.shoe_card(bytes([4, 1, 2, 3, 4, 5, 6]))
    eq(t.alerts[0].rules, ("DECK-5",))
    assert "not registered" in t.alerts[0].text, t.alerts[0]
    t.shoe_card(card_uid(5, "B"))  # the first stranger reached no antenna: set aside (DEAL-19)
    eq([a.rules for a in t.alerts], [("DECK-5",), ("DECK-5",), ("DEAL-19",)])
    assert "deck B" in t.alerts[1].text, t.alerts[1]
    eq(len(t.flight), 1)


def test_actions_before_a_hand_and_by_seats_not_dealt_in_are_alerts():
    t = Table(TableConfig(game="holdem", structure="no_limit", seats=4, sb=5, bb=10), registry())
    t.sit(1, 100)
    t.sit(2, 100)
    eq(t.act(1, "call"), None)
    eq(t.alerts[-1].rules, ("GAME-6",))
    t.new_hand()
    eq(t.act(4, "call"), None)
    eq(t.alerts[-1].rules, ("DEAL-5",))
    with raises(RuleError, match="GAME-6"):
        t.new_hand()  # the hand is not over


def test_hand_history_is_written_as_phh_when_the_hand_ends():
    out = []
    t = new_table(history=out.append)
    deal(t, HOLE)
    t.act(1, "fold")
    eq(out, [])
    t.act(2, "fold")
    eq(len(out), 1)
    h = phh.read(out[0])
    eq(h.variant, "NT")
    eq(h.starting_stacks, [1000, 1000, 1000])
    eq(h.finishing_stacks, [950, 1050, 1000])
    eq(h.actions[:2], ["d dh p1 Ah", "d dh p2 Kd"])
    eq(h.actions[-2:], ["p3 f", "p1 f"])


def test_hole_cards_stay_out_of_the_public_log_until_the_showdown():
    log = []
    t = new_table(log=log.append)
    deal(t, HOLE)
    for line in log:
        for c in ("Ah", "Kd", "Qs", "Qh", "Kc", "2s"):
            assert c not in line, line


def test_findings_that_name_a_hole_card_do_not_show_it():
    log = []
    t = new_table(log=log.append)
    deal(t, HOLE)
    t.act(1, "call")
    t.act(2, "call")
    t.act(3, "check")
    deal(t, [("3c", "burn"), ("7h", "board"), ("Ah", "board")])  # Ah again: a fouled deck (DEAL-18)
    a = t.alerts[-1]
    eq(a.rules, ("DEAL-18",))
    assert "a hole card" in a.text and "Ah" not in a.text, a.text
    for line in log:
        assert "Ah" not in line, line


def test_DEAL_27_the_hold_check_at_every_card_allocates_nothing():
    # Table._holding (DEAL-27/28: a street held while the dealer rules on rebuilding it) runs at every
    # card and action fed to the Hand; it made a list of the dealing check's pending findings each
    # time (hardware/memory.md, showdown round). MicroPython only (heap_lock).
    import check
    t = new_table()
    for card, loc in (("Ah", "seat2"), ("Kd", "seat3"), ("Qc", "seat1")):
        draw(t, card, loc)
    eq(t._holding(), False)
    if not check.MICROPYTHON:
        return
    import gc
    import micropython
    gc.collect()
    micropython.heap_lock()
    try:
        held = t._holding()
    finally:
        micropython.heap_unlock()
    eq(held, False)
