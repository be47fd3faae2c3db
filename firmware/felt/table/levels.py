# The level clock at the table (controller layer, part of felt.table.controller.Table, imported on first use):
# the TD starts, pauses and resumes it from the console (`set level_clock start|M:SS|pause|resume|
# off`); it runs on the loop's time (now_ms arguments, journaled with the entries); a level that runs
# out applies from the next hand to start (TOUR-1). State: config.level_clock = [ms left in the
# current level (config.level) at at_ms, at_ms or None while paused] -- plain data the snapshot keeps.
from felt.engine.between_hands.clocks import make_levels
from felt.engine.house.rules import CASH
from felt.errors import ConfigError, RuleError
from felt.events import INFO, WARN
from felt.table.state import PLAYING

def clock_text(ms):
    s = (ms + 999) // 1000  # a countdown shows 20:00 until a whole second has gone
    return "%d:%02d" % (s // 60, s % 60)


def _minutes_ms(cfg, n):
    return (cfg.levels[n - 1].get("minutes") or 0) * 60000


def state(cfg, now_ms):
    """(level n, ms left, running) as the clock stands at now_ms (nothing changes): levels that ran
    out are passed (the last level runs on at 0:00); a board whose ms counter restarted counts no
    time for the gap."""
    left, at = cfg.level_clock
    n = cfg.level or 1
    if at is not None and now_ms is not None and now_ms > at:
        left -= now_ms - at
    while left <= 0 and n < len(cfg.levels):
        n += 1
        left += _minutes_ms(cfg, n)
    return n, max(0, left), at is not None


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
    if value == "off":
        cfg.level_clock = None
        return "level clock off"
    _check(t)
    lc = cfg.level_clock
    if value == "pause" or value == "resume":
        if lc is None:
            raise ConfigError("TOUR-1: the level clock has not been started (set level_clock start)")
        if cfg.hand_for_hand is not None:
            raise ConfigError("TOUR-8: during hand-for-hand every hand takes 2:00; the clock stands still")
        n, left, running = state(cfg, now_ms)
        _keep_level(t, n)
        cfg.level_clock = [left, now_ms if value == "resume" else None]
        return "level clock %s: level %d, %s left" % ("running" if value == "resume" else "paused", n, clock_text(left))
    if value != "start":
        from felt.table import hand_for_hand as table_h4h
        try:
            left = table_h4h._clock_ms(value)  # M:SS or whole minutes
        except ConfigError:
            raise ConfigError("TOUR-1: set level_clock start, M:SS (time left in the level), MINUTES, pause, "
                              "resume or off; got %r" % (value,))
    if not cfg.level:
        from felt.table.rulings import set_level
        set_level(t, 1)  # between hands: now; during a hand: from the next one (TOUR-1)
    n = cfg.level or 1  # (level 1 staged during a hand: its clock starts now, the stakes next hand)
    if value == "start":
        left = _minutes_ms(cfg, n)
    # during hand-for-hand the clock stands still (TOUR-8): it runs again when that ends
    cfg.level_clock = [left, None if cfg.hand_for_hand is not None else now_ms]
    return "level clock started: level %d, %s left" % (n, clock_text(left))


def _keep_level(t, n):
    # pause/resume between hands: a level that ran out applies now; during a hand it waits (TOUR-1)
    if n != t.config.level:
        from felt.table.rulings import set_level
        set_level(t, n)


def hand_started(t, now_ms):
    """new_hand() with the level clock on (not during hand-for-hand): a level that ran out applies
    from this hand (TOUR-1), with an alert. Returns (alert text or None, undo)."""
    cfg = t.config
    keep = (list(cfg.level_clock), cfg.level, cfg.sb, cfg.bb, cfg.ante, cfg.small_bet, cfg.big_bet, cfg.bring_in)

    def undo():
        (cfg.level_clock, cfg.level, cfg.sb, cfg.bb, cfg.ante, cfg.small_bet, cfg.big_bet, cfg.bring_in) = keep

    n, left, running = state(cfg, now_ms)
    if cfg.levels[n - 1].get("is_break"):
        raise RuleError("TOUR-1", "a break is in progress (%s left)" % clock_text(left), legal=(left, left))
    text = None
    if n != cfg.level:
        from felt.table.rulings import set_level
        set_level(t, n)
        text = "level %d (%d/%d ante %d) from this hand; level clock %s" % (n, cfg.sb, cfg.bb, cfg.ante,
                                                                            clock_text(left))
    cfg.level_clock = [left, now_ms if running else None]
    return text, undo


def pause_for_h4h(t, now_ms):
    """TOUR-8: hand-for-hand begins; the level clock stands still. Returns the ms left on it (the
    hand-for-hand countdown starts from it) or None when the clock is off."""
    cfg = t.config
    if cfg.level_clock is None:
        return None
    n, left, running = state(cfg, now_ms)
    if t.state != PLAYING:
        _keep_level(t, n)
    elif n != cfg.level:
        left = 0  # the level ran out during this hand: the next hand starts the new one
    cfg.level_clock = [left, None]
    return (left + 999) // 1000 * 1000  # whole seconds, as the clock showed it


def resume_after_h4h(t, left, now_ms):
    """Hand-for-hand ends: the level clock runs on from what hand-for-hand left of the level."""
    cfg = t.config
    if cfg.level_clock is None:
        return
    cfg.level_clock = [left if isinstance(left, int) else cfg.level_clock[0], now_ms]


def get(t, now_ms):
    """`get level_clock`: off, or L<n>/<M:SS>, with /paused when it stands still."""
    cfg = t.config
    if cfg.level_clock is None:
        return "off"
    n, left, running = state(cfg, now_ms)
    return "L%d/%s%s" % (n, clock_text(left), "" if running else "/paused")


def line(t, now_ms):
    """The display line 'L2 12:34' (' P' while paused), or None."""
    cfg = t.config
    if cfg.level_clock is None or cfg.hand_for_hand is not None:
        return None
    n, left, running = state(cfg, now_ms)
    return "L%d %s%s" % (n, clock_text(left), "" if running else " P")
