# The chip ledger between hands (engine layer, pure): table stakes and adding or removing chips in
# cash games (CASH-3/4/5), tournament starting stacks of absent entrants (TOUR-22), rebuys that keep
# a player in (TOUR-16, TOUR-24), the event heads-up flag for limit caps (TOUR-13, BET-5) and who moves
# when balancing (TOUR-14). Seats are 1..10; chips are ints; a console entry comes in as a call.
from felt.engine.house import rules as settings
from felt.errors import RuleError

# Change.kind
APPLIED = "applied"  # the stack changed now
QUEUED = "queued"  # waits for the next hand (CASH-4, TOUR-16)
LEFT = "left"  # the player cashed out and left (CASH-5)


class Change:
    """What a ledger entry did: kind (APPLIED, QUEUED, LEFT), seat, amount, the seat's stack now,
    the rule it follows and a text for the console."""

    def __init__(self, kind, seat, amount, stack, rule, text):
        self.kind = kind
        self.seat = seat
        self.amount = amount
        self.stack = stack
        self.rule = rule
        self.text = text

    def __repr__(self):
        return "Change(%s seat %d %d -> %d, %s)" % (self.kind, self.seat, self.amount, self.stack, self.rule)


def _chips(amount, rule, legal=None):
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise RuleError(rule, "an amount of whole chips > 0 is needed, got %r" % (amount,), legal=legal)
    return amount


