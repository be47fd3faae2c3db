# What every table runtime shares (runtime layer): the board's drivers opened from its map, the
# after-step hooks, the main loop, the poll and refresh periods, the console text cleaner. The poker
# runtime (felt.runtime.loop) and the blackjack one (felt.runtime.blackjack) both use it; it imports
# no game, so a blackjack table does not load the poker controller or view through it (issue 17).
from felt.drivers import shoe as shoe_mod
from felt.errors import ConfigError
from felt.proto import console as proto

POLL_MS = 5  # shoe, console and buttons are looked at this often
REFRESH_MS = 500  # lights and display are recomputed at least this often (self-repair)
FLOOR_WIRE = ("challenge", "auth", "deckline")  # FELT1 1.1 floor-key verbs (hardware/protocols/console.md)


def clean(text, n=150):
    """A text for one FELT1 line: printable ASCII, at most n characters."""
    out = []
    for c in text[:n]:
        out.append(c if " " <= c <= "~" else "?")
    return "".join(out)


def run_hooks(hooks, now):
    """The after-step hooks fn(now_ms), in list order; a hook that removes itself (the boot
    antenna check) does not skip the next. Every runtime's (poker's Runtime, the blackjack one)."""
    i = 0
    while i < len(hooks):
        hook = hooks[i]
        hook(now)
        if i < len(hooks) and hooks[i] is hook:
            i += 1


class Drivers:
    """The drivers of one board map, opened (open_drivers): shoe, link, poller, buttons, lights, display."""

    def __init__(self, shoe, link, poller, buttons, lights, display):
        self.shoe = shoe
        self.link = link
        self.poller = poller
        self.buttons = buttons
        self.lights = lights
        self.display = display


def open_drivers(hal, board, seats, shoe_protocol="pn532", log=None, max_cards=8, pile_cards=60, text_filters=None):
    """Every driver of a checked board map (felt.runtime.board.load) on `hal`. text_filters: the
    list the console link passes every outgoing text through (the Runtime's, the same list)."""
    from felt.runtime import board as boardlib
    from felt.drivers.antennas import AntennaPoller
    from felt.drivers.buttons import SeatButtons
    from felt.drivers.console_link import ConsoleLink
    from felt.drivers.display import SSD1306
    from felt.drivers.mfrc522 import MFRC522
    from felt.drivers.neopixel_lights import SeatLights

    u = board.uarts
    baud = u["shoe"].get("baud", 115200)
    # the PN532's quiet time for a broken answer is counted in characters at the wire's baud rate
    config = shoe_mod.ShoeConfig(baud=baud) if shoe_protocol == "pn532" else None
    shoe = shoe_mod.Shoe(hal.uart(u["shoe"]["port"], baud=baud, tx=u["shoe"].get("tx"), rx=u["shoe"].get("rx")),
                         shoe_protocol, config=config, log=log)
    link = ConsoleLink(hal.uart(u["console"]["port"], baud=u["console"].get("baud", 115200),
                                tx=u["console"].get("tx"), rx=u["console"].get("rx")), proto.TABLE, log=log,
                       text_filters=text_filters)
    readers = [(loc, MFRC522(dev, name=loc)) for loc, dev in boardlib.open_antenna_devices(board, hal)]
    poller = AntennaPoller(readers, max_cards=max_cards, pile_cards=pile_cards)  # muck/burn: pile_cards
    buttons = SeatButtons(boardlib.open_buttons(board, hal), active_low=board.buttons_active_low)
    try:
        buttons.attach_irqs()
    except ConfigError:  # a backend without pin interrupts: the poll reads the pins anyway
        pass
    lights = SeatLights(hal.neopixel(board.neopixel["pin"], board.neopixel["count"]), seats)
    i2c = board.i2c
    display = SSD1306(hal.i2c(i2c["bus"], freq=i2c.get("freq", 400000), scl=i2c["scl"], sda=i2c["sda"]),
                      i2c.get("display", 0x3C))
    return Drivers(shoe, link, poller, buttons, lights, display)


def run_forever(rt, sleep_ms, steps=None, start=True):
    """The device's main loop: step, then sleep until the next thing is due. sleep_ms(ms) is
    the board's (time.sleep_ms on MicroPython); `steps` bounds the run (None: forever).
    start=False: the caller already started the runtime (felt.runtime.app.start shows the recovery
    line, which a second start would wipe from the display)."""
    if start:
        rt.start()
    n = 0
    while steps is None or n < steps:
        rt.step()
        n += 1
        wait = rt.next_due_ms() - rt.hal.ticks_ms()
        if wait > 0:
            sleep_ms(wait)
