# Hand-for-hand at the table (controller layer, part of felt.table.controller.Table, imported on first use):
# the console's `set hand_for_hand`, the level clock counted down 2 minutes a hand (TOUR-8) and the
# hold of an all-in and call until the TD's `floor continue` (TOUR-10, the dealing check's hold()).
# The time counted down is the TD's M:SS, or with `on` what the table's level clock (table_levels)
# has left; that clock stands still during hand-for-hand and runs on from what is left afterwards.
from felt.engine.house import rules as settings
from felt.errors import ConfigError, RuleError
from felt.events import INFO, WARN
from felt.table.rulings import set_level
from felt.table.state import PLAYING

H4H_MS = 120000  # TOUR-8: each hand takes exactly 2 minutes off the level clock
_LEVEL_KEEP = ("hand_for_hand", "level", "sb", "bb", "ante", "small_bet", "big_bet", "bring_in")


def clock_text(ms):
    return "%d:%02d" % (ms // 60000, ms % 60000 // 1000)


def _clock_ms(value):
    # 'M:SS' or whole minutes -> ms; ConfigError naming TOUR-8 for anything else
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value * 60000
    m, colon, s = str(value).partition(":")
    if colon and m.isdigit() and len(s) == 2 and s.isdigit() and int(s) < 60:
        return int(m) * 60000 + int(s) * 1000
    raise ConfigError("TOUR-8: set hand_for_hand M:SS (time left on the level clock), MINUTES, on or off; "
                      "got %r" % (value,))


def configure(t, value, now_ms=None):
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
    time left on the running level clock, table_levels, which stands still meanwhile; not counted
    without one) and TOUR-10 holds an all-in and call. Off: a hold ends too; the level clock runs on
    from what hand-for-hand left of the level."""
    cfg = t.config
    if cfg.mode == settings.CASH:
        raise ConfigError("TOUR-8: hand_for_hand is a tournament setting")
    if value == "off":
        if cfg.level_clock is not None and cfg.hand_for_hand is not None and now_ms is not None:
            from felt.table import levels as table_levels
            table_levels.resume_after_h4h(t, cfg.hand_for_hand, now_ms)
        cfg.hand_for_hand = None
        if t.state == PLAYING and t.dc.held:
            t.dc.release()
        t.alert(INFO, ("TOUR-8",), "hand-for-hand off: the level clock runs again")
        return True
    left = "on" if value == "on" else _clock_ms(value)
    if cfg.level_clock is not None and now_ms is not None and cfg.hand_for_hand is None:
        from felt.table import levels as table_levels
        running = table_levels.pause_for_h4h(t, now_ms)  # TOUR-8: the level clock stands still
        if left == "on":
            left = running
    cfg.hand_for_hand = left
    t.alert(INFO, ("TOUR-8", "TOUR-10"), "hand-for-hand on: %s; an all-in and call is held for the TD" % (
        ("level clock %s, every hand takes 2:00 at its start" % clock_text(left)) if left != "on" else
        "level clock time not given, not counted (set hand_for_hand M:SS)"))
    maybe_hold(t)
    return True


def h4h_tick(t):
    """new_hand() during hand-for-hand: the hand takes 2 minutes off the level clock at its start
    (TOUR-8); when the level runs out the next row of config.levels applies from this hand (TOUR-1)
    with what is left of its `minutes`. Returns (alert text, undo) -- undo() if no hand starts."""
    cfg = t.config
    keep = [getattr(cfg, k) for k in _LEVEL_KEEP]

    def undo():
        for i in range(len(_LEVEL_KEEP)):
            setattr(cfg, _LEVEL_KEEP[i], keep[i])

    left = cfg.hand_for_hand
    if not isinstance(left, int):
        return "hand-for-hand: the level clock time is not known (set hand_for_hand M:SS)", undo
    left -= H4H_MS
    levels = cfg.levels or ()
    if left > 0:
        cfg.hand_for_hand = left
        return "hand-for-hand: level clock %s" % clock_text(left), undo
    if cfg.level >= len(levels):
        cfg.hand_for_hand = 0
        return "hand-for-hand: the level clock ran out; %s" % (
            "the last level runs on" if levels else "raise the blinds with floor level N"), undo
    n = cfg.level + 1
    set_level(t, n)  # between hands: applies now (ConfigError for a row without a big blind)
    minutes = levels[n - 1].get("minutes")
    cfg.hand_for_hand = minutes * 60000 + left if minutes else "on"  # the overrun is the new level's
    return "hand-for-hand: level %d (%d/%d ante %d) from this hand; level clock %s" % (
        n, cfg.sb, cfg.bb, cfg.ante, clock_text(cfg.hand_for_hand) if minutes else "not known"), undo


def maybe_hold(t):
    """TOUR-10: during hand-for-hand an all-in has been called and no more betting is possible
    (the Hand's run-out, GAME-7) with cards still to come: they stay face down and nothing is dealt
    until the TD's `floor continue`; the dealing check alarms any draw meanwhile (overrides SHOW-7)."""
    h = t.hand
    if t.config.hand_for_hand is None or t.state != PLAYING or t.dc.held or not h.runout or h.phase != "deal":
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
