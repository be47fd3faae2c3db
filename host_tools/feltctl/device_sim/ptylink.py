# A byte-level device model behind a pty (host side, CPython): a pump thread moves bytes between
# the pty master and the model. The model is deterministic; scripting calls go through call(), which
# holds the model lock and wakes the pump so the device's answer goes out at once.
import os
import select
import threading
import tty


class PtyDevice:
    """Serve `model` (write(bytes), read(n) -> bytes|None, any() -> int) on a pty. `port` is the
    path to open with pyserial. Use as a context manager, or start()/stop()."""

    def __init__(self, model):
        self.model = model
        self.port = None
        self.log = []  # (direction, bytes): 'rx' host -> device, 'tx' device -> host
        self._lock = threading.RLock()
        self._master = self._slave = None
        self._wake_r = self._wake_w = None
        self._thread = None
        self._running = False

    def start(self):
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no CR/LF translation: a binary line like a real UART
        self.port = os.ttyname(self._slave)
        self._wake_r, self._wake_w = os.pipe()
        self._running = True
        self._thread = threading.Thread(target=self._pump, name="device-sim-pty", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        if not self._running:
            return
        self._running = False
        os.write(self._wake_w, b"x")
        self._thread.join(timeout=2)
        for fd in (self._master, self._slave, self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def call(self, fn, *args, **kwargs):
        """Run a scripting call on the model under its lock, then let the pump send any answer."""
        with self._lock:
            result = fn(*args, **kwargs)
        if self._running:
            os.write(self._wake_w, b"x")
        return result

    def _pump(self):
        while self._running:
            try:
                ready, _, _ = select.select([self._master, self._wake_r], [], [], 0.05)
            except (OSError, ValueError):
                return
            if self._wake_r in ready:
                os.read(self._wake_r, 64)
            if self._master in ready:
                try:
                    data = os.read(self._master, 4096)
                except OSError:  # the host side closed the port; keep serving for the next open
                    data = b""
                if data:
                    with self._lock:
                        self.log.append(("rx", data))
                        self.model.write(data)
            with self._lock:
                out = self.model.read(self.model.any()) if self.model.any() else None
                if out:
                    self.log.append(("tx", out))
            if out:
                os.write(self._master, out)


class PtyReader(PtyDevice):
    """A simulated RFID reader behind a pty: the scripting calls both reader models share."""

    def present(self, uid, times=1):
        self.call(self.model.present, bytes(uid), times)

    def stop_answering(self):
        self.call(self.model.stop_answering)

    def resume(self):
        self.call(self.model.resume)


def serve_by_hand(device, what):
    """Manual use: print the port, then present each hex UID typed on stdin until EOF."""
    import sys

    with device as dev:
        print("simulated %s on %s -- type a hex UID per line to present it, EOF to quit" % (what, dev.port),
              flush=True)
        for line in sys.stdin:
            text = line.strip()
            if text:
                try:
                    dev.present(bytes.fromhex(text))
                except ValueError as e:
                    print("not a UID: %s" % e, file=sys.stderr)
    return 0