class Ledger:
    """Stacks per seat across hands. mode: settings.CASH or TOURNAMENT; max_buy_in: the cash table
    maximum (None = no maximum, CASH-1/CASH-4).

    start_hand() -> {seat: stack} fixes the table stakes of the hand (CASH-3) after applying what was
    queued; end_hand({seat: chips}) takes the finishing stacks and returns the seats eliminated
    (TOUR-24). add(seat, amount) (CASH-4) and rebuy(seat, amount) (TOUR-16) queue during a hand;
    remove(seat, amount) is always refused (CASH-5); cash_out(seat) empties the seat between hands."""

    def __init__(self, mode=settings.CASH, max_buy_in=None):
        if mode not in (settings.CASH, settings.TOURNAMENT):
            raise RuleError("CASH-1: mode must be cash or tournament, got %r" % (mode,))
        self.mode = mode
        self.max_buy_in = max_buy_in
        self.stacks = {}  # seat -> chips on the table between hands
        self.queued = {}  # seat -> chips added during a hand, applied at the next start_hand (CASH-4)
        self.rebuys = {}  # seat -> announced rebuy chips, credited at the next start_hand (TOUR-16)
        self.absent = []  # TOUR-22: registered entrants not present, dealt in anyway
        self.in_hand = False

    # ---- seating ------------------------------------------------------------------------

    def seat(self, seat, amount):
        """A player sits down with `amount` (the buy-in is checked with house.cash.check_buy_in)."""
        self._seat_no(seat)
        if self.in_hand:
            raise RuleError("CASH-4: nobody sits down during a hand; seat %d joins before the next" % seat)
        if seat in self.stacks:
            raise RuleError("CASH-1: seat %d is taken" % seat)
        self.stacks[seat] = _chips(amount, "CASH-1")
        return Change(APPLIED, seat, amount, amount, "CASH-1", "seat %d sits down with %d" % (seat, amount))

    def start_tournament(self, entrants, starting_stack, present=None):
        """TOUR-22: every paid entrant's starting stack is placed at their seat whether or not they are
        present; absent entrants are dealt in and post their blinds and antes (BLIND-23). entrants:
        seats; present: the seats whose players are there (None = all). Returns the absent seats."""
        if self.mode != settings.TOURNAMENT:
            raise RuleError("TOUR-22: starting stacks are a tournament procedure")
        _chips(starting_stack, "TOUR-22")
        for s in entrants:
            self._seat_no(s)
        self.stacks = {}
        for s in entrants:
            self.stacks[s] = starting_stack
        here = list(entrants) if present is None else list(present)
        self.absent = sorted(s for s in entrants if s not in here)
        return list(self.absent)

    def _seat_no(self, seat):
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1 or seat > 10:
            raise RuleError("CASH-3: seat %r is not a seat 1..10" % (seat,), legal=(1, 10))
        return seat

    def _held(self, seat):
        self._seat_no(seat)
        if seat not in self.stacks:
            raise RuleError("CASH-3: nobody has chips in seat %d" % seat)
        return self.stacks[seat]

    # ---- hands --------------------------------------------------------------------------

    def start_hand(self):
        """The "new hand" event: queued additions (CASH-4) and announced rebuys (TOUR-16) are added
        first, then the stacks are the table stakes of the hand (CASH-3). Returns {seat: stack} of
        the seats with chips."""
        for seat in sorted(self.queued):
            self.stacks[seat] = self.stacks.get(seat, 0) + self.queued[seat]
        for seat in sorted(self.rebuys):
            self.stacks[seat] = self.stacks.get(seat, 0) + self.rebuys[seat]
        self.queued = {}
        self.rebuys = {}
        self.in_hand = True
        out = {}
        for seat in self.stacks:
            if self.stacks[seat] > 0:
                out[seat] = self.stacks[seat]
        return out

    def end_hand(self, finishing):
        """The hand is over: finishing {seat: chips} for the seats that played. Returns the seats
        eliminated (TOUR-24: a tournament stack of 0 with no announced rebuy; the seat becomes empty)
        or, in a cash game, the seats left with no chips (they may add chips or leave)."""
        if not self.in_hand:
            raise RuleError("CASH-3: no hand is in progress")
        for seat in finishing:
            if seat not in self.stacks:
                raise RuleError("CASH-3: seat %r played without a ledger stack" % (seat,))
            if isinstance(finishing[seat], bool) or not isinstance(finishing[seat], int) or finishing[seat] < 0:
                raise RuleError("CASH-3: seat %d: finishing stack %r is not whole chips" % (seat, finishing[seat]))
        for seat in finishing:
            self.stacks[seat] = finishing[seat]
        self.in_hand = False
        broke = [s for s in sorted(self.stacks) if self.stacks[s] == 0 and s not in self.rebuys
                 and s not in self.queued]
        if self.mode == settings.TOURNAMENT:
            for s in broke:
                del self.stacks[s]
                if s in self.absent:
                    self.absent.remove(s)
        return broke

    # ---- cash: adding and removing chips ------------------------------------------------

    def add(self, seat, amount):
        """CASH-4: chips are added only between hands, within the maximum buy-in. During a hand the
        request is queued for the next hand, and the player plays this one for what was on the table
        when it started (CASH-3: table stakes)."""
        stack = self._held(seat)
        _chips(amount, "CASH-4")
        if self.mode != settings.CASH:
            raise RuleError("CASH-4: in a tournament chips come only from rebuys (TOUR-16)")
        after = stack + self.queued.get(seat, 0) + amount
        if self.max_buy_in is not None and after > self.max_buy_in:
            room = self.max_buy_in - stack - self.queued.get(seat, 0)
            raise RuleError("CASH-4: seat %d may add at most %d (table maximum %d)" % (seat, max(room, 0),
                            self.max_buy_in), legal=(0, max(room, 0)))
        if self.in_hand:
            self.queued[seat] = self.queued.get(seat, 0) + amount
            return Change(QUEUED, seat, amount, stack, "CASH-4",
                          "seat %d plays this hand for %d (table stakes, CASH-3); %d is added before the next "
                          "hand" % (seat, stack, amount))
        self.stacks[seat] = stack + amount
        return Change(APPLIED, seat, amount, self.stacks[seat], "CASH-4",
                      "seat %d adds %d: new total %d (announce it to the table)" % (seat, amount, self.stacks[seat]))

    def remove(self, seat, amount):
        """CASH-5: a player may not take chips off the table while staying in the game; always
        refused (cash_out() is the only way a stack leaves the table other than play)."""
        stack = self._held(seat)
        raise RuleError("CASH-5: seat %d may not take %r off the table and keep playing; cash out and leave "
                        "instead" % (seat, amount), legal=(0, 0) if stack else None)

    def cash_out(self, seat):
        """CASH-5: the player leaves with the whole stack; only between hands (CASH-3)."""
        stack = self._held(seat)
        if self.in_hand:
            raise RuleError("CASH-3: seat %d is in a hand; chips leave the table only between hands" % seat)
        if self.mode != settings.CASH:
            raise RuleError("CASH-5: a tournament player cannot cash out chips")
        del self.stacks[seat]
        self.queued.pop(seat, None)
        return Change(LEFT, seat, stack, 0, "CASH-5", "seat %d cashes out %d and leaves" % (seat, stack))

    # ---- tournament: rebuys -----------------------------------------------------------------

    def rebuy(self, seat, amount, allowed=True):
        """TOUR-16: a rebuy announced by the player. Announced between hands, the chips play from the
        next hand on ("chips behind": the player is dealt in and must complete the payment off the
        device); announced during a hand, they are credited at the next start_hand and keep the
        seat from elimination if it busts now (TOUR-24). allowed: the event still takes rebuys."""
        self._held(seat)
        _chips(amount, "TOUR-16")
        if self.mode != settings.TOURNAMENT:
            raise RuleError("TOUR-16: rebuys are a tournament procedure; in a cash game add chips (CASH-4)")
        if not allowed:
            raise RuleError("TOUR-16: the rebuy period is over")
        self.rebuys[seat] = self.rebuys.get(seat, 0) + amount
        return Change(QUEUED, seat, amount, self.stacks[seat], "TOUR-16",
                      "seat %d rebuys %d: credited as pending and dealt in next hand" % (seat, amount))


