# Hole-card secrecy (firmware; pure -- the table is read, time and nonces come in): which cards
# are secret right now, a Guard that takes them out of every public text (display, log/monitor,
# console) before they leave the board, commit-and-reveal records for the public feed, and the
# sealed broadcast feed released only `delay_ms` after the hand ended (hardware/security.md).
import hashlib
import json

try:
    import re
except ImportError:  # a port built without it: every text is scanned
    re = None

from felt.engine.cards import DECK_SIZE, card_text
from felt.errors import DeckError
from felt.security import AuthError
from felt.security.auth import FloorCommand
from felt.security import ed25519
from felt.security.hmac import hexlify, seal, signature_bytes, unhexlify, unseal

SALT_BYTES = 16
NONCE_BYTES = 12
DELAY_MS = 30 * 60 * 1000  # house default: 30 minutes, as streamed live games use
PLAYING = "playing"  # table.PLAYING (not imported: the guard must not pull the controller in)
OVER_STATES = ("over", "void")
_KEY_LEN = 11  # fields of SecretFeed._state_key
_CARDS = {}
for _c in range(DECK_SIZE):
    _CARDS[card_text(_c)] = _c
_HEX = "[0-9A-Fa-f]"
# What a text must contain for the guard to have anything to hide: a card (rank + suit) or a run of
# 8 hex digits (a tag UID is 8 or 14). One search in C; most log and display lines carry neither.
_MAY_CARRY = re.compile("[2-9TJQKA][cdhs]|" + _HEX * 8) if re is not None else None
_HEX_RUN = re.compile(_HEX * 8) if re is not None else None


def _holds(text, cards):
    """True when a secret card text (rank + suit) stands anywhere in `text`: one look at each
    suit letter, so the cost follows the text, not how many cards are secret."""
    for suit in "cdhs":
        i = text.find(suit, 1)
        while i > 0:
            if text[i - 1:i + 1] in cards:
                return True
            i = text.find(suit, i + 1)
    return False


def commitment(device, hand_no, place, cards, salt_hex):
    """SHA-256 hex of one salted commitment: place 'seat3' or 'board', cards as text ('AhKd')."""
    text = "felt-commit\0%s\0%d\0%s\0%s\0%s" % (device, hand_no, place, cards, salt_hex)
    return hexlify(hashlib.sha256(text.encode()).digest())


# ---- signed feed records (issue 12 item 6) ---------------------------------------------------------
# Every record the board puts on the public feed (commit, hand-end, reveal) and every sealed
# broadcast record carries "sig": the board's Ed25519 signature of FEED_LABEL, the device name and
# the record's canonical text (every other field, keys sorted). The secret key is the board's own
# device signing key, made on the board at provisioning (issue 16 item 1: no key store holds it);
# its public half (feed_public) is read back by feltctl provision (feed.pub), so the broadcaster
# -- who holds the symmetric broadcast key -- and whoever checks hands cannot forge a hand.
FEED_LABEL = "felt-feed 1"


def feed_signer(device_seed):
    """The board's feed signer (ed25519.Signer) from its device signing key (keys.Keys.sign)."""
    return ed25519.Signer(device_seed)


def feed_public(device_seed):
    """The 32-byte verification key of the board's feed (public: give it to anyone)."""
    return ed25519.public_key(device_seed)


def canonical(obj):
    """One text for a record on every interpreter (MicroPython dicts are not ordered): keys
    sorted, no spaces; str, int, list and dict only (ValueError for anything else)."""
    if isinstance(obj, bool) or obj is None or isinstance(obj, float):
        raise ValueError("a feed record holds no %s" % type(obj).__name__)
    if isinstance(obj, int):
        return "%d" % obj
    if isinstance(obj, str):
        return json.dumps(obj)
    if isinstance(obj, (list, tuple)):
        return "[" + ",".join([canonical(x) for x in obj]) + "]"
    if isinstance(obj, dict):
        out = []
        for k in sorted(obj):
            if not isinstance(k, str):
                raise ValueError("a feed record's keys are text")
            out.append(json.dumps(k) + ":" + canonical(obj[k]))
        return "{" + ",".join(out) + "}"
    raise ValueError("a feed record holds no %s" % type(obj).__name__)


