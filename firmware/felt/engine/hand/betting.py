# Street betting arithmetic (engine layer, pure): one betting round's state and the legal range
# of every action -- minimum raise (BET-6/7/20), limit sizes and caps (BET-2..5), pot-limit maximum
# (BET-24/25), short all-ins and reopening (BET-11, BET-18..23), round completion (GAME-5).
# The Hand owns stacks and live flags and passes them in; nothing here allocates per action.

# legal-range failure reasons are returned as (rule, message) so the Hand can raise RuleError
# before touching any state.

from felt.compat import const

LIMIT = "limit"  # Game.structure values (no-limit is the one left: "no_limit")
_POT_LIMIT = const("pot_limit")


class Round:
    """One street's betting state, positions 0..n-1.

    bets[p]: chips p committed on this street (live blinds included, antes never: GAME-17).
    high: the amount to match. It can exceed max(bets) preflop when a blind is all-in for less
      than its size: callers still owe the full blind (BET-23) and pot-limit counts the full
      blind (BET-25); `phantom` holds that missing part for the pot-limit pot.
    inc: the current full-raise size (BET-7; in limit the street's bet, BET-2).
    level: limit only -- the last full bet level; short all-ins below the BET-21 threshold
      leave it alone, so the next raise goes to level + inc (BET-22).
    count: limit only -- bets and raises made (the posted BB counts as the bet, BET-4).
    """

    def __init__(self, n):
        self.n = n
        self._zeros = [0] * n  # copied over the per-position lists at each street (slice stores,
        self._nos = [False] * n  # one C call each instead of a Python loop)
        self.bets = [0] * n
        self.needs = [False] * n  # still has to act before the street can close (GAME-5)
        self.acted = [False] * n  # acted voluntarily on this street (posting is not acting)
        self.last = [0] * n  # bets[p] right after p's last action (BET-18 "L")
        self.seen = [0] * n  # limit: full-raise serial number at p's last action (BET-22)
        self.event_heads_up = False  # BET-5: only two entrants are left in the event
        self.lo_to = self.hi_to = 0  # last bounds() result
        self.cur = None  # the position to act (actor()), kept up to date by every change below
        self.reset(LIMIT, 0, 0, None, 0)

    def reset(self, structure, inc, high, cap, count):
        self.structure = structure
        self.inc = inc
        self.high = high
        self.level = high
        self.cap = cap  # limit: most bets+raises allowed, None = no cap
        self.count = count
        self.full_serial = 0
        self.phantom = 0
        self.completion = False  # facing a stud bring-in: a raise "completes" to the bet (GAME-11)
        self.bring_in_due = False  # the actor must post the bring-in or complete (GAME-11)
        self.capped_multiway = False  # BET-5: the cap was reached with three or more live hands
        self.alt_inc = 0  # limit: a second legal increment (stud open pair on 4th street, TOUR-20), 0 = none
        self.cursor = 0
        self.aggressor = None  # last to bet or raise on this street (SHOW-4)
        self.prior = None  # the street's state before the aggressor's bet/raise (raise_to)
        self.cur = None
        self.needs[:] = self._nos
        self.acted[:] = self._nos
        self.last[:] = self._zeros
        self.seen[:] = self._zeros

    def clear_bets(self):
        self.bets[:] = self._zeros

    # ---- whose turn ---------------------------------------------------------------------

    def begin(self, opener, live, stacks):
        """Open the street: everyone live with chips who can still lose something must act,
        starting at `opener`. If only one such player is left and they already match `high`,
        the street closes at once (GAME-5 convention, GAME-7)."""
        n = self.n
        bets = self.bets
        needs = self.needs
        top = second = 0
        for p in range(n):
            if live[p]:
                t = bets[p] + stacks[p]
                if t > top:
                    top, second = t, top
                elif t > second:
                    second = t
        count = 0
        only = -1
        for p in range(n):
            # pokerkit's "effective stack" min(stack, cover): a player nobody can still bet
            # against does not act
            s = stacks[p]
            if not live[p] or s <= 0:
                needs[p] = False
                continue
            t = bets[p] + s
            need = (second if t == top else top) - bets[p] > 0
            needs[p] = need
            if need:
                count += 1
                only = p
        if count == 1 and bets[only] >= self.high:
            needs[only] = False
        self.cursor = opener % n if n else 0
        self._advance()

    def _advance(self):
        # the first position from the cursor on that still needs to act -> self.cur (None: the
        # street is closed); run once per change, so a turn check is one attribute read
        needs = self.needs
        p = self.cursor
        if needs[p]:  # the common case: the next player in turn
            self.cur = p
            return
        n = self.n
        for _ in range(n):
            if needs[p]:
                self.cur = p
                return
            p += 1
            if p == n:
                p = 0
        self.cur = None

    def actor(self):
        """Position to act, or None when the street is closed."""
        return self.cur

    def closed(self):
        return self.cur is None

    # ---- legal ranges -------------------------------------------------------------------

    def to_call(self, p, stack):
        """Chips p must add to call (capped by the stack: an all-in call)."""
        c = self.high - self.bets[p]
        if c < 0:
            c = 0
        return stack if c > stack else c

    def raise_block(self, p, stack, live, stacks, rules):
        """Why p may not bet or raise now, as (rule, message), or None when p may."""
        owe = self.high - self.bets[p]
        if stack <= owe:
            return ("GAME-16", "a call puts this player all-in; there is nothing left to raise with")
        others = False
        for q in range(self.n):
            # a raise needs someone who could put in more than the current bet (pokerkit too)
            if q != p and live[q] and stacks[q] > 0 and self.bets[q] + stacks[q] > self.high:
                others = True
                break
        if not others:
            return ("GAME-7", "no other player can match a raise; only a call or fold is possible")
        if self.acted[p]:
            if self.structure == LIMIT:
                if self.seen[p] == self.full_serial:
                    return ("BET-22", "no full bet or raise since this player acted; call or fold")
            else:
                faced = self.high - self.last[p]
                need = self.inc
                if rules.nl_short_allin_reopen == "half_raise":
                    faced *= 2
                if faced < need:
                    return ("BET-18", "a short all-in does not reopen the betting; call or fold")
        if self.structure == LIMIT and self.cap is not None and self.count >= self.cap:
            if not self._uncapped(live, rules):
                return ("BET-4", "the betting is capped at %d bets; call or fold" % self.cap)
        return None

    def _uncapped(self, live, rules):
        # BET-5: heads-up raises are unlimited (cash: only if heads-up before the cap was hit;
        # tournament: only once two entrants are left in the event)
        hands = 0
        for q in range(self.n):
            if live[q]:
                hands += 1
        if hands != 2:
            return False
        if rules.limit_headsup_uncapped == "cash_rule":
            return not self.capped_multiway
        return self.event_heads_up

    def min_raise_to(self):
        """The smallest full bet/raise total (ignoring the player's stack)."""
        if self.structure == LIMIT:
            to = self.level + self.inc
            while to <= self.high:
                to += self.inc
            return to
        if self.completion:
            return self.inc
        return self.high + self.inc

    def raise_range(self, p, stack, pot):
        """(min_to, max_to) for a p who may raise; an all-in below the minimum is always legal
        (BET-11), so min_to drops to the all-in total when the stack is short. pot: chips
        collected from earlier streets and antes (not counting this street's bets)."""
        self.bounds(p, stack, pot)
        return self.lo_to, self.hi_to

    def bounds(self, p, stack, pot):
        """raise_range() without building a tuple: sets self.lo_to and self.hi_to (the action
        check runs on every console entry and must not allocate)."""
        allin = self.bets[p] + stack
        lo = self.min_raise_to()
        if self.structure == LIMIT:
            hi = lo
            if self.alt_inc > self.inc:
                # hr.stud_open_pair_double = on: the small or the big increment, nothing between
                hi = lo - self.inc + self.alt_inc
        elif self.structure == _POT_LIMIT:
            # BET-24: high + P + C; P counts everything in the pot and in front of players,
            # and a short blind as if posted in full (BET-25)
            hi = self.high + pot + self.pot_in_front() + self.phantom + (self.high - self.bets[p])
            if hi < lo:
                hi = lo
        else:
            hi = allin
        if hi > allin:
            hi = allin
        if lo > allin:
            lo = allin
        self.lo_to = lo
        self.hi_to = hi

    def pot_in_front(self):
        return sum(self.bets)  # one builtin call, no allocation

    # ---- applying (the Hand has validated) ------------------------------------------------

    def _acted(self, p):
        self.needs[p] = False
        self.acted[p] = True
        self.last[p] = self.bets[p]
        self.seen[p] = self.full_serial
        self.cursor = p + 1 if p + 1 < self.n else 0

    def call(self, p, amount):
        # _acted(p) written out: the most common betting action
        bets = self.bets
        bets[p] += amount
        self.needs[p] = False
        self.acted[p] = True
        self.last[p] = bets[p]
        self.seen[p] = self.full_serial
        self._pass(p)

    def fold(self, p):
        self.needs[p] = False
        self._pass(p)

    def _pass(self, p):
        # the turn leaves p: the next seat if it still has to act, else _advance() finds who does
        p = p + 1 if p + 1 < self.n else 0
        self.cursor = p
        if self.needs[p]:
            self.cur = p
        else:
            self._advance()

    def post_bring_in(self, p, amount):
        self.bets[p] += amount
        if amount > self.high:
            self.high = amount
        self.bring_in_due = False
        self._acted(p)
        self._advance()

    def is_full(self, total, rules):
        """Whether a bet/raise to `total` is a full one (reopens, sets inc/level)."""
        if self.structure == LIMIT:
            if total >= self.min_raise_to():
                return True
            # BET-21: an all-in of at least half (or more than half) the increment counts
            twice = 2 * (total - self.high)
            if rules.limit_short_allin_reopen == "at_least_half":
                return twice >= self.inc
            return twice > self.inc
        if self.completion:
            return total >= self.inc
        return total - self.high >= self.inc

    def raise_to(self, p, total, full, live, stacks, live_count):
        """Apply a bet/raise/completion by p to `total`; `full` from is_full()."""
        # what the street was before this bet/raise: a kill of p before anyone calls it takes
        # the bet back (DEAL-36) and the street returns to this state (Round.unraise)
        self.prior = (self.high, self.inc, self.level, self.count, self.full_serial, self.completion,
                      self.alt_inc, self.capped_multiway, self.aggressor)
        if full:
            if self.structure == LIMIT:
                if self.alt_inc and total - self.level >= self.alt_inc:
                    # the big bet was chosen: every later raise is a big one (TOUR-20 option)
                    self.inc = self.alt_inc
                    self.alt_inc = 0
                self.level = total
                self.count += 1
                if self.cap is not None and self.count >= self.cap and live_count > 2:
                    self.capped_multiway = True
            else:
                by = total - (0 if self.completion else self.high)
                if by > self.inc:
                    self.inc = by
            self.full_serial += 1
            self.completion = False
        if total > self.high:
            self.high = total
        self.bring_in_due = False
        self.bets[p] = total
        self.aggressor = p
        self._acted(p)
        needs = self.needs
        for q in range(self.n):
            if q != p and live[q] and stacks[q] > 0:
                needs[q] = True
        self._advance()

    # ---- a hand killed out of turn (DEAL-36; Hand.kill) -----------------------------------

    def unraise(self, p, top):
        """p's bet or raise, which nobody called, is taken back down to `top` (the most any other
        player has in front, DEAL-36). Nobody called it, so the street is as before it; a short
        all-in call for less than it (top above the earlier high) leaves a bet of `top` standing."""
        high, inc, level, count, serial, completion, alt_inc, capped, aggressor = self.prior
        self.bets[p] = top
        if top > high:
            self.high = top  # partly called: the called part stays a bet of p's (sizes unchanged)
            return
        self.high = high
        self.inc = inc
        self.level = level
        self.count = count
        self.full_serial = serial
        self.completion = completion
        self.alt_inc = alt_inc
        self.capped_multiway = capped
        self.aggressor = aggressor
        self.prior = None

    def kill(self, p, live, stacks, returned):
        """p's hand is dead now (live[p] is False already): p no longer acts, as after a fold (BET-43,
        so a PHH fold at p's turn plays the same); after a returned bet (DEAL-36) whoever had already
        matched the restored bet need not act again. The turn stays with the actor, or passes on
        from p when p was it."""
        needs = self.needs
        needs[p] = False
        if returned:
            bets = self.bets
            for q in range(self.n):
                if needs[q] and self.acted[q] and bets[q] >= self.high:
                    needs[q] = False
        if self.cur == p or self.cur is None:
            self._pass(p)
        else:
            self.cursor = self.cur
            self._advance()

