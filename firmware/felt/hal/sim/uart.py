# The device side of a simulated UART peripheral -- sim backend helper shared by the simulated shoe
# readers (felt.hal.sim.pn532, felt.hal.sim.ascii_reader): what the device has sent waits in `_out` until the
# host reads it, through the any()/read(n) face of machine.UART that the drivers use.


class DeviceUART:
    def __init__(self):
        self._out = bytearray()

    def any(self):
        return len(self._out)

    def read(self, n=-1):
        """Up to n bytes the device sent (all with n < 0 or None); b"" when there are none."""
        if n is None or n < 0 or n > len(self._out):
            n = len(self._out)
        chunk = bytes(self._out[0:n])
        self._out[0:n] = b""
        return chunk
