# Simulated plain-ASCII serial RFID reader behind a pty: the firmware model
# felt.hal.sim.ascii_reader.SimAsciiReader served by PtyDevice (hardware/protocols/ascii-reader.md).
# Manual use: python -m feltctl.device_sim.ascii_reader  (prints the port; type hex UIDs to "read" them).
import sys

from felt.hal.sim.ascii_reader import SimAsciiReader

from feltctl.device_sim.ptylink import PtyReader, serve_by_hand


class SimAsciiReaderDevice(PtyReader):
    def __init__(self, **model_options):
        PtyReader.__init__(self, SimAsciiReader(**model_options))

    def corrupt_next_line(self):
        self.call(self.model.corrupt_next_line)

    def noise(self, data):
        self.call(self.model.noise, bytes(data))


def main():
    return serve_by_hand(SimAsciiReaderDevice(), "ASCII reader")


if __name__ == "__main__":
    sys.exit(main())
