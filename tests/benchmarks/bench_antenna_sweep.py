# Benchmark (not a test): one full sweep of 12 MFRC522 antennas (9 seats + board, burn, muck),
# empty and loaded, in time modelled by the simulated chips (frames on air at 106 kbit/s, the
# timer period from TModeReg/TPrescalerReg/TReloadReg, SPI traffic, the 6 ms field guard time),
# and the processing cost per poll step of the driver + poller in the MicroPython interpreter
# (SPI answers replayed from a recording, so the simulated chip's own cost is left out).
# Peer, same run: the common fixed 25 ms timeout configuration.
# Runs under CPython (modelled figures; then starts MicroPython on this same file for the cost).
import sys

MICROPYTHON = sys.implementation.name == "micropython"
if MICROPYTHON:
    sys.path.insert(0, sys.argv[2])
else:
    import os
    import subprocess

    HERE = os.path.dirname(os.path.abspath(__file__))
    REPO = os.path.dirname(os.path.dirname(HERE))
    sys.path[:0] = [os.path.join(REPO, "firmware"), os.path.join(REPO, "host_tools")]

from felt.drivers.antennas import AntennaPoller  # noqa: E402
from felt.drivers.mfrc522 import MFRC522, air_bits_us, timer_period_us, timer_settings  # noqa: E402
from felt.hal.sim.hal import SimHAL  # noqa: E402
from felt.hal.sim.mfrc522 import SimMFRC522, SimTag  # noqa: E402

SEATS = 9
OURS_US = 1000
PEER_US = 25000
# A hold'em hand at showdown: two cards per seat, five on the board, three burns, two in the muck.
LOAD = dict([("seat%d" % s, 2) for s in range(1, SEATS + 1)] + [("board", 5), ("burn", 3), ("muck", 2)])


def table(timeout_us, loaded):
    hal = SimHAL()
    bus = hal.spi(0)
    readers = []
    chips = []
    locs = ["seat%d" % s for s in range(1, SEATS + 1)] + ["board", "burn", "muck"]
    serial = 0
    for i in range(len(locs)):
        chip = bus.attach(i + 2, SimMFRC522(hal.clock))
        chips.append(chip)
        for _ in range(LOAD[locs[i]] if loaded else 0):
            serial += 1
            chip.place(SimTag(bytes([0x04, 0x5E, 0x10, serial, 0x2A, 0x6B, 0x80 | (serial & 0x7F)])))
        readers.append((locs[i], MFRC522(bus.device(i + 2), timeout_us=timeout_us, name=locs[i])))
    poller = AntennaPoller(readers)
    poller.start()
    return hal, poller


def sweep_us(timeout_us, loaded):
    """Modelled microseconds for one full sweep (every antenna once), after a warm-up sweep."""
    hal, poller = table(timeout_us, loaded)
    found = 0
    for rnd in range(2):
        t0 = hal.clock.now_us
        steps = 2 * len(poller.schedule)
        for _ in range(steps):
            hal.clock.advance_to_us(poller.next_due_ms * 1000)
            for e in poller.poll(hal.clock.ticks_ms()):
                found += e[0] == "card-arrived"
    return hal.clock.now_us - t0, found, poller.schedule


class Tap:
    """Records the MISO bytes of every transfer of one SPIDevice."""

    def __init__(self, device, log):
        self.device = device
        self.cs = device.cs
        self.log = log

    def transfer(self, out_buf, in_buf):
        self.device.transfer(out_buf, in_buf)
        self.log.append(bytes(in_buf))


class Replay:
    """Plays recorded MISO bytes back: the firmware runs exactly as recorded, minus the chip model."""

    def __init__(self, log):
        self.log = log
        self.i = 0
        self.cs = 0

    def transfer(self, out_buf, in_buf):
        in_buf[:] = self.log[self.i]
        self.i += 1


def recorded(timeout_us, loaded, steps):
    """SPI logs of every reader over `steps` poll steps (and the clock values the loop used)."""
    hal = SimHAL()
    bus = hal.spi(0)
    logs = []
    readers = []
    locs = ["seat%d" % s for s in range(1, SEATS + 1)] + ["board", "burn", "muck"]
    serial = 0
    for i in range(len(locs)):
        chip = bus.attach(i + 2, SimMFRC522(hal.clock))
        for _ in range(LOAD[locs[i]] if loaded else 0):
            serial += 1
            chip.place(SimTag(bytes([0x04, 0x5E, 0x10, serial, 0x2A, 0x6B, 0x80 | (serial & 0x7F)])))
        logs.append([])
        readers.append((locs[i], MFRC522(Tap(bus.device(i + 2), logs[i]), timeout_us=timeout_us, name=locs[i])))
    poller = AntennaPoller(readers)
    poller.start()
    times = []
    for _ in range(steps):
        hal.clock.advance_to_us(poller.next_due_ms * 1000)
        times.append(hal.clock.ticks_ms())
        poller.poll(times[-1])
    return logs, times


