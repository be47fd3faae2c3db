# Out-of-turn actions at the table (controller layer, part of felt.table.controller.Table's console entries,
# loaded on the first out-of-turn entry): a console action for a seat that is not to act goes to the
# engine's out-of-turn code (engine/outofturn.py, Hand.out_of_turn) and is held as a proposal naming
# BET-39 while the action stays on the seat to act; when the action reaches the held seat it binds
# or is released as BET-39/40 say under hr.oot_mode; enough out-of-turn action behind a skipped
# seat takes its turn as BET-41 says under hr.skipped_player_forfeit; a confirmed out-of-turn fold
# kills the hand at once (BET-43). Every step is a consequence of a journaled console entry.
from felt.errors import RuleError
from felt.table.alerts import CONFIRMED, INFO, LAPSED, PROPOSED, REJECTED, WARN

VERBS = ("fold", "check", "call", "bet", "raise", "allin")
_CHIPS = ("call", "bet", "raise")


class Held:
    """One held out-of-turn action: seat, engine position p, action (outofturn.OOT_ACTIONS),
    amount (street total for bet/raise), the engine Finding, the proposal alert, and `bound` once
    BET-41 made it binding whatever happens before its turn."""

    def __init__(self, seat, p, action, amount, finding, alert):
        self.seat = seat
        self.p = p
        self.action = action
        self.amount = amount
        self.finding = finding
        self.alert = alert
        self.bound = False


def applies(t, p, verb):
    """True when an entry of `verb` for position p is an out-of-turn action to hold (the betting is
    open, p holds a live hand that may still act, and another seat is to act)."""
    h = t.hand
    if verb not in VERBS or h.actor is None or p == h.actor or h.finished:
        return False
    return h.live[p] and not h.mucked[p] and h.stacks[p] > 0


def _action_of(h, p, verb, amount):
    # console verb -> (OOT action, street total); an all-in is a raise to the whole stack when it is
    # more than the current high, else a call
    if verb == "allin":
        total = h.bets[p] + h.stacks[p]
        if total > h.round.high:
            return ("bet" if h.round.high == 0 else "raise"), total
        return "call", _to_call(h, p)
    if verb in ("bet", "raise"):
        if amount is None:
            raise RuleError("BET-8", "%s needs the new total for the street" % verb)
        return verb, amount
    if verb == "call":
        return verb, _to_call(h, p)
    return verb, 0


def _to_call(h, p):
    # the chips an out-of-turn call puts in (what outofturn records as its amount)
    c = h.round.high - h.bets[p]
    return c if c < h.stacks[p] else h.stacks[p]


def push_action(h, p, chips, said, amount):
    """A chip push (BET-8..17) out of turn as an action to hold: what was said first, else the
    chips: more than the current high is a raise (bet) to that total, else a call."""
    if said in ("fold", "check", "call"):
        return said, None
    if said == "all_in":
        return "allin", None
    if amount is not None and said in ("raise", "bet"):
        total = amount  # BET-8: the new total for the street
    else:
        total = h.bets[p] + (amount if amount is not None else sum(chips or ()))  # BET-33
    if total > h.round.high:
        return ("bet" if h.round.high == 0 else "raise"), total
    return "call", None


def string_bet(t, seat, p, said, chips):
    """BET-36: chips pushed by the seat that just acted, with nothing declared first, are a second
    motion -- a string bet: only the first motion counts and these chips go back. True when refused
    (alerted); with hr.two_motion_raise the second motion of a declared raise is read by BET-10 at
    the first push already, so it is refused the same way."""
    h = t.hand
    if said is not None or not h.log:
        return False
    last = h.log[-1]
    if last.position != p or last.kind not in ("call", "check", "bet", "raise", "complete"):
        return False
    t.alert(WARN, ("BET-36",), "string bet: seat %d went back to its stack for %d more after its %s" % (
        seat, sum(chips or ()), last.kind), "only the first motion counts: seat %d's %s stands; return the %d" % (
        seat, last.kind, sum(chips or ())), seat=seat)
    return True


