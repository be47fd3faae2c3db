# The table controller (controller layer, no clock, no I/O): physical events in -- shoe tag reads,
# antenna arrive/leave/collision per location, seat buttons, FELT1 console entries -- and engine
# inputs out: the Hand (betting, pots), DealCheck (DEAL-* findings), button.py (button/blinds
# across hands). It keeps the per-hand account of the 52 cards and turns every finding and every
# rejected entry into an Alert (events.py) citing its RULES.md IDs. Indicators come from view.py.
# Table is a facade over its parts, one concern each: table_cards (card account, dealing checks),
# table_seats (seats, buttons, hand start), table_showdown (showdown, hand end, PHH),
# table_entries (console entries and rulings; rare ones in table_rulings, tournament and table_clock, loaded
# on first use); names shared by them live in table_state.
from felt.engine.between_hands import blinds as btn
from felt.engine import games
from felt.engine.house import rules as settings
from felt.engine.cards import card_text
from felt.errors import ConfigError
from felt.events import NOTE, PROPOSED, WARN, Alert
from felt.table.cards import Cards
from felt.table.entries import Entries
from felt.table.seats import Seats
from felt.table.showdown import Showdown
from felt.table.state import (CAPACITY, CONFIG_NUMBERS, DRAW, FOREIGN, HOLD, IDLE, OVER, PICK, PLAYING,  # noqa: F401
                              QUIET, SEAT_CAP, SHOWDOWN, VOID, location_place, place_text)


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


class Table(Cards, Seats, Showdown, Entries):
    """One table. registry: engine.deck.DeckRegistry with config.deck registered. log(line): the
    public log sink; history(text): receives each finished hand as PHH text; notify(alert): the
    console side (the loop sends it as a FELT1 alert/propose line). All optional."""

    # Every input from outside the table -- the loop (drivers, console), the floor desk, the boot
    # antenna check -- with the kind of journal record it makes. felt.recovery.restore journals each
    # call to one of these before it runs and replays it after a power cut; a call the table makes
    # to its own methods is part of the outer input. tests/firmware/test_table_inputs.py keeps this
    # list and the table's public methods in step.
    INPUTS = {
        "shoe_card": "card", "antenna": "antenna", "check_moves": "antenna", "button": "button",
        "button_fault": "button", "resolve": "tick", "clock_tick": "tick", "alert": "alert", "device_alert": "alert",
        # console entries and rulings (entries.py), and the floor-key commands FloorDesk runs
        "act": "console", "ruling": "console", "new_hand": "console", "sit": "console", "push": "console",
        "configure": "console", "mark": "console", "kill": "console", "misdeal": "console", "post": "console",
        "floor_decision": "console", "void_hand": "console", "adjust_stack": "console", "set_level": "console",
        "set_structure": "console",
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
        self.jackpot = 0  # the bad-beat fund of a jackpot table, across hands (CASH-12, table_jackpot)
        self.public = None  # (text, hand, log length): a count published at a player's request (table_counts)
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
