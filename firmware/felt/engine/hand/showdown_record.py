# The showdown as a record (engine layer, pure): ShowdownRecord tracks tabled and mucked hands against
# the pots (SHOW-3, 6, 8, 10); also the nut check (SHOW-19) and show requests (SHOW-11). Imported where
# used: settling a hand needs only showdown.py.
from felt.errors import RuleError
from felt.engine.hand.showdown import show_order

FLAG_ONLY = "flag_only"  # hr.nut_check_last_to_act (SHOW-19)
REQUIRE_BET = "require_bet"

PENDING = "pending"
SHOWN = "shown"
MUCKED = "mucked"


class ShowdownRecord:
    """One showdown: tracks tabled and mucked hands against the pots (SHOW-3, 6, 8, 10).

    pots: [Pot] from pots.build_pots. live: bool per position. face_up: True when the
    hands were tabled at once under SHOW-7, so nobody may muck (SHOW-8). Values are
    whatever evaluate gives (hi, and lo or None/-1 in hi-lo games)."""

    def __init__(self, pots, live, last_aggressor=None, first=None, face_up=False, side_pots_first=True):
        self.pots = pots
        self.n = len(live)
        self.face_up = face_up
        self.order = show_order(live, last_aggressor, first, pots if side_pots_first else None)
        self.state = [None] * self.n
        for p in self.order:
            self.state[p] = PENDING
        self.hi = [None] * self.n
        self.lo = [None] * self.n

    def _check_pending(self, p, rule):
        if p < 0 or p >= self.n or self.state[p] is None:
            raise RuleError(rule, "position %s holds no hand at this showdown" % (p,), legal=tuple(self.order))
        if self.state[p] != PENDING:
            raise RuleError(rule, "position %d has already %s" % (p, self.state[p]),
                            legal=tuple(self.pending()))

    def pending(self):
        return [p for p in self.order if self.state[p] == PENDING]

    def next_to_show(self):
        """The next hand due to be tabled (SHOW-4/5/6/9), or None when no pot needs a reading."""
        for p in self.order:
            if self.state[p] == PENDING and self.must_show(p):
                return p
        return None

    def _holders(self, pot):
        return [p for p in pot.eligible if self.state[p] in (PENDING, SHOWN)]

    def must_show(self, p):
        """SHOW-3: a pending hand must be tabled to win a pot still contested by another hand;
        a hand that is the only one left in every pot it is in wins without showing (SHOW-10)."""
        if self.state[p] != PENDING:
            return False
        for pot in self.pots:
            if p in pot.eligible and len(self._holders(pot)) > 1:
                return True
        return False

    def best_shown(self, pot_index):
        """The best high value tabled so far among the pot's players, or None (SHOW-6)."""
        best = None
        for pot in self.pots:
            if pot.index == pot_index:
                for p in pot.eligible:
                    if self.state[p] == SHOWN and (best is None or self.hi[p] > best):
                        best = self.hi[p]
        return best

    def can_muck(self, p):
        return self._muck_error(p) is None

    def _muck_error(self, p):
        if 0 <= p < self.n and self.state[p] == SHOWN:
            return ("SHOW-13", "position %d's hand is tabled and read; it cannot be killed" % p)
        if p < 0 or p >= self.n or self.state[p] != PENDING:
            return ("SHOW-6", "position %s has no hand left to muck" % (p,))
        if self.face_up:
            return ("SHOW-8", "hands are tabled for an all-in: every hand in every pot must be read")
        for pot in self.pots:
            if p in pot.eligible and self._holders(pot) == [p]:
                return ("SHOW-10", "position %d holds the last hand in %s and takes it" % (p, pot.name))
        return None

    def show(self, p, hi, lo=None):
        """Table position p's hand with its evaluated value(s). Tabling out of turn is allowed
        (SHOW-4 applies only when hands are not tabled spontaneously)."""
        self._check_pending(p, "SHOW-2")
        if hi is None:
            raise RuleError("SHOW-1: a tabled hand needs its value")
        self.state[p] = SHOWN
        self.hi[p] = hi
        self.lo[p] = lo

    def muck(self, p):
        """Throw position p's hand away unseen: it gives up every claim (SHOW-6)."""
        err = self._muck_error(p)
        if err is not None:
            raise RuleError(err[0], err[1], legal=tuple(q for q in self.pending() if self.can_muck(q)))
        self.state[p] = MUCKED

    def retrieve(self, p):
        """SHOW-14: a hand thrown away is live again while still retrievable and identifiable
        (the dealer confirms that on the console; the device cannot see the muck)."""
        if p < 0 or p >= self.n or self.state[p] != MUCKED:
            raise RuleError("SHOW-14: position %s has no mucked hand to retrieve" % (p,))
        self.state[p] = PENDING

    @property
    def complete(self):
        """Every pot has either all its remaining hands tabled or a single hand left."""
        for p in self.order:
            if self.must_show(p):
                return False
        return True

    def values(self):
        """(hi, lo) lists for pots.award: tabled values; None for mucked and non-live
        positions; 0 for a hand that takes its pots without showing (SHOW-10)."""
        if not self.complete:
            raise RuleError("SHOW-3: hands still to be tabled", legal=tuple(self.pending()))
        hi = list(self.hi)
        lo = list(self.lo)
        for p in self.order:
            if self.state[p] == PENDING:
                hi[p] = 0
                lo[p] = None
        return hi, lo

    def unshown(self):
        return [p for p in self.order if self.state[p] == PENDING]


