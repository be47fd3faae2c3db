# The end of a hand (engine layer, pure): showing and mucking, evaluating the tabled hands with
# evaluate.py, and dividing the pots with pots.py (GAME-6, GAME-7, GAME-9, GAME-13). Works on a
# Hand's fields; machine.py calls in here so that the state machine stays one concern.
from felt.compat import const
from felt.errors import DuplicateCard, RuleError
from felt.engine.rank import evaluate
from felt.engine.house.rules import CASH, HouseRules

# pots.py and showdown.py are imported inside the functions that use them: a hand needs them only
# from its first street end / showdown on (RAM: hardware/memory.md, Idioms)

_UNKNOWN = const(-1)

_DEFAULT_RULES = {}  # game code -> its cash-game default HouseRules, shared by the hands of that game


def house_rules(rules, game):
    """None, a dict of hr.* values (may carry "mode") or a HouseRules."""
    if isinstance(rules, HouseRules):
        return rules
    if rules is None:
        # one record a game, as felt.history.replay does: a record is immutable by convention, and it
        # reads each default once (HouseRules), not once per hand
        got = _DEFAULT_RULES.get(game.code)
        if got is None:
            got = _DEFAULT_RULES[game.code] = HouseRules(CASH, game.code)
        return got
    values = {}
    mode = CASH
    for k in rules:
        if k == "mode":
            mode = rules[k]
        else:
            values[k] = rules[k]
    return HouseRules(mode, game.code, values)


def uncalled(bets):
    from felt.engine.hand import pots as potlib
    return potlib.uncalled(bets)


def contenders(hand):
    # loops, not comprehensions, on the showdown's path: a comprehension is a closure made at each call,
    # and the names it reads become cells (hardware/memory.md, showdown round)
    out = [False] * hand.n
    for p in range(hand.n):
        out[p] = hand.live[p] and not hand.mucked[p]
    return out


def _build(hand, who):
    from felt.engine.hand import pots as potlib
    # dead blind money (BLIND-14 make-up, BLIND-25) is in the main pot, no one's contribution (POT-17)
    if not hand.table_ante:
        return potlib.build_pots(hand.committed, who, hand.dead_money)
    # a big-blind ante is posted for the whole table: dead money in the main pot (GAME-17)
    dead = hand.dead_money
    rest = [0] * hand.n
    for p in range(hand.n):
        dead += hand.antes_posted[p]
        rest[p] = hand.committed[p] - hand.antes_posted[p]
    return potlib.build_pots(rest, who, dead)


def current_pots(hand):
    return _build(hand, contenders(hand))


def show_order(hand):
    from felt.engine.hand import showdown
    who = contenders(hand)
    # SHOW-9: players in a side pot table before those only in the main pot (with the pots)
    order = showdown.show_order(who, hand.round.aggressor, hand.opener, _build(hand, who))
    return [p for p in order if not hand.shown[p]]


# ---- showing and mucking ------------------------------------------------------------------

def _showdown_open(hand):
    # the final showdown, or an all-in run-out where hands may be tabled early (GAME-7)
    return hand.phase == "showdown" or (hand.runout and hand.phase in ("deal", "bet"))


def check_show(hand, p, cards):
    if not _showdown_open(hand):
        raise RuleError("SHOW-1: hands are shown only at the showdown or in an all-in run-out")
    if p < 0 or p >= hand.n or not hand.live[p] or hand.mucked[p]:
        raise RuleError("SHOW-1: %s holds no live hand" % hand.who(p))
    hole = hand.hole[p]
    if cards is None:
        for c in hole:
            if c == _UNKNOWN:
                raise RuleError("SHOW-1: %s's cards were not read; enter them" % hand.who(p))
        return hole  # show() only reads it (no copy in the showdown's step, hardware/memory.md)
    cards = hand._cards_arg(cards)
    if len(cards) != len(hole):
        raise RuleError("SHOW-1: %s holds %d cards, %d shown" % (hand.who(p), len(hole), len(cards)),
                        legal=len(hole))
    unknown = 0
    for c in hole:
        if c == _UNKNOWN:
            unknown += 1
    fresh = 0
    for c in cards:
        if not isinstance(c, int) or c < 16 or c > 51:  # else a card of every deck (DECK-1)
            hand._check_card(c, False)
        if c == _UNKNOWN:
            raise RuleError("SHOW-1: a shown card must be known")
        if c not in hole:
            if c in hand.seen:
                raise DuplicateCard("DECK-5: card %d is already elsewhere in this hand" % c)
            fresh += 1
    if fresh > unknown:
        raise RuleError("DECK-5: %s shows cards that differ from those the shoe dealt" % hand.who(p))
    return cards


def show(hand, p, cards):
    cards = check_show(hand, p, cards)
    hole = hand.hole[p]
    # keep the dealt order (and so the up flags); fill the unknown slots with the new cards (a hand
    # whose cards were all read has none: no list made in the showdown's step, hardware/memory.md)
    if _UNKNOWN in hole:
        fresh = [c for c in cards if c not in hole]
        k = 0
        for i in range(len(hole)):
            if hole[i] == _UNKNOWN:
                hole[i] = fresh[k]
                hand.seen.add(fresh[k])
                k += 1
    hand.shown[p] = True
    op = hand._note("show", p, 0, 0, hole, False)
    maybe_settle(hand)
    return op


