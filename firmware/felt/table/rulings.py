# Rare console rulings and floor commands on the table (controller layer, part of felt.table.controller.Table,
# imported on first use to keep the heap small): a dealer/floor kill of a hand (DEAL-36..39), a
# declared misdeal (DEAL-14/15), blind postings (BLIND-2/14/15/16/20/25), recorded floor decisions,
# penalties the table counts down (TOUR-17, served as BLIND-23 seats), and the floor-key commands'
# table entry points (void a hand, adjust a stack, change the level or the structure). Each function
# takes the Table; an illegal entry raises a RuleError/ConfigError naming the rule, before anything
# changes.
from felt.engine.between_hands import blinds as btn
from felt.engine import games
from felt.engine.dealing import check as dealing
from felt.engine.house import rules as settings
from felt.errors import ConfigError, RuleError
from felt.table.alerts import INFO, PROPOSED
from felt.table.state import PLAYING, SHOWDOWN, VOID

KILL_RULE = "DEAL-38"  # dead-hand conditions: the default rule a kill cites
# post kinds -> the engine Post kinds that satisfy them during a hand, and the rule each names
POST_KINDS = {"sb": ((btn.SB,), "BLIND-2"), "bb": ((btn.BB, btn.POST_BB), "BLIND-2"),
              "straddle": ((btn.STRADDLE,), "BLIND-20"), "ante": ((btn.ANTE,), "GAME-17"),
              "makeup": ((btn.POST_BB, btn.DEAD_SB), "BLIND-14"), "dead": ((btn.DEAD,), "BLIND-25"),
              "wait": ((), "BLIND-15")}
# floor decisions the console may only give with the floor key (hardware/security.md section 5)
NEEDS_KEY = ("void", "stack", "level", "structure", "delay", "deck")


def _hand_on(t, what):
    if t.state != PLAYING:
        raise RuleError("GAME-6", "%s: no hand is in progress" % what)


def _seat_in(t, seat, what):
    p = t.position(seat)
    if p is None:
        raise RuleError("DEAL-5", "%s: seat %d is not dealt in" % (what, seat), legal=tuple(t.setup.seats))
    return p


# ---- kill (DEAL-36..39, SHOW-13) ---------------------------------------------------------------

def kill(t, seat, rule=None, text=None):
    """The dealer/floor kills seat's hand (a ruling: DEAL-38 by default, or the rule given, e.g.
    DEAL-36 for a hand the dealer mucked by mistake). The hand is dead at once, in or out of turn
    (Hand.kill): a bet or raise of the seat's that nobody has called yet is returned now (DEAL-36),
    the others act as if it had folded, and with one live hand left the hand ends (GAME-6). It
    gets no more cards (DEAL-44). The table refuses a kill with no hand, of a seat not dealt in,
    of a dead hand, of a tabled hand (SHOW-13) and of the last live hand (GAME-6)."""
    rule = rule or KILL_RULE
    what = "kill seat %d" % seat
    _hand_on(t, what)
    p = _seat_in(t, seat, what)
    h = t.hand
    if h.shown[p]:
        raise RuleError("SHOW-13", "%s: a tabled hand cannot be killed" % what)
    if not h.live[p] or seat in t.killed or h.mucked[p]:
        raise RuleError("DEAL-38", "%s: the hand is dead already" % what)
    live = 0
    for q in range(h.n):
        if h.live[q] and not h.mucked[q]:
            live += 1
    if live <= 1:
        raise RuleError("GAME-6", "%s: it is the last live hand" % what)
    try:
        h.check_kill(p)  # the engine's own refusals (GAME-11: the bring-in is posted first)
    except RuleError as e:
        raise RuleError(e.rule, "%s: %s" % (what, e.message), legal=e.legal)
    op = h.kill(p)
    t.killed[seat] = rule
    t.hand_inputs.append(("act", seat, "kill", None))  # _rebuild replays it (Table._engine_act)
    note = (": " + text) if text else ""
    t.log("kill seat %d (%s)%s" % (seat, rule, note))
    back = op.amount if op is not None else 0
    remedy = "muck seat %d's cards" % seat
    if back:
        # DEAL-36: the uncalled part of the killed hand's bet or raise goes back to it now
        remedy += "; return seat %d's uncalled %d (DEAL-36)" % (seat, back)
        t.log("seat %d's uncalled %d is returned (DEAL-36)" % (seat, back))
    t.alert(INFO, (rule,), "seat %d's hand is dead%s" % (seat, note), remedy, seat=seat)
    if t.dc.phase not in (dealing.MISDEALT, dealing.VOID, dealing.OVER):
        t._dc(t.dc.kill, seat, rule)  # no more cards to the seat (DEAL-44)
    t._sync()
    return True


