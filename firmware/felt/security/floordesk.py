# Floor commands applied to a table (controller side, no clock: now_ms comes in): the FloorGate
# checks the challenge answer, then the command runs through the table's entry points -- void the
# hand, adjust a stack, change level or structure (felt/table/rulings.py), broadcast delay, deck
# registration -- and is audited by the gate. The FELT1 console reaches it through loop.py (verbs
# challenge / auth / deckline). Also the console hook that keeps the dealer console's
# unauthenticated `stack` to the first seating (StackGuard; hardware/security.md section 5).
import hashlib

from felt.errors import FeltError, RuleError
from felt.table.alerts import WARN
from felt.proto import console as proto
from felt.security import AuthError, SecurityError, deckmap
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
        self._order = []  # their hashes, oldest first (MicroPython dicts keep no order)
        self._lines = None  # deck record lines arriving over the console (deck_line)
        self.tilt = None  # felt.security.tilt.TiltLock (felt.runtime.app sets it): `clear` goes through it
        self.verbs = None  # the commands this table can do (None: all; a blackjack table: clear, time)

    MAX_STAGED = 2  # deck records held at once (each ~2.5 KB of heap until registered)

    def challenge(self, now_ms):
        return self.gate.challenge(now_ms)

    def stage_deck(self, text):
        """Hold a deck record until a `deck ID SHA256` floor command names it; returns the hash.
        Only a record a floor key of this board signed is staged (issue 12 item 8: anyone on the
        console filled both slots with junk and locked deck registration out); when the slots are
        full the oldest staged record goes (only a replay of an earlier signed record can do that)."""
        deckmap.verify(text, self.floor_keys, self.device)  # SecurityError: not staged
        h = hexlify(hashlib.sha256(text.encode()).digest())
        if h not in self._decks:
            self._order.append(h)
            if len(self._order) > self.MAX_STAGED:
                del self._decks[self._order.pop(0)]
        self._decks[h] = text
        return h

    def deck_line(self, n, text):
        """Line n (1-based) of a deck record sent over the console (FELT1 `deckline`). Line 1
        starts a record, the others come in order; the `sig` line completes it and stages it:
        returns its SHA-256 then (None before). SecurityError for a line out of order."""
        if n == 1:
            if text != deckmap.HEADER:
                raise SecurityError("deckline 1 must be %r" % deckmap.HEADER)
            self._lines = []
        elif self._lines is None or n != len(self._lines) + 1:
            self._lines = None
            raise SecurityError("deckline %d out of order (%s); send the record again from line 1" % (
                n, "no record started" if self._lines is None else "expected %d" % (len(self._lines) + 1)))
        self._lines.append(text)
        if not text.startswith("sig "):
            return None
        record = "\n".join(self._lines) + "\n"
        self._lines = None
        return self.stage_deck(record)

    def command(self, who, text, nonce_hex, tag_hex, now_ms):
        """Authenticate and run one floor command; returns what was done (one line). AuthError
        when it does not authenticate; FeltError (state unchanged) when it cannot be done."""
        cmd = self.gate.verify(who, text, nonce_hex, tag_hex, now_ms)
        fn = getattr(self, "_do_" + cmd.verb, None)
        if fn is None or (self.verbs is not None and cmd.verb not in self.verbs):
            raise SecurityError("floor command %s is authenticated but this table cannot do it yet" % cmd.verb)
        done = fn(cmd, now_ms)
        self.table.log("floor %s: %s" % (cmd.who, done))
        return done

    def answer(self, msg, link, now_ms):
        """One FELT1 1.1 floor line from the console (loop.py hands it over): `challenge` -> ok
        nonce= ttl=; `deckline N "text"` -> ok (sha256= on the sig line); `auth NAME NONCE TAG
        "command"` -> ok cmd= audit=. Refusals: error code=auth (replayed, expired, wrong key,
        altered, unknown command) or error rule= code=rule (authenticated but cannot be done; state
        unchanged); either is also an alert on the table (display, console, audit)."""
        t = self.table
        try:
            if msg.verb == "challenge":
                link.reply_ok(msg.seq, nonce=self.challenge(now_ms), ttl=self.gate.ttl_ms)
            elif msg.verb == "deckline":
                digest = self.deck_line(msg.args[0], msg.text)
                if digest is None:
                    link.reply_ok(msg.seq)
                else:
                    link.reply_ok(msg.seq, sha256=digest)
            else:
                self.command(msg.args[0], msg.text, msg.args[1], msg.args[2], now_ms)
                verb = msg.text.split()[0]
                audit = self.gate.audit
                if audit is not None:
                    link.reply_ok(msg.seq, cmd=verb, audit=audit.seq)
                else:
                    link.reply_ok(msg.seq, cmd=verb)
        except AuthError as e:
            t.alert(WARN, (), "floor command refused: %s" % _short(str(e)),
                    "ask for a new challenge; check the floor key", device="console")
            link.reply_error(msg.seq, _short(str(e)), code="auth")
        except RuleError as e:
            t.rule_alert(e)
            link.reply_error(msg.seq, _short(e.message), rule=e.rule, code="rule")
        except FeltError as e:  # SecurityError (deck record), ConfigError ("TOUR-1: ..."): named
            text = str(e)
            rule = _rule_of(text)
            t.alert(WARN, (rule,) if rule else (), "floor command not done: %s" % _short(text), device="console")
            link.reply_error(msg.seq, _short(text), rule=rule, code="rule")

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
        uids = [None] * len(mapping)
        for uid in mapping:
            uids[mapping[uid]] = hexlify(uid)
        # a table input (journaled, in the snapshot: survives a power cut); DECK-1 checks there
        done = self.table.register_deck(got, uids)
        del self._decks[digest]
        self._order.remove(digest)
        return done

    def _do_clear(self, cmd, now_ms):
        # issue 16 item 3: the floor has inspected the table; the tilt lock records the clear
        if self.tilt is not None:
            return self.tilt.clear(cmd.who, now_ms)
        return self.table.clear_tilt()

    def _do_time(self, cmd, now_ms):
        # issue 16 item 4: the wall clock every later audit record carries beside the board's ms
        audit = self.gate.audit
        if audit is None:
            raise SecurityError("this table keeps no event log to stamp")
        return audit.set_wall(cmd.args[0], now_ms)

    def _do_stack(self, cmd, now_ms):
        return self.table.adjust_stack(cmd.args[0], cmd.args[1])  # CASH-1, CASH-4: between hands

    def _do_void(self, cmd, now_ms):
        return self.table.void_hand()

    def _do_level(self, cmd, now_ms):
        return self.table.set_level(cmd.args[0])  # TOUR-1: from the next hand

    def _do_structure(self, cmd, now_ms):
        return self.table.set_structure(cmd.args[0])

    def _do_ruling(self, cmd, now_ms):
        # a proposal (DEAL-15 ASSIST, SHOW-16, BET-39/41, CASH-13) ruled on from the floor's desk:
        # the same table input as the dealer's confirm / reject (journaled, replayed after a cut)
        aid, what = cmd.args
        if not isinstance(aid, int) or what not in ("confirm", "reject"):
            raise SecurityError("ruling takes an alert number and confirm|reject, not %r" % cmd.text[:40])
        pending = [a.id for a in self.table.pending()]
        if aid not in pending:
            raise RuleError("DEAL-15", "no pending proposal #%d (pending: %s)" % (
                aid, " ".join(["#%d" % i for i in pending]) or "none"))
        self.table.ruling(aid, what == "confirm")
        return "proposal #%d %sed" % (aid, "confirm" if what == "confirm" else "reject")

    def _do_clock(self, cmd, now_ms):
        return self._setting("level_clock", cmd, now_ms, "TOUR-1")  # TOUR-1: the level clock

    def _do_h4h(self, cmd, now_ms):
        return self._setting("hand_for_hand", cmd, now_ms, "TOUR-8")  # TOUR-8/10: hand-for-hand

    def _setting(self, key, cmd, now_ms, rule):
        value = cmd.args[0]  # as the console's `set` passes it (digits: an int)
        seq = self.table.seq
        if not self.table.configure(key, value, now_ms=now_ms):
            # the table raised an alert naming the rule; the floor is told the same
            text = self.table.alerts[-1].text if self.table.seq != seq else "refused"
            raise RuleError(rule, text)
        return "%s %s" % (key, value)


