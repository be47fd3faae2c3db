# Counts a player asks the dealer for (controller layer, part of felt.table.controller.Table's console entries,
# loaded on the first request): the pot count (BET-26, hr.public_pot_display) and the count of an
# opponent's stack (BET-48, hr.stack_display). The status display always shows the dealer the pot
# and the pot-limit maximum; what is published in answer to a player's request -- the console
# reply and the display's public line -- follows the house rule. A refusal names the rule.
from felt.errors import RuleError


def _playing(t, what):
    h = t.hand
    if t.state != "playing" or h is None or h.finished:
        raise RuleError("GAME-6", "%s: no hand is in progress" % what)
    return h


def _asker(t, h, asker, what):
    if asker is None:
        if h.actor is None:
            raise RuleError("GAME-2", "%s: nobody is to act" % what)
        return h.actor
    p = t.position(asker)
    if p is None or not h.live[p]:
        raise RuleError("BET-48" if what.startswith("count") else "BET-26",
                        "%s: seat %d holds no live hand" % (what, asker))
    return p


def pot_count(t, asker=None):
    """BET-26: the player to act (asker: its seat, default the seat to act) asks "pot?". Returns
    {"pot": chips, "max": the pot-limit maximum (PL, a raise open) or absent} and puts it on the
    display's public line; RuleError BET-26 when the house rule publishes no count here."""
    what = "pot count"
    h = _playing(t, what)
    p = _asker(t, h, asker, what)
    if p != h.actor:
        raise RuleError("BET-26", "%s: only the player to act is given the pot (%s is to act)" % (
            what, h.who(h.actor) if h.actor is not None else "nobody"))
    policy = t.config.house.public_pot_display
    pl = h.structure == "pot_limit"
    if policy == "never" or (policy == "pl_only" and not pl):
        raise RuleError("BET-26", "%s: no public pot count in %s (hr.public_pot_display = %s); the dealer's "
                        "display shows it" % (what, h.structure.replace("_", "-"), policy))
    out = {"pot": h.pot_total()}
    lg = h.legal()
    text = "POT %d" % out["pot"]
    if pl and lg is not None and lg.can_raise:
        out["max"] = lg.max_to
        text += " MAX %d" % lg.max_to
    _publish(t, "S%d %s" % (t.setup.seats[p], text))
    return out


def approximate(chips):
    """BET-48 cash: an approximate count -- the stack to two significant digits (12,350 -> 12,000;
    875 -> 880; below 100 exact)."""
    if chips < 100:
        return chips
    step = 1
    while chips // step >= 100:
        step *= 10
    return (chips + step // 2) // step * step


def stack_count(t, seat, asker=None):
    """BET-48: a count of `seat`'s stack for `asker` (default the seat to act). tda_on_request
    (tournament): precise, only for the player to act facing `seat`'s all-in (the count is the
    all-in amount; the all-in player need not count, the ledger does); else refused.
    approximate_any_time (cash): any player, any time, to two significant digits. Returns
    {"stack": chips, "approx": True|False}."""
    what = "count of seat %d" % seat
    p = t.position(seat) if t.state == "playing" else None
    policy = t.config.house.stack_display
    if policy == "approximate_any_time":
        if t.state == "playing" and p is not None:
            chips = t.hand.stacks[p]
        elif 1 <= seat <= t.config.seats and t.seat_rec[seat - 1].status != "empty":
            chips = t.stacks[seat - 1]
        else:
            raise RuleError("BET-48", "%s: nobody sits there" % what)
        got = approximate(chips)
        _publish(t, "S%d ABOUT %d" % (seat, got))
        return {"stack": got, "approx": True}
    h = _playing(t, what)
    if p is None or not h.live[p]:
        raise RuleError("BET-48", "%s: seat %d holds no live hand" % (what, seat))
    q = _asker(t, h, asker, what)
    lg = h.legal()
    if h.stacks[p] != 0 or q != h.actor or lg is None or lg.call == 0 or q == p:
        raise RuleError("BET-48", "%s: a precise count is given only to the player to act facing an all-in "
                        "(hr.stack_display = tda_on_request)" % what)
    chips = h.bets[p]
    _publish(t, "S%d ALLIN %d" % (seat, chips))
    return {"stack": chips, "approx": False}


def _publish(t, text):
    # the display's public line stays until the next action (view.lines reads it)
    t.public = (text, t.hand_no, len(t.hand.log) if t.hand is not None else 0)
    t.log("public count: %s" % text)


def public_line(t):
    """The public count line while nothing has happened since it was asked for, else None."""
    pub = t.public
    if pub is None or t.hand is None or pub[1] != t.hand_no or pub[2] != len(t.hand.log):
        return None
    return pub[0]