def kill_dead(t, rule):
    """A confirmed dealing-check ruling killed hands (DEAL-20/25/39: dc.live lost their seats): the
    engine Hand kills them too, at once (Hand.kill: DEAL-36 returns an uncalled bet), journaled
    like a console kill. A hand the Hand may not kill (the last live one, GAME-6) is left alone."""
    h = t.hand
    for p in range(h.n):
        seat = t.setup.seats[p]
        if seat in t.dc.live or not h.live[p] or h.mucked[p] or h.finished:
            continue
        if not h.can_kill(p):
            continue
        h.kill(p)
        t.killed[seat] = rule
        t.hand_inputs.append(("act", seat, "kill", None))
        t.log("seat %d's hand is dead (%s)" % (seat, rule))


def absent_stud(t):
    """BLIND-23 in stud, once the initial deal is complete (the Hand is betting): if an absent or
    penalised seat holds the bring-in card, the table posts the bring-in for it -- the bring-in
    amount only, never a completion (GAME-11; TDA04 item 8: the absent player's minimum bet is
    made) -- journaled like the seat's own post; then every absent seat still live is killed
    (kill_dead: Hand.kill, which GAME-11 refuses for the bring-in seat until it has posted)."""
    h = t.hand
    dead = t.dc.plan.dead
    pending = False
    for seat in dead:
        p = t.position(seat)
        if p is not None and h.live[p] and not h.mucked[p]:
            pending = True
    if not pending:
        return
    if h.round.bring_in_due and h.opener is not None and t.setup.seats[h.opener] in dead:
        seat = t.setup.seats[h.opener]
        op = h.post_bring_in(h.opener)
        t.hand_inputs.append(("act", seat, "bringin", None))  # _rebuild replays it (Table._engine_act)
        if t.dc.phase not in (dealing.MISDEALT, dealing.VOID, dealing.OVER):
            t._dc(t.dc.action, seat, "bring_in", op.amount)
        t.log("seat %d is absent: the bring-in of %d is posted for it (BLIND-23)" % (seat, op.amount))
        t.alert(INFO, ("BLIND-23",), "seat %d is absent and holds the bring-in card: the bring-in of %d is posted "
                "for it and its hand is dead" % (seat, op.amount),
                "put %d of seat %d's chips in as the bring-in and muck its cards" % (op.amount, seat), seat=seat)
    kill_dead(t, "BLIND-23")


# ---- misdeal (DEAL-14, DEAL-15) ----------------------------------------------------------------

def misdeal(t, rule=None, text=None):
    """The dealer declares a misdeal. Before substantial action only (DEAL-15); then DEAL-14: all
    cards back, the same button and blinds, the same seats, the hand dealt again. A pending
    misdeal proposal is confirmed instead (same remedy)."""
    _hand_on(t, "misdeal")
    dc = t.dc
    for a in t.alerts:
        if a.status == PROPOSED and a.finding is not None and dc.findings[a.finding - 1].misdeal:
            return t.ruling(a.id, True)
    if dc.phase in (dealing.MISDEALT, dealing.VOID, dealing.OVER) or t.hand.finished:
        raise RuleError("GAME-6", "misdeal: the hand is over")
    if dc.sa:
        raise RuleError("DEAL-15", "misdeal refused: substantial action has occurred; the hand continues "
                        "(only a fouled deck voids it, DEAL-18)")
    t.alert(INFO, (rule or "DEAL-14",), "misdeal declared%s: collect all cards and redeal; the button stays on "
            "seat %d" % ((" (" + text + ")") if text else "", t.setup.button),
            "every bet is returned and the blinds are posted again (DEAL-14)")
    t._redeal()
    return True


# ---- posting (BLIND-2, 14, 15, 16, 20, 25; GAME-17) -------------------------------------------

