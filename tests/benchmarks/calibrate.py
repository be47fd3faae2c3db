# Calibration suite for the board estimate of bench_firmware.py (not a test): four small kernels
# shaped like the firmware's hot paths -- method calls on small objects with bytearray traffic (a
# driver talking SPI), dict/str work (the controller and its log lines), integer loops (the hand
# evaluator), list building -- timed on whichever interpreter runs this file. It imports nothing of
# Felt, so the same file runs on a board: `mpremote run tests/benchmarks/calibrate.py` prints the board's
# score, and the ratio board/unix-port of this score replaces the published factors in
# bench_firmware.py for that board.
import time

try:
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
except AttributeError:  # CPython
    def ticks_us():
        return int(time.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b


class _Reg:
    def __init__(self):
        self.out = bytearray(2)
        self.inb = bytearray(2)
        self.n = 0

    def xfer(self, reg, v):
        o = self.out
        o[0] = (reg << 1) & 0x7E
        o[1] = v
        self.inb[1] = o[0] ^ v
        self.n += 1
        return self.inb[1]


def calls(n):
    r = _Reg()
    acc = 0
    for i in range(n):
        acc ^= r.xfer(i & 0x3F, i & 0xFF)
    return acc


def dicts(n):
    d = {}
    names = ["seat%d" % i for i in range(10)]
    acc = 0
    for i in range(n):
        k = names[i % 10]
        d[k] = d.get(k, 0) + 1
        if k in d and "t" in k:
            acc += len(k)
    return acc + len(d)


def ints(n):
    acc = 0
    for i in range(n):
        acc = (acc * 31 + (i ^ (i >> 3))) & 0xFFFFF
    return acc


def lists(n):
    acc = 0
    for i in range(n // 10):
        lst = []
        for j in range(10):
            lst.append(j * i)
        acc += lst[-1] + len(lst)
    return acc


KERNELS = (("calls", calls, 20000), ("dicts", dicts, 20000), ("ints", ints, 40000), ("lists", lists, 20000))


def score(reps=3):
    """Microseconds for one pass of every kernel, the best of `reps` passes (smaller is faster)."""
    best = None
    for _ in range(reps):
        t0 = ticks_us()
        for _name, fn, n in KERNELS:
            fn(n)
        us = ticks_diff(ticks_us(), t0)
        if best is None or us < best:
            best = us
    return best


if __name__ == "__main__":
    print("CALIB us=%d" % score())
