# A seat passed over in the initial deal, through the simulated table (issue 14, item 1): the
# button receives the last card of every round (DEAL-2), so once it holds its last card the deal is
# over -- every seat's count is checked (DEAL-26) and a seat left short is a misdeal before SA
# (DEAL-9, DEAL-10) instead of a card the table waits for while refusing every action. Hold'em,
# Omaha and 7-card stud, a seat skipped in the first and in the second round; DEAL-23 (the button
# two cards in a row) is no misdeal; cash corrects a short seat from the stub (DEAL-10 exception).
# Runs under CPython and MicroPython.
from check import eq

from felt.sim.runner import Sim

TABLES = {
    "holdem": "table holdem no_limit seats=3 sb=50 bb=100 button=1",
    "omaha": "table omaha pot_limit seats=3 sb=50 bb=100 button=1",
    "stud7": "table stud7 limit seats=3 ante=5 bring_in=10 small_bet=20 big_bet=40 button=1",
}
ROUNDS = {"holdem": 2, "omaha": 4, "stud7": 3}
CARDS = ("Ah", "Kd", "Qs", "Jc", "Th", "9d", "8s", "7c", "6h", "5d", "4s", "3c", "2h", "As")
ORDER = (2, 3, 1)  # button seat 1: seats 2, 3, then the button (DEAL-2)


def table(game, mode="tournament"):
    sim = Sim()
    sim.run(TABLES[game] + " mode=" + mode)
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    sim.run("hand")
    return sim


def deal_order(game, skip_round, skip_seat=3):
    """The seats of the initial deal with `skip_seat` passed over in round `skip_round` (1-based)."""
    out = []
    for r in range(1, ROUNDS[game] + 1):
        for s in ORDER:
            if not (r == skip_round and s == skip_seat):
                out.append(s)
    return out


def deal(sim, seats):
    for i in range(len(seats)):
        sim.run("draw %s to seat %d" % (CARDS[i], seats[i]))


def citing(t, rule, status=None):
    return [a for a in t.alerts if rule in a.rules and (status is None or a.status == status)]


def skipped_is_a_misdeal(game, skip_round):
    sim = table(game)
    t = sim.table
    seats = deal_order(game, skip_round)
    deal(sim, seats[:-1])
    eq(citing(t, "DEAL-9"), [], "before the button's last card")
    deal_last = seats[-1]
    eq(deal_last, 1)  # the button's last card ends the deal
    sim.run("draw %s to seat 1" % CARDS[len(seats) - 1])
    props = citing(t, "DEAL-9", "proposed")
    eq(len(props), 1, "one misdeal proposal")
    eq(props[0].rules, ("DEAL-10", "DEAL-9", "DEAL-26"))
    assert "seat 3 holds %d card(s) (-1)" % (ROUNDS[game] - 1) in props[0].text, props[0].text
    eq(len(t.pending()), 1)
    hand_no = t.hand_no
    stacks = list(t.stacks)
    sim.run("confirm")
    sim.run("clear")
    assert citing(t, "DEAL-14"), [a.line() for a in t.alerts]
    eq(t.hand_no, hand_no)  # the same hand is dealt again (DEAL-14)
    eq(t.misdeals, 1)
    eq(t.stacks, stacks)
    # the redeal, dealt right, plays
    deal(sim, list(ORDER) * ROUNDS[game])
    eq(t.pending(), [])
    assert t.hand.actor is not None, t.hand.phase


def test_DEAL_9_holdem_seat_skipped_in_the_first_round():
    skipped_is_a_misdeal("holdem", 1)


def test_DEAL_9_holdem_seat_skipped_in_the_second_round():
    skipped_is_a_misdeal("holdem", 2)


def test_DEAL_9_omaha_seat_skipped_in_the_first_round():
    skipped_is_a_misdeal("omaha", 1)


def test_DEAL_9_omaha_seat_skipped_in_the_second_round():
    skipped_is_a_misdeal("omaha", 2)


def test_DEAL_9_stud7_seat_skipped_in_the_first_round():
    skipped_is_a_misdeal("stud7", 1)


def test_DEAL_9_stud7_seat_skipped_in_the_second_round():
    skipped_is_a_misdeal("stud7", 2)


def test_DEAL_9_a_late_card_to_the_skipped_seat_does_not_undo_the_misdeal():
    # tournament: the deal was over at the button's last card; the card the dealer then gives
    # seat 3 is no cure (DEAL-9), the misdeal stays proposed
    sim = table("holdem")
    t = sim.table
    deal(sim, [2, 1, 2, 3, 1])
    sim.run("draw 2h to seat 3")
    eq([a.status for a in citing(t, "DEAL-9")], ["proposed"])
    eq(len(t.pending()), 1)


def test_DEAL_9_seat_with_no_card_in_cash_is_a_misdeal():
    sim = table("holdem", mode="cash")
    t = sim.table
    deal(sim, [2, 1, 2, 1])  # seat 3 passed over in both rounds
    props = citing(t, "DEAL-9", "proposed")
    eq(len(props), 1)
    assert "seat 3 holds 0 card(s) (-2)" in props[0].text, props[0].text


def test_DEAL_10_cash_seat_skipped_once_is_given_its_card_from_the_stub():
    # cash: the shortfall is corrected without changing any other player's cards (DEAL-10)
    sim = table("holdem", mode="cash")
    t = sim.table
    deal(sim, [2, 1, 2, 3, 1])
    give = [a for a in t.pending() if "DEAL-10" in a.rules]
    eq(len(give), 1)
    assert "seat 3 is 1 card(s) short" in give[0].text, give[0].text
    sim.run("confirm")
    sim.run("draw 2h to seat 3")
    eq(t.pending(), [])
    eq(t.setup.seats[t.hand.actor], 1)  # three-handed preflop: the button acts first
    sim.run("act 1 call")
    eq(t.setup.seats[t.hand.actor], 2)


def test_DEAL_23_button_two_cards_in_a_row_is_no_misdeal():
    # the button is passed over in the first round and gets the last two cards
    sim = table("holdem")
    t = sim.table
    deal(sim, [2, 3, 2, 3, 1, 1])
    eq(t.pending(), [])
    eq(citing(t, "DEAL-9"), [])
    eq([a.status for a in citing(t, "DEAL-23")], ["note"])
    eq(t.setup.seats[t.hand.actor], 1)


def test_DEAL_9_stud_button_two_in_a_row_with_a_seat_short_is_a_misdeal():
    # stud: seat 2 passed over in the third round, the button's last card ends the deal
    sim = table("stud7")
    t = sim.table
    deal(sim, [2, 3, 1, 2, 3, 1, 3, 1])
    props = citing(t, "DEAL-9", "proposed")
    eq(len(props), 1)
    assert "seat 2 holds 2 card(s) (-1)" in props[0].text, props[0].text
