# The table's alerts for the shoe's broken answers (felt.runtime.loop): a byte lost on the wire is asked for
# again (a warning); an answer still broken after the NACK retries is an error that tells the
# dealer a card may have left the shoe unread. Runs on CPython and MicroPython.
from check import eq

from felt.table.alerts import ERROR, WARN
from felt.sim.runner import Sim


def _sim():
    sim = Sim()
    for line in ("table holdem no_limit seats=3 sb=50 bb=100 button=1", "seat 1 1000", "seat 2 1000",
                 "seat 3 1000", "hand"):
        sim.run(line)
    return sim


def _shoe_alerts(sim):
    return [(a.level, a.text) for a in sim.table.alerts if getattr(a, "device", None) == "shoe"]


def test_one_lost_byte_is_a_warning_and_the_card_arrives():
    sim = _sim()
    sim.reader.drop_byte_in_next_response(position=5)
    sim.run("draw Ah to seat 2")
    got = _shoe_alerts(sim)
    assert got and [lv for lv, _ in got] == [WARN] * len(got), got
    eq(sim.table.where.get(50), 2)  # Ah (card 50) is at seat 2 ...
    eq([a.rules for a in sim.table.alerts if "DECK-5" in a.rules], [])  # ... and it was read by the shoe


def test_an_answer_lost_for_good_is_an_error_naming_the_risk():
    sim = _sim()
    sim.reader.drop_byte_in_next_response(position=5, times=4)  # the answer and its 3 resends
    sim.run("draw Ah to seat 2")
    errors = [text for lv, text in _shoe_alerts(sim) if lv == ERROR]
    eq(len(errors), 1)
    assert "answer was lost" in errors[0], errors
