# Differential tests: seeded random hands played by PokerKit 0.7.7 (tests/host/pokerkit_gen.py:
# random legal actions, short all-ins, many side pots, ties with odd chips, stacks below the
# blinds, straddles, limit caps, pot-limit maxima), written as PHH, replayed by our engine; the
# finishing stacks must be identical -- except where PokerKit departs from the TDA rules we follow.
# The generator mirrors every move into our Hand and only picks moves legal under BOTH rule sets;
# the moves PokerKit allows and we refuse are counted and must be known departures:
#
#  * BET-4: PokerKit lets fixed-limit hold'em (and draw) take four raises preflop (the big blind
#    is the bet for us: bet + 3 raises), and has no cap in FO/8, which PokerKit 0.7.7 plays
#    pot-limit (GAME-1 says fixed limit; test_BET_3_fo8_is_fixed_limit checks ours).
#    test_BET_4_fl_holdem_preflop_cap shows the raise PokerKit allows and we refuse.
#  * BET-21/22: facing a short all-in in limit, we allow a call or a completion to the full bet;
#    PokerKit prices a raise on top of the short amount.  BET-18: a short all-in does not
#    reopen the betting in NL/PL for players who already acted.
#  * BLIND-20: the minimum raise over a straddle is another straddle (PokerKit: + big blind).
#  * GAME-12/RANK-20: when stud showing hands tie in rank, the highest card by suit acts first;
#    PokerKit takes the lower position. When the best showing hand is all-in, we pass the action
#    clockwise to the next player with chips; PokerKit picks the best hand among players with
#    chips. Such hands cannot be replayed as PokerKit wrote them; the test checks that the case
#    really is one of these two.
# Where the outcome differs, PokerKit's own pots are re-divided under our rules and compared:
#  * POT-10/11/13: PokerKit gives every odd chip of a split to one winner (the first listed);
#    we hand odd units out one at a time from the first seat left of the button.
#  * POT-12: in stud PokerKit gives the odd chip to the lowest seat; we go by the highest card
#    by suit (checked: our shares differ by at most one unit per pot).
#  * POT-6: PokerKit merges pots whose eligible players have busted or lost; we divide every pot
#    on its own, so odd units may differ by one per pot.
#  * POT-14/16: in a hi-lo side pot where no eligible hand has a low, PokerKit still splits off
#    a low half; the whole pot goes to the high hand for us.
#  * POT-15: the same players tying for both halves share the whole pot evenly (our default
#    hr.hilo_identical_scoop = even_split); PokerKit divides each half with its own odd chip.
# Kept out of the generator (covered elsewhere): big-blind antes (PokerKit hands a lone
# big-blind ante back to a folding payer; GAME-17 makes it dead money -- the real WSOP hands in
# ../shared/phh have BB antes) and blind posters all-in from posting (PokerKit lets them fold and
# prices the call at the short blind, BET-23).
#
# Default: FELT_DIFF_HANDS (150) hands per game; `FELT_DIFF_HANDS=3000` for the long run.
import os

import pytest

from felt.history import replay
import pokerkit_gen

HANDS = int(os.environ.get("FELT_DIFF_HANDS", "150"))

# Rules under which our engine refuses a raise PokerKit 0.7.7 allows (the generator then picks
# another move): BET-4 limit cap (PokerKit: 4 raises preflop in FL hold'em, no cap at all in
# FO/8, which it plays pot-limit), BET-22 limit short all-in (call or complete only), BET-18 a
# short all-in does not reopen the betting in NL/PL.
KNOWN_REFUSALS = ("BET-4", "BET-22", "BET-18")


def _label_index(label):
    return int(label[1:]) - 1


def _tda_redivided(g):
    """PokerKit's own pots re-divided under our rules: equal shares, odd units one at a time in
    ascending position (first seat left of the button first, POT-11); a hi-lo half that no
    eligible hand wins goes to the high winners of that pot (POT-14; PokerKit 0.7.7 splits off a
    low half even when no hand in that side pot qualifies); the same players winning both halves
    share the whole pot evenly (POT-15, hr.hilo_identical_scoop = even_split, the default)."""
    stacks = list(g.finishing_stacks)
    for push in g.pushes:
        for p, chips in enumerate(push[4]):
            stacks[p] -= chips
    by_pot = {}
    order = []
    for amount, winners, kind, pot_index, _chips in g.pushes:
        if pot_index not in by_pot:
            by_pot[pot_index] = []
            order.append(pot_index)
        by_pot[pot_index].append([amount, tuple(sorted(winners)), kind])
    for pot_index in order:
        parts = by_pot[pot_index]
        high = [x for x in parts if x[2] in (None, 0)]
        for x in parts:
            if not x[1]:
                x[1] = high[0][1] if high else ()
        if len(parts) == 2 and parts[0][1] == parts[1][1]:
            parts = [[parts[0][0] + parts[1][0], parts[0][1], None]]  # POT-14 scoop / POT-15
        for amount, winners, _kind in parts:
            if not winners:
                return None
            q, r = divmod(amount, len(winners))
            for k, w in enumerate(winners):
                stacks[w] += q + (1 if k < r else 0)
    return stacks


