"""Status display: SSD1306-class 128x64 OLED on I2C -- drivers layer (hardware/protocols/ssd1306.md).

Shows up to 8 text lines of 16 characters (8x8 cells). Renders with MicroPython's framebuf where
it exists and with a small built-in 5x7 font elsewhere (CPython); the fallback font has upper case,
digits and common signs (lower case is drawn as upper case). Only pages whose pixels changed are
sent, in page addressing mode; refresh() resends everything after a reset of the panel.
"""
try:
    import framebuf
except ImportError:
    framebuf = None

WIDTH = 128
HEIGHT = 64
COLUMNS = WIDTH // 8
ROWS = HEIGHT // 8

# Power-up sequence for a 128x64 panel with the internal charge pump (SSD1306 datasheet, 8.9 and
# the application note's software initialisation flow). Pairs are command + argument.
INIT = bytes([
    0xAE,  # display off
    0xD5, 0x80,  # clock divide ratio / oscillator frequency
    0xA8, 0x3F,  # multiplex ratio 64
    0xD3, 0x00,  # display offset 0
    0x40,  # start line 0
    0x8D, 0x14,  # charge pump on
    0x20, 0x02,  # page addressing mode
    0xA1,  # segment remap (column 127 -> SEG0)
    0xC8,  # COM scan direction remapped
    0xDA, 0x12,  # COM pins: alternative configuration
    0x81, 0xCF,  # contrast
    0xD9, 0xF1,  # pre-charge period
    0xDB, 0x40,  # VCOMH deselect level
    0xA4,  # display follows RAM
    0xA6,  # normal (not inverted)
    0xAF,  # display on
])

def _framebuffer(buf, width, height):
    if framebuf is not None:
        return framebuf.FrameBuffer(buf, width, height, framebuf.MONO_VLSB)
    from felt.drivers.font5x7 import MonoVLSB  # CPython only: MicroPython boards have framebuf

    return MonoVLSB(buf, width, height)


_GLYPHS = None
_ALL = (1 << ROWS) - 1
_NO_PAGES = []  # what _flush returns: shared, never appended to
_ALL_PAGES = list(range(ROWS))


def glyph_table():
    """{8 column bytes: character} for this interpreter's renderer (the sim reads text back with
    it). When two characters look alike the lower code wins (so upper case over lower case)."""
    global _GLYPHS
    if _GLYPHS is None:
        table = {}
        buf = bytearray(8)
        fb = _framebuffer(buf, 8, 8)
        for code in range(32, 127):
            if framebuf is None and not _in_font(chr(code).upper()):
                continue  # drawn as '?' by the fallback: it must read back as '?'
            fb.fill(0)
            fb.text(chr(code), 0, 0, 1)
            key = bytes(buf)
            if key not in table:
                table[key] = chr(code)
        _GLYPHS = table
    return _GLYPHS


def _in_font(ch):
    from felt.drivers.font5x7 import FONT

    return ch in FONT


def _pages_in(mask):
    # a function of its own: a comprehension in _flush reading `mask` would make it a cell,
    # allocated on every call of _flush
    return [page for page in range(ROWS) if mask >> page & 1]


class SSD1306:
    """i2c: an I2C (felt.hal contract: writeto(addr, buf)). Call init() once, then show(lines)."""

    def __init__(self, i2c, addr=0x3C):
        self.i2c = i2c
        self.addr = addr
        self.buffer = bytearray(WIDTH * ROWS)
        self.fb = _framebuffer(self.buffer, WIDTH, HEIGHT)
        self._valid = False
        self.lines = []
        # per page: a view of the frame, and the text the panel shows there (each page is one line
        # of text); a page whose text changed is compared, pixel for pixel, with its old text drawn
        # again into one page-sized buffer -- no copy of the whole panel is kept (1 KB of RAM:
        # hardware/memory.md, "The firmware's own live RAM"). The page-address command and the data
        # write in buffers of their own: a panel rewrite allocates nothing (issue 20 item 4: the loop
        # rewrites the whole panel every few seconds)
        frame = memoryview(self.buffer)
        self._pages = [frame[p * WIDTH:(p + 1) * WIDTH] for p in range(ROWS)]
        self._sent_lines = [""] * ROWS
        self._old = bytearray(WIDTH)
        self._old_fb = _framebuffer(self._old, WIDTH, 8)
        self._old_view = memoryview(self._old)
        self._cmd = bytearray((0x00, 0xB0, 0x00, 0x10))  # control byte Co=0 D/C#=0, page, column 0
        self._data = bytearray(1 + WIDTH)
        self._data[0] = 0x40  # control byte Co=0, D/C#=1: the page's pixels follow

    def command(self, cmds):
        self.i2c.writeto(self.addr, b"\x00" + bytes(cmds))  # control byte: Co=0, D/C#=0

    def init(self):
        self.command(INIT)
        self._valid = False
        self.show([])

    def refresh(self):
        """Resend every page (the panel was reset or lost power)."""
        self._valid = False
        return self._flush()

    def show(self, lines):
        """Display `lines` (at most 8, each cut to 16 characters); returns the pages sent."""
        if len(lines) > ROWS:
            raise ValueError("the display has %d lines, got %d" % (ROWS, len(lines)))
        self.lines = [line[:COLUMNS] for line in lines]
        self.fb.fill(0)
        for row in range(len(self.lines)):
            self.fb.text(self.lines[row], 0, row * 8, 1)
        return self._flush()

    def _flush(self):
        # few locals: a MicroPython frame that outgrows its stack budget is allocated on the heap
        mask = 0
        for page in range(ROWS):
            if not self._valid or self._changed(page):
                self._send_page(page)
                mask |= 1 << page
        self._valid = True
        if not mask:
            return _NO_PAGES
        if mask == _ALL:
            return _ALL_PAGES
        return _pages_in(mask)

    def _text(self, page):
        return self.lines[page] if page < len(self.lines) else ""

    def _changed(self, page):
        # whether the page's pixels differ from what the panel shows: its old text drawn again
        old = self._sent_lines[page]
        if self._text(page) == old:
            return False
        fb = self._old_fb
        fb.fill(0)
        fb.text(old, 0, 0, 1)
        return self._pages[page] != self._old_view

    def _send_page(self, page):
        cmd = self._cmd
        cmd[1] = 0xB0 | page  # page start, column 0 (low then high nibble)
        self.i2c.writeto(self.addr, cmd)
        self._data[1:] = self._pages[page]
        self.i2c.writeto(self.addr, self._data)
        self._sent_lines[page] = self._text(page)
