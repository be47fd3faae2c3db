# Tournament timing at the table (controller layer, loaded on first use): the level clock (console
# `set level_clock start|M:SS|pause|resume|off`, TOUR-1) and hand-for-hand (`set hand_for_hand
# M:SS|MINUTES|on|off`: 2 minutes a hand, TOUR-8; an all-in and call held for the TD, TOUR-10) are one
# engine LevelClock (engine/between_hands/clocks.py) on the loop's time, in Table.level_clock.
from felt.engine.between_hands.clocks import LevelClock, make_levels
from felt.engine.house.rules import CASH
from felt.errors import ConfigError, RuleError
from felt.table.alerts import INFO, WARN
from felt.table.state import PLAYING

# a level whose length is not known: level 0 (the stakes the table was set up with) and a row without
# minutes; its time runs only once the TD gives it (set hand_for_hand M:SS)
_UNKNOWN_MS = 0x3FFFFFFF


class TableLevelClock(LevelClock):
    """The engine's LevelClock over config.levels with level 0 in front, so `index` is config.level.
    On top: `shown` (the level clock is on: `get level_clock`, the display) and `h4h` (hand-for-hand
    is on; the engine's hand_for_hand is True while its time is known and each hand takes 2:00 at its
    start). A now_ms before the anchor -- the board restarted, its ms counter began again -- counts
    no time for the gap. Table.level_clock is None while both are off."""

    def __init__(self, rows, level=0):
        LevelClock.__init__(self, rows)
        self.index = min(level, len(self.levels) - 1)
        self.started = True  # the table counts hands from the first one
        self.shown = False
        self.h4h = False

    # the level table is config.levels itself (rows: {"sb":, "bb":, "minutes":, "is_break":, ...})
    # behind level 0, read where the engine reads a level's length and kind: no copy in RAM
    def _levels(self, rows):
        return (None,) + tuple(rows or ())

    def _length_ms(self, index):
        row = self.levels[index]
        minutes = row.get("minutes") if row else 0
        return minutes * 60000 if minutes else _UNKNOWN_MS

    def _is_break(self, index):
        row = self.levels[index]
        return bool(row and row.get("is_break"))

    def _fold(self, now_ms):
        if self._anchor_ms is not None and now_ms < self._anchor_ms:
            self._anchor_ms = now_ms  # the board restarted: the outage is not known, not counted
        LevelClock._fold(self, now_ms)

    def behind(self, now_ms):
        """True when now_ms lies before the running clock's anchor (the board restarted)."""
        return self._anchor_ms is not None and now_ms < self._anchor_ms

    def peek(self, now_ms):
        """(level, ms left, running) as the clock stands at now_ms; nothing changes."""
        e = self._elapsed_ms
        a = self._anchor_ms
        if a is not None and now_ms is not None and now_ms > a:
            e += now_ms - a
        i, e = self._advanced(self.index, e)
        return i, max(0, self._length_ms(i) - e), a is not None

    def set_left(self, n, left_ms, at_ms):
        """Level n with left_ms to go (as of at_ms; at_ms None: standing still)."""
        self.index = n
        self._elapsed_ms = self._length_ms(n) - left_ms
        self._anchor_ms = at_ms

    def follow(self, n, rows):
        """The table's level became n (`floor level N`, or a level this clock applied): the clock
        goes on at level n with the time it had left."""
        if len(self.levels) != len(rows or ()) + 1:
            self.levels = self._levels(rows)
        if n != self.index:
            self.set_left(n, max(0, self._length_ms(self.index) - self._elapsed_ms), self._anchor_ms)

    def data(self):
        """JSON-able state for the between-hands snapshot (felt.recovery.restore); load() inverts it:
        level n, ms left in it (as of at_ms when running), the level clock on, hand-for-hand 0 off,
        1 on with its time not known, 2 on with each hand taking 2:00."""
        h4h = (2 if self.hand_for_hand else 1) if self.h4h else 0
        return {"n": self.index, "left_ms": self._length_ms(self.index) - self._elapsed_ms,
                "at_ms": self._anchor_ms, "clock": self.shown, "h4h": h4h}


