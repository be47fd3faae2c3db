# The table across hands (engine layer, pure): button, blinds, who is dealt in, missed blinds, new and
# returning players, heads-up, straddle (RULES.md BLIND-1..26, DEAL-5, TOUR-12, CASH-14). The previous
# hand's button/blind seats and every seat's status go in, the next hand's record (and the seat
# records to pass on to the hand after it) come out. Seats are 1..N.
from felt.engine.house import rules as settings
from felt.errors import ConfigError, RuleError

# Seat statuses.
EMPTY = "empty"
ACTIVE = "active"  # playing: dealt in every hand
OUT = "out"  # sitting out, keeps the seat, collects missed-blind marks (CASH-14, BLIND-13)
BACK = "back"  # was out, asks to return: posts the make-up (post=True) or waits for the BB
NEW = "new"  # just sat down: posts one BB (post=True) or waits for the BB (BLIND-16)
ABSENT = "absent"  # tournament: away or penalised, still dealt in and paying (BLIND-23)
STATUSES = (EMPTY, ACTIVE, OUT, BACK, NEW, ABSENT)

# Post kinds.
SB = "sb"
BB = "bb"
STRADDLE = "straddle"
POST_BB = "post_bb"  # a BB-sized live post by a new or returning player (BLIND-11, 14, 16)
DEAD_SB = "dead_sb"  # the dead part of a missed-blind make-up (BLIND-14, POT-17)
DEAD = "dead"  # other dead money: blinds forfeited as a penalty (BLIND-25)
ANTE = "ante"
_KIND_ORDER = (SB, BB, STRADDLE, POST_BB, DEAD_SB, DEAD, ANTE)


class Seat:
    """One seat between hands. missed_sb/missed_bb: BLIND-13 marks. post: for NEW and BACK,
    True = post now to be dealt in, False = wait for the BB (BLIND-15). straddle: this seat
    asks to straddle the coming hand (BLIND-20). dead_owed: dead money the floor entered
    (BLIND-25), posted when the seat is next dealt in."""

    def __init__(self, status=EMPTY, post=False, missed_sb=False, missed_bb=False, straddle=False, dead_owed=0):
        if status not in STATUSES:
            raise ConfigError("seat status %r is not one of %s" % (status, ", ".join(STATUSES)))
        self.status = status
        self.post = post
        self.missed_sb = missed_sb
        self.missed_bb = missed_bb
        self.straddle = straddle
        self.dead_owed = dead_owed

    def copy(self, **changes):
        s = Seat(self.status, self.post, self.missed_sb, self.missed_bb, self.straddle, self.dead_owed)
        for key in changes:
            setattr(s, key, changes[key])
        return s

    @property
    def owes(self):
        return self.missed_sb or self.missed_bb

    def __eq__(self, other):
        return isinstance(other, Seat) and self._key() == other._key()

    def __ne__(self, other):
        return not self.__eq__(other)

    def _key(self):
        return (self.status, self.post, self.missed_sb, self.missed_bb, self.straddle, self.dead_owed)

    def __repr__(self):
        return "Seat(%r, post=%r, missed_sb=%r, missed_bb=%r)" % (self.status, self.post, self.missed_sb, self.missed_bb)


def table_of(statuses):
    """Seat records from a list of statuses (seat 1 first), e.g. ["active", "empty", ...]."""
    return [Seat(s) for s in statuses]


class Post:
    """One forced post: seat, kind (sb, bb, straddle, post_bb, dead_sb, dead, ante), amount, live."""

    def __init__(self, seat, kind, amount, live):
        self.seat = seat
        self.kind = kind
        self.amount = amount
        self.live = live

    def __eq__(self, other):
        return (isinstance(other, Post) and self.seat == other.seat and self.kind == other.kind
                and self.amount == other.amount and self.live == other.live)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return "Post(%d, %r, %d, %s)" % (self.seat, self.kind, self.amount, "live" if self.live else "dead")


