# Floor-command authentication (firmware, pure: the nonce source and the clock come in): the
# board issues a fresh random challenge, the floor tool answers with HMAC-SHA256(floor key,
# device, nonce, who, command); each challenge is good for one try within ttl_ms, so a recorded
# command cannot be replayed. Commands that change money or the game outside play need this.
from felt.security import AuthError
from felt.security.hmac import compare, hexlify, hmac_hex
from felt.textnum import is_digits

NONCE_BYTES = 16
TTL_MS = 60000  # a challenge not answered within a minute is dropped
MAX_OPEN = 4  # outstanding challenges; the oldest goes when a fifth is asked for
# verb -> (number of arguments, what it does); all change money or the game outside normal play
VERBS = {
    "void": (0, "void the hand in progress (every bet returned)"),
    "stack": (2, "adjust a seat's stack: stack SEAT CHIPS"),
    "level": (1, "change the blind level: level N"),
    "structure": (1, "change the betting structure: structure no_limit|pot_limit|limit"),
    "delay": (1, "change the broadcast hole-card delay: delay MS"),
    "deck": (2, "register a deck map: deck ID MAP-SHA256"),
}


class FloorCommand:
    """A command that passed authentication: who (floor key name), verb, args (ints where the
    text is a number), text (as signed)."""

    def __init__(self, who, verb, args, text):
        self.who = who
        self.verb = verb
        self.args = args
        self.text = text

    def __repr__(self):
        return "FloorCommand(%s: %s)" % (self.who, self.text)


def parse_command(text):
    """'stack 3 1500' -> ('stack', [3, 1500]); AuthError for an unknown verb or argument count."""
    w = text.split()
    if not w or w[0] not in VERBS:
        raise AuthError("unknown floor command %r (known: %s)" % (text[:30], " ".join(sorted(VERBS))))
    n = VERBS[w[0]][0]
    if len(w) - 1 != n:
        raise AuthError("floor command %s takes %d argument(s): %s" % (w[0], n, VERBS[w[0]][1]))
    args = []
    for a in w[1:]:
        args.append(int(a) if is_digits(a) else a)  # ASCII digits only ('\u00b2'.isdigit() is True)
    return w[0], args


def message(device, nonce_hex, who, command):
    """The exact bytes the floor key authenticates."""
    return "felt-floor\0%s\0%s\0%s\0%s" % (device, nonce_hex, who, command)


def answer(floor_key, device, nonce_hex, who, command):
    """The floor tool's side: the tag (hex) to send with `command` for challenge `nonce_hex`."""
    return hmac_hex(floor_key, message(device, nonce_hex, who, command))


class FloorGate:
    """The board's side. floor_keys: {name: key}; nonce_source(n) -> n unpredictable bytes
    (os.urandom on the board, a counter in tests); audit: an audit.AuditLog or None."""

    def __init__(self, device, floor_keys, nonce_source, audit=None, ttl_ms=TTL_MS):
        self.device = device
        self._keys = floor_keys
        self._nonce = nonce_source
        self.audit = audit
        self.ttl_ms = ttl_ms
        self._open = []  # [(nonce hex, issued ms)], oldest first

    def challenge(self, now_ms):
        """A fresh nonce (hex) for the next floor command."""
        raw = self._nonce(NONCE_BYTES)
        if len(raw) != NONCE_BYTES:
            raise AuthError("the nonce source gave %d bytes, not %d" % (len(raw), NONCE_BYTES))
        n = hexlify(raw)
        self._open.append((n, now_ms))
        if len(self._open) > MAX_OPEN:
            self._open.pop(0)
        return n

    def _take(self, nonce_hex, now_ms):
        for i in range(len(self._open)):
            if self._open[i][0] == nonce_hex:
                issued = self._open.pop(i)[1]  # one try per challenge, right or wrong
                if now_ms - issued > self.ttl_ms:
                    raise AuthError("refused: the challenge expired (%d ms old, limit %d ms); ask for a new one"
                                    % (now_ms - issued, self.ttl_ms))
                return
        raise AuthError("refused: challenge %s... was never issued or was already used (replayed command)"
                        % nonce_hex[:8])

    def verify(self, who, command, nonce_hex, tag_hex, now_ms):
        """The FloorCommand if `tag_hex` authenticates `command` by floor key `who` for a live
        challenge; else AuthError (and an audit record of the refusal)."""
        try:
            self._take(nonce_hex, now_ms)
            key = self._keys.get(who)
            if key is None:
                raise AuthError("refused: no floor key named %r on this board" % (who,))
            if not compare(answer(key, self.device, nonce_hex, who, command), tag_hex):
                raise AuthError("refused: the command does not authenticate (wrong key or altered command)")
            verb, args = parse_command(command)
        except AuthError as e:
            if self.audit is not None:
                self.audit.append("auth-refused", "%s: %s" % (command[:60], e), who=who[:32], t_ms=now_ms)
            raise
        cmd = FloorCommand(who, verb, args, command)
        if self.audit is not None:
            self.audit.append("floor", command, who=who, t_ms=now_ms)
        return cmd