def dealer_error(t, seat):
    """Console `mark SEAT dealer_error`: the dealer prompted the seat's held out-of-turn action
    (BET-42): once the true action is known it may change it, and its chips come back if it folds.
    True when a held action was marked."""
    for held in t.oot:
        if held.seat == seat and held.alert.status in (PROPOSED, CONFIRMED) and not held.finding.detail.get("done"):
            held.finding.detail["dealer_prompted"] = True
            if "BET-42" not in held.alert.rules:
                held.alert.rules = held.alert.rules + ("BET-42",)
            held.alert.remedy = ("the dealer prompted seat %d: once the true action is known it may change its %s "
                                 "while the next player has not acted; its chips come back if it then folds" % (
                                     seat, held.action))
            t.log("seat %d's out-of-turn %s was prompted by the dealer (BET-42)" % (seat, held.action))
            return True
    return False


def entry(t, seat, p, verb, amount):
    """Console `verb` for `seat` (position p) out of turn. Returns the proposal alert (the entry is
    accepted: held) or None with an alert naming the rule."""
    h = t.hand
    for held in t.oot:
        if held.p == p and held.alert.status in (PROPOSED, CONFIRMED):
            t.alert(WARN, ("BET-39",), "%s by seat %d rejected: seat %d's out-of-turn %s (alert #%d) is already "
                    "held" % (verb, seat, seat, held.action, held.alert.id), seat=seat)
            return None
    try:
        action, total = _action_of(h, p, verb, amount)
        f = h.out_of_turn(p, action, total)
    except RuleError as e:
        t.rule_alert(e, "%s by seat %d" % (verb, seat))
        return None
    a = t.alert(WARN, f.rules, f.text, f.remedy, seat=seat, status=PROPOSED)
    held = Held(seat, p, action, total, f, a)
    t.oot.append(held)
    t.log("seat %d %s held out of turn (BET-39, alert #%d)" % (seat, action, a.id))
    _skipped_check(t, f.detail["actor"])
    follow(t)
    return a


def _behind(t, actor):
    # the held actions made while `actor` was to act and passed over (BET-41), oldest first
    out = []
    for held in t.oot:
        d = held.finding.detail
        if held.alert.status in (PROPOSED, CONFIRMED) and d["actor"] == actor and actor in d["skipped"] \
                and d["street"] == t.hand.street:
            out.append(held)
    return out


def _forfeit_reached(rules, acts):
    # BET-41: the out-of-turn actions behind the skipped player that take away its turn
    how = rules.skipped_player_forfeit
    n = len(acts)
    if how == "two_actions":
        return n >= 2
    if how == "three_players":
        return n >= 3
    chips = 0  # "sa": substantial action as DEAL-6 defines it
    for held in acts:
        if held.action in _CHIPS:
            chips += 1
    if rules.sa_definition == "two_actions":
        return n >= 2
    return n >= 3 or (n >= 2 and chips >= 1)


def _skipped_check(t, actor):
    h = t.hand
    if h.actor != actor or actor in t.oot_forfeited:
        return
    acts = _behind(t, actor)
    if not acts or not _forfeit_reached(h.rules, acts):
        return
    t.oot_forfeited[actor] = True
    seat = t.setup.seats[actor]
    for held in acts:
        held.bound = True  # BET-41: the out-of-turn actions are binding now
    behind = ", ".join("seat %d %s" % (held.seat, held.action) for held in acts)
    how = h.rules.skipped_player_forfeit
    lg = h.legal()
    if h.rules.mode == "cash" and lg is not None and lg.call == 0:
        # cash: no bet pending -- the engine records a check for the skipped player (BET-41)
        t.alert(INFO, ("BET-41",), "seat %d was passed over (%s behind it, hr.skipped_player_forfeit = %s): "
                "it loses the right to act" % (seat, behind, how), "seat %d checks; the out-of-turn actions stand" %
                seat, seat=seat)
        op = t._engine_act(h, actor, "check", None)
        t._acted(seat, "check", None, op)
        return
    t.alert(WARN, ("BET-41",), "seat %d was passed over and %s happened behind it (hr.skipped_player_forfeit = "
            "%s)" % (seat, behind, how), "the out-of-turn actions are binding; the floor decides seat %d's hand: "
            "`kill %d`, or enter its action limited to check, call or fold" % (seat, seat), seat=seat,
            status=PROPOSED)