class HandSetup:
    """The record for one hand (and the `prev` of the next call).

    button: button seat; button_dead: nobody dealt in there (BLIND-4). sb: seat posting the
    SB or None (BLIND-12); sb_seat: the seat holding the SB position even when it is dead
    (the next dead button goes there). bb: BB seat. straddle: seat or None. heads_up.
    seats: seat per position, position 0 = first dealt seat left of the button ... button
    last (PHH order; heads-up that is [big blind, button] as in pokerkit 0.7.7).
    posts: every forced post. blinds_or_straddles, antes: per position in PHH form (heads-up
    pokerkit reads them swapped: position i posts entry 1 - i, so they are written that way;
    not under hr.headsup_blinds = button_is_bb, which PHH cannot express).
    dead: dead money per position (POT-17: into the main pot, not the payer's contribution).
    bb_position, first_to_act: preflop. absent: positions of absent seats whose cards are
    killed after the deal (BLIND-23). waiting: occupied seats not dealt in. table: the seat
    records to pass to the next call."""

    def __repr__(self):
        return "HandSetup(button=%r%s, sb=%r, bb=%r, seats=%r)" % (
            self.button, " dead" if self.button_dead else "", self.sb, self.bb, self.seats)

    def post_of(self, seat):
        return [p for p in self.posts if p.seat == seat]


def previous(button, sb_seat, bb):
    """A bare `prev` record for next_hand: the last hand's button, SB position (even if it
    was dead) and BB seats -- e.g. restored after a restart or corrected by the dealer
    (BLIND-22: the device's display is authoritative)."""
    h = HandSetup()
    h.button = button
    h.sb_seat = sb_seat
    h.bb = bb
    return h


def _hr(rules, key, mode):
    # rules: a settings.HouseRules, a plain dict ("hr.key" or "key"), or None (mode defaults).
    value = None
    if rules is not None:
        if isinstance(rules, dict):
            value = rules.get("hr." + key, rules.get(key))
        else:
            value = rules.get(key)
    if value is None:
        value = settings.default(key, mode)
    return value


def _after(seat, n):
    return seat % n + 1


def _ring(start, n):
    # Seats clockwise after `start`, ending with `start` itself.
    out = []
    s = start
    for _ in range(n):
        s = _after(s, n)
        out.append(s)
    return out


def _between(a, b, n):
    # Seats strictly between a and b, clockwise.
    out = []
    s = _after(a, n)
    while s != b and len(out) < n:
        out.append(s)
        s = _after(s, n)
    return out


def limit_blinds(small_bet):
    """BLIND-2: in limit the BB equals the small bet and the SB is half of it."""
    return small_bet // 2, small_bet


