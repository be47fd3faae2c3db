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
    A full queue drops the newest event and counts it in `dropped` (the loop reports that)."""

    def __init__(self, size=64):
        self.size = size
        self._items = []
        self._head = 0
        self.dropped = 0

    def put(self, event):
        if len(self._items) - self._head >= self.size:
            self.dropped += 1
            return False
        self._items.append(event)
        return True

    def extend(self, events):
        for e in events:
            self.put(e)

    def get(self):
        """The oldest event, or None when empty."""
        if self._head >= len(self._items):
            return None
        e = self._items[self._head]
        self._head += 1
        if self._head >= 32 and self._head * 2 >= len(self._items):
            self._items = self._items[self._head:]  # compact so the list does not grow
            self._head = 0
        return e

    def __len__(self):
        return len(self._items) - self._head