# ---- TOUR-13: the limit cap in a tournament --------------------------------------------------

def event_heads_up(players_left):
    """TOUR-13 / BET-5: the Hand's event_heads_up flag from the number of players left in the whole
    event (a console entry): the limit cap stays on a heads-up hand until only two remain."""
    if isinstance(players_left, bool) or not isinstance(players_left, int) or players_left < 2:
        raise RuleError("TOUR-13: players left in the event must be a whole number >= 2, got %r" %
                        (players_left,), legal=(2, None))
    return players_left == 2


# ---- TOUR-14: balancing -----------------------------------------------------------------------

def _reach(seat, bb_seat, n):
    # hands until the BB reaches `seat` when it moves one seat a hand (the BB seat itself: an orbit)
    return (seat - bb_seat - 1) % n + 1


def player_to_move(next_bb_seat, family="board", rule="tda2019"):
    """TOUR-14: the player this table gives up when the TD asks for one. Flop and mixed games (and
    hr.balance_move = tda2004): the player due the BB next hand. Stud under tda2019 moves "by
    position", which the device cannot rank: None (the TD names the player; FLOOR)."""
    if rule not in ("tda2019", "tda2004"):
        raise RuleError("TOUR-14: unknown hr.balance_move %r" % (rule,), legal=("tda2019", "tda2004"))
    if family == "stud" and rule == "tda2019":
        return None
    return next_bb_seat


def receiving_seat(open_seats, bb_seat, n, rule="tda2019"):
    """TOUR-14: the seat proposed at the receiving table for a moved player. bb_seat: the BB seat of
    the hand just played here; n: seats at the table. tda2019: the worst position -- the open seat
    the BB reaches soonest (it may be a seat that then has the BB twice), never the SB seat of the
    next hand (the seat of the last BB). tda2004: the seat that takes the BB next, or else the first
    open seat to its left. Returns a seat or None when no open seat qualifies."""
    if rule not in ("tda2019", "tda2004"):
        raise RuleError("TOUR-14: unknown hr.balance_move %r" % (rule,), legal=("tda2019", "tda2004"))
    best = None
    for s in open_seats:
        if not 1 <= s <= n:
            raise RuleError("TOUR-14: seat %r is not on this table" % (s,), legal=(1, n))
        if rule == "tda2019" and s == bb_seat:
            continue  # it would be the small blind next hand
        if best is None or _reach(s, bb_seat, n) < _reach(best, bb_seat, n):
            best = s
    return best