def feed_message(device, record):
    """The bytes a record's "sig" signs: the label, the device and every field but "sig"."""
    body = {}
    for k in record:
        if k != "sig":
            body[k] = record[k]
    return ("%s\0%s\0%s" % (FEED_LABEL, device, canonical(body))).encode()


def check_signature(public, device, record):
    """True when record["sig"] is the board's signature (public: its 32-byte feed key)."""
    sig = record.get("sig")
    if not isinstance(sig, str):
        return False
    try:
        raw = signature_bytes(sig)
        msg = feed_message(device, record)
    except ValueError:
        return False
    return ed25519.verify(public, msg, raw)


def broadcast_aad(device, hand_no):
    return ("felt-broadcast\0%s\0%d" % (device, hand_no)).encode()


def open_broadcast(key, device, record):
    """The broadcaster's side: the dict inside a sealed broadcast record (ValueError if the key
    or the record is wrong)."""
    plain = unseal(key, unhexlify(record["nonce"]), unhexlify(record["sealed"]),
                   broadcast_aad(device, record["hand"]))
    return json.loads(plain.decode())


class _HandSecrets:
    """What one hand has dealt face down, per seat in deal order, and what is public."""

    def __init__(self, hand_no):
        self.hand_no = hand_no
        self.down = {}  # seat -> [card ints] dealt face down, in order
        self.shown = {}  # card -> True once tabled at the showdown (public by SHOW-*)
        self.extra = {}  # card -> True: seen on a seat antenna before the engine had it
        self.uids = {}  # uid hex -> card, for secret cards
        # seat -> [(count, salt hex)] of its commitments: the commitment itself went out on the public
        # feed and is never needed again (kept, it was ~1 KB of RAM a ten-seat hand until the
        # release, 30 minutes by default: hardware/memory.md, "The firmware's own live RAM")
        self.commits = {}
        self.board = []
        self.end_ms = None
        self.released = False

    def secret(self, card):
        return card not in self.shown and (card in self.extra or self._is_down(card))

    def _is_down(self, card):
        for seat in self.down:
            if card in self.down[seat]:
                return True
        return False


