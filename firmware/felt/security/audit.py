# Append-only audit log (firmware; pure apart from the store it is handed): one text line per
# floor command, refusal, alert or maintenance entry; each record carries the SHA-256 of the one
# before it and the board's Ed25519 signature (its device key; issue 16 item 1), so editing,
# inserting or removing a record breaks the chain, and whoever verifies it (`feltctl audit verify`,
# with the board's PUBLIC key only) cannot write a record (hardware/security.md section 6).
# Bounded: the live file is rotated at a size limit and only the newest N rotated files are kept;
# each new file opens with a signed record naming the file before it and that file's tail hash.
import hashlib
import os

from felt.errors import ConfigError
from felt.security import AuditError
from felt.security import ed25519
from felt.security.hmac import hexlify, signature_bytes
from felt.textnum import is_digits, parse_uint

GENESIS = "0" * 64
PATH = "/audit.log"  # felt.runtime.app: <data root>/audit.log; rotated files are PATH.<first seq, 8 digits>
_FIELDS = 7  # seq, t_ms, who, kind, text, prev, mac
_NUM = 8  # digits in a rotated file's name: the sequence number of its first record
DEFAULT_MAX_BYTES = 16384  # ~50 records a file
DEFAULT_KEEP = 8  # rotated files kept besides the live one: ~150 KB of flash at most
_CONT = "continues from "  # text of the record that opens every file after the first
GAP = "gap: "  # text of the record that says unauthenticated records were refused before it
# Kinds the board writes for itself or for an authenticated command; every other record (alerts,
# refused floor commands) comes from input anyone at the table can make: issue 12 item 7 limits those
# issue 16 items 3-4: tilts, the wall clock set by the floor, power up/down and firmware changes too
TRUSTED_KINDS = ("boot", "maintenance", "floor", "delay", "audit", "tilt", "clock", "power", "firmware")
WALL_MIN = 1577836800  # 2020-01-01 UTC: a floor `time` below it is a mistake (seconds typed as ms, ...)
LOW_PERCENT = 75  # the event log warns once records not yet exported fill this much of its room
EXPORTED = ".exported"  # <live path>.exported: "SEQ HASH" of the last record exported (feltctl)


_LABEL = b"felt-audit 2\0"  # what a record's signature signs: this, then the SHA-256 of its text


def signer(seed):
    """The Ed25519 signer of a 32-byte device seed (the board uses keys.Keys.signer())."""
    return ed25519.Signer(seed)


def record_message(body):
    """The bytes a record's signature signs (the text up to its last tab)."""
    return _LABEL + hashlib.sha256(body.encode()).digest()


def _signed(public, body, sig_hex):
    try:
        raw = signature_bytes(sig_hex)
    except ValueError:
        return False
    sign = getattr(public, "sign", None)
    if sign is not None:
        # the board checking its own log holds the signer: Ed25519 is deterministic, so signing
        # again and comparing is the same test at about half the cost of a verification
        return sign(record_message(body)) == raw
    return ed25519.verify(public, record_message(body), raw)


def record_verifies(public, line):
    """True when audit record `line` carries a valid signature of the board whose 32-byte public
    key is `public` (the floor checks the records a table publishes, issue 15)."""
    tab = line.rfind("\t")
    return tab > 0 and _signed(public, line[:tab], line[tab + 1:])


def _clean(text, n=200):
    out = []
    for c in str(text)[:n]:
        out.append(c if (" " <= c <= "~") else "?")
    return "".join(out)


def line_hash(line):
    return hexlify(hashlib.sha256(line.encode()).digest())


class Record:
    def __init__(self, seq, t_ms, who, kind, text, prev, mac, line, wall=None):
        self.seq = seq
        self.t_ms = t_ms  # the board's monotonic ms since it started
        self.wall = wall  # wall clock, UTC seconds, once the floor set it (issue 16 item 4); else None
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
    # the time field: board ms, then "@" and the wall clock (UTC seconds) once the floor set it
    t, at, wall = w[1].partition("@")
    if not (is_digits(w[0]) and is_digits(t)) or (at and not is_digits(wall)):
        raise AuditError("audit record %d: sequence or time is not a number" % n)
    return Record(int(w[0]), int(t), w[2], w[3], w[4], w[5], w[6], line, int(wall) if at else None)


