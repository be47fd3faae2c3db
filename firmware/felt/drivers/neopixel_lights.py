"""Seat indicator lights on a WS2812 (NeoPixel) chain -- drivers layer (hardware/protocols/ws2812.md).

Each seat has one LED per role: dealer button (BLIND-2, BLIND-3), small blind, big blind, action-on
(GAME-3, GAME-4) and the all-in light (BET-52: all-ins are marked). apply()
takes the desired state (computed from engine state by the view) and changes only the LEDs that
differ from what the chain last latched; a WS2812 chain is always shifted out whole, so "only the
differences" means: no write at all when nothing changed. After a reset of the chain (or of the
board) reset() makes the next apply() rewrite everything, so the lights repair themselves.
"""
from felt.errors import ConfigError

DEALER = "dealer"
SMALL_BLIND = "small_blind"
BIG_BLIND = "big_blind"
ACTION = "action"
ALL_IN = "all_in"
ROLES = (DEALER, SMALL_BLIND, BIG_BLIND, ACTION, ALL_IN)
SINGLE_ROLES = (DEALER, SMALL_BLIND, BIG_BLIND, ACTION)  # at most one seat each

# Default colours (R, G, B) at full scale; `brightness` scales them (WS2812s are blinding at 255).
COLOURS = {DEALER: (255, 255, 255), SMALL_BLIND: (0, 80, 255), BIG_BLIND: (255, 160, 0),
           ACTION: (0, 255, 0), ALL_IN: (255, 0, 0)}


def default_layout(seats):
    """Seat s (1..seats), role r -> LED (s-1)*5 + r, in ROLES order: the chain runs seat by seat."""
    out = {}
    for s in range(1, seats + 1):
        for r in range(len(ROLES)):
            out[(s, ROLES[r])] = (s - 1) * len(ROLES) + r
    return out


class SeatLights:
    """chain: a PixelChain (felt.hal contract: count, write(rgb)). layout: {(seat, role): led}."""

    def __init__(self, chain, seats, layout=None, colours=None, brightness=64):
        self.chain = chain
        self.seats = seats
        # None: the default chain order, worked out per LED (default_layout's formula) -- as a
        # dict it was 2.6 KB of RAM for a ten-seat table
        self.layout = layout
        self.colours = colours if colours is not None else COLOURS
        self.brightness = brightness
        used = {}
        if layout is None:
            led = chain.count  # the first default LED past the chain's end, if the seats need it
            if seats * len(ROLES) > led:
                raise ConfigError("LED %d for seat %d %s is outside the chain of %d" % (
                    led, led // len(ROLES) + 1, ROLES[led % len(ROLES)], chain.count))
            layout = {}  # every default LED is distinct and inside the chain
        for key in sorted(layout):
            led = layout[key]
            if not 0 <= led < chain.count:
                raise ConfigError("LED %d for seat %d %s is outside the chain of %d" % (led, key[0], key[1], chain.count))
            if led in used:
                raise ConfigError("LED %d used for both %s and %s" % (led, used[led], key))
            used[led] = key
        self._latched = bytearray(3 * chain.count)
        self._valid = False  # False until the chain is known to hold _latched
        self.writes = 0

    def reset(self):
        """The chain lost its state (power or reset): the next apply() writes every LED."""
        self._valid = False

    def _check_seat(self, role, seat):
        if not (isinstance(seat, int) and 1 <= seat <= self.seats):
            raise ValueError("%s on seat %r: seats are 1..%d" % (role, seat, self.seats))

    def frame(self, desired):
        """The chain contents (R, G, B bytes) for `desired`: {role: seat or None} for the single
        roles, {ALL_IN: iterable of seats}. Unknown roles or seats raise ValueError."""
        for role in desired:
            if role not in ROLES:
                raise ValueError("unknown light %r (known: %s)" % (role, ", ".join(ROLES)))
        buf = bytearray(3 * self.chain.count)
        for role in SINGLE_ROLES:
            seat = desired.get(role)
            if seat is not None:
                self._check_seat(role, seat)
                self._paint(buf, seat, role)
        for seat in desired.get(ALL_IN, ()):
            self._check_seat(ALL_IN, seat)
            self._paint(buf, seat, ALL_IN)
        return buf

    def _paint(self, buf, seat, role):
        if self.layout is None:
            led = (seat - 1) * len(ROLES) + ROLES.index(role)
        else:
            led = self.layout.get((seat, role))
            if led is None:
                return  # this table has no such LED (a layout may leave some out)
        c = self.colours[role]
        b = self.brightness
        buf[3 * led] = c[0] * b // 255
        buf[3 * led + 1] = c[1] * b // 255
        buf[3 * led + 2] = c[2] * b // 255

    def apply(self, desired, force=False):
        """Bring the chain to `desired`; returns the LEDs that changed (all of them when forced or
        after reset()). Nothing is written when nothing changed."""
        buf = self.frame(desired)
        if not force and self._valid and buf == self._latched:
            return []  # one compare in C: most refreshes change nothing
        changed = []
        for led in range(self.chain.count):
            j = 3 * led
            if force or not self._valid or buf[j] != self._latched[j] or buf[j + 1] != self._latched[j + 1] \
                    or buf[j + 2] != self._latched[j + 2]:
                changed.append(led)
        if changed:
            self.chain.write(buf)
            self._latched = buf
            self._valid = True
            self.writes += 1
        return changed
