# Deck registry and per-hand card integrity (engine layer, pure): which RFID tag UID is which
# card of which registered deck (DECK-1, DECK-7), and the alarms of DECK-5 (a duplicate card in
# a hand, a tag of another registered deck, an unknown tag). No I/O: UIDs arrive as bytes.
from felt.engine.cards import DECK_SIZE, UNKNOWN, card_text
from felt.errors import DeckError, DuplicateCard, ForeignDeckCard, UnknownTag

UID_LENGTHS = (4, 7)  # ISO 14443-A single and double size UIDs


def uid_text(uid):
    """b'\\x04\\xa2...' -> '04A2...' (for messages)."""
    return "".join(["%02X" % b for b in uid])


def _check_uid(uid):
    if not isinstance(uid, (bytes, bytearray)) or len(uid) not in UID_LENGTHS:
        raise DeckError("DECK-1", "a tag UID is 4 or 7 bytes, not %r" % (uid,), legal=UID_LENGTHS)
    return bytes(uid)


def _check_card(card):
    if not isinstance(card, int) or card < 0 or card >= DECK_SIZE:
        raise DeckError("DECK-1", "a tag must map to one of the 52 cards (0..51), not %r "
                        "(no jokers)" % (card,), legal=(0, DECK_SIZE - 1))


class DeckScan:
    """Registration of one deck tag by tag (DECK-1): the shoe reads each card once.
    add() refuses a 53rd tag and a second tag for a card already scanned; reading the same
    tag again is harmless. complete is True at 52 distinct cards."""

    def __init__(self):
        self.mapping = {}  # uid bytes -> card
        self._cards = bytearray(DECK_SIZE)  # 1 where that card has a tag

    def add(self, uid, card):
        """Record one tag; returns True if it was new, False for a repeated read."""
        uid = _check_uid(uid)
        _check_card(card)
        old = self.mapping.get(uid)
        if old is not None:
            if old == card:
                return False
            raise DeckError("DECK-1", "tag %s was scanned as %s and now as %s"
                            % (uid_text(uid), card_text(old), card_text(card)))
        if len(self.mapping) >= DECK_SIZE:
            raise DeckError("DECK-1", "a 53rd tag (%s) -- a deck has exactly 52 cards" % uid_text(uid),
                            legal=DECK_SIZE)
        if self._cards[card]:
            raise DeckError("DECK-1", "two tags for %s -- each card carries exactly one tag" % card_text(card))
        self._cards[card] = 1
        self.mapping[uid] = card
        return True

    @property
    def count(self):
        return len(self.mapping)

    @property
    def complete(self):
        return len(self.mapping) == DECK_SIZE

    def missing(self):
        """Cards without a tag yet, ascending."""
        return [c for c in range(DECK_SIZE) if not self._cards[c]]


_SLOT = 8  # a registered tag in a deck's table: its UID length, then the UID zero-padded to 7 bytes
_PAD = bytes(7)


def _slot(uid):
    return bytes((len(uid),)) + uid + _PAD[len(uid):]


