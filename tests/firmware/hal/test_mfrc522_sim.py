# The simulated MFRC522 itself, poked through raw SPI bytes: register semantics the driver relies
# on (datasheet rev 3.9) and the ISO/IEC 14443-3 tag states.
import check
from check import eq

from felt.runtime import board as boards
from felt.hal.sim.hal import SimClock, SimHAL
from felt.hal.sim.mfrc522 import SimMFRC522, SimTag, attach_chips, crc_a


def xfer(chip, *out):
    inb = bytearray(len(out))
    chip.spi_transfer(bytes(out), inb)
    return bytes(inb)


def chip_with_timer():
    chip = SimMFRC522(SimClock())
    xfer(chip, 0x2A << 1, 0x80)  # TModeReg: TAuto
    xfer(chip, 0x2B << 1, 0xA9)  # TPrescalerReg 169
    xfer(chip, 0x2D << 1, 39)  # TReloadReg low
    return chip


def test_read_burst_answers_each_address_in_the_next_byte():
    chip = SimMFRC522(SimClock())
    eq(xfer(chip, 0xEE, 0xEE, 0x00), bytes([0x00, 0x92, 0x92]))  # VersionReg twice


def test_fifo_write_level_read_and_flush():
    chip = SimMFRC522(SimClock())
    xfer(chip, 0x12, 1, 2, 3)  # three bytes into FIFODataReg
    eq(xfer(chip, 0x94, 0x00)[1], 3)  # FIFOLevelReg
    eq(xfer(chip, 0x92, 0x92, 0x00), bytes([0, 1, 2]))
    xfer(chip, 0x14, 0x80)  # FlushBuffer
    eq(xfer(chip, 0x94, 0x00)[1], 0)


def test_irq_register_set1_semantics():
    chip = SimMFRC522(SimClock())
    xfer(chip, 0x08, 0x7F)  # Set1 = 0: clear every marked bit
    eq(xfer(chip, 0x88, 0x00)[1], 0x00)
    xfer(chip, 0x08, 0x81)  # Set1 = 1: set bit 0
    eq(xfer(chip, 0x88, 0x00)[1], 0x01)


def test_soft_reset_restores_defaults():
    chip = SimMFRC522(SimClock())
    xfer(chip, 0x28, 0x83)
    eq(chip.field_is_on(), True)
    xfer(chip, 0x02, 0x0F)
    eq(chip.field_is_on(), False)
    eq(xfer(chip, 0xA8, 0x00)[1], 0x80)  # TxControlReg reset value


def test_timer_period_from_registers():
    chip = chip_with_timer()
    eq(chip.timer_period_ns(), 1000000)
    xfer(chip, 0x2C << 1, 0x03)
    xfer(chip, 0x2D << 1, 0xE7)  # TReload 999
    eq(chip.timer_period_ns(), 25000000)


def test_no_tag_gives_timer_irq_after_one_period():
    chip = chip_with_timer()
    xfer(chip, 0x28, 0x83)  # field on
    chip.clock.advance_ms(6)
    xfer(chip, 0x08, 0x7F)  # clear ComIrqReg (it resets to 0x14: IdleIRq, LoAlertIRq)
    xfer(chip, 0x12, 0x26)
    xfer(chip, 0x1A, 0x07)
    xfer(chip, 0x02, 0x0C)
    t0 = chip.clock.now_us
    xfer(chip, 0x1A, 0x87)  # StartSend
    eq(xfer(chip, 0x88, 0x00)[1] & 0x31, 0x01)  # TimerIRq only
    waited = chip.clock.now_us - t0
    eq(1080 <= waited <= 1090, True, "waited %d us: 9 bits on air + 1 ms" % waited)


