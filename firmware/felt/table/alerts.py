# Alerts of the table (controller layer, pure): the Alert every finding and every refused entry
# becomes -- rule IDs, level, text, remedy, proposal status (a proposal's statuses are
# engine/findings.py's). Raised by felt.table.controller, sent by the loop, audited by security.

from felt.engine.findings import CONFIRMED, LAPSED, PROPOSED, REJECTED  # noqa: F401 (Alert.status)

INFO = "info"  # Alert.level (not a status)
WARN = "warn"
ERROR = "error"

# Alert.status: NOTE (nothing to decide) or a proposal's status, the same as its Finding's (PROPOSED
# waiting for the dealer's confirm / reject, CONFIRMED, REJECTED, LAPSED)
NOTE = "note"


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
        self.mark = None  # Table.progress() when raised: the display shows a note in full until the hand moves on

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
