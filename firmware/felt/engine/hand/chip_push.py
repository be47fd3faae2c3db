# Console chip-push interpretation (engine layer, pure): the device senses no chips, so the
# dealer enters what was pushed (chip values) and what was said first ("raise", "all-in",
# "call", "check", or an amount). interpret() turns that into the one legal action the rules
# make of it (BET-8..17, BET-31, BET-33, BET-34, BET-37); apply() plays it on the Hand.
from collections import namedtuple

from felt.errors import RuleError

# action: "check" "call" "bet" "raise" "fold" "undercall" (BET-30, for the floor) or
#   "call_or_fold" (BET-34: "check" said facing a bet -- nothing is taken yet)
# total: the street total the player ends with (0 for check/fold); change: chips handed back
# rule: the rule that decided it; all_in: the result puts the player all-in
Reading = namedtuple("Reading", "action total change rule all_in")

RAISE = "raise"
ALL_IN = "all_in"
CALL = "call"
CHECK = "check"
FOLD = "fold"
BET = "bet"
POT = "pot"


def _reading(action, total, pushed_total, rule, allin):
    change = pushed_total - total if pushed_total > total else 0
    return Reading(action, total, change, rule, total == allin and action in (CALL, BET, RAISE))


def interpret(hand, p, chips=(), said=None, amount=None, earlier=None):
    """What player p's console entry means.

    chips: values of the chips pushed now (new chips; the player's earlier bet chips of this
      street stay in front and count, BET-16). said: None (silent), "raise", "all_in",
      "call", "check", "fold", "bet" or "pot", whichever came first (BET-32 is the dealer's
      call).
    amount: a spoken amount -- with "raise"/"bet" the new street total (BET-8), alone the
      same as pushing that many chips (BET-33). earlier: BET-16 second case -- the values
      of the player's earlier chips still in front when they were partly pulled back or
      already cover the call; earlier and new chips are then judged as one multi-chip push.
    Raises RuleError when p may not act now or the entry is impossible (more than the stack)."""
    hand._check_turn(p)
    lg = hand.legal()
    rnd = hand.round
    own = rnd.bets[p]
    stack = hand.stacks[p]
    allin = own + stack
    high = rnd.high
    pushed = 0
    for c in chips:
        if not isinstance(c, int) or c <= 0:
            raise RuleError("BET-49: chip values are whole chips > 0, got %r" % (c,))
        pushed += c
    if pushed > stack:
        raise RuleError("BET-49: %s has only %d behind, %d pushed" % (hand.who(p), stack, pushed), legal=(0, stack))
    total = own + pushed
    base = 0
    if earlier is not None:
        for c in earlier:
            base += c
        total = base + pushed
        if total - own > stack:
            raise RuleError("BET-49: %s has only %d behind" % (hand.who(p), stack), legal=(0, stack))
    if amount is not None and said is None:
        # BET-33: a number alone is the same as pushing it, as one amount (no chip test)
        if amount > allin:
            raise RuleError("BET-49: %s has only %d" % (hand.who(p), allin), legal=(0, allin))
        return _silent(hand, lg, own, high, amount, None, allin, amount)
    if lg.bring_in:
        return _bring_in(hand, lg, said, total, amount, allin)
    if said == FOLD:
        return Reading(FOLD, 0, pushed, "BET-31", False)
    if said == ALL_IN:
        if allin <= high or not lg.can_raise:
            return _reading(CALL, min(high, allin), total, "BET-31", allin)
        return _reading(RAISE if high else BET, allin, total, "BET-31", allin)
    if said == CHECK:
        if lg.call:
            return Reading("call_or_fold", 0, pushed, "BET-34", False)
        return Reading(CHECK, own, pushed, "BET-31", False)
    if said == CALL:
        # BET-31/BET-47: the full call; with nothing to call it is a check (BET-34)
        if not lg.call:
            return Reading(CHECK, own, pushed, "BET-34", False)
        return _reading(CALL, own + lg.call, total, "BET-47", allin)
    if said in (RAISE, BET):
        return _declared_raise(hand, lg, own, total, amount, allin, len(chips))
    if said == POT:
        return _pot(hand, lg, own, total, allin)
    if said is not None:
        raise RuleError("BET-31: unknown declaration %r" % (said,))
    pieces = list(chips)
    if earlier is not None:
        pieces.extend(earlier)  # judged together with the earlier chips (BET-16)
    return _silent(hand, lg, own, high, total, pieces, allin, total)


