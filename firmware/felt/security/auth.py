# Floor-command authentication (firmware, pure: the nonce source and the clock come in): the
# board issues a fresh random challenge, the floor tool answers with HMAC-SHA256(floor key,
# device, nonce, who, command); each challenge is good for one try within ttl_ms, so a recorded
# command cannot be replayed. Commands that change money or the game outside play need this.
from felt.security import AuthError
from felt.security.hmac import compare, hexlify, hmac_hex, hmac_sha256, unhexlify
from felt.textnum import is_digits

NONCE_BYTES = 16
TTL_MS = 60000  # a challenge not answered within a minute is dropped
# Challenges are not stored (issue 12 item 8): a challenge is 4 fresh bytes, the 4-byte issue time
# and 8 bytes of HMAC under a key drawn at each boot, so a flood of `challenge` evicts nothing (the
# old list of 4 let anyone on the console push the floor's challenge out before it was answered),
# and a challenge from before a restart never verifies. What is stored is what was answered.
MAX_TRIED = 64  # wrongly answered challenges remembered (one try each); beyond, the oldest are forgotten
# verb -> (number of arguments, what it does); all change money or the game outside normal play
VERBS = {
    "void": (0, "void the hand in progress (every bet returned)"),
    "stack": (2, "adjust a seat's stack: stack SEAT CHIPS"),
    "level": (1, "change the blind level: level N"),
    "structure": (1, "change the betting structure: structure no_limit|pot_limit|limit"),
    "delay": (1, "change the broadcast hole-card delay: delay MS"),
    "deck": (2, "register a deck map: deck ID MAP-SHA256"),
    # issue 16: end a tilt after inspection (item 3); set the wall clock the event log carries (item 4)
    "clear": (0, "clear a tilt (integrity failure) once the floor has inspected the table"),
    "time": (1, "set the wall clock: time UNIX-SECONDS (UTC)"),
    # the floor's answers from the room (issue 15 item 2; hardware/floor.md): a proposal ruled on
    # from the floor's desk, the level clock and hand-for-hand set from there
    "ruling": (2, "confirm or reject a proposed ruling: ruling ALERT-ID confirm|reject"),
    "clock": (1, "the level clock: clock start|pause|resume|off|M:SS"),
    "h4h": (1, "hand-for-hand: h4h on|off|M:SS|MINUTES"),
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
        self._boot_key = nonce_source(32)  # this boot's: challenges of an earlier boot never verify
        self._used = {}  # nonce hex -> issued ms: answered with a valid tag (as many as floor commands)
        self._tried = []  # nonce hex answered wrongly, oldest first (at most MAX_TRIED)

    def challenge(self, now_ms):
        """A fresh nonce (hex) for the next floor command."""
        raw = self._nonce(NONCE_BYTES)
        if len(raw) != NONCE_BYTES:
            raise AuthError("the nonce source gave %d bytes, not %d" % (len(raw), NONCE_BYTES))
        body = raw[:4] + (now_ms & 0xFFFFFFFF).to_bytes(4, "big")
        return hexlify(body + hmac_sha256(self._boot_key, body)[:8])

    def _take(self, nonce_hex, now_ms):
        """The issue time of a challenge this boot issued and nobody tried yet; else AuthError."""
        try:
            raw = unhexlify(nonce_hex)
        except ValueError:
            raw = b""
        if len(raw) != NONCE_BYTES or not compare(hmac_sha256(self._boot_key, raw[:8])[:8], raw[8:]):
            raise AuthError("refused: challenge %s... was never issued by this board since it started (a "
                            "challenge from before a restart, or made up)" % nonce_hex[:8])
        key = hexlify(raw)
        if key in self._used or key in self._tried:
            raise AuthError("refused: challenge %s... was already used (replayed command)" % nonce_hex[:8])
        issued = int.from_bytes(raw[4:8], "big")
        age = (now_ms - issued) & 0xFFFFFFFF
        if age > self.ttl_ms:
            self._tried_add(key)
            raise AuthError("refused: the challenge expired (%d ms old, limit %d ms); ask for a new one"
                            % (age, self.ttl_ms))
        return key, issued

    def _tried_add(self, key):
        self._tried.append(key)
        if len(self._tried) > MAX_TRIED:
            self._tried.pop(0)  # a second guess at an HMAC-SHA256 tag gains nothing

    def _use(self, key, issued, now_ms):
        self._used[key] = issued
        for k in list(self._used):  # forget what has expired anyway
            if ((now_ms - self._used[k]) & 0xFFFFFFFF) > self.ttl_ms:
                del self._used[k]

    def verify(self, who, command, nonce_hex, tag_hex, now_ms):
        """The FloorCommand if `tag_hex` authenticates `command` by floor key `who` for a live
        challenge; else AuthError (and an audit record of the refusal)."""
        try:
            taken, issued = self._take(nonce_hex, now_ms)
            key = self._keys.get(who)
            if key is None or not compare(answer(key, self.device, nonce_hex, who, command), tag_hex):
                self._tried_add(taken)  # one try per challenge, right or wrong
                if key is None:
                    raise AuthError("refused: no floor key named %r on this board" % (who,))
                raise AuthError("refused: the command does not authenticate (wrong key or altered command)")
            self._use(taken, issued, now_ms)
            verb, args = parse_command(command)
        except AuthError as e:
            if self.audit is not None:
                self.audit.append("auth-refused", "%s: %s" % (command[:60], e), who=who[:32], t_ms=now_ms)
            raise
        cmd = FloorCommand(who, verb, args, command)
        if self.audit is not None:
            self.audit.append("floor", command, who=who, t_ms=now_ms)
        return cmd
