# The clock on a player at the table (controller layer, part of felt.table.Table, imported on first
# use): the floor's `floor clock SEAT` starts engine.clock.ActionClock on the seat to act (TOUR-6);
# the runtime loop, the only place that knows time, calls Table.clock_tick(now_ms) when the countdown
# or the expiry is due (journaled, so a power cut replays it once); the expiry is applied here.
from felt.engine.clock import ActionClock
from felt.engine.settings import CASH
from felt.errors import RuleError
from felt.events import INFO, WARN
from felt.table_state import BETTING, PLAYING


def _actor_seat(t):
    h = t.hand
    if t.state != PLAYING or h.phase != BETTING or h.actor is None:
        return None
    return t.setup.seats[h.actor]


def call(t, seat, now_ms):
    """`floor clock SEAT` (TOUR-6): only the seat whose turn it is; tournaments only (a cash table's
    limit is hr.cash_action_timer, CASH-13). RuleError naming TOUR-6 before anything changes."""
    if t.config.mode == CASH:
        raise RuleError("TOUR-6", "floor clock: the clock is a tournament procedure (cash: CASH-13)")
    if seat is None or now_ms is None:
        raise RuleError("TOUR-6", "floor clock SEAT: the seat to put on the clock")
    actor = _actor_seat(t)
    if actor is None:
        raise RuleError("TOUR-6", "floor clock %d: no seat is to act" % seat)
    if seat != actor:
        raise RuleError("TOUR-6", "floor clock %d: it is seat %d's turn, not seat %d's" % (seat, actor, seat),
                        legal=(actor, actor))
    lg = t.hand.legal()
    c = ActionClock(t.config.house)
    c.start(seat, now_ms, bool(lg.call or lg.bring_in))
    c.hand = t.hand  # the clock belongs to this hand and this turn only
    t.action_clock = c
    t.alert(INFO, ("TOUR-6",), "clock on seat %d: %d s + %d s countdown" % (
        seat, c.main_ms // 1000, c.countdown_ms // 1000), seat=seat)
    return True


def running(t):
    """The ActionClock still counting for the seat to act, else None."""
    c = t.action_clock
    if c is None or c.seat is None:
        return None
    if c.hand is not t.hand or _actor_seat(t) != c.seat:
        return None  # the seat acted, was killed, or the hand ended: the clock is off
    return c


def tick(t, now_ms):
    """Table.clock_tick: the countdown warning, then the expiry and its ruling (hr.clock): a bet
    pending, or legacy_60_10: the hand is dead (Hand.kill, as a floor kill); no bet pending under
    tda2019: a check. An action entered before this tick stopped the clock (it stands, TOUR-6)."""
    c = running(t)
    if c is None:
        t.action_clock = None
        return False
    if now_ms < c._start_ms:
        # the board restarted and its ms counter began again: the time lost in the outage is not
        # known, so the seat gets its full time from now (the table's fault is not the player's)
        c.start(c.seat, now_ms, c.facing_bet)
        t.alert(WARN, ("TOUR-6",), "clock on seat %d restarted after a power cut" % c.seat, seat=c.seat)
        return True
    for f in c.poll(now_ms):
        if f.kind == "clock_countdown":
            t.alert(WARN, ("TOUR-6",), "seat %d: %d s left" % (c.seat, c.countdown_ms // 1000),
                    "count down aloud", seat=c.seat)
        else:
            _expire(t, c.seat, f.detail["result"])
    return True


def _expire(t, seat, result):
    t.action_clock = None
    if result == "check" and t.act(seat, "check") is not None:
        t.alert(WARN, ("TOUR-6",), "seat %d's time expired: check" % seat, seat=seat)
        return
    from felt import table_rulings

    try:
        table_rulings.kill(t, seat, "TOUR-6", "time expired")
    except RuleError as e:
        t.rule_alert(e)
        return
    t.alert(WARN, ("TOUR-6",), "seat %d's time expired: the hand is dead" % seat, "muck seat %d's cards" % seat,
            seat=seat)


def left_text(t, now_ms):
    """'S4 CLOCK 0:27' for the display, or None."""
    c = running(t)
    if c is None or now_ms is None:
        return None
    ms = c.remaining_ms(now_ms)
    s = (ms + 999) // 1000
    return "S%d CLOCK %d:%02d" % (c.seat, s // 60, s % 60)
