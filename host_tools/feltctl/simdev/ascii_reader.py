# Simulated plain-ASCII serial RFID reader behind a pty: the firmware model
# felt.hal.simdev_ascii_reader.SimAsciiReader served by PtyDevice (hardware/protocols/ascii-reader.md).
# Manual use: python -m feltctl.simdev.ascii_reader  (prints the port; type hex UIDs to "read" them).
import sys

from felt.hal.simdev_ascii_reader import SimAsciiReader

from feltctl.simdev.ptylink import PtyDevice


class SimAsciiReaderDevice(PtyDevice):
    def __init__(self, **model_options):
        PtyDevice.__init__(self, SimAsciiReader(**model_options))

    def present(self, uid, times=1):
        self.call(self.model.present, bytes(uid), times)

    def corrupt_next_line(self):
        self.call(self.model.corrupt_next_line)

    def noise(self, data):
        self.call(self.model.noise, bytes(data))

    def stop_answering(self):
        self.call(self.model.stop_answering)

    def resume(self):
        self.call(self.model.resume)


def main():
    with SimAsciiReaderDevice() as dev:
        print("simulated ASCII reader on %s -- type a hex UID per line, EOF to quit" % dev.port, flush=True)
        for line in sys.stdin:
            text = line.strip()
            if text:
                try:
                    dev.present(bytes.fromhex(text))
                except ValueError as e:
                    print("not a UID: %s" % e, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