def face_up_now(hand):
    """SHOW-7: every hand must be tabled now (hr.allin_face_up = immediate, an all-in and no
    more betting possible)."""
    from felt.engine.hand import showdown
    if hand.phase == "done":
        return False
    return showdown.face_up_now(contenders(hand), hand.all_in, hand.runout or hand.phase == "showdown",
                                hand.rules.allin_face_up)


def check_muck(hand, p):
    if not _showdown_open(hand):
        raise RuleError("SHOW-1: a hand is mucked at the showdown; before it, fold")
    if p < 0 or p >= hand.n or not hand.live[p] or hand.mucked[p]:
        raise RuleError("SHOW-1: %s holds no live hand" % hand.who(p))
    if face_up_now(hand):
        raise RuleError("SHOW-8: hands are tabled face up in an all-in; %s may not muck" % hand.who(p))


def muck(hand, p):
    check_muck(hand, p)
    hand.mucked[p] = True
    op = hand._note("muck", p)
    maybe_settle(hand)
    return op


# ---- settling -----------------------------------------------------------------------------

def maybe_settle(hand):
    """Settle when one contender is left (GAME-6), or at the showdown once every contender
    has shown."""
    left = 0
    for p in range(hand.n):
        if hand.live[p] and not hand.mucked[p]:
            left += 1
    if left <= 1:
        settle(hand)
        return
    if hand.phase != "showdown":
        return
    for p in range(hand.n):
        if hand.live[p] and not hand.mucked[p] and not hand.shown[p]:
            return
    settle(hand)


def _values(hand, who):
    game = hand.game
    hi = [None] * hand.n
    lo = None if game.lo is None else [None] * hand.n
    for p in range(hand.n):
        if not who[p]:
            continue
        hole = hand.hole[p]
        board = hand.board
        kind = game.hi
        if kind == "omaha":
            hi[p] = evaluate.omaha_high(hole, board)
        elif kind == "high":
            hi[p] = evaluate.high(hole + board)
        elif kind == "short":
            hi[p] = evaluate.short_deck_high(hole + board)
        elif kind == "low27":
            hi[p] = evaluate.low27(hole + board)
        elif kind == "lowA5":
            hi[p] = evaluate.lowA5(hole + board)
        else:
            hi[p] = evaluate.badugi(hole)
        if lo is not None:
            v = evaluate.omaha_low8(hole, board) if kind == "omaha" else evaluate.low8(hole + board)
            lo[p] = None if v < 0 else v
    return hi, lo


def _tied(values, left):
    # two contenders with the same value (None: no hand or no qualifying low, POT-14)
    if values is None:
        return False
    seen = []
    for p in left:
        v = values[p]
        if v is not None:
            if v in seen:
                return True
            seen.append(v)
    return False


def settle(hand):
    """Divide every pot among the contenders and finish the hand."""
    from felt.engine.hand import pots as potlib
    from felt.engine.hand import showdown
    who = contenders(hand)
    left = []
    for p in range(hand.n):
        if who[p]:
            left.append(p)
    pots = _build(hand, who)
    rake = hand.rules.rake
    if hand.rules.mode == CASH and hand.rules.bbj_hand != "off":
        # CASH-12 / POT-20: a jackpot table drops 0.5 % of the pot into the fund; rake and drop are
        # both taken from the pot before either deduction (the table adds the drop to its fund)
        from felt.engine.house.values import JACKPOT_DROP, take_rake

        r = rake if rake != "off" else None
        pots, hand.rake_taken, hand.jackpot_drop = take_rake(
            pots, r.bp if r else 0, r.cap if r else None, JACKPOT_DROP.bp, hand.unit)
    elif rake != "off" and hand.rules.mode == CASH:
        # POT-20 / CASH-7: the rake of hr.rake comes off before the pots are divided (cash games)
        pots = rake(pots, hand.unit)  # house.values.Rake: values.take_rake
    hand.final_pots = pots
    if len(left) == 1:
        hi = [None] * hand.n  # GAME-6: wins unshown
        for p in left:
            hi[p] = 0
        lo = None
    else:
        hi, lo = _values(hand, who)
    odd = None
    odd_lo = None
    if hand.game.family == "stud" and len(left) > 1 and (_tied(hi, left) or _tied(lo, left)):
        # the odd-chip order only ranks tied winners (pots.split), so a showdown without a
        # tied value skips the five-card search of every hand (replay speed)
        from felt.engine.hand import stud_odd_chip
        odd, odd_lo = stud_odd_chip.orders(hand, left, hi, lo)
    awards = potlib.award(pots, hi, lo, odd, hand.unit, odd_order_lo=odd_lo,
                          hilo_identical_scoop=hand.rules.hilo_identical_scoop)
    if len(left) == 1:
        # GAME-6 / POT-8: taken uncontested, no hand value to name -- unless the others mucked
        # at the showdown: a tabled hand is named (SHOW-6), an untabled one won "without
        # showing" (SHOW-10; award_text reads a value with the winner unshown so)
        v = None
        if True in hand.mucked:
            v = _values(hand, who)[0][left[0]] if hand.shown[left[0]] else 0
        for a in awards:
            a.value = v
    hand.results = awards
    unshown = []
    for p in range(hand.n):
        if who[p] and not hand.shown[p]:
            unshown.append(p)
    for a in awards:
        for p, chips in a.shares:
            hand.stacks[p] += chips
            hand._note("win", p, chips, 0)
    words = "high" if hand.game.hi == "omaha" else hand.game.hi  # evaluate.describe's kind: Omaha's is high
    hand.reasons = showdown.awards_text(awards, hand.seats, None, words, "low8", unshown)
    hand.phase = "done"