def _makeup_amount(t, rec):
    cfg = t.config
    how = cfg.house.get("missed_blind_makeup")
    if how == "bb_only" or rec.status == btn.NEW:
        return cfg.bb
    if rec.missed_bb:
        return cfg.bb + cfg.sb
    return cfg.bb if how == "s0_penalty_literal" else cfg.sb


def _next_setup(t, seat, rec):
    # The next hand as it would start now (button.next_hand on the seat records as they stand,
    # busted seats empty, `seat` with record `rec`); raises the engine's RuleError
    cfg = t.config
    recs = []
    for s in range(1, cfg.seats + 1):
        r = t._rec(s).copy(straddle=False)
        if t.stacks[s - 1] <= 0 and r.status != btn.EMPTY and t.state != PLAYING:
            r = btn.Seat()  # busted: empty from the next hand (Table.new_hand)
        recs.append(r)
    recs[seat - 1] = rec
    blinds = cfg.record.forced == "blinds"
    prev = t.setup if t.state == PLAYING else t.prev
    return btn.next_hand(recs, prev=prev, button=cfg.button, sb=cfg.sb if blinds else 0, bb=cfg.bb if blinds else 1,
                         ante=cfg.ante if blinds else 0, mode=cfg.mode, rules=cfg.house)


def _straddle_seat_check(t, seat, rec):
    # BLIND-20: only the seat immediately left of the next hand's big blind may straddle. The next
    # hand is worked out now (this request in, other requests out): an accepted request from
    # another seat would make that hand refuse to start for as long as it stood
    try:
        _next_setup(t, seat, rec.copy(straddle=True))
    except RuleError as e:
        if e.rule == "BLIND-20":
            raise RuleError("BLIND-20", "post straddle by seat %d: %s" % (seat, e.message), legal=e.legal)
        # any other reason the next hand cannot start yet (BLIND-12: one player) is for new_hand


def _entry_seat_check(t, seat, rec, kind, rule):
    # BLIND-16 (cash; BLIND-24 tournament; BLIND-15 for a returning player): a player posting to
    # come in is dealt in at once only if the seat is not on the button, the small blind or
    # between them in the next hand (engine/button.py _blocked). Such a seat waits until the
    # button has passed it, so the post is refused rather than answered "plays the next hand".
    try:
        nxt = _next_setup(t, seat, rec.copy(post=True))
    except RuleError:
        return  # the next hand cannot start yet for another reason (BLIND-12): new_hand says why
    if seat in nxt.seats:
        return
    # (the reply line has room for ~160 characters: keep it short)
    raise RuleError(rule, "post %s: seat %d is not dealt in next hand (button seat %s, SB seat %s); post once the "
                    "button passes it, or wait for the BB (BLIND-15)" % (kind, seat, nxt.button, nxt.sb_seat))


