# Write-ahead journal of the table's accepted inputs, and the hand-history log -- firmware layer
# between the runtime loop and the board's flash. Byte format, flush policy and guarantees:
# hardware/journal.md. Records are framed [sync, kind, length, seq, payload, CRC32], so a
# record cut short by a power loss is recognised and dropped on the next boot (felt.recovery.restore).
import binascii
import struct

from felt.errors import FormatError
from felt.textnum import is_digits

SYNC = 0xA5  # first byte of every record: lets a reader find the next record after damage
HEADER = struct.calcsize("<BBHI")  # sync, kind, payload length, sequence number = 8 bytes
TRAILER = 4  # CRC32 (little endian) over header + payload
OVERHEAD = HEADER + TRAILER
MAX_PAYLOAD = 16384  # a snapshot or one hand history; anything longer is refused on write

# Record kinds. The journal stores any kind 1..255; these are the ones the table uses.
SNAPSHOT = 0x01  # JSON state at a hand boundary: the first record of every generation
COMMIT = 0x02  # a generation is complete (after its snapshot or its repaired copy)
FILLER = 0x03  # keeps the sequence unbroken where a repaired copy moved a COMMIT to its end
CARD = 0x10  # a card drawn from the shoe
ANTENNA = 0x11  # an antenna event (arrive / leave / collision)
BUTTON = 0x12  # a seat button press
CONSOLE = 0x13  # a dealer-console entry
TICK = 0x14  # a clock tick that changes state (level up, action clock expiry)
CONFIG = 0x15  # a configuration change between hands
HAND = 0x16  # hand boundary marker (new hand, hand over)
ALERT = 0x17  # an alert raised by the runtime itself (device trouble, a refused console verb)
PHH = 0x20  # one PHH hand history (hand log)

# What a person calls each kind, and what to do when the last one of that kind was lost.
KIND_NAMES = {
    SNAPSHOT: ("snapshot", "nothing to do"),
    COMMIT: ("commit", "nothing to do"),
    FILLER: ("filler", "nothing to do"),
    CARD: ("shoe card", "pass the card over the shoe reader again"),
    ANTENNA: ("antenna reading", "nothing to do, the antennas read it again"),
    BUTTON: ("button press", "press the button again"),
    CONSOLE: ("console entry", "re-enter it"),
    TICK: ("clock tick", "nothing to do, the clock catches up"),
    CONFIG: ("configuration change", "enter the change again"),
    HAND: ("hand marker", "start the hand again from the console"),
    ALERT: ("device alert", "nothing to do, the device is checked again"),
    PHH: ("hand history", "nothing to do, the hand's result is in the journal"),
}

_GEN_PREFIX = "j"
_GEN_SUFFIX = ".log"
HANDS = "hands.log"
HANDS_OLD = "hands.old"


class PowerCut(Exception):
    """Raised by a simulated flash when the power goes away mid-write (tests and the sim only).
    Deliberately not a FeltError: nothing in the firmware may catch and survive it."""


class JournalError(FormatError):
    """The journal cannot be used (no valid generation, a payload too long, a bad kind)."""


class Unverified(JournalError):
    """A record whose CRC is right but which does not verify (a sealed record that does not open:
    felt.recovery.seal): recovery leaves it out, says so (level error) and the table tilts."""


# -- storage --------------------------------------------------------------------------------------


class MemFlash:
    """An in-memory 'flash' of named files. `cut_after` (bytes) makes the write that crosses that
    many bytes from now store only its first part and raise PowerCut: a power loss at any byte.
    `bytes_written` counts every byte stored (flash wear), `writes` every append call."""

    def __init__(self, cut_after=None):
        self.files = {}
        self.cut_after = cut_after
        self.bytes_written = 0
        self.writes = 0

    def names(self):
        return sorted(self.files)

    def read(self, name):
        return bytes(self.files.get(name, b""))

    def size(self, name):
        return len(self.files.get(name, b""))

    def append(self, name, data):
        data = bytes(data)
        buf = self.files.setdefault(name, bytearray())
        if self.cut_after is not None and len(data) > self.cut_after:
            part = self.cut_after
            buf.extend(data[:part])
            self.bytes_written += part
            self.cut_after = 0
            raise PowerCut("power lost after %d of %d bytes to %s" % (part, len(data), name))
        buf.extend(data)
        self.bytes_written += len(data)
        self.writes += 1
        if self.cut_after is not None:
            self.cut_after -= len(data)

    def remove(self, name):
        self.files.pop(name, None)

    def rename(self, old, new):
        self.files[new] = self.files.pop(old)

    def copy(self):
        """Another MemFlash with the same files (what is on the chip after a reboot)."""
        other = MemFlash()
        for name in self.files:
            other.files[name] = bytearray(self.files[name])
        return other


