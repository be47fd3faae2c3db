# Cash-game arithmetic of RULES.md §12 (engine layer, pure): buy-in checks (CASH-1, CASH-2), the bad-beat
# jackpot's shares (CASH-11), whether a hold'em hand hits it (CASH-8..10) and chopping the blinds
# (BLIND-26). Imported where used (the ledger, the table, felt.history.replay), loaded on first use.
from felt.errors import RuleError


# ---- CASH-1 / CASH-2: buy-ins (table configuration, chips are ints) ----


def check_buy_in(amount, minimum, maximum=None):
    """CASH-1: a full buy-in is at least the table minimum and at most the maximum (if any).
    Raises RuleError naming CASH-1 and the legal range; returns the amount."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise RuleError("CASH-1: buy-in must be whole chips, got %r" % (amount,), legal=(minimum, maximum))
    if amount < minimum or (maximum is not None and amount > maximum):
        hi = "no maximum" if maximum is None else "at most %d" % maximum
        raise RuleError("CASH-1: buy-in %d: must be at least %d and %s" % (amount, minimum, hi),
                        legal=(minimum, maximum))
    return amount


def check_short_buy_in(amount, full_buy_in, bought_full_before, short_buys_before=0, rules=None):
    """CASH-2: a short buy-in is at least half the full buy-in, only for a player who already bought in
    in full in this game; under hr.short_buyin_once only once per game. Returns the amount."""
    half = (full_buy_in + 1) // 2
    if not bought_full_before:
        raise RuleError("CASH-2: a short buy-in needs an earlier full buy-in in this game", legal=(full_buy_in, None))
    if rules is not None and rules.get("short_buyin_once") and short_buys_before >= 1:
        raise RuleError("CASH-2: only one short buy-in per game (hr.short_buyin_once)", legal=(full_buy_in, None))
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < half:
        raise RuleError("CASH-2: short buy-in %r is below half the full buy-in (%d)" % (amount, half),
                        legal=(half, full_buy_in))
    return amount


# ---- CASH-11: bad-beat jackpot distribution ----


def jackpot_shares(jackpot, others, unit=1):
    """CASH-11: 40 % to the losing hand, 25 % to the winning hand, 15 % shared equally by the `others`
    dealt in, 20 % kept as the next seed. Every share is rounded down to a multiple of `unit`; what
    rounding leaves over stays in the seed (Convention). Returns (loser, winner, each_other, seed)."""
    if isinstance(jackpot, bool) or not isinstance(jackpot, int) or jackpot < 0 or others < 0 or unit < 1:
        raise RuleError("CASH-11: jackpot, players and unit must be whole numbers >= 0 (unit >= 1)")
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
# hr.bbj_hand (a house rule naming the qualifying hand; CASH-8's is four sevens): the smallest hand
# that qualifies, as the four cards of the quads (rank 5 = sevens) or a 5-high straight flush
_QUADS = ("four_sevens", "four_eights", "four_nines", "four_tens", "four_jacks", "four_queens", "four_kings",
          "four_aces")
_WHEEL_FLUSH = (48, 0, 4, 8, 12)  # Ac 2c 3c 4c 5c


def qualifying_floor(name="four_sevens"):
    """The five cards of the smallest hand hr.bbj_hand = `name` lets qualify (CASH-8)."""
    if name == "straight_flush":
        return _WHEEL_FLUSH
    if name not in _QUADS:
        raise RuleError("CASH-8: no qualifying hand %r" % (name,), legal=_QUADS + ("straight_flush",))
    r = 5 + _QUADS.index(name)
    return (4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3, 0)


def bad_beat(holes, board, dealt_in, rake=0, rules=None, qualifier="four_sevens"):
    """CASH-8..10 for hold'em on a jackpot table. holes: {seat: (card, card)} of the hands that reached
    the showdown and were tabled; board: the 5 board cards; dealt_in: the seats dealt into the hand;
    rake: the hand's rake; rules: HouseRules (hr.bbj_min_rake); qualifier: the smallest qualifying
    hand (hr.bbj_hand; CASH-8: four sevens). Qualifying hands are that hand or better using both hole
    cards; of several, the best is the jackpot winner and the second best the loser (CASH-10).
    Returns None, or {"winner": seat, "loser": seat, "others": [seats dealt in]}."""
    from felt.engine.rank import evaluate  # only jackpot tables pay for loading the evaluator

    if len(dealt_in) < 4:
        return None  # CASH-9: at least four players dealt in
    min_rake = rules.get("bbj_min_rake") if rules is not None else None
    if min_rake is not None and rake < min_rake:
        return None  # CASH-9: the hand's rake reached the configured minimum
    if len(board) != 5:
        raise RuleError("CASH-9: a bad beat needs the full board of 5 cards", legal=(5, 5))
    floor = evaluate.high(list(qualifying_floor(qualifier)))
    qualifying = []
    for seat in sorted(holes):
        hole = list(holes[seat])
        if len(hole) != 2:
            raise RuleError("CASH-9: seat %d: a hold'em hand has 2 hole cards" % seat, legal=(2, 2))
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


# ---- BLIND-26: chopping the blinds (cash, hr.blind_chop = on) ----


def check_chop(hand):
    """BLIND-26: (small blind position, big blind position) when the blinds may be chopped now --
    hr.blind_chop is on, it is preflop and everyone else has folded to the small blind without
    putting a chip in, so the pot holds the two blinds and nothing else (no ante, dead money or
    straddle) -- else RuleError naming the rule."""
    if hand.rules.blind_chop != "on":
        raise RuleError("BLIND-26: the blinds may not be chopped here (hr.blind_chop is off)")
    rnd = hand.round
    sb = hand.actor
    if hand.phase != "bet" or hand.street != 0 or hand.game.forced != "blinds" or sb is None \
            or rnd.aggressor is not None or rnd.acted[sb]:
        raise RuleError("BLIND-26: the blinds are chopped only when the action has folded to the small blind")
    posters = [p for p in range(hand.n) if hand.nominal_blinds[p] > 0]
    if len(posters) != 2 or sb not in posters or hand.dead_money or sum(hand.antes_posted):
        raise RuleError("BLIND-26: only a pot of the two blinds alone can be chopped")
    bb = posters[0] if posters[1] == sb else posters[1]
    if hand.nominal_blinds[sb] >= hand.nominal_blinds[bb]:
        raise RuleError("BLIND-26: the blinds are chopped only when the action has folded to the small blind")
    for p in range(hand.n):
        if p != sb and p != bb and (hand.live[p] or hand.committed[p]):
            raise RuleError("BLIND-26: the blinds are chopped only when everyone else has folded")
    return sb, bb


def can_chop(hand):
    try:
        check_chop(hand)
    except RuleError:
        return False
    return True


def chop_blinds(hand):
    """BLIND-26: the small and big blind agree to take their blinds back; the hand ends with no
    pot (so no rake, POT-20). Returns the "chop" Op (amount: chips returned), or None when the
    Hand keeps no log."""
    sb, bb = check_chop(hand)
    back = 0
    for p in (sb, bb):
        chips = hand.committed[p]
        hand.stacks[p] += chips
        hand.committed[p] = 0
        hand.round.bets[p] = 0
        back += chips
    hand.round.cur = None
    hand.final_pots = []
    hand.results = []
    hand.reasons = ["the blinds are chopped (BLIND-26)"]
    hand.phase = "done"
    return hand._note("chop", sb, back, 0)
