# The table's card account (controller layer, part of felt.table.controller.Table): shoe reads, antenna
# arrive/leave/collision per location, where each of the 52 cards is, the DEAL-* dealing check fed
# from them, and the Hand fed every card the check has placed (burns, board, hole cards, draws).
# A mixin: its methods run on the Table instance and use the state Table.__init__ sets up.
from binascii import hexlify

from felt.engine.dealing import check as dealing
from felt.errors import DeckError, RuleError
from felt.events import ERROR, INFO, LAPSED, NOTE, PROPOSED, WARN
from felt.table.state import BETTING, CAPACITY, DRAW, FOREIGN, HOLD, OVER, PLAYING, QUIET, SEAT_CAP, SHOWDOWN
from felt.table.state import location_place, place_text


class Cards:
    # ---- the shoe ----------------------------------------------------------------------------
    def shoe_card(self, uid, repeat=False):
        """The shoe read tag `uid` (bytes) as a card left it; repeat: the driver saw the same UID
        just before (a tag read twice -- counted once)."""
        hexu = hexlify(uid).decode().upper()
        known = self.uid_card.get(hexu)
        if repeat and hexu == self.last_read and (known is None or known not in self.off):
            self.alert(WARN, ("DECK-5",), "the shoe read tag %s twice in a row; counted once" % hexu,
                       "nothing to do; check the shoe reader if this repeats", device="shoe")
            return
        self.last_read = hexu
        if self.state != PLAYING and self.state != OVER:
            return  # no hand: the dealer is loading or scanning; nothing is dealt
        try:
            card = self.registry.lookup(uid, self.config.deck)
        except DeckError as e:
            card = FOREIGN
            self.alert(WARN, (e.rule,), e.message, "take the card out of play and check the deck (DEAL-19, "
                       "DEAL-20)", device="shoe")
        self.resolve(except_uid=hexu)
        for i in range(len(self.early)):
            if self.early[i][0] == hexu:
                place = self.early.pop(i)[1]
                self._land(card, hexu, place)
                return
        self.flight.append((card, hexu))

    def resolve(self, except_uid=None):
        """Settle cards in between: a card the shoe read that reached no antenna is a burn drawn
        'nowhere' (DEAL-3); a card an antenna saw that the shoe never reported is taken from the
        antenna (a missed shoe read -- the shoe reader is named). The loop calls this after a
        grace time; a new shoe read or a console entry calls it at once."""
        while self.flight:
            card, hexu = self.flight.pop(0)
            if self.down:
                # an antenna is dead: the card may lie on it; it stays unplaced until it is seen
                self.parked.append((card, hexu))
                self.alert(WARN, (), "a card read by the shoe reached no antenna while %s %s not answering" % (
                    ", ".join(sorted(self.down)), "is" if len(self.down) == 1 else "are"),
                    "the card is kept unplaced until an antenna sees it", device=sorted(self.down)[0])
                continue
            self._land(card, hexu, None)
        keep = []
        for hexu, place in self.early:
            if hexu == except_uid:
                keep.append((hexu, place))
                continue
            self._missed_read(hexu, place)
        self.early = keep

    def busy(self):
        """True while a card is between the shoe and an antenna (the loop's grace timer runs)."""
        return bool(self.flight) or bool(self.early)

    def _missed_read(self, hexu, place):
        uid = _unhex(hexu)
        try:
            card = self.registry.lookup(uid, self.config.deck)
        except DeckError as e:
            self.alert(WARN, (e.rule,), "%s (seen at %s, never read by the shoe)" % (e.message, place_text(place)),
                       "take the card off the table and check the deck (DEAL-19, DEAL-20)", device=_device(place))
            self._land(FOREIGN, hexu, place)
            return
        if card in self.where:
            self._move(card, place)
            return
        self.alert(WARN, ("DECK-5",), "a card reached %s without a shoe read" % place_text(place),
                   "check the shoe reader; the card is counted from the antenna", device="shoe")
        self._land(card, hexu, place)

    # ---- antennas ----------------------------------------------------------------------------
    def antenna(self, event):
        """An AntennaPoller event tuple."""
        kind = event[0]
        loc = event[1]
        if kind == "card-arrived":
            self._arrived(loc, event[2])
        elif kind == "card-left":
            if self.onant.get(event[2]) == loc:
                del self.onant[event[2]]
                self._left(loc, event[2])
        elif kind == "collision":
            self._collision(loc, event[2])
        elif kind == "truncated":
            # the antenna read as many cards as it may (drivers/antennas.py): more may lie there,
            # so nothing it does not read is counted gone (DECK-5 checks wait for a full read)
            self.alert(WARN, (), "antenna %s read its limit of %d cards; more may be there" % (loc, event[2]),
                       "spread the %s cards or remove some; until then no card is counted as leaving it" % loc,
                       device=loc)
        elif kind == "truncated-cleared":
            self.alert(INFO, (), "antenna %s reads all its cards again" % loc, device=loc)
        elif kind == "reader":
            status = event[2]
            if status == "not answering":
                self.down[loc] = True
            elif loc in self.down:
                del self.down[loc]
            if status == "ok":
                self.alert(INFO, (), "antenna %s answers again" % loc, device=loc)
            else:
                self.alert(ERROR if status == "not answering" else WARN, (), "antenna %s is %s" % (loc, status),
                           "check the %s antenna (cable, chip-select, reader)" % loc, device=loc)

    def _arrived(self, loc, hexu):
        before = self.onant.get(hexu)
        if before is not None and before != loc:
            # a moved card reaches its new antenna before the old one has missed it; the loop
            # asks the old antenna later (check_moves) whether it still sees it
            self.moved.append((hexu, before, loc))
        self.onant[hexu] = loc
        if self.state != PLAYING:
            return
        place = location_place(loc)
        for i in range(len(self.flight)):
            if self.flight[i][1] == hexu:
                card = self.flight.pop(i)[0]
                self.resolve()  # cards read before this one went nowhere
                self._land(card, hexu, place)
                return
        for i in range(len(self.parked)):
            if self.parked[i][1] == hexu:
                self._land(self.parked.pop(i)[0], hexu, place)
                return
        card = self.uid_card.get(hexu)
        if card is not None:
            self._move(card, place)
            return
        self.early.append((hexu, place))

    def check_moves(self, still_there):
        """still_there(location, uid hex) -> bool: asked by the loop once the old antennas have
        been polled again; a card still seen at its old place is on two antennas at once."""
        for hexu, old, new in self.moved:
            if still_there(old, hexu):
                self.alert(WARN, ("DECK-5",), "one tag seen on two antennas (%s and %s)" % (old, new),
                           "check for antenna cross-talk or a duplicated tag", device=new)
        self.moved = []

    def _left(self, loc, hexu):
        if self.state != PLAYING:
            return
        card = self.uid_card.get(hexu)
        if card is not None and self.where.get(card) == location_place(loc):
            self.off[card] = True  # `where` keeps the last antenna it was seen on

    def _collision(self, loc, uids):
        place = location_place(loc)
        cap = SEAT_CAP if isinstance(place, int) else CAPACITY.get(place, 99)
        strangers = []
        for u in uids:
            if u not in self.uid_card or self.uid_card[u] == FOREIGN:
                try:
                    self.registry.lookup(_unhex(u), self.config.deck)
                except DeckError:
                    strangers.append(u)
        if len(uids) > cap or strangers:
            self.alert(WARN, ("DECK-5",), "%d cards on the %s antenna at once%s" % (
                len(uids), loc, (", %d of them not of the deck in play" % len(strangers)) if strangers else ""),
                "spread or remove the extra cards at %s" % loc, device=loc)

    def _move(self, card, place):
        old = self.where.get(card)
        self.where[card] = place
        if card in self.off:
            del self.off[card]
        h = self.hand
        if isinstance(old, int) and isinstance(place, int) and old != place and (h.street > 0 or h.phase != "deal"):
            self._seen_twice(card, old, place)  # after the initial deal (a misdelivery is moved during it)
        if place == "muck" and isinstance(old, int) and h.phase == BETTING and old not in self.show16:
            p = self.position(old)
            if p is not None and h.live[p] and h.round.aggressor == p and h.actor is not None and h.actor != p:
                from felt.table import out_of_turn as table_oot  # SHOW-16: the bettor's hand thrown away, an opponent still in

                table_oot.show16(self, old, p)
        if place == "muck" and isinstance(old, int) and h.phase == DRAW:
            p = self.position(old)
            if p is not None and h.live[p] and card in h.hole[p]:
                self.discards.setdefault(old, []).append(card)
        if place == "burn" and self._await is not None and card in self.dc.board:
            self.ruling(self._await.id, True)
        if h.phase == SHOWDOWN:
            self._sync()

    def _seen_twice(self, card, old, place):
        """One tag at two seats in one hand after the deal (issue 12 item 8): its card was dealt to
        seat `old` and now a tag with its UID is at seat `place` -- a cloned tag, or a card
        passed between players. The text names seats only (the card is secret)."""
        p = self.position(old)
        if p is None or card not in self.hand.hole[p]:
            return
        self.alert(WARN, ("DECK-5",), "a tag dealt to seat %d this hand is now read at seat %d: a cloned tag, or "
                   "a card passed between players" % (old, place),
                   "stop play; compare the cards at both seats and check the deck (DEAL-19, DEAL-20)",
                   seat=place, device="seat%d" % place)

    # ---- cards reach the table ---------------------------------------------------------------
    def _land(self, card, hexu, place):
        self.uid_card[hexu] = card
        if self.dc.phase in (dealing.MISDEALT, dealing.VOID):
            return
        if card == FOREIGN:
            self.strangers.append(place)  # not one of the 52
            self._dc(self.dc.foreign, _dc_place(place))
            return
        if card not in self.where or card in self.off:  # a card still in play read again: fouled (dc)
            self.where[card] = place if place is not None else "nowhere"
            if card in self.off:
                del self.off[card]
        if self.hand.phase == DRAW and isinstance(place, int):
            self._finish_draws(place, False)
            self._tell_discards()  # a replacement: its seat's discards come first (DEAL-47)
        self._dc(self.dc.card, card, _dc_place(place))
        self._sync()

    def _tell_discards(self):
        # DEAL-47 wants the burn before the first replacement; a player who stands pat before
        # the burn is told to the dealing check once the burn is in (or the betting began)
        pending = self._dc_discards
        self._dc_discards = []
        for seat, cards in pending:
            if self.dc.phase == dealing.DEALING:
                self._dc(self.dc.discard, seat, cards)

    def _dc(self, fn, *args):
        try:
            out = fn(*args)
        except RuleError as e:
            self.rule_alert(e)
            return
        self._findings(out)

    def _findings(self, out):
        for f in out:
            if f.kind in QUIET:
                self.log("deal: %s" % f.text)
                continue
            if f.status == dealing.LAPSED:
                for a in self.alerts:
                    if a.finding == f.id and a.status == PROPOSED:
                        a.status = LAPSED
                        a.remedy = f.remedy
                        self.log("alert #%d lapsed: %s" % (a.id, f.remedy))
                continue
            status = PROPOSED if f.status == dealing.PROPOSED else NOTE
            level = WARN if (status == PROPOSED or f.kind not in ("redeal", "reshuffle", "move_card")) else INFO
            self.alert(level, f.rules, f.text, f.remedy, seat=f.seat, finding=f.id if status == PROPOSED else None,
                       status=status)
            if status == PROPOSED and f.kind == "four_card_flop" and self.hand.board:
                # DEAL-27: the flop's three cards reached the Hand before the fourth came; like a
                # DEAL-28 flop they stay out of it until the ruling, so the action is held
                self._rebuild()

    def _sync(self):
        """Feed the engine Hand every card the dealing check has placed logically (burns, board,
        hole cards), then follow betting-round ends and settle a finished hand."""
        h = self.hand
        self._feed_all(h)
        if self._dc_discards and (h.burned or h.phase != DRAW):
            self._tell_discards()
            self._feed_all(h)
        if self.dc.plan.dead and h.phase == BETTING and not h.finished and h.game.forced == "bring_in":
            from felt.table import rulings as table_rulings  # BLIND-23 in stud: the deal is complete, kill them now
            table_rulings.absent_stud(self)
        self._follow()
        if h.phase == SHOWDOWN and not h.finished:
            self._showdown()
        if h.finished and self.state == PLAYING:
            self._finish()

    def _holding(self):
        # while the dealer has not ruled on rebuilding the street, its cards stay out of the Hand
        for f in self.dc.pending():
            if f.kind in HOLD:
                return True
        return False

    def _feed(self, h, dc):
        if h.phase != "deal" and h.phase != DRAW:
            return False  # the Hand takes cards only while they are due
        fed = self.fed
        moved = False
        hold = self._holding()
        for c in dc.burns if not hold else ():
            if c >= 0 and c not in fed and h.can_burn(c):
                h.burn(c)
                fed[c] = True
                moved = True
        for c in dc.board if not hold else ():
            if c >= 0 and c not in fed and h.can_deal_board([c]):
                h.deal_board([c])
                fed[c] = True
                moved = True
        pos = self._pos
        for seat in dc.plan.seats:
            p = pos[seat]
            for c in dc.holes.get(seat, ()):
                if c >= 0 and c not in fed and h.can_deal_hole(p, [c]):
                    h.deal_hole(p, [c])
                    fed[c] = True
                    moved = True
        return moved

    def _follow(self):
        # DealCheck learns of each completed betting round (GAME-5) from the Hand's street count
        h = self.hand
        dc = self.dc
        done = h.street + (1 if h.phase in (SHOWDOWN, "done") else 0)
        if h.finished and h.live_count() <= 1:
            return
        for _ in range(8):
            if dc.phase in (dealing.MISDEALT, dealing.VOID, dealing.OVER, dealing.SHOWDOWN):
                return
            if dc.street + (1 if dc.phase == dealing.SHOWDOWN else 0) >= done:
                return
            self._dc(dc.betting_closed)

    def _finish_draws(self, upto, inclusive_pat):
        """Draw streets: every drawer before `upto` (and `upto` itself) has discarded what it moved
        to the muck -- nothing means standing pat (GAME-15, DEAL-47)."""
        h = self.hand
        target = self.position(upto)
        if target is None or not h.to_draw[target]:
            return  # that seat has drawn already: its card is a replacement
        for _ in range(h.n):
            p = h.drawer()
            if p is None:
                return
            seat = self.setup.seats[p]
            cards = self.discards.pop(seat, [])
            try:
                h.draw(p, cards)
            except RuleError as e:
                self.rule_alert(e, "draw of seat %d" % seat)
                return
            self.journal.append(("draw", seat, cards))
            self._dc_discards.append((seat, cards))  # told to the dealing check after the burn
            self.log("seat %d %s" % (seat, ("draws %d" % len(cards)) if cards else "stands pat"))
            if seat == upto:
                return

    def _feed_all(self, h):
        for _ in range(4):
            if h.finished or not self._feed(h, self.dc):
                return


def _unhex(hexu):
    return bytes([int(hexu[i:i + 2], 16) for i in range(0, len(hexu), 2)])


def _device(place):
    return ("seat%d" % place) if isinstance(place, int) else place


def _dc_place(place):
    if place == "board":
        return dealing.BOARD
    if place == "burn":
        return dealing.BURN
    if place == "muck":
        return dealing.MUCK
    return place