class DirFlash:
    """Files in a directory (littlefs on a Pico, ext4 on a Raspberry Pi, a temp dir in tests).
    Each append is one write() followed by flush() (and fsync/sync where the port has it)."""

    def __init__(self, path):
        import os

        self._os = os
        self.path = path.rstrip("/")
        self.bytes_written = 0
        self.writes = 0
        self._open = {}
        try:
            os.mkdir(self.path)
        except OSError:
            pass  # exists

    def _p(self, name):
        return self.path + "/" + name

    def names(self):
        return sorted(self._os.listdir(self.path))

    def read(self, name):
        try:
            with open(self._p(name), "rb") as f:
                return f.read()
        except OSError:
            return b""

    def size(self, name):
        try:
            return self._os.stat(self._p(name))[6]
        except OSError:
            return 0

    def append(self, name, data):
        f = self._open.get(name)
        if f is None:
            f = open(self._p(name), "ab")
            self._open[name] = f
        f.write(data)
        f.flush()
        os = self._os
        if hasattr(os, "fsync"):
            os.fsync(f.fileno())  # CPython / Raspberry Pi: to the disk, not just the page cache
        elif hasattr(os, "sync"):
            os.sync()
        self.bytes_written += len(data)
        self.writes += 1

    def _close(self, name):
        f = self._open.pop(name, None)
        if f is not None:
            f.close()

    def remove(self, name):
        self._close(name)
        try:
            self._os.remove(self._p(name))
        except OSError:
            pass  # already gone

    def rename(self, old, new):
        self._close(old)
        self._close(new)
        self._os.rename(self._p(old), self._p(new))

    def close(self):
        for name in list(self._open):
            self._close(name)


# -- records --------------------------------------------------------------------------------------


class Record:
    """One valid record: seq, kind, payload (bytes), offset (byte position in its file)."""

    def __init__(self, seq, kind, payload, offset=0):
        self.seq = seq
        self.kind = kind
        self.payload = payload
        self.offset = offset

    def value(self):
        """The payload decoded as JSON (what append_value stored)."""
        import json

        try:
            return json.loads(self.payload)
        except ValueError:
            raise JournalError("record %d: payload is not JSON" % self.seq)

    def __eq__(self, other):
        return (isinstance(other, Record) and other.seq == self.seq and other.kind == self.kind
                and other.payload == self.payload)

    def __repr__(self):
        return "Record(%d, 0x%02X, %r)" % (self.seq, self.kind, self.payload)


class Damage:
    """Why a scan stopped before the end of a file. reason: 'torn' (the last record is cut short
    or fails its CRC and nothing valid follows: a power loss mid-write) or 'corrupt' (a bad
    record with valid records after it: flash damage). kind/seq of the bad record when its header
    was intact (else None); offset: where it starts; later: valid records found after it (they
    are not replayed: an input cannot be skipped); lost_bytes: bytes from offset to the end."""

    def __init__(self, reason, offset, lost_bytes, kind=None, seq=None, later=0, detail=""):
        self.reason = reason
        self.offset = offset
        self.lost_bytes = lost_bytes
        self.kind = kind
        self.seq = seq
        self.later = later
        self.detail = detail

    def __repr__(self):
        return "Damage(%s @%d, %d bytes, kind=%r, seq=%r, later=%d: %s)" % (
            self.reason, self.offset, self.lost_bytes, self.kind, self.seq, self.later, self.detail)


def as_bytes(payload):
    """str -> UTF-8 bytes; bytes-like -> bytes."""
    return payload.encode() if isinstance(payload, str) else bytes(payload)


def encode(seq, kind, payload):
    """One record as bytes (see hardware/journal.md). ValueError for a bad kind/seq/length."""
    if not (1 <= kind <= 255):
        raise ValueError("record kind must be 1..255, got %r" % (kind,))
    if not (0 <= seq <= 0xFFFFFFFF):
        raise ValueError("sequence number out of range: %r" % (seq,))
    if isinstance(payload, str):
        payload = payload.encode()
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("record payload of %d bytes > %d" % (len(payload), MAX_PAYLOAD))
    head = struct.pack("<BBHI", SYNC, kind, len(payload), seq)
    crc = binascii.crc32(payload, binascii.crc32(head)) & 0xFFFFFFFF
    return head + payload + struct.pack("<I", crc)


