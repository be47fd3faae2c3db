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

# Fallback 5x7 font: 7 rows per glyph, bit 4 = leftmost pixel.
_FONT = {
    " ": (0, 0, 0, 0, 0, 0, 0),
    "0": (0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E), "1": (0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E),
    "2": (0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F), "3": (0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E),
    "4": (0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02), "5": (0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E),
    "6": (0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E), "7": (0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08),
    "8": (0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E), "9": (0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C),
    "A": (0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11), "B": (0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E),
    "C": (0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E), "D": (0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C),
    "E": (0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F), "F": (0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10),
    "G": (0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F), "H": (0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11),
    "I": (0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E), "J": (0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C),
    "K": (0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11), "L": (0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F),
    "M": (0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11), "N": (0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11),
    "O": (0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E), "P": (0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10),
    "Q": (0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D), "R": (0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11),
    "S": (0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E), "T": (0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04),
    "U": (0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E), "V": (0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04),
    "W": (0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A), "X": (0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11),
    "Y": (0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04), "Z": (0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F),
    ".": (0, 0, 0, 0, 0, 0x0C, 0x0C), ",": (0, 0, 0, 0, 0x0C, 0x04, 0x08), ":": (0, 0x0C, 0x0C, 0, 0x0C, 0x0C, 0),
    "-": (0, 0, 0, 0x1F, 0, 0, 0), "+": (0, 0x04, 0x04, 0x1F, 0x04, 0x04, 0), "/": (0x01, 0x01, 0x02, 0x04, 0x08, 0x10, 0x10),
    "$": (0x04, 0x0F, 0x14, 0x0E, 0x05, 0x1E, 0x04), "%": (0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03),
    "(": (0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02), ")": (0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08),
    "!": (0x04, 0x04, 0x04, 0x04, 0x04, 0, 0x04), "?": (0x0E, 0x11, 0x01, 0x02, 0x04, 0, 0x04),
    "#": (0x0A, 0x0A, 0x1F, 0x0A, 0x1F, 0x0A, 0x0A), "=": (0, 0, 0x1F, 0, 0x1F, 0, 0),
    "<": (0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02), ">": (0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08),
    "*": (0, 0x04, 0x15, 0x0E, 0x15, 0x04, 0), "'": (0x04, 0x04, 0x08, 0, 0, 0, 0), "_": (0, 0, 0, 0, 0, 0, 0x1F),
    "[": (0x0E, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0E), "]": (0x0E, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0E),
}


class _MonoVLSB:
    """The part of framebuf.FrameBuffer (MONO_VLSB) the display needs, for CPython."""

    def __init__(self, buf, width, height):
        self.buf = buf
        self.width = width

    def fill(self, c):
        v = 0xFF if c else 0
        for i in range(len(self.buf)):
            self.buf[i] = v

    def text(self, s, x, y, c=1):
        for ch in s:
            rows = _FONT.get(ch.upper(), _FONT["?"])
            for col in range(5):
                bits = 0
                for r in range(7):
                    if rows[r] & (0x10 >> col):
                        bits |= 1 << r
                i = (y // 8) * self.width + x + col
                if 0 <= x + col < self.width:
                    self.buf[i] = bits if c else 0
            x += 8


def _framebuffer(buf, width, height):
    if framebuf is not None:
        return framebuf.FrameBuffer(buf, width, height, framebuf.MONO_VLSB)
    return _MonoVLSB(buf, width, height)


_GLYPHS = None


def glyph_table():
    """{8 column bytes: character} for this interpreter's renderer (the sim reads text back with
    it). When two characters look alike the lower code wins (so upper case over lower case)."""
    global _GLYPHS
    if _GLYPHS is None:
        table = {}
        buf = bytearray(8)
        fb = _framebuffer(buf, 8, 8)
        for code in range(32, 127):
            if framebuf is None and chr(code).upper() not in _FONT:
                continue  # drawn as '?' by the fallback: it must read back as '?'
            fb.fill(0)
            fb.text(chr(code), 0, 0, 1)
            key = bytes(buf)
            if key not in table:
                table[key] = chr(code)
        _GLYPHS = table
    return _GLYPHS


class SSD1306:
    """i2c: an I2C (felt.hal contract: writeto(addr, buf)). Call init() once, then show(lines)."""

    def __init__(self, i2c, addr=0x3C):
        self.i2c = i2c
        self.addr = addr
        self.buffer = bytearray(WIDTH * ROWS)
        self.fb = _framebuffer(self.buffer, WIDTH, HEIGHT)
        self._sent = bytearray(WIDTH * ROWS)
        self._valid = False
        self.lines = []
        self._cmd = bytearray(4)

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
        sent = []
        for page in range(ROWS):
            a = page * WIDTH
            if self._valid and self.buffer[a:a + WIDTH] == self._sent[a:a + WIDTH]:
                continue
            self.command((0xB0 | page, 0x00, 0x10))  # page start, column 0 (low then high nibble)
            self.i2c.writeto(self.addr, b"\x40" + bytes(self.buffer[a:a + WIDTH]))  # Co=0, D/C#=1
            self._sent[a:a + WIDTH] = self.buffer[a:a + WIDTH]
            sent.append(page)
        self._valid = True
        return sent
