# A simulated MicroPython board on a pty (host tools): the friendly REPL, raw REPL and raw-paste
# protocols of MicroPython's shared/runtime/pyexec.c, answered byte by byte on the pty master,
# with code running in a persistent MicroPython unix interpreter (board_sim/vm.py) whose "/" is a
# folder standing for the board's flash. One thread, no randomness; faults are scripted by byte
# count (cut the link, reset) or by flash operation count (power cut).
import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
import tty

from feltctl.paths import micropython_binary

VM_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vm.py")
BANNER = (b"MicroPython v1.29.0 on 2026-01-01; Felt simboard (MicroPython unix port)\r\n"
          b"Type \"help()\" for more information.\r\n")
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
SOFT_REBOOT = b"MPY: soft reboot\r\n"
CTRL_A, CTRL_B, CTRL_C, CTRL_D, CTRL_E = 1, 2, 3, 4, 5
RTC_COLD = 1609459200  # 2021-01-01 00:00:00 UTC: where the rp2 port's RTC starts after a power-on
TX_LIMIT = 64 * 1024   # bytes kept for a host that is not reading (USB CDC drops the rest)
VM_BACKPRESSURE = 4096  # stop draining the interpreter's stdout while this much waits to be sent


class Faults:
    """Scripted faults. cut_at/reset_at: after that many bytes from the host, the link goes dead
    (bytes vanish, nothing is sent) or the board hard-resets. powercut_at_op: the board loses
    power at its Nth mutating flash operation (write, rename, remove, mkdir) and boots again."""

    def __init__(self, cut_at=None, reset_at=None, powercut_at_op=0):
        self.cut_at = cut_at
        self.reset_at = reset_at
        self.powercut_at_op = powercut_at_op


class Pacer:
    """Token bucket for one direction of a UART at `baud` (10 bits a byte); None = unthrottled."""

    def __init__(self, baud):
        self.rate = baud / 10.0 if baud else None
        self.tokens = 0.0
        self.last = time.monotonic()

    def allowance(self, now):
        if self.rate is None:
            return 1 << 30
        self.tokens = min(self.tokens + (now - self.last) * self.rate, 32.0)
        self.last = now
        return int(self.tokens)

    def spend(self, n):
        if self.rate is not None:
            self.tokens -= n

    def wait_s(self):
        if self.rate is None:
            return None
        return max(0.0005, (1.0 - self.tokens) / self.rate)


