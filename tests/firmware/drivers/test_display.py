# SSD1306 display driver against the byte-level sim panel: init sequence, page addressing, only
# changed pages sent, text read back from the pixels.
from check import MICROPYTHON, Skip, eq, raises

from felt.drivers.display import INIT, SSD1306
from felt.hal.sim.hal import SimHAL


def rig():
    hal = SimHAL()
    panel = hal.add_display(bus=0, addr=0x3C)
    display = SSD1306(hal.i2c(0), addr=0x3C)
    return hal, panel, display


class Recorder:
    def __init__(self):
        self.writes = []

    def writeto(self, addr, buf):
        self.writes.append((addr, bytes(buf)))


def test_init_sequence_bytes():
    bus = Recorder()
    SSD1306(bus).init()
    addr, first = bus.writes[0]
    eq(addr, 0x3C)
    eq(first[0], 0x00)  # control byte: command stream
    eq(first[1:], INIT)
    eq(first[1:3], b"\xAE\xD5")  # display off first
    eq(first[-1], 0xAF)  # display on last
    eq(b"\x8D\x14" in first, True)  # charge pump
    eq(b"\x20\x02" in first, True)  # page addressing


def test_page_write_bytes():
    bus = Recorder()
    d = SSD1306(bus)
    d.init()
    bus.writes = []
    eq(d.show(["1"]), [0])
    eq(bus.writes[0], (0x3C, b"\x00\xB0\x00\x10"))  # page 0, column 0
    eq(bus.writes[1][1][0], 0x40)  # control byte: data stream
    eq(len(bus.writes[1][1]), 129)


def test_panel_on_and_in_page_mode_after_init():
    hal, panel, d = rig()
    d.init()
    eq((panel.on, panel.mode), (True, 2))
    eq(panel.text_lines(), [""] * 8)


def test_text_lines_read_back():
    hal, panel, d = rig()
    d.init()
    d.show(["POT 1,250", "CALL 200", "LEVEL 3  25/50", "", "ANTENNA SEAT3 ?"])
    eq(panel.text_lines()[:5], ["POT 1,250", "CALL 200", "LEVEL 3  25/50", "", "ANTENNA SEAT3 ?"])
    eq(d.lines[0], "POT 1,250")


def test_only_changed_pages_are_sent():
    hal, panel, d = rig()
    d.init()
    d.show(["POT 100", "CALL 20"])
    eq(d.show(["POT 100", "CALL 40"]), [1])
    eq(d.show(["POT 100", "CALL 40"]), [])
    eq(panel.text_lines()[1], "CALL 40")


def test_refresh_after_panel_reset():
    hal, panel, d = rig()
    d.init()
    d.show(["ALL IN SEAT 4"])
    panel.ram[:] = bytes(len(panel.ram))  # the panel lost its RAM
    eq(d.refresh(), list(range(8)))
    eq(panel.text_lines()[0], "ALL IN SEAT 4")


def test_long_lines_cut_and_too_many_lines_rejected():
    hal, panel, d = rig()
    d.init()
    d.show(["ABCDEFGHIJKLMNOPQRST"])
    eq(panel.text_lines()[0], "ABCDEFGHIJKLMNOP")
    with raises(ValueError, match="8 lines"):
        d.show(["X"] * 9)


def test_missing_panel_raises_oserror():
    hal = SimHAL()
    d = SSD1306(hal.i2c(0), addr=0x3D)
    with raises(OSError):
        d.init()


def test_bytes_as_in_the_protocol_notes():
    # hardware/protocols/ssd1306.md: the init write and a page-2 write
    bus = Recorder()
    d = SSD1306(bus)
    d.init()
    eq(bus.writes[0][1], bytes([0x00, 0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0x20, 0x02, 0xA1,
                                0xC8, 0xDA, 0x12, 0x81, 0xCF, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6, 0xAF]))
    bus.writes = []
    d.show(["", "", "X"])
    eq(bus.writes[0], (0x3C, b"\x00\xB2\x00\x10"))


def test_a_changed_text_with_the_same_pixels_sends_nothing():
    # pages are compared by their pixels, not their text: a trailing space draws nothing
    hal, panel, d = rig()
    d.init()
    d.show(["POT 100", "CALL 20"])
    eq(d.show(["POT 100 ", "CALL 20"]), [])
    eq(d.show(["POT 100 ", "CALL 40"]), [1])
    eq(panel.text_lines()[:2], ["POT 100", "CALL 40"])


def test_the_driver_keeps_no_copy_of_the_panel_on_micropython():
    # Measured on the unix port (64-bit, 2026-12-02): the driver holds 3,008 B after init and a
    # show (the 1 KB frame, one page-sized buffer, the sent texts); with a copy of what the panel
    # holds (1 KB) and its page views it held 4,064 B (hardware/memory.md, "The firmware's own live RAM").
    if not MICROPYTHON:
        raise Skip("gc.mem_alloc() measures MicroPython's heap")
    import sys
    if sys.platform == "webassembly":
        raise Skip("the WebAssembly port collects only between calls from JS, never inside a test")
    import gc
    hal = SimHAL()
    hal.add_display(bus=0, addr=0x3C)
    i2c = hal.i2c(0)
    gc.collect()
    before = gc.mem_alloc()
    d = SSD1306(i2c, addr=0x3C)
    d.init()
    d.show(["POT 100", "CALL 20"])
    gc.collect()
    held = gc.mem_alloc() - before
    assert held < 3500, "the display driver holds %d bytes" % held
