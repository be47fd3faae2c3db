# Board pin maps (hardware/boards/*.json) and their checker; building HAL objects from a board.
import json

import check
from check import eq, raises

from felt.runtime import board as boards
from felt.drivers.mfrc522 import MFRC522
from felt.errors import ConfigError
from felt.hal.sim.hal import SimHAL
from felt.hal.sim.mfrc522 import SimMFRC522, SimTag


def _boards_dir():
    return check.repo_path("hardware/boards/")


def data(name):
    with open(_boards_dir() + name + ".json") as f:
        return json.load(f)


def small(seats=2):
    """A 2-seat board with direct chip-selects, for edits in tests."""
    return {
        "board": "test", "seats": seats, "gpio": list(range(30)),
        "functions": {"spi0": {"sck": [18], "mosi": [19], "miso": [16]}, "i2c0": {"sda": [20], "scl": [21]},
                      "uart0": {"tx": [0], "rx": [1]}, "uart1": {"tx": [4], "rx": [5]}},
        "spi": {"bus": 0, "sck": 18, "mosi": 19, "miso": 16},
        "antennas": {"seat1": 2, "seat2": 3, "board": 6, "burn": 7, "muck": 8},
        "buttons": {"pins": {"1": 10, "2": 11}},
        "neopixel": {"pin": 22, "count": 10},
        "i2c": {"bus": 0, "sda": 20, "scl": 21},
        "uarts": {"shoe": {"port": 0, "tx": 0, "rx": 1}, "console": {"port": 1, "tx": 4, "rx": 5}},
    }


def test_pico_board_checks_out():
    b = boards.load(data("pico"))
    eq((b.board, b.seats, b.hal), ("pico", 10, "machine"))
    eq(len(b.antennas), 13)
    eq(b.antennas[0], ("seat1", 0))
    eq(b.antennas[-1], ("muck", 12))
    eq(len(b.buttons), 10)
    eq(len(b.pins), 25)  # of the Pico's 26 usable GPIOs


def test_rpi_board_checks_out():
    b = boards.load(data("rpi"))
    eq((b.board, b.seats, b.hal), ("rpi", 10, "rpi"))
    eq(b.buttons[9], (10, 8))
    eq(b.uarts["console"]["port"], "/dev/ttyACM0")
    eq(sorted(b.pins), list(range(2, 28)))  # every header GPIO has exactly one job


def test_small_board_with_direct_chip_selects():
    b = boards.load(small())
    eq(b.decoder, None)
    eq(b.antennas, [("seat1", 2), ("seat2", 3), ("board", 6), ("burn", 7), ("muck", 8)])


def test_pin_used_twice_names_both_uses():
    d = small()
    d["buttons"]["pins"]["2"] = 7
    with raises(ConfigError, match="GPIO 7 used twice: chip-select of antenna burn and button of seat 2"):
        boards.load(d)


def test_every_seat_needs_a_button_and_an_antenna():
    d = small()
    del d["buttons"]["pins"]["2"]
    with raises(ConfigError, match="seat 2 is not wired"):
        boards.load(d)
    d = small()
    del d["antennas"]["seat1"]
    with raises(ConfigError, match="seat1 is not wired"):
        boards.load(d)
    d = small()
    del d["antennas"]["muck"]
    with raises(ConfigError, match="muck is not wired"):
        boards.load(d)


def test_extra_seat_rejected():
    d = small()
    d["buttons"]["pins"]["3"] = 12
    with raises(ConfigError, match="'3' is not a seat of a 2-seat table"):
        boards.load(d)
    d = small()
    d["antennas"]["seat3"] = 12
    with raises(ConfigError, match="not a location"):
        boards.load(d)


def test_pin_not_on_this_board():
    d = data("pico")
    d["neopixel"]["pin"] = 25  # the Pico's on-board LED, not a header pin
    with raises(ConfigError, match="GPIO 25 is not a usable pin on pico"):
        boards.load(d)


def test_pin_that_cannot_do_the_function():
    d = data("pico")
    d["spi"]["sck"] = 28
    with raises(ConfigError, match="GPIO 28 cannot be spi0 SCK"):
        boards.load(d)
    d = data("rpi")
    d["i2c"]["sda"] = 4
    with raises(ConfigError, match="cannot be i2c1 SDA"):
        boards.load(d)


def test_reserved_pin_counts_as_used():
    d = data("rpi")
    d["buttons"]["pins"]["1"] = 19
    with raises(ConfigError, match="GPIO 19 used twice: reserved"):
        boards.load(d)