def _bring_in(hand, lg, said, total, amount, allin):
    # GAME-11: the bring-in player posts the bring-in or completes
    want = amount if amount is not None else total
    if (said in (RAISE, BET, ALL_IN) or want >= lg.min_to) and lg.can_raise:
        to = lg.min_to if said != ALL_IN else allin
        return _reading(RAISE, to, total, "GAME-11", allin)
    return Reading("bring_in", lg.bring_in, total - lg.bring_in if total > lg.bring_in else 0, "GAME-11",
                   lg.bring_in == allin)


def _declared_raise(hand, lg, own, total, amount, allin, nchips):
    word = RAISE if hand.round.high else BET
    if not lg.can_raise:
        # the betting is not open to this player (BET-18, BET-4 ...): the chips call
        rule = lg.block[0] if lg.block else "GAME-16"
        if not lg.call:
            return Reading(CHECK, own, total - own, rule, False)
        return _reading(CALL, own + lg.call, total, rule, allin)
    if amount is not None:
        to = amount  # BET-8: the amount is the new total
        rule = "BET-8"
    elif nchips == 1:
        to = total  # BET-12: "raise" then one chip: the largest raise the chip allows
        rule = "BET-12"
    else:
        to = total
        rule = "BET-10"
    if to > allin:
        raise RuleError("BET-49: %s has only %d" % (hand.who(hand.actor), allin), legal=(lg.min_to, lg.max_to))
    if to < lg.min_to:
        to = lg.min_to  # BET-10 / BET-34: "raise" binds to at least a minimum raise (or bet)
        rule = "BET-10" if hand.round.high else "BET-34"
    if to > lg.max_to:
        to = lg.max_to  # pot-limit maximum (BET-12, BET-24); limit: the fixed size
    return _reading(word, to, total, rule, allin)


def _pot(hand, lg, own, total, allin):
    # "pot": in pot-limit the maximum (BET-24); in no-limit it names no amount and binds to at
    # least a minimum bet or raise, the dealer then enters the amount (BET-28)
    word = RAISE if hand.round.high else BET
    if not lg.can_raise:
        return _declared_raise(hand, lg, own, total, None, allin, 0)
    if hand.structure == "pot_limit":
        return _reading(word, lg.max_to, total, "BET-24", allin)
    return _reading(word, lg.min_to, total, "BET-28", allin)


