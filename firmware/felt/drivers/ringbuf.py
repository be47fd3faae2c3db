"""Pre-allocated ring buffer of small ints between interrupt handlers and the main loop -- drivers
layer. put() is the interrupt side: it never allocates (no objects, only array stores and small-int
arithmetic), so it is safe under micropython.heap_lock(); when full it drops and counts.
Single producer, single consumer: each side writes only its own index.
"""
from array import array


class RingBuffer:
    """Holds up to size-1 values in 0..65535. put(v) -> bool (False = dropped, counted in
    `dropped`); get() -> value or -1 when empty; len() -> values waiting."""

    def __init__(self, size=32):
        if size < 2:
            raise ValueError("ring buffer needs size >= 2, got %d" % size)
        self._buf = array("H", bytes(2 * size))
        self._size = size
        self._head = 0  # next slot to write (interrupt side)
        self._tail = 0  # next slot to read (main side)
        self.dropped = 0

    def put(self, value):
        head = self._head
        nxt = head + 1
        if nxt == self._size:
            nxt = 0
        if nxt == self._tail:
            self.dropped += 1
            return False
        self._buf[head] = value
        self._head = nxt
        return True

    def get(self):
        tail = self._tail
        if tail == self._head:
            return -1
        value = self._buf[tail]
        tail += 1
        self._tail = 0 if tail == self._size else tail
        return value

    def __len__(self):
        n = self._head - self._tail
        return n + self._size if n < 0 else n

    def clear(self):
        self._tail = self._head
