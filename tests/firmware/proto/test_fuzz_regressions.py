# Fuzz findings replayed as plain tests, on CPython and on the MicroPython interpreter (whose
# exceptions and string methods differ): the cases hypothesis found or shrank to
# (tests/host/test_fuzz_*.py), plus a small seeded mutation run per parser with the same
# properties -- never an unexpected exception, every bad input a named FeltError, and the parser
# back in step afterwards.
from check import eq, raises

from felt.runtime import board
from felt.recovery import journal as jr
from felt.history import phh
from felt.history import replay
from felt.engine.house import values as house_values
from felt.errors import ConfigError, FeltError, FormatError
from felt.proto import ascii_reader, console, pn532


class Rng:
    def __init__(self, seed):
        self.x = seed or 1

    def below(self, n):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x % n


def mutants(sample, rng, count):
    """`count` mutations of `sample`: bit flips, replaced, inserted and deleted bytes."""
    out = []
    for _ in range(count):
        buf = bytearray(sample)
        for _e in range(1 + rng.below(4)):
            op = rng.below(4)
            if not buf:
                buf.append(rng.below(256))
                continue
            i = rng.below(len(buf))
            if op == 0:
                buf[i] ^= 1 << rng.below(8)
            elif op == 1:
                buf[i] = rng.below(256)
            elif op == 2:
                buf[i:i] = bytes([rng.below(256)])  # MicroPython's bytearray has no insert/pop
            else:
                buf[i:i + 1] = b""
        out.append(bytes(buf))
    return out


# ---- codecs: found / shrunk cases ---------------------------------------------------------------

def test_ascii_line_missing_its_end_is_completed_by_the_next_line_end():
    # shrunk case: the mutation deleted the final LF, so the resync CR ends a *valid* line
    p = ascii_reader.Parser()
    eq(p.feed(b"\x02DEADBEEF\x03\r\nUID: 04:11:22:33:44:55:66"), [ascii_reader.TagLine(bytes.fromhex("DEADBEEF"))])
    got = p.feed(b"\r\n04A1B2C3D4E5F6\r\n")
    eq(got, [ascii_reader.TagLine(bytes.fromhex("04112233445566")), ascii_reader.TagLine(bytes.fromhex("04A1B2C3D4E5F6"))])


def test_ascii_vertical_tab_is_a_named_error_then_resync():
    # shrunk case: a bit flip turned LF (0x0A) into VT (0x0B)
    p = ascii_reader.Parser()
    eq(p.feed(b"04A1B2C3D4E5F6\r\x0b"), [ascii_reader.TagLine(bytes.fromhex("04A1B2C3D4E5F6"))])
    got = p.feed(b"\r\n04A1B2C3D4E5F6\r\n")
    eq(got[0].reason, "not_ascii")
    eq(got[1], ascii_reader.TagLine(bytes.fromhex("04A1B2C3D4E5F6")))


def test_pn532_bad_extended_length_checksum_then_frame():
    bad = b"\x00\x00\xff\xff\xff\x01\x05\x00" + bytes(300)
    good = pn532.encode_response(pn532.CMD_SAM_CONFIGURATION)
    events = pn532.Parser().feed(bad + good)
    eq(events[0].field, "LCS")
    eq(events[-1], pn532.Frame(pn532.TFI_PN532, b"\x15"))


def test_pn532_start_code_split_across_feeds():
    frame = pn532.encode_response(pn532.CMD_SAM_CONFIGURATION)
    p = pn532.Parser()
    out = []
    for b in b"\x55\x00" + frame:
        out.extend(p.feed(bytes([b])))
    eq(out, [pn532.Frame(pn532.TFI_PN532, b"\x15")])
    eq(p.garbage_bytes, 1)


def test_console_line_with_valid_crc_but_bad_grammar_names_the_seq():
    body = "FELT1 7 raise 3 "
    line = (body + "*%04X" % console.crc16(body.encode())).encode()
    with raises(console.ConsoleError) as e:
        console.decode_line(line)
    eq((e.value.code, e.value.seq), ("bad_args", 7))


def test_console_text_with_unterminated_quote():
    body = 'FELT1 9 kill 3 "exposed '
    line = (body + "*%04X" % console.crc16(body.encode())).encode()
    with raises(console.ConsoleError) as e:
        console.decode_line(line)
    eq(e.value.code, "syntax")


# ---- seeded mutation runs (the properties of the host fuzzers, small) ------------------------

def test_pn532_mutations():
    rng = Rng(11)
    sample = (pn532.ACK + pn532.encode_response(pn532.CMD_GET_FIRMWARE_VERSION, b"\x32\x01\x06\x07")
              + pn532.encode_response(pn532.CMD_IN_LIST_PASSIVE_TARGET, b"\x01\x01\x00\x44\x00\x04\xde\xad\xbe\xef"))
    sentinel = pn532.encode_response(pn532.CMD_SAM_CONFIGURATION)
    for data in mutants(sample, rng, 150):
        p = pn532.Parser()
        for e in p.feed(data):
            assert isinstance(e, (pn532.Ack, pn532.Nack, pn532.ErrorFrame, pn532.Frame, pn532.PN532FrameError)), e
        p.feed(sentinel * 30)
        eq(p.feed(sentinel), [pn532.Frame(pn532.TFI_PN532, b"\x15")])


