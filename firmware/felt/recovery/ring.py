# The journal on raw flash sectors (a ring, no file system) -- firmware layer, same record format
# and API as felt.recovery.journal.Journal / HandLog. Littlefs copies the tail block of a file on every
# flush (about one 4 KB erase per journal record, measured); here records are programmed into
# pre-erased sectors and a sector is erased only when the ring moves on: ~1.7 erases per hand
# instead of ~90. Layout, power-loss behaviour and wear figures: hardware/journal.md, "Raw ring".
import binascii
import struct

from felt.recovery import journal as jr

SECTOR_MAGIC = b"FJR1"
SECTOR_HEADER = 16  # magic, sector sequence (u32 LE), CRC32 of the first 8 bytes, 4 bytes 0xFF


class MemBlockDevice:
    """RAM NOR flash with the MicroPython extended block protocol (what rp2.Flash offers):
    readblocks(n, buf, off), writeblocks(n, buf, off) programs without erasing (bits only go
    1 -> 0, as on NOR), ioctl(4/5/6). `cut_after` bytes from now the program in progress stops
    and PowerCut is raised; an erase hit by the cut leaves the sector half erased."""

    def __init__(self, blocks=64, block_size=4096, cut_after=None):
        self.bs = block_size
        self.n = blocks
        self.data = bytearray(blocks * block_size)
        erased = b"\xff" * block_size
        for b in range(blocks):  # erased NOR reads 0xFF (one block at a time: small heaps)
            self.data[b * block_size:(b + 1) * block_size] = erased
        self.cut_after = cut_after
        self.programmed = 0
        self.erases = 0
        self.erase_counts = [0] * blocks

    def readblocks(self, block, buf, off=0):
        a = block * self.bs + off
        buf[:] = self.data[a:a + len(buf)]

    def writeblocks(self, block, buf, off=0):
        a = block * self.bs + off
        n = len(buf)
        if self.cut_after is not None and n > self.cut_after:
            n = self.cut_after
            self.cut_after = 0
            self._program(a, buf, n)
            raise jr.PowerCut("power lost after %d bytes of a program" % n)
        self._program(a, buf, n)
        if self.cut_after is not None:
            self.cut_after -= n

    def _program(self, a, buf, n):
        d = self.data
        for i in range(n):
            d[a + i] &= buf[i]  # NOR: programming clears bits only
        self.programmed += n

    def ioctl(self, op, arg):
        if op == 4:
            return self.n
        if op == 5:
            return self.bs
        if op == 6:
            a = arg * self.bs
            if self.cut_after is not None and self.cut_after < 1:
                self.data[a:a + self.bs // 2] = b"\xff" * (self.bs // 2)  # half erased
                raise jr.PowerCut("power lost during an erase")
            self.data[a:a + self.bs] = b"\xff" * self.bs
            self.erases += 1
            self.erase_counts[arg] += 1
            return 0
        return None

    def copy(self):
        other = MemBlockDevice(self.n, self.bs)
        other.data[:] = self.data
        other.erase_counts = list(self.erase_counts)
        return other


def _sector_header(sector_seq):
    head = SECTOR_MAGIC + struct.pack("<I", sector_seq)
    return head + struct.pack("<I", binascii.crc32(head) & 0xFFFFFFFF) + b"\xff\xff\xff\xff"


class _Sector:
    def __init__(self, index, seq, records, end, torn):
        self.index = index  # block number
        self.seq = seq  # sector sequence number (grows by one per sector opened)
        self.records = records
        self.end = end  # offset after the last valid record
        self.torn = torn  # jr.Damage when non-erased bytes follow the last valid record


class RingJournal:
    """Journal API (open, append, append_value, compact, records, snapshot_value, last_seq,
    next_seq, snapshot, damage, discarded) on `bdev` blocks [first, first + count)."""

    def __init__(self, bdev, first=0, count=None, log=None):
        self.bdev = bdev
        self.bs = bdev.ioctl(5, 0)
        self.first = first
        self.count = count if count is not None else bdev.ioctl(4, 0) - first
        if self.count < 3:
            raise jr.JournalError("a journal ring needs at least 3 sectors")
        self.log = log
        self.next_seq = 0
        self.snapshot = None
        self.damage = None
        self.discarded = []
        # no copy of the hand's records in RAM: records() reads them back (hardware/memory.md, "A
        # board as it boots": a ten-seat hand's were ~36 KB on a 32-bit board)
        self._head = None  # (block index, sector seq, write offset)
        self._live_from = None  # sector seq holding the current snapshot

    # -- scanning ---------------------------------------------------------------------------
    def _read(self, block, off, n):
        buf = bytearray(n)
        self.bdev.readblocks(block, buf, off)
        return buf

    def _scan_sector(self, block):
        head = self._read(block, 0, SECTOR_HEADER)
        if head[0:4] != SECTOR_MAGIC:
            return None
        if struct.unpack_from("<I", head, 8)[0] != binascii.crc32(bytes(head[0:8])) & 0xFFFFFFFF:
            return None
        seq = struct.unpack_from("<I", head, 4)[0]
        body = bytes(self._read(block, SECTOR_HEADER, self.bs - SECTOR_HEADER))
        n = _used(body)
        records, damage = jr.scan(body[:n])
        end = n
        if damage is not None:
            # the last record's CRC may end in 0xFF bytes that looked erased: read it whole
            got = jr.record_at(body, damage.offset)
            if got[0] is not None and _used(body[got[1]:]) == 0 and damage.reason == "torn":
                records.append(got[0])
                damage = None
                end = got[1]
            else:
                end = damage.offset
        for r in records:
            r.offset += SECTOR_HEADER
        return _Sector(block, seq, records, SECTOR_HEADER + end, damage)

    def _headers(self):
        # [(sector seq, block)] of the valid sectors, oldest first (16 bytes read per sector)
        out = []
        for i in range(self.count):
            block = self.first + i
            head = self._read(block, 0, 12)
            if head[0:4] != SECTOR_MAGIC:
                continue
            if struct.unpack_from("<I", head, 8)[0] != binascii.crc32(bytes(head[0:8])) & 0xFFFFFFFF:
                continue
            out.append((struct.unpack_from("<I", head, 4)[0], block))
        out.sort()
        return out

    def open(self):
        """Scan the ring; the newest snapshot and the inputs after it. A torn record at the head is
        dropped and reported (.damage); writing resumes in a fresh sector. Only the sectors from
        the newest snapshot on are held in memory (a Pico has ~200 KB of heap)."""
        self._head = None
        self.damage = None
        self.discarded = []
        heads = self._headers()
        # newest to oldest until a sector holding a snapshot
        start = None
        newest = None
        for k in range(len(heads) - 1, -1, -1):
            sec = self._scan_sector(heads[k][1])
            if newest is None:
                newest = sec
            for r in sec.records:
                if r.kind == jr.SNAPSHOT:
                    start = k
            if start is not None:
                break
        if start is None:
            last_seq = -1
            for k in range(len(heads) - 1, -1, -1):
                sec = newest if k == len(heads) - 1 else self._scan_sector(heads[k][1])
                if sec.records:
                    last_seq = sec.records[-1].seq
                    break
            self.snapshot = None
            self.next_seq = last_seq + 1
            self._live_from = None
            self._new_sector(heads[-1][0] + 1 if heads else 0)
            self._write_snapshot(None, None)
            return []
        live = []
        for k in range(start, len(heads)):
            sec = newest if k == len(heads) - 1 else self._scan_sector(heads[k][1])
            for r in sec.records:
                if r.kind == jr.SNAPSHOT:
                    live = [r]  # a newer snapshot in the same sector replaces the older one
                elif live:
                    live.append(r if r.kind != jr.PHH else jr.Record(r.seq, r.kind, b"", r.offset))
        # the sequence must be unbroken from the snapshot on; a break is flash damage
        for k in range(1, len(live)):
            if live[k].seq != live[k - 1].seq + 1:
                self.damage = jr.Damage("corrupt", live[k].offset, 0, live[k].kind, live[k].seq,
                                        len(live) - k, "sequence %d after %d" % (live[k].seq, live[k - 1].seq))
                live = live[:k]
                break
        self.snapshot = live[0]
        self._live_from = heads[start][0]
        inputs = _first_record(live[0]) + [r for r in live if _is_input(r)]
        self.next_seq = live[-1].seq + 1
        last = newest
        if self.damage is None and last.torn is not None:
            d = last.torn
            self.damage = jr.Damage("torn", d.offset + SECTOR_HEADER, d.lost_bytes, d.kind, d.seq, 0, d.detail)
        # never program after garbage: a damaged head sector is closed (the next record opens a
        # fresh sector -- not here, so a boot never erases anything)
        self._head = [last.index, last.seq, self.bs if self.damage is not None else last.end]
        return inputs

    def phh_records(self, newest_first=False):
        """The hand histories in the ring, one sector in memory at a time (a generator)."""
        heads = self._headers()
        order = range(len(heads) - 1, -1, -1) if newest_first else range(len(heads))
        for k in order:
            recs = self._scan_sector(heads[k][1]).records
            if newest_first:
                recs = recs[::-1]
            for r in recs:
                if r.kind == jr.PHH:
                    yield r

    # -- writing ----------------------------------------------------------------------------
    def _new_sector(self, sector_seq):
        block = self.first + sector_seq % self.count  # sector n always lives in block n mod count
        if self._live_from is not None:
            victim = self._scan_header_seq(block)
            if victim is not None and victim >= self._live_from:
                raise jr.JournalError("journal ring full: the current hand fills all %d sectors" % self.count)
        self.bdev.ioctl(6, block)
        self.bdev.writeblocks(block, _sector_header(sector_seq), 0)
        self._head = [block, sector_seq, SECTOR_HEADER]

    def _scan_header_seq(self, block):
        head = self._read(block, 0, 12)
        if head[0:4] != SECTOR_MAGIC:
            return None
        return struct.unpack_from("<I", head, 4)[0]

    def _put(self, kind, payload):
        blob = jr.encode(self.next_seq, kind, payload)
        if len(blob) > self.bs - SECTOR_HEADER:
            raise ValueError("record of %d bytes does not fit a %d-byte sector" % (len(blob), self.bs))
        if self._head[2] + len(blob) > self.bs:
            self._new_sector(self._head[1] + 1)
        self.bdev.writeblocks(self._head[0], blob, self._head[2])
        self._head[2] += len(blob)
        seq = self.next_seq
        self.next_seq += 1
        return seq, blob

    def _write_snapshot(self, value, first):
        # One record is the whole compaction: the state and the input that opens the hand, under
        # one CRC. Torn, it is garbage and the hand before (which holds that input too) stays.
        f = None
        if first is not None:
            f = [first[0], jr.as_bytes(first[1]).decode()]
        text = jr.dumps({"v": value, "f": f})
        live_from = self._head[1]
        seq, _ = self._put(jr.SNAPSHOT, text)
        self.snapshot = jr.Record(seq, jr.SNAPSHOT, text.encode())
        self._live_from = live_from
        return seq

    def append(self, kind, payload=b""):
        if self._head is None:
            raise jr.JournalError("journal not opened")
        if kind in jr.HOUSEKEEPING:
            raise ValueError("SNAPSHOT/COMMIT/FILLER records are written by the journal itself")
        return self._put(kind, payload)[0]

    def append_value(self, kind, value):
        return self.append(kind, jr.dumps(value))

    def compact(self, snapshot_value, first=None):
        if self._head is None:
            raise jr.JournalError("journal not opened")
        if first is not None and first[0] in jr.HOUSEKEEPING:
            raise ValueError("the first record of a hand must be an input")
        return self._write_snapshot(snapshot_value, first)

    def records(self):
        """The input that opened the hand and the inputs since its snapshot, in order: read back
        from the sectors since the snapshot's (the sequence unbroken from it, as open() takes it;
        nothing at run time reads them)."""
        if self.snapshot is None or self._head is None:
            return []
        out = []
        expect = None
        for sector_seq in range(self._live_from, self._head[1] + 1):
            sec = self._scan_sector(self.first + sector_seq % self.count)
            if sec is None or sec.seq != sector_seq:
                continue
            for r in sec.records:
                if r.kind == jr.SNAPSHOT and r.seq == self.snapshot.seq:
                    out = _first_record(r)
                    expect = r.seq + 1
                elif expect is not None and r.seq == expect:
                    expect += 1
                    if _is_input(r):
                        out.append(r)
        return out

    def snapshot_value(self):
        return self.snapshot.value()["v"] if self.snapshot is not None else None

    def last_seq(self):
        return self.next_seq - 1


class RingHandLog:
    """HandLog API over a RingJournal: histories are PHH records in the same ring (the newest
    ones survive until the ring wraps over them; they must be exported before that). Read on
    demand, one sector at a time."""

    def __init__(self, ring):
        self.ring = ring
        self.damage = None

    @property
    def next_seq(self):
        n = 0
        for _r in self.ring.phh_records():
            n += 1
        return n

    def open(self):
        """Number of histories in the ring (the ring's own open() checks the records)."""
        return self.next_seq

    def append(self, phh_text):
        return self.ring.append(jr.PHH, phh_text)

    def last(self):
        for r in self.ring.phh_records(newest_first=True):
            return r.payload.decode()
        return None

    def contains(self, phh_text):
        data = jr.as_bytes(phh_text)
        for r in self.ring.phh_records(newest_first=True):
            if r.payload == data:
                return True
        return False

    def histories(self):
        return [r.payload.decode() for r in self.ring.phh_records()]


def _used(body):
    # bytes up to the erased (0xFF) tail of a sector (rstrip runs in C: a boot reads every sector)
    return len(bytes(body).rstrip(b"\xff"))


def _first_record(snapshot):
    # the input that opened the hand, carried inside the snapshot record
    try:
        f = snapshot.value().get("f")
    except (jr.JournalError, AttributeError):
        return []
    if not f:
        return []
    return [jr.Record(snapshot.seq, f[0], f[1].encode())]


def _is_input(r):
    # a table input: not the journal's own records, nor a finished hand's history
    return r.kind not in jr.HOUSEKEEPING and r.kind != jr.PHH
