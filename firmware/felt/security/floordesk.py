# Floor commands applied to a table (controller side, no clock: now_ms comes in): the FloorGate
# checks the challenge answer, then the command runs -- broadcast delay, deck registration,
# stack adjustment between hands -- and is audited by the gate. Also the console hook that keeps
# the dealer console's unauthenticated `stack` to the first seating (hardware/security.md).
import hashlib

from felt.errors import RuleError
from felt.security import SecurityError, deckmap
from felt.security.hmac import hexlify


class FloorDesk:
    """gate: auth.FloorGate; table: table.Table; feed: secrecy.SecretFeed (for `delay`);
    floor_keys/device: to verify deck records. Every command needs gate.challenge() first."""

    def __init__(self, gate, table, feed=None, floor_keys=None, device=None):
        self.gate = gate
        self.table = table
        self.feed = feed
        self.floor_keys = floor_keys or {}
        self.device = device
        self._decks = {}  # sha256 hex -> deck record text, waiting for its floor command

    def challenge(self, now_ms):
        return self.gate.challenge(now_ms)

    def stage_deck(self, text):
        """Hold a deck record until a `deck ID SHA256` floor command names it; returns the hash."""
        h = hexlify(hashlib.sha256(text.encode()).digest())
        self._decks[h] = text
        return h

    def command(self, who, text, nonce_hex, tag_hex, now_ms):
        """Authenticate and run one floor command; returns what was done (one line). AuthError
        when it does not authenticate; FeltError (state unchanged) when it cannot be done."""
        cmd = self.gate.verify(who, text, nonce_hex, tag_hex, now_ms)
        fn = getattr(self, "_do_" + cmd.verb, None)
        if fn is None:
            raise SecurityError("floor command %s is authenticated but this table cannot do it yet" % cmd.verb)
        done = fn(cmd, now_ms)
        self.table.log("floor %s: %s" % (cmd.who, done))
        return done

    def _do_delay(self, cmd, now_ms):
        if self.feed is None:
            raise SecurityError("this table has no broadcast feed")
        old = self.feed.delay_ms
        self.feed.set_delay(cmd, now_ms)
        return "broadcast delay %d -> %d ms" % (old, self.feed.delay_ms)

    def _do_deck(self, cmd, now_ms):
        deck_id, digest = cmd.args[0], str(cmd.args[1])
        text = self._decks.get(digest)
        if text is None:
            raise SecurityError("no deck record with SHA-256 %s... was sent to the table" % digest[:12])
        got, mapping, _by = deckmap.verify(text, self.floor_keys, self.device)
        if got != str(deck_id):
            raise SecurityError("the record registers deck %s, the command names deck %s" % (got, deck_id))
        self.table.registry.register(got, mapping)  # DECK-1 checks; nothing changes if they fail
        del self._decks[digest]
        return "deck %s registered (52 tags)" % got

    def _do_stack(self, cmd, now_ms):
        seat, chips = cmd.args
        t = self.table
        if not isinstance(seat, int) or not isinstance(chips, int) or not 1 <= seat <= t.config.seats:
            raise RuleError("CASH-1", "stack SEAT CHIPS: seat 1..%d and a whole number of chips" % t.config.seats)
        if t.in_hand:
            raise RuleError("GAME-6", "a stack is adjusted between hands, not during hand %d" % t.hand_no)
        if t.stacks[seat - 1] <= 0:
            t.sit(seat, chips)
        elif chips <= 0:
            raise RuleError("CASH-1", "a stack must be more than 0 chips, got %d" % chips)
        else:
            t.stacks[seat - 1] = chips
        return "seat %d stack set to %d" % (seat, chips)


def guard_console(runtime):
    """The dealer console's `stack` entry (no floor key) may seat players before the first hand
    only; after that a stack changes by floor command. Wraps runtime._console in place."""
    handle = runtime._console

    def console(msg):
        if msg.verb == "stack" and runtime.table.hand_no > 0:
            runtime.link.reply_error(msg.seq, "stack changes after the first hand need a floor command (floor key)",
                                     code="auth")
            return
        handle(msg)
    runtime._console = console
