# The table controller (controller layer, no clock, no I/O): physical events in -- shoe tag reads,
# antenna arrive/leave/collision per location, seat buttons, FELT1 console entries -- and engine
# inputs out: the Hand (betting, pots), DealCheck (DEAL-* findings), button.py (button/blinds
# across hands). It keeps the per-hand account of the 52 cards and turns every finding and every
# rejected entry into an Alert (events.py) citing its RULES.md IDs. Indicators come from view.py.
from felt.engine import button as btn
from felt.engine import dealing, dealplan, games, settings
from felt.engine.cards import UNKNOWN, cards_text, card_text
from felt.engine.hand import Hand
from felt.errors import ConfigError, DeckError, RuleError
from felt.events import ERROR, INFO, WARN, Alert, CONFIRMED, LAPSED, NOTE, PROPOSED, REJECTED

DRAW = "draw"  # Hand.phase values (engine/hand.py)
SHOWDOWN = "showdown"

IDLE = "idle"  # no hand yet
PLAYING = "playing"
OVER = "over"  # the last hand ended; the next `hand` starts another
VOID = "void"  # the last hand was void (fouled deck, DEAL-18): every bet returned

FOREIGN = dealing.FOREIGN
QUIET = ("deal_complete", "substantial_action")  # findings that are log lines, not alerts
SEAT_CAP = 8  # cards one seat antenna may hold (7-card stud + one)
CAPACITY = {"board": 5, "burn": 4}
HOLD = ("noburn_flop", "burn_error", "four_card_flop")  # proposals that may rebuild the board
PICK = ("four_card_flop", "noburn_flop")
CONFIG_NUMBERS = ("sb", "bb", "ante", "bring_in", "small_bet", "big_bet", "unit")  # console `set` keys  # remedies where the floor picks a card (DEAL-27, DEAL-28)


def location_place(location):
    """'seat3' -> 3; 'board'/'burn'/'muck' unchanged (antenna location -> dealing place)."""
    if location.startswith("seat"):
        return int(location[4:])
    return location


def place_text(place):
    if place is None:
        return "nowhere"
    return "seat %d" % place if isinstance(place, int) else "the " + place


class TableConfig:
    """The table statement: game (RULES.md name), structure, seats (2..10), blinds/antes/limits,
    unit, mode (cash|tournament), first button, house rules {"hr.key": value}, deck id in play."""

    def __init__(self, game="holdem", structure="no_limit", seats=6, sb=0, bb=0, ante=0, small_bet=0,
                 big_bet=0, bring_in=0, unit=1, mode=settings.CASH, button=1, rules=None, deck="A"):
        if not 2 <= seats <= 10:
            raise ConfigError("GAME-1: a table has 2..10 seats, not %r" % (seats,))
        self.game = game
        self.structure = structure
        self.record = games.game_for(game, structure)
        self.seats = seats
        self.sb = sb
        self.bb = bb
        self.ante = ante
        self.small_bet = small_bet
        self.big_bet = big_bet
        self.bring_in = bring_in
        self.unit = unit
        self.mode = mode
        self.button = button
        self.deck = deck
        values = {}
        for k in sorted(rules or {}):
            values[k] = rules[k]
        self.house = settings.HouseRules(mode, self.record.code, values)
        if self.record.structure == "limit" and self.small_bet <= 0:
            self.small_bet = bb
        if self.record.structure == "limit" and self.big_bet <= 0:
            self.big_bet = 2 * self.small_bet
        if self.record.forced == "blinds" and bb <= 0:
            raise ConfigError("BLIND-12: %s needs a big blind (bb=)" % self.record.name)