def test_ascii_mutations():
    rng = Rng(12)
    sample = b"04A1B2C3D4E5F6\r\n\x02DEADBEEF\x03\r\nUID: 04:11:22:33:44:55:66\n"
    for data in mutants(sample, rng, 200):
        p = ascii_reader.Parser()
        for e in p.feed(data):
            assert isinstance(e, (ascii_reader.TagLine, ascii_reader.AsciiLineError)), e
        got = p.feed(b"\r\n04A1B2C3D4E5F6\r\n")
        eq(got[-1], ascii_reader.TagLine(bytes.fromhex("04A1B2C3D4E5F6")))


def test_console_mutations():
    rng = Rng(13)
    sample = (console.encode(console.Message(1, "fold", [3]))
              + console.encode(console.Message(2, "raise", [4, 1200], {"declared": "raise"}))
              + console.encode(console.Message(3, "push", [2, [1000, 500, 100, 100]], {"said": 1600})))
    for data in mutants(sample, rng, 150):
        p = console.Parser(console.CONSOLE)
        for e in p.feed(data):
            assert isinstance(e, (console.Message, console.ConsoleError)), e
        got = p.feed(b"\r\n" + console.encode(console.Message(9, "check", [2])))
        eq(got[-1], console.Message(9, "check", [2]))


PHH_SAMPLE = """variant = 'PO'
antes = [0.00, 0.00]
blinds_or_straddles = [0.50, 1.00]
min_bet = 1.00
starting_stacks = [100.25, 99.75]
actions = ['d dh p1 AcAdKcKd', 'd dh p2 2c3c4c5c', 'p2 f']
"""


def test_phh_mutations():
    rng = Rng(14)
    for data in mutants(PHH_SAMPLE.encode(), rng, 120):
        try:
            text = data.decode()
        except UnicodeError:
            continue
        try:
            hands = phh.read_all(text)
        except FormatError:
            continue
        phh.read_all(phh.write_all(hands))
        for r in replay.replay_text(text):
            assert "error" in r or "finishing_stacks" in r


def test_house_rule_texts():
    rng = Rng(15)
    sample = b"mode = tournament\nhr.rake = 5% cap 150\nhr.sa_definition = tda\n# note\n"
    for data in mutants(sample, rng, 150):
        try:
            text = data.decode()
        except UnicodeError:
            continue
        try:
            house_values.parse_text(text)
        except ConfigError:
            pass


def test_journal_mutations_recover_a_prefix():
    rng = Rng(16)
    flash = jr.MemFlash()
    j = jr.Journal(flash)
    j.open()
    for i in range(6):
        j.append_value(jr.CONSOLE, {"n": i})
    good = flash.read("j00000001.log")
    for data in mutants(good, rng, 150):
        f = jr.MemFlash()
        f.files["j00000001.log"] = bytearray(data)
        j2 = jr.Journal(f)
        got = [r.payload for r in j2.open()]
        want = [r.payload for r in jr.scan(good)[0][2:]]
        eq(got, want[:len(got)], "a prefix of what was written, nothing invented")


# ---- bugs found by the fuzzers in modules owned elsewhere (fixed; these keep them fixed) ----

def test_phh_deal_to_a_non_player_is_a_format_error():
    # found by the PHH fuzzer (fixed in phh.parse_action)
    with raises(FormatError, match="bad player"):
        phh.parse_action("d dh 2 2c3c4c5c")


def test_replay_of_a_deal_to_p_reports_an_error():
    # found by the PHH fuzzer: replay used to crash in int() here
    r = replay.replay_text(PHH_SAMPLE.replace("'d dh p2 2c3c4c5c'", "'d dh p 2c3c4c5c'"))[0]
    eq("error" in r, True, r)


def test_phh_lone_underscore_value_is_a_format_error():
    # found by the coverage-guided fuzzer (tests/host/fuzz_atheris_inputs.py): input b"\nF=_";
    # fixed in phh.parse_number (TOML allows '_' only between two digits)
    with raises(FormatError, match="line 1: bad number '_'"):
        phh.read_all("F=_")


def test_phh_bad_numbers_are_format_errors():
    # '\u00b9' passes str.isdigit() on CPython but int() refuses it; '1e+-1' had its sign stripped twice
    for text in ("F=\u00b9", "F=1\u00b9", "F=[1\u00b9]", "F=1e+-1", "F=1.\u00b9", "F=1__2", "F=1_", "F=_1", "F=-_"):
        with raises(FormatError, match="bad number"):
            phh.read_all(text)
    for text in ("p\u00b9 f", "d dh p\u00b2 AcAd"):
        with raises(FormatError, match="bad player"):
            phh.parse_action(text)
    for text in ("p1 cbr \u00b9", "p1 cbr 1\u00b9"):
        with raises(FormatError, match="bad number"):
            phh.parse_action(text)
    eq(phh.parse_number("1_000"), 1000)
    eq(phh.parse_number("-1_0.2_5e+1"), phh.parse_number("-102.5"))


