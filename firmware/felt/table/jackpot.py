# The bad-beat jackpot at the table (controller layer, part of felt.table.controller.Table, loaded when a hand
# of a jackpot table ends): on a cash table with hr.bbj_hand naming the qualifying hand, every hand
# drops 0.5 % of its pot into the fund (CASH-12, POT-20: taken in engine/settle.py); a hold'em hand
# whose showdown qualifies (CASH-8..10, engine/cashrules.bad_beat) pays the fund out (CASH-11) into
# the players' stacks, the seed staying in the fund. The fund (Table.jackpot) is carried across
# hands and kept in the between-hands snapshot, so a power cut keeps it (recovery.table_snapshot).
from felt.table.alerts import INFO

_NAMES = {"four_sevens": "four sevens", "four_eights": "four eights", "four_nines": "four nines",
          "four_tens": "four tens", "four_jacks": "four jacks", "four_queens": "four queens",
          "four_kings": "four kings", "four_aces": "four aces", "straight_flush": "a straight flush"}


def after_hand(t):
    """Table._finish on a cash table with hr.bbj_hand on: add the hand's drop to the fund, then pay
    a bad beat. Returns the payout dict of a bad beat, else None."""
    from felt.engine.house import cash as cashrules

    h = t.hand
    qualifier = t.config.house.bbj_hand
    drop = getattr(h, "jackpot_drop", 0)
    if drop:
        t.jackpot += drop
        t.results.append("jackpot drop %d (CASH-12), fund %d" % (drop, t.jackpot))
    if t.config.game != "holdem" or h.live_count() < 2 or len(h.board) != 5:
        return None  # CASH-9: both hole cards play -- a hold'em showdown
    holes = {}
    for p in range(h.n):
        if h.live[p] and h.shown[p] and not h.mucked[p]:
            holes[t.setup.seats[p]] = tuple(h.hole[p])
    hit = cashrules.bad_beat(holes, list(h.board), list(t.setup.seats), getattr(h, "rake_taken", 0),
                             t.config.house, qualifier)
    if hit is None or t.jackpot <= 0:
        return None
    loser, winner, each, seed = cashrules.jackpot_shares(t.jackpot, len(hit["others"]), t.config.unit)
    paid = {hit["loser"]: loser, hit["winner"]: winner}
    for s in hit["others"]:
        paid[s] = each
    fund = t.jackpot
    for s in sorted(paid):
        t.stacks[s - 1] += paid[s]
    t.jackpot = seed
    hit.update({"fund": fund, "loser_share": loser, "winner_share": winner, "each": each, "seed": seed})
    text = ("bad-beat jackpot %d: seat %d's hand (%s or better) lost to seat %d -- seat %d gets %d, seat %d gets %d, "
            "%d other player(s) %d each; %d stays as the seed" % (
                fund, hit["loser"], _NAMES.get(qualifier, qualifier), hit["winner"], hit["loser"], loser,
                hit["winner"], winner, len(hit["others"]), each, seed))
    t.results.append("bad beat: jackpot %d paid (CASH-11)" % fund)
    t.alert(INFO, ("CASH-8", "CASH-9", "CASH-10", "CASH-11"), text, "pay the shares from the jackpot fund; they "
            "are added to the stacks", seat=hit["loser"])
    t.log(text)
    return hit