class Table:
    """One table. registry: engine.deck.DeckRegistry with config.deck registered. log(line): the
    public log sink; history(text): receives each finished hand as PHH text; notify(alert): the
    console side (the loop sends it as a FELT1 alert/propose line). All optional."""

    def __init__(self, config, registry, log=None, history=None, notify=None):
        self.config = config
        self.registry = registry
        self._log = log
        self._history = history
        self.notify = notify
        n = config.seats
        self.seat_rec = [btn.Seat() for _ in range(n)]
        self.stacks = [0] * n
        self.state = IDLE
        self.hand_no = 0
        self.prev = None  # HandSetup of the last finished hand
        self.setup = None
        self._pos = {}  # seat -> engine position in the current hand
        self.hand = None
        self.dc = None
        self.alerts = []
        self.onant = {}  # uid hex -> location, as the antennas see it now (across hands)
        self.moved = []  # [(uid hex, old location, new location)] awaiting check_moves
        self.down = {}  # location -> True while its antenna is not answering
        self._undo = {}  # seat -> seat record before its last button press
        self._later = {}  # seat -> record changed during a hand, applied when it ends
        self._await = None  # a confirmed DEAL-27/28 proposal waiting for the floor's pick
        self.seq = 0  # alert ids grow across hands
        self.misdeals = 0
        self.results = []  # award texts of the last finished hand
        self.histories = 0
        self._new_account()

    # ---- small helpers ---------------------------------------------------------------------
    def log(self, line):
        if self._log is not None:
            self._log(line)

    def _redact(self, text):
        # downcards never reach the display or the public log before the hand is over: a
        # finding that names one ("Ah drawn again while it is at seat 2") says "a hole card";
        # a stud upcard lies face up and is public, so it is named
        if self.state != PLAYING or not text:
            return text
        for card in self.where:
            if isinstance(self.where[card], int) and card >= 0:
                name = card_text(card)
                if name in text and not self._upcard(card, self.where[card]):
                    text = text.replace(name, "a hole card")
        return text

    def _upcard(self, card, seat):
        """True when `card` at `seat` is dealt face up (stud): from the Hand once it has the card,
        else from the street plan's up/down pattern by the card's place in the seat's deal."""
        if self.config.record.family != "stud":
            return False
        h = self.hand
        p = self.position(seat)
        if p is not None and card in h.hole[p]:
            return bool(h.up[p][h.hole[p].index(card)])
        held = self.dc.holes.get(seat, ()) if self.dc is not None else ()
        if card not in held:
            return False  # not (or no longer) dealt to the seat: kept secret
        pattern = []
        for i in range(len(self.dc.plan.streets)):
            pattern.extend(self.dc.street_plan(i).hole)
        i = list(held).index(card)
        return bool(pattern[i]) if i < len(pattern) else False

    def alert(self, level, rules, text, remedy="", seat=None, device=None, finding=None, status=NOTE):
        self.seq += 1
        a = Alert(self.seq, level, rules, self._redact(text), self._redact(remedy), seat, device, finding, status)
        self.alerts.append(a)
        self.log("alert " + a.line())
        if self.notify is not None:
            self.notify(a)
        return a

    def rule_alert(self, err, what=""):
        """A rejected entry: the RuleError's rule, its message and the legal range."""
        text = err.message if hasattr(err, "message") else str(err)
        if what:
            text = "%s rejected: %s" % (what, text)
        legal = getattr(err, "legal", None)
        if legal is not None:
            text += " (legal: %s)" % (legal,)
        return self.alert(WARN, (err.rule,), text)

    def _new_account(self):
        self.where = {}  # card -> place: seat int, "board", "burn", "muck", "nowhere", "off"
        self.uid_card = {}  # uid hex -> card of this hand (FOREIGN for a foreign tag)
        self.flight = []  # [(card, uid hex)] read by the shoe, not yet seen on an antenna
        self.early = []  # [(uid hex, place)] seen on an antenna before (or without) a shoe read
        self.parked = []  # [(card, uid hex)] read while an antenna was dead: placed when seen
        self.fed = {}  # card -> True once the engine Hand has it
        self.discards = {}  # seat -> cards moved to the muck during a draw
        self.off = {}  # card -> True: taken off its antenna (`where` is the last place seen)
        self.last_read = None
        self.strangers = []  # places of foreign / unknown tags dealt this hand
        self._showdown_noted = {}

    @property
    def in_hand(self):
        return self.state == PLAYING

    def position(self, seat):
        """The engine position of `seat` in the current hand, or None (not dealt in)."""
        return self._pos.get(seat)

    def pending(self):
        """Alerts waiting for the dealer's confirm / reject, oldest first."""
        return [a for a in self.alerts if a.status == PROPOSED]

    def account(self):
        """{place text: count} over all 52 cards for the current hand (shoe = never drawn)."""
        out = {"shoe": 52}
        for card in self.where:
            if card < 0:
                continue
            if card in self.off:
                key = "off"
            else:
                key = place_text(self.where[card]) if self.where[card] != "nowhere" else "nowhere"
            out[key] = out.get(key, 0) + 1
            out["shoe"] -= 1
        return out

    # ---- seats and hands -------------------------------------------------------------------
    def sit(self, seat, stack):
        if not 1 <= seat <= self.config.seats:
            raise ConfigError("seat %r is not a seat 1..%d" % (seat, self.config.seats))
        if stack <= 0:
            raise ConfigError("CASH-1: a stack must be more than 0 chips, got %r" % (stack,))
        # before the first hand everyone seated is active (BLIND-17); later a newcomer posts a
        # big blind to play at once (BLIND-16, cash) or is dealt in (tournament placement)
        if self._rec(seat).status == btn.EMPTY:
            status = btn.ACTIVE if self.prev is None else btn.NEW
            self._set_rec(seat, btn.Seat(status, post=True))
        self.stacks[seat - 1] = stack  # a seated player's stack is corrected (BET-51, CASH rebuys)
        self.log("seat %d sits with %d" % (seat, stack))

    def new_hand(self):
        """The next hand: the button moves by BLIND-*, blinds and antes are posted."""
        if self.state == PLAYING:
            raise RuleError("GAME-6", "hand %d is not over yet" % self.hand_no)
        for seat in sorted(self._later):  # changes made during a void hand
            self.seat_rec[seat - 1] = self._later[seat]
        self._later = {}
        for i in range(self.config.seats):
            if self.stacks[i] <= 0 and self.seat_rec[i].status != btn.EMPTY:
                self.seat_rec[i] = btn.Seat()  # busted: the seat is empty from now on
        cfg = self.config
        blinds = cfg.record.forced == "blinds"
        setup = btn.next_hand(self.seat_rec, prev=self.prev, button=cfg.button, sb=cfg.sb if blinds else 0,
                              bb=cfg.bb if blinds else 1, ante=cfg.ante if blinds else 0, mode=cfg.mode,
                              rules=cfg.house)
        self.hand_no += 1
        self.alerts = []
        self.results = []
        self.misdeals = 0
        self._start(setup, None)

    def _rebuild(self):
        """After a ruling moved cards (DEAL-27/28/29 rebuilt street): a fresh Hand replays the
        journal while the dealing check's logical cards are fed whenever they are due."""
        h = self._make_hand(self.setup)
        self.hand = h
        self.fed = {}
        for entry in self.journal:
            self._feed_all(h)
            try:
                if entry[0] == "draw":
                    h.draw(self.position(entry[1]), entry[2])
                else:
                    self._engine_act(h, self.position(entry[1]), entry[2], entry[3])
            except RuleError as e:
                self.rule_alert(e, "replay after the ruling")
                break
        self._feed_all(h)

    def _feed_all(self, h):
        for _ in range(4):
            if h.finished or not self._feed(h, self.dc):
                return

    def _make_hand(self, setup):
        cfg = self.config
        g = cfg.record
        seats = list(setup.seats)
        stacks = [self.stacks[s - 1] for s in seats]
        dead = ()
        if g.forced == "blinds":
            blinds = setup.blinds_or_straddles
            antes = setup.antes
            dead = setup.dead  # BLIND-14 make-up dead SB, BLIND-25: main pot, no call credit (POT-17)
        else:
            blinds = ()
            antes = cfg.ante
        return Hand(game=g, stacks=stacks, blinds=blinds, antes=antes, bring_in=cfg.bring_in,
                    small_bet=cfg.small_bet, big_bet=cfg.big_bet, min_bet=cfg.bb, unit=cfg.unit,
                    rules=cfg.house, seats=seats, dead=dead)

    def _start(self, setup, plan):
        cfg = self.config
        g = cfg.record
        seats = list(setup.seats)
        self.hand = self._make_hand(setup)
        self.journal = []  # engine inputs other than cards, in order, for _rebuild()
        self._dc_discards = []  # [(seat, cards)] draws not yet told to the dealing check
        if plan is None:
            plan = dealplan.make_plan(seats, g.streets, setup.button)
        self.dc = dealing.DealCheck(plan, cfg.house)
        self.setup = setup
        self._pos = dict([(seats[p], p) for p in range(len(seats))])
        self.state = PLAYING
        self._new_account()
        self.log("hand %d: %s, button seat %d, seats %s" % (self.hand_no, g.name, setup.button,
                                                            " ".join([str(s) for s in seats])))

    # ---- the shoe ----------------------------------------------------------------------------
    def shoe_card(self, uid, repeat=False):
        """The shoe read tag `uid` (bytes) as a card left it; repeat: the driver saw the same UID
        just before (a tag read twice -- counted once)."""
        hexu = "".join(["%02X" % b for b in uid])
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
        if place == "muck" and isinstance(old, int) and h.phase == DRAW:
            p = self.position(old)
            if p is not None and h.live[p] and card in h.hole[p]:
                self.discards.setdefault(old, []).append(card)
        if place == "burn" and self._await is not None and card in self.dc.board:
            self.ruling(self._await.id, True)
        if h.phase == SHOWDOWN:
            self._sync()

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

    # ---- showdown and the end of a hand ------------------------------------------------------
    def _showdown(self):
        # the live hands' cards are read from their seat antennas (SHOW-1): all there -> tabled;
        # none there and in the muck -> mucked; otherwise the table asks for them
        h = self.hand
        for p in range(h.n):
            if not h.live[p] or h.mucked[p] or h.shown[p] or h.finished:
                continue
            seat = self.setup.seats[p]
            hole = h.hole[p]
            there = 0
            mucked = 0
            for c in hole:
                if c in self.off:
                    continue
                if self.where.get(c) == seat:
                    there += 1
                elif self.where.get(c) == "muck":
                    mucked += 1
            try:
                if there == len(hole):
                    h.show(p)
                    self.log("seat %d shows %s" % (seat, cards_text(hole)))
                elif mucked == len(hole):
                    h.muck(p)
                    self.log("seat %d mucks" % seat)
                elif seat not in self._showdown_noted:
                    self._showdown_noted[seat] = True
                    self.alert(WARN, ("SHOW-1",), "seat %d's cards are not all on its antenna at the showdown" % seat,
                               "put seat %d's cards on its antenna (or in the muck to give up)" % seat, seat=seat)
            except RuleError as e:
                self.rule_alert(e)

    def _finish(self):
        h = self.hand
        self._findings(self.dc.hand_over() if self.dc.phase not in (dealing.MISDEALT, dealing.VOID) else [])
        for p in range(h.n):
            self.stacks[self.setup.seats[p] - 1] = h.stacks[p]
        self.results = list(h.reasons or [])
        for line in self.results:
            self.log("hand %d: %s" % (self.hand_no, line))
        self.prev = self.setup
        self.seat_rec = [r.copy() for r in self.setup.table]
        for seat in sorted(self._later):  # presses and seatings during the hand count from now
            self.seat_rec[seat - 1] = self._later[seat]
        self._later = {}
        self.state = OVER
        self._write_history()

    def _write_history(self):
        if self._history is None:
            return
        from felt import phh  # only a table with a history sink loads the PHH writer (~21 KB of heap)

        h = self.hand
        g = self.config.record
        acts = []
        for op in h.log:
            a = _phh_action(op)
            if a:
                acts.append(a)
        hist = phh.History(g.code, h.starting_stacks, acts, antes=_antes(h), blinds_or_straddles=(
            list(self.setup.blinds_or_straddles) if g.forced == "blinds" else None),
            bring_in=self.config.bring_in if g.forced == "bring_in" else None,
            small_bet=self.config.small_bet if g.structure == "limit" or g.forced == "bring_in" else None,
            big_bet=self.config.big_bet if g.structure == "limit" or g.forced == "bring_in" else None,
            min_bet=self.config.bb if g.structure != "limit" and g.forced == "blinds" else None,
            players=["seat %d" % s for s in self.setup.seats], finishing_stacks=list(h.stacks),
            extra=[("hand", self.hand_no), ("seats", list(self.setup.seats))])
        self.histories += 1
        self._history(phh.write(hist))

    # ---- console entries ---------------------------------------------------------------------
    def act(self, seat, verb, amount=None):
        """A dealer-console action. Returns the Op, or None when rejected (an alert says why)."""
        h = self.hand
        if self.state != PLAYING:
            self.alert(WARN, ("GAME-6",), "%s by seat %d rejected: no hand is in progress" % (verb, seat))
            return None
        p = self.position(seat)
        if p is None:
            self.alert(WARN, ("DEAL-5",), "%s by seat %d rejected: seat %d is not dealt in" % (verb, seat, seat))
            return None
        self.resolve()
        if self._refuse_held(seat, verb):
            return None
        if h.phase == DRAW and verb == "check":
            self._finish_draws(seat, True)  # "check" during a draw: stands pat (GAME-15)
            self._sync()
            return True
        try:
            op = self._engine_act(h, p, verb, amount)
        except RuleError as e:
            self.rule_alert(e, "%s by seat %d" % (verb, seat))
            return None
        return self._acted(seat, verb, amount, op)

    def push(self, seat, chips, said=None, amount=None, earlier=None):
        """Chips pushed at the console (BET-8..17, BET-31..37: engine/declare.py reads them):
        chips = values pushed now; said = what was declared first ("raise", "all_in", "call",
        "check", "fold", "bet", "pot"); amount = a spoken amount. Returns the Op or None."""
        h = self.hand
        p = self.position(seat) if self.state == PLAYING else None
        if p is None:
            return self.act(seat, "push")  # the same rejection as any entry out of a hand
        self.resolve()
        if self._refuse_held(seat, "push"):
            return None
        from felt.engine import declare  # chip pushes are rare: load the reader on the first one

        try:
            reading = declare.interpret(h, p, chips, said=said, amount=amount, earlier=earlier)
            op = declare.apply(h, p, reading)
        except RuleError as e:
            self.rule_alert(e, "push by seat %d" % seat)
            return None
        if reading.change:
            self.log("seat %d gets %d change (%s)" % (seat, reading.change, reading.rule))
        verb = {"check": "call", "call": "call", "fold": "fold", "bring_in": "bringin"}.get(reading.action, "raise")
        return self._acted(seat, verb, reading.total, op)

    def configure(self, key, value):
        """Console `set KEY VALUE` between hands: blinds/antes/limits/unit or a house rule hr.NAME
        (validated by engine/settings.py, all-or-nothing). Returns True, or False with an alert."""
        cfg = self.config
        if self.state == PLAYING:
            self.alert(WARN, ("GAME-1",), "set %s refused: hand %d is in progress" % (key, self.hand_no))
            return False
        try:
            if key.startswith("hr."):
                cfg.house = cfg.house.replace({key: value})
            elif key in CONFIG_NUMBERS:
                if not isinstance(value, int) or value < 0:
                    raise ConfigError("BET-1: %s must be a whole number of chips, got %r" % (key, value))
                setattr(cfg, key, value)
            else:
                raise ConfigError("GAME-1: %s cannot be changed at the table (%s or hr.NAME)" % (
                    key, " ".join(CONFIG_NUMBERS)))
        except ConfigError as e:
            text = str(e)
            rule = text.split(":", 1)[0] if text[:1].isupper() and "-" in text.split(":", 1)[0] else "GAME-1"
            self.alert(WARN, (rule,), "set %s refused: %s" % (key, text))
            return False
        self.log("set %s = %s" % (key, value))
        return True

    def setting(self, key):
        """Console `get KEY`: the value now in force (None for an unknown key)."""
        if key.startswith("hr."):
            return self.config.house.get(key)
        return getattr(self.config, key, None) if key in CONFIG_NUMBERS + ("game", "structure", "mode", "seats") else None

    def mark(self, seat, what, draw=None):
        """Console mark: the dealer saw draw `draw` (default: the last card drawn to `seat`) face up
        in the deck ("boxed", DEAL-7/17) or exposed by a dealer error ("exposed", DEAL-11/21/22)."""
        if self.state != PLAYING:
            self.alert(WARN, ("GAME-6",), "mark %s rejected: no hand is in progress" % what)
            return False
        dc = self.dc
        if draw is None:
            for i in range(len(dc.draws) - 1, -1, -1):
                if dc.draws[i][1] == seat:
                    draw = i + 1
                    break
        if draw is None:
            self.alert(WARN, ("DEAL-17",), "mark %s rejected: no card was drawn to seat %d" % (what, seat))
            return False
        if what == "boxed":
            self._dc(dc.mark_boxed, draw)
        elif what == "exposed":
            self._dc(dc.mark_exposed, draw)
        else:
            self.log("seat %d marked %s (recorded)" % (seat, what))
        return True

    def _refuse_held(self, seat, verb):
        # DEAL-27/28/29: while the dealer has not ruled on a street's cards, its action is held
        for a in self.pending():
            if a.finding is not None and self.dc.findings[a.finding - 1].kind in HOLD:
                self.alert(WARN, a.rules, "%s by seat %d rejected: the action is held until alert #%d is ruled on" % (
                    verb, seat, a.id))
                return True
        return False

    def _acted(self, seat, verb, amount, op):
        self.journal.append(("act", seat, verb, amount))
        if self.dc.phase not in (dealing.MISDEALT, dealing.VOID):
            self._dc(self.dc.action, seat, "bring_in" if op.kind == "bring_in" else op.kind, op.amount)
        self.log("seat %d %s%s" % (seat, op.kind, (" %d" % op.total) if op.kind in ("bet", "raise", "complete") else ""))
        self._sync()
        return op

    def _engine_act(self, h, p, verb, amount):
        if verb == "fold":
            return h.fold(p)
        if verb == "check":
            return h.check(p)
        if verb == "call":
            return h.check_call(p)
        if verb in ("bet", "raise", "complete"):
            if amount is None:
                raise RuleError("BET-8", "%s needs the new total for the street" % verb)
            return h.bet_raise_to(p, amount)
        if verb == "allin":
            # every chip pushed: a raise to the whole stack when a raise is open (in limit: the
            # one legal raise, BET-37), else a call, all-in for less when short (BET-47)
            total = h.bets[p] + h.stacks[p]
            lg = h.legal()
            if lg is None or not lg.can_raise or total <= lg.call + h.bets[p]:
                return h.check_call(p)
            if h.structure == "limit" and total > lg.max_to:
                total = lg.max_to
            return h.bet_raise_to(p, total)
        if verb == "bringin":
            return h.post_bring_in(p)
        raise RuleError("GAME-16", "unknown action %r" % (verb,), legal=("fold", "check", "call", "bet", "raise",
                                                                          "allin", "bringin", "complete"))

    def ruling(self, aid, accept):
        """The dealer confirms (accept=True) or rejects proposal alert `aid` (None = the newest)."""
        a = None
        for x in self.alerts:
            if x.status == PROPOSED and (aid is None or x.id == aid):
                a = x
        if a is None:
            self.alert(WARN, ("DEAL-15",), "no pending proposal%s to %s" % (
                "" if aid is None else " #%d" % aid, "confirm" if accept else "reject"))
            return False
        dc = self.dc
        pick = None
        if accept and dc.findings[a.finding - 1].kind in PICK:
            for c in dc.board:
                if self.where.get(c) == "burn" and c not in self.off:
                    pick = c  # the floor's pick is the board card the dealer put on the burn antenna
        try:
            out = dc.confirm(a.finding, pick) if accept else dc.reject(a.finding)
        except RuleError as e:
            if accept and pick is None and dc.findings[a.finding - 1].kind in PICK:
                self._await = a
                self.alert(INFO, (e.rule,), "confirmed: move the card the floor picks to the burn antenna",
                           "the table completes the ruling when it sees the card there")
                return True
            self.rule_alert(e)
            return False
        self._await = None
        a.status = CONFIRMED if accept else REJECTED
        self.log("alert #%d %s" % (a.id, a.status))
        self._findings(out)
        if dc.phase == dealing.MISDEALT:
            self._redeal()
        elif dc.phase == dealing.VOID:
            self.state = VOID
            self.log("hand %d is void: every bet is returned (DEAL-18)" % self.hand_no)
        else:
            if accept and self._disagrees():
                self._rebuild()
            self._sync()
        return True

    def _disagrees(self):
        # a card the Hand holds that the dealing check no longer places there
        h = self.hand
        dc = self.dc
        for c in h.board:
            if c not in dc.board:
                return True
        for c in h.burns:
            if c not in dc.burns:
                return True
        for p in range(h.n):
            held = dc.holes.get(self.setup.seats[p], ())
            for c in h.hole[p]:
                if c >= 0 and c not in held:
                    return True
        return False

    def _redeal(self):
        # DEAL-14: the same hand again -- same button, same blinds, the same seats
        self.misdeals += 1
        plan = self.dc.redeal_plan()
        self._start(self.setup, plan)
        self.log("hand %d: misdeal, redeal %d" % (self.hand_no, self.misdeals))

    # ---- seat buttons (RULES.md section 14, BTN) ---------------------------------------------
    def _rec(self, seat):
        return self._later.get(seat) or self.seat_rec[seat - 1]

    def _set_rec(self, seat, rec):
        if self.state == PLAYING:
            self._later[seat] = rec
        else:
            self.seat_rec[seat - 1] = rec

    def button(self, seat, kind):
        if not 1 <= seat <= self.config.seats:
            return
        rec = self._rec(seat)
        if rec.status == btn.EMPTY:
            self.log("seat %d button: the seat is empty" % seat)
            return
        self._undo[seat] = rec  # a stuck switch first looks like a long press: undone then
        if kind == "long":
            if rec.status == btn.OUT:
                self._set_rec(seat, rec.copy(status=btn.BACK, post=False))
                self.log("seat %d returns; waits for the big blind (BLIND-15)" % seat)
            else:
                self._set_rec(seat, rec.copy(status=btn.OUT, post=False, straddle=False))
                self.log("seat %d sits out from the next hand (BLIND-13)" % seat)
            return
        if self.state == PLAYING:
            if self.position(seat) is not None and self.config.mode != settings.CASH:
                self._dc(self.dc.present, seat)  # DEAL-39 presence
            self.log("seat %d asks for time" % seat)
        elif rec.status in (btn.NEW, btn.BACK):
            self._set_rec(seat, rec.copy(post=True))
            self.log("seat %d posts to play now (BLIND-14, BLIND-16)" % seat)
        elif rec.status == btn.ACTIVE and self.config.house.get("straddle") == "utg_2x":
            self._set_rec(seat, rec.copy(straddle=not rec.straddle))
            self.log("seat %d %s (BLIND-20)" % (seat, "straddles next hand" if not rec.straddle else "no straddle"))
        else:
            self.log("seat %d button" % seat)

    def button_fault(self, seat, fault, cleared):
        undo = self._undo.pop(seat, None)
        if not cleared and undo is not None and fault == "stuck":
            self._set_rec(seat, undo)
            self.log("seat %d: the long press of a stuck switch is undone" % seat)
        if cleared:
            self.alert(INFO, (), "seat %d button is no longer %s" % (seat, fault), device="button%d" % seat)
        else:
            self.alert(WARN, (), "seat %d button is %s: its presses are ignored" % (seat, fault),
                       "check the seat %d switch" % seat, seat=seat, device="button%d" % seat)

    def device_alert(self, device, level, text, remedy=""):
        return self.alert(level, (), text, remedy, device=device)


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