def follow(t):
    """After any action: held actions of an ended street lapse; a held action whose turn has
    come binds or is released (BET-39/40, BET-41 when bound)."""
    if t.oot_busy:
        return
    t.oot_busy = True
    try:
        for _ in range(2 * t.hand.n + 2):
            if not _step(t):
                break
    finally:
        t.oot_busy = False


def _step(t):
    h = t.hand
    for held in t.oot:
        if held.alert.status not in (PROPOSED, CONFIRMED) or held.finding.detail.get("done"):
            continue
        if h.finished or h.street != held.finding.detail["street"] or not h.live[held.p]:
            _close(held, LAPSED, "the betting round ended before seat %d's turn" % held.seat)
            continue
        if h.actor == held.p:
            _turn(t, held)
            return True
    return False


def _close(held, status, why):
    held.finding.detail["done"] = True
    if held.alert.status == PROPOSED:
        held.alert.status = status
    held.alert.remedy = why


def _turn(t, held):
    from felt.engine.hand import out_of_turn as outofturn

    h = t.hand
    seat = held.seat
    if held.bound:
        kind, what = "binding", held.action
    else:
        kind, what = outofturn.oot_ruling(h, held.finding)
    if kind == "void":
        _close(held, LAPSED, "released: a bet or raise came before seat %d's turn" % seat)
        held.alert.status = LAPSED
        t.alert(INFO, ("BET-39",), "seat %d's out-of-turn %s is void: the action changed before its turn" % (
            seat, held.action), "return its chips; seat %d has every option" % seat, seat=seat)
        return
    if kind == "call_or_fold":
        # club_chips_stay: the chips put in out of turn stay in the pot (folding forfeits them); an
        # out-of-turn check may now only call or fold (BET-40)
        if held.action in ("bet", "raise"):
            what -= h.bets[held.p]  # the street total less what was in front before: the chips put in
        _close(held, LAPSED, "the action changed: seat %d decides again" % seat)
        held.alert.status = LAPSED
        t.oot_limits[held.p] = (what, held.action == "check")
        rules = ("BET-39", "BET-40") if held.action == "check" else ("BET-39",)
        t.alert(INFO, rules, "the action changed before seat %d's turn (hr.oot_mode = club_chips_stay)" % seat,
                ("seat %d may call or fold (it checked out of turn)" % seat) if held.action == "check" else
                ("seat %d's %d stays in the pot: it may call, raise, or fold and lose it" % (seat, what)), seat=seat)
        return
    verb = "fold" if kind == "fold" else what
    amount = held.amount if verb in ("bet", "raise") else None
    try:
        op = t._engine_act(h, held.p, verb, amount)
    except RuleError as e:
        _close(held, LAPSED, "could not be applied: %s" % e.message)
        held.alert.status = LAPSED
        t.rule_alert(e, "seat %d's held %s" % (seat, held.action))
        return
    _close(held, CONFIRMED, "bound at seat %d's turn (%s)" % (seat, "BET-41" if held.bound else "BET-39"))
    held.alert.status = CONFIRMED
    t.log("seat %d's out-of-turn %s binds at its turn" % (seat, verb))
    t._acted(seat, verb, amount, op)


def in_turn(t, seat, p, verb):
    """An in-turn entry of a seat with a club_chips_stay limit (BET-39/40). Returns False (refused,
    alerted) or True; a fold first forfeits the chips put in out of turn."""
    lim = t.oot_limits.get(p)
    if lim is None:
        return True
    chips, checked = lim
    if checked and verb in ("bet", "raise", "complete"):
        t.alert(WARN, ("BET-40",), "%s by seat %d rejected: it checked out of turn, so it may only call or fold" % (
            verb, seat), seat=seat)
        return False
    if verb == "fold" and chips:
        forfeit(t, seat, p, chips)
    del t.oot_limits[p]
    return True


