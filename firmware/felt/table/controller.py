# The table controller (controller layer, no clock, no I/O): physical events in -- shoe tag reads,
# antenna arrive/leave/collision per location, seat buttons, FELT1 console entries (Table.INPUTS) --
# and engine inputs out: the Hand, DealCheck (DEAL-* findings), the button and blinds. Every
# attribute the table holds is set in Table.__init__; rare paths are function modules reached from
# one-line methods (rulings, action_clock, tournament, counts, jackpot, out_of_turn, hand_history).
from binascii import hexlify

from felt.engine.between_hands import blinds as btn
from felt.engine import games
from felt.engine.cards import card_text, cards_text
from felt.engine.dealing import check as dealing
from felt.engine.dealing import plan as dealplan
from felt.engine.hand.machine import Hand
from felt.engine.house import rules as settings
from felt.engine.house.rules import CASH
from felt.errors import ConfigError, DeckError, RuleError
from felt.table.alerts import CONFIRMED, ERROR, INFO, LAPSED, NOTE, PROPOSED, REJECTED, WARN, Alert
from felt.table.state import (BETTING, CAPACITY, CONFIG_NUMBERS, DRAW, FOREIGN, HOLD, IDLE, OVER, PICK,  # noqa: F401
                              PLAYING, QUIET, SEAT_CAP, SHOWDOWN, VOID, location_place, place_text)


DEAD_HAND = ("dead_hand", "absent")  # dealing-check rulings that kill a hand (DEAL-20/25/39)
_KEY_ALIAS = {"bringin": "bring_in"}  # FELT1 configuration key -> TableConfig field


class TableConfig:
    """The table statement: game (RULES.md name), structure, seats (2..10), blinds/antes/limits,
    unit, mode (cash|tournament), first button, house rules {"hr.key": value}, deck id in play,
    levels (blind level rows the floor command `level N` picks from) and the level in force."""

    def __init__(self, game="holdem", structure="no_limit", seats=6, sb=0, bb=0, ante=0, small_bet=0,
                 big_bet=0, bring_in=0, unit=1, mode=settings.CASH, button=1, rules=None, deck="A", levels=None, level=0):
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
        self.levels = levels  # [{"sb":, "bb":, "ante":, ...}] rows for the floor's `level N` (TOUR-1)
        self.level = level
        self.players_left = None  # TOUR-13: players left in the whole event (console `set`), None = unknown
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
        self.check()

    def check(self):
        """Stakes and seats the rules forbid raise ConfigError naming the rule (issue 18 item 8):
        GAME-1 a game's most players (stud 8, draw 6: a table with more seats cannot deal them),
        BLIND-2 a small blind above the big blind, BET-1 a big bet below the small bet (B = 2S)."""
        g = self.record
        if self.seats > g.max_players:
            raise ConfigError("GAME-1: %s takes at most %d players, not a %d-seat table" % (
                g.name, g.max_players, self.seats))
        if g.forced == "blinds" and self.sb > self.bb:
            raise ConfigError("BLIND-2: the small blind (%d) is above the big blind (%d)" % (self.sb, self.bb))
        if g.structure == "limit" and self.big_bet < self.small_bet:
            raise ConfigError("BET-1: the big bet (%d) is below the small bet (%d)" % (self.big_bet, self.small_bet))
        rows = self.levels or ()
        for i in range(len(rows)):  # the level table (TOUR-1): a row's blinds as BLIND-2 wants them
            if rows[i].get("sb", 0) > rows[i].get("bb", 0):
                raise ConfigError("BLIND-2: level %d: the small blind (%d) is above the big blind (%d)" % (
                    i + 1, rows[i]["sb"], rows[i].get("bb", 0)))