def _antes(h):
    # PHH has no dead blind: a player's dead money is written as its ante -- an uneven ante is dead
    # money in the main pot that counts toward no call, the same thing (POT-17). Heads-up PHH
    # lists are read swapped unless the button posts the big blind (engine/button.py)
    if not hasattr(h, "antes_posted"):
        return 0
    out = [h.antes_posted[p] + h.dead_posted[p] for p in range(h.n)]
    if h.n == 2 and h.rules.headsup_blinds == "button_is_sb":
        out.reverse()
    return out


def _phh_action(op):
    who = "p%d" % (op.position + 1) if op.position is not None else "d"
    k = op.kind
    if k == "hole":
        return "d dh %s %s" % (who, "".join(["??" if c == UNKNOWN else card_text(c) for c in op.cards]))
    if k == "board":
        return "d db %s" % cards_text(op.cards)
    if k == "fold":
        return who + " f"
    if k in ("check", "call"):
        return who + " cc"
    if k in ("bet", "raise", "complete"):
        return "%s cbr %d" % (who, op.total)
    if k == "bring_in":
        return who + " pb"
    if k == "discard":
        return ("%s sd %s" % (who, cards_text(op.cards))) if op.cards else who + " sd"
    if k == "show":
        return "%s sm %s" % (who, cards_text(op.cards))
    if k == "muck":
        return who + " sm"
    return None