def post(t, seat, kind, amount=None):
    """`post SEAT KIND [AMOUNT]`. Blinds, antes and straddles are posted by the table when a hand
    starts (engine/button.py): during the hand a post of the seat is a cross-check of what the
    engine posted for it. A seat not dealt in (new, returning) chooses for the next hand: `bb` /
    `makeup` posts to play at once (BLIND-16/14), `wait` waits for the big blind (BLIND-15); an
    active seat asks to straddle (BLIND-20). Returns a text of what was done."""
    if kind not in POST_KINDS:
        raise RuleError("GAME-16", "post %s: unknown kind" % kind, legal=tuple(sorted(POST_KINDS)))
    if not 1 <= seat <= t.config.seats:
        raise RuleError("BLIND-2", "post: seat %d is not a seat of this table" % seat, legal=(1, t.config.seats))
    kinds, rule = POST_KINDS[kind]
    if t.state == PLAYING and t.position(seat) is not None:
        got = [p for p in t.setup.post_of(seat) if p.kind in kinds]
        if not got:
            raise RuleError(rule, "post %s by seat %d: the seat posts no %s this hand" % (kind, seat, kind))
        total = 0
        for p in got:
            total += p.amount
        if amount is not None and amount != total:
            raise RuleError(rule, "post %s by seat %d: the seat posted %d, not %d" % (kind, seat, total, amount),
                            legal=(total, total))
        return "seat %d posted %s %d" % (seat, kind, total)
    rec = t._rec(seat)
    if rec.status == btn.EMPTY:
        raise RuleError("BLIND-16", "post %s: seat %d is empty" % (kind, seat))
    if kind == "straddle":
        if t.config.house.get("straddle") != "utg_2x":
            raise RuleError("BLIND-20", "straddles are off (hr.straddle)")
        want = 2 * t.config.bb
        if amount is not None and amount != want:
            raise RuleError("BLIND-20", "a straddle is exactly 2 x BB = %d" % want, legal=(want, want))
        _straddle_seat_check(t, seat, rec)
        t._set_rec(seat, rec.copy(straddle=True))
        return "seat %d straddles the next hand" % seat
    if kind in ("bb", "makeup", "wait"):
        if rec.status in (btn.NEW, btn.BACK) and kind != "wait":
            rule = "BLIND-16" if rec.status == btn.NEW else "BLIND-14"
        if rec.status not in (btn.NEW, btn.BACK):
            raise RuleError(rule, "post %s: seat %d owes nothing to post (it is %s)" % (kind, seat, rec.status))
        if kind == "wait":
            t._set_rec(seat, rec.copy(post=False))
            return "seat %d waits for the big blind" % seat
        want = _makeup_amount(t, rec) if kind == "makeup" else t.config.bb
        if kind == "bb" and rec.status == btn.BACK and (rec.missed_sb or rec.missed_bb):
            raise RuleError("BLIND-14", "seat %d owes missed blinds: post makeup %d" % (seat, _makeup_amount(t, rec)))
        if amount is not None and amount != want:
            raise RuleError(rule, "post %s by seat %d is %d" % (kind, seat, want), legal=(want, want))
        if rec.status == btn.BACK:
            rule = "BLIND-15"  # a returning player also lets the SB and the button pass
        elif t.config.mode != settings.CASH:
            rule = "BLIND-24"
        _entry_seat_check(t, seat, rec, kind, rule)
        t._set_rec(seat, rec.copy(post=True))
        return "seat %d posts %d to play the next hand" % (seat, want)
    raise RuleError(rule, "post %s by seat %d: posted by the table when the hand starts" % (kind, seat))


# ---- chopping the blinds (BLIND-26, cash, hr.blind_chop = on) -----------------------------------

def chop_press(t, seat):
    """A seat button press during a hand by the small or the big blind once the action has folded
    to the small blind (cashrules.check_chop): the first press offers to chop, the other blind's
    press agrees -- the blinds go back and the hand ends with no pot (cashrules.chop_blinds),
    journaled like an action. False when the press is not about a chop (the caller logs it)."""
    from felt.engine.house import cash as cashrules

    h = t.hand
    p = t.position(seat)
    if p is None or not cashrules.can_chop(h):
        return False
    pair = cashrules.check_chop(h)
    if p not in pair:
        return False
    other = t.setup.seats[pair[1] if p == pair[0] else pair[0]]
    if t.chop_offer != (t.hand_no, other):
        t.chop_offer = (t.hand_no, seat)
        t.log("seat %d offers to chop the blinds; seat %d presses to agree (BLIND-26)" % (seat, other))
        return True
    t.chop_offer = None
    cashrules.chop_blinds(h)
    t.hand_inputs.append(("act", seat, "chop", None))  # _rebuild replays it (Table._engine_act)
    t.log("seats %d and %d chop the blinds (BLIND-26)" % (other, seat))
    t._sync()
    return True


# ---- the nut check (SHOW-19) -------------------------------------------------------------------

def nut_check(t, seat, p):
    """SHOW-19: p, the river's last actor in a high-only board game, checks or only calls. When p
    holds the exclusive nuts -- the best hand any two hole cards could make on this board, and no
    other live hand ties it (the device knows every card) -- hr.nut_check_last_to_act decides:
    flag_only logs "nut check seat N" for the floor (the action stands); require_bet refuses the
    action (an alert naming SHOW-19) and returns True: the player must bet or raise."""
    from felt.engine.rank import evaluate
    from felt.engine.cards import UNKNOWN
    from felt.engine.hand.showdown_record import nut_check as check, nut_value

    h = t.hand
    for q in range(h.n):
        if h.live[q] and UNKNOWN in h.hole[q]:
            return False  # a hand not read: the device cannot tell
    if h.game.hi == "omaha":
        value = evaluate.omaha_high
    elif h.game.hi == "high":
        def value(hole, board):
            return evaluate.high(hole + board)
    else:
        return False
    hi = [value(h.hole[q], h.board) if h.live[q] else None for q in range(h.n)]
    for q in range(h.n):
        if q != p and hi[q] is not None and hi[q] >= hi[p]:
            return False  # not alone at the top: the 1,081 holdings need not be tried
    got = check(p, True, True, hi, h.live, nut_value(h.board, value), h.rules.nut_check_last_to_act)
    if got == "flag":
        t.log("nut check seat %d (SHOW-19)" % seat)
        t.alert(INFO, ("SHOW-19",), "nut check seat %d: the last to act on the river holds the exclusive nuts "
                "and does not bet" % seat, "for the floor (hr.nut_check_last_to_act = flag_only)", seat=seat)
    elif got == "refuse":
        t.rule_alert(RuleError("SHOW-19", "seat %d holds the exclusive nuts last to act on the river: bet or "
                               "raise (hr.nut_check_last_to_act = require_bet)" % seat))
        return True
    return False


