# A simulated plain-ASCII serial RFID reader at byte level -- sim backend for the shoe: pure,
# deterministic, scripted by the caller. UART face from the reader's side: what the host writes is
# ignored (these readers take no commands), read(n)/any() returns the lines it prints.
# Line format per hardware/protocols/ascii-reader.md; faults are injected by method calls.
from felt.hal.sim.uart import DeviceUART
from felt.proto import ascii_reader


class SimAsciiReader(DeviceUART):
    """present(uid) prints the UID line at once; present(uid, times=2) is a tag read twice.
    corrupt_next_line() garbles the next printed line; stop_answering() makes it print nothing
    (lines presented meanwhile are lost, as with a dead reader); noise(bytes) injects raw bytes."""

    def __init__(self, ending=b"\r\n", framed=False, separator=""):
        self.ending = ending
        self.framed = framed
        self.separator = separator
        self.silent = False
        self.written = bytearray()  # whatever the host sent (a real reader ignores it)
        DeviceUART.__init__(self)
        self._corrupt = 0

    def present(self, uid, times=1):
        for _ in range(times):
            if self.silent:
                continue
            line = ascii_reader.encode_line(uid, self.ending, self.framed, self.separator)
            if self._corrupt:
                self._corrupt -= 1
                # Replace the first hex digit with a non-hex letter: a line the codec must reject.
                bad = bytearray(line)
                bad[1 if self.framed else 0] = ord("G")
                line = bytes(bad)
            self._out.extend(line)

    def corrupt_next_line(self):
        self._corrupt += 1

    def noise(self, data):
        if not self.silent:
            self._out.extend(data)

    def stop_answering(self):
        self.silent = True
        self._out = bytearray()

    def resume(self):
        self.silent = False

    def write(self, data):
        self.written.extend(data)
        return len(data)