def record_at(buf, pos):
    """(Record, end) if a valid record starts at pos, else (None, why, kind, seq)."""
    n = len(buf)
    if buf[pos] != SYNC:
        return None, "no sync byte (0x%02X)" % buf[pos], None, None
    if n - pos < HEADER:
        return None, "header cut short (%d of %d bytes)" % (n - pos, HEADER), None, None
    _sync, kind, length, seq = struct.unpack_from("<BBHI", buf, pos)
    if length > MAX_PAYLOAD or kind == 0:
        return None, "impossible header (kind %d, length %d)" % (kind, length), None, None
    end = pos + HEADER + length + TRAILER
    if end > n:
        return None, "record cut short (%d of %d bytes)" % (n - pos, end - pos), kind, seq
    body = memoryview(buf)[pos:end - TRAILER]
    want = struct.unpack_from("<I", buf, end - TRAILER)[0]
    if binascii.crc32(body) & 0xFFFFFFFF != want:
        return None, "CRC32 mismatch", kind, seq
    return Record(seq, kind, bytes(buf[pos + HEADER:end - TRAILER]), pos), end


def scan(buf):
    """Every valid record of a file, in order, up to the first bad one -> (records, Damage|None).
    Sequence numbers must rise by one; a gap or repeat counts as damage too."""
    records = []
    pos = 0
    n = len(buf)
    while pos < n:
        got = record_at(buf, pos)
        rec = got[0]
        if rec is not None and records and rec.seq != records[-1].seq + 1:
            got = (None, "sequence %d after %d" % (rec.seq, records[-1].seq), rec.kind, rec.seq)
            rec = None
        if rec is None:
            later = _count_later(buf, pos + 1)
            return records, Damage("corrupt" if later else "torn", pos, n - pos, got[2], got[3], later, got[1])
        records.append(rec)
        pos = got[1]
    return records, None


def _count_later(buf, pos):
    # Valid records beyond damage (resync on the sync byte) tell flash damage from a torn tail.
    count = 0
    n = len(buf)
    while pos < n:
        if buf[pos] == SYNC:
            got = record_at(buf, pos)
            if got[0] is not None:
                count += 1
                pos = got[1]
                continue
        pos += 1
    return count


# -- canonical JSON payloads ------------------------------------------------------------------


