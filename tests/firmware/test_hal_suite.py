# The one driver test suite, run against every HAL backend present: sim here; `machine` (through a
# recording fake of the machine module, and the real module on a board) in test_hal_machine.py;
# Raspberry Pi (fake RPi.GPIO / spidev / serial) in tests/host/test_hal_rpi.py.
# A rig wraps one backend and reaches the outside world: attach_spi, drive, output_level, pixels
# (R, G, B bytes latched by the chain), attach_i2c, uart_feed/uart_sent, advance_ms, model_clock.
from check import eq, raises

from felt import hal as contract
from felt.drivers.buttons import SeatButtons
from felt.drivers.display import SSD1306
from felt.drivers.mfrc522 import MFRC522
from felt.drivers.neopixel_lights import SeatLights
from felt.errors import ConfigError
from felt.hal.sim.hal import SimHAL, SimSSD1306
from felt.hal.sim.mfrc522 import SimMFRC522, SimTag

UID = bytes([0x04, 0x52, 0x19, 0xA2, 0x7C, 0x3B, 0x80])

# Pins used by the suite (valid on a Pico; the fakes accept them too).
SCK, MOSI, MISO, CS = 18, 19, 16, 17
BUTTON, LED_OUT, PIXELS, SDA, SCL = 2, 15, 22, 20, 21


def check_contract(rig):
    eq(contract.missing(rig.hal), [])
    contract.check_backend(rig.hal)
    rig.hal.input_pin(BUTTON, pull="up")
    with raises(ConfigError, match="already in use"):
        rig.hal.output_pin(BUTTON)
    with raises(ConfigError, match="pull must be"):
        rig.hal.input_pin(3, pull="sideways")


def check_spi_mfrc522(rig):
    chip = SimMFRC522(rig.model_clock())
    rig.attach_spi(0, CS, chip)
    bus = rig.hal.spi(0, baud=4000000, sck=SCK, mosi=MOSI, miso=MISO)
    reader = MFRC522(bus.device(CS), name="suite")
    eq(reader.init(), 0x92)
    eq(rig.output_level(CS), 1)  # chip-select released between exchanges
    chip.place(SimTag(UID))
    reader.field(True)
    rig.model_clock().advance_ms(6)
    result = reader.inventory()
    reader.field(False)
    eq(result.uids, [UID])
    eq(chip.field_is_on(), False)


def check_buttons(rig):
    pin = rig.hal.input_pin(BUTTON, pull="up")
    eq(pin.value(), 1)
    buttons = SeatButtons([(1, pin)], debounce_ms=30)
    eq(buttons.poll(0), [])
    rig.drive(BUTTON, 0)
    events = []
    for t in range(0, 100, 10):
        events += buttons.poll(t)
    rig.drive(BUTTON, 1)
    for t in range(100, 200, 10):
        events += buttons.poll(t)
    eq(events, [("button", 1, "short")])


def check_button_irq(rig):
    pin = rig.hal.input_pin(BUTTON, pull="up")
    buttons = SeatButtons([(3, pin)])
    buttons.attach_irqs()
    rig.drive(BUTTON, 0)
    rig.drive(BUTTON, 1)
    eq(len(buttons.queue), 2)
    eq(buttons.queue.get(), 0)


def check_output(rig):
    out = rig.hal.output_pin(LED_OUT, value=0)
    eq((out.value(), rig.output_level(LED_OUT)), (0, 0))
    out.value(1)
    eq((out.value(), rig.output_level(LED_OUT)), (1, 1))


def check_lights(rig):
    chain = rig.hal.neopixel(PIXELS, 10)
    lights = SeatLights(chain, 2, brightness=255)
    lights.apply({"dealer": 2, "all_in": [1]})
    want = bytearray(30)
    want[12:15] = b"\xFF\x00\x00"  # seat 1 all-in: red
    want[15:18] = b"\xFF\xFF\xFF"  # seat 2 dealer: white
    eq(rig.pixels(PIXELS), bytes(want))


def check_display(rig):
    panel = rig.attach_i2c(0, 0x3C, SimSSD1306())
    display = SSD1306(rig.hal.i2c(0, freq=400000, scl=SCL, sda=SDA))
    display.init()
    display.show(["SEAT 4 ALL IN", "POT 12,400"])
    eq(panel.text_lines()[:2], ["SEAT 4 ALL IN", "POT 12,400"])


def check_uart(rig):
    u = rig.hal.uart(rig.UART_PORT, baud=115200, tx=4, rx=5)
    eq((u.any(), u.read(4)), (0, b""))
    rig.uart_feed(b"04A1B2\n")
    eq(u.any(), 7)
    eq(u.read(3), b"04A")
    eq(u.read(10), b"1B2\n")
    eq(u.write(b"OK\n"), 3)
    eq(rig.uart_sent(), b"OK\n")


def check_ticks(rig):
    t0 = rig.hal.ticks_ms()
    rig.advance_ms(1500)
    eq(rig.hal.ticks_ms() - t0, 1500)


CHECKS = (check_contract, check_spi_mfrc522, check_buttons, check_button_irq, check_output, check_lights,
          check_display, check_uart, check_ticks)


class SimRig:
    UART_PORT = 1

    def __init__(self):
        self.hal = SimHAL()

    def model_clock(self):
        return self.hal.clock

    def attach_spi(self, bus, cs, model):
        return self.hal.spi(bus).attach(cs, model)

    def drive(self, pin, level):
        self.hal.pin(pin).set(level)

    def output_level(self, pin):
        return self.hal.pin(pin).level

    def pixels(self, pin):
        return bytes(self.hal.chain(pin).frame)

    def attach_i2c(self, bus, addr, model):
        return self.hal.i2c(bus).attach(addr, model)

    def uart_feed(self, data):
        self.hal.uart(self.UART_PORT).feed(data)

    def uart_sent(self):
        return bytes(self.hal.uart(self.UART_PORT).sent)

    def advance_ms(self, ms):
        self.hal.clock.advance_ms(ms)


def test_sim_contract():
    check_contract(SimRig())


def test_sim_spi_mfrc522():
    check_spi_mfrc522(SimRig())


def test_sim_buttons():
    check_buttons(SimRig())


def test_sim_button_irq():
    check_button_irq(SimRig())


def test_sim_output():
    check_output(SimRig())


def test_sim_lights():
    check_lights(SimRig())


def test_sim_display():
    check_display(SimRig())


def test_sim_uart():
    check_uart(SimRig())


def test_sim_ticks():
    check_ticks(SimRig())


def test_suite_lists_every_check():
    names = sorted(n for n in globals() if n.startswith("check_"))
    eq(sorted(c.__name__ for c in CHECKS), names)
