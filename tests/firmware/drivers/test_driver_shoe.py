# Shoe driver (felt.drivers.shoe) against the in-process simulated readers (felt.hal.simdev_*),
# with a manual clock: now_ms is just a number the test advances. No sleeps.
from check import eq

from felt.drivers import shoe
from felt.drivers.shoe import CARD, FAULT, READY, RECOVERED, STOPPED, ShoeConfig
from felt.hal.sim.ascii_reader import SimAsciiReader
from felt.hal.sim.pn532 import EMPTY, SimPN532
from felt.proto import pn532

UID_A = bytes.fromhex("DEADBEEF")
UID_B = bytes.fromhex("047BCB51962280")
UID_C = bytes.fromhex("01020304")


class Recorder:
    """UART wrapper that records every write, so tests can check the exact bytes on the wire."""

    def __init__(self, device):
        self.device = device
        self.writes = []

    def write(self, data):
        self.writes.append(bytes(data))
        return self.device.write(data)

    def any(self):
        return self.device.any()

    def read(self, n):
        return self.device.read(n)


def kinds(events):
    return [e.kind for e in events]


def cards(events):
    return [(e.uid, e.repeat) for e in events if e.kind == CARD]


def started(config=None):
    chip = SimPN532()
    uart = Recorder(chip)
    drv = shoe.Shoe(uart, "pn532", config=config)
    events = drv.poll(0)
    return chip, uart, drv, events


def test_init_sequence_wakeup_sam_firmware_then_polling():
    chip, uart, drv, events = started()
    eq(uart.writes[0], pn532.WAKEUP + pn532.sam_configuration())
    eq(uart.writes[1], pn532.get_firmware_version())
    eq(uart.writes[2], pn532.in_list_passive_target(1))
    eq(chip.commands, [0x14, 0x02, 0x4A])
    eq(kinds(events), [READY])
    eq(events[0].detail, pn532.FirmwareVersion(0x32, 1, 6, 7))
    assert drv.ready and chip.sam_configured


def test_cards_reported_in_order_4_and_7_byte_uids():
    chip, uart, drv, _ = started()
    chip.present(UID_A)
    eq(cards(drv.poll(10)), [(UID_A, False)])
    chip.present(UID_B)
    chip.present(UID_C)
    # One card per InListPassiveTarget (MaxTg 1): both arrive, in order, within this poll.
    eq(cards(drv.poll(20)), [(UID_B, False), (UID_C, False)])
    eq(drv.health.reads, 3)
    eq(drv.health.last_read_ms, 20)


def test_cards_queued_before_start_are_not_lost():
    chip = SimPN532()
    for uid in (UID_A, UID_B, UID_C):
        chip.present(uid)
    drv = shoe.Shoe(chip)
    got = []
    for t in range(0, 50, 10):
        got.extend(cards(drv.poll(t)))
    eq(got, [(UID_A, False), (UID_B, False), (UID_C, False)])


def test_empty_shoe_polls_are_aborted_and_reissued_not_faults():
    chip, uart, drv, _ = started()
    n = len(uart.writes)
    eq(drv.poll(499), [])
    eq(len(uart.writes), n)  # still inside the poll window: nothing sent
    eq(drv.poll(500), [])
    eq(uart.writes[n:], [pn532.ACK, pn532.in_list_passive_target(1)])
    for t in range(1000, 5001, 500):
        eq(drv.poll(t), [])
    eq(drv.health.empty_polls, 10)
    eq((drv.health.timeouts, drv.health.frame_errors, drv.health.stopped), (0, 0, False))
    chip.present(UID_A)
    eq(cards(drv.poll(5010)), [(UID_A, False)])


def test_corrupted_response_is_nacked_and_the_card_still_arrives():
    chip, uart, drv, _ = started()
    chip.corrupt_next_response("DCS")
    chip.present(UID_B)
    events = drv.poll(10)
    eq(kinds(events), [FAULT, CARD])
    assert "DCS" in events[0].detail
    eq(events[1].uid, UID_B)
    assert pn532.NACK in uart.writes
    eq(drv.health.frame_errors, 1)
    eq(drv.health.reads, 1)


def test_corrupted_length_checksum_also_recovers():
    chip, uart, drv, _ = started()
    chip.corrupt_next_response("LCS")
    chip.present(UID_A)
    events = drv.poll(10)
    eq(cards(events), [(UID_A, False)])
    eq(drv.health.frame_errors, 1)