def _coverage(result, counts):
    def bump(key):
        counts[key] = counts.get(key, 0) + 1

    if len(result["pots"]) >= 2:
        bump("cover: side pots")
    for pot in result["pots"]:
        halves = {}
        for w in pot["winners"]:
            halves.setdefault(w["half"], []).append(w["amount"])
        for amounts in halves.values():
            if len(amounts) > 1:
                bump("cover: split" if len(set(amounts)) == 1 else "cover: odd-chip split")


def _check_our_split_rule(result, variant):
    """POT-9..13 on our own output: within one pot half, shares differ by at most one unit, the
    larger shares come first; in board games odd units go in ascending position order."""
    for pot in result["pots"]:
        halves = {}
        for w in pot["winners"]:
            halves.setdefault(w["half"], []).append((_label_index(w["player"]), w["amount"]))
        for shares in halves.values():
            amounts = [a for _, a in shares]
            assert max(amounts) - min(amounts) <= 1, pot
            assert amounts == sorted(amounts, reverse=True), pot
            if variant not in pokerkit_gen.STUD:
                positions = [p for p, _ in shares]
                assert positions == sorted(positions), pot  # odd-chip order = clockwise from the button


def _check_stud_opener_GAME_12(g):
    """PokerKit and we disagree on who opens a stud street. Two known cases:
    'tie': the showing hands tie in rank; PokerKit takes the lower position, GAME-12/RANK-20
    the highest card by suit. 'all-in': the best showing hand is all-in; we start from it and
    the action passes clockwise to the next player with chips (as the bring-in/opener passes on
    a dealt-in all-in hand), PokerKit picks the best showing hand among players with chips."""
    from felt.engine.hand import stud_openers

    theirs, ours, up_theirs, up_ours, ups, live, stacks = g.stud_tie
    if sorted(c // 4 for c in up_theirs) == sorted(c // 4 for c in up_ours):
        assert max(up_ours) > max(up_theirs) or g.variant == "FR", g.text  # DECK-4 int order
        return "stud opener: tie broken by suit (GAME-12)"
    pick = stud_openers.low_hand_opener if g.variant == "FR" else stud_openers.high_hand_opener
    best = pick(ups, live)
    assert stacks[best] == 0, g.text  # the best showing hand is all-in
    n = len(live)
    nxt = next(q % n for q in range(best + 1, best + n) if live[q % n] and stacks[q % n] > 0)
    assert ours == nxt, g.text
    active = [live[q] and stacks[q] > 0 for q in range(n)]
    assert theirs == pick(ups, active), g.text
    return "stud opener all-in: next player with chips (GAME-12)"


def _classify(g, result):
    """'exact', or the named PokerKit departure that explains the difference, or None."""
    ours = result["finishing_stacks"]
    if ours == g.finishing_stacks:
        return "exact"
    if sum(ours) != sum(g.finishing_stacks):
        return None
    redivided = _tda_redivided(g)
    if redivided is None:
        return None
    if ours == redivided:
        return "PokerKit's pots divided under POT-11/13/14/15"
    diffs = [abs(a - b) for a, b in zip(ours, redivided)]
    if g.variant in pokerkit_gen.STUD and max(diffs) <= len(result["pots"]):
        # tied stud hands: the odd unit goes by the highest card by suit, not by position
        return "stud odd chip by high card by suit (POT-12)"
    merged = len(set(push[3] for push in g.pushes)) < len(result["pots"])
    if merged and max(diffs) <= len(result["pots"]):
        return "pots divided separately, not merged (POT-6)"
    return None


CHUNK = 400  # hands per test case: the long run stays under the per-test timeout


@pytest.mark.parametrize("variant,first", [(v, k) for v in pokerkit_gen.VARIANTS for k in range(0, HANDS, CHUNK)])
def test_random_hands_match_pokerkit(variant, first):
    counts = {}
    departures = {}
    failures = []
    seeds = range(first, min(HANDS, first + CHUNK))
    for seed in seeds:
        g = pokerkit_gen.generate(variant, seed)
        for d in g.departures:
            if d == "raise refused by actor":
                continue  # the stud tie below: the engines disagree on who acts
            key = d if d.startswith("raise refused") else "amounts differ (BET-21/22 short all-in)"
            departures[key] = departures.get(key, 0) + 1
        if g.stud_tie is not None:
            kind = _check_stud_opener_GAME_12(g)
            counts[kind] = counts.get(kind, 0) + 1
            continue
        if g.mirror_error:
            failures.append((seed, "our engine refused PokerKit's move: " + g.mirror_error, g.text))
            continue
        result = replay.replay_text(g.text)[0]
        if "error" in result:
            failures.append((seed, "engine refused: %r" % result, g.text))
            continue
        _check_our_split_rule(result, variant)
        _coverage(result, counts)
        kind = _classify(g, result)
        if kind is None:
            failures.append((seed, "ours %r, pokerkit %r" % (result["finishing_stacks"], g.finishing_stacks), g.text))
            continue
        counts[kind] = counts.get(kind, 0) + 1
    print(variant, len(seeds), "hands:", counts, "PokerKit-only moves skipped:", departures)
    for key in departures:  # every move PokerKit allows and we refuse is a known departure
        assert key.startswith("amounts") or key.split()[-1] in KNOWN_REFUSALS, key
    assert not failures, "%d of %d hands differ; first: seed %d: %s\n%s" % (
        len(failures), len(seeds), failures[0][0], failures[0][1], failures[0][2])
    assert counts.get("exact", 0) > len(seeds) // 2
    if first == 0 and len(seeds) >= 150:  # fixed seeds: the situations the issue asks for occur
        assert counts.get("cover: side pots", 0) >= len(seeds) // 10, counts
        if variant in ("NT", "NS", "PO", "FT", "FO/8"):
            assert counts.get("cover: odd-chip split", 0) >= 1, counts


def _deal_unknown(hand, count):
    for p in range(hand.n):
        hand.deal_hole(p, [-1] * count)  # face-down cards (cards.UNKNOWN)


def _pokerkit_fl_holdem(stacks):
    import warnings

    from pokerkit import Automation, FixedLimitTexasHoldem

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return FixedLimitTexasHoldem.create_state(
            (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
             Automation.CARD_BURNING, Automation.HOLE_DEALING),
            False, 0, (1, 2), 2, 4, stacks, len(stacks))


def test_BET_4_fl_holdem_preflop_cap():
    from felt.engine.games import GAMES
    from felt.engine.hand.machine import Hand
    from felt.errors import RuleError

    stacks = [100, 100, 100, 100]
    pk = _pokerkit_fl_holdem(stacks)
    ours = Hand(game=GAMES["FT"], stacks=stacks, blinds=[1, 2, 0, 0], small_bet=2, big_bet=4)
    _deal_unknown(ours, 2)
    for p, to in ((2, 4), (3, 6), (0, 8)):  # big blind 2, raise, re-raise, cap at 4 bets
        pk.complete_bet_or_raise_to(to)
        ours.bet_raise_to(p, to)
    assert pk.can_complete_bet_or_raise_to(10)  # PokerKit: a fourth raise
    try:
        ours.bet_raise_to(1, 10)
    except RuleError as e:
        assert e.rule == "BET-4"
    else:
        raise AssertionError("the engine allowed a fourth preflop raise")
    assert ours.can_check_call(1)


def test_BET_3_fo8_is_fixed_limit():
    from felt.engine.games import GAMES
    from felt.engine.hand.machine import Hand
    from felt.errors import RuleError

    ours = Hand(game=GAMES["FO/8"], stacks=[100, 100, 100], blinds=[1, 2, 0], small_bet=2, big_bet=4)
    _deal_unknown(ours, 4)
    legal = ours.legal()
    assert (legal.min_to, legal.max_to) == (4, 4)  # PokerKit 0.7.7 would allow up to the pot
    try:
        ours.bet_raise_to(2, 7)
    except RuleError as e:
        assert e.rule == "BET-3"
    else:
        raise AssertionError("the engine allowed a pot-limit raise in fixed-limit Omaha hi-lo")