class SecretFeed:
    """One table's secrecy. device: board name; broadcast_key: 32 bytes; nonce_source(n) -> n
    unpredictable bytes; public(record dict) and broadcast(record dict): the two output feeds;
    audit: an AuditLog for delay changes; signer: the board's device signer (Keys.signer()), which signs every record. Call observe(table, now_ms) after every loop step."""

    def __init__(self, device, broadcast_key, nonce_source, public=None, broadcast=None, delay_ms=DELAY_MS,
                 audit=None, signer=None):
        self.device = device
        self.signer = signer  # the device signer: every record leaves signed (None: unsigned)
        self._key = broadcast_key
        self._nonce = nonce_source
        self.public = public
        self.broadcast = broadcast
        self.delay_ms = delay_ms
        self.audit = audit
        self.hands = []  # _HandSecrets not yet released, oldest first
        self.redactions = 0  # texts the guard had to change (each is a bug upstream)
        self._public = {}  # card -> True: shown openly in the current hand
        # _state_key of the table at the last refresh, and the list the next one is written into
        # (two lists swapped: the steady loop step compares without allocating, issue 20 item 4)
        self._refreshed = [None] * _KEY_LEN
        self._next_key = [None] * _KEY_LEN
        self._tokens = None  # secret_tokens(), made once per change (None: to be made)
        self.released_upto = 0  # hand numbers up to this one are released

    # ---- the house setting ---------------------------------------------------------------------
    def set_delay(self, command, now_ms=0):
        """Change the delay; only with an authenticated floor command (auth.FloorGate.verify)."""
        if not isinstance(command, FloorCommand) or command.verb != "delay":
            raise AuthError("refused: the broadcast delay changes only by an authenticated floor command")
        ms = command.args[0]
        if not isinstance(ms, int) or ms < 0:
            raise AuthError("refused: delay %r is not a number of milliseconds >= 0" % (ms,))
        old = self.delay_ms
        self.delay_ms = ms
        if self.audit is not None:
            self.audit.append("delay", "broadcast delay %d -> %d ms" % (old, ms), who=command.who, t_ms=now_ms)

    # ---- tracking the table ----------------------------------------------------------------------
    def _current(self, hand_no):
        if self.hands and self.hands[-1].hand_no == hand_no:
            return self.hands[-1]
        hs = _HandSecrets(hand_no)
        self.hands.append(hs)
        return hs

    def _state_key(self, table, h, key):
        """A fingerprint of the cards in play, written into the list `key`: changes whenever
        refresh() could find something new (a card dealt, read, placed, moved onto a seat, shown,
        discarded; a new hand). Its cost is a count, not the secret set's rebuild (issue 20: that
        ran for every text); it allocates nothing (the hand is kept by reference, no tuple), and
        every frame of it fits MicroPython's C stack (one above 11 words is heap-allocated)."""
        key[0] = table.hand_no
        key[1] = h
        key[2] = len(table.where)
        key[3] = _on_seats(table.where)
        key[4] = len(table.flight)
        key[5] = len(table.uid_card)
        key[6] = _discards(table.discards)
        key[7] = len(h.board)
        _hole_counts(h, key)

    def refresh(self, table):
        """Bring the secret set up to date with the table (cheap when nothing changed: the guard
        calls it for every text that may carry a card)."""
        h = table.hand
        if h is None or table.hand_no <= self.released_upto:
            return None  # no hand yet, or this one is released (its table still shows it over)
        hs = self._current(table.hand_no)
        if hs.end_ms is not None:
            return hs
        key = self._next_key
        self._state_key(table, h, key)
        if key == self._refreshed:
            return hs
        self._next_key, self._refreshed = self._refreshed, key
        self._tokens = None
        self._rebuild(table, h, hs)
        return hs

    def _rebuild(self, table, h, hs):
        seats = table.setup.seats
        for p in range(h.n):
            seat = seats[p]
            hole = h.hole[p]
            lst = hs.down.get(seat)
            for i in range(len(hole)):
                c = hole[i]
                if c < 0 or (i < len(h.up[p]) and h.up[p][i]):
                    continue
                if lst is None:
                    lst = hs.down[seat] = []
                if c not in lst:
                    lst.append(c)
            if h.shown[p]:
                for c in hole:
                    hs.shown[c] = True
        for card in table.where:
            if isinstance(table.where[card], int) and card >= 0:
                hs.extra[card] = True
        for card, hexu in table.flight:  # read by the shoe, not yet on an antenna: could be a hole card
            if card >= 0:
                hs.extra[card] = True
                hs.uids[hexu] = card
        for seat in table.discards:
            for c in table.discards[seat]:
                hs.extra[c] = True
        for hexu in table.uid_card:
            c = table.uid_card[hexu]
            if c >= 0 and hs.secret(c):
                hs.uids[hexu] = c
        hs.board = list(h.board)
        # what this hand shows openly (board, upcards, tabled hands): a card that was a hole card
        # of an earlier, not yet released hand is not secret when it is on this hand's board
        public = {}
        for c in h.board:
            public[c] = True
        for p in range(h.n):
            for i in range(len(h.hole[p])):
                if i < len(h.up[p]) and h.up[p][i]:
                    public[h.hole[p][i]] = True
        for c in hs.shown:
            public[c] = True
        self._public = public

    def observe(self, table, now_ms):
        """After a loop step: publish commitments of newly dealt down cards once a street's deal
        is complete, note the end of a hand, release hands whose delay has passed."""
        hs = self.refresh(table)
        if hs is not None and hs.end_ms is None:
            self._progress(hs, table, now_ms)
        if self._release_due(now_ms):
            self.release(now_ms)

    def _progress(self, hs, table, now_ms):
        ended = table.state in OVER_STATES
        if (ended or _all_dealt(table.hand)) and _commit_due(hs):
            self._commit(hs, now_ms)
        if ended:
            self._end(hs, now_ms)

    def _end(self, hs, now_ms):
        hs.end_ms = now_ms
        self._emit(self.public, {"kind": "commit", "hand": hs.hand_no, "place": "board",
                                 "c": self._board_commit(hs), "t_ms": now_ms})
        self._emit(self.public, {"kind": "hand-end", "hand": hs.hand_no, "t_ms": now_ms,
                                 "release_ms": now_ms + self.delay_ms})

    def _salt(self):
        return hexlify(self._nonce(SALT_BYTES))

    def _commit(self, hs, now_ms):
        if not _commit_due(hs):
            return  # every seat's cards committed already: the steady step allocates nothing
        for seat in sorted(hs.down):
            cards = hs.down[seat]
            done = hs.commits.setdefault(seat, [])
            if done and done[-1][0] == len(cards):
                continue
            salt = self._salt()
            c = commitment(self.device, hs.hand_no, "seat%d" % seat, _text(cards), salt)
            done.append((len(cards), salt))
            self._emit(self.public, {"kind": "commit", "hand": hs.hand_no, "place": "seat%d" % seat,
                                     "n": len(cards), "c": c, "t_ms": now_ms})

    def _board_commit(self, hs):
        if not hasattr(hs, "board_salt"):
            hs.board_salt = self._salt()
        return commitment(self.device, hs.hand_no, "board", _text(hs.board), hs.board_salt)

    def release(self, now_ms):
        """Reveal (public) and broadcast (sealed) every ended hand whose delay has passed."""
        if not self._release_due(now_ms):
            return  # nothing to release: the steady step allocates nothing
        keep = []
        for hs in self.hands:
            if hs.end_ms is None or now_ms < hs.end_ms + self.delay_ms:
                keep.append(hs)
                continue
            seats = {}
            salts = {}
            for seat in sorted(hs.down):
                seats["seat%d" % seat] = _text(hs.down[seat])
                salts["seat%d" % seat] = [[n, s] for n, s in hs.commits.get(seat, [])]
            reveal = {"kind": "reveal", "hand": hs.hand_no, "t_ms": now_ms, "end_ms": hs.end_ms,
                      "seats": seats, "salts": salts, "board": _text(hs.board), "board_salt": hs.board_salt}
            self._emit(self.public, reveal)
            plain = json.dumps({"hand": hs.hand_no, "end_ms": hs.end_ms, "seats": seats,
                                "board": _text(hs.board)}).encode()
            nonce = self._nonce(NONCE_BYTES)
            self._emit(self.broadcast, {"kind": "broadcast", "hand": hs.hand_no, "t_ms": now_ms,
                                        "nonce": hexlify(nonce),
                                        "sealed": hexlify(seal(self._key, nonce, plain,
                                                               broadcast_aad(self.device, hs.hand_no)))})
            hs.released = True
            self._tokens = None
            if hs.hand_no > self.released_upto:
                self.released_upto = hs.hand_no
        self.hands = keep

    def _release_due(self, now_ms):
        for hs in self.hands:
            if hs.end_ms is not None and now_ms >= hs.end_ms + self.delay_ms:
                return True
        return False

    def _emit(self, sink, record):
        if sink is not None:
            if self.signer is not None:
                record["sig"] = hexlify(self.signer.sign(feed_message(self.device, record)))
            sink(record)

    # ---- the guard ------------------------------------------------------------------------------
    def secret_tokens(self):
        """(card texts, uid hex) -> True of every card that must not appear in public now: face-down
        cards of every hand not yet released, except cards tabled in their hand and cards the
        current hand shows openly (the same physical card is public on this hand's board).
        Made once per change of the cards in play (refresh, release), then shared: read only."""
        if self._tokens is not None:
            return self._tokens
        cards = {}
        uids = {}
        public = self._public
        for hs in self.hands:
            for seat in hs.down:
                for c in hs.down[seat]:
                    if c not in hs.shown and c not in public:
                        cards[card_text(c)] = True
            for c in hs.extra:
                if c not in hs.shown and c not in public:
                    cards[card_text(c)] = True
            for hexu in hs.uids:
                c = hs.uids[hexu]
                if c not in hs.shown and c not in public:
                    uids[hexu] = True
        self._tokens = (cards, uids)
        return self._tokens

    def clean(self, text, table=None):
        """text with every secret card (as card text, e.g. 'Ah' inside 'AhKd', or as its tag
        UID) replaced by '??'. Counts each change in self.redactions. A text with no card and no
        hex run in it is returned as it is, without a look at the table."""
        if not text or (_MAY_CARRY is not None and _MAY_CARRY.search(text) is None):
            return text
        if table is not None:
            self.refresh(table)
        cards, uids = self.secret_tokens()
        if not cards and not uids:
            return text
        if (_HEX_RUN is not None and _HEX_RUN.search(text) is None) and not _holds(text, cards):
            return text  # cards in it, none secret, and no tag UID: nothing to scan word by word
        out = []
        i = 0
        n = len(text)
        changed = False
        while i < n:
            j = i
            while j < n and (text[j].isalpha() or text[j].isdigit()):
                j += 1
            if j == i:
                out.append(text[i])
                i += 1
                continue
            word = text[i:j]
            new = _redact(word, cards, uids)
            if new == word and table is not None and (j - i == 8 or j - i == 14):
                new = self._tag(table, word)
            if new != word:
                changed = True
            out.append(new)
            i = j
        if not changed:
            return text
        self.redactions += 1
        return "".join(out)

    def _tag(self, table, word):
        """A tag UID of the deck in play is hidden unless its card is public in this hand: the
        shoe names a tag before anyone knows where its card goes."""
        try:
            uid = unhexlify(word)
            c = table.registry.lookup(uid, table.config.deck)
        except (ValueError, DeckError):
            return word  # not hex, or not a card of the deck in play
        if (table.state == PLAYING and c not in self._public) or card_text(c) in self.secret_tokens()[0]:
            return "?" * len(word)
        return word