def draw_for_button(cards, rule="high_card_by_suit", seated_order=None):
    """BLIND-1: the first button of a session. cards: per seat (seat 1 first) the face-up
    card int dealt to it, or None for an empty seat; dealt clockwise from seat 1 (the
    virtual button is seat N). rule = hr.initial_button."""
    seats = [s + 1 for s in range(len(cards)) if cards[s] is not None]
    if rule == "first_seated":
        if not seated_order:
            raise RuleError("BLIND-1: first_seated needs the order in which players sat down")
        return seated_order[0]
    if not seats:
        raise RuleError("BLIND-1: no card dealt for the button")
    if rule == "high_card_by_suit":
        return max(seats, key=lambda s: cards[s - 1])
    if rule == "first_highest_dealt":
        top = max(cards[s - 1] // 4 for s in seats)
        return min(s for s in seats if cards[s - 1] // 4 == top)
    raise ConfigError("hr.initial_button %r is not one of high_card_by_suit, first_highest_dealt, first_seated" % (rule,))


def change_seat(table, from_seat, to_seat, bb_seat):
    """BLIND-18: a player moves between hands. Moving to a seat the BB reaches sooner is free;
    moving to one it reaches later makes the player wait for the BB there unless they post
    (status NEW with their marks kept). bb_seat: the BB of the hand just played."""
    n = len(table)
    for s in (from_seat, to_seat, bb_seat):
        if not 1 <= s <= n:
            raise RuleError("BLIND-18: seat %d is not on this table" % s, legal=(1, n))
    if table[to_seat - 1].status != EMPTY:
        raise RuleError("BLIND-18: seat %d is taken" % to_seat)
    mover = table[from_seat - 1]
    if mover.status == EMPTY:
        raise RuleError("BLIND-18: nobody sits in seat %d" % from_seat)
    out = [s.copy() for s in table]
    out[from_seat - 1] = Seat(EMPTY)

    def reach(s):  # hands until the BB reaches seat s (the BB seat itself: a full orbit)
        return (s - bb_seat - 1) % n + 1

    moved = mover.copy()
    if mover.status == ACTIVE and reach(to_seat) > reach(from_seat):
        moved.status = NEW
        moved.post = False
    out[to_seat - 1] = moved
    return out


class _Plan:
    # Working record of one next_hand call (keeps the helpers' locals few on MicroPython).
    pass


def next_hand(table, prev=None, button=None, sb=0, bb=0, ante=0, mode=settings.CASH, rules=None):
    """The next hand's record (HandSetup), following BLIND-2..7, 11..18, 20, 23, 24, DEAL-5.

    table: list of Seat, seat 1 first (up to 10 seats). prev: the previous HandSetup (or any
    record with .button, .sb_seat, .bb); None for the first hand, which takes `button` from
    draw_for_button (BLIND-1; everyone seated is active, BLIND-17). sb, bb, ante: amounts
    (limit: limit_blinds). rules: settings.HouseRules or a plain dict of hr.* values;
    missing keys take the mode defaults. After a misdeal call again with the same inputs
    (BLIND-3, DEAL-14). Raises RuleError BLIND-12 when fewer than two players can be dealt."""
    n = len(table)
    if not 2 <= n <= 10:
        raise ConfigError("a table has 2..10 seats, got %d" % n)
    if mode not in settings.MODES:
        raise ConfigError("mode must be cash or tournament, got %r" % (mode,))
    if bb < 0 or sb < 0 or ante < 0 or (bb == 0 and sb > 0):
        raise ConfigError("blinds must be sb >= 0, bb >= 0 (0: a game without blinds), ante >= 0 (BLIND-2)")
    k = _Plan()
    k.n = n
    k.mode = mode
    k.table = [s.copy() for s in table]
    k.button_mode = _hr(rules, "button_mode", mode)
    if mode == settings.TOURNAMENT and k.button_mode != "dead":
        raise ConfigError("hr.button_mode is fixed to dead in tournament mode (TOUR-12)")
    k.headsup = _hr(rules, "headsup_blinds", mode)
    k.makeup = _hr(rules, "missed_blind_makeup", mode)
    k.straddle_rule = _hr(rules, "straddle", mode)
    k.amounts = (sb, bb, ante)
    if bb == 0:
        return _without_blinds(k, prev, button)
    if prev is None:
        _first_positions(k, button)
    else:
        for s in (prev.button, prev.sb_seat, prev.bb):
            if not isinstance(s, int) or not 1 <= s <= n:
                raise ConfigError("previous hand's button/SB/BB seat %r is not a seat 1..%d" % (s, n))
        _next_positions(k, prev)
    _deal_list(k)
    if len(k.dealt) < 2:
        raise RuleError("BLIND-12: fewer than two players can be dealt in", legal=(2, n))
    if len(k.dealt) == 2:
        _heads_up(k, prev)
    elif k.bb == k.button:
        # Leaving heads-up with the newcomer sitting just before the old BB: the button
        # goes to the dealt player before the SB seat.
        k.button = [s for s in _ring(k.sb_seat, n)[::-1] if s in k.dealt and s not in (k.bb, k.sb_seat)][0]
    if prev is not None and mode == settings.CASH:
        _mark_missed(k, prev)
    return _record(k)


def _without_blinds(k, prev, button):
    # Stud and other ante-only games (GAME-10..14): no blinds to rotate, so the button stays
    # where it is (TOUR-19: frozen through the stud rounds of a mixed game; the controller
    # moves it when a blind game resumes). Everyone seated and not sitting out is dealt in;
    # missed-blind marks are kept for the next blind game.
    b = prev.button if prev is not None else button
    if b is None or not 1 <= b <= k.n:
        raise RuleError("BLIND-1: a button seat is needed to start the deal", legal=(1, k.n))
    k.button = b
    k.sb_seat = None
    k.sb_live = False
    k.bb = None
    k.dealt = [s for s in range(1, k.n + 1) if _status(k, s) in (ACTIVE, ABSENT, NEW, BACK)]
    if len(k.dealt) < 2:
        raise RuleError("BLIND-12: fewer than two players can be dealt in", legal=(2, k.n))
    return _record(k)


def _status(k, s):
    # The status that counts for this mode: in tournaments a sitting-out seat is absent and
    # still plays (BLIND-23); in cash there is no "absent", only sitting out.
    st = k.table[s - 1].status
    if k.mode == settings.TOURNAMENT:
        if st == OUT:
            return ABSENT
        return ACTIVE if st == BACK else st
    if st == ABSENT:
        return OUT
    if st == BACK and not k.table[s - 1].owes:
        return ACTIVE  # owes nothing: plays at once (DEAL-5)
    return st


def _rotating(k, s):
    return _status(k, s) in (ACTIVE, ABSENT)


def _due(k, s):
    # Seats the BB may land on: players, and new or returning players who wait for it.
    return _status(k, s) in (ACTIVE, ABSENT, NEW, BACK)


def _first_positions(k, button):
    if button is None or not 1 <= button <= k.n or not _rotating(k, button):
        raise RuleError("BLIND-1: the first button must be an occupied, active seat", legal=(1, k.n))
    k.button = button
    players = [s for s in _ring(button, k.n) if _rotating(k, s)]
    if len(players) < 2:
        raise RuleError("BLIND-12: fewer than two players can be dealt in", legal=(2, k.n))
    k.sb_seat = players[0]
    k.bb = players[1] if len(players) > 2 else players[0]
    k.sb_live = True


def _next_seat(k, start, due):
    # the first seat clockwise after `start` (`start` itself last) that rotates (_due when due);
    # IndexError when none, as the first of an empty list. No ring list is made: next_hand runs in
    # the new hand's main-loop step (hardware/memory.md, showdown round)
    s = start
    for _ in range(k.n):
        s = _after(s, k.n)
        if _due(k, s) if due else _rotating(k, s):
            return s
    raise IndexError("list index out of range")


def _next_positions(k, prev):
    if k.button_mode == "moving":
        # BLIND-5: button to the next player, SB and BB the next two after it.
        k.button = _next_seat(k, prev.button, False)
        k.sb_seat = _next_seat(k, k.button, False)
        k.bb = _next_seat(k, k.sb_seat, True)
        k.sb_live = True
        return
    # BLIND-4 dead button: the BB moves to the next seat due to play; the SB is the old
    # BB's seat if that player is still in; the button goes to the old SB's seat.
    k.bb = _next_seat(k, prev.bb, True)
    k.sb_seat = prev.bb
    # A tournament player placed in the SB seat posts it (BLIND-24).
    placed = k.mode == settings.TOURNAMENT and _status(k, prev.bb) == NEW
    k.sb_live = (_rotating(k, prev.bb) or placed) and k.bb != prev.bb
    k.button = prev.sb_seat


def _blocked(k, s):
    # BLIND-16 / BLIND-24: nobody enters on the button, the SB or between them (cash);
    # in tournaments only strictly between the button and the SB.
    if k.mode == settings.TOURNAMENT:
        return s in _between(k.button, k.sb_seat, k.n)
    return s == k.button or s == k.sb_seat or s in _between(k.button, k.sb_seat, k.n)


def _deal_list(k):
    # DEAL-5: who gets cards. Seat order here is by seat number; positions come later.
    dealt = []
    for s in range(1, k.n + 1):
        st = _status(k, s)
        if s == k.bb:
            ok = True
        elif s == k.sb_seat and k.sb_live:
            ok = True
        elif st == ACTIVE or st == ABSENT:
            ok = True
        elif st == NEW and k.mode == settings.TOURNAMENT:
            ok = not _blocked(k, s)
        elif st in (NEW, BACK):
            ok = k.table[s - 1].post and not _blocked(k, s)
        else:
            ok = False
        if ok:
            dealt.append(s)
    k.dealt = dealt


def _heads_up(k, prev):
    # BLIND-6/7: the BB goes to the player who follows the previous BB clockwise (nobody
    # takes the BB twice running); the other has the button. hr.headsup_blinds says which
    # of the two posts the SB.
    a, b = k.dealt
    if prev is None:
        big = b if k.button == a else a
    else:
        big = [s for s in _ring(prev.bb, k.n) if s in (a, b)][0]
    small = a if big == b else b
    k.bb = big
    k.sb_seat = small
    k.sb_live = True
    k.button_is_bb = k.headsup == "button_is_bb"
    if prev is None:
        k.button = k.button if k.button in (a, b) else small
        if k.button_is_bb:
            k.bb, k.sb_seat = k.button, (a if k.button == b else b)
    else:
        k.button = big if k.button_is_bb else small


def _mark_missed(k, prev):
    # BLIND-13: a sitting-out seat the BB (or the SB) passes over is marked as having missed it.
    for s in _between(prev.bb, k.bb, k.n):
        if _status(k, s) == OUT:
            k.table[s - 1].missed_bb = True
    sb_passed = _between(prev.sb_seat, k.sb_seat, k.n)
    if k.sb_seat != prev.sb_seat:
        sb_passed.append(k.sb_seat)
    for s in sb_passed:
        if _status(k, s) == OUT:
            k.table[s - 1].missed_sb = True


def _positions(k):
    # the dealt seats clockwise from the one after the button (a loop: no ring list, no closure)
    out = []
    s = k.button
    for _ in range(k.n):
        s = _after(s, k.n)
        if s in k.dealt:
            out.append(s)
    return out


def _posts(k, seats):
    sb, bb, ante = k.amounts
    posts = []
    if k.sb_live and sb > 0:
        posts.append(Post(k.sb_seat, SB, sb, True))
    if bb > 0:
        posts.append(Post(k.bb, BB, bb, True))
    for s in seats:
        seat = k.table[s - 1]
        st = _status(k, s)
        if s not in (k.bb, k.button, k.sb_seat) and k.mode == settings.CASH and bb > 0:
            if st == NEW:
                posts.append(Post(s, POST_BB, bb, True))  # BLIND-16
            elif st == BACK:
                _makeup(k, posts, s, seat)  # BLIND-14
        if seat.dead_owed:
            posts.append(Post(s, DEAD, seat.dead_owed, False))  # BLIND-25
        if ante:
            posts.append(Post(s, ANTE, ante, False))  # GAME-17
    return posts


def _makeup(k, posts, s, seat):
    sb, bb, _ = k.amounts
    if k.makeup == "bb_only":
        posts.append(Post(s, POST_BB, bb, True))
    elif seat.missed_bb:
        posts.append(Post(s, POST_BB, bb, True))
        posts.append(Post(s, DEAD_SB, sb, False))
    elif k.makeup == "s0_penalty_literal":
        # S0 «Штрафные Блайнды»: a missed SB alone costs the BB amount, read as a penalty
        # (dead), since S0 adds it to a BB posted at the same time.
        posts.append(Post(s, DEAD_SB, bb, False))
    else:
        posts.append(Post(s, DEAD_SB, sb, False))


def _straddle(k, seats, posts):
    # BLIND-20: only the player immediately left of the BB, for exactly 2 x BB, live.
    asked = None
    for s in range(1, k.n + 1):
        if k.table[s - 1].straddle and k.table[s - 1].status != EMPTY:
            if asked is None:
                asked = []
            asked.append(s)
    if not asked:
        return None
    if k.straddle_rule != "utg_2x" or k.bb is None:
        raise RuleError("BLIND-20: straddles are off (hr.straddle)", legal=())
    utg = None
    if len(seats) > 2:
        utg = seats[(seats.index(k.bb) + 1) % len(seats)]
    for s in asked:
        if s != utg or [p for p in posts if p.seat == s and p.kind in (SB, BB, POST_BB, DEAD_SB)]:
            raise RuleError("BLIND-20: only the player left of the big blind may straddle",
                            legal=(utg,) if utg else ())
    posts.append(Post(utg, STRADDLE, 2 * k.amounts[1], True))
    return utg


def _record(k):
    seats = _positions(k)
    posts = _posts(k, seats)
    h = HandSetup()
    h.straddle = _straddle(k, seats, posts)
    posts.sort(key=lambda p: (seats.index(p.seat), _KIND_ORDER.index(p.kind)))
    m = len(seats)
    h.button = k.button
    h.button_dead = k.button not in seats
    h.sb = k.sb_seat if k.sb_live and k.amounts[0] > 0 else None
    h.sb_seat = k.sb_seat
    h.bb = k.bb
    h.heads_up = m == 2
    h.seats = tuple(seats)
    h.posts = posts
    live = [0] * m
    antes = [0] * m
    dead = [0] * m
    for p in posts:
        i = seats.index(p.seat)
        if p.kind == ANTE:
            antes[i] += p.amount
        elif p.live:
            live[i] += p.amount
        else:
            dead[i] += p.amount
    if m == 2 and not getattr(k, "button_is_bb", False):
        # pokerkit 0.7.7 heads-up: position i posts blinds_or_straddles[1 - i] and antes[1 - i].
        # hr.headsup_blinds = button_is_bb has no PHH form: plain per position (machine.py reads
        # it that way).
        live = live[::-1]
        antes = antes[::-1]
    h.blinds_or_straddles = live
    h.antes = antes
    h.dead = dead
    if k.bb is None:
        # No blinds: the bring-in decides who acts first (GAME-11).
        h.bb_position = h.first_to_act = None
    elif m == 2:
        # Button first preflop (BLIND-6); under button_is_bb the non-button acts first.
        h.first_to_act = 0 if getattr(k, "button_is_bb", False) else 1
        h.bb_position = seats.index(k.bb)
    else:
        h.bb_position = seats.index(k.bb)
        last_forced = seats.index(h.straddle) if h.straddle else h.bb_position
        h.first_to_act = (last_forced + 1) % m
    h.absent = tuple(i for i in range(m) if _status(k, seats[i]) == ABSENT)
    h.waiting = tuple(s for s in range(1, k.n + 1) if k.table[s - 1].status != EMPTY and s not in seats)
    h.table = _after_table(k, seats)
    return h


def _after_table(k, seats):
    # k.table holds this call's own copies of the seat records (next_hand), read for the last time
    # here, one seat each: they are updated in place rather than copied again
    out = []
    for s in range(1, k.n + 1):
        seat = k.table[s - 1]
        seat.straddle = False
        if s in seats and k.bb is None:
            seat.dead_owed = 0  # no blinds were due: statuses and marks wait for a blind game
        elif s in seats:
            if seat.status in (NEW, BACK):
                seat.status = ACTIVE  # posted, or took the BB in rotation (BLIND-13, 15)
                seat.post = False
            seat.missed_sb = False
            seat.missed_bb = False
            seat.dead_owed = 0
        out.append(seat)
    return out