def dumps(value):
    """Compact JSON with sorted keys: the same bytes on CPython and MicroPython (whose dicts are
    unordered), so a journal written by one interpreter replays identically on the other."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return "%d" % value
    if isinstance(value, str):
        out = []
        for c in value:
            o = ord(c)
            if c == '"' or c == "\\":
                out.append("\\" + c)
            elif o < 32 or o > 126:
                if o > 0xFFFF:
                    raise ValueError("character beyond U+FFFF in journal text")
                out.append("\\u%04x" % o)
            else:
                out.append(c)
        return '"' + "".join(out) + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ",".join([dumps(v) for v in value]) + "]"
    if isinstance(value, dict):
        keys = sorted(value)
        for k in keys:
            if not isinstance(k, str):
                raise ValueError("journal JSON keys must be strings, got %r" % (k,))
        return "{" + ",".join([dumps(k) + ":" + dumps(value[k]) for k in keys]) + "}"
    if isinstance(value, (bytes, bytearray)):
        return dumps(binascii.hexlify(value).decode())
    raise ValueError("cannot journal a %s" % type(value).__name__)


# -- the journal ----------------------------------------------------------------------------------


HOUSEKEEPING = (SNAPSHOT, COMMIT, FILLER)  # written by the journal itself, never replayed


def _committed(records):
    # A generation counts once it starts with its snapshot and holds a COMMIT.
    if not records or records[0].kind != SNAPSHOT:
        return False
    for r in records:
        if r.kind == COMMIT:
            return True
    return False


def _gen_name(gen):
    return "%s%08d%s" % (_GEN_PREFIX, gen, _GEN_SUFFIX)


def _gen_of(name):
    """The generation a file name holds, or None for any other file in the folder. Only the exact
    name _gen_name writes counts: ASCII digits (str.isdigit() also takes '\u00b2', which int()
    refuses -- a crash at boot -- and int() takes Arabic-Indic digits, an alias), and no extra
    leading zero, so neither 'j1.log' nor 'j000000001.log' can stand in for j00000001.log."""
    if not (name.startswith(_GEN_PREFIX) and name.endswith(_GEN_SUFFIX)):
        return None
    digits = name[len(_GEN_PREFIX):len(name) - len(_GEN_SUFFIX)]
    if not is_digits(digits):
        return None
    g = int(digits)
    return g if _gen_name(g) == name else None


def _inputs(records):
    return [r for r in records if r.kind not in HOUSEKEEPING]


class Journal:
    """The write-ahead journal. Files: one 'generation' j<N>.log per hand, which starts with a
    SNAPSHOT record and a COMMIT record and then holds every input of the hand in order.

    Flush policy: append() writes the whole record with one write and flushes it to flash before it
    returns, so an input is durable before it takes effect. compact() writes the next generation
    (snapshot + commit) completely before deleting the old one, so a power loss at any byte leaves
    one complete generation. Call open() once at boot (felt.recovery.restore does), then append/compact."""

    def __init__(self, flash, log=None):
        self.flash = flash
        self.log = log
        self.gen = None
        self.next_seq = 0
        self.snapshot = None  # the SNAPSHOT Record of the current generation
        self.damage = None  # Damage found by open(), or None
        self.discarded = []  # names of files open() removed (an interrupted compaction)
        # no copy of the generation's records in RAM: records() reads them back from flash (a
        # ten-seat hand's were ~36 KB on a 32-bit board, hardware/memory.md "A board as it boots")
        self._name = None

    # boot

    def open(self):
        """Find the newest committed generation, read its records, repair a damaged tail (the
        valid records are copied into a new generation, then the damaged file is removed).
        Returns the list of input records after the snapshot. A blank flash starts generation 1
        with an empty snapshot (value None)."""
        gens = []
        for name in self.flash.names():
            g = _gen_of(name)
            if g is not None:
                gens.append(g)
        gens.sort()
        chosen = None
        while gens:
            g = gens.pop()
            records, damage = scan(self.flash.read(_gen_name(g)))
            if _committed(records):
                chosen = (g, records, damage)
                break
            # Never committed: a compaction or repair cut short. The generation before it is whole.
            self.discarded.append(_gen_name(g))
        for name in self.discarded:
            self.flash.remove(name)
        for g in gens:
            self.flash.remove(_gen_name(g))  # older generations left by a cut before their delete
        if chosen is None:
            self._start(1, 0, None)
            return []
        g, records, damage = chosen
        self.gen = g
        self._name = _gen_name(g)
        self.snapshot = records[0]
        self.next_seq = records[-1].seq + 1
        self.damage = damage
        if damage is not None:
            self._repair(records)
        return _inputs(records)

    def _start(self, gen, seq, snapshot_value, first=None):
        name = _gen_name(gen)
        text = dumps(snapshot_value)
        self.flash.remove(name)
        self.flash.append(name, encode(seq, SNAPSHOT, text))
        snap_seq = seq
        if first is not None:
            # The input that opened the hand belongs to the new generation: it is written before
            # the COMMIT, so a cut anywhere here leaves the old generation (which holds it too).
            seq += 1
            self.flash.append(name, encode(seq, first[0], first[1]))
        self.flash.append(name, encode(seq + 1, COMMIT, dumps({"gen": gen})))
        old = self._name
        self.gen = gen
        self._name = name
        self.snapshot = Record(snap_seq, SNAPSHOT, text.encode())
        self.next_seq = seq + 2
        if old is not None and old != name:
            self.flash.remove(old)

    def _repair(self, records):
        # Littlefs and MicroPython cannot truncate, so the good records go to a new generation
        # whose COMMIT is written last (until then boot ignores the copy); the early COMMIT
        # becomes a FILLER so the sequence stays unbroken. The damaged file goes after that.
        name = _gen_name(self.gen + 1)
        self.flash.remove(name)
        for r in records:
            kind = FILLER if r.kind == COMMIT else r.kind
            self.flash.append(name, encode(r.seq, kind, r.payload))
        blob = encode(self.next_seq, COMMIT, dumps({"gen": self.gen + 1, "repaired": True}))
        self.flash.append(name, blob)
        self.flash.remove(self._name)
        self.gen += 1
        self._name = name
        self.next_seq += 1

    # running

    def append(self, kind, payload=b""):
        """Write one input record and flush it; returns its sequence number. Call BEFORE the input
        takes effect. ValueError for a bad kind or an over-long payload (nothing written)."""
        if self._name is None:
            raise JournalError("journal not opened")
        if kind in HOUSEKEEPING:
            raise ValueError("SNAPSHOT/COMMIT/FILLER records are written by the journal itself")
        seq = self.next_seq
        blob = encode(seq, kind, payload)
        self.flash.append(self._name, blob)
        self.next_seq = seq + 1
        return seq

    def append_value(self, kind, value):
        """append() with a JSON payload (canonical: sorted keys, no spaces)."""
        return self.append(kind, dumps(value))

    def compact(self, snapshot_value, first=None):
        """At a hand boundary: start a new generation holding only `snapshot_value` (JSON-able
        state, e.g. seats, stacks, button, level, settings) and drop the old one. `first`:
        optional (kind, payload) of the input that opens the new hand, already appended to the
        old generation and copied into the new one before its COMMIT. Returns the snapshot's
        sequence number."""
        if self._name is None:
            raise JournalError("journal not opened")
        if first is not None and first[0] in HOUSEKEEPING:
            raise ValueError("the first record of a hand must be an input")
        seq = self.next_seq
        self._start(self.gen + 1, seq, snapshot_value, first)
        return seq

    def records(self):
        """Input records since the last snapshot, in order: read back from the current generation
        on flash (boot's replay has open()'s list; nothing at run time reads them)."""
        if self._name is None:
            return []
        return _inputs(scan(self.flash.read(self._name))[0])

    def snapshot_value(self):
        return self.snapshot.value() if self.snapshot is not None else None

    def last_seq(self):
        """Sequence number of the newest record on flash (-1 if none)."""
        return self.next_seq - 1


class HandLog:
    """Hand histories (PHH text), one record each, in the journal's framing: hands.log, rotated
    to hands.old when it passes max_bytes (so at most about 2 x max_bytes are kept)."""

    def __init__(self, flash, max_bytes=32768):
        self.flash = flash
        self.max_bytes = max_bytes
        self.next_seq = 0
        self.damage = None

    def open(self):
        """Scan the log (a torn last history is dropped and reported in .damage). Returns count."""
        if not self.flash.size(HANDS) and self.flash.size(HANDS + ".new"):
            self.flash.rename(HANDS + ".new", HANDS)  # a repair cut between remove and rename
        self.flash.remove(HANDS + ".new")
        records, self.damage = scan(self.flash.read(HANDS))
        old, _ = scan(self.flash.read(HANDS_OLD))
        last = records[-1].seq if records else (old[-1].seq if old else -1)
        self.next_seq = last + 1
        if self.damage is not None:
            self._rewrite(records)
        return len(records)

    def _rewrite(self, records):
        # A torn tail must go before the next append; write the good part aside, then swap.
        self.flash.remove(HANDS + ".new")
        for r in records:
            self.flash.append(HANDS + ".new", encode(r.seq, r.kind, r.payload))
        self.flash.remove(HANDS)
        if records:
            self.flash.rename(HANDS + ".new", HANDS)

    def append(self, phh_text):
        """Store one hand history; returns its sequence number."""
        if self.flash.size(HANDS) >= self.max_bytes:
            self.flash.remove(HANDS_OLD)
            self.flash.rename(HANDS, HANDS_OLD)
        seq = self.next_seq
        self.flash.append(HANDS, encode(seq, PHH, phh_text))
        self.next_seq = seq + 1
        return seq

    def last(self):
        """The newest stored hand history (text) or None: at boot the runtime compares it with
        the hand it just replayed to see whether that hand's history was written already."""
        for name in (HANDS, HANDS_OLD):
            records, _ = scan(self.flash.read(name))
            if records:
                return records[-1].payload.decode()
        return None

    def contains(self, phh_text):
        """True if this exact history is stored (boot uses it: a hand replayed from the journal
        may have had its history written before the power went)."""
        data = phh_text.encode() if isinstance(phh_text, str) else bytes(phh_text)
        for name in (HANDS, HANDS_OLD):
            records, _ = scan(self.flash.read(name))
            for r in records:
                if r.payload == data:
                    return True
        return False

    def histories(self):
        """Every stored hand history (oldest first) as text."""
        out = []
        for name in (HANDS_OLD, HANDS):
            records, _ = scan(self.flash.read(name))
            for r in records:
                out.append(r.payload.decode())
        return out
