# After a reboot (firmware layer, beside felt.recovery.restore): the journal gives back the hand and which
# antenna each of its cards was last seen on (table.onant), but the antenna poller starts with an
# empty inventory, so a card taken off an antenna while the power was out never "leaves" -- the
# hand would go on believing it is there. AntennaCheck waits until every antenna has answered
# `sweeps` clean inventories since the boot, then gives the table the card-left event the poller
# would have reported for each card it still places on an antenna that no longer holds it (through
# table.antenna, so it is journaled like any antenna event), and sums it up in one device alert.
# A card that is on an antenna but unknown to the recovered hand needs nothing here: its first
# read already reaches the table as an arrival (the table's DECK-5 "without a shoe read" path).
from felt.drivers.antennas import OK
from felt.table.alerts import WARN


class AntennaCheck:
    """table: the recovered felt.table.controller.Table (onant, antenna(), device_alert()); poller: the new
    drivers.antennas.AntennaPoller. sweeps: clean inventories each antenna must answer before a
    card missing from it counts as gone (default: the poller's own miss_limit, the same evidence
    it needs for a card-left while running). It is one of the runtime's after_step hooks
    (felt.runtime.loop.Runtime): called after each step with now_ms, it acts once, then leaves
    `hooks` (the after_step list it sits in) so the main loop no longer calls it."""

    def __init__(self, table, poller, sweeps=None, hooks=None):
        self.table = table
        self.poller = poller
        self.hooks = hooks
        self.sweeps = sweeps if sweeps is not None else poller.miss_limit
        self._polls0 = [h.polls for h in poller.health]
        self._sweep0 = poller.sweeps
        self.done = False
        self.gone = []  # (location, uid hex) reported as card-left
        self.unchecked = []  # locations whose reader could not vouch (not answering, degraded, truncated)

    def due(self):
        # sweeps counts schedule passes begun; one more pass than asked, and every reader that is
        # going to answer has answered `sweeps` times (a reader that never does is unchecked)
        return not self.done and self.poller.sweeps - self._sweep0 > self.sweeps

    def _vouches(self, i):
        p = self.poller
        h = p.health[i]
        return h.status == OK and h.polls - self._polls0[i] >= self.sweeps and not p.truncated(h.location)

    def __call__(self, now_ms):
        """The after_step hook: the check once it is due, then out of the runtime's hook list."""
        if self.step() and self.hooks is not None and self in self.hooks:
            self.hooks.remove(self)

    def step(self):
        """Run the check if it is due; True when it ran in this call."""
        if not self.due():
            return False
        self.done = True
        readers = {}
        for i in range(len(self.poller.readers)):
            readers[self.poller.readers[i][0]] = i
        onant = self.table.onant
        believed = sorted([(onant[u], u) for u in onant])  # explicit order: MicroPython dicts are not
        unchecked = {}
        for loc, u in believed:
            i = readers.get(loc)
            if i is None or not self._vouches(i):
                unchecked[loc] = True
                continue
            if u in self.poller.present(loc):
                continue
            self.table.antenna(("card-left", loc, u))
            self.gone.append((loc, u))
        self.unchecked = sorted(unchecked)
        if self.gone or self.unchecked:
            self.table.device_alert("antennas", WARN, self.message(), self.remedy())
        return True

    def message(self):
        """One line for the display and the log; counts per antenna, never a card or a tag UID."""
        parts = []
        if self.gone:
            per = {}
            for loc, _u in self.gone:
                per[loc] = per.get(loc, 0) + 1
            parts.append("after the restart %s no longer there" % ", ".join(
                ["%d card%s at %s" % (per[loc], "" if per[loc] == 1 else "s", loc) for loc in sorted(per)]))
        if self.unchecked:
            parts.append("could not check %s" % ", ".join(self.unchecked))
        return "; ".join(parts)

    def remedy(self):
        if self.unchecked:
            return "check the cards at %s by hand against the hand on the display" % ", ".join(self.unchecked)
        return "the hand counts those cards as taken off their antenna; check with the players"


def watch(runtime, sweeps=None):
    """Put an AntennaCheck first in the after_step hooks of a runtime built without one (tests, the
    power-loss sim; felt.runtime.app.build passes it at construction). Returns the AntennaCheck, or
    None for a table without antennas."""
    if runtime.poller is None:
        return None
    check = AntennaCheck(runtime.table, runtime.poller, sweeps, hooks=runtime.after_step)
    runtime.after_step.insert(0, check)
    return check
