# The multi-deck blackjack shoe (engine layer, pure; BJ-22 .. BJ-24, BJ-27): which registered decks
# are in it, every tag read from it checked against them -- a duplicate within the shoe, a foreign or
# unknown tag refused by name --, the cut card (a tagged card or a count) that ends the shoe after the
# round in progress, and the count of cards out and left. UIDs arrive as bytes; no I/O.
from felt.engine.cards import DECK_SIZE, card_text
from felt.engine.deck import uid_text
from felt.errors import DuplicateCard, ForeignDeckCard, UnknownTag
from felt.engine.blackjack.errors import ShoeError

CUT = -2  # what draw() returns for the cut card's tag
_SLOT = 8  # one tag in the shoe's table: its length, the UID zero-padded to 7 bytes (as felt.engine.deck)
_PAD = bytes(7)


def _slot(uid):
    return bytes((len(uid),)) + uid + _PAD[len(uid):]


class Shoe:
    """One shoe (BJ-22): `deck_ids`, `rules.decks` distinct decks of `registry` (a DeckRegistry);
    the cut card per bj.cut_card -- `cut_uid`, the tag of the cut card, or at bj.cut_percent of the
    cards. draw(uid) -> card (or CUT); the round in progress finishes after the cut card, then
    end_round() says the shoe is over (BJ-23)."""

    def __init__(self, registry, deck_ids, rules, cut_uid=None):
        deck_ids = list(deck_ids)
        if len(deck_ids) != rules.decks or len(set(deck_ids)) != len(deck_ids):
            raise ShoeError("BJ-22: the shoe holds %d distinct registered decks (bj.decks), not %r"
                            % (rules.decks, deck_ids), legal=rules.decks)
        table = bytearray()
        registered = registry.decks()
        for d in deck_ids:
            if d not in registered:
                raise ShoeError("BJ-22: deck %s is not registered (DECK-1)" % (d,))
            for uid in registry.tags(d):
                table += _slot(uid)
        if rules.cut_card == "tag":
            if not isinstance(cut_uid, (bytes, bytearray)) or len(cut_uid) not in (4, 7):
                raise ShoeError("BJ-23: bj.cut_card=tag needs the cut card's tag (4 or 7 bytes)")
            if table.find(_slot(bytes(cut_uid))) >= 0:
                raise ShoeError("BJ-23: the cut card's tag %s is a card of the shoe" % uid_text(cut_uid))
            cut_uid = bytes(cut_uid)
        self.registry = registry
        self.decks = deck_ids
        self.cut_uid = cut_uid if rules.cut_card == "tag" else None
        self.cut_at = None if rules.cut_card == "tag" else len(deck_ids) * DECK_SIZE * rules.cut_percent // 100
        self._table = bytes(table)
        self._out = bytearray(len(deck_ids) * DECK_SIZE)  # the draw number (1-based, capped 255) or 0
        self.dealt = 0
        self.cut_out = False  # the cut card has come out: this round is the shoe's last (BJ-23)
        self.finished = False
        self._left = [4 * len(deck_ids)] * 13  # cards left per rank (BJ-24)

    def _find(self, uid):
        # index (deck position * 52 + card) of `uid` in this shoe, or -1
        key = _slot(uid)
        at = self._table.find(key)
        while at >= 0 and at % _SLOT:
            at = self._table.find(key, at + 1)
        return at // _SLOT if at >= 0 else -1

    def identify(self, uid):
        """The card of tag `uid` if it is in this shoe (BJ-27: a foreign or unknown tag raises
        ForeignDeckCard / UnknownTag); no accounting."""
        return self._index(uid) % DECK_SIZE

    def _index(self, uid):
        # the tag's index in the shoe (deck position * 52 + card), or the BJ-27 error
        if not isinstance(uid, (bytes, bytearray)) or len(uid) not in (4, 7):
            raise UnknownTag("BJ-27: %r is not a tag UID" % (uid,))
        uid = bytes(uid)
        i = self._find(uid)
        if i >= 0:
            return i
        try:
            self.registry.lookup(uid, self.decks[0])
        except ForeignDeckCard:
            raise ForeignDeckCard("BJ-27: tag %s belongs to a registered deck that is not in this shoe (decks %s)"
                                  % (uid_text(uid), " ".join([str(d) for d in self.decks])))
        except UnknownTag:
            pass
        raise UnknownTag("BJ-27: tag %s is not registered to any deck (joker, other deck or different back?)" % uid_text(uid))

    def draw(self, uid):
        """A tag read coming out of the shoe: its card (CUT for the cut card). BJ-24: a card of this
        shoe that is already out raises DuplicateCard; BJ-27 as identify(). Nothing is counted on error."""
        if self.finished:
            raise ShoeError("BJ-23: this shoe is finished (the cut card came out); shuffle and start a new shoe")
        if self.cut_uid is not None and bytes(uid) == self.cut_uid:
            self.cut_out = True
            return CUT
        i = self._index(uid)
        card = i % DECK_SIZE
        if self._out[i]:
            raise DuplicateCard("BJ-24: %s (deck %s) is already out of this shoe, draw %s"
                                % (card_text(card), self.decks[i // DECK_SIZE], self._out[i] if self._out[i] < 255 else "255+"))
        self.dealt += 1
        self._out[i] = min(self.dealt, 255)
        self._left[card >> 2] -= 1
        if self.cut_at is not None and self.dealt >= self.cut_at:
            self.cut_out = True
        return card

    def end_round(self):
        """A round is over: True when the cut card has come out and the shoe is finished (BJ-23)."""
        if self.cut_out:
            self.finished = True
        return self.finished

    def save(self):
        """The shoe's accounting as plain data (a journal snapshot between rounds)."""
        return {"out": "".join(["%02x" % b for b in self._out]), "dealt": self.dealt, "cut_out": self.cut_out,
                "finished": self.finished, "left": list(self._left)}

    def load(self, d):
        """Put back what save() gave (the same decks and rules)."""
        h = d["out"]
        out = bytearray([int(h[i:i + 2], 16) for i in range(0, len(h), 2)])
        if len(out) != len(self._out):
            raise ShoeError("BJ-24: the saved shoe has %d cards, this one %d" % (len(out), len(self._out)))
        self._out = out
        self.dealt = d["dealt"]
        self.cut_out = d["cut_out"]
        self.finished = d["finished"]
        self._left = list(d["left"])

    def left(self):
        """Cards not yet out, in all."""
        return len(self.decks) * DECK_SIZE - self.dealt

    def left_by_rank(self):
        """[twos left, threes left, ..., aces left] (BJ-24)."""
        return list(self._left)

    def report(self):
        """The shoe's accounting as one line for the console and log (BJ-24)."""
        return "shoe %s: %d out, %d left%s%s" % (
            "+".join([str(d) for d in self.decks]), self.dealt, self.left(),
            ", cut card out" if self.cut_out else "",
            (", cut at %d" % self.cut_at) if self.cut_at is not None else "")
