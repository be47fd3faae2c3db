# PN532 shoe driver (felt.drivers.shoe) against a simulated chip whose answers lose bytes on the
# wire: the broken answer is asked for again with a NACK and the card is reported exactly once;
# a chip that keeps garbling gives the named LOST_RESPONSE fault (hardware/protocols/pn532-hsu.md).
from check import eq

from felt.drivers import shoe
from felt.drivers.shoe import CARD, FAULT, LOST_RESPONSE, READY, ShoeConfig
from felt.hal.sim.pn532 import SimPN532
from felt.proto import pn532

UID_A = bytes.fromhex("DEADBEEF")
UID_B = bytes.fromhex("047BCB51962280")
UID_ZERO = bytes.fromhex("DE00BEEF")  # a lost 00 byte of this UID keeps the frame's DCS valid
GAP = ShoeConfig().inter_byte_ms


class Recorder:
    """UART wrapper that records every write; `eat_nacks` swallows the host's NACKs."""

    def __init__(self, device, eat_nacks=False):
        self.device = device
        self.writes = []
        self.eat_nacks = eat_nacks

    def write(self, data):
        self.writes.append(bytes(data))
        if self.eat_nacks and bytes(data) == pn532.NACK:
            return len(data)
        return self.device.write(data)

    def any(self):
        return self.device.any()

    def read(self, n):
        return self.device.read(n)


def started(config=None, eat_nacks=False):
    chip = SimPN532()
    uart = Recorder(chip, eat_nacks)
    drv = shoe.Shoe(uart, "pn532", config=config)
    eq([e.kind for e in drv.poll(0)], [READY])
    return chip, uart, drv


def run(drv, start, stop, step=1):
    events = []
    for t in range(start, stop, step):
        events.extend(drv.poll(t))
    return events


def cards(events):
    return [(e.uid, e.repeat) for e in events if e.kind == CARD]


def answer_length(uid):
    return len(pn532.encode_response(pn532.CMD_IN_LIST_PASSIVE_TARGET, b"\x01\x01\x00\x04\x08" + bytes([len(uid)]) + uid))


def test_inter_byte_timeout_follows_the_baud_rate():
    eq(ShoeConfig().inter_byte_ms, 4)  # 32 characters at 115200 baud = 2.8 ms, rounded up, + 1
    eq(ShoeConfig(baud=9600).inter_byte_ms, 35)
    eq(ShoeConfig(inter_byte_ms=10).inter_byte_ms, 10)


def test_card_answer_with_a_dropped_byte_anywhere_is_reported_once_via_nack():
    for uid in (UID_A, UID_B, UID_ZERO):
        for i in range(answer_length(uid)):
            chip, uart, drv = started()
            chip.drop_byte_in_next_response(i)
            chip.present(uid)
            events = run(drv, 10, 40)
            eq(cards(events), [(uid, False)], "UID %s, byte %d dropped" % (uid.hex(), i))
            eq([e for e in events if e.reason == LOST_RESPONSE], [])
            eq(drv.health.reads, 1)
            if i > 1:  # a lost preamble / start-code 00 leaves the frame whole: nothing to ask again
                eq(uart.writes.count(pn532.NACK), 1, "byte %d" % i)
                eq(drv.health.nacks, 1)
                eq(drv.health.lost_responses, 0)
            chip.present(UID_C)  # the dialogue goes on
            eq(cards(run(drv, 40, 50)), [(UID_C, False)])


UID_C = bytes.fromhex("01020304")


def test_nack_waits_for_the_inter_byte_gap_not_less():
    chip, uart, drv = started()
    chip.drop_byte_in_next_response(-1)  # the postamble: the frame waits for a byte that never comes
    chip.present(UID_A)
    eq(cards(drv.poll(10)), [])
    eq(drv.poll(10 + GAP - 1), [])
    assert pn532.NACK not in uart.writes
    events = drv.poll(10 + GAP)
    eq([e.kind for e in events], [FAULT, CARD])
    assert "cut short" in events[0].detail
    eq(uart.writes.count(pn532.NACK), 1)


