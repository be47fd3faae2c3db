# Deck enrollment (firmware, pure): the dealer deals a sorted deck through the shoe once; the
# UIDs read, in order, become the deck's UID-to-card map, signed with a floor key. The board
# registers only maps whose signature verifies, so a tag outside a registered deck raises the
# DECK-5 alert (table.py) and is never shown as a card (hardware/security.md, DECK-1, DECK-7).
from felt.engine.cards import DECK_SIZE, card_text, parse_card
from felt.engine.deck import DeckScan, uid_text
from felt.errors import DeckError, FormatError
from felt.security import SecurityError
from felt.security.hmac import compare, hmac_hex, unhexlify
from felt.security.keys import key_id

HEADER = "felt-deck 1"


def sorted_order():
    """The order the dealer deals the deck for enrollment: clubs 2..A, diamonds, hearts, spades."""
    out = []
    for suit in range(4):
        for rank in range(13):
            out.append(rank * 4 + suit)
    return out


class Enrollment:
    """Feed it the shoe's UIDs in dealing order; add() refuses a repeated card tag, a second tag
    for a card or a 53rd tag (DECK-1) by DeckError; complete once 52 distinct tags are in."""

    def __init__(self, order=None):
        self.order = order or sorted_order()
        self.scan = DeckScan()
        self._last = None

    def add(self, uid):
        """One shoe read; a repeat of the tag just read (reader double read) is ignored."""
        uid = bytes(uid)
        if uid == self._last:
            return False
        if self.scan.count >= DECK_SIZE:
            raise DeckError("DECK-1", "a 53rd tag (%s): the deck is complete" % uid_text(uid), legal=DECK_SIZE)
        if uid in self.scan.mapping:
            raise DeckError("DECK-1", "tag %s came through the shoe a second time (enrolled as %s); start the "
                            "enrollment again" % (uid_text(uid), card_text(self.scan.mapping[uid])))
        self.scan.add(uid, self.order[self.scan.count])
        self._last = uid
        return True

    @property
    def complete(self):
        return self.scan.complete

    def next_card(self):
        return None if self.complete else card_text(self.order[self.scan.count])


def body_text(device, deck_id, who, floor_key, mapping):
    if not deck_id or " " in deck_id:
        raise SecurityError("deck id %r must be one word" % (deck_id,))
    rows = sorted([(mapping[u], uid_text(u)) for u in mapping])
    out = [HEADER, "device " + device, "deck " + deck_id, "by " + who, "key " + key_id(floor_key)]
    for card, hexu in rows:
        out.append("tag %s %s" % (hexu, card_text(card)))
    return "\n".join(out) + "\n"


def sign(device, deck_id, who, floor_key, mapping):
    """The deck record: body + 'sig <HMAC-SHA256(floor key)>'."""
    if len(mapping) != DECK_SIZE:
        raise SecurityError("deck %s has %d tags; enroll all %d cards" % (deck_id, len(mapping), DECK_SIZE))
    body = body_text(device, deck_id, who, floor_key, mapping)
    return body + "sig " + hmac_hex(floor_key, "felt-deck\0" + body) + "\n"


def verify(text, floor_keys, device):
    """(deck id, {uid bytes: card}, who) of a record signed by one of floor_keys {name: key}
    for this device; SecurityError for unsigned, altered, foreign-key or other-board records."""
    cut = text.find("\nsig ")
    if not text.startswith(HEADER + "\n"):
        raise SecurityError("not a Felt deck record (first line must be %r)" % HEADER)
    if cut < 0:
        raise SecurityError("refused: the deck record is unsigned")
    body = text[:cut + 1]
    sig = text[cut + 5:].strip()
    fields = {}
    mapping = {}
    lines = body.split("\n")
    for i in range(1, len(lines)):
        w = lines[i].split(" ")
        if w == [""]:
            continue
        try:
            if w[0] == "tag" and len(w) == 3:
                card = parse_card(w[2])
                if card < 0:
                    raise ValueError("%r is not one of the 52 cards" % w[2])
                mapping[unhexlify(w[1])] = card
            elif w[0] in ("device", "deck", "by", "key") and len(w) == 2:
                fields[w[0]] = w[1]
            else:
                raise ValueError(lines[i][:40])
        except (ValueError, DeckError, FormatError) as e:
            raise SecurityError("deck record line %d is malformed: %s" % (i + 1, e))
    who = fields.get("by")
    key = floor_keys.get(who) if who is not None else None
    if key is None:
        raise SecurityError("refused: the deck record is signed by %r, not a floor key of this board" % (who,))
    if fields.get("key") != key_id(key) or not compare(hmac_hex(key, "felt-deck\0" + body), sig):
        raise SecurityError("refused: the deck record's signature does not verify (altered, or wrong key)")
    if fields.get("device") != device:
        raise SecurityError("refused: the deck record is for board %r, this is %r" % (fields.get("device"), device))
    if len(mapping) != DECK_SIZE:
        raise SecurityError("refused: the deck record has %d tags, not %d" % (len(mapping), DECK_SIZE))
    return fields["deck"], mapping, who


def register(registry, text, floor_keys, device):
    """Verify a deck record and register its map in an engine DeckRegistry (DECK-1 checks
    there too); returns the deck id. Nothing is registered when anything fails."""
    deck_id, mapping, _who = verify(text, floor_keys, device)
    registry.register(deck_id, mapping)
    return deck_id