def test_decoder_lines_checked():
    d = data("pico")
    d["antennas"]["burn"] = 3
    with raises(ConfigError, match="decoder line 3 used twice"):
        boards.load(d)
    d = data("pico")
    d["antennas"]["muck"] = 16
    with raises(ConfigError, match="lines are 0..15"):
        boards.load(d)
    d = data("pico")
    d["chip_select"]["address"] = [10, 11, 12]
    with raises(ConfigError, match="needs 4 address pins"):
        boards.load(d)


def test_bad_values_named():
    d = small()
    d["seats"] = 11
    with raises(ConfigError, match="seats must be 1..10"):
        boards.load(d)
    d = small()
    d["neopixel"]["count"] = 9
    with raises(ConfigError, match="needs 10 (5 per seat)"):
        boards.load(d)
    d = small()
    del d["spi"]
    with raises(ConfigError, match="missing 'spi'"):
        boards.load(d)
    with raises(ConfigError):
        boards.load([1, 2])


def test_decoded_chip_selects_reach_the_right_chip():
    b = boards.load(data("pico"))
    hal = SimHAL()
    devices = boards.open_antenna_devices(b, hal)
    bus = hal.spi_bus(0)
    chips = {}
    for loc, line in b.antennas:
        chips[loc] = bus.attach(("74HC154", line), SimMFRC522(hal.clock))
    uid = bytes([0x04, 1, 2, 3, 4, 5, 6])
    chips["seat7"].place(SimTag(uid))
    readers = dict((loc, MFRC522(dev, name=loc)) for loc, dev in devices)
    r = readers["seat7"]
    r.init()
    r.field(True)
    eq([hal.pin(p).level for p in (10, 11, 12, 13)], [0, 1, 1, 0])  # line 6 = A1, A2 high
    eq(hal.pin(14).level, 1)  # enable released after the exchange
    hal.clock.advance_ms(6)
    eq(r.inventory().uids, [uid])
    eq(chips["seat6"].field_is_on(), False)


def test_open_buttons_with_pull():
    b = boards.load(data("rpi"))
    hal = SimHAL()
    pins = boards.open_buttons(b, hal)
    eq(pins[0][0], 1)
    eq(hal.pin(4).pull, "up")
    eq(pins[0][1].value(), 1)


def test_decoder_object_rules():
    from felt.hal import Decoder

    hal = SimHAL()
    pins = [hal.output_pin(p) for p in (1, 2, 3)]
    d = Decoder(pins, hal.output_pin(4), "74HC138")
    eq(hal.pin(4).level, 1)  # constructed deselected
    eq(d.lines, 8)
    with raises(ConfigError, match="lines 0..7, not 8"):
        d.line(8)
    cs = d.line(5)
    cs.value(0)
    eq([p.level for p in pins] + [hal.pin(4).level], [1, 0, 1, 0])
    cs.value(1)
    eq(hal.pin(4).level, 1)
    with raises(ConfigError, match="4 address inputs"):
        Decoder([], hal.output_pin(6))


def test_the_first_bad_function_table_named_is_the_same_on_both_interpreters():
    # MicroPython dicts keep no insertion order: with two bad tables the error must not depend on
    # dict order (checked in name order: i2c0 before uart1 whatever the file's order).
    d = small()
    funcs = {}
    funcs["uart1"] = {"tx": "4"}  # inserted first: CPython's dict order alone would name it
    funcs["uart0"] = d["functions"]["uart0"]
    funcs["i2c0"] = {"sda": "20"}
    d["functions"] = funcs
    with raises(ConfigError, match="functions: i2c0 'sda'"):
        boards.load(d)


def test_journal_kind_comes_from_the_board_file():
    # issue 20 / hardware/journal.md 3b: the raw flash ring on the Pico, files on the Raspberry Pi
    eq(boards.load(data("pico")).journal, {"kind": "ring", "start": -262144, "length": 262144})
    eq(boards.load(data("rpi")).journal["kind"], "files")
    d = small()
    eq(boards.load(d).journal, {"kind": "files"})  # absent: files
    for bad, says in (({"kind": "tape"}, "kind must be one of"),
                      ({"kind": "ring", "start": 100, "length": 65536}, "whole 4096-byte sectors"),
                      ({"kind": "ring", "start": 0, "length": 8192}, "at least 3"),
                      ({"kind": "ring", "length": 65536}, "missing 'start'")):
        d = small()
        d["journal"] = bad
        with raises(ConfigError, match=says):
            boards.load(d)