def _no_tag_wait(chip):
    xfer(chip, 0x28, 0x83)  # field on
    chip.clock.advance_ms(6)
    xfer(chip, 0x08, 0x7F)
    xfer(chip, 0x12, 0x26)
    xfer(chip, 0x1A, 0x07)
    xfer(chip, 0x02, 0x0C)
    t0 = chip.clock.now_us
    xfer(chip, 0x1A, 0x87)  # StartSend
    eq(xfer(chip, 0x88, 0x00)[1] & 0x31, 0x01)  # TimerIRq only
    return chip.clock.now_us - t0


def test_timing_is_the_same_after_18_minutes_of_table_time():
    # 2**21 ms: the microsecond count is past 2**31 (no small int on a 32-bit MicroPython); the
    # clock keeps ms and us apart and the chip measures spans from stamps (hardware/memory.md)
    late = chip_with_timer()
    late.clock = SimClock(start_ms=2 ** 21)
    eq(_no_tag_wait(late), _no_tag_wait(chip_with_timer()))


def test_the_clock_steps_without_allocating_past_2_30_us():
    # the 1,000-hand run on the 32-bit port ran out after 193 hands (5.54 s of table time a hand):
    # from 2**30 us on, every SPI transfer's clock step allocated a big int
    try:
        import micropython
    except ImportError:
        raise check.Skip("micropython.heap_lock is MicroPython's")
    clock = SimClock(start_ms=2 ** 21)
    micropython.heap_lock()
    try:
        for _ in range(1000):
            clock.advance_us(600)
            span = clock.since_us(2 ** 21, 0)
        clock.advance_to_ms(clock.ticks_ms() + 1)
    finally:
        micropython.heap_unlock()
    eq(span, 600000)
    eq(clock.ticks_ms(), 2 ** 21 + 601)


def test_spin_reads_see_nothing_first():
    chip = chip_with_timer()
    chip.spin_reads = 2
    xfer(chip, 0x28, 0x83)
    chip.clock.advance_ms(6)
    xfer(chip, 0x08, 0x7F)  # clear ComIrqReg (it resets to 0x14: IdleIRq, LoAlertIRq)
    xfer(chip, 0x12, 0x26)
    xfer(chip, 0x1A, 0x07)
    xfer(chip, 0x02, 0x0C)
    xfer(chip, 0x1A, 0x87)
    eq([xfer(chip, 0x88, 0x00)[1] & 0x31 for _ in range(3)], [0, 0, 0x01])


def test_silent_chip_reads_zero_and_ignores_writes():
    chip = SimMFRC522(SimClock())
    chip.silent = True
    xfer(chip, 0x28, 0x83)
    eq(chip.field_is_on(), False)
    eq(xfer(chip, 0xEE, 0x00), b"\x00\x00")


def test_tag_states_reqa_halt_wupa_and_power_off():
    tag = SimTag(bytes([1, 2, 3, 4]))
    chip = SimMFRC522(SimClock())
    chip.place(tag)
    xfer(chip, 0x28, 0x83)
    chip.clock.advance_ms(6)
    eq(chip._answer(b"\x26", 7), 1)  # one tag answers: ATQA 04 00
    eq((chip._ans_v, chip._ans_w), (0x0004, 16))
    eq(tag.state, 2)  # READY
    sel = bytes([0x93, 0x70, 1, 2, 3, 4, 1 ^ 2 ^ 3 ^ 4])
    crc = crc_a(sel)
    eq(chip._answer(sel + bytes([crc & 0xFF, crc >> 8]), 72), 1)
    eq(chip._ans_v & 0xFF, 0x08)  # SAK of a MIFARE Classic 1K
    eq(tag.state, 3)  # ACTIVE
    eq(chip._answer(bytes([0x50, 0x00, 0x57, 0xCD]), 32), 0)
    eq(tag.state, 4)  # HALT
    eq(chip._answer(b"\x26", 7), 0)  # REQA does not wake a halted tag
    eq(chip._answer(b"\x52", 7), 1)  # WUPA does
    xfer(chip, 0x28, 0x80)  # field off
    eq(tag.state, 0)  # POWER_OFF


