# One hand's state machine (engine layer, pure): forced bets, cards from the shoe, betting
# rounds, draws, run-out and the showdown/award, for every game in games.GAMES (GAME-1..17).
# Each action has a can_X() twin and raises RuleError("RULE-ID: message", legal) before changing
# anything when illegal; done actions return an Op record. Positions 0..n-1 as in PHH.
from collections import namedtuple

from felt.errors import ConfigError, RuleError
from felt.engine import games
from felt.engine.hand import betting
from felt.engine.hand import settle
from felt.engine.hand import openers
from felt.engine.hand.intake import HandDealing
from felt.engine.hand.betting import LIMIT

# kind: "ante" "blind" "hole" "burn" "board" "discard" "fold" "check" "call" "bet" "raise"
#   "complete" "bring_in" "return" (uncalled chips back, POT-2) "show" "muck" "win" "pull_back"
# amount: chips moved from (or, for "return"/"win", back to) the stack; total: street total after
Op = namedtuple("Op", "kind position amount total cards all_in")

# What the player to act may do (BET-52: the device shows the exact call).
# call: chips a call costs (0 = check); min_to/max_to: bet/raise totals (0, 0 when no raise; in limit
#   min_to == max_to, except a TOUR-20 open-pair option where exactly these two totals are legal);
# block: (rule, message) why no raise is possible, or None; bring_in: amount due, else 0;
# can_fold: False for the bring-in card's owner (GAME-11) and after a pull-back (BET-44)
Legal = namedtuple("Legal", "position call min_to max_to can_check can_raise block bring_in can_fold")

DEAL = "deal"
BET = "bet"
SHOWDOWN = "showdown"
DONE = "done"


def _amounts(value, n, what):
    if isinstance(value, int):
        return [value] * n
    out = list(value)
    if len(out) > n:
        raise ConfigError("GAME-1: %d %s for %d players" % (len(out), what, n))
    while len(out) < n:
        out.append(0)
    for v in out:
        if not isinstance(v, int) or v < 0:
            raise ConfigError("GAME-1: %s must be whole chips >= 0, got %r" % (what, v))
    return out


