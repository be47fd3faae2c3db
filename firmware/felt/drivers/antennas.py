"""Round-robin poller over the MFRC522 antennas (one per location) -- drivers layer.

Only one antenna field is on at a time. Each antenna costs two poll(now_ms) steps: field on, then
(after the ISO/IEC 14443-3 5.1 ms unmodulated-field guard, `settle_ms`) an inventory and field off.
Reports card arrivals and departures per location, collisions (two or more cards on one antenna)
as their own event, and reader health. Knows locations by name only ("seat1".., "board", ...).
Protocol notes: hardware/protocols/mfrc522.md, "Round robin" and "reader health".

Events (tuples):
  ("card-arrived", location, uid_hex)     ("card-left", location, uid_hex)
  ("collision", location, (uid_hex, ...))  ("collision-cleared", location)
  ("reader", location, status)             status: "ok" | "degraded" | "not answering"
  ("truncated", location, max_cards)       the inventory stopped at its limit: there may be more
  ("truncated-cleared", location)          cards than it read; none is reported gone meanwhile
While a reader is not answering its cards are neither confirmed nor reported gone (the "reader"
event is the alert: the floor checks that antenna); they are compared again once it answers.
"""
from binascii import hexlify

from felt.errors import DeviceTimeout
from felt.drivers.mfrc522 import air_bits_us

OK = "ok"
DEGRADED = "degraded"
NOT_ANSWERING = "not answering"
PILES = ("muck", "burn")  # locations where the cards of a whole hand pile up
PILE_CARDS = 60  # a pile's read limit: 52 cards and a few foreign tags
_NONE = []  # what a poll without events returns: shared, never appended to
_HEX = {}  # uid bytes -> uid_hex, each text made once (a deck's tags: a few hundred bytes)
# issue 17: the cache's bound. One poker deck and a few foreign tags fit (a poker table never empties
# it); a blackjack shoe of 6-8 decks (312-416 tags) grew it by every tag ever read -- ~25 KB of a
# 32-bit board's RAM that nothing freed (hardware/memory.md). Full, it starts again empty.
HEX_CACHE = PILE_CARDS + 8


def uid_hex(uid):
    # made once per tag: every poll of a seat with cards names them all
    h = _HEX.get(uid)
    if h is None:
        if len(_HEX) >= HEX_CACHE:
            _HEX.clear()
        h = _HEX[uid] = hexlify(uid).decode().upper()
    return h


class ReaderHealth:
    """Counters for one antenna; `status` follows an error score that rises by 4 per CRC/frame
    error and falls by 1 per clean poll (degraded at >= degraded_score), and the count of
    consecutive polls where the chip did not answer (not answering at >= dead_after)."""

    # Every counter starts as the class's 0 (or None): an antenna's instance holds only those it
    # has changed (13 antennas; their dicts were 4 KB of RAM)
    reads = 0  # cards read
    polls = 0
    empty_polls = 0
    empty_poll_us = 0  # modelled antenna time spent on polls that found nothing
    collisions = 0
    crc_errors = 0
    frame_errors = 0
    timeouts = 0
    last_seen_ms = None  # last time a card was read here
    last_answer_ms = None  # last time the chip answered at all
    score = 0
    dead = 0
    status = OK

    def __init__(self, location):
        self.location = location

    def as_dict(self):
        return {"location": self.location, "status": self.status, "reads": self.reads, "polls": self.polls,
                "empty_polls": self.empty_polls, "empty_poll_us": self.empty_poll_us,
                "collisions": self.collisions, "crc_errors": self.crc_errors, "frame_errors": self.frame_errors,
                "timeouts": self.timeouts, "last_seen_ms": self.last_seen_ms, "last_answer_ms": self.last_answer_ms}


