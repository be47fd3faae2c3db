# Antenna reconciliation after a reboot (felt.recovery.antennas): a card taken off its antenna while
# the board was off is reported gone once the antennas have answered cleanly -- the recovered hand
# no longer places it there, the change is journaled, one device alert says how many and where
# (never which card). Without the check the hand keeps the card on the antenna (the gap it closes).
# An antenna that does not answer is named as unchecked. CPython and MicroPython.
from check import eq

from felt.recovery import antennas as antenna_check
from felt.drivers.antennas import uid_hex
from felt.sim.powerloss import KillFlash, PowerSim

HEAD = "table holdem no_limit seats=3 sb=50 bb=100 button=1"
HOLE = [("Ah", 2), ("Kd", 3), ("Qs", 1), ("Qh", 2), ("Kc", 3), ("2s", 1)]


class CheckSim(PowerSim):
    """PowerSim whose boot attaches the check (check=False: the firmware as it was without it)."""

    def __init__(self, check=True):
        PowerSim.__init__(self, KillFlash())  # never cuts: restart() is the power cycle
        self.check = check
        self.checks = []

    def _boot(self):
        PowerSim._boot(self)
        if self.check:
            self.checks.append(antenna_check.watch(self.rt))


def _dealt(sim):
    sim.run(HEAD)
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    sim.run("hand")
    for card, seat in HOLE:
        sim.run("draw %s to seat %d" % (card, seat))


def _antenna_alerts(sim):
    return [a for a in sim.table.alerts if a.device == "antennas"]


def test_card_removed_while_the_power_was_out_is_reported_gone():
    sim = CheckSim()
    _dealt(sim)
    kd = uid_hex(sim._card_uid("Kd"))
    eq(sim.table.onant.get(kd), "seat3")
    sim._unplace("seat3", sim._card_uid("Kd"))  # taken off while the board is off
    sim.restart()
    eq(sim.table.onant.get(kd), "seat3")  # the journal says it is there
    sim.settle(sweeps=4)
    check = sim.checks[-1]
    assert check.done
    eq(check.gone, [("seat3", kd)])
    eq(check.unchecked, [])
    eq(sim.table.onant.get(kd), None)
    alerts = _antenna_alerts(sim)
    eq(len(alerts), 1)
    eq(alerts[0].text, "after the restart 1 card at seat3 no longer there")
    assert "Kd" not in alerts[0].text and kd not in alerts[0].text
    # the other hole cards are untouched, and the check acts once
    eq(sorted([sim.table.onant[u] for u in sim.table.onant]), ["seat1", "seat1", "seat2", "seat2", "seat3"])
    sim.settle(sweeps=4)
    eq(len(_antenna_alerts(sim)), 1)
    # journaled: after one more restart the recovered hand already knows, and nothing is left to do
    sim.restart()
    eq(sim.table.onant.get(kd), None)
    sim.settle(sweeps=4)
    eq(sim.checks[-1].gone, [])
    eq(len(_antenna_alerts(sim)), 1)


def test_without_the_check_the_recovered_hand_keeps_the_card_on_its_antenna():
    sim = CheckSim(check=False)
    _dealt(sim)
    kd = uid_hex(sim._card_uid("Kd"))
    sim._unplace("seat3", sim._card_uid("Kd"))
    sim.restart()
    sim.settle(sweeps=6)
    eq(sim.table.onant.get(kd), "seat3")  # the gap: nothing ever reports it gone


def test_cards_still_in_place_give_no_alert():
    sim = CheckSim()
    _dealt(sim)
    before = dict(sim.table.onant)
    sim.restart()
    sim.settle(sweeps=4)
    assert sim.checks[-1].done
    eq(sim.checks[-1].gone, [])
    eq(_antenna_alerts(sim), [])
    eq(sorted(sim.table.onant.items()), sorted(before.items()))


def test_an_antenna_that_does_not_answer_is_named_unchecked_and_its_cards_stay():
    sim = CheckSim()
    _dealt(sim)
    kd = uid_hex(sim._card_uid("Kd"))
    sim._unplace("seat3", sim._card_uid("Kd"))
    sim.chips["seat3"].silent = True
    sim.restart()
    sim.settle(sweeps=5)
    check = sim.checks[-1]
    assert check.done
    eq(check.gone, [])
    eq(check.unchecked, ["seat3"])
    eq(sim.table.onant.get(kd), "seat3")  # no evidence either way: left as recovered
    texts = [a.text for a in _antenna_alerts(sim)]
    eq(texts, ["could not check seat3"])
