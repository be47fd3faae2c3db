# The one driver test suite, run against every HAL backend present: sim here; `machine` (through a
# recording fake of the machine module, and the real module on a board) in hal/test_hal_machine.py;
# Raspberry Pi (fake RPi.GPIO / spidev / serial) in tests/host/test_hal_rpi.py.
# A rig wraps one backend and reaches the outside world: attach_spi, drive, output_level, pixels
# (R, G, B bytes latched by the chain), attach_i2c, uart_feed/uart_sent, advance_ms, model_clock.
# The checks themselves live in kit.py (hal_check_*), shared with those two files.
from check import eq

import kit
from felt.hal.sim.hal import SimHAL
from kit import (HAL_CHECKS, hal_check_button_irq, hal_check_buttons, hal_check_contract, hal_check_display,
                 hal_check_lights, hal_check_output, hal_check_spi_mfrc522, hal_check_ticks, hal_check_uart)


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
    hal_check_contract(SimRig())


def test_sim_spi_mfrc522():
    hal_check_spi_mfrc522(SimRig())


def test_sim_buttons():
    hal_check_buttons(SimRig())


def test_sim_button_irq():
    hal_check_button_irq(SimRig())


def test_sim_output():
    hal_check_output(SimRig())


def test_sim_lights():
    hal_check_lights(SimRig())


def test_sim_display():
    hal_check_display(SimRig())


def test_sim_uart():
    hal_check_uart(SimRig())


def test_sim_ticks():
    hal_check_ticks(SimRig())


def test_suite_lists_every_check():
    names = sorted(n for n in dir(kit) if n.startswith("hal_check_"))
    eq(sorted(c.__name__ for c in HAL_CHECKS), names)