def test_tag_read_twice_is_reported_twice_and_flagged_repeat():
    chip, uart, drv, _ = started(ShoeConfig(repeat_window_ms=1500))
    chip.present(UID_A, times=2)
    eq(cards(drv.poll(10)), [(UID_A, False), (UID_A, True)])
    eq(drv.health.repeats, 1)
    chip.present(UID_A)
    eq(cards(drv.poll(3000)), [(UID_A, False)])  # outside the window: a fresh read


def test_reader_stops_answering_then_recovers():
    cfg = ShoeConfig(ack_timeout_ms=50, poll_window_ms=500, retry_ms=200, stopped_after_ms=2000)
    chip, uart, drv, _ = started(cfg)
    chip.stop_answering()
    events = []
    for t in range(100, 2600, 50):
        events.extend(drv.poll(t))
    # The pending poll is aborted at 500 and re-issued; its ACK never comes -> timeout (one FAULT),
    # then re-inits every retry_ms; STOPPED once, 2000 ms after the last ACK (at 0).
    eq(kinds(events).count(STOPPED), 1)
    stopped = [e for e in events if e.kind == STOPPED][0]
    eq(stopped.at_ms, 2000)
    assert drv.health.stopped
    assert drv.health.timeouts >= 3
    eq(kinds(events)[0], FAULT)
    eq(kinds(events).count(FAULT), 1)  # later timeouts are counted, not repeated as alerts
    # Power back: the chip is asleep again; the driver's re-init wakes it.
    chip.resume()
    chip.present(UID_C)
    events = []
    for t in range(2600, 3200, 50):
        events.extend(drv.poll(t))
    eq([k for k in kinds(events)], [RECOVERED, READY, CARD])
    eq(events[2].uid, UID_C)
    assert not drv.health.stopped


def test_sleeping_chip_ignores_frames_without_wakeup():
    chip = SimPN532()
    chip.write(pn532.get_firmware_version())
    eq(chip.any(), 0)
    chip.write(pn532.WAKEUP + pn532.get_firmware_version())
    eq(chip.read(64), pn532.ACK + pn532.encode_response(0x02, bytes([0x32, 1, 6, 7])))


def test_chip_syntax_error_frame_counts_and_reinitialises():
    class Scripted:
        """Answers every write with ACK + the PN532 syntax-error frame."""

        def __init__(self):
            self.out = bytearray()
            self.writes = 0

        def write(self, data):
            self.writes += 1
            self.out.extend(pn532.ACK + pn532.ERROR_FRAME)

        def any(self):
            return len(self.out)

        def read(self, n):
            chunk = bytes(self.out[:n])
            self.out[0:n] = b""
            return chunk

    uart = Scripted()
    drv = shoe.Shoe(uart, config=ShoeConfig(retry_ms=100))
    events = drv.poll(0)
    eq(kinds(events), [FAULT])
    assert "syntax-error" in events[0].detail
    eq(drv.health.chip_errors, 1)
    eq(drv.poll(50), [])  # waiting out retry_ms
    eq(kinds(drv.poll(100)), [FAULT])
    eq(uart.writes, 2)


def test_uart_read_returning_none_is_harmless():
    class Silent:
        def write(self, data):
            return len(data)

        def any(self):
            return 1  # claims data, then has none (a UART race)

        def read(self, n):
            return None

    drv = shoe.Shoe(Silent())
    eq(drv.poll(0), [])
    eq(kinds(drv.poll(60)), [FAULT])
    eq(drv.health.timeouts, 1)


def test_no_tag_mode_empty_answers_count_nothing_as_card():
    chip = SimPN532(no_tag=EMPTY)
    drv = shoe.Shoe(chip)
    eq(kinds(drv.poll(0)), [READY])
    eq(cards(drv.poll(10)), [])
    chip.present(UID_B)
    eq(cards(drv.poll(20)), [(UID_B, False)])


def test_ascii_shoe_reads_lines_and_names_bad_ones():
    reader = SimAsciiReader()
    drv = shoe.Shoe(reader, "ascii")
    reader.present(UID_A)
    reader.corrupt_next_line()
    reader.present(UID_B)
    reader.noise(b"\x13\x37\r\n")
    reader.present(UID_C, times=2)
    events = drv.poll(5)
    eq(kinds(events), [CARD, FAULT, FAULT, CARD, CARD])
    eq(cards(events), [(UID_A, False), (UID_C, False), (UID_C, True)])
    eq(drv.health.frame_errors, 2)
    eq(reader.written, b"")  # the driver never talks to a line reader
    eq(drv.poll(100000), [])  # silence is not an alarm for a reader that only speaks when read