def test_house_rule_superscript_digit_is_a_config_error():
    # found by the house-rule fuzzer: '\u00b9' passes str.isdigit() on CPython but int() refuses it;
    # fixed in settings (_digits: ASCII digits only)
    with raises(ConfigError, match="hr.draw_max_replace: "):
        house_values.from_dict({"hr.draw_max_replace": "\u00b9"})
    with raises(ConfigError, match="is not a number with at most 2 decimals"):
        house_values.from_dict({"hr.rake": {"percent": "\u00b9"}})
    with raises(ConfigError, match="cap must be a chip amount"):
        house_values.from_dict({"hr.rake": {"percent": "5", "cap": "\u00b9"}})


def test_house_rule_text_superscript_digit_is_a_config_error():
    with raises(ConfigError, match="unknown house rule 'variant'"):
        house_values.parse_text("variant = \u00b2")
    for line, key in (("hr.rake = 5% cap \u00b9", "hr.rake"), ("hr.rake = \u00b9.5%", "hr.rake"),
                      ("mode = cash\nhr.cash_action_timer = \u00b3", "hr.cash_action_timer"),
                      ("mode = cash\nhr.bbj_min_rake = \u00b3", "hr.bbj_min_rake")):
        with raises(ConfigError, match=key):
            house_values.parse_text(line)


def _board(edit):
    data = {
        "board": "pico", "name": "t", "hal": "sim", "seats": 2, "gpio": list(range(29)),
        "functions": {"spi0": {"sck": [18], "mosi": [19], "miso": [16]}, "i2c0": {"sda": [20], "scl": [21]},
                      "uart0": {"tx": [0], "rx": [1]}, "uart1": {"tx": [4], "rx": [5]}},
        "spi": {"bus": 0, "sck": 18, "mosi": 19, "miso": 16},
        "antennas": {"seat1": 2, "seat2": 3, "board": 6, "burn": 7, "muck": 8},
        "buttons": {"active_low": True, "pull": "up", "pins": {"1": 9, "2": 10}},
        "neopixel": {"pin": 22, "count": 10}, "i2c": {"bus": 0, "sda": 20, "scl": 21, "display": 60},
        "uarts": {"shoe": {"port": 0, "tx": 0, "rx": 1}, "console": {"port": 1, "tx": 4, "rx": 5}}}
    board.load(data)  # the unmutated map is valid
    edit(data)
    return data


# found by the board fuzzer; fixed in board.py (_expect checks every JSON type before use)

def test_board_gpio_list_entry_is_a_config_error():
    data = _board(lambda d: d.__setitem__("gpio", [[1], 2]))
    with raises(ConfigError, match="'gpio' entry must be a whole number"):
        board.load(data)


def test_board_function_pins_null_is_a_config_error():
    data = _board(lambda d: d["functions"]["i2c0"].__setitem__("sda", None))
    with raises(ConfigError, match="functions: i2c0 'sda' must be a list of GPIO numbers"):
        board.load(data)


def test_board_uart_function_list_is_a_config_error():
    data = _board(lambda d: d["functions"].__setitem__("uart0", []))
    with raises(ConfigError, match="functions: 'uart0' must be an object"):
        board.load(data)


def test_board_reserved_as_list_is_a_config_error():
    data = _board(lambda d: d.__setitem__("reserved", [True]))
    with raises(ConfigError, match="'reserved' must be an object"):
        board.load(data)


def test_board_reserved_pin_name_is_a_config_error():
    data = _board(lambda d: d.__setitem__("reserved", {"x": "led"}))
    with raises(ConfigError, match="reserved: 'x' is not a GPIO number"):
        board.load(data)


def test_board_unicode_digit_keys_are_config_errors():
    # '\u00b9' passes str.isdigit() on CPython but int() refuses it: only ASCII digits are numbers
    data = _board(lambda d: d.__setitem__("reserved", {"\u00b9": "led"}))
    with raises(ConfigError, match="is not a GPIO number"):
        board.load(data)
    data = _board(lambda d: d["buttons"]["pins"].__setitem__("\u00b2", 11))
    with raises(ConfigError, match="is not a seat of a 2-seat table"):
        board.load(data)


def test_board_optional_settings_are_type_checked():
    for edit, match in ((lambda d: d["spi"].__setitem__("baud", "fast"), "spi: 'baud' must be a whole number"),
                        (lambda d: d["i2c"].__setitem__("display", None), "i2c: 'display' must be a whole number"),
                        (lambda d: d["uarts"]["shoe"].__setitem__("baud", [9600]), "shoe: 'baud' must be a whole number"),
                        (lambda d: d["buttons"].__setitem__("active_low", 1), "buttons: 'active_low' must be true or false"),
                        (lambda d: d.__setitem__("chip_select", {"decoder": [1]}), "chip_select must be")):
        with raises(ConfigError, match=match):
            board.load(_board(edit))
