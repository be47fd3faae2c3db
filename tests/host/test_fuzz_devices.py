# Fuzzing the input channels at driver level with hypothesis: an MFRC522 whose SPI answers are
# random (a babbling or half-dead chip), the antenna poller over such chips, the shoe drivers
# (PN532 and ASCII) fed random/mutated UART bytes, the console link fed random lines, seat buttons
# with random pin levels. Never an unhandled exception; faults become health counters, FAULT
# events or named errors (DeviceTimeout); a good frame after the garbage is still understood.
# Examples per test: FELT_FUZZ_EXAMPLES (default 200).
import os

from hypothesis import HealthCheck, given, settings, strategies as st

from felt.drivers import antennas, buttons, shoe
from felt.drivers.console_link import ConsoleLink
from felt.drivers.mfrc522 import MFRC522, ScanResult
from felt.errors import DeviceTimeout
from felt.hal.sim.hal import SimHAL, SimUART
from felt.hal.sim.mfrc522 import SimMFRC522, SimTag
from felt.proto import ascii_reader, console, pn532

EXAMPLES = int(os.environ.get("FELT_FUZZ_EXAMPLES", "200"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class BabblingChip:
    """An SPIDevice whose every MISO byte comes from a script (repeated), optionally after a
    real simulated chip has answered `honest` transfers: a reader going bad mid-poll."""

    def __init__(self, script, honest=0, real=None):
        self.script = script or b"\x00"
        self.i = 0
        self.honest = honest
        self.real = real

    def transfer(self, out_buf, in_buf):
        if self.honest > 0 and self.real is not None:
            self.honest -= 1
            self.real.transfer(out_buf, in_buf)
            return
        for k in range(len(in_buf)):
            in_buf[k] = self.script[self.i % len(self.script)]
            self.i += 1


@FUZZ
@given(st.binary(min_size=1, max_size=64), st.integers(0, 200))
def test_mfrc522_random_register_answers_give_a_result_or_device_timeout(script, honest):
    hal = SimHAL()
    bus = hal.spi(0)
    chip = bus.attach(17, SimMFRC522(hal.clock))
    chip.place(SimTag(bytes([0x04, 1, 2, 3, 4, 5, 6])))
    reader = MFRC522(BabblingChip(script, honest, bus.device(17)), max_spins=50)
    try:
        reader.init()
        reader.field(True)
        hal.clock.advance_ms(6)
        result = reader.inventory()
    except DeviceTimeout:
        return
    assert isinstance(result, ScanResult)
    for uid in result.uids:
        assert len(uid) in (4, 7, 10)


@FUZZ
@given(st.lists(st.binary(min_size=1, max_size=16), min_size=2, max_size=4), st.integers(1, 40))
def test_antenna_poller_over_babbling_chips_reports_health_not_exceptions(scripts, steps):
    readers = [("seat%d" % (i + 1), MFRC522(BabblingChip(s), max_spins=20)) for i, s in enumerate(scripts)]
    readers.append(("board", MFRC522(BabblingChip(b"\x92"), max_spins=20)))
    poller = antennas.AntennaPoller(readers)
    poller.start()
    locations = [loc for loc, _r in readers]
    now = 0
    for _ in range(steps):
        for event in poller.poll(now):
            assert event[0] in ("card-arrived", "card-left", "collision", "collision-cleared", "reader"), event
            assert event[1] in locations
            if event[0] == "reader":
                assert event[2] in (antennas.OK, antennas.DEGRADED, antennas.NOT_ANSWERING)
            if event[0] in ("card-arrived", "card-left"):
                assert len(event[2]) in (8, 14, 20), "a 4, 7 or 10 byte UID"
        now += 7
    for h in poller.health:
        assert h.status in (antennas.OK, antennas.DEGRADED, antennas.NOT_ANSWERING)


PN532_REPLIES = [pn532.ACK, pn532.NACK, pn532.ERROR_FRAME,
                 pn532.encode_response(pn532.CMD_SAM_CONFIGURATION),
                 pn532.encode_response(pn532.CMD_GET_FIRMWARE_VERSION, b"\x32\x01\x06\x07"),
                 pn532.encode_response(pn532.CMD_IN_LIST_PASSIVE_TARGET, b"\x01\x01\x00\x44\x00\x04\xde\xad\xbe\xef"),
                 pn532.encode_response(pn532.CMD_IN_LIST_PASSIVE_TARGET, b"\x00")]
CHUNKS = st.lists(st.one_of(st.binary(max_size=30), st.sampled_from(PN532_REPLIES)), max_size=20)


@FUZZ
@given(CHUNKS, st.lists(st.integers(0, 700), max_size=20))
def test_pn532_shoe_fed_random_replies_never_raises(chunks, gaps):
    uart = SimUART(0, 115200)
    drv = shoe.Shoe(uart, "pn532")
    now = 0
    for k, chunk in enumerate(chunks):
        uart.feed(chunk)
        for event in drv.poll(now):
            assert event.kind in (shoe.CARD, shoe.READY, shoe.STOPPED, shoe.RECOVERED, shoe.FAULT)
            if event.kind == shoe.CARD:
                assert len(event.uid) in (4, 7, 10)
        now += gaps[k] if k < len(gaps) else 10
    # Whatever the driver wrote is a well-formed stream of host frames (ACK/NACK/wake-up/commands).
    events = pn532.Parser().feed(bytes(uart.sent))
    assert not [e for e in events if isinstance(e, pn532.PN532FrameError)]


@FUZZ
@given(st.lists(st.binary(max_size=40), max_size=12))
def test_ascii_shoe_fed_random_bytes_never_raises_and_resyncs(chunks):
    uart = SimUART(0, 9600)
    drv = shoe.Shoe(uart, "ascii")
    now = 0
    for chunk in chunks:
        uart.feed(chunk)
        drv.poll(now)
        now += 5
    uart.feed(b"\r\n" + ascii_reader.encode_line(b"\x04\x11\x22\x33\x44\x55\x66"))
    cards = [e for e in drv.poll(now + 5000) if e.kind == shoe.CARD]
    assert cards and cards[-1].uid == b"\x04\x11\x22\x33\x44\x55\x66"


def good_line(seq):
    return console.encode(console.Message(seq, "call", [3]))


@FUZZ
@given(st.lists(st.one_of(st.binary(max_size=60), st.builds(good_line, st.integers(0, 65535))), max_size=10))
def test_console_link_fed_random_lines_answers_with_valid_lines(chunks):
    uart = SimUART(1, 115200)
    link = ConsoleLink(uart)
    delivered = []
    for k, chunk in enumerate(chunks):
        uart.feed(chunk)
        delivered.extend(link.poll(k))
    for m in delivered:
        assert isinstance(m, console.Message)
    uart.feed(b"\r\n" + console.encode(console.Message(9, "fold", [2])))
    got = link.poll(1000)
    assert got and got[-1].verb == "fold"
    # Every byte the table sent back is a valid FELT1 line (error replies name the broken line).
    for item in console.Parser(console.TABLE).feed(bytes(uart.sent)):
        assert isinstance(item, console.Message), item


@FUZZ
@given(st.lists(st.tuples(st.integers(0, 3), st.booleans(), st.integers(0, 3000)), max_size=60))
def test_seat_buttons_with_random_levels_never_raise(script):
    hal = SimHAL()
    pins = [(seat, hal.input_pin(10 + seat, pull="up")) for seat in range(1, 5)]
    for _seat, pin in pins:
        pin.set(1)
    drv = buttons.SeatButtons(pins)
    now = 0
    for which, level, dt in script:
        pins[which][1].set(1 if level else 0)
        now += dt
        for event in drv.poll(now):
            assert event[0] in ("button", "button-fault", "button-fault-cleared"), event
            assert 1 <= event[1] <= 4
            assert event[2] in (buttons.SHORT, buttons.LONG, buttons.STUCK, buttons.BOUNCING)
    for seat, fault in drv.faults():
        assert fault in (buttons.STUCK, buttons.BOUNCING)