def _rule_of(text):
    # "TOUR-1: ..." -> "TOUR-1" (ConfigError texts open with the rule they break), else None
    head = text.split(":", 1)[0]
    name, dash, num = head.partition("-")
    return head if dash and name.isalpha() and name.isupper() and num.isdigit() else None


def _short(text, n=150):
    # a FELT1 text: printable ASCII, short enough for one line; inert (issue 12 item 1): a refusal
    # may quote what was typed (a floor key name, a command, a deck record line)
    text = proto.inert(text)
    out = []
    for c in text[:n]:
        out.append(c if " " <= c <= "~" else "?")
    return "".join(out)


class StackGuard:
    """A console filter (loop.Runtime console_filters): the dealer console's `stack` entry (no
    floor key) may seat players before the first hand only; after that a stack changes by floor
    command. Answers a refused entry itself (code=auth)."""

    def __init__(self, table, link):
        self.table = table
        self.link = link

    def __call__(self, msg):
        if msg.verb == "stack" and self.table.hand_no > 0:
            self.link.reply_error(msg.seq, "stack changes after the first hand need a floor command (floor key)",
                                  code="auth")
            return True
        return False


def guard_console(runtime):
    """Add the StackGuard to the console filters of a runtime built without it (tests on the
    plain sim; felt.runtime.app.build passes it at construction)."""
    runtime.console_filters.append(StackGuard(runtime.table, runtime.link))