# ---- floor decisions (recorded; FLOOR class rulings) --------------------------------------------

def floor_decision(t, decision, seat=None, rule=None, amount=None, text=None, now_ms=None):
    """`floor DECISION [SEAT] [rule=] [amount=] ["text"]`: the device records the decision and applies
    its mechanical consequence: `kill` (a dead hand), `misdeal`, `clock` (TOUR-6, table_clock),
    `continue` (the TD releases a hand-for-hand hold, TOUR-10), `dead` (dead blinds owed, BLIND-25,
    posted with the seat's next hand), `penalty` with amount= (TOUR-17: counted down, give_penalty);
    anything else is recorded only. Commands that change money or the game outside play (NEEDS_KEY)
    are refused here: they need the floor key. now_ms: the loop's clock (timed penalties)."""
    if decision in NEEDS_KEY:
        raise RuleError(rule or "GAME-1", "floor %s needs the floor key: send challenge, then auth" % decision)
    if decision == "penalty" and give_penalty(t, seat, rule, amount, text, now_ms):
        return True
    if decision == "kill":
        if seat is None:
            raise RuleError("DEAL-38", "floor kill needs a seat")
        return kill(t, seat, rule, text)
    if decision == "misdeal":
        return misdeal(t, rule, text)
    if decision == "clock":  # TOUR-6: the clock on the seat to act, run by the loop's time
        from felt.table import action_clock as table_clock
        return table_clock.call(t, seat, now_ms)
    if decision == "continue":  # TOUR-10: the TD releases a hand-for-hand hold
        from felt.table import tournament
        return tournament.release_hold(t)
    if decision == "dead":
        if seat is None or not isinstance(amount, int) or amount <= 0:
            # the console wire sends no sign; a direct caller's negative amount would cancel debt
            raise RuleError("BLIND-25", "floor dead SEAT amount=CHIPS: dead blinds owed by a seat, more than 0")
        rec = t._rec(seat) if 1 <= seat <= t.config.seats else None
        if rec is None or rec.status == btn.EMPTY:
            raise RuleError("BLIND-25", "seat %d has no player to owe dead blinds" % seat)
        t._set_rec(seat, rec.copy(dead_owed=rec.dead_owed + amount))
    t.alert(INFO, (rule,) if rule else (), "floor decision: %s%s%s%s" % (
        decision, (" seat %d" % seat) if seat is not None else "", (" %d" % amount) if amount else "",
        (" -- " + text) if text else ""), seat=seat)
    return True


# ---- penalties (TOUR-17, BLIND-23) -------------------------------------------------------------

def _players_here(t):
    # TOUR-17: the players at the table when the penalty is given, the offender included
    n = 0
    for s in range(1, t.config.seats + 1):
        if t._rec(s).status != btn.EMPTY and t.stacks[s - 1] > 0:
            n += 1
    return n