def _text(cards):
    return "".join([card_text(c) for c in cards])


def _lower(ch):
    return "a" <= ch <= "z"


def _redact(word, cards, uids):
    """A word (letters and digits) with secret cards replaced: a whole UID, or every secret card
    text that stands as a card -- not followed by a lower-case letter ('Ahead', 'The' stay) and
    not preceded by one unless that one ends a card ('AhKd', 'S2AhKd', '7hKd' all hide 'Kd')."""
    if word.upper() in uids:
        return "?" * len(word)
    out = None
    n = len(word)
    i = 0
    while i + 1 < n:
        two = word[i:i + 2]
        if (two in cards and (i + 2 == n or not _lower(word[i + 2]))
                and (i == 0 or not _lower(word[i - 1]) or word[i - 2:i] in _CARDS)):
            if out is None:
                out = list(word)
            out[i] = out[i + 1] = "?"
            i += 2
        else:
            i += 1
    return word if out is None else "".join(out)


def _on_seats(where):
    n = 0
    for card in where:
        if isinstance(where[card], int):
            n += 1
    return n


def _discards(discards):
    n = 0
    for seat in discards:
        n += len(discards[seat])
    return n


def _hole_counts(h, key):
    # key[8..10]: hole cards, upcards, tabled hands
    key[8] = key[9] = key[10] = 0
    for p in range(h.n):
        key[8] += len(h.hole[p])
        key[9] += _ups(h.up[p])
        if h.shown[p]:
            key[10] += 1