def nut_value(board, value_of, dead=()):
    """SHOW-19: the best value any two hole cards could make with `board` (board games;
    Omaha's exactly-2 rule also needs only the 2-card holdings). value_of(hole, board) -> int,
    e.g. lambda h, b: evaluate.high(h + b). Cards in `dead` (known elsewhere) are skipped.
    1,081 evaluations on a 5-card board."""
    skip = set(board)
    for c in dead:
        skip.add(c)
    unseen = [c for c in range(52) if c not in skip]
    best = None
    for i in range(len(unseen)):
        for j in range(i + 1, len(unseen)):
            v = value_of([unseen[i], unseen[j]], board)
            if best is None or v > best:
                best = v
    return best


def nut_check(position, passive, last_to_act, hi, live, nuts, rule=FLAG_ONLY):
    """SHOW-19: the river's last actor holds the exclusive nuts (value == nuts and no other
    live hand ties) and checks or just calls (`passive`). Returns None (nothing to do),
    "flag" (log "nut check seat N" for the floor) or "refuse" (hr.nut_check_last_to_act =
    require_bet: the check is refused; the player must bet or raise)."""
    if rule not in (FLAG_ONLY, REQUIRE_BET):
        raise RuleError("SHOW-19: unknown hr.nut_check_last_to_act %r" % (rule,), legal=(FLAG_ONLY, REQUIRE_BET))
    if not passive or not last_to_act or hi[position] is None or hi[position] < nuts:
        return None
    for p in range(len(hi)):
        if p != position and live[p] and hi[p] is not None and hi[p] >= nuts:
            return None
    return "flag" if rule == FLAG_ONLY else "refuse"


def show_request(rule, requester, target, in_hand, mucked, called=(), river_aggressor=None,
                 river_bet=False, winner=None):
    """SHOW-11: may `requester` see `target`'s hand? rule = hr.show_request.

    in_hand: positions dealt into the hand; mucked: positions whose hands were thrown away
    (a tabled or still-held hand is not mucked); called: positions whose hands were called
    at the showdown. Returns "yes", "no", "floor" (the floor decides) or "live" (any_caller:
    the pot winner asked, so the requested hand plays and can win)."""
    if rule == "tda2019":
        if requester not in in_hand or requester in mucked:
            return "no"  # players who mucked or were not in the hand lose any right to ask
        if river_bet and target == river_aggressor and requester != target:
            return "yes"
        return "floor"
    if rule == "club_cash":
        return "no" if target in mucked else "floor"
    if rule == "any_caller":
        if requester not in in_hand or target not in called:
            return "no"
        return "live" if requester == winner else "yes"
    raise RuleError("SHOW-11: unknown hr.show_request %r" % (rule,), legal=("tda2019", "club_cash", "any_caller"))