class Table:
    """One table. registry: engine.deck.DeckRegistry with config.deck registered. log(line): the
    public log sink; history(text): receives each finished hand as PHH text; notify(alert): the
    console side (the loop sends it as a FELT1 alert/propose line). All optional.
    Every attribute is set in __init__ (the per-hand card account by _new_account, called from it);
    the inputs are INPUTS; the body reads in the order of a hand: the shoe and the antennas, seats
    and the start of a hand, showdown and the end of a hand, console entries and rulings."""

    # Every input from outside the table -- the loop (drivers, console), the floor desk, the boot
    # antenna check -- with the kind of journal record it makes. felt.recovery.restore journals each
    # call to one of these before it runs and replays it after a power cut; a call the table makes
    # to its own methods is part of the outer input. tests/firmware/table/test_table_inputs.py keeps this
    # list and the table's public methods in step.
    INPUTS = {
        "shoe_card": "card", "antenna": "antenna", "check_moves": "antenna", "button": "button",
        "button_fault": "button", "resolve": "tick", "clock_tick": "tick", "alert": "alert", "device_alert": "alert",
        # console entries and rulings, and the floor-key commands FloorDesk runs
        "act": "console", "ruling": "console", "new_hand": "console", "sit": "console", "push": "console",
        "configure": "console", "mark": "console", "kill": "console", "misdeal": "console", "post": "console",
        "floor_decision": "console", "void_hand": "console", "adjust_stack": "console", "set_level": "console",
        "set_structure": "console", "register_deck": "console",
        # integrity: a tilt entered by the board (felt.security.tilt), cleared by floor command
        "tilt": "alert", "clear_tilt": "console",
    }

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
        self.staged = {}  # floor level/structure changes waiting for the next hand (TOUR-1)
        self.penalties = None  # engine.clock.Penalties once the floor gives one (TOUR-17, table_rulings)
        self.serving = {}  # seat -> penalty left after this hand, for seats serving one in it (TOUR-17)
        self.action_clock = None  # engine.clock.ActionClock on the seat to act (TOUR-6, table_clock)
        # the level clock and hand-for-hand (TOUR-1/8/10): tournament.TableLevelClock, None while both are off
        self.level_clock = None
        # POT-18 at a break: (loop ms, level) of the last award, from the loop's first tick after it
        # (journaled, so replayed after a power cut); None until then
        self.awarded = None
        self.jackpot = 0  # the bad-beat fund of a jackpot table, across hands (CASH-12, table_jackpot)
        self.floor_decks = []  # decks the floor registered (register_deck): in the snapshot, not a file
        # issue 16 item 3: the reason of an integrity failure that locked play (felt.security.tilt;
        # None: no tilt), and whether a tag not of the deck in play tilts the table (the assembled
        # board sets it: felt.runtime.app; a bench table keeps the DECK-5 alert alone)
        self.tilted = None
        self.tilt_on_foreign = False
        self.public = None  # (text, hand, log length): a count published at a player's request (table_counts)
        self.hand_inputs = []  # this hand's engine inputs other than cards, in order (_rebuild replays them)
        self._dc_discards = []  # [(seat, cards)] draws not yet told to the dealing check
        self.chop_offer = None  # (hand, seat): a blind chop offered, waiting for the other blind (BLIND-26)
        self._new_account()  # the per-hand card account (reset by every hand)

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

    def progress(self):
        """How far this hand has gone: (state, engine inputs, cards seen). It changes with every action,
        card and end of a hand; the display reads it to tell a fresh alert from one the hand has moved
        past (view.lines)."""
        return (self.state, len(self.hand_inputs), len(self.where))

    def alert(self, level, rules, text, remedy="", seat=None, device=None, finding=None, status=NOTE):
        self.seq += 1
        a = Alert(self.seq, level, rules, self._redact(text), self._redact(remedy), seat, device, finding, status)
        a.mark = self.progress()
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
        a = self.alert(WARN, (err.rule,), text)
        a.legal = legal  # the console reply carries a chip range as legal=MIN..MAX (loop.py)
        return a

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
        self.killed = {}  # seat -> rule: hands killed by a ruling, folded at their turn (table_rulings)
        self.oot = []  # table_oot.Held: out-of-turn actions held for their turn (BET-39..41)
        self.oot_limits = {}  # position -> (chips that stay, checked): club_chips_stay after a change (BET-40)
        self.oot_forfeited = {}  # position -> True: passed over, its turn taken by BET-41
        self.oot_busy = False
        self.show16 = {}  # seat -> True: its bet hand reached the muck with an opponent still in (SHOW-16)

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

    def device_alert(self, device, level, text, remedy=""):
        return self.alert(level, (), text, remedy, device=device)

    # ==== the shoe and the antennas: the card account, the dealing check, the Hand fed its cards ======

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
            if self.tilt_on_foreign and self.tilted is None:  # issue 16 item 3: a foreign deck tilts
                self.tilt("a tag not of deck %s was read at %s" % (self.config.deck, place_text(place)))
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
        # (dc.pending() read in place: it made a list at every card and action, hardware/memory.md)
        for f in self.dc.findings:
            if f.status == dealing.PROPOSED and f.kind in HOLD:
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
            self.hand_inputs.append(("draw", seat, cards))
            self._dc_discards.append((seat, cards))  # told to the dealing check after the burn
            self.log("seat %d %s" % (seat, ("draws %d" % len(cards)) if cards else "stands pat"))
            if seat == upto:
                return

    def _feed_all(self, h):
        for _ in range(4):
            if h.finished or not self._feed(h, self.dc):
                return

    # ==== seats, seat buttons and the start of a hand =================================================

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

    def new_hand(self, now_ms=None):
        """The next hand: the button moves by BLIND-*, blinds and antes are posted. now_ms (the
        loop's clock, journaled with the call) counts timed penalties (TOUR-17, minutes)."""
        if self.state == PLAYING:
            raise RuleError("GAME-6", "hand %d is not over yet" % self.hand_no)
        if self.staged:  # floor level/structure changes apply from this hand (TOUR-1)
            from felt.table import rulings as table_rulings
            table_rulings.apply_staged(self)
        for seat in sorted(self._later):  # changes made during a void hand
            self.seat_rec[seat - 1] = self._later[seat]
        self._later = {}
        for i in range(self.config.seats):
            if self.stacks[i] <= 0 and self.seat_rec[i].status != btn.EMPTY:
                self.seat_rec[i] = btn.Seat()  # busted: the seat is empty from now on
        cfg = self.config
        h4h = None
        if self.level_clock is not None:  # TOUR-1: a level that ran out applies now; TOUR-8: 2:00 a hand
            from felt.table import tournament
            h4h = tournament.hand_started(self, now_ms)
        blinds = cfg.record.forced == "blinds"
        try:
            setup = btn.next_hand(self.seat_rec, prev=self.prev, button=cfg.button, sb=cfg.sb if blinds else 0,
                                  bb=cfg.bb if blinds else 1, ante=cfg.ante if blinds else 0, mode=cfg.mode,
                                  rules=cfg.house)
        except (RuleError, ConfigError):
            if h4h is not None:  # no hand started: it took no time (nor a level) off the clock
                h4h[2]()
            raise
        self.hand_no += 1
        self.alerts = []
        self.results = []
        self.misdeals = 0
        self.serving = {}
        if h4h is not None and h4h[0]:
            self.alert(INFO, h4h[1], h4h[0])
        if self.penalties is not None:  # TOUR-17: penalised seats join the absent ones (BLIND-23)
            from felt.table import rulings as table_rulings
            table_rulings.serve_penalties(self, setup, now_ms)
        self._start(setup, None)

    def _rebuild(self):
        """After a ruling moved cards (DEAL-27/28/29 rebuilt street): a fresh Hand replays
        hand_inputs while the dealing check's logical cards are fed whenever they are due."""
        h = self._make_hand(self.setup)
        self.hand = h
        self.fed = {}
        for entry in self.hand_inputs:
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

    def _make_hand(self, setup):
        cfg = self.config
        g = cfg.record
        seats = list(setup.seats)
        stacks = []  # loops, not comprehensions, in the new hand's step: no closures or cells (memory.md)
        for s in seats:
            stacks.append(self.stacks[s - 1])
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
                    rules=cfg.house, seats=seats, dead=dead, event_heads_up=cfg.players_left == 2)

    def _start(self, setup, plan):
        cfg = self.config
        g = cfg.record
        seats = list(setup.seats)
        self.hand = self._make_hand(setup)
        self.hand_inputs = []
        self._dc_discards = []
        if plan is None:
            # BLIND-23: a tournament seat whose player is away or serving a penalty is dealt in and
            # pays, but its hand is dead: the dealing check knows it from the start (plan dead)
            dead = []
            for i in getattr(setup, "absent", ()):
                dead.append(seats[i])
            dead.sort()
            plan = dealplan.make_plan(seats, g.streets, setup.button, dead=tuple(dead))
        self.dc = dealing.DealCheck(plan, cfg.house)
        self.setup = setup
        self._pos = {}
        for p in range(len(seats)):
            self._pos[seats[p]] = p
        self.state = PLAYING
        self._new_account()
        self.log("hand %d: %s, button seat %d, seats %s" % (self.hand_no, g.name, setup.button,
                                                            " ".join([str(s) for s in seats])))
        if plan.dead and g.forced == "blinds":
            # the engine Hand kills them too (Hand.kill, journaled): their blinds and antes stay in
            # the pot, layered with their other chips (POT-17: a blind nobody matches comes back,
            # POT-2), and the action passes them by; the dealer mucks their cards after the deal
            from felt.table import rulings as table_rulings
            table_rulings.kill_dead(self, "BLIND-23")
            if self.hand.finished:  # heads-up: the other hand was the last live one (GAME-6)
                self._sync()
            for seat in plan.dead:
                if self.state == PLAYING:
                    self._dead_alert(seat, "its blinds and antes stay", "muck seat %d's cards when the deal is complete"
                                     % seat)
                else:
                    self._dead_alert(seat, "its blinds and antes stay but what nobody matched (POT-2)",
                                     "deal no cards: the hand is over (GAME-6)")
        elif plan.dead:
            # stud: an absent seat's upcard may be the bring-in card (GAME-11), so the Hand needs
            # its cards; it is killed when the initial deal completes (table_rulings.absent_stud)
            for seat in plan.dead:
                self._dead_alert(seat, "its antes stay", "muck seat %d's cards when the deal is complete; if its "
                                 "upcard brings in, the bring-in is posted for it" % seat)

    def _dead_alert(self, seat, stays, remedy):
        # BLIND-23: the seat is absent, or serving a penalty (TOUR-17: how much is left is said)
        if seat not in self.serving:
            self.alert(INFO, ("BLIND-23",), "seat %d is absent: its hand is dead, %s" % (seat, stays), remedy, seat=seat)
            return
        from felt.table import rulings as table_rulings
        self.alert(INFO, ("TOUR-17", "BLIND-23"), "seat %d serves a penalty: %s; its hand is dead, %s" % (
            seat, table_rulings.penalty_left_text(self, seat), stays), remedy, seat=seat)

    def _redeal(self):
        # DEAL-14: the same hand again -- same button, same blinds, the same seats
        self.misdeals += 1
        plan = self.dc.redeal_plan()
        for a in self.alerts:  # proposals about the misdealt cards name findings of the old check
            if a.status == PROPOSED:
                a.status = LAPSED
                a.remedy = "the hand was misdealt (DEAL-14)"
        self._await = None
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
            elif self.config.house.get("blind_chop") == "on":
                from felt.table import rulings as table_rulings  # BLIND-26: a blind's press offers or agrees to chop

                if table_rulings.chop_press(self, seat):
                    return
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

    # ==== showdown and the end of a hand ==============================================================
    def _showdown(self):
        # the live hands' cards are read from their seat antennas (SHOW-1): all there -> tabled;
        # none there and in the muck -> mucked; otherwise the table asks for them. Every hand on
        # its antenna is tabled before any muck counts: read at the same moment, a muck that
        # leaves one hand must not turn a tabled winner into one "without showing" (SHOW-6/10)
        h = self.hand
        muckers = []
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
                    muckers.append(p)
                elif seat not in self._showdown_noted:
                    self._showdown_noted[seat] = True
                    self.alert(WARN, ("SHOW-1",), "seat %d's cards are not all on its antenna at the showdown" % seat,
                               "put seat %d's cards on its antenna (or in the muck to give up)" % seat, seat=seat)
            except RuleError as e:
                self.rule_alert(e)
        for p in muckers:
            if h.finished:
                break
            try:
                h.muck(p)
                self.log("seat %d mucks" % self.setup.seats[p])
            except RuleError as e:
                self.rule_alert(e)

    def _finish(self):
        h = self.hand
        self._findings(self.dc.hand_over() if self.dc.phase not in (dealing.MISDEALT, dealing.VOID) else [])
        for p in range(h.n):
            self.stacks[self.setup.seats[p] - 1] = h.stacks[p]
        self.results = list(h.reasons or [])
        # chips leave a hand only as rake and jackpot drop (POT-20, CASH-12)
        raked = sum(h.starting_stacks) - sum(h.stacks) - getattr(h, "jackpot_drop", 0)
        if raked > 0:
            self.results.append("rake %d (POT-20)" % raked)
        if self.config.mode == "cash" and self.config.house.bbj_hand != "off":
            from felt.table import jackpot as table_jackpot  # CASH-8..12: the fund and a bad beat (jackpot tables only)
            table_jackpot.after_hand(self)
        for line in self.results:
            self.log("hand %d: %s" % (self.hand_no, line))
        self.prev = self.setup
        self.awarded = None  # the loop's next tick gives its time (POT-18)
        self.seat_rec = [r.copy() for r in self.setup.table]
        for seat in sorted(self._later):  # presses and seatings during the hand count from now
            self.seat_rec[seat - 1] = self._later[seat]
        self._later = {}
        self.state = OVER
        self._write_history()

    def _write_history(self):
        if self._history is None:
            return
        from felt.table import hand_history  # with the PHH writer: only a table with a history sink (~21 KB of heap)

        self.histories += 1
        self._history(hand_history.text(self))

    # ==== dealer-console entries, rulings and floor commands ==========================================

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
        if h.actor is not None and p != h.actor:
            from felt.table import out_of_turn as table_oot  # BET-39..43: held for its turn, not dropped (loaded on the first)

            if table_oot.applies(self, p, verb):
                return table_oot.entry(self, seat, p, verb, amount)
        if self.oot_limits and p in self.oot_limits and p == h.actor:
            from felt.table import out_of_turn as table_oot

            if not table_oot.in_turn(self, seat, p, verb):
                return None
        if h.phase == DRAW and verb == "check":
            self._finish_draws(seat, True)  # "check" during a draw: stands pat (GAME-15)
            self._sync()
            return True
        if (verb == "check" or verb == "call") and self._nut_refused(h, seat, p):
            return None
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
        if h.actor is not None and p != h.actor:
            from felt.table import out_of_turn as table_oot  # BET-39: chips pushed out of turn are held like an action

            if table_oot.string_bet(self, seat, p, said, chips):
                return None
            verb, total = table_oot.push_action(h, p, chips, said, amount)
            if table_oot.applies(self, p, verb):
                return table_oot.entry(self, seat, p, verb, total)
        from felt.engine.hand import chip_push as declare  # chip pushes are rare: load the reader on the first one

        try:
            reading = declare.interpret(h, p, chips, said=said, amount=amount, earlier=earlier)
            if reading.action in ("check", "call") and self._nut_refused(h, seat, p):
                return None
            op = declare.apply(h, p, reading)
        except RuleError as e:
            self.rule_alert(e, "push by seat %d" % seat)
            return None
        if reading.change:
            self.log("seat %d gets %d change (%s)" % (seat, reading.change, reading.rule))
        verb = {"check": "call", "call": "call", "fold": "fold", "bring_in": "bringin"}.get(reading.action, "raise")
        return self._acted(seat, verb, reading.total, op)

    def configure(self, key, value, now_ms=None):
        """Console `set KEY VALUE` between hands: blinds/antes/limits/unit or a house rule hr.NAME
        (validated by engine/settings.py, all-or-nothing). Returns True, or False with an alert.
        now_ms: the loop's time of the entry (the level clock, TOUR-1)."""
        cfg = self.config
        key = _KEY_ALIAS.get(key, key)
        if key == "hand_for_hand":  # TOUR-8: announced during a hand too (that hand counts)
            from felt.table import tournament
            return tournament.configure_h4h(self, value, now_ms)
        if key == "level_clock":  # TOUR-1: started, paused, resumed during a hand too
            from felt.table import tournament
            return tournament.configure(self, value, now_ms)
        if self.state == PLAYING:
            self.alert(WARN, ("GAME-1",), "set %s refused: hand %d is in progress" % (key, self.hand_no))
            return False
        try:
            if key.startswith("hr."):
                cfg.house = cfg.house.replace({key: value})
            elif key in CONFIG_NUMBERS:
                if not isinstance(value, int) or value < 0:
                    raise ConfigError("BET-1: %s must be a whole number of chips, got %r" % (key, value))
                old = getattr(cfg, key)
                setattr(cfg, key, value)
                try:
                    cfg.check()  # BLIND-2 / BET-1: nothing changes when the new value breaks one
                except ConfigError:
                    setattr(cfg, key, old)
                    raise
            elif key == "players_left":
                # TOUR-13: the console supplies the players left in the event; at two, a heads-up
                # limit hand has no raise cap (BET-5 event_heads_up_only), from the next hand
                from felt.engine.between_hands import ledger

                if cfg.mode == "cash":
                    raise ConfigError("TOUR-13: players_left is a tournament setting")
                try:
                    ledger.event_heads_up(value)
                except RuleError as e:
                    raise ConfigError("TOUR-13: " + e.message.split(": ", 1)[-1])
                cfg.players_left = value
            else:
                raise ConfigError("GAME-1: %s cannot be changed at the table (%s players_left or hr.NAME)" % (
                    key, " ".join(CONFIG_NUMBERS)))
        except ConfigError as e:
            text = str(e)
            rule = text.split(":", 1)[0] if text[:1].isupper() and "-" in text.split(":", 1)[0] else "GAME-1"
            self.alert(WARN, (rule,), "set %s refused: %s" % (key, text))
            return False
        self.log("set %s = %s" % (key, value))
        return True

    def setting(self, key, now_ms=None):
        """Console `get KEY`: the value now in force (None for an unknown key)."""
        key = _KEY_ALIAS.get(key, key)
        if key.startswith("hr."):
            return self.config.house.get(key)
        if key == "level_clock":  # TOUR-1: off, or L<level>/<M:SS left>[/paused]
            if self.level_clock is None:
                return "off"
            from felt.table import tournament
            return tournament.get(self, now_ms)
        if key == "jackpot":  # CASH-12: the bad-beat fund of a jackpot table
            return self.jackpot if self.config.mode == CASH and self.config.house.bbj_hand != "off" else "off"
        if key == "dispute":  # POT-18: what about the last hand may still be disputed
            return self._dispute(now_ms)
        if key == "hand_for_hand":  # TOUR-8: off, on (time not known) or the level clock M:SS
            if self.level_clock is None:
                return "off"
            from felt.table import tournament
            return tournament.get_h4h(self)
        return getattr(self.config, key, None) if key in CONFIG_NUMBERS + ("game", "structure", "mode", "seats",
                                                                           "players_left") else None

    def _dispute(self, now_ms=None):
        # POT-18: the reading of a tabled hand until the next hand begins (DEAL-1); counting and
        # awarding errors until substantial action on the next hand; then the last hand is locked.
        # A hand that ends at a break locks 1 minute after its award (tournament.dispute_locked)
        if self.prev is None:
            return "none"
        if self.state != PLAYING:
            if self.awarded is not None and self.level_clock is not None:
                from felt.table import tournament
                if tournament.dispute_locked(self, now_ms):
                    return "locked"
            return "reading"
        return "locked" if self.dc.sa else "count"

    def pot_count(self, asker=None):
        """Console `pot [SEAT]`: a player asks for the pot (BET-26). The count dict, or None with an
        alert naming the rule when the house rule gives none here."""
        return self._count("pot_count", asker)

    def stack_count(self, seat, asker=None):
        """Console `count SEAT [ASKER]`: a count of SEAT's stack (BET-48), or None with an alert."""
        return self._count("stack_count", seat, asker)

    def _count(self, name, *args):
        from felt.table import counts as table_counts  # loaded on the first request

        try:
            return getattr(table_counts, name)(self, *args)
        except RuleError as e:
            self.rule_alert(e)
            return None

    def mark(self, seat, what, draw=None):
        """Console mark: the dealer saw draw `draw` (default: the last card drawn to `seat`) face up
        in the deck ("boxed", DEAL-7/17) or exposed by a dealer error ("exposed", DEAL-11/21/22), or
        the seat's player is absent at the end of the deal ("absent": a DEAL-39 proposal)."""
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
        elif what == "absent":
            # DEAL-39 under hr.presence_check = console: the dealer marks a seat whose player was
            # not at the table when the deal ended. The check proposes the ruling; the confirm
            # kills the hand in the engine too (ruling -> table_rulings.kill_dead -> Hand.kill)
            self._dc(dc.absent, seat)
        elif what == "dealer_error" and self.oot:
            from felt.table import out_of_turn as table_oot  # BET-42: the dealer prompted a held out-of-turn action

            if not table_oot.dealer_error(self, seat):
                self.log("seat %d marked %s (recorded)" % (seat, what))
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

    def _nut_refused(self, h, seat, p):
        # SHOW-19: a check or call by the river's last actor in a high-only board game is looked
        # at (table_rulings.nut_check); True when hr.nut_check_last_to_act = require_bet refuses it
        if h.actor != p or h.street != len(h.game.streets) - 1 or h.game.family != "board" \
                or h.game.lo is not None or h.round.needs.count(True) > 1:
            return False
        from felt.table import rulings as table_rulings

        return table_rulings.nut_check(self, seat, p)

    def _acted(self, seat, verb, amount, op):
        self.hand_inputs.append(("act", seat, verb, amount))
        c = self.action_clock
        if c is not None and c.seat == seat:
            self.action_clock = None  # acted in time: the clock stops and the action stands (TOUR-6)
            if c.proposal is not None and c.proposal.status == PROPOSED:
                c.proposal.status = LAPSED  # CASH-13: the player acted before the dealer ruled
        if self.dc.phase not in (dealing.MISDEALT, dealing.VOID):
            self._dc(self.dc.action, seat, "bring_in" if op.kind == "bring_in" else op.kind, op.amount)
        self.log("seat %d %s%s" % (seat, op.kind, (" %d" % op.total) if op.kind in ("bet", "raise", "complete") else ""))
        self._sync()
        if self.level_clock is not None and self.state == PLAYING and self.hand.runout:
            from felt.table import tournament
            tournament.maybe_hold(self)  # TOUR-10: an all-in and call waits for the TD
        if self.oot and self.state == PLAYING:
            from felt.table import out_of_turn as table_oot
            table_oot.follow(self)  # a held out-of-turn action whose turn came binds or is released
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
        if verb == "kill":  # a journaled ruling (table_rulings.kill): DEAL-36/38, in or out of turn
            return h.kill(p)
        if verb == "forfeit":  # club_chips_stay: out-of-turn chips stay in the pot (table_oot, BET-39)
            from felt.table import out_of_turn as table_oot

            return table_oot.forfeit_chips(h, p, amount)
        if verb == "chop":  # both blinds agreed (table_rulings.chop_press): BLIND-26
            from felt.engine.house import cash as cashrules

            return cashrules.chop_blinds(h)
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
        if a.finding is None and "SHOW-16" in a.rules:
            from felt.table import out_of_turn as table_oot  # a bet hand mucked with an opponent still in (SHOW-16)

            return table_oot.show16_ruled(self, a, accept)
        if a.finding is None and ("BET-39" in a.rules or "BET-41" in a.rules):
            from felt.table import out_of_turn as table_oot  # an out-of-turn proposal (BET-39..43)

            return table_oot.ruled(self, a, accept)
        if a.finding is None and "CASH-13" in a.rules:
            from felt.table import action_clock as table_clock  # the action timer's kill proposal (CASH-13)

            return table_clock.ruled(self, a, accept)
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
            if accept and dc.findings[a.finding - 1].kind in DEAD_HAND:
                from felt.table import rulings as table_rulings
                table_rulings.kill_dead(self, a.rules[0] if a.rules else "DEAL-38")
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
            if not h.live[p]:
                continue  # a dead hand's cards go to the muck (a kill, DEAL-25/38)
            held = dc.holes.get(self.setup.seats[p], ())
            for c in h.hole[p]:
                if c >= 0 and c not in held:
                    return True
        return False

    # ---- rulings, postings and floor commands (felt/table/rulings.py, loaded on first use) ----
    def _ruled(self, name, what, *args):
        from felt.table import rulings as table_rulings  # rare entries: their code joins the heap on first use

        try:
            return getattr(table_rulings, name)(self, *args)
        except RuleError as e:
            self.rule_alert(e)  # its message names the entry already
        except ConfigError as e:
            text = str(e)
            self.alert(WARN, (text.split(":", 1)[0],) if "-" in text.split(":", 1)[0] else (),
                       "%s refused: %s" % (what, text))
        return False

    def kill(self, seat, rule=None, text=None):
        """Console `kill SEAT [rule=] ["text"]`: the hand is dead (DEAL-38 unless a rule is given)."""
        return self._ruled("kill", "kill", seat, rule, text)

    def misdeal(self, rule=None, text=None):
        """Console `misdeal`: before substantial action the hand is dealt again (DEAL-14, DEAL-15)."""
        return self._ruled("misdeal", "misdeal", rule, text)

    def post(self, seat, kind, amount=None):
        """Console `post SEAT KIND [AMOUNT]` (BLIND-*): True, or False with an alert naming the rule."""
        done = self._ruled("post", "post", seat, kind, amount)
        if done:
            self.log(done)
        return bool(done)

    def floor_decision(self, decision, seat=None, rule=None, amount=None, text=None, now_ms=None):
        """Console `floor DECISION ...`: recorded, with its mechanical consequence (table_rulings);
        now_ms: the loop's clock, for a timed penalty (TOUR-17)."""
        return self._ruled("floor_decision", "floor %s" % decision, decision, seat, rule, amount, text, now_ms)

    def clock_tick(self, now_ms):
        """The loop: the clock on a seat (TOUR-6) has its countdown or expiry due at now_ms, or the
        board restarted (its ms counter began again below a clock's anchor)."""
        lc = self.level_clock
        if lc is not None and lc.behind(now_ms):
            lc.level(now_ms)  # TOUR-1: the time lost in the outage is not known; the level clock runs on from here
        a = self.awarded
        if lc is not None and self.state == OVER and (a is None or now_ms < a[0]):
            # POT-18: the award's time and level (a smaller now: the board restarted, and like the
            # level clock the outage is not counted: the minute runs from now)
            self.awarded = (now_ms, lc.peek(now_ms)[0])
        if self.action_clock is None and (self.config.mode != CASH or self.config.house.cash_action_timer == "off"):
            return False
        from felt.table import action_clock as table_clock
        return table_clock.tick(self, now_ms)

    # floor-key commands (security/floordesk.py): raise RuleError/ConfigError, state unchanged
    def void_hand(self):
        from felt.table import rulings as table_rulings
        return table_rulings.void_hand(self)

    def adjust_stack(self, seat, chips):
        from felt.table import rulings as table_rulings
        return table_rulings.adjust_stack(self, seat, chips)

    def set_level(self, n):
        from felt.table import rulings as table_rulings
        return table_rulings.set_level(self, n)

    def set_structure(self, structure):
        from felt.table import rulings as table_rulings
        return table_rulings.set_structure(self, structure)

    def register_deck(self, deck_id, uids):
        """A deck the floor registered by floor command (FloorDesk, once its record's floor
        signature verified): uids = its 52 tag UIDs as hex, card order. An input like any floor
        command -- journaled, and kept in the between-hands snapshot -- so it survives a power cut
        without a file on flash (issue 12 item 8). DECK-1 checks in the registry."""
        self.registry.register(deck_id, dict([(_unhex(uids[c]), c) for c in range(len(uids))]))
        if deck_id not in self.floor_decks:
            self.floor_decks.append(deck_id)
        return "deck %s registered (%d tags)" % (deck_id, len(uids))


    # integrity (issue 16 item 3, felt.security.tilt): the loop refuses play while tilted
    def tilt(self, reason):
        """An integrity failure locks play: shown (display, console alert), journaled like any
        input, kept in the snapshot; only clear_tilt (an authenticated floor command) ends it."""
        self.tilted = str(reason)[:120]
        self.alert(ERROR, (), "TILT: %s" % self.tilted, "play is locked: the floor inspects, then clears it by "
                   "floor command (floor key)", device="tilt")
        return self.tilted

    def clear_tilt(self):
        """The floor's authenticated `clear` (FloorDesk): play resumes. ConfigError when not tilted."""
        if self.tilted is None:
            raise ConfigError("the table is not in tilt: nothing to clear")
        was = self.tilted
        self.tilted = None
        self.alert(INFO, (), "tilt cleared by the floor (was: %s)" % was, device="tilt")
        return "tilt cleared (was: %s)" % was


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
