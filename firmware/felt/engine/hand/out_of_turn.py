# Irregular betting the device can only propose a ruling for (engine layer, pure): action out of turn
# (BET-39..42) and bets corrected afterwards -- pot-limit bets made on a wrong count (BET-27) and
# underbets/underraises brought up to the minimum with the callers' fix-up (BET-29). Nothing here
# changes a Hand: each call returns a findings.Finding (ASSIST, PROPOSED) the console shows.
from felt.engine.findings import ASSIST, PROPOSED, Finding
from felt.errors import RuleError

OOT_ACTIONS = ("fold", "check", "call", "bet", "raise")
_CHIPS = ("call", "bet", "raise")


def _seat(hand, p):
    return hand.who(p)


def out_of_turn(hand, p, action, amount=0, dealer_prompted=False):
    """BET-39..42: `action` (OOT_ACTIONS; amount = street total for bet/raise, chips for a call) was
    entered for position p while hand.actor is another player. Returns a Finding whose detail holds
    what the controller needs later: actor, skipped positions, the amount to match when the OOT action
    was made ("high") and the ruling mode. The action itself is not applied (the Hand only takes
    actions in turn, BET-38); at p's turn, oot_ruling() says whether it binds."""
    if action not in OOT_ACTIONS:
        raise RuleError("GAME-16: unknown action %r" % (action,), legal=OOT_ACTIONS)
    actor = hand.actor
    if actor is None:
        raise RuleError("GAME-2: no betting round is open")
    if p == actor:
        raise RuleError("BET-39: %s is the player to act: not out of turn" % _seat(hand, p))
    if p < 0 or p >= hand.n or not hand.live[p]:
        raise RuleError("BET-39: %s holds no live hand" % _seat(hand, p))
    rnd = hand.round
    skipped = []
    q = actor
    while q != p:  # the players passed over, from the one to act up to the OOT player
        if rnd.needs[q]:
            skipped.append(q)
        q = q + 1 if q + 1 < hand.n else 0
    mode = hand.rules.oot_mode
    who = _seat(hand, p)
    text = "%s %s%s out of turn; %s is to act" % (who, action, " %d" % amount if action in _CHIPS and amount else "",
                                                  _seat(hand, actor))
    rules = ["BET-39"]
    if action == "fold":
        rules.append("BET-43")
        remedy = "%s's fold is binding (BET-43); action goes back to %s" % (who, _seat(hand, actor))
    elif dealer_prompted:
        rules.append("BET-42")
        remedy = ("the dealer prompted %s: once the true action is known %s may change it while the next player "
                  "has not acted; chips are returned if %s then folds" % (who, who, who))
    elif mode == "tda2019":
        remedy = ("action goes back to %s; %s's %s binds if nobody bets or raises before %s's turn; a bet or "
                  "raise in between voids it (chips returned, every option)" % (_seat(hand, actor), who, action, who))
        if action == "check":
            rules.append("BET-40")
    else:
        if action == "check":
            rules.append("BET-40")
            remedy = ("action goes back to %s; %s checked out of turn and may not bet or raise this street: the "
                      "check stands if nobody bets, else call or fold" % (_seat(hand, actor), who))
        else:
            remedy = ("action goes back to %s; %s's chips stay in the pot: unchanged action binds as made, after a "
                      "bet or raise %s may call, raise or fold and forfeit them" % (_seat(hand, actor), who, who))
    if skipped:
        rules.append("BET-41")
        remedy += ("; skipped: %s keep(s) the turn until the OOT action behind them reaches hr.skipped_player_"
                   "forfeit = %s" % (", ".join(_seat(hand, s) for s in skipped), hand.rules.skipped_player_forfeit))
    detail = {"position": p, "actor": actor, "action": action, "amount": amount, "high": rnd.high,
              "mode": mode, "skipped": skipped, "dealer_prompted": dealer_prompted, "street": hand.street}
    f = Finding("out_of_turn", tuple(rules), ASSIST, text, remedy, PROPOSED, detail=detail)
    f.street = hand.street
    return f


def oot_ruling(hand, finding):
    """BET-39/40: the OOT player's turn has come. Returns (kind, options):
      ("binding", action)  the OOT action stands as made: the console enters it now;
      ("void", None)       tda2019 after a bet/raise in between: chips back, every option;
      ("call_or_fold", forfeit)  club_chips_stay after a change: the chips put in (forfeit) stay in the
                           pot; an OOT check may now only call or fold (BET-40);
      ("fold", None)       an OOT fold (always binding)."""
    d = finding.detail
    p = d["position"]
    if hand.actor != p:
        raise RuleError("BET-39: it is not %s's turn yet" % _seat(hand, p), legal=hand.actor)
    if d["street"] != hand.street:
        raise RuleError("BET-39: the out-of-turn action was on another street")
    if d["action"] == "fold":
        return ("fold", None)
    changed = hand.round.high > d["high"]
    if not changed:
        return ("binding", d["action"])
    if d["mode"] == "tda2019" or d["dealer_prompted"]:
        return ("void", None)
    chips = d["amount"] if d["action"] in _CHIPS else 0
    return ("call_or_fold", chips)