def load(t, d):
    """Table.level_clock from the between-hands snapshot: TableLevelClock.data(), or the pair
    (config.level_clock, config.hand_for_hand) of a snapshot v 1 (firmware to 3dc967f): None or [ms
    left in config.level, at_ms or None]; None, the ms left (each hand takes 2:00, and the level clock
    runs on from it afterwards) or "on" (time not known). None: both off."""
    if not isinstance(d, dict):  # v 1
        lc_v1, h4h = d
        if lc_v1 is None and h4h is None:
            return None
        left, at = lc_v1 if lc_v1 is not None else (_UNKNOWN_MS, None)
        if h4h is not None:
            left, at = (h4h, None) if isinstance(h4h, int) else (left, None)
        n = t.config.level or (1 if lc_v1 is not None else 0)
        d = {"n": n, "left_ms": left, "at_ms": at, "clock": lc_v1 is not None,
             "h4h": 0 if h4h is None else (2 if isinstance(h4h, int) else 1)}
    lc = TableLevelClock(t.config.levels)
    lc.set_left(min(d["n"], len(lc.levels) - 1), d["left_ms"], d["at_ms"])
    lc.shown = bool(d["clock"])
    lc.h4h = d["h4h"] > 0
    lc.hand_for_hand = d["h4h"] == 2
    lc.hands_in_h4h = 1 if lc.hand_for_hand else 0
    return lc