def test_ascii_shoe_silence_alarm_when_configured():
    reader = SimAsciiReader(framed=True, ending=b"")
    drv = shoe.Shoe(reader, "ascii", config=ShoeConfig(stopped_after_ms=1000))
    reader.present(UID_A)
    eq(cards(drv.poll(0)), [(UID_A, False)])
    eq(kinds(drv.poll(999)), [])
    eq(kinds(drv.poll(1000)), [STOPPED])
    reader.present(UID_B)
    eq(kinds(drv.poll(1500)), [RECOVERED, CARD])


def test_unknown_protocol_is_refused():
    try:
        shoe.Shoe(SimPN532(), "morse")
    except ValueError as e:
        assert "morse" in str(e)
    else:
        raise AssertionError("no error")


def test_health_as_dict_has_the_counters():
    chip, uart, drv, _ = started()
    chip.present(UID_A)
    drv.poll(10)
    d = drv.health.as_dict()
    eq((d["reads"], d["frame_errors"], d["timeouts"], d["last_seen_ms"], d["stopped"]), (1, 0, 0, 10, False))


def test_shoe_over_the_sim_hal_uart():
    # The same models attached to the sim backend's UART (felt.hal.sim.hal), as `feltctl sim` does.
    from felt.hal.sim.hal import SimHAL

    hal = SimHAL()
    uart = hal.uart(1, baud=115200)
    chip = uart.attach(SimPN532())
    drv = shoe.Shoe(uart, "pn532")
    eq(kinds(drv.poll(0)), [READY])
    chip.present(UID_B)
    eq(cards(drv.poll(10)), [(UID_B, False)])
    assert bytes(uart.sent).startswith(pn532.WAKEUP)
    reader_uart = hal.uart(2, baud=9600)
    reader = reader_uart.attach(SimAsciiReader())
    line_drv = shoe.Shoe(reader_uart, "ascii")
    eq(line_drv.poll(0), [])
    reader.present(UID_A)
    eq(cards(line_drv.poll(5)), [(UID_A, False)])


def test_sim_models_read_contract():
    chip = SimPN532(asleep=False)
    eq(chip.read(4), b"")
    chip.write(pn532.get_firmware_version())
    eq(chip.read(-1)[:6], pn532.ACK)
    eq(chip.any(), 0)
    reader = SimAsciiReader()
    reader.present(UID_A)
    eq(reader.read(4), b"DEAD")
    eq(reader.read(), b"BEEF\r\n")
    eq(reader.read(1), b"")


def test_sim_models_write_reports_every_byte_taken():
    # machine.UART.write returns the bytes written; the sleeping chip returned only the count
    # after its wake-up byte (the 0x55 and anything before it went uncounted).
    wire = pn532.WAKEUP + pn532.sam_configuration()
    eq(SimPN532().write(wire), len(wire))
    eq(SimPN532().write(b"\x00\x00"), 2)  # asleep, no wake-up byte: swallowed, still all taken
    eq(SimPN532(asleep=False).write(wire), len(wire))
    eq(SimAsciiReader().write(b"hello"), 5)


class AnswerRacesAbort(Recorder):
    """The chip answers a card just as the host's poll window runs out: the D5 4B frame is already
    on the wire when the host writes the abort ACK (UM0701-02 6.2.1.3: an ACK for a command that
    has finished aborts nothing) and the next InListPassiveTarget."""

    def __init__(self, device, uid):
        Recorder.__init__(self, device)
        self.uid = uid

    def write(self, data):
        if bytes(data) == pn532.ACK and self.uid is not None:
            self.device.present(self.uid)  # the answer leaves the chip before the ACK arrives
            self.uid = None
        return Recorder.write(self, data)


def test_card_answered_as_the_poll_window_closes_is_not_lost():
    chip = SimPN532()
    uart = AnswerRacesAbort(chip, UID_A)
    drv = shoe.Shoe(uart, "pn532")
    eq(kinds(drv.poll(0)), [READY])
    events = drv.poll(500)  # window over: ACK + InListPassiveTarget written, the card answer arrives
    events += drv.poll(510)
    eq(cards(events), [(UID_A, False)])
    eq([e for e in events if e.kind == FAULT], [])
    eq(drv.health.chip_errors, 0)
    chip.present(UID_B)  # and the re-issued poll still works
    eq(cards(drv.poll(520)), [(UID_B, False)])
