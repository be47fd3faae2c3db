# Pots (engine layer, pure integer arithmetic): main and side pots from what each position put in,
# and their division among the winners with odd chips (RULES.md POT-1..20). Positions: 0 = first
# player left of the button ... button last; no Hand import.
from felt.compat import const
from felt.errors import RuleError

# Where we differ from pokerkit 0.7.7 (on purpose, following POT-*): pokerkit hands every
# odd chip of a split to one winner, we hand odd units out one at a time in odd-chip order
# (POT-10..13); pokerkit splits the low half of a hi-lo pot nobody in it qualifies for among
# all its players, we give the whole pot to the high hand (POT-14). We never merge pots
# (POT-6); our layers have distinct eligible sets anyway (one per distinct live total, POT-3).
# Checked against 1,199 pokerkit-played NT/PO/FO8 hands: identical pots (antes passed as
# `dead` when PHH ante_trimming_status is false, POT-17); stacks differ only in those cases.

# Award.half, and the hr.hilo_identical_scoop options (POT-15)
_WHOLE = const("whole")
_HIGH = const("high")
_LOW = const("low")
_EVEN_SPLIT = const("even_split")
_HALVES_THEN_ODD = const("halves_then_odd")


class Pot:
    """One main (index 0) or side pot: amount in chips and the eligible positions."""

    def __init__(self, index, amount, eligible):
        self.index = index
        self.amount = amount
        self.eligible = tuple(eligible)

    def __eq__(self, other):
        return (isinstance(other, Pot) and self.index == other.index and self.amount == other.amount
                and self.eligible == other.eligible)

    def __repr__(self):
        return "Pot(%d, %d, %r)" % (self.index, self.amount, self.eligible)

    @property
    def name(self):
        """'the main pot' or 'side pot 2' -- the wording the console uses."""
        return "the main pot" if self.index == 0 else "side pot %d" % self.index


class Award:
    """One division of one pot (or of one half of it in hi-lo).

    half: "whole" | "high" | "low". shares: [(position, chips)] in odd-chip order (the
    first listed got any odd unit). value: the winning hand value (None when the pot
    went uncontested, POT-8). lo_value: for a "whole" hi-lo award won on both halves
    (POT-14 scoop, POT-15 even split) the low value, else None. no_low: True when a hi-lo
    pot went whole to the high hand because no low qualified (POT-14)."""

    def __init__(self, pot_index, amount, half, shares, value, lo_value=None, no_low=False):
        self.pot_index = pot_index
        self.amount = amount
        self.half = half
        self.shares = shares
        self.value = value
        self.lo_value = lo_value
        self.no_low = no_low

    @property
    def winners(self):
        return tuple(p for p, _ in self.shares)


def build_pots(committed, live, dead=0):
    """Main and side pots (POT-3, POT-4, POT-5, POT-17, GAME-17).

    committed: chips per position put in this hand (antes, blinds, bets; uncalled excess
    already returned, POT-2). live: bool per position, still holding a hand. dead: dead
    money that goes whole into the main pot and is in no one's contribution (POT-17:
    the dead part of a missed-blind make-up, forfeited blinds).
    Returns [Pot], main pot first; every pot has at least one chip and one eligible position."""
    n = len(committed)
    if len(live) != n:
        raise RuleError("POT-3: committed has %d positions, live has %d" % (n, len(live)))
    for c in committed:
        if c < 0:
            raise RuleError("POT-3: negative contribution %d" % c, legal=(0, None))
    if dead < 0:
        raise RuleError("POT-17: negative dead money %d" % dead, legal=(0, None))
    # The tops of the layers: every distinct total of a live hand (all-in amounts and the
    # largest matched total), ascending (POT-3).
    tops = None  # the common case first: every live hand put in the same total (no set, no sort)
    for p in range(n):
        if live[p]:
            if tops is None:
                tops = committed[p]
            elif committed[p] != tops:
                tops = -1
                break
    if tops is None:
        raise RuleError("POT-8: no live hand to build pots for")
    if tops >= 0:
        # one pot of everything (committed >= 0 was checked, so the layer sum below is the plain sum)
        eligible = []
        for p in range(n):
            if live[p]:
                eligible.append(p)
        return [Pot(0, sum(committed) + dead, eligible)]
    tops = []  # every distinct live total, ascending (loops: no closures or cells on the showdown's path)
    for p in range(n):
        if live[p] and committed[p] not in tops:
            tops.append(committed[p])
    tops.sort()
    pots = []
    below = 0
    last = len(tops) - 1
    for k in range(len(tops)):
        top = tops[k]
        amount = 0
        for p in range(n):
            c = committed[p]
            # Folded chips stay in every layer they reached (POT-4). Chips of a folded hand
            # above the highest live total can only be an unreturned excess (POT-2 is the
            # caller's); they go into the last pot so that chips are never lost.
            part = (c if k == last else min(c, top)) - below
            if part > 0:
                amount += part
        if k == 0:
            amount += dead
        eligible = []
        for p in range(n):
            if live[p] and committed[p] >= top:
                eligible.append(p)
        if amount > 0:
            pots.append(Pot(len(pots), amount, eligible))
        below = top
    if not pots:  # nothing at all was put in: an empty main pot keeps the record uniform
        eligible = []
        for p in range(n):
            if live[p]:
                eligible.append(p)
        pots.append(Pot(0, 0, eligible))
    return pots