def test_a_run_of_dropped_bytes_is_recovered_too():
    chip, uart, drv = started()
    chip.drop_byte_in_next_response(7, count=5)
    chip.present(UID_B)
    eq(cards(run(drv, 10, 30)), [(UID_B, False)])
    eq(drv.health.nacks, 1)


def test_a_chip_that_keeps_garbling_gives_the_named_fault_after_the_retry_bound():
    chip, uart, drv = started(ShoeConfig(max_nacks=3, retry_ms=200))
    chip.drop_byte_in_next_response(10, times=4)  # the answer and each of its 3 resends lose a byte
    chip.present(UID_A)
    events = run(drv, 10, 100)
    eq(cards(events), [])
    lost = [e for e in events if e.reason == LOST_RESPONSE]
    eq(len(lost), 1)
    eq(lost[0].kind, FAULT)
    assert "card answer lost" in lost[0].detail and "3 NACKs" in lost[0].detail
    eq(uart.writes.count(pn532.NACK), 3)
    eq((drv.health.nacks, drv.health.lost_responses), (3, 1))
    eq(drv.health.as_dict()["lost_responses"], 1)
    eq(drv.health.frame_errors, 4)  # the answer and its three resends
    # The driver re-initialises after retry_ms and reads the next card.
    chip.present(UID_B)
    events = run(drv, 100, 400, 10)
    eq(cards(events), [(UID_B, False)])


def test_a_resend_that_never_comes_is_a_lost_response_not_an_empty_poll():
    chip, uart, drv = started(ShoeConfig(response_timeout_ms=200), eat_nacks=True)
    chip.drop_byte_in_next_response(8)
    chip.present(UID_A)
    events = run(drv, 10, 20) + drv.poll(10 + GAP + 199)
    eq([e.reason for e in events if e.kind == FAULT], [None])  # the broken frame, NACKed
    events = drv.poll(10 + GAP + 200)
    eq([e.reason for e in events if e.kind == FAULT], [LOST_RESPONSE])
    assert "no resend" in events[0].detail
    eq(drv.health.empty_polls, 0)
    eq(drv.health.lost_responses, 1)


def test_resend_of_a_card_already_reported_is_not_a_second_card():
    chip, uart, drv = started()
    chip.present(UID_A)
    eq(cards(drv.poll(10)), [(UID_A, False)])
    # Noise on the line while the chip still waits for the next tag: the driver takes it for a
    # broken answer and NACKs; the chip resends its last answer -- UID_A's, already reported.
    chip.noise(b"\x13\x37\xaa")
    events = run(drv, 20, 20 + 3 * GAP)
    eq(cards(events), [])
    eq(uart.writes.count(pn532.NACK), 1)
    eq(drv.health.resends_dropped, 1)
    eq(drv.health.reads, 1)
    # The command is still held by the chip: the next tag answers it.
    chip.present(UID_B)
    eq(cards(drv.poll(100)), [(UID_B, False)])
    eq(drv.health.lost_responses, 0)


def test_answer_whose_ack_was_lost_is_still_taken():
    class EatFirstAck(Recorder):
        def __init__(self, device):
            Recorder.__init__(self, device)
            self.armed = False

        def read(self, n):
            data = self.device.read(n)
            if self.armed and data.startswith(pn532.ACK):
                self.armed = False
                data = data[len(pn532.ACK):]
            return data

    chip = SimPN532()
    uart = EatFirstAck(chip)
    drv = shoe.Shoe(uart, "pn532")
    drv.poll(0)
    chip.present(UID_A)
    uart.armed = True
    events = drv.poll(10)  # the next poll's ACK is lost; its answer follows
    chip.present(UID_B)
    events += drv.poll(20)
    eq(cards(events), [(UID_A, False), (UID_B, False)])
    eq(drv.health.timeouts, 0)