def clock_text(ms):
    s = (ms + 999) // 1000  # a countdown shows 20:00 until a whole second has gone
    return "%d:%02d" % (s // 60, s % 60)


def _clock_ms(value, rule="TOUR-8"):
    # 'M:SS' or whole minutes -> ms; ConfigError for anything else
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value * 60000
    m, colon, s = str(value).partition(":")
    if colon and m.isdigit() and len(s) == 2 and s.isdigit() and int(s) < 60:
        return int(m) * 60000 + int(s) * 1000
    if rule == "TOUR-1":
        raise ConfigError("TOUR-1: set level_clock start, M:SS (time left in the level), MINUTES, pause, "
                          "resume or off; got %r" % (value,))
    raise ConfigError("TOUR-8: set hand_for_hand M:SS (time left on the level clock), MINUTES, on or off; "
                      "got %r" % (value,))


def _clock(t):
    # Table.level_clock, made (standing still at config.level) when the first of the two is switched on
    if t.level_clock is None:
        t.level_clock = TableLevelClock(t.config.levels, t.config.level or 0)
    return t.level_clock


def _keep_level(t, lc):
    # between hands a level that ran out applies now; during a hand it waits (TOUR-1)
    if lc.index and lc.index != t.config.level:
        from felt.table.rulings import set_level
        set_level(t, lc.index)  # between hands: now; during a hand: from the next one (TOUR-1)


# ---------------------------------------------------------------- the level clock (TOUR-1)

def _check(t):
    cfg = t.config
    if cfg.mode == CASH:
        raise ConfigError("TOUR-1: the level clock is a tournament setting")
    if not cfg.levels:
        raise ConfigError("TOUR-1: this table has no level table (TableConfig levels=)")
    for i in range(len(cfg.levels)):
        if not cfg.levels[i].get("minutes"):
            raise ConfigError("TOUR-1: level %d has no minutes; the level clock needs every level's length" % (i + 1))
    make_levels([dict(r) for r in cfg.levels])  # TOUR-21 and malformed rows: refused by name


def configure(t, value, now_ms):
    """Console `set level_clock start | M:SS | pause | resume | off`: start at the current level's
    full length (level 1 if none is set) or with M:SS left in it; pause and resume; off. True, or
    False with an alert naming the rule (nothing changes)."""
    try:
        text = _set(t, value, now_ms)
    except (ConfigError, RuleError) as e:
        text = str(e)
        rule = getattr(e, "rule", None) or (text.split(":", 1)[0] if text.startswith("TOUR-") else "TOUR-1")
        t.alert(WARN, (rule,), "set level_clock refused: %s" % text)
        return False
    t.alert(INFO, ("TOUR-1",), text)
    return True


def _set(t, value, now_ms):
    cfg = t.config
    if now_ms is None:
        raise ConfigError("TOUR-1: the level clock needs the loop's time")
    lc = t.level_clock
    if value == "off":
        if lc is not None:
            lc.shown = False
            if not lc.h4h:
                t.level_clock = None
        return "level clock off"
    _check(t)
    if value == "pause" or value == "resume":
        if lc is None or not lc.shown:
            raise ConfigError("TOUR-1: the level clock has not been started (set level_clock start)")
        if lc.h4h:
            raise ConfigError("TOUR-8: during hand-for-hand every hand takes 2:00; the clock stands still")
        lc.level(now_ms)
        _keep_level(t, lc)
        if value == "pause":
            lc.pause(now_ms)
        else:
            lc.resume(now_ms)
        n, left, running = lc.peek(now_ms)
        return "level clock %s: level %d, %s left" % ("running" if running else "paused", n, clock_text(left))
    if value != "start":
        left = _clock_ms(value, "TOUR-1")
    if not cfg.level:
        from felt.table.rulings import set_level
        set_level(t, 1)
    n = cfg.level or 1  # (level 1 staged during a hand: its clock starts now, the stakes next hand)
    if value == "start":
        left = (cfg.levels[n - 1].get("minutes") or 0) * 60000
    lc = _clock(t)
    lc.levels = lc._levels(cfg.levels)  # the level table as it is now
    if not lc.hand_for_hand:  # (during hand-for-hand its count is the clock's time, TOUR-8)
        lc.set_left(n, left, None if lc.h4h else now_ms)
    lc.shown = True
    return "level clock started: level %d, %s left" % (n, clock_text(left))


def get(t, now_ms):
    """`get level_clock`: off, or L<n>/<M:SS>, with /paused when it stands still."""
    lc = t.level_clock
    if lc is None or not lc.shown:
        return "off"
    n, left, running = lc.peek(now_ms)
    return "L%d/%s%s" % (n, clock_text(left), "" if running else "/paused")


def line(t, now_ms):
    """The display line 'L2 12:34' (' P' while paused), or None."""
    lc = t.level_clock
    if lc is None or not lc.shown or lc.h4h:
        return None
    n, left, running = lc.peek(now_ms)
    return "L%d %s%s" % (n, clock_text(left), "" if running else " P")


# ---------------------------------------------------------------- a hand that ends at a break (POT-18)

DISPUTE_AT_BREAK_MS = 60000  # POT-18: "the window closes 1 minute after the award"


def dispute_locked(t, now_ms):
    """POT-18: True when the last hand ended at a break and the minute after its award is over.
    Reading of the rule: the lock is keyed to the award, not to the start of the break -- in the
    rule's example hand 91 is awarded at 20:59:30, a break starts and the lock came at 21:00:30,
    whenever the break began. The hand 'ends at a break' when a break level lies between the
    award's level and the level at now_ms (no new hand began: the table is between hands). Before
    the break begins the usual window (until the next hand, DEAL-1) applies; once it has begun, a
    minute after the award is the lock, already past when the break began later than that.
    t.awarded = (loop ms, level) of the award (Table.clock_tick)."""
    lc = t.level_clock
    a = t.awarded
    if now_ms is None or now_ms < a[0] + DISPUTE_AT_BREAK_MS:
        return False
    n = lc.peek(now_ms)[0]
    for i in range(a[1], n + 1):
        if lc._is_break(i):
            return True
    return False


# ---------------------------------------------------------------- a new hand (TOUR-1, TOUR-8)

def hand_started(t, now_ms):
    """new_hand(): a level that ran out applies from this hand (TOUR-1); during hand-for-hand the
    hand takes 2 minutes off the clock at its start (TOUR-8). Returns (alert text or None, rules,
    undo) -- undo() if no hand starts -- or None when a running clock is given no time."""
    lc = t.level_clock
    if now_ms is None and lc.running():
        return None
    cfg = t.config
    keep = (lc.index, lc._elapsed_ms, lc._anchor_ms, lc.hand_for_hand, lc.hands_in_h4h, lc.hand_level, lc.hands,
            cfg.level, cfg.sb, cfg.bb, cfg.ante, cfg.small_bet, cfg.big_bet, cfg.bring_in)

    def undo():
        (lc.index, lc._elapsed_ms, lc._anchor_ms, lc.hand_for_hand, lc.hands_in_h4h, lc.hand_level, lc.hands,
         cfg.level, cfg.sb, cfg.bb, cfg.ante, cfg.small_bet, cfg.big_bet, cfg.bring_in) = keep

    try:
        return _started(t, lc, now_ms or 0) + (undo,)
    except (ConfigError, RuleError):
        undo()
        raise


def _started(t, lc, now_ms):
    cfg = t.config
    try:
        lc.hand_started(now_ms)
    except RuleError:
        n, left, running = lc.peek(now_ms)
        raise RuleError("TOUR-1", "a break is in progress (%s left)" % clock_text(left), legal=(left, left))
    n, left, running = lc.peek(now_ms)
    moved = n != cfg.level
    if moved:
        from felt.table.rulings import set_level
        set_level(t, n)  # between hands: applies now (ConfigError for a row without a big blind)
    if not lc.h4h:
        if not moved:
            return None, ("TOUR-1",)
        return "level %d (%d/%d ante %d) from this hand; level clock %s" % (
            n, cfg.sb, cfg.bb, cfg.ante, clock_text(left)), ("TOUR-1",)
    if not lc.hand_for_hand:
        return "hand-for-hand: the level clock time is not known (set hand_for_hand M:SS)", ("TOUR-8",)
    if moved:
        if lc._length_ms(n) == _UNKNOWN_MS:  # a row without minutes: not counted from here
            lc.hand_for_hand = False
        return "hand-for-hand: level %d (%d/%d ante %d) from this hand; level clock %s" % (
            n, cfg.sb, cfg.bb, cfg.ante, clock_text(left) if lc.hand_for_hand else "not known"), ("TOUR-8",)
    if left > 0:
        return "hand-for-hand: level clock %s" % clock_text(left), ("TOUR-8",)
    return "hand-for-hand: the level clock ran out; %s" % (
        "the last level runs on" if cfg.levels else "raise the blinds with floor level N"), ("TOUR-8",)


# ---------------------------------------------------------------- hand-for-hand (TOUR-8, TOUR-10)

def configure_h4h(t, value, now_ms=None):
    """Table.configure("hand_for_hand", value): True, or False with an alert naming the rule."""
    try:
        hand_for_hand(t, value, now_ms)
    except ConfigError as e:
        t.alert(WARN, ("TOUR-8",), "set hand_for_hand refused: %s" % e)
        return False
    t.log("set hand_for_hand = %s" % value)
    return True


def hand_for_hand(t, value, now_ms=None):
    """Console `set hand_for_hand M:SS|MINUTES|on|off` (tournament only, also during a hand: the hand
    it is announced in counts). On: TOUR-8 counts the level clock down 2 minutes a hand ("on": the
    time left on the running level clock, which stands still meanwhile; not counted without one) and
    TOUR-10 holds an all-in and call. Off: a hold ends too; the level clock runs on from what
    hand-for-hand left of the level."""
    if t.config.mode == CASH:
        raise ConfigError("TOUR-8: hand_for_hand is a tournament setting")
    lc = t.level_clock
    if value == "off":
        if lc is not None and lc.h4h:
            lc.h4h = False
            lc.hand_for_hand = False
            if not lc.shown:
                t.level_clock = None
            elif now_ms is not None:
                lc.stop_hand_for_hand(now_ms)  # runs again
        if t.state == PLAYING and t.dc.held:
            t.dc.release()
        t.alert(INFO, ("TOUR-8",), "hand-for-hand off: the level clock runs again")
        return True
    left = None if value == "on" else _clock_ms(value)
    lc = _clock(t)
    if lc.shown and not lc.h4h and now_ms is not None:  # TOUR-8: the level clock stands still
        lc.pause(now_ms)
        if t.state != PLAYING:
            _keep_level(t, lc)
        if left is None:
            left = (lc.peek(now_ms)[1] + 999) // 1000 * 1000  # whole seconds, as the clock showed it
    if left is not None:
        lc.set_left(lc.index, left, None)
        lc.start_hand_for_hand(now_ms, hand_in_progress=True)  # the next hand start takes 2:00
    lc.h4h = True
    t.alert(INFO, ("TOUR-8", "TOUR-10"), "hand-for-hand on: %s; an all-in and call is held for the TD" % (
        ("level clock %s, every hand takes 2:00 at its start" % clock_text(lc.peek(now_ms)[1]))
        if lc.hand_for_hand else "level clock time not given, not counted (set hand_for_hand M:SS)"))
    maybe_hold(t)
    return True


def get_h4h(t):
    """`get hand_for_hand`: off, on (its time not known) or the level clock's M:SS."""
    lc = t.level_clock
    if lc is None or not lc.h4h:
        return "off"
    return clock_text(lc.peek(None)[1]) if lc.hand_for_hand else "on"


def maybe_hold(t):
    """TOUR-10: during hand-for-hand an all-in has been called and no more betting is possible
    (the Hand's run-out, GAME-7) with cards still to come: they stay face down and nothing is dealt
    until the TD's `floor continue`; the dealing check alarms any draw meanwhile (overrides SHOW-7)."""
    h = t.hand
    lc = t.level_clock
    if lc is None or not lc.h4h or t.state != PLAYING or t.dc.held or not h.runout or h.phase != "deal":
        return
    for f in t.dc.hold():
        t.log("deal: %s" % f.text)
    t.alert(WARN, ("TOUR-10",), "HOLD -- await TD: all-in and call during hand-for-hand",
            "cards stay face down; nothing is dealt until the TD says continue (floor continue)")


def release_hold(t):
    """Console `floor continue`: the TD lets a held hand (TOUR-10) be dealt out."""
    if t.state != PLAYING or not t.dc.held:
        raise RuleError("TOUR-10", "floor continue: no hand is held for the TD")
    t.dc.release()
    t.alert(INFO, ("TOUR-10",), "TD: continue -- deal the rest of the hand")
    return True
