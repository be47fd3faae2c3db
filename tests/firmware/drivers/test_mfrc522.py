# MFRC522 driver against the register-level simulated chip (sim HAL, manual clock, no sleeps).
# Byte-level examples follow hardware/protocols/mfrc522.md.
from check import eq, raises

from felt.errors import DeviceTimeout
from felt.drivers import mfrc522
from felt.drivers.mfrc522 import MFRC522
from felt.hal.sim.hal import SimHAL
from felt.hal.sim.mfrc522 import SimMFRC522, SimTag, crc_a

UID4 = bytes([0xDE, 0xAD, 0xBE, 0xEF])
UID7 = bytes([0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
UID7B = bytes([0x04, 0x11, 0x23, 0x33, 0x44, 0x55, 0x66])  # differs from UID7 in bit 8 of CL1
UID10 = bytes([0x04, 1, 2, 3, 4, 5, 6, 7, 8, 9])


def rig(timeout_us=1000, cs=17):
    hal = SimHAL()
    bus = hal.spi(0)
    chip = bus.attach(cs, SimMFRC522(hal.clock))
    reader = MFRC522(bus.device(cs), timeout_us=timeout_us, name="seat1")
    reader.init()
    return hal, chip, reader


def scan(hal, chip, reader, settle_ms=6):
    reader.field(True)
    hal.clock.advance_ms(settle_ms)
    t0 = hal.clock.now_us
    result = reader.inventory()
    reader.field(False)
    return result, hal.clock.now_us - t0


class Recorder:
    """An SPIDevice that records every transfer and answers `reply` bytes."""

    def __init__(self, reply=0):
        self.sent = []
        self.reply = reply

    def transfer(self, out_buf, in_buf):
        self.sent.append(bytes(out_buf))
        for i in range(len(in_buf)):
            in_buf[i] = self.reply


def test_register_write_address_byte():
    dev = Recorder()
    MFRC522(dev).write_reg(0x01, 0x0F)  # CommandReg <- SoftReset
    eq(dev.sent, [bytes([0x02, 0x0F])])  # 0 (write) | 000001 (address) | 0 -> 0x02


def test_register_read_address_byte():
    dev = Recorder(reply=0x92)
    eq(MFRC522(dev).read_reg(0x37), 0x92)  # VersionReg
    eq(dev.sent, [bytes([0xEE, 0x00])])  # 1 (read) | 110111 | 0 -> 0xEE, then a dummy 0x00


def test_crc_a_vectors():
    eq(crc_a(b"\x50\x00"), 0xCD57)  # HLTA 50 00 is sent as 50 00 57 CD
    eq(crc_a(b"\x00\x00"), 0x1EA0)  # ISO/IEC 14443-3 annex B example
    eq(crc_a(b"\x12\x34"), 0xCF26)  # annex B: 12 34 is sent as 12 34 26 CF


def test_crc_coprocessor_matches_reference():
    hal, chip, reader = rig()
    out = bytearray(4)
    reader.crc_a(b"\x50\x00", 2, out, 2)
    eq(bytes(out[2:]), b"\x57\xCD")


def test_timer_settings_from_timeout():
    eq(mfrc522.timer_settings(1000), (169, 39))  # 25 us ticks * 40 = 1 ms
    eq(mfrc522.timer_period_us(169, 39), 1000)
    eq(mfrc522.timer_settings(25000), (169, 999))
    eq(mfrc522.timer_period_us(169, 999), 25000)
    with raises(ValueError):
        mfrc522.timer_settings(2000000)


def test_init_programs_timer_and_leaves_field_off():
    hal, chip, reader = rig()
    eq(reader.version, 0x92)
    eq(chip.regs[0x2A], 0x80)  # TModeReg: TAuto, prescaler high nibble 0
    eq(chip.regs[0x2B], 0xA9)  # TPrescalerReg = 169
    eq((chip.regs[0x2C], chip.regs[0x2D]), (0x00, 0x27))  # TReloadReg = 39
    eq(chip.regs[0x11], 0x3D)  # ModeReg: CRC preset 6363h
    eq(chip.field_is_on(), False)
    eq(chip.timer_period_ns(), 1000000)


def test_reqa_is_a_seven_bit_short_frame():
    hal, chip, reader = rig()
    chip.place(SimTag(UID4))
    reader.field(True)
    hal.clock.advance_ms(6)
    eq(reader.request(), mfrc522.OK)
    eq(chip.frames[-1], (b"\x26", 7))
    eq(bytes(reader.rx[:2]), b"\x04\x00")  # ATQA of a single-size UID


def test_read_4_byte_uid():
    hal, chip, reader = rig()
    chip.place(SimTag(UID4))
    result, _ = scan(hal, chip, reader)
    eq(result.uids, [UID4])
    eq(result.errors(), 0)
    sent = [f for f, _n in chip.frames]
    eq(sent[1], b"\x93\x20")  # ANTICOLLISION CL1, NVB 0x20
    sel = sent[2]
    eq(sel[:7], b"\x93\x70\xDE\xAD\xBE\xEF" + bytes([0xDE ^ 0xAD ^ 0xBE ^ 0xEF]))
    eq(sel[7] | (sel[8] << 8), crc_a(sel[:7]))  # SELECT carries CRC_A from the coprocessor
    eq(sent[3][:2], b"\x50\x00")  # HLTA after the read


def test_read_7_byte_uid_uses_cascade_level_2():
    hal, chip, reader = rig()
    chip.place(SimTag(UID7))
    result, _ = scan(hal, chip, reader)
    eq(result.uids, [UID7])
    sels = [f for f, n in chip.frames if n == 72]
    eq(sels[0][2:7], bytes([0x88, 0x04, 0x11, 0x22, 0x88 ^ 0x04 ^ 0x11 ^ 0x22]))  # CT + UID0..2 + BCC
    eq(sels[1][0], 0x95)
    eq(sels[1][2:6], bytes([0x33, 0x44, 0x55, 0x66]))


def test_read_10_byte_uid_uses_cascade_level_3():
    hal, chip, reader = rig()
    chip.place(SimTag(UID10))
    result, _ = scan(hal, chip, reader)
    eq(result.uids, [UID10])
    eq([f[0] for f, n in chip.frames if n == 72], [0x93, 0x95, 0x97])


def test_collision_resolved_into_both_cards():
    hal, chip, reader = rig()
    chip.place(SimTag(UID7))
    chip.place(SimTag(UID7B))
    result, _ = scan(hal, chip, reader)
    eq(sorted(result.uids), [UID7, UID7B])
    eq(result.collisions >= 1, True)
    # after the collision the PCD sends the known bits in a bit-oriented frame (NVB != 0x20)
    eq(any(f[0] == 0x93 and f[1] not in (0x20, 0x70) for f, _n in chip.frames), True)


def test_three_cards_of_mixed_sizes():
    hal, chip, reader = rig()
    for uid in (UID4, UID7, UID7B):
        chip.place(SimTag(uid))
    result, _ = scan(hal, chip, reader)
    eq(sorted(result.uids), sorted([UID4, UID7, UID7B]))


def test_crc_error_counted_then_recovers():
    hal, chip, reader = rig()
    tag = chip.place(SimTag(UID4))
    tag.bad_crc = 1
    result, _ = scan(hal, chip, reader)
    eq((result.uids, result.crc_errors), ([], 1))
    result, _ = scan(hal, chip, reader)
    eq((result.uids, result.crc_errors), ([UID4], 0))


def test_bcc_error_is_a_frame_error():
    hal, chip, reader = rig()
    tag = chip.place(SimTag(UID4))
    tag.bad_bcc = 1
    result, _ = scan(hal, chip, reader)
    eq((result.uids, result.frame_errors), ([], 1))


def test_protocol_error_is_a_frame_error():
    hal, chip, reader = rig()
    chip.place(SimTag(UID4))
    chip.frame_error_next = 1
    result, _ = scan(hal, chip, reader)
    eq((result.uids, result.frame_errors), ([], 1))


def test_empty_antenna_costs_about_one_timer_period():
    hal, chip, reader = rig()
    result, cost_us = scan(hal, chip, reader)
    eq(result.uids, [])
    eq(1000 < cost_us < 1500, True, "empty poll %d us" % cost_us)
    hal, chip, reader = rig(timeout_us=25000)  # the common 25 ms library setting
    result, cost_us = scan(hal, chip, reader)
    eq(25000 < cost_us < 25500, True, "empty poll %d us" % cost_us)


def test_tag_needs_field_guard_time():
    hal, chip, reader = rig()
    chip.place(SimTag(UID4, power_up_us=5000))
    result, _ = scan(hal, chip, reader, settle_ms=1)
    eq(result.uids, [])
    result, _ = scan(hal, chip, reader, settle_ms=6)
    eq(result.uids, [UID4])


def test_halted_tag_answers_wupa_not_reqa():
    hal, chip, reader = rig()
    chip.place(SimTag(UID4))
    reader.field(True)
    hal.clock.advance_ms(6)
    result = reader.inventory()
    eq(result.uids, [UID4])  # and now halted
    eq(reader.request(), mfrc522.NO_TAG)
    eq(reader.request(wupa=True), mfrc522.OK)
    eq(chip.frames[-1], (b"\x52", 7))


def test_field_off_resets_tags():
    hal, chip, reader = rig()
    chip.place(SimTag(UID4))
    for _ in range(3):  # HLTA'd each time, but the field-off in between powers the tag down
        result, _ = scan(hal, chip, reader)
        eq(result.uids, [UID4])


def test_removed_tag_is_gone():
    hal, chip, reader = rig()
    tag = chip.place(SimTag(UID4))
    chip.remove(tag)
    result, _ = scan(hal, chip, reader)
    eq(result.uids, [])


def test_spinning_reads_before_interrupt():
    hal, chip, reader = rig()
    chip.place(SimTag(UID4))
    chip.spin_reads = 7
    result, _ = scan(hal, chip, reader)
    eq(result.uids, [UID4])


def test_silent_chip_raises_device_timeout():
    hal = SimHAL()
    bus = hal.spi(0)
    chip = bus.attach(5, SimMFRC522(hal.clock))
    chip.silent = True
    reader = MFRC522(bus.device(5), name="board")
    with raises(DeviceTimeout, match="board"):
        reader.init()
    with raises(DeviceTimeout, match="not answering"):
        reader.field(True)


def test_no_chip_on_chip_select():
    hal = SimHAL()
    reader = MFRC522(hal.spi(0).device(9), name="muck")
    with raises(DeviceTimeout, match="muck"):
        reader.init()


def test_timer_that_never_fires_is_bounded():
    hal, chip, reader = rig()
    reader.max_spins = 50
    reader.write_reg(0x2A, 0x00)  # TAuto off: nothing will end the wait
    reader.field(True)
    hal.clock.advance_ms(6)
    with raises(DeviceTimeout, match="no interrupt in 50 reads"):
        reader.request()


def test_version_register_values():
    hal = SimHAL()
    bus = hal.spi(0)
    chip = bus.attach(5, SimMFRC522(hal.clock, version=0x91))
    eq(MFRC522(bus.device(5)).init(), 0x91)
    chip2 = bus.attach(6, SimMFRC522(hal.clock, version=0x00))
    with raises(DeviceTimeout, match="VersionReg 0x00"):
        MFRC522(bus.device(6)).init()
    eq(chip2.version, 0x00)


class Tap:
    """Wraps an SPIDevice and records (MOSI, MISO) of every transfer."""

    def __init__(self, device):
        self.device = device
        self.cs = device.cs
        self.log = []

    def transfer(self, out_buf, in_buf):
        self.device.transfer(out_buf, in_buf)
        self.log.append((bytes(out_buf), bytes(in_buf)))


def test_reqa_bytes_as_in_the_protocol_notes():
    # hardware/protocols/mfrc522.md, "Transceive sequence (REQA, byte level)"
    hal = SimHAL()
    chip = hal.spi(0).attach(17, SimMFRC522(hal.clock))
    tap = Tap(hal.spi(0).device(17))
    reader = MFRC522(tap)
    reader.init()
    chip.place(SimTag(bytes([0x04, 0x52, 0x19, 0xA2, 0x7C, 0x3B, 0x80])))
    reader.field(True)
    hal.clock.advance_ms(6)
    tap.log = []
    eq(reader.request(), mfrc522.OK)
    eq([o for o, _i in tap.log], [b"\x02\x00", b"\x08\x7F", b"\x14\x80", b"\x12\x26", b"\x1A\x07", b"\x02\x0C",
                                  b"\x1A\x87", b"\x88\x00", b"\x8C\x94\x98\x00", b"\x92\x92\x00"])
    eq(tap.log[8][1][1:], b"\x00\x02\x10")  # one burst: ErrorReg clean, 2 bytes in the FIFO, RxLastBits 0
    eq(tap.log[7][1][1], 0x30)  # RxIRq | IdleIRq
    eq(tap.log[-1][1][1:], b"\x44\x00")  # ATQA


def test_select_frames_as_in_the_protocol_notes():
    # hardware/protocols/mfrc522.md, "Anticollision and select, 7-byte UID 04 52 19 A2 7C 3B 80"
    hal, chip, reader = rig()
    chip.place(SimTag(bytes([0x04, 0x52, 0x19, 0xA2, 0x7C, 0x3B, 0x80])))
    scan(hal, chip, reader)
    eq([f for f, _n in chip.frames[1:6]], [
        bytes([0x93, 0x20]),
        bytes([0x93, 0x70, 0x88, 0x04, 0x52, 0x19, 0xC7, 0x64, 0xBD]),
        bytes([0x95, 0x20]),
        bytes([0x95, 0x70, 0xA2, 0x7C, 0x3B, 0x80, 0x65, 0x03, 0xA7]),
        bytes([0x50, 0x00, 0x57, 0xCD]),
    ])


def test_collision_frame_as_in_the_protocol_notes():
    # hardware/protocols/mfrc522.md, "Collisions": CollPos 25 -> 93 51 88 04 11 01 (41 bits)
    hal, chip, reader = rig()
    chip.place(SimTag(bytes([0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])))
    chip.place(SimTag(bytes([0x04, 0x11, 0x23, 0x33, 0x44, 0x55, 0x66])))
    scan(hal, chip, reader)
    eq(chip.frames[2], (bytes([0x93, 0x51, 0x88, 0x04, 0x11, 0x01]), 41))
    eq(chip.frames[3][0][:8], bytes([0x93, 0x70, 0x88, 0x04, 0x11, 0x23, 0xBE, 0xE2]))


def test_known_cards_are_selected_again_without_anticollision():
    # hardware/protocols/mfrc522.md, "Cards already known (reselect)"
    hal, chip, reader = rig()
    a = chip.place(SimTag(UID7))
    chip.place(SimTag(UID7B))
    first, _us = scan(hal, chip, reader)
    eq(sorted(first.uids), sorted([UID7, UID7B]))
    eq(first.collisions, 1)  # resolved by anticollision the first time
    chip.frames = []
    again, _us = scan(hal, chip, reader)
    eq(sorted(again.uids), sorted([UID7, UID7B]))
    sent = [f for f, _n in chip.frames]
    eq([f[:2] for f in sent if f[0] in (0x93, 0x95)], [b"\x93\x70", b"\x95\x70"] * 2)  # SELECTs only
    eq(sent.count(bytes([0x50, 0x00, 0x57, 0xCD])), 2)  # each halted
    eq(sent[-1], b"\x26")  # the last REQA finds nothing new
    eq(again.collisions, 0)
    chip.remove(a)  # taken away: not read, and not selected by mistake
    gone, _us = scan(hal, chip, reader)
    eq(gone.uids, [UID7B])
    eq(gone.errors(), 0)
    chip.place(SimTag(UID4))  # a new card beside a known one: found by REQA + anticollision
    more, _us = scan(hal, chip, reader)
    eq(sorted(more.uids), sorted([UID7B, UID4]))


def test_known_card_answering_wrong_is_an_error_not_a_miss():
    hal, chip, reader = rig()
    tag = chip.place(SimTag(UID7))
    scan(hal, chip, reader)
    tag.bad_crc = 1  # the SAK of the next SELECT arrives with a broken CRC_A
    bad, _us = scan(hal, chip, reader)
    eq((bad.uids, bad.crc_errors), ([], 1))
    good, _us = scan(hal, chip, reader)
    eq(good.uids, [UID7])


def test_decoder_address_once_per_line_enable_per_transfer():
    # issue 20: the 74HC154 address pins move only when another chip is selected; /E every transfer
    from felt.hal import Decoder

    class Out:
        def __init__(self, name, log):
            self.name = name
            self.log = log

        def value(self, v):
            self.log.append((self.name, v))

    log = []
    d = Decoder([Out("A%d" % i, log) for i in range(4)], Out("E", log))
    five = d.line(5)
    six = d.line(6)
    del log[:]
    for _ in range(3):
        five.value(0)
        five.value(1)
    # /E is driven high before the address moves (it is high already, unless an exchange raised)
    eq(log, [("E", 1), ("A0", 1), ("A1", 0), ("A2", 1), ("A3", 0)] + [("E", 0), ("E", 1)] * 3)
    del log[:]
    six.value(0)
    six.value(1)
    eq(log, [("E", 1), ("A0", 0), ("A1", 1), ("A2", 1), ("A3", 0), ("E", 0), ("E", 1)])
