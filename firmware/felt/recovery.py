# Boot-time recovery: rebuild the table from the journal's last snapshot plus the inputs after it
# -- firmware layer above felt.journal. The engine is deterministic, so replaying the same inputs
# through a fresh controller gives the same seats, stacks, button, level, hand, action, pot and
# lights. A torn last record (power lost mid-write) is dropped and reported; see hardware/journal.md.
from felt import journal as jr
from felt.errors import FeltError


def thousands(n):
    """1204 -> '1,204' (what the floor reads on the display)."""
    s = "%d" % n
    neg = s.startswith("-")
    if neg:
        s = s[1:]
    parts = []
    while len(s) > 3:
        parts.insert(0, s[-3:])
        s = s[:-3]
    parts.insert(0, s)
    return ("-" if neg else "") + ",".join(parts)


class Report:
    """What recovery did. last_seq: the newest record kept (the 'event' number shown);
    snapshot_seq; replayed: inputs replayed; rejected: of those, inputs the engine refused again
    (they were refused the first time too -- journaled before they took effect); lost: the
    journal.Damage of a dropped tail or None; discarded: uncommitted generation files removed;
    message: one line for the display and log; level: 'info' or 'warn' or 'error'."""

    def __init__(self):
        self.last_seq = -1
        self.snapshot_seq = -1
        self.replayed = 0
        self.rejected = []
        self.lost = None
        self.discarded = []
        self.message = ""
        self.level = "info"

    def as_dict(self):
        lost = None
        if self.lost is not None:
            d = self.lost
            lost = {"reason": d.reason, "offset": d.offset, "bytes": d.lost_bytes, "kind": d.kind,
                    "seq": d.seq, "later": d.later, "detail": d.detail}
        return {"last_seq": self.last_seq, "snapshot_seq": self.snapshot_seq, "replayed": self.replayed,
                "rejected": len(self.rejected), "lost": lost, "discarded": list(self.discarded),
                "message": self.message, "level": self.level}


def lost_message(last_seq, damage):
    """The sentence for the floor: 'recovered to event 1,204; last console entry lost -- re-enter it'."""
    head = "recovered to event %s" % thousands(last_seq)
    if damage is None:
        return head
    name, todo = jr.KIND_NAMES.get(damage.kind, ("input", "check the last action and enter it again"))
    if damage.reason == "torn":
        return "%s; last %s lost -- %s" % (head, name, todo)
    return "%s; journal damaged at byte %d (%s), %d later record(s) not replayed -- call the floor" % (
        head, damage.offset, damage.detail, damage.later)


def restore(journal, controller_factory, apply=None, log=None):
    """Open `journal`, build controller_factory(snapshot_value) (None on a blank flash) and replay
    every input record after the snapshot. `apply(controller, record)` replays one record
    (default: controller.replay(record)). An input the engine refuses raises a FeltError again,
    exactly as it did before the power loss; it is counted, logged and skipped, because the
    live run also went on after refusing it. Returns (controller, Report)."""
    records = journal.open()
    report = Report()
    report.snapshot_seq = journal.snapshot.seq
    report.discarded = list(journal.discarded)
    report.lost = journal.damage
    controller = controller_factory(journal.snapshot_value())
    step = apply if apply is not None else _replay
    for r in records:
        try:
            step(controller, r)
        except FeltError as e:
            report.rejected.append((r.seq, str(e)))
        report.replayed += 1
    report.last_seq = _last_kept(journal, records)
    report.message = lost_message(report.last_seq, report.lost)
    if report.lost is not None:
        report.level = "warn" if report.lost.reason == "torn" else "error"
    if log is not None:
        log(report.message)
    return controller, report


def _replay(controller, record):
    controller.replay(record)


def _last_kept(journal, records):
    # The last input that survived (else the snapshot): housekeeping records are not 'events'.
    if records:
        return records[-1].seq
    return journal.snapshot.seq