def _ups(flags):
    n = 0
    for u in flags:
        if u:
            n += 1
    return n


def _all_dealt(h):
    for p in range(h.n):
        if h.pending_hole[p]:
            return False
    return True


def _commit_due(hs):
    """Whether a seat holds down cards not yet covered by its last commitment (SecretFeed._commit)."""
    for seat in hs.down:
        done = hs.commits.get(seat)
        if not done or done[-1][0] != len(hs.down[seat]):
            return True
    return False


class Hooks:
    """What the feed adds to a loop.Runtime, as its declared hooks (felt.runtime.app.build passes
    them at construction): text_filter for every public text (the display, the console link, the
    log), observer after each step (commitments, hand end, release), auditor as an alert sink
    (with an audit.AuditLog every alert becomes an audit record, guarded text)."""

    def __init__(self, feed, table, clock, audit=None):
        self.feed = feed
        self.table = table
        self.clock = clock
        self.audit = audit

    def text_filter(self, text):
        return self.feed.clean(text, self.table)

    def observer(self, now_ms):
        self.feed.observe(self.table, self.clock())

    def auditor(self, a):
        self.audit.append("alert", self.feed.clean(a.line(), self.table), who=a.device or "table", t_ms=self.clock())


def install(runtime, feed, clock=None, audit=None):
    """Add the feed's hooks to a runtime built without them (tests on the plain sim): the text
    filter, the observer last in after_step, the auditor (with `audit`). Returns the feed."""
    h = Hooks(feed, runtime.table, clock or runtime.hal.ticks_ms, audit)
    runtime.text_filters.append(h.text_filter)
    runtime.after_step.append(h.observer)
    if audit is not None:
        runtime.alert_sinks.append(h.auditor)
    return feed
