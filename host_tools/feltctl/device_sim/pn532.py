# Simulated PN532 (HSU mode) behind a pty: the firmware model felt.hal.sim.pn532.SimPN532 served
# by PtyDevice, so pyserial talks to it like a real reader at 115200 baud. Deterministic: tags come
# from a queue the test fills; faults are method calls (hardware/protocols/pn532-hsu.md).
# Manual use: python -m feltctl.device_sim.pn532  (prints the port; type hex UIDs to present them).
import sys

from felt.hal.sim.pn532 import SimPN532

from feltctl.device_sim.ptylink import PtyReader, serve_by_hand


class SimPN532Device(PtyReader):
    def __init__(self, **model_options):
        PtyReader.__init__(self, SimPN532(**model_options))

    def corrupt_next_response(self, field="DCS"):
        self.call(self.model.corrupt_next_response, field)

    def drop_byte_in_next_response(self, position=None, count=1, times=1):
        self.call(self.model.drop_byte_in_next_response, position, count, times)


def main():
    return serve_by_hand(SimPN532Device(), "PN532")


if __name__ == "__main__":
    sys.exit(main())