class Hand(HandDealing):
    """One hand. Hand(game=GAMES["NT"], stacks=[...], blinds=[50, 100], ...): antes and blinds
    are posted at once; then the shoe deals (deal_hole/burn/deal_board/draw) and the console
    acts (fold/check_call/bet_raise_to/post_bring_in/show/muck) for the position in `actor`; the
    dealer or floor kills a hand in or out of turn with kill(p) (DEAL-36/38).

    blinds/antes: per position in PHH order (heads-up written [SB, BB], BLIND-6); antes may be
    one int. min_bet: NL/PL minimum bet (default the big blind). rules: None, a dict of hr.*
    values (plus "mode": "cash"/"tournament") or a settings.HouseRules. seats: seat number per
    position, for messages. event_heads_up: only two entrants left in the event (BET-5).
    dead_antes: every ante is dead money in the main pot (PHH ante_trimming_status = false);
    by default equal antes are layered like bets (GAME-17) and a single (big-blind) ante is dead.
    dead: dead blind money per position (plain order, never swapped heads-up), e.g. the dead small
    blind of a missed-blind make-up (BLIND-14, BLIND-25): it goes to the main pot and is no part
    of the payer's bet or call (POT-17); a short stack pays its live blind first.
    record: keep the Op log (`log`) and return an Op from each action; record=False (a replay
    that reads only the outcome) skips building them: `log` is None and actions return None.
    phh_order: preflop opener as pokerkit reads a PHH file -- of two equal largest blinds the
    later position is the "straddle" (openers.position_opener); the table leaves it False:
    GAME-3, a make-up or new player's live BB (BLIND-14/16) does not move the opener."""

    def __init__(self, game, stacks, blinds=(), antes=0, bring_in=0, small_bet=0, big_bet=0,
                 min_bet=0, unit=1, rules=None, seats=None, event_heads_up=False, dead_antes=False, dead=(),
                 record=True, phh_order=False):
        n = len(stacks)
        if isinstance(game, str):
            if game not in games.GAMES:
                raise ConfigError("GAME-1: unknown game %r" % (game,))
            game = games.GAMES[game]
        if n < 2 or n > game.max_players:
            raise ConfigError("GAME-1: %s takes 2 to %d players, not %d" % (game.name, game.max_players, n))
        for s in stacks:
            if not isinstance(s, int) or s <= 0:
                raise ConfigError("GAME-1: stacks must be whole chips > 0, got %r" % (s,))
        if unit < 1:
            raise ConfigError("BET-49: the chip unit must be at least 1")
        self.game = game
        self.n = n
        self.unit = unit
        self.seats = seats
        self.event_heads_up = event_heads_up
        self.phh_order = phh_order
        self.dead_antes = dead_antes  # PHH ante_trimming_status = false: antes all in the main pot
        self.rules = settle.house_rules(rules, game)
        blinds = _amounts(blinds, n, "blinds")
        antes = _amounts(antes, n, "antes")
        if n == 2 and self.rules.headsup_blinds == "button_is_sb":
            # pokerkit/PHH heads-up: lists are written [SB, BB] but the button (position 1)
            # posts the small blind and position 0 the big blind (BLIND-6)
            blinds = [blinds[1], blinds[0]]
            antes = [antes[1], antes[0]]
        self.nominal_blinds = blinds
        self.bring_in = bring_in
        self._configure_bets(game, blinds, small_bet, big_bet, min_bet)
        self._highest_opens = self._stud5_highest_card()  # fixed for the hand: asked once per street
        self.starting_stacks = list(stacks)
        self.stacks = list(stacks)
        self.committed = [0] * n
        self.live = [True] * n
        self.mucked = [False] * n
        self.shown = [False] * n
        self.hole = [[] for _ in range(n)]
        self.up = [[] for _ in range(n)]
        self.board = []
        self.board_street = None  # stud: the street a community card replaced (DEAL-46)
        self.burns = []
        self.discards = []
        self.seen = set()
        self.pending_hole = [0] * n
        self.pending_board = 0
        self.to_draw = [False] * n
        self.burned = False
        self.street = 0
        self.opener = None  # first to act on the current street
        self.phase = DEAL
        self.runout = False
        self.results = None  # [pots.Award] once the hand is over
        self.final_pots = None  # the pots as settled (pots() then reads these, no rebuild)
        self.reasons = None  # one text per award (showdown.awards_text)
        self.log = [] if record else None
        self.bound = [False] * n  # BET-44: pulled back bet chips, may not fold this street
        self.round = betting.Round(n)
        self.round.event_heads_up = bool(event_heads_up)
        self._post_forced(antes, blinds)
        self._post_dead(_amounts(dead, n, "dead money"))
        self._start_street(0)

    # ---- configuration ----------------------------------------------------------------

    def _configure_bets(self, game, blinds, small_bet, big_bet, min_bet):
        self.structure = game.structure
        if not isinstance(self.bring_in, int) or self.bring_in < 0:
            raise ConfigError("GAME-11: the bring-in must be whole chips >= 0, got %r" % (self.bring_in,))
        if game.forced == "bring_in":
            if max(blinds) > 0:
                raise ConfigError("GAME-10: %s uses antes and a bring-in, not blinds" % game.name)
            if self.bring_in <= 0 and not self._stud5_highest_card():
                raise ConfigError("GAME-11: %s needs a bring-in" % game.name)
            if small_bet <= 0:
                raise ConfigError("BET-1: %s needs a small bet" % game.name)
            if self.bring_in >= small_bet:
                raise ConfigError("GAME-11: the bring-in must be less than the small bet")
        elif max(blinds) <= 0:
            raise ConfigError("BLIND-12: a blind game needs a big blind")
        if self.structure == LIMIT:
            if small_bet <= 0:
                raise ConfigError("BET-1: fixed limit needs the small bet")
            self.small_bet = small_bet
            self.big_bet = big_bet if big_bet > 0 else 2 * small_bet
            raises = game.raises  # the game's own cap, unless the table set hr.limit_raises_per_round
            for k, v in self.rules.changed():
                if k == "hr.limit_raises_per_round":
                    raises = v
            self.cap = 1 + raises
        else:
            bb = min_bet or small_bet
            if not bb:
                bb = max(blinds[:2]) if self.n > 2 else max(blinds)
                if bb <= 0:
                    bb = max(blinds)
            self.small_bet = self.big_bet = bb
            self.cap = None

    def _stud5_highest_card(self):
        # GAME-14 home variant: the highest upcard opens and may check; no bring-in
        return self.game.family == "stud" and len(self.game.streets) == 4 and \
            self.rules.stud5_first_action == "highest_card"

    def who(self, p):
        """'seat 4' (when seats are known) or 'position 3' -- for messages."""
        if self.seats is not None:
            return "seat %d" % self.seats[p]
        return "position %d" % p

    def _note(self, kind, p, amount=0, total=0, cards=(), all_in=False):
        if self.log is None:
            return None  # record=False
        op = Op(kind, p, amount, total, tuple(cards), all_in)
        self.log.append(op)
        return op

    def _post_forced(self, antes, blinds):
        # GAME-17: antes first, dead; BLIND-8: a short stack posts what it has and is all-in.
        # Equal antes are layered like bets (a short ante wins only what it matched, GAME-17);
        # a single table ante (the big-blind ante) is dead money for whoever wins the main pot.
        self.antes_posted = [0] * self.n
        self.table_ante = bool(self.dead_antes) or antes.count(antes[0]) != self.n  # not all equal
        for p in range(self.n if max(antes) > 0 else 0):
            a = antes[p] if antes[p] < self.stacks[p] else self.stacks[p]
            if a:
                self.stacks[p] -= a
                self.committed[p] += a
                self.antes_posted[p] = a
                self._note("ante", p, a, 0, (), self.stacks[p] == 0)
        rnd = self.round
        top_posted = 0
        for p in range(self.n):
            b = blinds[p] if blinds[p] < self.stacks[p] else self.stacks[p]
            if b:
                self.stacks[p] -= b
                self.committed[p] += b
                rnd.bets[p] = b
                if b > top_posted:
                    top_posted = b
                self._note("blind", p, b, b, (), self.stacks[p] == 0)
        high = max(blinds)
        if self.n == 2 or high <= top_posted:
            # BET-23 heads-up exception: the other player matches just the all-in blind
            high = top_posted
        if self.structure == LIMIT:
            count = 1 if high > 0 else 0  # BET-4: the posted big blind counts as the bet
            rnd.reset(LIMIT, self.small_bet, high, self.cap, count)
        else:
            inc = self.small_bet
            if high > inc:
                inc = high  # BLIND-20: a straddle works as the big blind of the round
            rnd.reset(self.structure, inc, high, None, 0)
        rnd.phantom = high - top_posted  # BET-25

    def _post_dead(self, dead):
        # BLIND-14/POT-17: after the live blinds (a short stack keeps its live blind); not in
        # `committed`, so it neither counts toward a call nor builds a side pot of its own
        self.dead_posted = [0] * self.n
        self.dead_money = 0
        for p in range(self.n):
            d = dead[p] if dead[p] < self.stacks[p] else self.stacks[p]
            if d:
                self.stacks[p] -= d
                self.dead_posted[p] = d
                self.dead_money += d

    # ---- queries ------------------------------------------------------------------------

    @property
    def actor(self):
        """Position to act in the betting, or None."""
        if self.phase != BET:
            return None
        return self.round.cur

    @property
    def finished(self):
        return self.phase == DONE

    @property
    def bets(self):
        return self.round.bets

    def live_count(self):
        return self.live.count(True)  # live holds only True/False; one C call per action

    def pot_total(self):
        """Chips in the middle and in front of players (what a pot count shows, BET-26)."""
        return self.dead_money + sum(self.committed)

    def collected(self):
        return self.pot_total() - self.round.pot_in_front()

    def pots(self):
        """Main and side pots as they stand (pots.build_pots)."""
        if self.final_pots is not None:
            return list(self.final_pots)  # settled: nothing can change them any more
        return settle.current_pots(self)

    def finishing_stacks(self):
        return list(self.stacks)

    @property
    def all_in(self):
        """Per position: live with no chips behind (BET-52: the seat's all-in light, off once
        the pots are awarded)."""
        done = self.phase == DONE
        return [not done and self.live[p] and self.stacks[p] == 0 for p in range(self.n)]

    def face_up_now(self):
        """SHOW-7: all hands must be tabled now (then nobody may muck, SHOW-8)."""
        return settle.face_up_now(self)

    def show_order(self):
        """Positions that still have to table, in SHOW-4..6 order (showdown.show_order)."""
        return settle.show_order(self)

    def upcards(self, p):
        return [self.hole[p][i] for i in range(len(self.hole[p])) if self.up[p][i]]

    def legal(self):
        """Legal record for the player to act, or None."""
        p = self.actor
        if p is None:
            return None
        rnd = self.round
        stack = self.stacks[p]
        if rnd.bring_in_due:
            # the bring-in player may complete instead of posting the bring-in (GAME-11)
            lo = hi = 0
            if rnd.raise_block(p, stack, self.live, self.stacks, self.rules) is None:
                lo, hi = rnd.raise_range(p, stack, self.collected())
            return Legal(p, 0, lo, hi, False, lo > 0, None, min(self.bring_in, stack), p != self.opener)
        call = rnd.to_call(p, stack)
        block = rnd.raise_block(p, stack, self.live, self.stacks, self.rules)
        if block is not None:
            return Legal(p, call, 0, 0, call == 0, False, block, 0, not self.bound[p])
        lo, hi = rnd.raise_range(p, stack, self.collected())
        return Legal(p, call, lo, hi, call == 0, True, None, 0, not self.bound[p])

    # ---- betting ------------------------------------------------------------------------

    def _begin_betting(self):
        rnd = self.round
        s = self.street
        st = self.game.streets[s]
        if s > 0:
            inc = self.big_bet if st.big else self.small_bet
            rnd.reset(self.structure, inc, 0, self.cap, 0)
            if s == 1 and self._open_pair_option():
                rnd.alt_inc = self.big_bet
        self.phase = BET
        if self.runout:
            self._end_street()
            return
        ups = [self.upcards(p) for p in range(self.n)] if self.game.family == "stud" else None
        if s == 0 and self._highest_opens:
            from felt.engine.hand import stud_openers

            first = stud_openers.highest_upcard_opener(ups, self.live)
        else:
            first = openers.opener(st, s, self.nominal_blinds, ups, self.live, self.phh_order)
        if s == 0 and self.game.forced == "bring_in" and not self._highest_opens:
            rnd.completion = True
            rnd.bring_in_due = True
        self.opener = first
        rnd.begin(first, self.live, self.stacks)
        if rnd.closed():
            self._end_street()

    def _open_pair_option(self):
        # TOUR-20 / hr.stud_open_pair_double = on (cash only: tournament stud never doubles): in limit
        # 7-card stud a pair showing on 4th street lets any player bet the small or the big bet
        if self.structure != LIMIT or self.game.family != "stud" or len(self.game.streets) != 5:
            return False
        if self.rules.stud_open_pair_double != "on" or self.rules.mode != "cash":
            return False
        for p in range(self.n):
            if self.live[p]:
                ups = self.upcards(p)
                if len(ups) == 2 and ups[0] >= 0 and ups[0] >> 2 == ups[1] >> 2:
                    return True
        return False

    def _check_turn(self, p):
        if self.phase == BET and p == self.round.cur:
            return
        if self.phase != BET:
            if self.phase == DONE:
                raise RuleError("GAME-6: the hand is over")
            raise RuleError("GAME-2: no betting now: cards are due (%s)" % self.phase)
        a = self.round.cur
        if p != a:
            raise RuleError("BET-38: %s acted out of turn; %s is to act" % (self.who(p), self.who(a)), legal=a)

    def out_of_turn(self, p, action, amount=0, dealer_prompted=False):
        """BET-39..42: an action entered for p, who is not the actor: a proposal (out_of_turn.py);
        nothing changes here (BET-38). out_of_turn.py is imported on first use (rare)."""
        from felt.engine.hand import out_of_turn
        return out_of_turn.out_of_turn(self, p, action, amount, dealer_prompted)

    def check_pull_back(self, p):
        self._check_turn(p)
        if not self.round.bets[p] or not self.round.to_call(p, self.stacks[p]):
            raise RuleError("BET-44: %s has no earlier bet facing a raise" % self.who(p))

    def can_pull_back(self, p):
        return self._can(self.check_pull_back, p)

    def pull_back(self, p):
        """BET-44: p clearly pulled back their earlier bet chips facing a raise -- p must now
        call or raise, not fold (the console records it; no chips move)."""
        self.check_pull_back(p)
        self.bound[p] = True
        return self._note("pull_back", p)

    def check_fold(self, p):
        self._check_turn(p)
        if self.bound[p]:
            raise RuleError("BET-44: %s pulled back earlier bet chips and must call or raise" % self.who(p))
        rnd = self.round
        if rnd.bring_in_due and p == self.opener:
            # the owner of the bring-in card may not fold; if that player is all-in for the
            # ante, the players after may bring in or fold (GAME-11)
            raise RuleError("GAME-11: %s must post the bring-in or complete" % self.who(p))

    def can_fold(self, p):
        try:  # no bound method or *args tuple: a can_X query allocates nothing
            self.check_fold(p)
        except RuleError:
            return False
        return True

    def fold(self, p):
        """BET-43: a fold is binding even when a check was possible."""
        rnd = self.round
        if self.phase != BET or p != rnd.cur or self.bound[p] or rnd.bring_in_due:
            self.check_fold(p)  # the common legal fold skips the full check
        self.live[p] = False
        rnd.fold(p)
        op = self._note("fold", p) if self.log is not None else None
        if rnd.cur is None or self.live.count(True) <= 1:
            self._end_street()
        return op

    def check_check_call(self, p):
        self._check_turn(p)
        if self.round.bring_in_due:
            raise RuleError("GAME-11: %s must post the bring-in or complete" % self.who(p))

    def can_check_call(self, p):
        try:
            self.check_check_call(p)
        except RuleError:
            return False
        return True

    def check_call(self, p):
        """Check, or call the exact amount (BET-47), all-in for less when short."""
        rnd = self.round
        if self.phase != BET or p != rnd.cur or rnd.bring_in_due:
            self.check_check_call(p)  # raises the rule that applies
        stack = self.stacks[p]
        amount = rnd.high - rnd.bets[p]  # Round.to_call, inline
        if amount < 0:
            amount = 0
        elif amount > stack:
            amount = stack
        self.stacks[p] = stack - amount
        self.committed[p] += amount
        rnd.call(p, amount)
        op = None
        if self.log is not None:
            op = self._note("call" if amount else "check", p, amount, rnd.bets[p], (), stack == amount)
        if rnd.cur is None or self.live.count(True) <= 1:
            self._end_street()
        return op

    def check_check(self, p):
        """GAME-16: a check only when nothing is to be called (the BB option included)."""
        self.check_check_call(p)
        owe = self.round.to_call(p, self.stacks[p])
        if owe:
            raise RuleError("GAME-16: %s faces %d to call and cannot check" % (self.who(p), owe), legal=owe)

    def can_check(self, p):
        try:
            self.check_check(p)
        except RuleError:
            return False
        return True

    def check(self, p):
        self.check_check(p)
        return self.check_call(p)

    def check_post_bring_in(self, p):
        self._check_turn(p)
        if not self.round.bring_in_due:
            raise RuleError("GAME-11: no bring-in is due")

    def can_post_bring_in(self, p):
        try:
            self.check_post_bring_in(p)
        except RuleError:
            return False
        return True

    def post_bring_in(self, p):
        self.check_post_bring_in(p)
        amount = min(self.bring_in, self.stacks[p])
        self.stacks[p] -= amount
        self.committed[p] += amount
        self.round.post_bring_in(p, amount)
        op = self._note("bring_in", p, amount, amount, (), self.stacks[p] == 0) if self.log is not None else None
        if self.round.cur is None or self.live.count(True) <= 1:
            self._end_street()
        return op

    def check_bet_raise_to(self, p, total):
        """Validate a complete/bet/raise to `total` (the new street total, BET-8)."""
        self._check_turn(p)
        if not isinstance(total, int):
            raise RuleError("BET-49: amounts are whole chips, got %r" % (total,))
        rnd = self.round
        stack = self.stacks[p]
        allin = rnd.bets[p] + stack
        block = rnd.raise_block(p, stack, self.live, self.stacks, self.rules)
        if block is not None:
            raise RuleError(block[0], "%s: %s" % (self.who(p), block[1]))
        rnd.bounds(p, stack, self.collected())
        lo = rnd.lo_to
        hi = rnd.hi_to
        word = "bet" if rnd.high == 0 or rnd.completion else "raise"
        if total > allin:
            raise RuleError("BET-49: %s has only %d; %s to %d is impossible" % (self.who(p), allin, word, total),
                            legal=(lo, hi))
        if total > hi:  # each text whole, the rule ID leading it (RuleError)
            if self.structure == LIMIT:
                text = "BET-3: %s to %d is above the maximum %s to %d"
            else:
                text = "BET-24: %s to %d is above the maximum %s to %d"
            raise RuleError(text % (word, total, word, hi), legal=(lo, hi))
        if total == allin:
            if total <= rnd.high:
                raise RuleError("GAME-16: all-in for %d does not raise the %d bet; call instead" %
                                (total, rnd.high), legal=(lo, hi))
            return  # BET-11: an all-in of any size stands
        if self.structure == LIMIT and lo < total < hi:
            raise RuleError("BET-3: %s to %d: the options are %d or %d (TOUR-20 open pair)" % (word, total, lo, hi),
                            legal=(lo, hi))
        if total < lo:
            if self.structure == LIMIT:
                text = "BET-3: %s to %d is below the minimum %s to %d"
            elif rnd.high == 0 or rnd.completion:
                text = "BET-6: %s to %d is below the minimum %s to %d"
            else:
                text = "BET-7: %s to %d is below the minimum %s to %d"
            raise RuleError(text % (word, total, word, lo), legal=(lo, hi))
        if total % self.unit:
            raise RuleError("BET-49: %d is not a multiple of the %d chip" % (total, self.unit), legal=(lo, hi))

    def can_bet_raise_to(self, p, total):
        try:
            self.check_bet_raise_to(p, total)
        except RuleError:
            return False
        return True

    def bet_raise_to(self, p, total):
        """Complete, bet or raise to `total` (PHH "cbr")."""
        self.check_bet_raise_to(p, total)
        rnd = self.round
        kind = "complete" if rnd.completion and self.game.forced == "bring_in" else (
            "bet" if rnd.high == 0 else "raise")
        full = rnd.is_full(total, self.rules)
        amount = total - rnd.bets[p]
        self.stacks[p] -= amount
        self.committed[p] += amount
        rnd.raise_to(p, total, full, self.live, self.stacks, self.live_count())
        op = self._note(kind, p, amount, total, (), self.stacks[p] == 0) if self.log is not None else None
        if self.round.cur is None or self.live.count(True) <= 1:
            self._end_street()
        return op

    def _end_street(self):
        rnd = self.round
        back = settle.uncalled(rnd.bets)
        if back is not None:
            p, chips = back
            self.stacks[p] += chips
            self.committed[p] -= chips
            rnd.bets[p] -= chips
            self._note("return", p, chips, rnd.bets[p])
        rnd.clear_bets()
        rnd.phantom = 0
        if True in self.bound:
            for p in range(self.n):
                self.bound[p] = False
        if self.live.count(True) <= 1:
            settle.settle(self)
            return
        if not self.runout:
            with_chips = 0
            for p in range(self.n):
                if self.live[p] and self.stacks[p] > 0:
                    with_chips += 1
                    if with_chips > 1:
                        break  # two can still bet: no run-out
            if with_chips <= 1:
                later_draw = False
                for st in self.game.streets[self.street + 1:]:
                    later_draw = later_draw or st.draw
                if not later_draw:
                    self.runout = True  # GAME-7: no more betting; deal the rest
        if self.street + 1 >= len(self.game.streets):
            self.phase = SHOWDOWN
            settle.maybe_settle(self)
        else:
            self._start_street(self.street + 1)

    # ---- a hand killed by the dealer or the floor (DEAL-36, DEAL-38) ----------------------------

    def check_kill(self, p):
        """Whether p's hand may be killed now; RuleError naming the rule if not."""
        if not isinstance(p, int) or p < 0 or p >= self.n:
            raise RuleError("DEAL-38: no position %r to kill" % (p,), legal=(0, self.n - 1))
        if self.phase == DONE:
            raise RuleError("GAME-6: the hand is over")
        if self.shown[p]:
            raise RuleError("SHOW-13: %s's hand is tabled; it cannot be killed" % self.who(p))
        if not self.live[p] or self.mucked[p]:
            raise RuleError("DEAL-38: %s's hand is dead already" % self.who(p))
        left = 0
        for q in range(self.n):
            if self.live[q] and not self.mucked[q]:
                left += 1
        if left <= 1:
            raise RuleError("GAME-6: %s holds the last live hand; it wins the pot" % self.who(p))
        if self.phase == BET and self.round.bring_in_due and p == self.opener:
            # GAME-11: the bring-in card's owner posts the bring-in before anything else
            raise RuleError("GAME-11: %s must post the bring-in before the hand can be killed" % self.who(p))

    def can_kill(self, p):
        try:
            self.check_kill(p)
        except RuleError:
            return False
        return True

    def kill(self, p):
        """The dealer or the floor kills p's hand now, in or out of turn (DEAL-36 a hand mucked by
        mistake, DEAL-38 a dead hand). DEAL-36: a bet or raise of p's that nobody has yet called
        is returned at once (only the uncalled part; a called bet and posted blinds stay in the
        pot). p gets no more turns; the others act as if p had folded (BET-43), the street closes
        if everyone left has acted and matched (GAME-5), and with one live hand left the hand
        ends and it wins (GAME-6), also before the betting (POT-2: the part of a dead blind that
        nobody matched goes back). A killed all-in hand is out of the showdown. Returns the
        "kill" Op (amount: chips returned)."""
        self.check_kill(p)
        rnd = self.round
        back = 0
        if self.phase == BET and rnd.aggressor == p:
            top = 0
            for q in range(self.n):
                if q != p and rnd.bets[q] > top:
                    top = rnd.bets[q]
            if rnd.bets[p] > top:
                back = rnd.bets[p] - top
                self.stacks[p] += back
                self.committed[p] -= back
                rnd.unraise(p, top)
        self.live[p] = False
        self.bound[p] = False
        self.pending_hole[p] = 0
        self.to_draw[p] = False
        op = self._note("kill", p, back, rnd.bets[p])
        if self.phase == BET:
            rnd.kill(p, self.live, self.stacks, back > 0)
            if rnd.cur is None or self.live_count() <= 1:
                self._end_street()
        elif self.phase == SHOWDOWN:
            settle.maybe_settle(self)  # the showdown was waiting only for p
        elif self.live_count() <= 1:
            # GAME-6 before the betting (a BLIND-23 seat killed at the deal): the street ends as
            # after a fold, so the blind nobody matched goes back (POT-2, POT-17), as 4-handed
            self._end_street()
        else:
            self._dealing_done()  # the cards still due were p's: the betting can begin
        return op

    # ---- showdown -----------------------------------------------------------------------

    def check_show(self, p, cards=None):
        return settle.check_show(self, p, cards)

    def can_show(self, p, cards=None):
        return self._can(self.check_show, p, cards)

    def show(self, p, cards=None):
        """p tables the hand (cards reveal any the shoe recorded as unknown)."""
        return settle.show(self, p, cards)

    def check_muck(self, p):
        return settle.check_muck(self, p)

    def can_muck(self, p):
        return self._can(self.check_muck, p)

    def muck(self, p):
        return settle.muck(self, p)
