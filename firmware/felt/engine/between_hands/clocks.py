# Tournament level clock and the player action clock (engine layer, pure; time arrives as now_ms): levels
# change for the next hand (TOUR-1, DEAL-1), wrong-level hands (TOUR-2), hand-for-hand (TOUR-8), no push
# near a change (TOUR-11), antes never reduced (TOUR-21), the clock on a player (TOUR-6, CASH-13), penalty
# hands (TOUR-17), the chip race of a color-up (TOUR-3/4) and end-of-hand bookkeeping (TOUR-9/15/24).
from felt.engine.findings import APPLIED, ASSIST, ENGINE, INFO, PROPOSED, Finding
from felt.engine.house.rules import CASH
from felt.errors import ConfigError, RuleError

HAND_FOR_HAND_MS = 120000  # TOUR-8: every hand takes exactly 2 minutes off the level clock
PUSH_WARNING_MS = 90000  # TOUR-11: no dealer push in the last 90 s before a break or level change


class Level:
    """One row of the level table: blinds/antes/limits (chips, ints) and its length. A break has
    `is_break` set and no stakes."""

    def __init__(self, minutes=0, sb=0, bb=0, ante=0, small_bet=0, big_bet=0, bring_in=0, is_break=False,
                 duration_ms=None):
        self.duration_ms = duration_ms if duration_ms is not None else minutes * 60000
        self.sb = sb
        self.bb = bb
        self.ante = ante
        self.small_bet = small_bet
        self.big_bet = big_bet
        self.bring_in = bring_in
        self.is_break = is_break

    def __eq__(self, other):
        return isinstance(other, Level) and self._key() == other._key()

    def _key(self):
        return (self.duration_ms, self.sb, self.bb, self.ante, self.small_bet, self.big_bet, self.bring_in,
                self.is_break)

    def __repr__(self):
        if self.is_break:
            return "Level(break %d ms)" % self.duration_ms
        return "Level(%d/%d ante %d, %d ms)" % (self.sb, self.bb, self.ante, self.duration_ms)

    def stakes(self):
        return "%d/%d" % (self.sb, self.bb) + (" ante %d" % self.ante if self.ante else "")


_LEVEL_FIELDS = ("minutes", "sb", "bb", "ante", "small_bet", "big_bet", "bring_in", "is_break", "duration_ms")


