# The host end of MicroPython's raw REPL and raw-paste protocols over pyserial (host tools), with
# a deadline on every wait: a silent, busy or missing board is a clear error within seconds.
# Protocol: MicroPython shared/runtime/pyexec.c; bytes are described in hardware/flashing.md.
import time

import serial

from felt.errors import DeviceTimeout, FeltError

RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
RETRY_S = 2.5  # enter_raw sends Ctrl-C again after this long without the raw REPL
FRIENDLY_BANNER = b'Type "help()" for more information.'


class TransportError(FeltError):
    """The serial link or the board's REPL did not behave as the protocol says."""


class PortBusy(TransportError):
    """Another program (a terminal, mpremote, another feltctl) holds the port."""


class NoPort(TransportError):
    """There is no such serial port (board unplugged, wrong path)."""


class BoardReset(TransportError):
    """The board rebooted in the middle of a command (power cut, watchdog, reset button)."""


class DeviceError(TransportError):
    """Code run on the board raised; `traceback` is the board's text, `last` its final line."""

    def __init__(self, traceback):
        self.traceback = traceback
        lines = [ln for ln in traceback.strip().splitlines() if ln.strip()]
        self.last = lines[-1] if lines else traceback
        super().__init__(self.last)


class Transport:
    """One open port. `timeout_s` bounds every wait for the board's next byte."""

    def __init__(self, port, baud=115200, timeout_s=3.0, exclusive=True):
        # checked here, not left to pyserial: its ValueError is no FeltError, and baud 0 on a real
        # tty is "hang up" (B0), not a speed
        if not isinstance(baud, int) or baud <= 0:
            raise TransportError("baud rate %r: must be a whole number above 0" % (baud,))
        if not timeout_s > 0:
            raise TransportError("timeout %r s: must be above 0" % (timeout_s,))
        self.port = port
        self.timeout_s = timeout_s
        self.bytes_out = 0
        self.in_raw = False
        self.busy = None  # "paste", "run" or "feed" while a command is under way (recover())
        self._rbuf = bytearray()
        self.ser = self._open(port, baud, exclusive)

    def _open(self, port, baud, exclusive):
        # A lock held by a program that is just closing the port clears within moments: retry
        # for up to a second before calling the port busy.
        end = time.monotonic() + 1.0
        while True:
            try:
                return serial.serial_for_url(port, baudrate=baud, timeout=0.02, write_timeout=self.timeout_s,
                                             exclusive=exclusive)
            except (serial.SerialException, ValueError) as e:  # ValueError: a URL scheme pyserial lacks
                text = str(e)
                if "exclusively lock" not in text or time.monotonic() > end:
                    break
            time.sleep(0.05)
        if "exclusively lock" in text:
            raise PortBusy("%s is in use by another program (close the terminal, mpremote or "
                           "other feltctl using it)" % port)
        if "No such file" in text:
            raise NoPort("no serial port %s (is the board plugged in? try `ls /dev/ttyACM*`)" % port)
        if "Permission denied" in text:
            raise TransportError("no permission to open %s (add yourself to the dialout group)" % port)
        raise TransportError("cannot open %s: %s" % (port, text))

    def close(self):
        try:
            if self.in_raw:
                self.write(b"\r\x02")
        except FeltError:  # TransportError or DeviceTimeout: leaving the raw REPL is a courtesy
            pass
        finally:
            self.in_raw = False
            self.ser.close()  # always: the port is held exclusively

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- bytes with deadlines -------------------------------------------------------------
    def write(self, data):
        try:
            self.ser.write(data)
        except serial.SerialTimeoutException:
            raise DeviceTimeout("%s: the board stopped accepting data for %.1f s" % (self.port, self.timeout_s))
        except serial.SerialException as e:
            raise TransportError("%s: write failed: %s" % (self.port, e))
        self.bytes_out += len(data)

    def _waiting(self):
        """Bytes the port holds; pyserial's in_waiting raises a bare OSError (EIO) once the board
        is gone, which is named here like any other failed read."""
        try:
            return self.ser.in_waiting
        except (serial.SerialException, OSError) as e:
            raise TransportError("%s: read failed (board unplugged?): %s" % (self.port, e))

    def _fill(self):
        """Move whatever the port has into the read buffer; False if nothing came."""
        n = self._waiting()
        try:
            chunk = self.ser.read(max(1, n))
        except (serial.SerialException, OSError) as e:
            raise TransportError("%s: read failed (board unplugged?): %s" % (self.port, e))
        self._rbuf += chunk
        return bool(chunk)

    def read_until(self, ending, what, timeout_s=None, watch_reset=True, total_s=None):
        """Bytes up to and including `ending`; DeviceTimeout naming `what` if the board falls
        silent for timeout_s, or (with total_s) if `ending` has not come within total_s however
        much else arrives; BoardReset if the board's boot banner shows up instead."""
        limit = self.timeout_s if timeout_s is None else timeout_s
        last = time.monotonic()
        end = None if total_s is None else last + total_s
        start = 0
        while True:
            cut = self._rbuf.find(ending, start)
            if cut >= 0:
                data = bytes(self._rbuf[:cut + len(ending)])
                del self._rbuf[:cut + len(ending)]
                return data
            if watch_reset and FRIENDLY_BANNER in self._rbuf:
                raise BoardReset("%s: the board rebooted while %s" % (self.port, what))
            start = max(0, len(self._rbuf) - len(ending) - len(FRIENDLY_BANNER))
            if self._fill():
                last = time.monotonic()
                if end is not None and last > end:
                    raise DeviceTimeout("%s: no %r from the board within %.1f s while %s (got %r)"
                                        % (self.port, ending, total_s, what, bytes(self._rbuf[-60:])))
            elif time.monotonic() - last > limit:
                raise DeviceTimeout("%s: no answer from the board for %.1f s while %s (got %r)"
                                    % (self.port, limit, what, bytes(self._rbuf[-60:])))

    def read_exact(self, n, what, timeout_s=None):
        limit = self.timeout_s if timeout_s is None else timeout_s
        last = time.monotonic()
        while len(self._rbuf) < n:
            if self._fill():
                last = time.monotonic()
            elif time.monotonic() - last > limit:
                raise DeviceTimeout("%s: no answer from the board for %.1f s while %s (got %r)"
                                    % (self.port, limit, what, bytes(self._rbuf[-60:])))
        data = bytes(self._rbuf[:n])
        del self._rbuf[:n]
        return data

    def drain(self, quiet_s=0.02):
        """Discard whatever the board is printing until it has been quiet for quiet_s."""
        end = time.monotonic() + self.timeout_s
        last = time.monotonic()
        self._rbuf.clear()
        while time.monotonic() - last < quiet_s and time.monotonic() < end:
            if self._waiting():
                self._fill()
                self._rbuf.clear()
                last = time.monotonic()
            else:
                time.sleep(0.005)

    # ---- raw REPL --------------------------------------------------------------------------
    def enter_raw(self, soft_reset=True):
        """Stop the running program (Ctrl-C), enter the raw REPL (Ctrl-A) and optionally
        soft-reset (Ctrl-D) for a clean heap; boot.py runs again, main.py does not."""
        # A program that ignores Ctrl-C but keeps printing is never silent: the banner itself has a
        # deadline, or such a board would be waited on for ever. Ctrl-C is sent again every
        # RETRY_S: one that lands while the board's boot code has Ctrl-C off (felt main.py until
        # the key switch is read) is only a byte in its input buffer. RETRY_S is longer than the
        # deploy agent's silence deadline, so a board still reading file bytes gets its pause.
        end = time.monotonic() + self.timeout_s
        attempt = 0
        while True:
            self.write(b"\r\x03\x03")
            self.drain()
            self.write(b"\r\x01")
            left = end - time.monotonic()
            try:
                self.read_until(RAW_BANNER + b">", "entering the raw REPL", watch_reset=False,
                                total_s=max(0.05, min(RETRY_S, left)), timeout_s=max(0.05, min(RETRY_S, left)))
                break
            except DeviceTimeout:
                if time.monotonic() >= end:
                    raise DeviceTimeout("%s: no MicroPython REPL answered within %.1f s (is a board connected "
                                        "on this port, at this baud rate, with a program that lets Ctrl-C "
                                        "through?)" % (self.port, self.timeout_s))
            attempt += 1
        if attempt:
            time.sleep(0.1)
            self.drain()  # the earlier tries' Ctrl-A may answer with more banners
        if soft_reset:
            self.write(b"\x04")
            self.read_until(b"soft reboot\r\n", "soft-resetting", watch_reset=False)
            self.read_until(RAW_BANNER + b">", "waiting for the raw REPL after soft reset", watch_reset=False)
        self.in_raw = True

    def exec(self, code, timeout_s=None):
        """Run code in the raw REPL through raw-paste; returns stdout bytes, raises DeviceError
        with the board's traceback if it raised."""
        if isinstance(code, str):
            code = code.encode()
        self.busy = "paste"
        self.write(b"\x05A\x01")
        reply = self.read_exact(2, "starting raw-paste mode")
        if reply == b"R\x01":
            self._paste(code)
        elif reply == b"R\x00":
            # A board without raw-paste (before MicroPython 1.14): plain raw REPL, then "OK".
            self.read_until(b">", "leaving raw-paste refusal")
            self.write(code + b"\x04")
            if self.read_exact(2, "starting the command") != b"OK":
                raise TransportError("%s: the board refused the command" % self.port)
        else:
            raise TransportError("%s: not in the raw REPL (got %r)" % (self.port, reply))
        self.busy = "run"
        out = self.read_until(b"\x04", "running the command", timeout_s)[:-1]
        err = self.read_until(b"\x04", "reading the command's errors", timeout_s)[:-1]
        self.read_until(b">", "waiting for the raw REPL prompt", timeout_s)
        self.busy = None
        if err:
            raise DeviceError(err.decode("utf-8", "replace"))
        return out

    def exec_feed(self, code, data, window, timeout_s=None, progress=None):
        """Run code that reads len(data) raw bytes from the console in windows it grants with
        \x01 (felt.deploy_agent.putb); feed it the bytes, then return stdout like exec()."""
        if isinstance(code, str):
            code = code.encode()
        self.busy = "paste"
        self.write(b"\x05A\x01")
        if self.read_exact(2, "starting raw-paste mode") != b"R\x01":
            raise TransportError("%s: the board has no raw-paste mode (MicroPython >= 1.14 needed)" % self.port)
        self._paste(code)
        self.busy = "feed"
        limit = self.timeout_s if timeout_s is None else timeout_s
        sent = credit = 0
        out = bytearray()
        while True:
            c = self.read_exact(1, "waiting for the board to ask for file bytes", limit)
            if c == b"\x01":
                credit += window
                if sent < len(data):
                    piece = data[sent:sent + credit]
                    self.write(piece)
                    sent += len(piece)
                    credit -= len(piece)
                    if progress:
                        progress(sent)
            elif c == b"\x04":
                break
            else:
                out += c
                if FRIENDLY_BANNER in out:
                    raise BoardReset("%s: the board rebooted while receiving a file" % self.port)
        err = self.read_until(b"\x04", "reading the command's errors", timeout_s)[:-1]
        self.read_until(b">", "waiting for the raw REPL prompt", timeout_s)
        self.busy = None
        if err:
            raise DeviceError(err.decode("utf-8", "replace"))
        if sent < len(data):
            raise TransportError("%s: the board stopped after %d of %d file bytes" % (self.port, sent, len(data)))
        return bytes(out)

    def recover(self, total_s):
        """After the host stopped in the middle of a command (Ctrl-C): bring the board back to
        the raw REPL prompt. A command that runs, or code being pasted, is stopped with Ctrl-C; a
        command reading raw file bytes (Ctrl-C is data there) gives up by itself once the bytes
        stop (deploy_agent.SILENCE_MS). Returns False when nothing was under way."""
        phase, self.busy = self.busy, None
        if phase is None:
            return False
        if phase in ("paste", "run"):
            self.write(b"\x03")
        self.read_until(b"\x04>", "stopping the interrupted command", timeout_s=total_s, watch_reset=False,
                        total_s=total_s)
        return True

    def _paste(self, code):
        window = int.from_bytes(self.read_exact(2, "reading the flow-control window"), "little")
        credit = window  # the window size itself grants one window (pyexec.c)
        i = 0
        while i < len(code):
            # Window credit: each \x01 from the board frees another `window` bytes.
            while credit == 0 or self._rbuf or self._waiting():
                c = self.read_exact(1, "waiting for flow-control credit")
                if c == b"\x01":
                    credit += window
                elif c == b"\x04":
                    # The board stopped reading early (e.g. a syntax error): acknowledge.
                    self.write(b"\x04")
                    return
                else:
                    raise TransportError("%s: unexpected byte %r during raw paste" % (self.port, c))
            piece = code[i:i + credit]
            self.write(piece)
            credit -= len(piece)
            i += len(piece)
        self.write(b"\x04")
        self.read_until(b"\x04", "finishing raw paste")

    def soft_reset_to_friendly(self):
        """Leave the raw REPL and soft-reset, so boot.py and main.py run as after power-up."""
        self.write(b"\r\x02\x04")
        self.in_raw = False
