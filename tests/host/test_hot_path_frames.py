# The steady loop step's functions keep their MicroPython frames on the C stack (issue 20 item 4).
# MicroPython (py/objfun.c, fun_bc_call) allocates a function's frame on the heap at EVERY call
# when its state -- n_state words of locals and value stack, plus 3 words per exception handler
# (mp_exc_stack_t) -- exceeds VM_MAX_STATE_ON_STACK, 11 machine words; under
# micropython.heap_lock() it silently falls back to the C stack, so the heap-lock test of the loop
# step cannot see it. This reads n_state and n_exc_stack of every function from mpy-cross's own
# output (the .mpy v6 bytecode prelude) and checks the hot functions listed below.
# Known and accepted: AntennaPoller._read/_switch (a try/except around the chip's DeviceTimeout:
# any handler makes a frame of 12+ words) -- three heap frames per antenna visit.
import os
import subprocess

import pytest

from feltctl.paths import FIRMWARE, mpy_cross_binary

MAX_WORDS = 11

HOT = {
    "felt/hal/shared.py": ["DecodedDevice.transfer", "PinGroup.value"],
    "felt/hal/__init__.py": ["DecodedChipSelect.value", "Decoder.set_address"],
    "felt/hal/machine_hal.py": ["SIOPort.value", "MachineOutput.value", "MachineInput.value", "MachineUART.read",
                                "MachineUART.any", "MachineHAL.ticks_ms"],
    "felt/drivers/mfrc522.py": ["MFRC522.inventory", "MFRC522._revisit", "MFRC522.reselect",
                                "MFRC522._reselect_level", "MFRC522._sel_fifo", "MFRC522._same_answer", "MFRC522.request", "MFRC522._transceive",
                                "MFRC522._send", "MFRC522._start", "MFRC522._wait_irq", "MFRC522._answer",
                                "MFRC522._read_fifo", "MFRC522._pair", "MFRC522.field", "MFRC522.read_reg",
                                "MFRC522.write_reg"],
    "felt/drivers/antennas.py": ["AntennaPoller.poll", "AntennaPoller._visit", "AntennaPoller._inventory",
                                 "AntennaPoller._field_on", "AntennaPoller._next", "AntennaPoller._record",
                                 "AntennaPoller._unchanged", "AntennaPoller._empty", "AntennaPoller._rescore",
                                 "AntennaPoller._out"],
    "felt/drivers/buttons.py": ["SeatButtons.poll", "SeatButtons._drain", "SeatButtons._handout"],
    "felt/drivers/shoe.py": ["PN532Shoe.poll", "PN532Shoe._round", "PN532Shoe._step", "PN532Shoe._check_gap",
                             "_ShoeBase._read_available", "_ShoeBase._check_silence", "_ShoeBase._take_events"],
    "felt/drivers/console_link.py": ["ConsoleLink.poll"],
    "felt/runtime/wiring.py": ["run_hooks"],
    "felt/runtime/loop.py": ["Runtime.step", "Runtime._poll", "Runtime._queue", "Runtime._poll_console", "Runtime._poll_antennas", "Runtime._take", "Runtime._timers", "Runtime._watch",
                             "Runtime._after", "Runtime._dispatch"],
    "felt/security/secrecy.py": ["SecretFeed.observe", "SecretFeed.refresh", "SecretFeed._current",
                                 "SecretFeed._state_key", "SecretFeed._progress", "SecretFeed._release_due",
                                 "_on_seats", "_discards", "_hole_counts", "_ups", "_all_dealt", "_commit_due",
                                 "Hooks.observer"],
}


class _Reader:
    def __init__(self, data):
        self.data = data
        self.at = 0

    def byte(self):
        self.at += 1
        return self.data[self.at - 1]

    def uint(self):
        v = 0
        while True:
            z = self.byte()
            v = (v << 7) | (z & 0x7F)
            if not z & 0x80:
                return v

    def take(self, n):
        self.at += n
        return self.data[self.at - n:self.at]


def _qstr(r):
    n = r.uint()
    if n & 1:
        return ("static", n >> 1)  # one of MicroPython's built-in names (resolved by _static_names)
    s = r.take(n >> 1).decode()
    r.byte()
    return s