def uncalled(bets):
    """POT-2: (position, chips) of the part of the largest street commitment nobody matched,
    or None. bets: this street's commitment per position, folded players included (chips a
    folder put in on the street did match part of the bet)."""
    if not bets:
        return None
    top = max(bets)
    if top <= 0 or bets.count(top) > 1:
        return None  # nothing bet, or the top bet was matched (two C calls: the common street end)
    who = bets.index(top)
    second = 0
    for p in range(len(bets)):
        if p != who and bets[p] > second:
            second = bets[p]
    if who is None or top <= second:
        return None
    return who, top - second


def split(amount, winners, order=None, unit=1):
    """POT-9/POT-10: divide amount equally in whole units among winners; each odd unit goes
    to the next winner in odd-chip order (POT-11/12). A part smaller than one unit (a pot
    that is not a multiple of unit, e.g. after a short all-in ante) goes with the first
    winner. Returns [(position, chips)] in odd-chip order."""
    if unit < 1:
        raise RuleError("POT-10: the chip unit must be at least 1", legal=(1, None))
    if not winners:
        raise RuleError("POT-9: no winner to split %d among" % amount)
    # winners by their place in `order` (highest odd-chip priority first); one missing from
    # `order` comes after all listed ones, in ascending position. Full explicit keys:
    # MicroPython's sort is not stable.
    if len(winners) == 1:
        ranked = winners  # one winner: nothing to rank (no key tuples; the showdown's step, hardware/memory.md)
    else:
        # (place in order, position) pairs sorted, in a loop: a key lambda would make `order` a cell
        # on every call, one winner too
        order = order or []
        ranked = []
        for p in winners:
            ranked.append((order.index(p) if p in order else len(order), p))
        ranked.sort()
        for i in range(len(ranked)):
            ranked[i] = ranked[i][1]
    units = amount // unit
    each = units // len(ranked)
    odd = units - each * len(ranked)
    shares = []
    for i in range(len(ranked)):
        chips = (each + (1 if i < odd else 0)) * unit
        if i == 0:
            chips += amount - units * unit
        shares.append((ranked[i], chips))
    return shares


def _best(values, positions):
    best = None
    for p in positions:
        v = values[p]
        if v is not None and (best is None or v > best):
            best = v
    who = []
    for p in positions:
        if values[p] is not None and values[p] == best:
            who.append(p)
    return best, who


