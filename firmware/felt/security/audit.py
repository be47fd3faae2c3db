# Append-only audit log (firmware; pure apart from the store it is handed): one text line per
# floor command, refusal, alert or maintenance entry; each record carries the SHA-256 of the one
# before it and an HMAC under a key derived from the owner key, so editing, inserting or removing
# a record breaks the chain. `feltctl audit verify` checks it (hardware/security.md).
import hashlib

from felt.security import AuditError
from felt.security.hmac import compare, derive, hexlify, hmac_hex

GENESIS = "0" * 64
PATH = "/felt.audit"
_FIELDS = 7  # seq, t_ms, who, kind, text, prev, mac


def audit_key(owner_key):
    return derive(owner_key, "audit")


def _clean(text, n=200):
    out = []
    for c in str(text)[:n]:
        out.append(c if (" " <= c <= "~") else "?")
    return "".join(out)


def line_hash(line):
    return hexlify(hashlib.sha256(line.encode()).digest())


class Record:
    def __init__(self, seq, t_ms, who, kind, text, prev, mac, line):
        self.seq = seq
        self.t_ms = t_ms
        self.who = who
        self.kind = kind
        self.text = text
        self.prev = prev
        self.mac = mac
        self.line = line

    def __repr__(self):
        return "Record(#%d %s %s: %s)" % (self.seq, self.who, self.kind, self.text)


def parse_line(line, n):
    w = line.split("\t")
    if len(w) != _FIELDS:
        raise AuditError("audit record %d: %d fields, not %d (damaged line)" % (n, len(w), _FIELDS))
    try:
        seq = int(w[0])
        t_ms = int(w[1])
    except ValueError:
        raise AuditError("audit record %d: sequence or time is not a number" % n)
    return Record(seq, t_ms, w[2], w[3], w[4], w[5], w[6], line)


class MemStore:
    """Lines in a list (tests, the simulator)."""

    def __init__(self, lines=None):
        self.data = list(lines or [])

    def lines(self):
        return list(self.data)

    def append(self, line):
        self.data.append(line)


class FileStore:
    """A text file opened for append on every record. A power cut can leave the last line
    without its newline: lines() leaves such a torn tail out (torn = its length) and repair()
    rewrites the file without it."""

    def __init__(self, path=PATH):
        self.path = path
        self.torn = 0

    def lines(self):
        try:
            with open(self.path) as f:
                text = f.read()
        except OSError:
            return []
        cut = text.rfind("\n") + 1
        self.torn = len(text) - cut
        return [ln for ln in text[:cut].split("\n") if ln]

    def repair(self):
        keep = self.lines()
        with open(self.path + ".tmp", "w") as f:
            for ln in keep:
                f.write(ln + "\n")
        import os
        os.rename(self.path + ".tmp", self.path)
        self.torn = 0

    def append(self, line):
        with open(self.path, "a") as f:
            f.write(line + "\n")


class AuditLog:
    """append(kind, text, who, t_ms) -> Record. key: the audit key (audit_key(owner)); a log
    without a key still chains the records but cannot prove who wrote them."""

    def __init__(self, store, key=None):
        self.store = store
        self._key = key
        self.seq = 0
        self.head = GENESIS
        lines = store.lines()
        torn = getattr(store, "torn", 0)
        if lines:
            last = parse_line(lines[-1], len(lines))
            self.seq = last.seq
            self.head = line_hash(last.line)
        if torn:
            # an unfinished record never was part of the chain: drop it and say so in the chain
            store.repair()
            self.append("audit", "a torn record (%d bytes, power cut while writing) was dropped" % torn,
                        who="board")

    def append(self, kind, text, who="-", t_ms=0):
        body = "%d\t%d\t%s\t%s\t%s\t%s" % (self.seq + 1, t_ms, _clean(who, 32) or "-", _clean(kind, 24),
                                           _clean(text), self.head)
        mac = hmac_hex(self._key, body) if self._key is not None else "-"
        line = body + "\t" + mac
        self.store.append(line)
        self.seq += 1
        self.head = line_hash(line)
        return parse_line(line, self.seq)


def verify(lines, key=None, anchor=None):
    """The records of an audit log if its chain is intact (and every MAC verifies when `key` is
    given); else AuditError naming the first bad record. anchor: (seq, hash) of a record seen
    before (feltctl keeps the last one) -- it must still be there, unchanged, so rewriting
    history that was already checked, or cutting the log short, is found as well."""
    out = []
    prev = GENESIS
    for i in range(len(lines)):
        r = parse_line(lines[i], i + 1)
        if r.seq != i + 1:
            raise AuditError("audit record %d carries sequence number %d (records removed or inserted)"
                             % (i + 1, r.seq))
        if r.prev != prev:
            raise AuditError("audit record %d: the hash of the previous record does not match (record %d "
                             "was edited, or records were removed or inserted)" % (i + 1, i))
        if key is not None:
            body = r.line[:r.line.rfind("\t")]
            if not compare(hmac_hex(key, body), r.mac):
                raise AuditError("audit record %d: its MAC does not verify (record edited, or written "
                                 "without this board's key)" % (i + 1))
        prev = line_hash(r.line)
        out.append(r)
    if anchor is not None:
        seq, h = anchor
        if seq > len(out):
            raise AuditError("the audit log ends at record %d but record %d was verified before "
                             "(records were cut off)" % (len(out), seq))
        if seq > 0 and line_hash(out[seq - 1].line) != h:
            raise AuditError("audit record %d differs from the one verified before (history rewritten)" % seq)
    return out
