# The MicroPython half of the simulated board (host tools, sim-internal): runs in the MicroPython
# unix port, mounts the board's flash folder as "/" and executes what feltctl/board_sim/simboard.py sends.
# Wire to simboard.py: commands on fd CMD ("<kind> <len>\n" + payload), replies on fd CTL (one
# line each, "err <len>\n<text>" for a traceback); the program's own output goes to stdout.
import sys
import os
import io
import time

CMD = open("/dev/fd/" + sys.argv[2], "rb")
CTL = open("/dev/fd/" + sys.argv[3], "wb")
ENOSPC = 28
BLOCK = 4096


def tell(msg):
    # SIGINT (Ctrl-C from the host) may land while we report: a pipe write below PIPE_BUF is
    # all-or-nothing, so retrying after KeyboardInterrupt cannot duplicate or tear a message.
    while True:
        try:
            CTL.write(msg)
            return
        except KeyboardInterrupt:
            pass


def halt(why):
    """The board stops here (power cut / reset); simboard.py kills this process."""
    tell(why + b"\n")
    while True:
        try:
            time.sleep(1)
        except KeyboardInterrupt:
            pass


# The flash's cost model is littlefs2's on a Pico (felt.deploy_agent.lfs_tree_blocks: a folder is a
# metadata pair, small files are inlined, larger ones take whole blocks), checked against MicroPython's
# own littlefs by tests/host/test_flash_fit.py; loaded from the firmware tree, not copied.
_AGENT = {}
exec(open(sys.argv[0].rsplit("/", 4)[0] + "/firmware/felt/deploy_agent.py").read(), _AGENT)


def blocks(n):
    return _AGENT["lfs_file_blocks"](n, BLOCK) * BLOCK


