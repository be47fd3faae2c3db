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
    put(seq, kind, payload) before sending; ack(seq) when the floor has it; waiting() the seqs to
    send and payload(seq) each one's text. With a folder the payloads stay in outbox.log and only
    (seq, kind, offset, length) is kept in RAM: at a hand's end some 30 messages wait at once on a
    Pico (~30 KB of payloads; hardware/memory.md "The room on the board")."""

    def __init__(self, folder=None):
        self.folder = folder
        self.last_seq = 0
        self.acked_upto = 0  # every seq <= this is acknowledged (persisted)
        self._waiting = []  # [(seq, kind, payload)] in memory, [(seq, kind, offset, length)] with a folder
        self._lines = 0
        self._size = 0  # bytes in outbox.log
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
            f = open(self._path("outbox.log"), "rb")
        except OSError:
            return
        last = b"\n"
        with f:
            while True:
                line = f.readline()
                if not line:
                    break
                last = line
                start = self._size
                self._size += len(line)
                self._lines += 1
                entry = _parse(line)
                if entry is None:
                    continue  # a line torn by a power cut: its message was never sent either
                seq, kind, skip = entry
                if seq > self.last_seq:
                    self.last_seq = seq
                if seq > self.acked_upto:
                    self._waiting.append((seq, kind, start + skip, len(line) - skip - 1))
        if last[-1:] != b"\n":
            # the last line was torn by a power cut: ended here, so the next message starts a line
            # of its own instead of running on from the torn one
            self._append(b"\n")

    def _append(self, data):
        with open(self._path("outbox.log"), "ab") as f:
            f.write(data)
        self._size += len(data)

    def put(self, seq, kind, payload):
        """Keep message `seq` (payload: its text) until acknowledged; written before it is sent."""
        if seq <= self.last_seq:
            raise ValueError("outbox: seq %d after %d" % (seq, self.last_seq))
        self.last_seq = seq
        if self.folder is None:
            self._waiting.append((seq, kind, payload))
            return
        head = ("%d %s " % (seq, kind)).encode()
        body = payload.encode()
        start = self._size + len(head)
        self._append(head + body + b"\n")
        self._lines += 1
        self._waiting.append((seq, kind, start, len(body)))

    def waiting(self):
        """[(seq, kind)] to send, oldest first. Every one goes, older states too: the floor sees an
        unbroken run of numbers, so a gap always means a message lost."""
        return [(w[0], w[1]) for w in self._waiting]

    def payload(self, seq):
        """The text of waiting message `seq` (read back from outbox.log with a folder); None when it
        is not waiting."""
        for w in self._waiting:
            if w[0] == seq:
                if len(w) == 3:
                    return w[2]
                with open(self._path("outbox.log"), "rb") as f:
                    f.seek(w[2])
                    return f.read(w[3]).decode()
        return None

    def pending(self):
        """[(seq, kind, payload)] of every waiting message, oldest first (tests and tools; the
        links send by waiting() and payload())."""
        return [(seq, kind, self.payload(seq)) for seq, kind in self.waiting()]

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
            self._size = 0


def _parse(line):
    """(seq, kind, bytes before the payload) of a whole outbox.log line (bytes), or None."""
    if not line.endswith(b"\n"):
        return None
    w = line[:-1].split(b" ", 2)
    if len(w) != 3 or not w[0].isdigit() or not w[2].startswith(b"{") or not w[2].endswith(b"}"):
        return None
    try:
        kind = w[1].decode()
    except UnicodeError:
        return None
    return int(w[0]), kind, len(w[0]) + len(w[1]) + 2


def _mkdir(path):
    try:
        os.mkdir(path)
    except OSError:
        pass  # there already