class AntennaPoller:
    """readers: list of (location, MFRC522). Seats are the locations named "seat<N>"; during a
    hand (set_in_hand(True)) each seat is visited `seat_passes_in_hand` times per cycle.
    A card counts as gone after `miss_limit` clean polls without it. An antenna reads at most
    `max_cards` cards per poll (the board holds 5, a stud seat 7: RULES.md RANK-19), the muck and
    the burn antennas (PILES) at most `pile_cards` (a whole deck can end up there). A poll that
    reads its limit may have missed cards: it reports no card gone and says "truncated"."""

    def __init__(self, readers, settle_ms=6, miss_limit=2, max_cards=8, seat_passes_in_hand=2,
                 degraded_score=8, dead_after=3, pile_cards=PILE_CARDS):
        if not readers:
            raise ValueError("no antennas to poll")
        self.readers = readers
        self.settle_ms = settle_ms
        self.miss_limit = miss_limit
        self.max_cards = max_cards
        self.limits = [pile_cards if loc in PILES else max_cards for loc, _r in readers]
        self._truncated = [False] * len(readers)
        self.seat_passes_in_hand = seat_passes_in_hand
        self.degraded_score = degraded_score
        self.dead_after = dead_after
        self.health = [ReaderHealth(loc) for loc, _r in readers]
        self._present = [{} for _ in readers]  # uid_hex -> clean polls missed
        self._collided = [None] * len(readers)
        self.in_hand = False
        self.schedule = self._build_schedule()
        self._pos = 0
        self._on = None  # index of the reader whose field is on
        self._on_ms = 0
        self.next_due_ms = 0
        self.sweeps = 0
        self._events = []  # the next poll's events (a new list only after one was handed out)
        self._last = [None] * len(readers)  # the ScanResult each reader gave last (see _record)

    # -- scheduling -------------------------------------------------------------------------
    def _build_schedule(self):
        seats = []
        others = []
        for i in range(len(self.readers)):
            (seats if self.readers[i][0].startswith("seat") else others).append(i)
        passes = self.seat_passes_in_hand if self.in_hand else 1
        if passes <= 1 or not seats:
            return seats + others
        out = []
        per = (len(others) + passes - 1) // passes
        for p in range(passes):
            out.extend(seats)
            out.extend(others[p * per:(p + 1) * per])
        return out

    def set_in_hand(self, in_hand):
        if in_hand != self.in_hand:
            self.in_hand = in_hand
            self.schedule = self._build_schedule()
            self._pos %= len(self.schedule)

    def start(self):
        """Init every chip (field off); a chip that does not answer is reported, not fatal."""
        events = []
        for i in range(len(self.readers)):
            try:
                self.readers[i][1].init()
            except DeviceTimeout:
                self._dead(i, events)
        return events

    # -- the poll step ----------------------------------------------------------------------
    def poll(self, now_ms):
        """One step; returns a list of events (read only: a step with none returns the same
        empty list, so a steady revisit allocates nothing). The runtime loop calls it again at
        next_due_ms."""
        events = self._events
        if self._on is None:
            self._field_on(now_ms, events)
            return self._out(events)
        if now_ms - self._on_ms < self.settle_ms:
            return _NONE
        self._visit(now_ms, events)
        return self._out(events)

    # Every method of the steady visit keeps its MicroPython frame within 11 words (locals +
    # stack; an exception handler counts 3): a bigger one is allocated on the heap at every call
    # (issue 20 item 4). Hence the small pieces.
    def _visit(self, now_ms, events):
        i = self._on
        self._on = None
        result = self._inventory(i)
        if result is None:  # the chip did not answer
            self._dead(i, events)
            return
        self._record(i, result, now_ms, events)
        self.next_due_ms = now_ms

    def _inventory(self, i):
        # the inventory, then field off; None when the chip did not answer either
        reader = self.readers[i][1]
        result = self._read(reader, self.limits[i])
        if result is not None and self._switch(reader, False):
            return result
        return None

    def _read(self, reader, limit):
        try:
            return reader.inventory(limit)
        except DeviceTimeout:
            return None

    def _switch(self, reader, on):
        try:
            reader.field(on)
        except DeviceTimeout:
            return False
        return True

    def _out(self, events):
        if not events:
            return _NONE
        self._events = []
        return events

    def _field_on(self, now_ms, events):
        # Visit the schedule in order; a chip that fails to switch on is skipped this turn.
        tries = len(self.schedule)
        while tries:
            tries -= 1
            i = self._next()
            if self._switch(self.readers[i][1], True):
                self._on = i
                self._on_ms = now_ms
                break
            self._dead(i, events)
        self.next_due_ms = now_ms + self.settle_ms

    def _next(self):
        i = self.schedule[self._pos]
        self._pos += 1
        if self._pos >= len(self.schedule):
            self._pos = 0
            self.sweeps += 1
        return i

    def _dead(self, i, events):
        h = self.health[i]
        h.timeouts += 1
        h.dead += 1
        try:
            self.readers[i][1].field(False)
        except DeviceTimeout:
            pass  # a chip that does not answer cannot be switched off either; it is reported
        if h.dead >= self.dead_after:
            self._set_status(i, NOT_ANSWERING, events)

    def _record(self, i, result, now_ms, events):
        if result is self._last[i] and not result.errors() and len(self._present[i]) == len(result.uids):
            self._unchanged(i, result, now_ms, events)
        else:
            self._changed(i, result, now_ms, events)

    def _changed(self, i, result, now_ms, events):
        self._last[i] = result
        h = self.health[i]
        loc = self.readers[i][0]
        h.polls += 1
        if h.dead:
            h.dead = 0
        h.last_answer_ms = now_ms
        if result.crc_errors:
            h.crc_errors += result.crc_errors
        if result.frame_errors:
            h.frame_errors += result.frame_errors
        if result.collisions:
            h.collisions += result.collisions
        if result.errors():
            h.score += 4 * result.errors()
        elif h.score:
            h.score -= 1
        seen = sorted(uid_hex(u) for u in result.uids)
        if not seen and not result.errors():
            h.empty_polls += 1
            h.empty_poll_us += air_bits_us(7) + self.readers[i][1].timeout_us
        if seen:
            h.reads += len(seen)
            h.last_seen_ms = now_ms
        present = self._present[i]
        for u in seen:
            if u not in present:
                events.append(("card-arrived", loc, u))
            present[u] = 0
        full = len(seen) >= self.limits[i]
        if full != self._truncated[i]:
            self._truncated[i] = full
            events.append(("truncated", loc, self.limits[i]) if full else ("truncated-cleared", loc))
        if not result.errors() and not full:  # only a clean, complete poll may say a card is gone
            for u in sorted(present):
                if u not in seen:
                    present[u] += 1
                    if present[u] >= self.miss_limit:
                        del present[u]
                        events.append(("card-left", loc, u))
        self._collision(i, loc, result, seen, events)
        self._rescore(i, events)

    def _unchanged(self, i, result, now_ms, events):
        # The reader handed back the very result it gave last time (MFRC522.inventory: every
        # known card answered, nothing new, no error) and every card present was in it: no card
        # came or went, no collision or truncation changed -- only the counters move. No
        # allocation (issue 20: the steady antenna revisit runs under micropython.heap_lock()).
        h = self.health[i]
        h.polls += 1
        if h.dead:
            h.dead = 0
        h.last_answer_ms = now_ms
        if h.score:
            h.score -= 1
        if result.uids:
            h.reads += len(result.uids)
            h.last_seen_ms = now_ms
        else:
            self._empty(i)
        self._rescore(i, events)

    def _empty(self, i):
        h = self.health[i]
        h.empty_polls += 1
        h.empty_poll_us += air_bits_us(7) + self.readers[i][1].timeout_us

    def _rescore(self, i, events):
        h = self.health[i]
        if h.score >= self.degraded_score:
            self._set_status(i, DEGRADED, events)
        elif h.score == 0 or h.status == NOT_ANSWERING:
            self._set_status(i, OK, events)

    def _collision(self, i, loc, result, seen, events):
        if result.collisions or len(seen) > 1:
            key = tuple(seen)
            if self._collided[i] != key:
                self._collided[i] = key
                events.append(("collision", loc, key))
        elif self._collided[i] is not None and not result.errors():
            self._collided[i] = None
            events.append(("collision-cleared", loc))

    def _set_status(self, i, status, events):
        h = self.health[i]
        if h.status != status:
            h.status = status
            events.append(("reader", self.readers[i][0], status))

    def health_report(self):
        """Reader health of every antenna, in wiring order, as plain dicts (for `feltctl info`)."""
        return [h.as_dict() for h in self.health]

    def truncated(self, location):
        """True while `location`'s last inventory stopped at its limit (its cards may be more)."""
        for i in range(len(self.readers)):
            if self.readers[i][0] == location:
                return self._truncated[i]
        raise KeyError(location)

    def present(self, location):
        """UIDs (hex) currently on `location`'s antenna, sorted."""
        for i in range(len(self.readers)):
            if self.readers[i][0] == location:
                return sorted(self._present[i])
        raise KeyError(location)
