# Tilt (firmware, security layer; issue 16 item 3, hardware/security.md section 12): an integrity
# failure found while the table can still run -- an audit log whose chain or MACs do not verify, a
# journal record that does not verify, a tag not of the deck in play -- locks play (Table.tilt: on
# the display, a console alert, journaled, in the snapshot; a `tilt` audit record) until an
# authenticated floor command `clear` ends it. Failures that leave no trusted code or log to run
# (a refused firmware tree or configuration, an audit log that cannot be opened) stop the board
# before the table exists: main.py's NOT STARTED, which only a signed deploy in maintenance ends.
import os

from felt.security import AuditError
from felt.security import audit as auditlib
from felt.textnum import is_digits

KIND = "tilt"  # audit record kind (the board's own: never rate-limited, audit.TRUSTED_KINDS)
# console verbs a tilted table still answers: the floor's authenticated path and read-only queries
ALLOWED = ("challenge", "auth", "deckline", "get", "pong")
CHECKED = ".checked"  # audit.checked beside audit.log: "SEQ HASH" of the newest record the board verified


class TiltLock:
    """The tilt on an assembled board (felt.runtime.app.build): a console filter (first in the
    runtime's list, so a refused entry is not even journaled), an after-step hook that records
    each new tilt in the audit log, enter(reason) for the board's own checks and clear(who) for
    the floor desk's `clear`."""

    def __init__(self, table, link, audit, clock):
        self.table = table
        self.link = link
        self.audit = audit
        self.clock = clock
        self._seen = table.tilted  # a tilt restored from the journal was recorded when it began

    def __call__(self, msg):
        t = self.table
        if t.tilted is None or msg.verb in ALLOWED:
            return False
        self.link.reply_error(msg.seq, "TILT: play is locked (%s); the floor clears it by floor command"
                              % t.tilted[:60], code="tilt")
        # a refused input is an event (issue 16 item 4); rate-limited like any record anyone can cause
        self.audit.append("refused", "console %s refused: the table is in tilt" % msg.verb, "console", self.clock())
        return True

    def enter(self, reason):
        """Lock play for `reason` (a table input: journaled). On a table already locked the new
        reason is recorded and the lock stays."""
        t = self.table
        if t.tilted is not None:
            self.audit.append(KIND, "also: %s" % reason, "board", self.clock())
            return
        t.tilt(reason)
        self.watch(self.clock())

    def watch(self, now_ms):
        # after each step: a tilt the table entered itself (a foreign tag, felt.table.controller
        # _land) goes into the audit log as the board's own record, once
        t = self.table
        if t.tilted is not None and t.tilted != self._seen:
            self.audit.append(KIND, "tilt: %s" % t.tilted, "board", now_ms)
        self._seen = t.tilted

    def clear(self, who, now_ms):
        """The floor's authenticated `clear`: play resumes, and what the board checked so far
        (an audit break the floor has seen) is not held against the next boot."""
        done = self.table.clear_tilt()
        self._seen = None
        self.audit.append(KIND, "cleared by floor %s: %s" % (who, done), who, now_ms)
        store = self.audit.store
        if hasattr(store, "path"):
            write_checkpoint(store.path, self.audit.seq, self.audit.head)
        return done


# ---- the boot check of the audit log --------------------------------------------------------------
# At every boot the board verifies the records written since its last check (MACs, chain, file
# links) -- per file, so the heap holds one file (<= audit_max_bytes) at a time -- and keeps where it
# got to in audit.checked. A record that changed since it was checked, a file missing, a MAC
# or link that fails: AuditError, and the board tilts. The host's `feltctl audit verify` still
# checks the whole set against its own anchor.

def _cp(path):
    # not "audit.log.*": that name space is the log's own files (rotated, .exported)
    return (path[:-4] if path.endswith(".log") else path) + CHECKED


def read_checkpoint(path):
    """(seq, hash) of the last record verified, or None."""
    try:
        with open(_cp(path)) as f:
            w = f.read().split()
    except OSError:
        return None
    if len(w) < 2 or not is_digits(w[0]) or len(w[1]) != 64:
        return None
    return int(w[0]), w[1]


def write_checkpoint(path, seq, head):
    with open(_cp(path) + ".tmp", "w") as f:
        f.write("%d %s\n" % (seq, head))
    os.rename(_cp(path) + ".tmp", _cp(path))


def _read(store, name):
    return auditlib._read_lines(store.folder.rstrip("/") + "/" + name)[0]


def _first_seq(store, name, live):
    n = auditlib.file_number(name, store.base)
    if n is not None:
        return n
    got = _read(store, name) if live else []
    return auditlib.parse_line(got[0], 0).seq if got else None


def check_audit(store, key):
    """Verify the audit records of a FileStore written since the checkpoint (all of them the
    first time); then move the checkpoint to the newest. Returns the newest `boot` record seen
    (the previous boot's: eventlog.firmware_change) or None. AuditError says what is wrong."""
    names = store.rotated()
    try:
        os.stat(store.path)
        names.append(store.base)
    except OSError:
        pass
    if not names:
        return None
    cp = read_checkpoint(store.path)
    start = 0
    if cp is not None:
        for i in range(len(names)):
            first = _first_seq(store, names[i], names[i] == store.base)
            if first is not None and first <= cp[0]:
                start = i
    prev = None  # (name, last Record) of the file before
    boot = None
    for i in range(start, len(names)):
        name = names[i]
        lines = _read(store, name)
        if not lines:
            if i == len(names) - 1:
                continue  # the live file right after a rotation
            raise AuditError("%s is empty (records removed)" % name)
        out = _check_file(store, name, lines, prev, cp if i == start else None, key)
        for r in out:
            if r.kind == "boot":
                boot = r
        prev = (name, out[-1])
    if prev is not None:
        write_checkpoint(store.path, prev[1].seq, auditlib.line_hash(prev[1].line))
    return boot


def _check_file(store, name, lines, prev, cp, key):
    first = auditlib.parse_line(lines[0], 0)
    num = auditlib.file_number(name, store.base)
    if num is not None and first.seq != num:
        raise AuditError("%s: its first record is %d, its name says %d" % (name, first.seq, num))
    out = []
    if prev is not None:
        auditlib._link(name, first, prev[0], prev[1], key)
        auditlib._check_run(name, lines, first.seq, auditlib.line_hash(prev[1].line), key, out)
    elif cp is not None:
        i = cp[0] - first.seq
        if not 0 <= i < len(lines):
            raise AuditError("audit record %d, verified at an earlier boot, is no longer in %s" % (cp[0], name))
        r = auditlib.parse_line(lines[i], cp[0])
        if auditlib.line_hash(r.line) != cp[1]:
            raise AuditError("audit record %d changed since the board verified it" % cp[0])
        out.append(r)
        auditlib._check_run(name, lines[i + 1:], cp[0] + 1, cp[1], key, out)
    elif first.seq == 1:
        auditlib._check_run(name, lines, 1, auditlib.GENESIS, key, out)
    elif auditlib.continues(first) is not None:
        auditlib._check_run(name, lines, first.seq, first.prev, key, out)
    else:
        raise AuditError("%s starts at record %d without the record that continues the chain" % (name, first.seq))
    return out
