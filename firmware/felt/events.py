# Event records of the table (controller layer, pure): the Alert every finding becomes (rule IDs,
# level, text, remedy, proposal state) and a bounded FIFO the runtime loop collects driver events
# into. No clock: times arrive as arguments. Used by table.py, loop.py and the sim runner.

INFO = "info"
WARN = "warn"
ERROR = "error"

# Alert.status
NOTE = "note"  # nothing to decide
PROPOSED = "proposed"  # an ASSIST remedy waiting for the dealer's confirm / reject
CONFIRMED = "confirmed"
REJECTED = "rejected"
LAPSED = "lapsed"


class Alert:
    """One alert of the current hand. rules: tuple of RULES.md IDs; text: what was seen;
    remedy: what the dealer does; seat / device: where; finding: the DealCheck finding id of
    an ASSIST proposal (None otherwise)."""

    def __init__(self, aid, level, rules, text, remedy="", seat=None, device=None, finding=None, status=NOTE):
        self.id = aid
        self.level = level
        self.rules = tuple(rules)
        self.text = text
        self.remedy = remedy
        self.seat = seat
        self.device = device
        self.finding = finding
        self.status = status

    def line(self):
        """One log line: '#3 warn DEAL-8/DEAL-12: text -> remedy [proposed]'."""
        out = "#%d %s %s: %s" % (self.id, self.level, "/".join(self.rules) or "-", self.text)
        if self.remedy:
            out += " -> " + self.remedy
        if self.status != NOTE:
            out += " [%s]" % self.status
        return out

    def as_dict(self):
        return {"id": self.id, "level": self.level, "rules": list(self.rules), "text": self.text,
                "remedy": self.remedy, "seat": self.seat, "device": self.device, "status": self.status}

    def __repr__(self):
        return "Alert(%s)" % self.line()


class EventQueue:
    """Bounded FIFO of event tuples between the drivers' poll() results and the controller.
    A full queue drops the newest event and counts it in `dropped` (the loop reports that).
    A ring of `size` slots made once: put/get allocate nothing, and a slot is cleared when its
    event is taken, so a drained queue holds no old events (they were kilobytes mid-hand)."""

    def __init__(self, size=64):
        self.size = size
        self._items = [None] * size
        self._head = 0  # slot of the oldest event
        self._count = 0
        self.dropped = 0

    def put(self, event):
        if self._count >= self.size:
            self.dropped += 1
            return False
        self._items[(self._head + self._count) % self.size] = event
        self._count += 1
        return True

    def extend(self, events):
        for e in events:
            self.put(e)

    def get(self):
        """The oldest event, or None when empty."""
        if not self._count:
            return None
        i = self._head
        e = self._items[i]
        self._items[i] = None
        self._head = (i + 1) % self.size
        self._count -= 1
        return e

    def __len__(self):
        return self._count
