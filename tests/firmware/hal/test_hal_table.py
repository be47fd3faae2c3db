# A whole simulated table from the Pico board file, the way firmware/main.py and the runtime loop
# put it together: 13 antennas on one SPI bus behind the 74HC154, 10 buttons, the pixel chain, the
# display and the UARTs -- driven by a manual clock, the loop being the only reader of ticks_ms().
import json

import check
from check import eq

from felt.runtime import board as boards
from felt.drivers.antennas import AntennaPoller
from felt.drivers.buttons import SeatButtons
from felt.drivers.display import SSD1306
from felt.drivers.mfrc522 import MFRC522
from felt.drivers.neopixel_lights import SeatLights
from felt.hal.sim.hal import SimHAL, SimSSD1306
from felt.hal.sim.mfrc522 import SimTag, attach_chips


def pico():
    with open(check.repo_path("hardware/boards/pico.json")) as f:
        return boards.load(json.load(f))


class Table:
    def __init__(self):
        self.board = b = pico()
        self.hal = hal = SimHAL()
        self.chips = attach_chips(hal, b)
        self.panel = hal.i2c(b.i2c["bus"]).attach(boards.display_address(b), SimSSD1306())
        readers = [(loc, MFRC522(dev, name=loc)) for loc, dev in boards.open_antenna_devices(b, hal)]
        self.antennas = AntennaPoller(readers)
        self.buttons = SeatButtons(boards.open_buttons(b, hal), active_low=b.buttons_active_low)
        self.buttons.attach_irqs()
        self.lights = SeatLights(boards.open_pixel_chain(b, hal), b.seats)
        self.display = SSD1306(boards.open_i2c(b, hal), addr=boards.display_address(b))
        self.shoe = boards.open_uart(b, hal, "shoe")
        self.events = self.antennas.start()
        self.most_fields_on = 0
        self.display.init()

    def run_ms(self, ms):
        """The loop: read the clock, poll what is due, sleep (advance) to the next due time."""
        hal = self.hal
        end = hal.ticks_ms() + ms
        while hal.ticks_ms() < end:
            now = hal.ticks_ms()
            self.events += self.buttons.poll(now)
            if now >= self.antennas.next_due_ms:
                self.events += self.antennas.poll(now)
                on = len([c for c in self.chips.values() if c.field_is_on()])
                self.most_fields_on = max(self.most_fields_on, on)
            due = min(self.antennas.next_due_ms, now + 5)
            hal.clock.advance_to_us(max(due, now + 1) * 1000)


def test_a_card_a_button_lights_and_display_on_the_pico_table():
    t = Table()
    eq(t.events, [])
    uid = bytes([0x04, 0x52, 0x19, 0xA2, 0x7C, 0x3B, 0x80])
    t.chips["seat3"].place(SimTag(uid))
    t.antennas.set_in_hand(True)
    t.run_ms(200)
    eq(t.events, [("card-arrived", "seat3", "045219A27C3B80")])
    t.events = []
    button = t.hal.pin(dict(t.board.buttons)[5])
    button.set(0)
    t.run_ms(100)
    button.set(1)
    t.run_ms(100)
    eq(t.events, [("button", 5, "short")])
    t.lights.apply({"dealer": 1, "small_blind": 2, "big_blind": 3, "action": 4, "all_in": [6]})
    chain = t.hal.chain(t.board.neopixel["pin"])
    eq([i for i in range(chain.count) if chain.pixel(i) != (0, 0, 0)], [0, 6, 12, 18, 29])
    t.display.show(["POT 150", "TO CALL 100"])
    eq(t.panel.text_lines()[:2], ["POT 150", "TO CALL 100"])
    t.hal.uart_port(0).feed(b"04A1\n")
    eq(t.shoe.read(5), b"04A1\n")


def test_only_one_field_on_during_a_loaded_table_loop():
    t = Table()
    for i in range(1, 11):
        t.chips["seat%d" % i].place(SimTag(bytes([0x04, 0x60, i, 1, 2, 3, 4])))
        t.chips["seat%d" % i].place(SimTag(bytes([0x04, 0x61, i, 1, 2, 3, 4])))
    t.run_ms(600)
    eq(t.most_fields_on, 1)  # checked after every poll step
    eq(len([e for e in t.events if e[0] == "card-arrived"]), 20)
