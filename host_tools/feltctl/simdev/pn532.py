# Simulated PN532 (HSU mode) behind a pty: the firmware model felt.hal.simdev_pn532.SimPN532 served
# by PtyDevice, so pyserial talks to it like a real reader at 115200 baud. Deterministic: tags come
# from a queue the test fills; faults are method calls (hardware/protocols/pn532-hsu.md).
# Manual use: python -m feltctl.simdev.pn532  (prints the port; type hex UIDs to present them).
import sys

from felt.hal.simdev_pn532 import SimPN532

from feltctl.simdev.ptylink import PtyDevice


class SimPN532Device(PtyDevice):
    def __init__(self, **model_options):
        PtyDevice.__init__(self, SimPN532(**model_options))

    def present(self, uid, times=1):
        self.call(self.model.present, bytes(uid), times)

    def corrupt_next_response(self, field="DCS"):
        self.call(self.model.corrupt_next_response, field)

    def stop_answering(self):
        self.call(self.model.stop_answering)

    def resume(self):
        self.call(self.model.resume)


def main():
    with SimPN532Device() as dev:
        print("simulated PN532 on %s -- type a hex UID per line to present it, EOF to quit" % dev.port, flush=True)
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
