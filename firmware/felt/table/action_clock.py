# The clock on a player at the table (controller layer, part of felt.table.controller.Table, imported on first
# use): the floor's `floor clock SEAT` starts engine.clock.ActionClock on the seat to act (TOUR-6);
# the runtime loop, the only place that knows time, calls Table.clock_tick(now_ms) when the countdown
# or the expiry is due (journaled, so a power cut replays it once); the expiry is applied here.
# A cash table with hr.cash_action_timer = N s times every turn the same way (CASH-13): the expiry
# is a proposal the dealer confirms (the hand is dead) or rejects (the player acts on).
from felt.engine.between_hands.clocks import ActionClock
from felt.engine.house.rules import CASH
from felt.errors import RuleError
from felt.table.alerts import CONFIRMED, INFO, LAPSED, PROPOSED, REJECTED, WARN
from felt.table.state import BETTING, PLAYING


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
    c.proposal = None
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


def due(t, now_ms):
    """The loop, each step (a clock on a seat, or a cash table with hr.cash_action_timer): True when
    Table.clock_tick(now_ms) has work -- a countdown or expiry, a restarted board, a clock left over
    from a finished turn, or a cash turn with no timer yet (CASH-13). Each tick is journaled."""
    c = running(t)
    if c is None:
        return t.action_clock is not None or _actor_seat(t) is not None
    if now_ms < c._start_ms and not c._expired:
        return True  # (the board restarted)
    d = c.next_due_ms()
    return d is not None and now_ms >= d


def _lapse(c):
    a = c.proposal if c is not None else None
    if a is not None and a.status == PROPOSED:
        a.status = LAPSED  # CASH-13: the player acted (or the turn ended) before the dealer ruled
        a.remedy = "seat %d is no longer to act" % c.seat


def _start_cash(t, now_ms):
    # CASH-13: a turn began; its timer starts at the loop's now (the table reads no clock)
    seat = _actor_seat(t)
    if seat is None or t.config.mode != CASH or t.config.house.cash_action_timer == "off":
        return False
    lg = t.hand.legal()
    c = ActionClock(t.config.house)
    c.start(seat, now_ms, bool(lg.call or lg.bring_in))
    c.hand = t.hand
    c.proposal = None
    t.action_clock = c
    return True


def tick(t, now_ms):
    """Table.clock_tick: the countdown warning, then the expiry and its ruling (hr.clock): a bet
    pending, or legacy_60_10: the hand is dead (Hand.kill, as a floor kill); no bet pending under
    tda2019: a check. An action entered before this tick stopped the clock (it stands, TOUR-6).
    Cash (CASH-13): a new turn starts its timer; the expiry proposes the kill (_propose)."""
    c = running(t)
    if c is None:
        _lapse(t.action_clock)
        t.action_clock = None
        return _start_cash(t, now_ms)
    rule = "CASH-13" if t.config.mode == CASH else "TOUR-6"
    if now_ms < c._start_ms:
        if c._expired:
            return False  # the expiry was ruled on (or waits for the dealer): not again
        # the board restarted and its ms counter began again: the time lost in the outage is not
        # known, so the seat gets its full time from now (the table's fault is not the player's)
        c.start(c.seat, now_ms, c.facing_bet)
        t.alert(WARN, (rule,), "clock on seat %d restarted after a power cut" % c.seat, seat=c.seat)
        return True
    for f in c.poll(now_ms):
        if f.kind == "clock_countdown":
            t.alert(WARN, ("TOUR-6",), "seat %d: %d s left" % (c.seat, c.countdown_ms // 1000),
                    "count down aloud", seat=c.seat)
        elif rule == "CASH-13":
            c.proposal = t.alert(WARN, ("CASH-13",), "seat %d's time ran out: kill the hand?" % c.seat,
                                 "confirm: seat %d's hand is dead; reject: the player acts on" % c.seat,
                                 seat=c.seat, status=PROPOSED)
        else:
            _expire(t, c.seat, f.detail["result"])
    return True


def ruled(t, a, accept):
    """Table.ruling on a CASH-13 proposal: confirm kills the hand (table_rulings.kill, as a floor
    kill); reject lets the player act on (no new timer this turn). A proposal whose turn is over
    has lapsed."""
    c = running(t)
    if c is None or c.proposal is not a:
        a.status = LAPSED
        t.alert(WARN, ("CASH-13",), "proposal #%d lapsed: the seat is no longer to act" % a.id)
        return False
    if not accept:
        a.status = REJECTED
        t.log("alert #%d %s" % (a.id, a.status))
        return True
    from felt.table import rulings as table_rulings

    try:
        table_rulings.kill(t, c.seat, "CASH-13", "time ran out")
    except RuleError as e:
        t.rule_alert(e)
        return False
    a.status = CONFIRMED
    t.log("alert #%d %s" % (a.id, a.status))
    t.action_clock = None
    return True


def _expire(t, seat, result):
    t.action_clock = None
    if result == "check" and t.act(seat, "check") is not None:
        t.alert(WARN, ("TOUR-6",), "seat %d's time expired: check" % seat, seat=seat)
        return
    from felt.table import rulings as table_rulings

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