def _obj(r):
    kind = r.byte()
    if kind <= 4:  # fun table, None, False, True, Ellipsis
        return
    n = r.uint()
    if kind == 10:  # tuple
        for _ in range(n):
            _obj(r)
        return
    r.take(n)
    if kind in (5, 6):  # str, bytes: NUL-terminated
        r.byte()


def _prelude(fun):
    # MP_BC_PRELUDE_SIG_DECODE and MP_BC_PRELUDE_SIZE_DECODE (py/bc.h); then the name's qstr index
    i = 1
    z = fun[0]
    n_state = (z >> 3) & 0xF
    n_exc = (z >> 2) & 1
    n = 0
    while z & 0x80:
        z = fun[i]
        i += 1
        n_state |= (z & 0x30) << (2 * n)
        n_exc |= (z & 0x02) << n
        n += 1
    z = fun[i]
    i += 1
    while z & 0x80:
        z = fun[i]
        i += 1
    name = 0
    while True:
        z = fun[i]
        i += 1
        name = (name << 7) | (z & 0x7F)
        if not z & 0x80:
            return n_state + 1, n_exc, name


def _raw_code(r, qstrs, path, out):
    kind_len = r.uint()
    fun = r.take(kind_len >> 3)
    inner = path
    if kind_len & 3 == 0:  # bytecode
        n_state, n_exc, name = _prelude(fun)
        inner = path + [qstrs[name]]
        out.append((inner[1:], n_state, n_exc))
    if (kind_len >> 2) & 1:
        for _ in range(r.uint()):
            _raw_code(r, qstrs, inner, out)


def frames(py_path, tmp_path):
    """[(qualified name parts, n_state, n_exc_stack)] of every function mpy-cross makes of py_path."""
    mpy = str(tmp_path / "frames.mpy")
    subprocess.run([mpy_cross_binary(), "-o", mpy, py_path], check=True, timeout=120)
    with open(mpy, "rb") as f:
        r = _Reader(f.read())
    assert r.byte() == ord("M") and r.byte() == 6, "not an .mpy of version 6"
    r.take(2)
    n_qstr = r.uint()
    n_obj = r.uint()
    qstrs = [_qstr(r) for _ in range(n_qstr)]
    for _ in range(n_obj):
        _obj(r)
    out = []
    _raw_code(r, qstrs, [], out)
    return out


def _static_names(tmp_path):
    # the built-in names the hot list uses, learnt from mpy-cross itself (no table copied here)
    names = ["value", "step", "read", "any", "__init__", "get", "write", "poll"]
    probe = tmp_path / "probe.py"
    probe.write_text("class P:\n" + "".join("    def %s(self):\n        pass\n" % n for n in names))
    out = {}
    got = frames(str(probe), tmp_path)[2:]  # after the module and the class
    for n, (parts, _s, _e) in zip(names, got):
        if isinstance(parts[-1], tuple):
            out[parts[-1]] = n
    return out


def _named(parts, static):
    return ".".join(static.get(p, "%s#%d" % p) if isinstance(p, tuple) else p for p in parts)


def test_the_frame_reader_sees_a_heap_frame(tmp_path):
    src = tmp_path / "big.py"
    src.write_text("def small(a):\n    return a + 1\n\n"
                   "def big(a, b, c, d, e, f, g, h, i, j, k):\n    return a + b + c + d + e + f + g + h + i + j + k\n\n"
                   "def handler(a):\n    try:\n        return a()\n    except OSError:\n        return None\n")
    got = dict((".".join(p), (s, e)) for p, s, e in frames(str(src), tmp_path))
    assert got["small"][0] + 3 * got["small"][1] <= MAX_WORDS
    assert got["big"][0] > MAX_WORDS
    assert got["handler"][1] == 1  # an exception handler is counted


@pytest.mark.parametrize("module", sorted(HOT))
def test_hot_path_frames_fit_the_c_stack(module, tmp_path):
    static = _static_names(tmp_path)
    got = {}
    for parts, n_state, n_exc in frames(os.path.join(FIRMWARE, module), tmp_path):
        got[_named(parts, static)] = n_state + 3 * n_exc
    missing = [name for name in HOT[module] if name not in got]
    assert not missing, "hot functions not found (renamed? update HOT): %s" % missing
    heavy = ["%s: %d words" % (name, got[name]) for name in HOT[module] if got[name] > MAX_WORDS]
    assert not heavy, "frames allocated on the heap at every call (> %d words): %s" % (MAX_WORDS, heavy)