def forfeit(t, seat, p, chips):
    """BET-39 club_chips_stay: chips put in out of turn stay in the pot when the player folds
    (dead money, POT-17); journaled for a rebuild (Table._engine_act 'forfeit')."""
    forfeit_chips(t.hand, p, chips)
    t.hand_inputs.append(("act", seat, "forfeit", chips))
    t.alert(INFO, ("BET-39",), "seat %d folds: its %d put in out of turn stays in the pot" % (seat, chips), seat=seat)


def forfeit_chips(h, p, chips):
    if chips > h.stacks[p]:
        chips = h.stacks[p]
    h.stacks[p] -= chips
    h.dead_posted[p] += chips
    h.dead_money += chips
    return chips


def ruled(t, a, accept):
    """The dealer's confirm / reject of an out-of-turn proposal: a confirmed fold kills the hand now
    (BET-43); another confirmed action stays held until its turn; a rejected one is dropped. The
    BET-41 proposal: confirm = the floor rules the skipped hand dead (killed now), reject = it plays
    on (the dealer enters its action)."""
    held = None
    for x in t.oot:
        if x.alert is a:
            held = x
    if held is None:
        if "BET-41" not in a.rules or a.seat is None:
            return False
        if not accept:
            a.status = REJECTED
            t.log("alert #%d rejected: seat %d plays on (BET-41)" % (a.id, a.seat))
            return True
        from felt.table import rulings as table_rulings

        try:
            table_rulings.kill(t, a.seat, "BET-41", "passed over by out-of-turn action")
        except RuleError as e:
            t.rule_alert(e)
            return False
        a.status = CONFIRMED
        follow(t)
        return True
    if not accept:
        a.status = REJECTED
        held.finding.detail["done"] = True
        t.log("alert #%d rejected: seat %d's out-of-turn %s is dropped" % (a.id, held.seat, held.action))
        return True
    if held.action == "fold":
        from felt.table import rulings as table_rulings

        a.status = CONFIRMED
        held.finding.detail["done"] = True
        try:
            table_rulings.kill(t, held.seat, "BET-43", "folded out of turn")
        except RuleError as e:
            t.rule_alert(e)
            return False
        return True
    a.status = CONFIRMED
    t.log("alert #%d confirmed: seat %d's out-of-turn %s is held for its turn" % (a.id, held.seat, held.action))
    follow(t)
    return True


def show16(t, seat, p):
    """SHOW-16: the seat that bet threw its hand on the muck while an opponent is still to act. The
    dealer holds the cards and calls the floor: the tag log identifies them, so they may play on.
    A proposal: confirm = the floor rules the hand dead (killed now: its uncalled bet comes back,
    DEAL-36; called chips stay), reject = the cards play on (put them back on the seat's antenna)."""
    t.show16[seat] = True
    h = t.hand
    t.alert(WARN, ("SHOW-16",), "seat %d threw its hand on the muck after betting while %s is still in" % (
        seat, h.who(h.actor)), "hold the cards and call the floor: the table's tag log identifies seat %d's cards; "
        "confirm = the hand is dead (its uncalled bet comes back), reject = they play on: put them back on seat "
        "%d's antenna" % (seat, seat), seat=seat, status=PROPOSED)


def show16_ruled(t, a, accept):
    if not accept:
        a.status = REJECTED
        t.log("alert #%d rejected: seat %d's hand plays on (SHOW-16)" % (a.id, a.seat))
        return True
    from felt.table import rulings as table_rulings

    try:
        table_rulings.kill(t, a.seat, "SHOW-16", "mucked believing it had won")
    except RuleError as e:
        t.rule_alert(e)
        return False
    a.status = CONFIRMED
    return True
