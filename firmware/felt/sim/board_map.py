# The simulated board's map and tags (sim layer): a Pico-like pin map with N seats and the fixed tag
# UIDs of simulated cards -- shared by the poker sim (felt.sim.runner) and the blackjack board
# (felt.sim.blackjack_board), which must not load the poker sim to get them (issue 17: RAM).
from felt.runtime import board as boardlib

UID_PREFIX = (0x04, 0xFE, 0x17)
DECKS = ("A", "B")  # deck A is in play; deck B is registered too (a card of another deck)


def card_uid(card, deck="A"):
    """The fixed tag UID of a simulated card: 04 FE 17 <deck letter> 00 00 <card int>, 7 bytes
    (card int = rank * 4 + suit, so Ah of deck A is 04FE1741000032)."""
    return bytes(UID_PREFIX + (ord(deck), 0x00, 0x00, card))


def registry():
    """The deck registry of the simulated cards (DECKS, 52 tags each): here, not in the sim runner,
    so that a board that holds no simulation (the two-VM emulated board) loads it lightly."""
    from felt.engine.deck import DeckRegistry

    reg = DeckRegistry()
    for d in DECKS:
        reg.register(d, dict([(card_uid(c, d), c) for c in range(52)]))
    return reg


def sim_board(seats):
    """A Pico-like pin map (hardware/boards/pico.json trimmed to `seats` seats), checked by board.load."""
    ant = {"board": 10, "burn": 11, "muck": 12}
    pins = {}
    button_pins = (2, 3, 6, 7, 8, 9, 15, 17, 26, 27)
    for s in range(1, seats + 1):
        ant["seat%d" % s] = s - 1
        pins[str(s)] = button_pins[s - 1]
    return boardlib.load({
        "board": "pico", "name": "sim pico", "hal": "sim", "seats": seats,
        "gpio": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 26, 27, 28],
        "functions": {"spi0": {"sck": [18], "mosi": [19], "miso": [16]}, "i2c0": {"sda": [20], "scl": [21]},
                      "uart0": {"tx": [0], "rx": [1]}, "uart1": {"tx": [4], "rx": [5]}},
        "spi": {"bus": 0, "sck": 18, "mosi": 19, "miso": 16, "baud": 4000000},
        "chip_select": {"decoder": "74HC154", "address": [10, 11, 12, 13], "enable": 14},
        "antennas": ant, "buttons": {"active_low": True, "pull": "up", "pins": pins},
        "neopixel": {"pin": 22, "count": 5 * seats}, "i2c": {"bus": 0, "sda": 20, "scl": 21, "display": 60},
        "uarts": {"shoe": {"port": 0, "tx": 0, "rx": 1}, "console": {"port": 1, "tx": 4, "rx": 5}}})