class Rotation:
    """The rotation setting (a house/config setting: audit_max_bytes, audit_keep). When the live
    file has reached max_bytes, the next record goes into a new one: the full file is renamed
    <path>.<seq of its first record, 8 digits> and only the newest `keep` such files stay -- the
    older are deleted, so export the log (feltctl audit verify --port) before they roll off."""

    def __init__(self, max_bytes=DEFAULT_MAX_BYTES, keep=DEFAULT_KEEP):
        if type(max_bytes) is not int or max_bytes < 1024:
            raise ConfigError("audit_max_bytes is a whole number of bytes >= 1024, got %r" % (max_bytes,))
        if type(keep) is not int or keep < 1:
            raise ConfigError("audit_keep is a whole number of rotated files >= 1, got %r" % (keep,))
        self.max_bytes = max_bytes
        self.keep = keep

    @staticmethod
    def from_config(cfg):
        """From a settings dict (table.json-style keys audit_max_bytes / audit_keep; absent: defaults)."""
        return Rotation(cfg.get("audit_max_bytes", DEFAULT_MAX_BYTES), cfg.get("audit_keep", DEFAULT_KEEP))


def rotated_name(base, first_seq):
    return "%s.%0*d" % (base, _NUM, first_seq)


def file_number(name, base=None):
    """The first sequence number a rotated file's name promises; None for the live file (or any
    other name). base: the live file's name (default: whatever precedes the last dot)."""
    cut = name.rfind(".")
    if cut < 0 or (base is not None and name[:cut] != base):
        return None
    digits = name[cut + 1:]
    return int(digits) if len(digits) == _NUM and is_digits(digits) else None


def order(names, base):
    """The files of one log oldest first: rotated files by number, the live file (base) last."""
    rotated = sorted([(file_number(n, base), n) for n in names if file_number(n, base) is not None])
    return [n for _, n in rotated] + [n for n in names if n == base]


class Intake:
    """The limits on records from unauthenticated input (issue 12 item 7; hardware/security.md
    section 6): each text cut to max_text characters; at most `burst` records at once and one per
    `per_ms` after (a token bucket on the t_ms the records carry); and none that would make rotation
    delete a record not yet exported. What is refused is counted, and the next record written is
    preceded by a signed `gap:` record saying how many and when."""

    def __init__(self, burst=20, per_ms=3000, max_text=120):
        self.burst = burst
        self.per_ms = per_ms
        self.max_text = max_text
        self.tokens = burst
        self.last_ms = None

    def admit(self, t_ms):
        if self.last_ms is None or t_ms < self.last_ms:  # first record, or the clock began again (reboot)
            self.last_ms = t_ms
        gained = (t_ms - self.last_ms) // self.per_ms
        if gained:
            self.tokens = min(self.burst, self.tokens + gained)
            self.last_ms += gained * self.per_ms
        if self.tokens <= 0:
            return False
        self.tokens -= 1
        return True


class MemStore:
    """Lines in a list (tests, the simulator). Never rotates."""

    def __init__(self, lines=None):
        self.data = list(lines or [])

    def lines(self):
        return list(self.data)

    def append(self, line):
        self.data.append(line)


def _split(path):
    cut = path.rfind("/")
    return (path[:cut] or "/", path[cut + 1:]) if cut >= 0 else (".", path)


