# The outbox (room layer; files only, no clock): every room message a table makes is written here
# before anyone tries to send it, and stays until the floor has stored it (its `stored`
# acknowledgement over MQTT, or the bridge's `puback` for a Pico table). A broker outage or a power cut therefore loses
# nothing: after the restart the unacknowledged messages go out again with their old sequence
# numbers, and the floor drops what it already has by sequence number. Sequence numbers continue
# across restarts (hardware/floor.md section 4).
import os

COMPACT_LINES = 200  # once everything is acknowledged and the log is this long, it starts afresh


class Outbox:
    """folder: where outbox.log and outbox.ack live (None: in memory only, a bench table).
    put(seq, kind, payload) before sending; ack(seq) when the floor has it; pending() what to send."""

    def __init__(self, folder=None):
        self.folder = folder
        self.last_seq = 0
        self.acked_upto = 0  # every seq <= this is acknowledged (persisted)
        self._waiting = []  # [(seq, kind, payload)] not acknowledged, oldest first
        self._lines = 0
        if folder is not None:
            _mkdir(folder)
            self._load()

    def _path(self, name):
        return self.folder + "/" + name

    def _load(self):
        try:
            with open(self._path("outbox.ack")) as f:
                w = f.read().split()
            self.acked_upto = int(w[0])
            self.last_seq = int(w[1])
        except (OSError, ValueError, IndexError):
            pass  # none yet (or torn before its first rename: the log still has every message)
        try:
            f = open(self._path("outbox.log"))
        except OSError:
            return
        with f:
            for line in f:
                self._lines += 1
                entry = _parse(line)
                if entry is None:
                    continue  # a line torn by a power cut: its message was never sent either
                if entry[0] > self.last_seq:
                    self.last_seq = entry[0]
                if entry[0] > self.acked_upto:
                    self._waiting.append(entry)

    def put(self, seq, kind, payload):
        """Keep message `seq` (payload: its text) until acknowledged; written before it is sent."""
        if seq <= self.last_seq:
            raise ValueError("outbox: seq %d after %d" % (seq, self.last_seq))
        self.last_seq = seq
        self._waiting.append((seq, kind, payload))
        if self.folder is not None:
            with open(self._path("outbox.log"), "a") as f:
                f.write("%d %s %s\n" % (seq, kind, payload))
            self._lines += 1

    def pending(self):
        """[(seq, kind, payload)] to send, oldest first. Every one goes, older states too: the
        floor sees an unbroken run of numbers, so a gap always means a message lost."""
        return list(self._waiting)

    def count(self):
        return len(self._waiting)

    def ack(self, seq):
        """The floor has message `seq` (an unknown or repeated seq changes nothing)."""
        w = self._waiting
        for i in range(len(w)):
            if w[i][0] == seq:
                w.pop(i)
                break
        else:
            return
        upto = w[0][0] - 1 if w else self.last_seq
        if upto > self.acked_upto:
            self.acked_upto = upto
            self._save()

    def _save(self):
        if self.folder is None:
            return
        tmp = self._path("outbox.ack.new")
        with open(tmp, "w") as f:
            f.write("%d %d\n" % (self.acked_upto, self.last_seq))
        os.rename(tmp, self._path("outbox.ack"))
        if not self._waiting and self._lines >= COMPACT_LINES:
            with open(self._path("outbox.log"), "w"):
                pass  # everything is acknowledged and the ack file holds the last seq
            self._lines = 0


def _parse(line):
    w = line.rstrip("\n").split(" ", 2)
    if len(w) != 3 or not line.endswith("\n"):
        return None
    try:
        seq = int(w[0])
    except ValueError:
        return None
    if not w[2].startswith("{") or not w[2].endswith("}"):
        return None
    return seq, w[1], w[2]


def _mkdir(path):
    try:
        os.mkdir(path)
    except OSError:
        pass  # there already