# ---- bets corrected afterwards -----------------------------------------------------------------

def _sa(actions, rules):
    # DEAL-6: tda = two actions of which one puts in chips, or any three; two_actions = any two
    n = len(actions)
    chips = 0
    for a in actions:
        if a in _CHIPS or a == "allin":
            chips += 1
    if rules.sa_definition == "two_actions":
        return n >= 2
    return n >= 3 or (n >= 2 and chips >= 1)


def _callers_fixup(callers, old_to, new_to, stacks):
    # chips each caller of old_to adds (new_to above) or gets back (below); a short stack adds
    # what it has (all-in)
    out = {}
    for p in sorted(callers):
        total = callers[p]
        if total != old_to:
            continue
        delta = new_to - old_to
        if delta > 0 and stacks is not None and stacks.get(p, delta) < delta:
            delta = stacks[p]
        out[p] = delta
    return out


def pl_wrong_count(hand, p, bet_to, legal_max, callers=None, actions_after=(), next_card_dealt=False,
                   stacks=None):
    """BET-27: a pot-limit bet/raise to `bet_to` by position p was made on a wrong pot count; the
    legal maximum was `legal_max`. Too large: reduced to the legal amount for p and everyone who called
    it, anywhere on the current street. Too small: raised to the intended pot bet only until SA
    (DEAL-6) after it (actions_after: kinds acted since). After the next card the error stands.
    callers: {position: street total} of those who acted on it. Returns a Finding; detail["adjust"]
    = {position: chips added (+) or returned (-)}, empty when the bet stands."""
    if hand.structure != "pot_limit":
        raise RuleError("BET-27: pot-count corrections are for pot-limit only (BET-29 for limit/no-limit)")
    callers = callers or {}
    adjust = {}
    if next_card_dealt or bet_to == legal_max:
        kind, to = "stands", bet_to
        remedy = "the next card is out: %d stands" % bet_to if next_card_dealt else "the bet was right"
    elif bet_to > legal_max:
        kind, to = "reduce", legal_max
        adjust[p] = legal_max - bet_to
        adjust.update(_callers_fixup(callers, bet_to, legal_max, None))
        remedy = "reduce %s's bet to %d; every caller gets back %d" % (_seat(hand, p), legal_max, bet_to - legal_max)
    elif _sa(actions_after, hand.rules):
        kind, to = "stands", bet_to
        remedy = "substantial action after the bet: %d stands" % bet_to
    else:
        kind, to = "raise", legal_max
        adjust[p] = legal_max - bet_to
        adjust.update(_callers_fixup(callers, bet_to, legal_max, stacks))
        remedy = "%s must make it %d (the pot bet intended)" % (_seat(hand, p), legal_max)
    return Finding("pl_wrong_count", ("BET-27",), ASSIST, "pot-limit bet to %d on a wrong count (legal maximum "
                   "%d)" % (bet_to, legal_max), remedy, PROPOSED, detail={"kind": kind, "to": to, "adjust": adjust})


def underraise_fix(hand, p, bet_to, min_to, callers=None, round_complete=False, next_card_dealt=False,
                   all_in=False, stacks=None):
    """BET-29: an opening bet or raise to `bet_to` below the legal minimum `min_to` (limit, no-limit),
    not an all-in, is brought up to the minimum and everyone who acted on it adjusts (they may not
    change their action). Tournament: anywhere on the current street until the next card is dealt;
    cash: only before the round completes. callers: {position: street total}. Returns a Finding;
    detail["adjust"] = {position: chips to add}."""
    if hand.structure == "pot_limit":
        raise RuleError("BET-29: pot-limit corrections follow BET-27 (pl_wrong_count)")
    callers = callers or {}
    late = next_card_dealt or (hand.rules.mode == "cash" and round_complete)
    adjust = {}
    if all_in or bet_to >= min_to:
        kind = "stands"
        remedy = "an all-in stands as it is (BET-11)" if all_in else "the bet is legal"
    elif late:
        kind = "stands"
        remedy = "too late to correct: %d stands" % bet_to
    else:
        kind = "raise"
        adjust[p] = min_to - bet_to
        adjust.update(_callers_fixup(callers, bet_to, min_to, stacks))
        others = ", ".join("%s adds %d" % (_seat(hand, q), adjust[q]) for q in sorted(adjust) if q != p)
        remedy = "%s makes it %d%s; later players may not change their action" % (
            _seat(hand, p), min_to, "; " + others if others else "")
    return Finding("underraise", ("BET-29",), ASSIST, "bet to %d is below the minimum %d" % (bet_to, min_to),
                   remedy, PROPOSED, detail={"kind": kind, "to": min_to if kind == "raise" else bet_to,
                                             "adjust": adjust})