def make_levels(rows):
    """Validate a level table (a list of Level or plain dicts with the Level fields). ConfigError for a
    malformed row; RuleError TOUR-21 when an ante falls below the previous level's."""
    levels = []
    for i in range(len(rows)):
        row = rows[i]
        if isinstance(row, dict):
            for key in row:
                if key not in _LEVEL_FIELDS:
                    raise ConfigError("level %d: unknown field %r; fields: %s" % (i + 1, key, ", ".join(_LEVEL_FIELDS)))
            row = Level(**row)
        if not isinstance(row, Level):
            raise ConfigError("level %d: a Level or a dict, got %r" % (i + 1, row))
        for name in ("sb", "bb", "ante", "small_bet", "big_bet", "bring_in", "duration_ms"):
            value = getattr(row, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigError("level %d: %s must be whole chips / ms >= 0, got %r" % (i + 1, name, value))
        if row.duration_ms <= 0:
            raise ConfigError("level %d: its length must be positive" % (i + 1))
        if not row.is_break and row.bb <= 0 and row.small_bet <= 0 and row.ante <= 0:
            raise ConfigError("level %d: no blinds, bets or ante" % (i + 1))
        levels.append(row)
    if not levels:
        raise ConfigError("a level table needs at least one level")
    last_ante = 0
    for i in range(len(levels)):
        if levels[i].is_break:
            continue
        if levels[i].ante < last_ante:
            raise RuleError("TOUR-21: level %d: ante %d is below the previous level's %d; antes are never "
                            "reduced" % (i + 1, levels[i].ante, last_ante), legal=(last_ante, None))
        last_ante = levels[i].ante
    return tuple(levels)


class LevelClock:
    """The tournament level clock. start(now_ms) starts level 1; pause/resume stop the clock; the
    level in force for a hand is fixed when the hand starts: hand_started(now_ms) (TOUR-1, DEAL-1)."""

    def __init__(self, levels):
        self.levels = self._levels(levels)
        self.index = 0
        self._elapsed_ms = 0  # time spent in the current level, up to _anchor_ms
        self._anchor_ms = None  # when the running clock was last folded in; None while stopped
        self.started = False
        self.hand_for_hand = False
        self.hand_level = None  # index of the level of the hand in progress (TOUR-1)
        self.hands = 0
        self.hands_in_h4h = 0  # hands started (or in progress) since hand-for-hand began (TOUR-8)

    # the level table: validated Levels. A subclass keeping its own rows (felt.table.tournament)
    # overrides these three and is read through them only.
    def _levels(self, rows):
        return make_levels(rows)

    def _length_ms(self, index):
        return self.levels[index].duration_ms

    def _is_break(self, index):
        return self.levels[index].is_break

    # -- running time

    def start(self, now_ms):
        if self.started:
            raise RuleError("TOUR-1: the level clock is already running")
        self.started = True
        self._anchor_ms = now_ms

    def pause(self, now_ms):
        self._fold(now_ms)
        self._anchor_ms = None

    def resume(self, now_ms):
        if not self.started:
            raise RuleError("TOUR-1: the level clock has not been started")
        if self._anchor_ms is None and not self.hand_for_hand:
            self._anchor_ms = now_ms

    def running(self):
        return self._anchor_ms is not None

    def _fold(self, now_ms):
        if self._anchor_ms is not None:
            if now_ms < self._anchor_ms:
                raise RuleError("TOUR-1: time went backwards (%d < %d ms)" % (now_ms, self._anchor_ms))
            self._elapsed_ms += now_ms - self._anchor_ms
            self._anchor_ms = now_ms
        self._advance()

    def _advance(self):
        self.index, self._elapsed_ms = self._advanced(self.index, self._elapsed_ms)

    def _advanced(self, index, elapsed_ms):
        # blinds rise as levels run out; the last level runs on
        while index < len(self.levels) - 1 and elapsed_ms >= self._length_ms(index):
            elapsed_ms -= self._length_ms(index)
            index += 1
        return index, elapsed_ms

    def level(self, now_ms):
        """The level on the clock now (not necessarily the one of the hand in progress)."""
        self._fold(now_ms)
        return self.levels[self.index]

    def remaining_ms(self, now_ms):
        self._fold(now_ms)
        return max(0, self._length_ms(self.index) - self._elapsed_ms)

    # -- hands

    def hand_started(self, now_ms, redeal=False):
        """The "new hand" event (DEAL-1): returns the Level this hand plays at, fixed for the whole hand
        (TOUR-1). During hand-for-hand each new hand first takes 2 minutes off the clock (TOUR-8). A redeal
        after a misdeal (DEAL-14) keeps the original hand's level and costs no time."""
        if not self.started:
            raise RuleError("TOUR-1: the level clock has not been started")
        if redeal:
            if self.hand_level is None:
                raise RuleError("DEAL-14: no hand to redeal")
            return self.levels[self.hand_level]
        self._fold(now_ms)
        cost = HAND_FOR_HAND_MS if self.hand_for_hand and self.hands_in_h4h > 0 else 0
        index, elapsed = self._advanced(self.index, self._elapsed_ms + cost)
        if self._is_break(index):  # refused: nothing changes (the 2 minutes are not taken either)
            raise RuleError("TOUR-1: a break is in progress", legal=(self._length_ms(index) - elapsed,))
        self.index, self._elapsed_ms = index, elapsed
        if self.hand_for_hand:
            self.hands_in_h4h += 1
        self.hand_level = self.index
        self.hands += 1
        return self.levels[index]

    def start_hand_for_hand(self, now_ms, hand_in_progress=True):
        """TOUR-8: from now on the clock stands still and each hand costs exactly 2 minutes, starting with
        the hand during which it was announced (so the next hand start takes the first 2 minutes)."""
        self._fold(now_ms)
        self._anchor_ms = None
        self.hand_for_hand = True
        self.hands_in_h4h = 1 if hand_in_progress else 0

    def stop_hand_for_hand(self, now_ms):
        self.hand_for_hand = False
        self._anchor_ms = now_ms

    def check_hand_level(self, posted, sa):
        """TOUR-2: the hand in progress was posted at level index `posted`. Returns None when it is the
        level fixed at the hand's start, else a Finding: before SA a proposal to restart the hand at the
        correct level, after SA a note that the hand continues at the posted level."""
        if self.hand_level is None or posted == self.hand_level:
            return None
        right = self.levels[self.hand_level]
        wrong = self.levels[posted]
        f = Finding("wrong_level", ("TOUR-2",), ASSIST, "the hand was posted at %s; the level is %s" % (
            wrong.stakes(), right.stakes()), "", INFO)
        if sa:
            f.remedy = "substantial action has occurred: the hand continues at %s" % wrong.stakes()
        else:
            f.status = PROPOSED
            f.remedy = "restart the hand at %s" % right.stakes()
        return f

    def push_warning(self, now_ms):
        """TOUR-11: True in the last 90 s before a level change or break (no dealer push then)."""
        self._fold(now_ms)
        if self.index >= len(self.levels) - 1:
            return False
        return self._length_ms(self.index) - self._elapsed_ms <= PUSH_WARNING_MS


# ---------------------------------------------------------------- the clock on a player

class ActionClock:
    """The player clock. Tournament (TOUR-6): the floor calls the clock on a seat; hr.clock = tda2019
    gives 25 s then a 5 s countdown, legacy_60_10 gives 60 s + 10 s. Cash (CASH-13): hr.cash_action_timer
    seconds per turn, or off. start() when it runs, act() when the player acts, poll(now_ms) for events."""

    def __init__(self, rules):
        self.rules = rules
        if rules.mode == CASH:
            timer = rules.cash_action_timer
            self.main_ms = 0 if timer == "off" else timer * 1000
            self.countdown_ms = 0
        elif rules.clock == "legacy_60_10":
            self.main_ms, self.countdown_ms = 60000, 10000
        else:
            self.main_ms, self.countdown_ms = 25000, 5000
        self.seat = None
        self.facing_bet = False
        self._start_ms = 0
        self._warned = False
        self._expired = False

    def enabled(self):
        return self.main_ms > 0

    def start(self, seat, now_ms, facing_bet):
        """The clock starts on `seat` (the floor called it, TOUR-6; or the seat's turn began, CASH-13).
        `facing_bet`: a bet is pending against the seat (decides check vs dead at expiry)."""
        if not self.enabled():
            raise RuleError("CASH-13: no action time limit is configured (hr.cash_action_timer = off)")
        self.seat = seat
        self.facing_bet = facing_bet
        self._start_ms = now_ms
        self._warned = False
        self._expired = False
        return []

    def deadline_ms(self):
        return self._start_ms + self.main_ms + self.countdown_ms

    def remaining_ms(self, now_ms):
        if self.seat is None:
            return None
        return max(0, self.deadline_ms() - now_ms)

    def next_due_ms(self):
        """When poll() has something to report next (the countdown, then the expiry); None if stopped."""
        if self.seat is None or self._expired:
            return None
        if self.countdown_ms and not self._warned:
            return self._start_ms + self.main_ms
        return self.deadline_ms()

    def poll(self, now_ms):
        """Events due at now_ms: the countdown warning, then the expiry with its consequence."""
        out = []
        if self.seat is None or self._expired:
            return out
        if self.countdown_ms and not self._warned and now_ms >= self._start_ms + self.main_ms:
            self._warned = True
            out.append(Finding("clock_countdown", ("TOUR-6",), ENGINE, "seat %d: %d s left" % (
                self.seat, self.countdown_ms // 1000), "count down aloud", INFO, seat=self.seat,
                detail={"countdown_ms": self.countdown_ms}))
        if now_ms >= self.deadline_ms():
            self._expired = True
            out.append(self._expiry())
        return out

    def _expiry(self):
        seat = self.seat
        if self.rules.mode == CASH:
            f = Finding("clock_expired", ("CASH-13", "DEAL-38"), ASSIST, "seat %d let the time limit pass" % seat,
                        "kill seat %d's hand" % seat, PROPOSED, seat=seat, detail={"result": "dead"})
            return f
        if self.rules.clock == "tda2019" and not self.facing_bet:
            return Finding("clock_expired", ("TOUR-6",), ENGINE, "seat %d's time expired with no bet pending" % seat,
                           "seat %d checks" % seat, APPLIED, seat=seat, detail={"result": "check"})
        return Finding("clock_expired", ("TOUR-6", "DEAL-38"), ENGINE, "seat %d's time expired" % seat,
                       "seat %d's hand is dead" % seat, APPLIED, seat=seat, detail={"result": "dead"})

    def act(self, seat, now_ms):
        """The seat acted at now_ms: stops the clock. An action at the very moment of expiry stands
        (TOUR-6); one after it is refused (RuleError), the expiry having decided."""
        if self.seat is None or seat != self.seat:
            return True
        if now_ms > self.deadline_ms():
            raise RuleError("TOUR-6" if self.rules.mode != CASH else "CASH-13",
                            "seat %d acted %d ms after the time expired" % (seat, now_ms - self.deadline_ms()))
        self.seat = None
        return True

    def stop(self):
        self.seat = None


# ---------------------------------------------------------------- penalties (TOUR-17)

class Penalties:
    """TOUR-17: a penalty of R rounds costs R x (players at the table when given, offender included)
    hands, counted down at each new hand the seat is dealt in (a redeal does not count, DEAL-14).
    hr.penalty_unit = minutes (TDA04) counts time instead: the time left runs down by the now_ms
    differences between looks (give, hand_started); a clock that went back -- the board restarted
    after a power cut and its ms counter began again -- counts nothing for the gap, so the penalty
    goes on from where it stood. A second penalty adds to the first. During a penalty the seat is
    dealt in and its hand killed (BLIND-23)."""

    def __init__(self, unit="hands"):
        if unit not in ("hands", "minutes"):
            raise ConfigError("hr.penalty_unit: %r is not legal; legal: hands, minutes" % (unit,))
        self.unit = unit
        self._left = {}  # seat -> hands left, or ms left for minutes
        self.seen_ms = None  # minutes: the now_ms the time left was counted to

    def give(self, seat, rounds=0, players=0, minutes=0, now_ms=None):
        """Returns the seat's penalty now: hands, or ms left (minutes)."""
        if self.unit == "hands":
            if rounds <= 0 or players < 2:
                raise RuleError("TOUR-17: a penalty is whole rounds at a table of 2+ players", legal=(1, None))
            self._left[seat] = self._left.get(seat, 0) + rounds * players
        else:
            if minutes <= 0:
                raise RuleError("TOUR-17: a timed penalty needs minutes > 0", legal=(1, None))
            self._tick(now_ms)
            self._left[seat] = self._left.get(seat, 0) + minutes * 60000
        return self._left[seat]

    def _tick(self, now_ms):
        if now_ms is None:
            return  # no time given: none is counted
        if self.seen_ms is not None and now_ms > self.seen_ms:
            spent = now_ms - self.seen_ms
            for seat in sorted(self._left):
                self._left[seat] -= spent
                if self._left[seat] <= 0:
                    del self._left[seat]
        self.seen_ms = now_ms

    def hand_started(self, now_ms=None, redeal=False, seats=None):
        """Returns the sorted seats whose hand is killed in this hand. `seats`: the seats dealt in
        (default: all); a penalised seat not dealt in serves nothing in this hand."""
        if self.unit == "minutes":
            self._tick(now_ms)
        killed = []
        for seat in sorted(self._left):
            if seats is not None and seat not in seats:
                continue
            killed.append(seat)
            if self.unit == "hands" and not redeal:
                self._left[seat] -= 1
                if self._left[seat] <= 0:
                    del self._left[seat]  # this hand was the last one served
        return killed

    def left(self, seat):
        return self._left.get(seat, 0)

    def seats(self):
        return sorted(self._left)

    def drop(self, seat):
        """The seat's penalty ends unserved (its player is out); returns what was left."""
        return self._left.pop(seat, 0)

    def data(self):
        """JSON-able state (felt.recovery.restore snapshots it between hands); Penalties.load() inverts it."""
        left = {}
        for seat in self._left:
            left["%d" % seat] = self._left[seat]
        return {"unit": self.unit, "left": left, "seen_ms": self.seen_ms}

    @staticmethod
    def load(d):
        p = Penalties(d["unit"])
        for k in d["left"]:
            p._left[int(k)] = d["left"][k]
        p.seen_ms = d["seen_ms"]
        return p


# ---------------------------------------------------------------- scheduled color-up (TOUR-3, TOUR-4)

class ChipRace:
    """Result of a chip race: races (new chips raced), winners (sorted seats, one chip each), order
    [(card, seat)] best first as ranked, rescued (sorted seats given one chip under TOUR-4)."""

    def __init__(self, races, winners, order, rescued):
        self.races = races
        self.winners = winners
        self.order = order
        self.rescued = rescued


def chip_race(odd_chips, cards, old_value, new_value, stacks=None):
    """TOUR-3: odd_chips {seat: odd chips of the removed denomination left after exchanging complete
    sets}; cards {seat: [card ints]}, one card per odd chip (dealt from seat 1). The new chips raced are
    the odd value / new value rounded half up; the highest card by rank then suit (DECK-4, so plain int
    order) wins the first chip, the next highest of another player the second, at most one per player.
    TOUR-4: `stacks` {seat: whole stack value}; a player whose stack was only odd chips and who wins none
    is given one chip of the smallest denomination still used (new_value)."""
    if old_value <= 0 or new_value <= old_value:
        raise RuleError("TOUR-3: the new chip must be worth more than the removed one", legal=(old_value + 1, None))
    total = 0
    order = []
    for seat in sorted(odd_chips):
        n = odd_chips[seat]
        got = cards.get(seat, ())
        if len(got) != n:
            raise RuleError("TOUR-3: seat %d has %d odd chip(s) but %d race card(s)" % (seat, n, len(got)),
                            legal=(n, n))
        total += n * old_value
        for c in got:
            order.append((c, seat))
    order.sort(key=lambda x: -x[0])  # cards are distinct: the order is total
    races = (2 * total + new_value) // (2 * new_value)  # rounded half up
    winners = []
    for c, seat in order:
        if len(winners) >= races:
            break
        if seat not in winners:
            winners.append(seat)
    winners.sort()
    rescued = []
    if stacks:
        for seat in sorted(odd_chips):
            if seat not in winners and odd_chips[seat] and stacks.get(seat, 0) <= odd_chips[seat] * old_value:
                rescued.append(seat)
    return ChipRace(races, winners, order, rescued)


# ---------------------------------------------------------------- bookkeeping at the end of a hand

def eliminated(stacks, pending_rebuys=()):
    """TOUR-24: the sorted seats whose stack is 0 at the end of the hand and who have no pending rebuy
    (TOUR-16); their seats become empty before the next button is computed (BLIND-4)."""
    return [s for s in sorted(stacks) if stacks[s] == 0 and s not in pending_rebuys]


def rank_eliminations(start_stacks):
    """TOUR-9 (hr.simultaneous_bust = start_stack_order): players eliminated at this table in the same
    hand, {seat: stack at the start of that hand}. Returns groups of seats, best finish first; equal
    starting stacks share a group (their places are shared, reported for the TD)."""
    stacks = sorted(set(start_stacks.values()), reverse=True)
    return [tuple(s for s in sorted(start_stacks) if start_stacks[s] == v) for v in stacks]


def halt_check(players_here, fullest_table, next_bb_seat_empty, td_discretion=False):
    """TOUR-15: a table three or more players short of the fullest table halts once the next BB would
    fall on an empty seat. 6-max and turbo events (td_discretion) only get a note. Returns None or a
    Finding (ASSIST proposal "HALT"; waiving it is not a misdeal)."""
    if fullest_table - players_here < 3 or not next_bb_seat_empty:
        return None
    text = "this table has %d players, the fullest %d, and the next BB falls on an empty seat" % (
        players_here, fullest_table)
    if td_discretion:
        return Finding("halt", ("TOUR-15",), ASSIST, text, "the TD decides whether to halt", INFO)
    return Finding("halt", ("TOUR-15",), ASSIST, text, "HALT: wait for a player to be moved here", PROPOSED)