def _left_text(unit, left):
    if unit == "minutes":
        return "%d min" % ((left + 59999) // 60000)
    return "%d hand%s" % (left, "" if left == 1 else "s")


def give_penalty(t, seat, rule, amount, text, now_ms):
    """`floor penalty SEAT amount=N`: a tournament penalty the table counts down (TOUR-17): N rounds
    = N x the players at the table now (hr.penalty_unit = hands), or N minutes from now_ms
    (minutes, TDA04). It starts with the next hand; a second one adds to the first. In cash,
    without amount=, it is recorded only (returns False: floor_decision records it); with amount=
    it is refused (TOUR-17 is a tournament rule). A tournament penalty without amount= is refused:
    the table would not count it, and a floor giving a penalty means it to be served."""
    if t.config.mode == settings.CASH:
        if amount is not None:
            raise RuleError("TOUR-17", "floor penalty: missed-hand penalties are a tournament rule; in cash the "
                            "decision is recorded only (leave out amount=)")
        return False
    unit = _penalty_check(t, seat, amount)
    pen = _penalty_book(t, unit)
    if unit == "hands":
        given = "%d round%s x %d players" % (amount, "" if amount == 1 else "s", _players_here(t))
        total = pen.give(seat, rounds=amount, players=_players_here(t))
    else:
        given = "%d min" % amount
        total = pen.give(seat, minutes=amount, now_ms=now_ms)
    t.penalties = pen
    t.log("seat %d penalty %s: %s to serve (TOUR-17)" % (seat, given, _left_text(unit, total)))
    t.alert(INFO, ("TOUR-17",) if rule in (None, "TOUR-17") else (rule, "TOUR-17"),
            "seat %d penalty %s: %s to serve from the next hand%s" % (
                seat, given, _left_text(unit, total), (" -- " + text) if text else ""),
            "seat %d is dealt in and its hand killed until it is served (BLIND-23)" % seat, seat=seat)
    return True


def _penalty_check(t, seat, amount):
    # the offender is a seated player; amount= says how many rounds or minutes. Returns the unit
    cfg = t.config
    unit = cfg.house.get("penalty_unit") or "hands"
    if seat is None or not 1 <= seat <= cfg.seats or t._rec(seat).status == btn.EMPTY or t.stacks[seat - 1] <= 0:
        raise RuleError("TOUR-17", "floor penalty: seat %s has no player" % (seat,), legal=(1, cfg.seats))
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise RuleError("TOUR-17", "floor penalty %d amount=%s: how many %s (hr.penalty_unit = %s)" % (
            seat, "ROUNDS" if unit == "hands" else "MINUTES", "rounds" if unit == "hands" else "minutes", unit),
            legal=(1, None))
    return unit


def _penalty_book(t, unit):
    # the table's Penalties (engine/clock.py, loaded with the first penalty) in hr.penalty_unit
    pen = t.penalties
    if pen is not None and pen.unit != unit and pen.seats():
        raise RuleError("TOUR-17", "floor penalty: penalties in %s are still served; hr.penalty_unit is %s now" % (
            pen.unit, unit))
    if pen is None or pen.unit != unit:
        from felt.engine.between_hands.clocks import Penalties
        pen = Penalties(unit)
    return pen


def serve_penalties(t, setup, now_ms):
    """new_hand(): the penalised seats dealt in join setup.absent (dealt in, pay, killed: BLIND-23)
    and their count goes down (TOUR-17; a redeal does not come here, DEAL-14). A penalised seat
    that is now empty -- its player busted out -- takes its penalty with it."""
    pen = t.penalties
    for seat in pen.seats():
        if t.seat_rec[seat - 1].status == btn.EMPTY:
            left = pen.drop(seat)
            t.alert(INFO, ("TOUR-17",), "seat %d is out with %s of its penalty unserved: the penalty ends" % (
                seat, _left_text(pen.unit, left)), seat=seat)
    before = pen.seats()
    seats = list(setup.seats)
    killed = pen.hand_started(now_ms, seats=seats)
    absent = list(setup.absent)
    for seat in killed:
        t.serving[seat] = pen.left(seat)
        if seats.index(seat) not in absent:
            absent.append(seats.index(seat))
    absent.sort()
    setup.absent = tuple(absent)
    for seat in before:
        if seat in killed:
            continue
        if pen.left(seat):
            t.log("seat %d is not dealt in: this hand does not count toward its penalty (TOUR-17)" % seat)
        else:
            t.alert(INFO, ("TOUR-17",), "seat %d has served its penalty time: it plays this hand" % seat, seat=seat)


def penalty_left_text(t, seat):
    """What seat, serving a penalty in this hand, has left after it (the BLIND-23 alert's words)."""
    left = t.serving[seat]
    if t.penalties.unit == "hands" and left == 0:
        return "the last hand of it, it plays from the next hand"
    return "%s left%s" % (_left_text(t.penalties.unit, left), " after this one" if t.penalties.unit == "hands" else "")


# ---- floor-key commands' entry points (security/floordesk.py calls these) ----------------------

def void_hand(t):
    """Void the hand in progress: nothing of it is settled, every bet goes back (the stacks are
    those before the hand), the button does not move (as a fouled-deck void, DEAL-18)."""
    _hand_on(t, "void")
    t.state = VOID
    t.alert(INFO, (), "hand %d is void by floor command: every bet is returned" % t.hand_no,
            "collect all cards; the next hand keeps the button")
    return "hand %d void: every bet returned" % t.hand_no


def adjust_stack(t, seat, chips):
    """Set a seat's stack between hands (CASH-4: chips change only between hands; CASH-1: more
    than 0). An empty seat is seated with it."""
    if not isinstance(seat, int) or not isinstance(chips, int) or not 1 <= seat <= t.config.seats:
        raise RuleError("CASH-1", "stack SEAT CHIPS: seat 1..%d and a whole number of chips" % t.config.seats)
    if t.state == PLAYING:
        raise RuleError("CASH-4", "a stack is adjusted between hands, not during hand %d" % t.hand_no)
    if chips <= 0:
        raise RuleError("CASH-1", "a stack must be more than 0 chips, got %d" % chips)
    if t.stacks[seat - 1] <= 0:
        t.sit(seat, chips)
    else:
        t.stacks[seat - 1] = chips
        t.log("seat %d stack set to %d by floor command" % (seat, chips))
    return "seat %d stack set to %d" % (seat, chips)


def _apply_level(t, n):
    row = t.config.levels[n - 1]
    cfg = t.config
    for k in ("sb", "bb", "ante", "small_bet", "big_bet", "bring_in"):
        setattr(cfg, k, row.get(k, 0))
    if cfg.record.structure == "limit" and cfg.small_bet <= 0:
        cfg.small_bet = cfg.bb
        cfg.big_bet = cfg.big_bet or 2 * cfg.small_bet
    cfg.level = n
    if t.level_clock is not None:  # TOUR-1: the level clock goes on at this level
        t.level_clock.follow(n, cfg.levels)


def set_level(t, n):
    """The blind level `n` (1-based row of config.levels). TOUR-1: a new level applies from the next
    hand to start, so during a hand it is staged for new_hand."""
    levels = t.config.levels
    if not levels:
        raise ConfigError("TOUR-1: this table has no level table (TableConfig levels=)")
    if not isinstance(n, int) or not 1 <= n <= len(levels):
        raise RuleError("TOUR-1", "level %r does not exist" % (n,), legal=(1, len(levels)))
    row = levels[n - 1]
    if row.get("bb", 0) <= 0 and t.config.record.forced == "blinds":
        raise ConfigError("BLIND-12: level %d has no big blind" % n)
    if t.state == PLAYING:
        t.staged["level"] = n
        return "level %d from the next hand" % n
    _apply_level(t, n)
    t.log("level %d: %d/%d ante %d" % (n, t.config.sb, t.config.bb, t.config.ante))
    return "level %d now (%d/%d ante %d)" % (n, t.config.sb, t.config.bb, t.config.ante)


def set_structure(t, structure):
    """The betting structure (no_limit, pot_limit, limit) of the game in play, from the next hand
    (as a level change, TOUR-1); ConfigError (GAME-1) when the game has no such structure."""
    cfg = t.config
    record = games.game_for(cfg.game, str(structure))  # ConfigError GAME-1: nothing changes
    if record.structure == "limit" and cfg.small_bet <= 0 and cfg.bb <= 0:
        raise ConfigError("BET-1: limit needs a small bet (bb= or small_bet=)")
    if t.state == PLAYING:
        t.staged["structure"] = structure
        return "structure %s from the next hand" % structure
    cfg.structure = structure
    cfg.record = record
    if record.structure == "limit" and cfg.small_bet <= 0:
        cfg.small_bet = cfg.bb
    if record.structure == "limit" and cfg.big_bet <= 0:
        cfg.big_bet = 2 * cfg.small_bet
    t.log("structure %s" % structure)
    return "structure %s now" % structure


def apply_staged(t):
    """new_hand(): level and structure changes made during the last hand take effect (TOUR-1)."""
    staged = t.staged
    t.staged = {}
    if "structure" in staged:
        set_structure(t, staged["structure"])
    if "level" in staged:
        set_level(t, staged["level"])