class DeckRegistry:
    """Every registered deck: tag UID -> (deck id, card). register() validates a whole deck
    (DECK-1); lookup() resolves a tag read during a hand against the deck in play (DECK-5)."""

    def __init__(self):
        # deck_id -> 52 slots of 8 bytes, slot i = the tag of card i: 416 bytes a deck, searched with
        # bytes.find (C speed, nothing kept per tag; RAM: hardware/memory.md).
        self._decks = {}

    def _find(self, key):
        # (deck_id, card) of the tag whose slot is `key`, or None; a match must start on a slot
        for deck_id in self._decks:
            table = self._decks[deck_id]
            at = table.find(key)
            while at >= 0 and at % _SLOT:
                at = table.find(key, at + 1)
            if at >= 0:
                return deck_id, at // _SLOT
        return None

    def register(self, deck_id, mapping):
        """Register (or re-register, DECK-7) deck `deck_id` from {uid bytes: card}: exactly
        52 tags, 52 distinct cards, no tag already in another deck. On any error nothing
        changes."""
        scan = DeckScan()
        for uid, card in mapping.items():
            scan.add(uid, card)
        if not scan.complete:
            raise DeckError("DECK-1", "deck %s has %d tags; missing %s" % (
                deck_id, scan.count, " ".join([card_text(c) for c in scan.missing()])), legal=DECK_SIZE)
        table = bytearray(DECK_SIZE * _SLOT)
        for uid in scan.mapping:
            key = _slot(uid)
            owner = self._find(key)
            if owner is not None and owner[0] != deck_id:
                raise DeckError("DECK-1", "tag %s already belongs to deck %s" % (uid_text(uid), owner[0]))
            at = scan.mapping[uid] * _SLOT
            table[at:at + _SLOT] = key
        self._decks[deck_id] = bytes(table)

    def tags(self, deck_id):
        """The tag UIDs of `deck_id` in card order (card i's tag at i)."""
        t = self._decks[deck_id]
        return [bytes(t[i * _SLOT + 1:i * _SLOT + 1 + t[i * _SLOT]]) for i in range(DECK_SIZE)]

    def unregister(self, deck_id):
        self._decks.pop(deck_id, None)

    def decks(self):
        """Registered deck ids (sorted by their text, so both interpreters agree)."""
        return sorted(self._decks, key=str)

    def lookup(self, uid, deck_in_play):
        """The card of tag `uid`, which must belong to `deck_in_play`. Raises UnknownTag for a
        tag of no registered deck and ForeignDeckCard for one of another deck (DECK-5)."""
        if not isinstance(uid, (bytes, bytearray)):
            raise UnknownTag("DECK-5", "tag UID must be bytes, not %r" % (uid,))
        key = bytes(uid)
        owner = self._find(_slot(key)) if len(key) in UID_LENGTHS else None
        if owner is None:
            raise UnknownTag("DECK-5", "tag %s is not registered to any deck (joker, other deck or "
                             "different back?)" % uid_text(key))
        deck_id, card = owner
        if deck_id != deck_in_play:
            raise ForeignDeckCard("DECK-5", "tag %s is %s of deck %s, but deck %s is in play"
                                  % (uid_text(key), card_text(card), deck_id, deck_in_play))
        return card

    def missing(self, deck_id, seen_uids):
        """DECK-6: cards of `deck_id` whose tags are absent from a post-hand scan, ascending."""
        if deck_id not in self._decks:
            raise DeckError("DECK-6", "deck %s is not registered" % (deck_id,))
        table = self._decks[deck_id]
        found = bytearray(DECK_SIZE)
        for uid in seen_uids:
            uid = bytes(uid)
            if len(uid) in UID_LENGTHS:
                at = table.find(_slot(uid))
                while at >= 0 and at % _SLOT:
                    at = table.find(_slot(uid), at + 1)
                if at >= 0:
                    found[at // _SLOT] = 1
        return [c for c in range(DECK_SIZE) if not found[c]]


class HandCards:
    """The cards seen in the current hand (DECK-5): see() refuses a card seen before, naming
    where it was. reset() starts the next hand."""

    def __init__(self):
        self._where = [None] * DECK_SIZE

    def reset(self):
        for i in range(DECK_SIZE):
            self._where[i] = None

    def see(self, card, where="the table"):
        """Record `card` at `where` (e.g. 'seat 4', 'the board'). UNKNOWN cards are not
        tracked. Raises DuplicateCard if the card was already seen in this hand."""
        if card == UNKNOWN:
            return
        _check_card(card)
        before = self._where[card]
        if before is not None:
            raise DuplicateCard("DECK-5", "%s read at %s is already at %s -- fouled deck (DEAL-18)"
                                % (card_text(card), where, before))
        self._where[card] = where

    def seen(self, card):
        return card != UNKNOWN and self._where[card] is not None

    def where(self, card):
        """Where `card` was seen in this hand, or None."""
        return self._where[card]

    def forget(self, card):
        """Take back one card (a reading corrected by the dealer)."""
        self._where[card] = None

    @property
    def count(self):
        return DECK_SIZE - self._where.count(None)
