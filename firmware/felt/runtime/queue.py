# The event queue (runtime layer, pure): a bounded FIFO the loop (felt/runtime/loop.py) collects the
# drivers' events into before the controller takes them in order. No clock.


class EventQueue:
    """Bounded FIFO of event tuples between the drivers' poll() results and the controller.
    A full queue drops the newest event and counts it in `dropped` (the loop reports that).
    A ring of `size` slots made once: put/get allocate nothing, and a slot is cleared when its
    event is taken, so a drained queue holds no old events (they were kilobytes mid-hand)."""

    def __init__(self, size=64):
        self.size = size
        self._items = [None] * size
        self._head = 0  # slot of the oldest event
        self._count = 0
        self.dropped = 0

    def put(self, event):
        if self._count >= self.size:
            self.dropped += 1
            return False
        self._items[(self._head + self._count) % self.size] = event
        self._count += 1
        return True

    def extend(self, events):
        for e in events:
            self.put(e)

    def get(self):
        """The oldest event, or None when empty."""
        if not self._count:
            return None
        i = self._head
        e = self._items[i]
        self._items[i] = None
        self._head = (i + 1) % self.size
        self._count -= 1
        return e

    def __len__(self):
        return self._count
