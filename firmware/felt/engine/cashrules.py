# Cash-game arithmetic of RULES.md §12 (engine layer, pure): buy-in checks (CASH-1, CASH-2), the
# bad-beat jackpot's shares (CASH-11) and whether a hold'em hand hits it (CASH-8..10). Reached as
# settings.check_buy_in etc.: settings loads this module on the first use of one of these names,
# so a table that never checks a buy-in or pays a jackpot keeps it out of RAM (hardware/memory.md).
from felt.errors import RuleError


# ---- CASH-1 / CASH-2: buy-ins (table configuration, chips are ints) ----


def check_buy_in(amount, minimum, maximum=None):
    """CASH-1: a full buy-in is at least the table minimum and at most the maximum (if any).
    Raises RuleError naming CASH-1 and the legal range; returns the amount."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise RuleError("CASH-1", "buy-in must be whole chips, got %r" % (amount,), legal=(minimum, maximum))
    if amount < minimum or (maximum is not None and amount > maximum):
        hi = "no maximum" if maximum is None else "at most %d" % maximum
        raise RuleError("CASH-1", "buy-in %d: must be at least %d and %s" % (amount, minimum, hi),
                        legal=(minimum, maximum))
    return amount


def check_short_buy_in(amount, full_buy_in, bought_full_before, short_buys_before=0, rules=None):
    """CASH-2: a short buy-in is at least half the full buy-in, only for a player who already bought in
    in full in this game; under hr.short_buyin_once only once per game. Returns the amount."""
    half = (full_buy_in + 1) // 2
    if not bought_full_before:
        raise RuleError("CASH-2", "a short buy-in needs an earlier full buy-in in this game", legal=(full_buy_in, None))
    if rules is not None and rules.get("short_buyin_once") and short_buys_before >= 1:
        raise RuleError("CASH-2", "only one short buy-in per game (hr.short_buyin_once)", legal=(full_buy_in, None))
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < half:
        raise RuleError("CASH-2", "short buy-in %r is below half the full buy-in (%d)" % (amount, half),
                        legal=(half, full_buy_in))
    return amount


# ---- CASH-11: bad-beat jackpot distribution ----


def jackpot_shares(jackpot, others, unit=1):
    """CASH-11: 40 % to the losing hand, 25 % to the winning hand, 15 % shared equally by the `others`
    dealt in, 20 % kept as the next seed. Every share is rounded down to a multiple of `unit`; what
    rounding leaves over stays in the seed (Convention). Returns (loser, winner, each_other, seed)."""
    if isinstance(jackpot, bool) or not isinstance(jackpot, int) or jackpot < 0 or others < 0 or unit < 1:
        raise RuleError("CASH-11", "jackpot, players and unit must be whole numbers >= 0 (unit >= 1)")
    loser = jackpot * 40 // 100
    loser -= loser % unit
    winner = jackpot * 25 // 100
    winner -= winner % unit
    each = (jackpot * 15 // 100) // others if others else 0
    each -= each % unit
    seed = jackpot - loser - winner - each * others
    return loser, winner, each, seed


# ---- CASH-8 / CASH-9 / CASH-10: does a hold'em hand hit the bad-beat jackpot? ----

_QUAD_SEVENS = (20, 21, 22, 23, 0)  # 7c 7d 7h 7s 2c: the smallest four sevens (CASH-8)


def bad_beat(holes, board, dealt_in, rake=0, rules=None):
    """CASH-8..10 for hold'em on a jackpot table. holes: {seat: (card, card)} of the hands that reached
    the showdown and were tabled; board: the 5 board cards; dealt_in: the seats dealt into the hand;
    rake: the hand's rake; rules: HouseRules (hr.bbj_min_rake). Qualifying hands are four sevens or
    better that use both hole cards; of several, the best is the jackpot winner and the second best the
    loser (CASH-10). Returns None, or {"winner": seat, "loser": seat, "others": [seats dealt in]}."""
    from felt.engine import evaluate  # only jackpot tables pay for loading the evaluator

    if len(dealt_in) < 4:
        return None  # CASH-9: at least four players dealt in
    min_rake = rules.get("bbj_min_rake") if rules is not None else None
    if min_rake is not None and rake < min_rake:
        return None  # CASH-9: the hand's rake reached the configured minimum
    if len(board) != 5:
        raise RuleError("CASH-9", "a bad beat needs the full board of 5 cards", legal=(5, 5))
    floor = evaluate.high(list(_QUAD_SEVENS))
    qualifying = []
    for seat in sorted(holes):
        hole = list(holes[seat])
        if len(hole) != 2:
            raise RuleError("CASH-9", "seat %d: a hold'em hand has 2 hole cards" % seat, legal=(2, 2))
        value = evaluate.high(hole + list(board))
        # CASH-9: both hole cards play -- the best hand using exactly both equals the best hand
        if value >= floor and evaluate.omaha_high(hole, list(board)) == value:
            qualifying.append((value, seat))
    if len(qualifying) < 2:
        return None
    qualifying.sort(key=lambda vs: (-vs[0], vs[1]))
    if qualifying[0][0] == qualifying[1][0]:
        return None  # a split pot: nobody lost to a higher hand (CASH-8)
    winner = qualifying[0][1]
    loser = qualifying[1][1]
    others = [s for s in sorted(dealt_in) if s != winner and s != loser]
    return {"winner": winner, "loser": loser, "others": others}