def award(pots, hi, lo=None, odd_order=None, unit=1, odd_order_lo=None,
          hilo_identical_scoop=_EVEN_SPLIT):
    """Divide every pot (POT-5..16). Returns [Award] in the order of awarding (POT-7:
    side pots from the most recent, the main pot last; within a pot high before low, SHOW-18).

    hi: per position, the high value (larger is better) or None for a hand not contesting
    (folded or mucked). A hand that wins without being shown (SHOW-10) may be given any
    int. lo: None for high-only games; else per position the low value or None/-1 for no
    qualifying low. odd_order: positions from highest odd-chip priority down (board games:
    first seat left of the button onward, which is ascending positions and the default;
    stud: see stud_odd_chip.odd_order_by_card). odd_order_lo: for a stud/8 low half under
    hr.stud_odd_chip_low = lowest_card; defaults to odd_order.
    Chips are conserved: the shares add up to the pots exactly."""
    if unit < 1:
        raise RuleError("POT-10: the chip unit must be at least 1", legal=(1, None))
    if hilo_identical_scoop not in (_EVEN_SPLIT, _HALVES_THEN_ODD):
        raise RuleError("POT-15: unknown hr.hilo_identical_scoop %r" % (hilo_identical_scoop,),
                        legal=(_EVEN_SPLIT, _HALVES_THEN_ODD))
    n = len(hi)
    if lo is not None and len(lo) != n:
        raise RuleError("POT-13: hi has %d positions, lo has %d" % (n, len(lo)))
    if odd_order_lo is None:
        odd_order_lo = odd_order
    awards = []
    # the most recent side pot first (POT-7): build_pots lists them by index, so they are walked
    # backwards without a sorted copy unless a caller passed them in another order
    k = 1
    while k < len(pots) and pots[k - 1].index < pots[k].index:
        k += 1
    if k < len(pots):
        pots = sorted(pots, key=lambda q: q.index)
    for k in range(len(pots) - 1, -1, -1):
        pot = pots[k]
        for p in pot.eligible:
            if p < 0 or p >= n:
                raise RuleError("POT-3: pot %d names position %d of %d" % (pot.index, p, n))
        _award_pot(awards, pot, hi, lo, odd_order, odd_order_lo, unit, hilo_identical_scoop)
    return awards


def _award_pot(awards, pot, hi, lo, order, order_lo, unit, scoop_rule):
    contenders = []
    for p in pot.eligible:
        if hi[p] is not None:
            contenders.append(p)
    if not contenders:
        if len(pot.eligible) != 1:
            raise RuleError("POT-8: %s has no contesting hand" % pot.name)
        # A single eligible hand takes the pot without a showdown (POT-8).
        awards.append(Award(pot.index, pot.amount, _WHOLE, [(pot.eligible[0], pot.amount)], None))
        return
    hi_value, hi_win = _best(hi, contenders)
    lows = []
    if lo is not None:
        for p in contenders:
            if lo[p] is not None and lo[p] >= 0:
                lows.append(p)
    if not lows:
        # High-only game, or no qualifying low: all to the high hand(s) (POT-14).
        awards.append(Award(pot.index, pot.amount, _WHOLE, split(pot.amount, hi_win, order, unit),
                            hi_value, no_low=lo is not None))
        return
    lo_value, lo_win = _best(lo, lows)
    if len(hi_win) == 1 and len(lo_win) == 1:
        same = hi_win[0] == lo_win[0]  # the common scoop test without two sorted copies
    else:
        same = sorted(hi_win) == sorted(lo_win)
    if same and (len(hi_win) == 1 or scoop_rule == _EVEN_SPLIT):
        # One player wins both halves (scoop, POT-14), or the same players tie both halves
        # and the whole pot is split as evenly as possible (POT-15 even_split).
        awards.append(Award(pot.index, pot.amount, _WHOLE, split(pot.amount, hi_win, order, unit),
                            hi_value, lo_value=lo_value))
        return
    # Halves: an odd unit goes to the high half (POT-13); a sub-unit remainder too.
    units = pot.amount // unit
    low_half = units // 2 * unit
    high_half = pot.amount - low_half
    awards.append(Award(pot.index, high_half, _HIGH, split(high_half, hi_win, order, unit), hi_value))
    awards.append(Award(pot.index, low_half, _LOW, split(low_half, lo_win, order_lo, unit), lo_value))


def total_shares(awards, n):
    """Chips won per position over all awards (for finishing stacks)."""
    won = [0] * n
    for a in awards:
        for p, chips in a.shares:
            won[p] += chips
    return won