class Flash:
    """A VFS over the flash folder with a capacity (ENOSPC like a full littlefs) and a count of
    mutating operations, so a test can cut the power exactly at operation K."""

    def __init__(self, root, capacity, cut_at_op):
        self.v = os.VfsPosix(root)
        self.root = root
        self.capacity = capacity
        self.cut_at_op = cut_at_op
        self.ops = 0

    def op(self):
        self.ops += 1
        return self.cut_at_op and self.ops >= self.cut_at_op

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def used(self):
        """Bytes the flash holds: littlefs2's cost of every file and folder, the root included."""
        files = {}
        stack = [""]
        while stack:
            d = stack.pop()
            for entry in self.v.ilistdir(d or "/"):
                path = d + "/" + entry[0]
                if entry[1] & 0x4000:
                    files[path[1:] + "/.keep"] = 0  # its pair, even when empty
                    stack.append(path)
                else:
                    files[path[1:]] = self.v.stat(path)[6]
        return BLOCK * _AGENT["lfs_tree_blocks"](files, BLOCK)

    def ilistdir(self, path):
        # (name, type, inode, size) as littlefs on a board gives them (VfsPosix gives no size):
        # `mpremote fs ls` prints that size
        base = path.rstrip("/")
        for entry in self.v.ilistdir(path):
            if entry[1] & 0x4000:
                yield (entry[0], entry[1], 0, 0)
            else:
                yield (entry[0], entry[1], 0, self.v.stat(base + "/" + entry[0])[6])

    def stat(self, path):
        return self.v.stat(path)

    def chdir(self, path):
        return self.v.chdir(path)

    def getcwd(self):
        return self.v.getcwd()

    def statvfs(self, path):
        cap = self.capacity or 64 * 1024 * 1024
        free = max(0, cap - self.used()) // BLOCK
        return (BLOCK, BLOCK, cap // BLOCK, free, free, 0, 0, 0, 0, 255)

    def mkdir(self, path):
        if self.op():
            halt(b"powercut")
        if self.capacity and self.used() + 2 * BLOCK > self.capacity:
            raise OSError(ENOSPC)
        return self.v.mkdir(path)

    def rmdir(self, path):
        if self.op():
            halt(b"powercut")
        return self.v.rmdir(path)

    def remove(self, path):
        if self.op():
            halt(b"powercut")
        return self.v.remove(path)

    def rename(self, old, new):
        if self.op():
            halt(b"powercut")
        # VfsPosix.rename joins the root onto both absolute paths in one shared buffer, so the
        # second overwrites the first; relative paths (from the current folder) avoid that.
        return self.v.rename(self.relative(old), self.relative(new))

    def relative(self, path):
        if not path.startswith("/"):
            return path
        depth = len([p for p in self.v.getcwd().split("/") if p])
        return "../" * depth + path[1:] if depth or path[1:] else "."

    def open(self, path, mode):
        if "r" in mode and "+" not in mode:
            return self.v.open(path, mode)
        if self.op():
            halt(b"powercut")
        f = self.v.open(path, mode)
        base = size = 0
        if self.capacity:
            size = self.v.stat(path)[6]  # 0 unless appending ("w" truncated it)
            base = self.used() - blocks(size)
        w = Writer(self, f, base)
        w.n = size
        return w


class Writer:
    """A file open for writing on the simulated flash: every write is one counted operation and
    is refused with ENOSPC once the flash is full. A power cut tears the write in half."""

    def __init__(self, fs, f, base):
        self.fs = fs
        self.f = f
        self.base = base
        self.n = 0

    def write(self, data):
        fs = self.fs
        # littlefs writes copy-on-write: a file past the inline limit needs one free block more
        # while its last block is rewritten
        grown = blocks(self.n + len(data))
        if fs.capacity and self.base + grown + (BLOCK if grown else 0) > fs.capacity:
            raise OSError(ENOSPC)
        if fs.op():
            self.f.write(data[: len(data) // 2])
            self.f.close()
            halt(b"powercut")
        self.n += len(data)
        return self.f.write(data)

    def read(self, *args):
        return self.f.read(*args)

    def readinto(self, *args):
        return self.f.readinto(*args)

    def seek(self, *args):
        return self.f.seek(*args)

    def tell(self):
        return self.f.tell()

    def flush(self):
        return self.f.flush()

    def close(self):
        return self.f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


class Machine:
    """`machine` as a board has it: the unix port's own module plus reset()/soft_reset()."""

    def __init__(self, real):
        for name in dir(real):
            # The class's own methods win over the unix port's functions of the same name.
            if not name.startswith("__") and not hasattr(type(self), name):
                setattr(self, name, getattr(real, name))

    def reset(self):
        halt(b"reset")

    def soft_reset(self):
        halt(b"softreset")

    def unique_id(self):
        return b"FELTSIM1"

    def freq(self, *args):
        return 125000000

    def RTC(self):  # noqa: N802 -- machine.RTC as on a board
        return RTC()


def _days(y, m, d):
    """Days from 1970-01-01 to a date (proleptic Gregorian): the RTC's calendar arithmetic."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468


class RTC:
    """machine.RTC as on a Pico: datetime() -> (year, month, day, weekday 0=Monday, hours, minutes,
    seconds, subseconds 0); datetime(tuple) sets it. It keeps time across a soft reset and starts at
    2021-01-01 00:00:00 after a power cut or hard reset, like the rp2 port; simboard.py holds the
    offset from the host clock (argv[7]) so it outlives this interpreter."""

    def datetime(self, when=None):
        if when is None:
            t = int(time.time()) + RTC_OFFSET[0]
            days = t // 86400
            y, m, d = time.gmtime(days * 86400)[:3]
            rest = t - days * 86400
            return (y, m, d, (days + 3) % 7, rest // 3600, rest // 60 % 60, rest % 60, 0)
        y, m, d = when[0], when[1], when[2]
        secs = _days(y, m, d) * 86400 + when[4] * 3600 + when[5] * 60 + when[6]
        RTC_OFFSET[0] = secs - int(time.time())
        tell(("rtc %d\n" % RTC_OFFSET[0]).encode())


RTC_OFFSET = [0]


class MicroPython:
    """`micropython` as a board has it, except kbd_intr(): the simboard process owns the console,
    so it is told (and the unix port's own kbd_intr(-1) would make SIGINT fatal)."""

    def __init__(self, real):
        for name in dir(real):
            # The class's own methods win over the unix port's functions of the same name.
            if not name.startswith("__") and not hasattr(type(self), name):
                setattr(self, name, getattr(real, name))

    def kbd_intr(self, char):
        # synchronous, as on a board: once this returns no Ctrl-C interrupts any more (simboard.py
        # acknowledges on CMD after its last SIGINT); one that was on its way is taken here
        tell(("kbd %d\n" % char).encode())
        acked = False
        while True:
            try:
                if not acked:
                    CMD.readline()  # "ack"
                    acked = True
                for _ in (0, 1):
                    pass  # a SIGINT delivered with the ack is raised here
                return
            except KeyboardInterrupt:
                pass


def traceback_text(e):
    buf = io.StringIO()
    sys.print_exception(e, buf)
    lines = [ln for ln in buf.getvalue().split("\n") if "board_sim/vm.py" not in ln]
    text = "\n".join(lines)
    return text[-3000:]


FS = []


def run(kind, payload, env):
    if kind == b"file":
        name = payload.decode()
        try:
            os.stat(name)
        except OSError:
            return b"done\n"
        with open(name) as f:
            payload = f.read()
        code = compile(payload, name, "exec")
    else:
        code = compile(payload, "<stdin>", "single" if kind == b"single" else "exec")
    tell(b"armed\n")  # Ctrl-C interrupts from here on (pyexec.c: after the compile, before the call)
    exec(code, env)
    return b"done\n"


class NoEntropyOS:
    """`os` of a board whose port has no true entropy source: everything but urandom."""

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        if name == "urandom":
            raise AttributeError(name)
        return getattr(self._real, name)


def main():
    root, capacity, cut_at_op = sys.argv[1], int(sys.argv[4]), int(sys.argv[5])
    import machine

    import micropython

    sys.modules["machine"] = Machine(machine)
    # the maintenance key switch held at power-on (SimBoard.key_switch); the sim HAL reads it
    sys.modules["machine"].sim_key_switch = len(sys.argv) > 6 and sys.argv[6] == "1"
    sys.modules["micropython"] = MicroPython(micropython)
    RTC_OFFSET[0] = int(sys.argv[7]) if len(sys.argv) > 7 else 0
    if len(sys.argv) > 8 and sys.argv[8] == "0":
        sys.modules["os"] = NoEntropyOS(os)  # SimBoard.entropy = False: a port without os.urandom
    os.umount("/")
    FS.append(Flash(root, capacity, cut_at_op))
    os.mount(FS[0], "/")
    os.chdir("/")
    sys.path[:] = ["", ".frozen", "/lib"]
    env = {"__name__": "__main__"}
    tell(b"ready\n")
    while True:
        try:
            header = CMD.readline()
            if not header:
                return
            kind, n = header.split()
            payload = b""
            while len(payload) < int(n):
                more = CMD.read(int(n) - len(payload))
                if not more:
                    return
                payload += more
        except KeyboardInterrupt:
            # An interrupt that raced the end of the previous command: nothing was running.
            continue
        try:
            run(kind, payload, env)
            reply = ("done %d\n" % FS[0].ops).encode()
        except SystemExit:
            reply = b"exit\n"
        except BaseException as e:  # the board's REPL reports every uncaught exception
            text = traceback_text(e).encode()
            reply = ("err %d\n" % len(text)).encode() + text
        tell(reply)


main()