class SimBoard:
    def __init__(self, flash_dir, link=None, baud=None, capacity=0, heap="1M", faults=None,
                 stdin_buffer=256, log=None):
        self.flash_dir = os.path.abspath(flash_dir)
        os.makedirs(self.flash_dir, exist_ok=True)
        self.link = link
        self.capacity = capacity
        self.heap = heap
        self.faults = faults or Faults()
        # the table's maintenance key switch (hardware/security.md section 4), read by main.py at
        # boot through the sim HAL (felt.runtime.app.bare_sim): set it, then power_cycle()
        self.key_switch = False
        self.rtc_offset_s = 0  # machine.RTC minus the host clock, seconds; set at power-on, kept by a soft reset
        # False: a board whose MicroPython has no os.urandom (no true entropy source; issue 16
        # item 6): provisioning must refuse it. Set it, then power_cycle() (or before start())
        self.entropy = True
        self.window = stdin_buffer // 2
        self.log = log
        self.rx = Pacer(baud)
        self.tx = Pacer(baud)
        self.rx_count = 0      # bytes received from the host since start
        self.resets = 0        # hard resets and power cuts so far
        self.flash_ops = 0     # mutating flash operations since start (what powercut_at_op counts)
        self._ops_base = 0
        self.link_up = True
        self.device = None
        self._arrived = bytearray()   # read from the pty, not yet "on the wire" at baud rate
        self._inq = bytearray()       # received by the board, not yet consumed by the REPL
        self._txq = bytearray()
        self._line = bytearray()
        self._mode = "friendly"       # which REPL runs when no code does (pyexec_mode_kind)
        self._paste = None            # raw-paste buffer while receiving one
        self._fpaste = None           # friendly paste-mode (Ctrl-E) buffer
        self._cont = False
        self._busy = None             # what the interpreter is doing: start/boot/raw/friendly
        self._steps = []              # files still to run in the boot sequence
        self._vm = None
        self._vm_out = self._vm_ctl = self._vm_cmd = self._vm_in = None
        self._kbd_intr = True
        self._interrupted = False     # a Ctrl-C was sent as SIGINT to the command that runs
        self._armed = False           # pyexec armed Ctrl-C: the program's code runs (not its compile)
        self._ctl_buf = b""
        self._err_pending = None
        self._requests = []
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = os.pipe()
        self._stop = False
        self._thread = None
        self._master = self._slave = None

    # ---- lifecycle -------------------------------------------------------------------------
    def start(self, thread=True):
        """Open the pty, power the board on; returns the device path (the link if one was given).
        The link replaces only a symlink (an earlier board's); anything else there is refused."""
        if self.link and os.path.lexists(self.link) and not os.path.islink(self.link):
            raise FileExistsError("%s exists and is not a link: choose another --link" % self.link)
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        name = os.ttyname(self._slave)
        if self.link:
            if os.path.islink(self.link):
                os.remove(self.link)
            os.symlink(name, self.link)
        self.device = self.link or name
        self._hard_reset(power_on=True)
        if thread:
            self._thread = threading.Thread(target=self.run, name="simboard", daemon=True)
            self._thread.start()
        return self.device

    def run(self):
        try:
            while not self._stop:
                self._step()
        finally:
            self._kill_vm()

    def stop(self):
        """Power off and release the pty; a second call does nothing (its descriptors may by then
        belong to other files, so they are never written or closed twice)."""
        if self._wake_w is None:
            return
        self._request(("stop",))
        if self._thread:
            self._thread.join(10)
        fds = (self._master, self._slave, self._wake_r, self._wake_w)
        self._master = self._slave = self._wake_r = self._wake_w = None
        for fd in fds:
            if fd is None:
                continue
            try:
                os.close(fd)
            except OSError:
                pass
        if self.link and os.path.islink(self.link):
            os.remove(self.link)

    def power_cycle(self, faults=None, timeout_s=10.0):
        """Unplug and replug: clears a cut link, optionally installs new faults, boots again.
        Returns once the board has lost power (what is read from the port after that is from the
        new boot only), or after timeout_s if the board's loop is stuck."""
        done = threading.Event()
        self._request(("power", faults, done))
        if threading.current_thread() is not self._thread:
            done.wait(timeout_s)

    def wait_idle(self, timeout_s=10.0):
        """Block until the board sits at a REPL prompt with nothing queued (for tests)."""
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            if (self._busy is None and not self._inq and not self._txq and not self._requests
                    and not self._arrived and self._unread() == 0):
                return True
            time.sleep(0.01)
        return False

    def _unread(self):
        """Bytes the host wrote that the board has not read off the pty yet."""
        try:
            return struct.unpack("i", fcntl.ioctl(self._master, termios.FIONREAD, b"\0\0\0\0"))[0]
        except OSError:
            return 0

    def _request(self, req):
        with self._lock:
            self._requests.append(req)
        os.write(self._wake_w, b"x")

    # ---- main loop -------------------------------------------------------------------------
    def _step(self):
        fds = [self._wake_r]
        if len(self._arrived) < 256:
            fds.append(self._master)
        if self._vm is not None:
            fds.append(self._vm_ctl)
            if len(self._txq) < VM_BACKPRESSURE:
                fds.append(self._vm_out)
        wfds = [self._master] if self._txq and self.tx.allowance(time.monotonic()) > 0 else []
        timeout = None
        if self._arrived:
            timeout = self.rx.wait_s()
        if self._txq and not wfds:
            timeout = min(timeout or 1.0, self.tx.wait_s() or 0.001)
        r, w, _ = select.select(fds, wfds, [], timeout)
        if self._wake_r in r:
            os.read(self._wake_r, 4096)
            with self._lock:
                reqs, self._requests = self._requests, []
            for req in reqs:
                if req[0] == "stop":
                    self._stop = True
                    return
                if req[0] == "power":
                    if req[1] is not None:
                        self.faults = req[1]
                    self.link_up = True
                    self._unplugged()
                    self._hard_reset()
                    req[2].set()
        if self._master in r:
            try:
                data = os.read(self._master, 4096)
            except (BlockingIOError, OSError):
                data = b""
            self._arrived += data
        # Control first: a program announces kbd_intr(-1) there before it asks for raw bytes.
        if self._vm is not None and self._vm_ctl in r:
            self._read_ctl()
        if self._vm is not None and self._vm_out in r:
            self._drain_vm_out()
        self._deliver()
        self._send()

    def _deliver(self):
        n = min(len(self._arrived), self.rx.allowance(time.monotonic()))
        if n <= 0:
            return
        data = bytes(self._arrived[:n])
        del self._arrived[:n]
        self.rx.spend(n)
        while data:
            data = self._receive(data)
        self._process()

    def _receive(self, data):
        """Bytes reach the board; returns any that belong to a board that was reset meanwhile."""
        if not self.link_up:
            self.rx_count += len(data)
            return b""
        f = self.faults
        limit = len(data)
        for at in (f.cut_at, f.reset_at):
            if at is not None and self.rx_count < at < self.rx_count + limit:
                limit = at - self.rx_count
        head, rest = data[:limit], data[limit:]
        self.rx_count += len(head)
        if self._busy in ("raw", "friendly") and not self._kbd_intr:
            # The program turned Ctrl-C off (micropython.kbd_intr(-1)) to read raw bytes itself.
            # boot.py / main.py read no stdin: what comes while they run with Ctrl-C off waits in
            # the board's one input buffer for the REPL (below), as on a board.
            self._to_program(head)
        else:
            for b in head:
                if b == CTRL_C and self._armed and self._kbd_intr and self._busy in ("boot", "raw", "friendly"):
                    self._vm.send_signal(signal.SIGINT)  # the RX interrupt: nothing is queued
                    self._interrupted = True
                else:
                    self._inq.append(b)
        if f.cut_at is not None and self.rx_count >= f.cut_at:
            f.cut_at = None
            self.link_up = False
            self._txq.clear()
            return b""
        if f.reset_at is not None and self.rx_count >= f.reset_at:
            f.reset_at = None
            self._process()
            self._hard_reset()
        return rest

    def _send(self):
        if not self._txq:
            return
        n = min(len(self._txq), self.tx.allowance(time.monotonic()))
        if n <= 0:
            return
        try:
            sent = os.write(self._master, bytes(self._txq[:n]))
        except (BlockingIOError, OSError):
            sent = 0
        del self._txq[:sent]
        self.tx.spend(sent)

    def _out(self, data):
        if not self.link_up:
            return
        self._txq += data
        if len(self._txq) > TX_LIMIT:
            del self._txq[: len(self._txq) - TX_LIMIT]

    # ---- the interpreter process -----------------------------------------------------------
    def _start_vm(self):
        cmd_r, cmd_w = os.pipe()
        ctl_r, ctl_w = os.pipe()
        out_r, out_w = os.pipe()
        in_r, in_w = os.pipe()
        self._vm = subprocess.Popen(
            [micropython_binary(), "-X", "heapsize=" + self.heap, VM_SCRIPT, self.flash_dir,
             str(cmd_r), str(ctl_w), str(self.capacity or 0), str(self.faults.powercut_at_op or 0),
             "1" if self.key_switch else "0", str(self.rtc_offset_s), "1" if self.entropy else "0"],
            stdin=in_r, stdout=out_w, stderr=out_w, pass_fds=(cmd_r, ctl_w),
            cwd=self.flash_dir, env={"PATH": os.environ.get("PATH", "/usr/bin")},
        )
        for fd in (cmd_r, ctl_w, out_w, in_r):
            os.close(fd)
        os.set_blocking(out_r, False)
        os.set_blocking(in_w, False)
        self._vm_cmd, self._vm_ctl, self._vm_out, self._vm_in = cmd_w, ctl_r, out_r, in_w
        self._kbd_intr = True
        self._ctl_buf = b""
        self._busy = "start"

    def _unplugged(self):
        """Power gone: bytes in flight either way are lost with it -- what the host wrote that the
        board had not taken yet, and what the board had printed that the host had not read (a
        USB CDC device's buffers; a stale "\x3e\x3e\x3e " from before the cut must never look like
        the new boot's prompt)."""
        self._arrived.clear()
        self._txq.clear()
        while self._unread():
            try:
                os.read(self._master, 65536)
            except OSError:
                break

    def _kill_vm(self):
        if self._vm is None:
            return
        self._ops_base = self.flash_ops
        self._vm.kill()
        self._vm.wait()
        for fd in (self._vm_cmd, self._vm_ctl, self._vm_out, self._vm_in):
            os.close(fd)
        self._vm = None
        self._busy = None

    def _run(self, kind, payload, busy):
        self._busy = busy
        self._interrupted = False  # a SIGINT sent to this command (see _revive)
        # pyexec.c parse_compile_execute reads and compiles with the interrupt char off and arms
        # Ctrl-C just before it calls the code ("armed" from the interpreter): a Ctrl-C before
        # that waits in the input buffer like any byte
        self._armed = False
        try:
            os.write(self._vm_cmd, b"%s %d\n" % (kind, len(payload)) + payload)
        except BrokenPipeError:
            self._hard_reset()

    def _drain_vm_out(self):
        while True:
            try:
                data = os.read(self._vm_out, 65536)
            except BlockingIOError:
                return
            if not data:
                return
            # A board's stdout turns "\n" into "\r\n" (mp_hal_stdout_tx_strn_cooked).
            self._out(data.replace(b"\n", b"\r\n"))

    def _read_ctl(self):
        try:
            data = os.read(self._vm_ctl, 65536)
        except BlockingIOError:
            return
        if not data:
            if self._interrupted:
                self._revive()
                return
            self._out(b"\r\n[simboard: interpreter died]\r\n")
            self._hard_reset()
            return
        self._ctl_buf += data
        while b"\n" in self._ctl_buf:
            line, rest = self._ctl_buf.split(b"\n", 1)
            if line.startswith(b"err "):
                n = int(line[4:])
                if len(rest) < n:
                    return
                self._ctl_buf = rest[n:]
                self._finished(rest[:n])
            else:
                self._ctl_buf = rest
                self._control(line)
            if self._vm is None:
                return

    def _revive(self):
        """The interpreter died of the host's Ctrl-C: the unix port can raise KeyboardInterrupt in
        the middle of a garbage collection, which leaves its heap locked, and the report of the
        exception then fails ("MemoryError: heap is locked"). A board stops the program and gives
        the REPL; so does the simulated board: a new interpreter, boot.py again (the slot's folder),
        then the REPL -- not main.py, which would run the table again and leave the host's Ctrl-A
        waiting for ever (issue 18: `feltctl flash` right after boot timed out)."""
        self._kill_vm()
        self._out(b"Traceback (most recent call last):\r\nKeyboardInterrupt: \r\n")
        self._line.clear()
        self._paste = self._fpaste = None
        self._cont = False
        self._steps = [b"boot.py"]
        self._start_vm()

    def _to_program(self, data):
        # A program that stops reading loses what does not fit, as a UART overruns.
        try:
            os.write(self._vm_in, data)
        except (BlockingIOError, BrokenPipeError):
            pass

    def _control(self, word):
        if word.startswith(b"kbd "):
            self._kbd_intr = int(word[4:]) == CTRL_C
            if not self._kbd_intr and self._inq and self._busy in ("raw", "friendly"):
                # Bytes already received belong to the program's stdin now (one shared buffer).
                data, self._inq = bytes(self._inq), bytearray()
                self._to_program(data)
            try:
                os.write(self._vm_cmd, b"ack\n")  # the program waits for it (simboard_vm.kbd_intr)
            except BrokenPipeError:
                pass
        elif word.startswith(b"rtc "):
            self.rtc_offset_s = int(word[4:])  # machine.RTC().datetime(t): survives a soft reset
        elif word == b"armed":
            self._armed = True
        elif word == b"ready":
            self._busy = None
            self._next_boot_step()
        elif word.startswith(b"done"):
            self.flash_ops = self._ops_base + int(word.split()[1])
            self._finished(None)
        elif word == b"exit":
            self._finished(None, then_soft_reset=True)
        elif word == b"softreset":
            self._drain_vm_out()
            self._soft_reset()
        elif word in (b"reset", b"powercut"):
            if word == b"powercut":
                self.faults.powercut_at_op = 0   # one-shot, like the other faults
            self._drain_vm_out()
            self._hard_reset()

    def _finished(self, err, then_soft_reset=False):
        self._drain_vm_out()   # everything the program printed precedes the end marker
        busy, self._busy = self._busy, None
        self._armed = False
        self._kbd_intr = True  # pyexec re-arms Ctrl-C for every command
        err_text = (err or b"").replace(b"\n", b"\r\n")
        if err_text and not err_text.endswith(b"\r\n"):
            err_text += b"\r\n"
        if busy == "raw":
            self._out(b"\x04" + err_text + b"\x04")
            if then_soft_reset:
                self._soft_reset()
                return
            self._out(b">")
        elif busy == "friendly":
            self._out(err_text)
            if then_soft_reset:
                self._soft_reset()
                return
            self._prompt()
        elif busy == "boot":
            self._out(err_text)
            self._next_boot_step()
        self._process()

    # ---- resets and boot -------------------------------------------------------------------
    def _hard_reset(self, power_on=False):
        self._kill_vm()
        self.rtc_offset_s = RTC_COLD - int(time.time())
        if not power_on:
            self.resets += 1
        self._mode = "friendly"
        self._inq.clear()
        self._line.clear()
        self._paste = self._fpaste = None
        self._cont = False
        self._boot()

    def _soft_reset(self):
        self._kill_vm()
        self._out(SOFT_REBOOT)
        self._line.clear()
        self._paste = self._fpaste = None
        self._cont = False
        self._boot()

    def _boot(self):
        # As a port's main(): boot.py always, main.py only when the friendly REPL will follow.
        self._steps = [b"boot.py"] + ([b"main.py"] if self._mode == "friendly" else [])
        self._start_vm()

    def _next_boot_step(self):
        if self._steps:
            self._run(b"file", self._steps.pop(0), "boot")
            return
        if self._mode == "friendly":
            self._out(BANNER)
            self._prompt()
        else:
            self._out(RAW_BANNER + b">")
        self._process()

    def _prompt(self):
        self._line.clear()
        self._cont = False
        self._out(b">>> ")

    # ---- the REPLs (pyexec.c) --------------------------------------------------------------
    def _process(self):
        while self._inq and self._busy is None and self._vm is not None:
            if self._paste is not None:
                self._raw_paste_bytes()
            elif self._mode == "raw":
                self._raw_byte(self._inq.pop(0))
            else:
                self._friendly_byte(self._inq.pop(0))

    def _raw_byte(self, c):
        if c == CTRL_A:
            if len(self._line) == 2 and self._line[0] == CTRL_E:
                if self._line[1] == ord("A"):
                    self._out(b"R\x01" + bytes((self.window & 0xFF, self.window >> 8)) + b"\x01")
                    self._paste = bytearray()
                    self._paste_left = self.window
                    self._line.clear()
                    return
                self._out(b"R\x00>")
                self._line.clear()
                return
            self._out(RAW_BANNER + b">")
            self._line.clear()
        elif c == CTRL_B:
            self._out(b"\r\n" + BANNER)
            self._mode = "friendly"
            self._prompt()
        elif c == CTRL_C:
            self._line.clear()
        elif c == CTRL_D:
            self._out(b"OK")
            if not self._line:
                self._out(b"\r\n")
                self._soft_reset()
                return
            code, self._line = bytes(self._line), bytearray()
            self._run(b"exec", code, "raw")
        else:
            self._line.append(c)

    def _raw_paste_bytes(self):
        q = self._inq
        end = len(q)
        for i, c in enumerate(q):
            if c in (CTRL_C, CTRL_D):
                end = i
                break
        chunk = q[:end]
        del q[:end]
        self._paste += chunk
        # Flow control: one \x01 per window of bytes consumed, as mp_reader_stdin_readbyte does.
        n = len(chunk)
        while n >= self._paste_left:
            n -= self._paste_left
            self._paste_left = self.window
            self._out(b"\x01")
        self._paste_left -= n
        if not q:
            return
        c = q.pop(0)
        code, self._paste = bytes(self._paste), None
        self._out(b"\x04")
        if c == CTRL_C:
            self._out(b"\x04Traceback (most recent call last):\r\nKeyboardInterrupt: \r\n\x04>")
            return
        self._run(b"exec", code, "raw")

    def _friendly_byte(self, c):
        if self._fpaste is not None:
            if c == CTRL_C:
                self._fpaste = None
                self._out(b"\r\n")
                self._prompt()
            elif c == CTRL_D:
                code, self._fpaste = bytes(self._fpaste), None
                self._out(b"\r\n")
                self._run(b"exec", code.replace(b"\r", b"\n"), "friendly")
            else:
                self._fpaste.append(c)
                self._out(b"\r\n=== " if c == 13 else bytes((c,)))
            return
        if c == CTRL_A and not self._cont:
            self._mode = "raw"
            self._out(b"\r\n" + RAW_BANNER + b">")
            self._line.clear()
        elif c == CTRL_B and not self._cont:
            self._out(b"\r\n" + BANNER)
            self._prompt()
        elif c == CTRL_C:
            self._out(b"\r\n")
            self._prompt()
        elif c == CTRL_D:
            if self._cont:
                self._exec_friendly()
            elif not self._line:
                self._out(b"\r\n")
                self._soft_reset()
        elif c == CTRL_E and not self._cont:
            self._out(b"\r\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\r\n=== ")
            self._fpaste = bytearray()
        elif c in (8, 127):
            tail = self._line.rfind(b"\n") + 1
            if len(self._line) > tail:
                self._line.pop()
                self._out(b"\x08 \x08")
        elif c == 13:
            self._out(b"\r\n")
            current = bytes(self._line[self._line.rfind(b"\n") + 1:])
            if not self._line:
                self._prompt()
            elif self._cont and not current.strip():
                self._exec_friendly()
            elif self._cont or current.rstrip().endswith(b":"):
                # Continuation with auto-indent, as the board's readline does.
                indent = len(current) - len(current.lstrip(b" "))
                if current.rstrip().endswith(b":"):
                    indent += 4
                self._cont = True
                self._line += b"\n" + b" " * indent
                self._out(b"... " + b" " * indent)
            else:
                self._exec_friendly()
        elif c >= 32 or c == 9:
            self._line.append(c)
            self._out(bytes((c,)))

    def _exec_friendly(self):
        code, self._line = bytes(self._line).rstrip() + b"\n", bytearray()
        self._cont = False
        self._run(b"single", code, "friendly")


def run_forever(board):
    """Serve until SIGTERM/SIGINT (the `feltctl simboard` process)."""
    def bye(*_):
        board._stop = True
        os.write(board._wake_w, b"x")
    signal.signal(signal.SIGTERM, bye)
    signal.signal(signal.SIGINT, bye)
    try:
        board.run()
    finally:
        if board.link and os.path.islink(board.link):
            os.remove(board.link)
    return 0


if __name__ == "__main__":
    sys.exit("use: feltctl simboard")
