"""Seat buttons -- drivers layer: debounced GPIO per seat with short and long presses, and the two
named faults of a worn or jammed switch: BOUNCING (chatter that never settles) and STUCK (held far
longer than anyone presses). Time comes only from poll(now_ms); pin interrupts, when the backend
has them, only put the seat's index into a pre-allocated RingBuffer (see ringbuf.py). What a press
means (sit out / return BLIND-13, wait for the big blind BLIND-15, straddle BLIND-20, time...) is the
table controller's business; wiring in hardware/wiring.md, "Buttons".

Events (tuples):
  ("button", seat, "short" | "long")     a long press is reported while still held, at long_ms
  ("button-fault", seat, STUCK | BOUNCING)   ("button-fault-cleared", seat, STUCK | BOUNCING)
"""
from felt.drivers.ringbuf import RingBuffer

SHORT = "short"
LONG = "long"
STUCK = "stuck"
BOUNCING = "bouncing"
_NONE = []  # what a poll without events returns: shared, never appended to (issue 20 item 4)


class _Seat:
    # The state of a button nobody has touched is the class's: an instance keeps only what has
    # changed (ten seats; their instance dicts were ~2 KB of RAM)
    changed_ms = None  # when raw last changed (None: not since start)
    down_ms = None  # set at the first poll for a button already held at start
    stuck = False
    edges = 0  # raw changes since window_ms
    window_ms = 0
    bouncing = False
    quiet_ms = 0
    raw = False  # the levels of a button not held at start (an instance keeps them once they change)
    stable = False
    long_sent = False

    def __init__(self, seat, pin, level):
        self.seat = seat
        self.pin = pin
        if level:  # held at power-up: not a deliberate long press either
            self.raw = self.stable = self.long_sent = True


class SeatButtons:
    """pins: list of (seat, InputPin) with seats numbered from 1. active_low: a press pulls the
    pin to ground (the board enables the pull-up). Debounce: a level must hold `debounce_ms`.
    BOUNCING: more than `bounce_edges` changes within `bounce_window_ms`; cleared after
    `bounce_quiet_ms` without a change. STUCK: pressed for `stuck_ms`; cleared on release (the
    release then makes no press event)."""

    def __init__(self, pins, active_low=True, debounce_ms=30, long_ms=1500, stuck_ms=30000,
                 bounce_edges=8, bounce_window_ms=500, bounce_quiet_ms=2000, queue_size=64):
        self.active_low = active_low
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.stuck_ms = stuck_ms
        self.bounce_edges = bounce_edges
        self.bounce_window_ms = bounce_window_ms
        self.bounce_quiet_ms = bounce_quiet_ms
        self.queue = RingBuffer(queue_size)
        self.seats = []
        for seat, pin in sorted(pins, key=lambda sp: sp[0]):
            self.seats.append(_Seat(seat, pin, self._pressed(pin)))
            self.seats[-1].bit = 1 << (len(self.seats) - 1)  # its bit in the interrupts' mask
        self._handlers = []
        self._events = []  # filled by this poll's steps; handed out only when not empty
        self._idle = 1 if active_low else 0  # the level of a pin nobody presses
        self._now_ms = 0  # this poll's time and interrupt mask, for the seats' steps
        self._kick = 0

    def _pressed(self, pin):
        v = pin.value()
        return (not v) if self.active_low else bool(v)

    def attach_irqs(self):
        """Register one pin-change handler per seat (made once, here); each only queues."""
        queue = self.queue
        for i in range(len(self.seats)):
            def handler(_pin, index=i, put=queue.put):
                put(index)
            self._handlers.append(handler)
            self.seats[i].pin.irq(handler, "both")
        return self._handlers

    def poll(self, now_ms):
        # A seat at rest (not pressed, not settling, not bouncing, no interrupt) costs one pin
        # read; the others take the full step. Small frames on purpose: a MicroPython frame above
        # 11 words is allocated on the heap at every call (issue 20 item 4).
        self._now_ms = now_ms
        self._kick = self._drain()
        for s in self.seats:
            if s.pin.value() != self._idle or s.raw or s.stable or s.bouncing or self._kick:
                self._active(s)
        return self._handout()

    def _drain(self):
        kicked = 0
        while True:  # edges queued by interrupts: the pin changed since the last poll
            index = self.queue.get()
            if index < 0:
                return kicked
            if index < len(self.seats):
                kicked |= 1 << index

    def _active(self, s):
        self._step(s, self._now_ms, 1 if self._kick & s.bit else 0, self._events)

    def _handout(self):
        events = self._events
        if not events:
            return _NONE  # the steady poll allocates nothing
        self._events = []
        return events

    def _step(self, s, now_ms, kicked, events):
        raw = self._pressed(s.pin)
        if raw != s.raw or kicked:
            if raw != s.raw:
                s.raw = raw
            s.changed_ms = now_ms
            self._edge(s, now_ms, events)
        elif s.bouncing and now_ms - s.quiet_ms >= self.bounce_quiet_ms:
            s.bouncing = False
            events.append(("button-fault-cleared", s.seat, BOUNCING))
        if s.changed_ms is not None and now_ms - s.changed_ms >= self.debounce_ms and s.raw != s.stable:
            s.stable = s.raw
            self._settled(s, now_ms, events)
        if s.stable and not s.stuck:
            if s.down_ms is None:
                s.down_ms = now_ms
            held = now_ms - s.down_ms
            if not s.long_sent and held >= self.long_ms and not s.bouncing:
                s.long_sent = True
                events.append(("button", s.seat, LONG))
            if held >= self.stuck_ms:
                s.stuck = True
                events.append(("button-fault", s.seat, STUCK))

    def _edge(self, s, now_ms, events):
        s.quiet_ms = now_ms
        if now_ms - s.window_ms > self.bounce_window_ms:
            s.window_ms = now_ms
            s.edges = 0
        s.edges += 1
        if s.edges > self.bounce_edges and not s.bouncing:
            s.bouncing = True
            events.append(("button-fault", s.seat, BOUNCING))

    def _settled(self, s, now_ms, events):
        if s.stable:
            s.down_ms = now_ms
            s.long_sent = False
            return
        if s.stuck:
            s.stuck = False
            events.append(("button-fault-cleared", s.seat, STUCK))
        elif not s.long_sent and not s.bouncing:
            events.append(("button", s.seat, SHORT))
        s.long_sent = False

    def faults(self):
        """(seat, fault) pairs now active, by seat."""
        out = []
        for s in self.seats:
            if s.stuck:
                out.append((s.seat, STUCK))
            if s.bouncing:
                out.append((s.seat, BOUNCING))
        return out