def test_cascade_frames_and_atqa_by_uid_size():
    t7 = SimTag(bytes([4, 1, 2, 3, 4, 5, 6]))
    eq(t7.cl_frame(0), bytes([0x88, 4, 1, 2, 0x88 ^ 4 ^ 1 ^ 2]))
    eq(t7.cl_frame(1), bytes([3, 4, 5, 6, 3 ^ 4 ^ 5 ^ 6]))
    eq(t7.atqa, b"\x44\x00")
    eq(SimTag(bytes(10)).atqa, b"\x84\x00")
    eq(SimTag(bytes(10)).levels, 3)


def test_attach_chips_for_a_board():
    import json

    with open(check.repo_path("hardware/boards/pico.json")) as f:
        b = boards.load(json.load(f))
    hal = SimHAL()
    chips = attach_chips(hal, b)
    eq(len(chips), 13)
    devices = dict(boards.open_antenna_devices(b, hal))
    out = bytearray(b"\xEE\x00")
    inb = bytearray(2)
    devices["muck"].transfer(out, inb)
    eq(inb[1], 0x92)
    eq(hal.spi_bus(0).transfers, {("74HC154", 12): 1})


def test_a_reqa_select_halt_exchange_allocates_nothing():
    # on the emulated board the simulated chips share the firmware's heap, and the WebAssembly port
    # collects only between main-loop steps: a sweep of 13 chips made ~27 KB of garbage there, most of
    # it FIFO slices, answer lists and frame bytes of this model (hardware/memory.md, "Third round")
    try:
        import micropython
    except ImportError:
        raise check.Skip("micropython.heap_lock is MicroPython's")
    tag = SimTag(bytes([1, 2, 3, 4]))
    chip = chip_with_timer()
    chip.frame_log = 0
    chip.place(tag)
    sel = bytes([0x93, 0x70, 1, 2, 3, 4, 1 ^ 2 ^ 3 ^ 4])
    crc = crc_a(sel)
    w_sel = bytes([0x12]) + sel + bytes([crc & 0xFF, crc >> 8])  # FIFO_DATA <- SELECT CL1 + CRC_A
    steps = (bytes((0x28, 0x83)),  # TxControlReg: field on
             bytes((0x14, 0x80)), bytes((0x12, 0x26)), bytes((0x1A, 0x07)),  # flush, REQA, 7 bits
             bytes((0x02, 0x0C)), bytes((0x1A, 0x87)),  # Transceive, StartSend
             bytes((0x88, 0x00)), bytes((0x94, 0x00)), bytes((0x92, 0x92, 0x00)),  # ComIrq, level, ATQA
             bytes((0x14, 0x80)), w_sel, bytes((0x1A, 0x80)),  # SELECT, StartSend
             bytes((0x88, 0x00)), bytes((0x92, 0x92, 0x92, 0x00)),  # SAK + CRC_A
             bytes((0x14, 0x80)), bytes((0x12, 0x50, 0x00, 0x57, 0xCD)), bytes((0x1A, 0x80)))  # HLTA
    ins = [bytearray(len(s)) for s in steps]
    off = bytes((0x28, 0x80))
    for locked in (False, True):  # once to warm up (a tag's first answer gives it its own state)
        chip.spi_transfer(off, ins[0])
        chip.spi_transfer(steps[0], ins[0])
        chip.clock.advance_ms(6)  # the tag powers up
        if not locked:
            for i in range(1, len(steps)):
                chip.spi_transfer(steps[i], ins[i])
            continue
        micropython.heap_lock()
        try:
            for i in range(1, len(steps)):
                chip.spi_transfer(steps[i], ins[i])
        finally:
            micropython.heap_unlock()
    eq(bytes(ins[8][1:]), b"\x04\x00")  # ATQA
    eq(ins[13][1], 0x08)  # SAK of a MIFARE Classic 1K
    eq(tag.state, 4)  # HALT