def _silent(hand, lg, own, high, total, pieces, allin, shown):
    """A silent push (pieces = chip values) or a spoken amount alone (pieces None)."""
    rnd = hand.round
    word = RAISE if high else BET
    if not lg.call and high == own and not rnd.completion:
        # not facing a bet (BET-13): the chips are a bet, the pot-limit maximum at most
        if total == own:
            return Reading(CHECK, own, 0, "BET-13", False)
        if not lg.can_raise:
            return Reading(CHECK, own, total - own, lg.block[0] if lg.block else "GAME-16", False)
        to = total
        rule = "BET-13"
        if to > lg.max_to:
            to = lg.max_to
        if to < lg.min_to:
            to = lg.min_to  # an underbet is brought up to the minimum (BET-29)
            rule = "BET-29"
        return _reading(word, to, shown, rule, allin)
    call_to = own + lg.call
    if total == own:
        # nothing pushed facing a bet: no action yet (BET-38 waits for a clear entry)
        raise RuleError("BET-38: facing %d, enter the chips pushed or what was said" % lg.call,
                        legal=(lg.min_to, lg.max_to) if lg.can_raise else None)
    if total < call_to:
        # BET-30: an undercall is made a full call where the rules say so; else the floor
        # decides (a full call, or forfeit the chips and fold). Cash: hr.undercall_cash
        # (must_correct: always corrected). Tournament (TDA19 r51B): heads-up against any bet,
        # or multi-way facing the street's opening bet (preflop: the big blind; no one has
        # bet or raised over it, or the high is the street's first bet)
        cash = hand.rules.undercall_cash
        if cash is not None:
            full = cash == "must_correct"
        else:
            full = hand.live_count() == 2 or rnd.aggressor is None or rnd.prior[0] == 0
        if full:
            return _reading(CALL, call_to, shown, "BET-30", allin)
        return Reading("undercall", total, 0, "BET-30", False)
    if pieces is not None:
        smallest = pieces[0]
        for c in pieces:
            if c < smallest:
                smallest = c
        if len(pieces) == 1 or total - smallest < call_to:
            # BET-12: one oversized chip is a call; BET-14/15 step 1: every chip needed
            return _reading(CALL, call_to, shown, "BET-12" if len(pieces) == 1 else "BET-14", allin)
        if total == allin and lg.can_raise:
            return _reading(word, allin, shown, "BET-15", allin)  # last chips, not all needed
    if total == call_to or not lg.can_raise:
        rule = "GAME-16" if lg.can_raise else (lg.block[0] if lg.block else "GAME-16")
        return _reading(CALL, call_to, shown, rule, allin)
    if hand.structure == "limit":
        # BET-37: more than half of the extra increment commits to the full raise
        if total >= lg.max_to > lg.min_to:
            return _reading(word, lg.max_to, shown, "BET-37", allin)  # the big bet of a TOUR-20 option
        if 2 * (total - call_to) > lg.min_to - call_to or total >= lg.min_to:
            return _reading(word, lg.min_to, shown, "BET-37", allin)
        return _reading(CALL, call_to, shown, "BET-37", allin)
    if pieces is not None and len(pieces) > 1 and hand.rules.multichip_silent == "raise_evident":
        to = total if total > lg.min_to else lg.min_to
        if to > lg.max_to:
            to = lg.max_to
        return _reading(word, to, shown, "BET-14", allin)
    if total >= lg.min_to:
        to = total if total < lg.max_to else lg.max_to
        return _reading(word, to, shown, "BET-9", allin)
    extra = total - high
    if hand.rules.fifty_pct_basis == "previous_bet":
        basis = high
    else:
        basis = rnd.inc
    if 2 * extra >= basis:
        return _reading(word, lg.min_to, shown, "BET-9", allin)  # must complete a minimum raise
    return _reading(CALL, call_to, shown, "BET-9", allin)


def resolve_amount(hand, candidates):
    """BET-35 (proposal for the dealer): a spoken amount that could mean several bets ("three":
    300 or 3,000) is the highest candidate not above the pot before the bet, bets in front
    included; if every candidate is above the pot, the smallest."""
    pot = hand.pot_total()
    best = None
    low = None
    for c in candidates:
        if low is None or c < low:
            low = c
        if c <= pot and (best is None or c > best):
            best = c
    if best is None:
        if low is None:
            raise RuleError("BET-35: no amount to choose from")
        return low
    return best


def apply(hand, p, reading):
    """Play a Reading on the Hand; returns the Hand's Op. "undercall" and "call_or_fold" need
    the floor or a new entry and raise RuleError."""
    a = reading.action
    if a in (CHECK, CALL):
        return hand.check_call(p)
    if a in (BET, RAISE):
        return hand.bet_raise_to(p, reading.total)
    if a == FOLD:
        return hand.fold(p)
    if a == "bring_in":
        return hand.post_bring_in(p)
    raise RuleError(reading.rule, "%s needs a ruling before it can be played" % a)