def _read_lines(path):
    """(complete lines, torn tail length) of a file; ([], 0) when it is absent."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return [], 0
    cut = text.rfind("\n") + 1
    return [ln for ln in text[:cut].split("\n") if ln], len(text) - cut


class FileStore:
    """A text file opened for append on every record, rotated per `rotation` (None: never). A
    power cut can leave the last line without its newline: lines() leaves such a torn tail out
    (torn = its length) and repair() rewrites the file without it."""

    def __init__(self, path=PATH, rotation=Rotation()):
        self.path = path
        self.folder, self.base = _split(path)
        self.rotation = rotation
        self.torn = 0
        self.size = 0
        self.first = None  # sequence number of the live file's first record
        self.protect = False  # True: rotation never deletes a file holding a record not yet exported

    def lines(self):
        keep, self.torn = _read_lines(self.path)
        self.size = sum([len(ln) + 1 for ln in keep]) + self.torn
        self.first = _seq_of(keep[0]) if keep else None
        return keep

    def repair(self):
        keep = self.lines()
        with open(self.path + ".tmp", "w") as f:
            for ln in keep:
                f.write(ln + "\n")
        os.rename(self.path + ".tmp", self.path)
        self.lines()

    def append(self, line):
        with open(self.path, "a") as f:
            f.write(line + "\n")
        if self.first is None:
            self.first = _seq_of(line)
        self.size += len(line) + 1

    # -- rotation ---------------------------------------------------------------------------------
    def rotated(self):
        """Names of the rotated files present, oldest first."""
        try:
            names = os.listdir(self.folder)
        except OSError:
            return []
        return order(names, self.base)[:-1] if self.base in names else order(names, self.base)

    def last_rotated(self):
        """(name, last complete line) of the newest rotated file, or None."""
        names = self.rotated()
        if not names:
            return None
        got = _read_lines(self.folder.rstrip("/") + "/" + names[-1])[0]
        return (names[-1], got[-1]) if got else None

    def due(self):
        return self.rotation is not None and self.first is not None and self.size >= self.rotation.max_bytes

    def rotate(self):
        """Rename the live file after its first record and delete rotated files beyond `keep`
        (with `protect`, only those whose records were all exported). Returns the new name. The
        next record starts a new live file."""
        name = rotated_name(self.base, self.first)
        os.rename(self.path, self.folder.rstrip("/") + "/" + name)
        self.size = 0
        self.first = None
        names = self.rotated()
        for old in names[:max(0, len(names) - self.rotation.keep)]:
            if self.protect and not self._exported(old, names):
                break
            os.remove(self.folder.rstrip("/") + "/" + old)
        return name

    def exported_seq(self):
        """The last record exported (feltctl audit verify --port writes <path>.exported); 0: none."""
        try:
            with open(self.path + EXPORTED) as f:
                head = f.read().split(" ")[0].strip()
        except OSError:
            return 0
        return int(head) if is_digits(head) else 0

    def _exported(self, name, names):
        i = names.index(name)
        nxt = file_number(names[i + 1]) if i + 1 < len(names) else self.first
        return nxt is not None and nxt - 1 <= self.exported_seq()

    def unexported_bytes(self):
        """Bytes of the files that hold records not yet exported (the live one always)."""
        names = self.rotated()
        out = self.size
        for name in names:
            if not self._exported(name, names):
                try:
                    out += os.stat(self.folder.rstrip("/") + "/" + name)[6]
                except OSError:
                    pass
        return out

    def blocked(self):
        """True when the next rotation would have to delete a record not yet exported, or one
        already kept them over the quota (authenticated records go on being written)."""
        if not self.protect or self.first is None and not self.rotated():
            return False
        names = self.rotated()
        over = len(names) > self.rotation.keep or (len(names) == self.rotation.keep and self.due())
        return over and not self._exported(names[0], names)


def _seq_of(line):
    head = line[:line.find("\t")]
    return int(head) if is_digits(head) else 0


def continues(record):
    """(file name, first seq, last seq, tail hash) from the record that opens a rotated-to file,
    else None."""
    if record.kind != "audit" or not record.text.startswith(_CONT):
        return None
    w = record.text[len(_CONT):].split(" ")
    # "<name>: records <a>..<b>, tail <hash>"
    if len(w) != 5 or not w[0].endswith(":") or w[1] != "records" or w[3] != "tail":
        return None
    span = w[2].rstrip(",").split("..")
    if len(span) != 2 or not (is_digits(span[0]) and is_digits(span[1])):
        return None
    return w[0][:-1], int(span[0]), int(span[1]), w[4]


class AuditLog:
    """append(kind, text, who, t_ms) -> Record. key: the board's signer (keys.Keys.signer(): an
    object with sign(bytes) -> 64-byte Ed25519 signature); a log without one still chains the
    records but cannot prove who wrote them. With a rotating
    FileStore, the record after a rotation is preceded by one naming the rotated file, its
    records and its tail hash (signed like any record)."""

    def __init__(self, store, key=None, intake=None, on_full=None):
        self.store = store
        self._key = key
        self.intake = intake  # Intake: limits on unauthenticated records (None: no limits)
        self.on_full = on_full  # callable(text): told once when unexported records fill the log
        self.dropped = 0  # unauthenticated records refused since the last record written
        self._drop_span = None  # (first, last) t_ms of those
        self._why = {}  # reasons for those: "rate limit", "log full"
        self._full_told = False
        self.on_low = None  # callable(text): told once when unexported records pass LOW_PERCENT of the room
        self._low_told = False
        self.wall = None  # (UTC seconds, board ms) the floor's `time` set (issue 16 item 4)
        self.last = None  # the newest record when the log was opened (the previous run's last word)
        self.on_record = None  # callable(line) after each record is written (the room publishes it, issue 15)
        if intake is not None and hasattr(store, "protect"):
            store.protect = True
        self.seq = 0
        self.head = GENESIS
        lines = store.lines()
        torn = getattr(store, "torn", 0)
        last = lines[-1] if lines else None
        gone = None
        if last is None and hasattr(store, "last_rotated"):
            gone = store.last_rotated()  # power cut right after a rotation: the live file is new
            if gone is not None:
                last = gone[1]
        if last is not None:
            r = parse_line(last, 0)
            self.last = r
            self.seq = r.seq
            self.head = line_hash(r.line)
        if torn:
            store.repair()  # before anything is appended behind the torn bytes
        if gone is not None:
            self._opening(gone[0], 0)
        if torn:
            # an unfinished record never was part of the chain: it is dropped, and the chain says so
            self._write("audit", "a torn record (%d bytes, power cut while writing) was dropped" % torn,
                        "board", 0)

    def _opening(self, name, t_ms):
        first = file_number(name)
        self._write("audit", "%s%s: records %d..%d, tail %s" % (_CONT, name, first, self.seq, self.head),
                    "board", t_ms)

    def append(self, kind, text, who="-", t_ms=0):
        """The Record written, or None when an unauthenticated record was refused (Intake)."""
        lim = self.intake
        if lim is not None:
            if kind not in TRUSTED_KINDS:
                blocked = getattr(self.store, "blocked", None)
                if blocked is not None and blocked():
                    return self._refuse("log full", t_ms)
                self._full_told = False
                if not lim.admit(t_ms):
                    return self._refuse("rate limit", t_ms)
                text = str(text)[:lim.max_text]
            if self.dropped:
                self._gap(t_ms)
        return self._append(kind, text, who, t_ms)

    def _refuse(self, why, t_ms):
        self.dropped += 1
        self._why[why] = True
        self._drop_span = (self._drop_span[0] if self._drop_span else t_ms, t_ms)
        if why == "log full" and not self._full_told:
            self._full_told = True
            text = ("audit log full of records not yet exported: unauthenticated records refused until "
                    "it is exported (feltctl audit verify --port)")
            self._append("audit", text, "board", t_ms)
            if self.on_full is not None:
                self.on_full(text)
        return None

    def _gap(self, t_ms):
        n, span = self.dropped, self._drop_span
        why = " and ".join(sorted(self._why))
        self.dropped = 0
        self._drop_span = None
        self._why = {}
        self._append("audit", "%s%d unauthenticated records refused (%s) between %d and %d ms"
                     % (GAP, n, why, span[0], span[1]), "board", t_ms)

    def _append(self, kind, text, who, t_ms):
        due = getattr(self.store, "due", None)
        if due is not None and due():
            self._opening(self.store.rotate(), t_ms)
            self.check_space(t_ms)  # the room changes a file at a time
        return self._write(kind, text, who, t_ms)

    # -- issue 16 item 4: the wall clock and the room left -------------------------------------------
    def set_wall(self, unix_s, now_ms):
        """The wall clock (UTC seconds) from an authenticated floor `time`: every later record
        carries it beside the board's ms. A board has no battery clock: unset after each start."""
        if type(unix_s) is not int or unix_s < WALL_MIN:
            raise ConfigError("time takes the UTC time in whole seconds since 1970 (after 2020), got %r" % (unix_s,))
        was = self.wall_at(now_ms)
        self.wall = (unix_s, now_ms)
        self._append("clock", "wall clock set to %d UTC s at board %d ms (%s)" % (
            unix_s, now_ms, "it read %d" % was if was is not None else "it was not set"), "board", now_ms)
        return "wall clock set to %d" % unix_s

    def wall_at(self, t_ms):
        w = self.wall
        return None if w is None else w[0] + (t_ms - w[1]) // 1000

    def space(self):
        """(free, room) in bytes for records not yet exported, or None for a store that does not
        rotate: room = (audit_keep + 1) files of audit_max_bytes."""
        size = getattr(self.store, "unexported_bytes", None)
        if size is None:
            return None
        room = (self.store.rotation.keep + 1) * self.store.rotation.max_bytes
        return max(0, room - size()), room

    def check_space(self, t_ms):
        """Tell on_low once when unexported records fill LOW_PERCENT of the room (again after an
        export freed it); returns (free, room) or None."""
        got = self.space()
        if got is None:
            return None
        free, room = got
        if (room - free) * 100 < LOW_PERCENT * room:
            self._low_told = False
        elif not self._low_told:
            self._low_told = True
            text = ("event log %d%% full: %d of %d bytes free for records not yet exported"
                    % ((room - free) * 100 // room, free, room))
            self._write("audit", text, "board", t_ms)
            if self.on_low is not None:
                self.on_low(text)
        return got

    def _write(self, kind, text, who, t_ms):
        wall = self.wall_at(t_ms)
        when = ("%d" % t_ms) if wall is None else ("%d@%d" % (t_ms, wall))
        body = "%d\t%s\t%s\t%s\t%s\t%s" % (self.seq + 1, when, _clean(who, 32) or "-", _clean(kind, 24),
                                           _clean(text), self.head)
        mac = hexlify(self._key.sign(record_message(body))) if self._key is not None else "-"
        line = body + "\t" + mac
        self.store.append(line)
        self.seq += 1
        self.head = line_hash(line)
        if self.on_record is not None:
            self.on_record(line)
        return parse_line(line, self.seq)


def _where(name, n):
    return ("%s: audit record %d" % (name, n)) if name else ("audit record %d" % n)


def _check_run(name, lines, seq, prev, key, out):
    """The records of one file, expected to start at `seq` after a record hashing to `prev`."""
    for i in range(len(lines)):
        n = seq + i
        r = parse_line(lines[i], n)
        if r.seq != n:
            raise AuditError("%s carries sequence number %d (records removed or inserted)" % (_where(name, n), r.seq))
        if r.prev != prev:
            raise AuditError("%s: the hash of the previous record does not match (record %d was edited, or "
                             "records were removed or inserted)" % (_where(name, n), n - 1))
        if key is not None and not _signed(key, r.line[:r.line.rfind("\t")], r.mac):
            raise AuditError("%s: its signature does not verify (record edited, or written without this "
                             "board's key)" % _where(name, n))
        prev = line_hash(r.line)
        out.append(r)


def _link(name, first, pname, plast, key):
    """File `name` (first record `first`) must continue file `pname` (last record `plast`); else
    AuditError saying which file is missing, truncated or edited."""
    if first.seq == plast.seq + 1 and first.prev == line_hash(plast.line):
        return
    if key is not None and not _signed(key, first.line[:first.line.rfind("\t")], first.mac):
        raise AuditError("%s: its signature does not verify (record edited, or written without this board's key)"
                         % _where(name, first.seq))
    c = continues(first)
    if c is None:
        raise AuditError("%s does not continue %s: records %d..%d are missing, or a file was edited"
                         % (name, pname, plast.seq + 1, first.seq - 1))
    if c[0] != pname:
        raise AuditError("%s is missing (records %d..%d; %s continues from it, the file before is %s)"
                         % (c[0], c[1], c[2], name, pname))
    if plast.seq < c[2]:
        raise AuditError("%s was truncated: it ends at record %d, but held records %d..%d when it was "
                         "rotated (%s record %d)" % (pname, plast.seq, c[1], c[2], name, first.seq))
    raise AuditError("%s was edited: its last record %d does not match the tail hash recorded when it "
                     "was rotated (%s record %d)" % (pname, plast.seq, name, first.seq))


def verify_files(files, key=None, anchor=None):
    """The records of a rotated log set if it is intact. files: [(name, lines)] oldest first
    (order() sorts names). Each file must carry the records its name promises and continue the
    one before it; the oldest may open with the record naming a file that has rolled off.
    AuditError names the file that is missing, truncated or edited. anchor: as in verify()."""
    key = getattr(key, "public", key)  # a signer stands for its public key
    out = []
    prev = None  # (name, last record) of the file before
    for k in range(len(files)):
        name, lines = files[k]
        if not lines:
            if k == len(files) - 1:
                continue  # the live file right after a rotation: the board writes its opening record next
            raise AuditError("%s is empty (records removed)" % name)
        first = parse_line(lines[0], 0)
        num = file_number(name) if name is not None else None
        if num is not None and first.seq != num:
            raise AuditError("%s: its first record is %d, its name says %d (file renamed, or its first "
                             "records cut)" % (name, first.seq, num))
        if prev is not None:
            _link(name, first, prev[0], prev[1], key)
            start = line_hash(prev[1].line)
        elif first.seq == 1:
            start = GENESIS
        else:
            # the oldest file kept: its predecessor rolled off; it must open with the record saying so
            if continues(first) is None:
                raise AuditError("%s starts at record %d without the record that continues the chain "
                                 "(records cut from its start)" % (name, first.seq))
            start = first.prev
        _check_run(name, lines, first.seq, start, key, out)
        prev = (name, out[-1])
    if anchor is not None:
        _check_anchor(out, anchor)
    return out


def _check_anchor(out, anchor):
    seq, h = anchor
    last = out[-1].seq if out else 0
    if seq > last:
        raise AuditError("the audit log ends at record %d but record %d was verified before "
                         "(records were cut off)" % (last, seq))
    if seq <= 0:
        return
    oldest = out[0].seq
    if seq >= oldest:
        if line_hash(out[seq - oldest].line) != h:
            raise AuditError("audit record %d differs from the one verified before (history rewritten)" % seq)
    elif seq == oldest - 1:
        if out[0].prev != h:
            raise AuditError("audit record %d differs from the one verified before (history rewritten)" % seq)
    else:
        raise AuditError("records %d..%d rolled off the board (deleted by rotation) before they were "
                         "verified: the chain from record %d, verified before, cannot be checked; export "
                         "the log before `audit_keep` rotated files fill" % (seq + 1, oldest - 1, seq))


def verify(lines, key=None, anchor=None):
    """The records of one audit log file if its chain is intact (and every signature verifies
    when `key`, the board's 32-byte public key, is given); else AuditError naming the first bad record. anchor: (seq, hash) of a record seen
    before (feltctl keeps the last one) -- it must still be there, unchanged, so rewriting
    history that was already checked, or cutting the log short, is found as well."""
    return verify_files([(None, lines)], key, anchor)