def per_poll_cost(timeout_us, loaded, sweeps):
    """(us per poll step, bytes allocated per poll step) of driver + poller alone in MicroPython:
    the SPI answers are replayed from a recording, so the chip model costs nothing."""
    import gc
    import time

    steps = sweeps * 2 * 12
    logs, times = recorded(timeout_us, loaded, steps)
    readers = [("seat%d" % (i + 1) if i < SEATS else ("board", "burn", "muck")[i - SEATS],
                MFRC522(Replay(logs[i]), timeout_us=timeout_us)) for i in range(len(logs))]
    poller = AntennaPoller(readers)
    poller.start()
    gc.collect()
    gc.disable()
    a0 = gc.mem_alloc()
    t0 = time.ticks_us()
    for now in times:
        poller.poll(now)
    spent = time.ticks_diff(time.ticks_us(), t0)
    allocated = gc.mem_alloc() - a0
    gc.enable()
    return spent // steps, allocated // steps


def analytic_empty_us(timeout_us):
    """Per empty antenna: guard time + REQA air time + one timer period (SPI traffic excluded)."""
    p, r = timer_settings(timeout_us)
    return 6000 + air_bits_us(7) + timer_period_us(p, r)


def micropython_main():
    sweeps = int(sys.argv[3])
    for label, loaded in (("empty", False), ("loaded", True)):
        sweeps_here = sweeps * 5 if not loaded else sweeps  # empty steps are short: more of them
        # best of three runs each, interleaved, so warm-up and heap growth hit neither side alone
        runs = [(per_poll_cost(OURS_US, loaded, sweeps_here), per_poll_cost(PEER_US, loaded, sweeps_here))
                for _ in range(3)]
        ours, ours_bytes = min(r[0] for r in runs)
        peer, peer_bytes = min(r[1] for r in runs)
        print("%s %d %d %d %d" % (label, ours, peer, ours_bytes, peer_bytes))


def cpython_main():
    print("antenna sweep: 12 antennas (9 seats + board/burn/muck), modelled MFRC522 time")
    print("  ours: timer %d us (TPrescaler 169, TReload %d); peer: timer %d us (TReload %d)" % (
        OURS_US, timer_settings(OURS_US)[1], PEER_US, timer_settings(PEER_US)[1]))
    for label, loaded in (("empty", False), ("loaded", True)):
        ours, found, schedule = sweep_us(OURS_US, loaded)
        peer, found_peer, _ = sweep_us(PEER_US, loaded)
        assert len(schedule) == 12
        assert found == found_peer == (sum(LOAD.values()) if loaded else 0), (found, found_peer)
        print("  %-6s sweep: ours %7.2f ms   peer %7.2f ms   ratio peer/ours %.2fx   (%d cards read)" % (
            label, ours / 1000, peer / 1000, peer / ours, found))
    print("  analytic empty antenna (guard + REQA + timer): ours %.2f ms, peer %.2f ms" % (
        analytic_empty_us(OURS_US) / 1000, analytic_empty_us(PEER_US) / 1000))
    from feltctl.paths import micropython_binary

    out = subprocess.run([micropython_binary(), "-X", "heapsize=256M", os.path.abspath(__file__), "--mp",
                          os.path.join(REPO, "firmware"), "10"], capture_output=True, text=True, timeout=600)
    if out.returncode:
        print(out.stdout + out.stderr)
        return 1
    print("processing cost per poll step in MicroPython, driver + poller only (SPI answers replayed;")
    print("on a Pico the SPI transfers add their own time; the modelled figures above include them):")
    for line in out.stdout.split("\n"):
        if line.strip():
            label, ours, peer, ours_b, peer_b = line.split()
            print("  %-6s ours %6d us %6d B allocated   peer %6d us %6d B   ratio peer/ours %.2fx" % (
                label, int(ours), int(ours_b), int(peer), int(peer_b), int(peer) / max(1, int(ours))))
    return 0


if __name__ == "__main__":
    if MICROPYTHON:
        micropython_main()
    else:
        sys.exit(cpython_main())
