# An MQTT broker for tests and the demo's floor mode (host tools): Debian's Mosquitto, started on
# a free port of 127.0.0.1 with a config of its own in a temporary folder, stopped with its
# process. A room runs its own broker the same way (`mosquitto -c`); README "The room".
import os
import shutil
import socket
import subprocess
import tempfile
import time
from felt.errors import FeltError
from felt.room.mqtt_link import parse_url  # noqa: F401 (feltctl's name for it)

CANDIDATES = ("/usr/sbin/mosquitto", "/usr/bin/mosquitto")


class BrokerError(FeltError):
    """No broker program, or it did not start."""


def find_mosquitto():
    """The mosquitto program, or BrokerError saying how to install it."""
    for p in CANDIDATES:
        if os.access(p, os.X_OK):
            return p
    p = shutil.which("mosquitto")
    if p:
        return p
    raise BrokerError("mosquitto is not installed (Debian: apt-get install mosquitto; `make venv` does it as root)")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Mosquitto:
    """A broker of our own: Mosquitto(port=None).start() -> self; .url; .stop(); .restart()
    (same port: what a broker restart mid-hand looks like to its clients)."""

    def __init__(self, port=None, persistence=False):
        self.port = port or free_port()
        self.dir = tempfile.mkdtemp(prefix="felt-mqtt-")
        self.persistence = persistence
        self.proc = None
        self.url = "mqtt://127.0.0.1:%d" % self.port

    def _config(self):
        path = os.path.join(self.dir, "mosquitto.conf")
        with open(path, "w") as f:
            f.write("listener %d 127.0.0.1\nallow_anonymous true\n" % self.port)
            f.write("persistence %s\npersistence_location %s/\n" % ("true" if self.persistence else "false", self.dir))
            f.write("log_dest file %s/mosquitto.log\nmax_queued_messages 100000\n" % self.dir)
        return path

    def start(self, timeout_s=10.0):
        exe = find_mosquitto()
        self.proc = subprocess.Popen([exe, "-c", self._config()], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise BrokerError("mosquitto exited at start (code %s); see %s/mosquitto.log" % (
                    self.proc.returncode, self.dir))
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise BrokerError("mosquitto did not listen on port %d within %.0f s" % (self.port, timeout_s))

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    def restart(self, down_s=0.0):
        self.stop()
        time.sleep(down_s)
        return self.start()

    def close(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()
