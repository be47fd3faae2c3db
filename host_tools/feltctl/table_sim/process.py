# The simulated table as a child process (host tools): runs feltctl/table_sim/driver.py -- which drives the
# real firmware's sim runner (felt.sim.runner) -- inside the MicroPython unix port (default) or
# CPython, sends it stimulus lines and reads the JSON state snapshots it prints. Every answer comes
# from the firmware's own state; this module only carries lines.
import json
import os
import select
import subprocess
import sys
import tempfile

from feltctl.commands.replay import compiled_firmware
from feltctl.paths import FIRMWARE, micropython_binary

DRIVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "driver.py")
RUNTIMES = ("micropython", "cpython")
HEAPSIZE = "4M"  # imports ~390 KB of bytecode + a 10-seat table (hardware/sim-protocol.md)
TIMEOUT_S = 120.0  # one statement of the sim takes milliseconds; minutes mean a hung firmware


class SimProcessError(Exception):
    """The child stopped or answered with an error. line: the driver's input line number (1-based)
    it refers to, or None; crash: True when the firmware itself failed (not the script)."""

    def __init__(self, message, line=None, crash=False):
        super().__init__(message)
        self.message = message
        self.line = line
        self.crash = crash
        self.snapshot = None  # the table's state after a refused statement (SimProcess.state, keep_going)


class SimProcess:
    """One simulated table in a child interpreter. send(line) queues a stimulus statement;
    state() returns the next snapshot dict (raises SimProcessError on an error answer)."""

    def __init__(self, runtime="micropython", shoe="pn532", keep_going=False, heapsize=HEAPSIZE, kill_every=None,
                 game="poker"):
        if runtime not in RUNTIMES:
            raise ValueError("runtime must be one of %s" % ", ".join(RUNTIMES))
        argv = []
        self._root = None
        if game == "blackjack":  # the assembled firmware with its data folder (felt.sim.blackjack_board)
            self._root = tempfile.mkdtemp(prefix="felt-bj-")
            argv += ["--blackjack", os.path.join(self._root, "data")]
        if shoe == "ascii":
            argv.append("--ascii")
        if keep_going:
            argv.append("--keep-going")
        if kill_every:
            argv += ["--kill-every", str(int(kill_every))]
        env = dict(os.environ)
        if runtime == "micropython":
            env["MICROPYPATH"] = compiled_firmware()
            cmd = [micropython_binary(), "-X", "heapsize=" + heapsize, DRIVER] + argv
        else:
            env["PYTHONPATH"] = FIRMWARE
            cmd = [sys.executable, "-u", DRIVER] + argv
        self._err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._err,
                                     env=env, cwd=FIRMWARE)
        self._buf = b""
        self.keep_going = keep_going
        self.sent = 0  # lines written so far (the driver numbers its input lines the same way)

    def send(self, line):
        try:
            self.proc.stdin.write((line.rstrip("\n") + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self._died()
        self.sent += 1

    def _readline(self):
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            ready, _, _ = select.select([fd], [], [], TIMEOUT_S)
            if not ready:
                self.close()
                raise SimProcessError("the simulated table did not answer within %d s" % TIMEOUT_S, crash=True)
            chunk = os.read(fd, 65536)
            if not chunk:
                self._died()
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return line.decode()

    def _died(self):
        code = self.proc.wait()
        # the child may have said why before it stopped (a refused statement): that answer wins
        rest = self._buf
        fd = self.proc.stdout.fileno()
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            rest += chunk
        self._buf = b""
        for raw in rest.decode(errors="replace").splitlines():
            if raw.startswith("{") and '"error"' in raw:
                obj = json.loads(raw)
                raise SimProcessError(obj["error"], obj.get("line"), bool(obj.get("crash")))
        self._err.seek(0)
        tail = self._err.read().decode(errors="replace").strip().splitlines()
        last = tail[-1] if tail else "exit status %d" % code
        raise SimProcessError("the simulated table stopped: %s" % last, crash=True)

    def state(self):
        """Ask for a snapshot and return it (a dict). An error answer to a statement sent before raises
        SimProcessError; with keep_going the driver goes on and still answers this `state`, and that
        snapshot is read here too (the error's .snapshot) -- left unread, it would be taken for the
        answer to the next `state`, and every later snapshot would be one step behind (issue 18 item 4)."""
        self.send("state")
        asked = self.sent  # the driver's line number of this `state`
        refused = None
        while True:
            text = self._readline()
            if not text.startswith("{"):
                continue  # a log line (`# ...`) -- not a snapshot
            obj = json.loads(text)
            if "error" in obj:
                err = SimProcessError(obj["error"], obj.get("line"), bool(obj.get("crash")))
                if err.crash or not self.keep_going or err.line == asked:
                    raise err  # no snapshot follows: the driver stopped, or this `state` itself failed
                if refused is None:
                    refused = err  # the first refusal is the one to tell; read on to this state's answer
                continue
            if refused is not None:
                refused.snapshot = obj
                raise refused
            return obj

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._err.close()
        if self._root is not None:
            import shutil

            shutil.rmtree(self._root, ignore_errors=True)
            self._root = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
