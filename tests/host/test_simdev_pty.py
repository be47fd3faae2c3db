# pyserial talks to the simulated PN532 and ASCII reader over a pty like hardware (host side).
# Every read has a timeout; no test sleeps to wait for an answer, it reads until bytes arrive.
import time

import pytest
import serial

from felt.drivers import shoe
from felt.proto import ascii_reader, pn532

from feltctl.device_sim.ascii_reader import SimAsciiReaderDevice
from feltctl.device_sim.pn532 import SimPN532Device

UID4 = bytes.fromhex("DEADBEEF")
UID7 = bytes.fromhex("047BCB51962280")


def read_exactly(port, n, timeout_s=2.0):
    port.timeout = timeout_s
    data = port.read(n)
    assert len(data) == n, "wanted %d bytes, got %r" % (n, data)
    return data


def exchange(port, command, want_len):
    port.write(command)
    return read_exactly(port, want_len)


@pytest.fixture
def chip():
    with SimPN532Device() as dev:
        with serial.Serial(dev.port, 115200, timeout=1) as port:
            yield dev, port


def test_pn532_answers_real_command_frames(chip):
    dev, port = chip
    got = exchange(port, pn532.WAKEUP + pn532.sam_configuration(), 6 + 9)
    assert got == pn532.ACK + bytes.fromhex("0000FF02FED5151600")
    got = exchange(port, pn532.get_firmware_version(), 6 + 13)
    assert got == pn532.ACK + bytes.fromhex("0000FF06FAD50332010607E800")
    (ack, frame) = pn532.Parser().feed(got)
    assert pn532.parse_firmware_version(frame) == pn532.FirmwareVersion(0x32, 1, 6, 7)


def test_pn532_inlist_passive_target_waits_for_a_tag(chip):
    dev, port = chip
    exchange(port, pn532.WAKEUP + pn532.sam_configuration(), 15)
    assert exchange(port, pn532.in_list_passive_target(), 6) == pn532.ACK
    port.timeout = 0.2
    assert port.read(1) == b""  # no tag: the chip holds the command
    dev.present(UID7)
    frame = read_exactly(port, 22)
    (target,) = pn532.parse_in_list_passive_target(pn532.Parser().feed(frame)[0])
    assert target.uid == UID7 and target.sens_res == b"\x00\x44"


def test_pn532_corrupted_frame_then_nack_resend(chip):
    dev, port = chip
    exchange(port, pn532.WAKEUP + pn532.sam_configuration(), 15)
    dev.corrupt_next_response("DCS")
    dev.present(UID4)
    got = exchange(port, pn532.in_list_passive_target(), 6 + 19)
    events = pn532.Parser().feed(got)
    assert events[0] == pn532.Ack()
    assert isinstance(events[1], pn532.PN532FrameError) and events[1].field == "DCS"
    resent = exchange(port, pn532.NACK, 19)
    (target,) = pn532.parse_in_list_passive_target(pn532.Parser().feed(resent)[0])
    assert target.uid == UID4


def test_pn532_tag_read_twice_and_reader_that_stops_answering(chip):
    dev, port = chip
    exchange(port, pn532.WAKEUP + pn532.sam_configuration(), 15)
    dev.present(UID4, times=2)
    uids = []
    for _ in range(2):
        got = exchange(port, pn532.in_list_passive_target(), 6 + 19)
        uids.append(pn532.parse_in_list_passive_target(pn532.Parser().feed(got)[1])[0].uid)
    assert uids == [UID4, UID4]
    dev.stop_answering()
    port.write(pn532.in_list_passive_target())
    port.timeout = 0.3
    assert port.read(6) == b""


class SerialUART:
    """pyserial seen through the firmware's UART contract (any/read/write)."""

    def __init__(self, port):
        self.port = port

    def any(self):
        return self.port.in_waiting

    def read(self, n):
        return self.port.read(n)

    def write(self, data):
        return self.port.write(data)


def poll_until(drv, predicate, timeout_s=3.0):
    events = []
    start = time.monotonic()
    while time.monotonic() - start < timeout_s:
        events.extend(drv.poll(int((time.monotonic() - start) * 1000)))
        if predicate(events):
            return events
        time.sleep(0.005)  # pacing a real-time loop against a real pty, not waiting for a result
    raise AssertionError("timed out; events so far: %r" % (events,))


def test_firmware_shoe_driver_over_pyserial(chip):
    dev, port = chip
    port.timeout = 0
    drv = shoe.Shoe(SerialUART(port), "pn532")
    poll_until(drv, lambda ev: any(e.kind == shoe.READY for e in ev))
    dev.present(UID4)
    dev.present(UID7)
    events = poll_until(drv, lambda ev: sum(e.kind == shoe.CARD for e in ev) == 2)
    assert [e.uid for e in events if e.kind == shoe.CARD] == [UID4, UID7]
    assert drv.health.frame_errors == 0


def test_firmware_shoe_driver_over_pyserial_recovers_a_dropped_byte(chip):
    # The 00 of SENS_RES is lost: DCS still holds, only the missing postamble (the line goes quiet)
    # tells; the driver NACKs after the inter-byte gap and the chip resends (pn532-hsu.md).
    dev, port = chip
    port.timeout = 0
    drv = shoe.Shoe(SerialUART(port), "pn532")
    poll_until(drv, lambda ev: any(e.kind == shoe.READY for e in ev))
    dev.drop_byte_in_next_response(9)
    dev.present(UID4)
    events = poll_until(drv, lambda ev: any(e.kind == shoe.CARD for e in ev))
    assert [e.uid for e in events if e.kind == shoe.CARD] == [UID4]
    assert (drv.health.nacks, drv.health.lost_responses) == (1, 0)


def test_ascii_reader_over_pty():
    with SimAsciiReaderDevice() as dev, serial.Serial(dev.port, 9600, timeout=2) as port:
        dev.present(UID4)
        assert port.readline() == b"DEADBEEF\r\n"
        dev.corrupt_next_line()
        dev.present(UID7, times=2)
        parser = ascii_reader.Parser()
        events = parser.feed(port.readline()) + parser.feed(port.readline())
        assert isinstance(events[0], ascii_reader.AsciiLineError) and events[0].reason == "not_hex"
        assert events[1] == ascii_reader.TagLine(UID7)
        dev.stop_answering()
        dev.present(UID4)
        port.timeout = 0.3
        assert port.read(1) == b""
        dev.resume()
        dev.present(UID4)
        port.timeout = 2
        assert port.readline() == b"DEADBEEF\r\n"
