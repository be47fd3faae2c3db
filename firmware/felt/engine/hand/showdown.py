# Showdown order (engine layer, pure): who tables first, who must table to win, who may muck, and the
# words for each award (RULES.md SHOW-1..19, POT-7/8). Positions 0.. in PHH order (button last), so
# "clockwise from the button" is ascending; hand values (larger is better) and their wording come from
# felt.engine.rank.evaluate. The showdown as a record: showdown_record.py.
from felt.compat import const

_IMMEDIATE = const("immediate")  # hr.allin_face_up (SHOW-7)
_AT_SHOWDOWN = const("at_showdown")


def show_order(live, last_aggressor=None, first=None, pots=None):
    """Order in which the live hands are tabled (positions).

    SHOW-4: the last player to bet or raise on the final street tables first. SHOW-5: if
    the street was checked, the first to act on it: in flop games the first live position
    (the first live seat left of the button, the default), in stud the highest showing
    hand (the caller passes it as `first`). SHOW-6: then clockwise. SHOW-9: with `pots`
    (hands tabled at showdown), players in a later side pot table before players only in
    earlier pots -- most recent side pot first, as pots are awarded (POT-7)."""
    n = len(live)
    players = [p for p in range(n) if live[p]]
    if not players:
        return []
    if last_aggressor is not None and 0 <= last_aggressor < n and live[last_aggressor]:
        anchor = last_aggressor
    elif first is not None and 0 <= first < n and live[first]:
        anchor = first
    else:
        anchor = players[0]
    deepest = [0] * n
    if pots:
        for pot in pots:
            for p in pot.eligible:
                if pot.index > deepest[p]:
                    deepest[p] = pot.index
    return sorted(players, key=lambda p: (-deepest[p], (p - anchor) % n, p))


def face_up_now(live, all_in, street_closed, allin_face_up=_AT_SHOWDOWN):
    """SHOW-7: True when every hand must be tabled at once -- under hr.allin_face_up =
    immediate, a live player is all-in and no further betting by the others is possible
    (the street's action is closed and at most one live player has chips behind)."""
    if allin_face_up != _IMMEDIATE or not street_closed:
        return False
    some_all_in = False
    behind = 0
    for p in range(len(live)):
        if live[p]:
            if all_in[p]:
                some_all_in = True
            else:
                behind += 1
    return some_all_in and behind <= 1


def _who(positions, seats):
    # "seat 3", "seats 2 and 7", "seats 2, 5 and 8"; "player N" (PHH pN) without seat numbers.
    noun = "seat" if seats else "player"
    if len(positions) == 1:  # one winner: one text (the showdown's step, hardware/memory.md)
        p = positions[0]
        return "%s %d" % (noun, seats[p] if seats else p + 1)
    numbers = []
    for p in positions:
        numbers.append("%d" % (seats[p] if seats else p + 1))
    return "%ss %s and %s" % (noun, ", ".join(numbers[:-1]), numbers[-1])


def award_text(award, seats=None, describe=None, hi_kind="high", lo_kind="low8", unshown=()):
    """The reason text for one pots.Award, e.g. "seat 3 wins side pot 1 with a flush, ace high".

    seats: seat number per position (positions are named "player N" without it).
    describe(value, kind) defaults to felt.engine.rank.evaluate.describe. unshown: positions that
    took their pots without tabling (SHOW-10)."""
    winners = []
    for p, _ in award.shares:
        winners.append(p)
    who = _who(winners, seats)
    # (pot_name(), inlined: one global less in RAM for evaluate's _word, hardware/memory.md showdown round)
    pot = "the main pot" if award.pot_index == 0 else "side pot %d" % award.pot_index
    if award.half == "high":
        pot = "the high half of " + pot
    elif award.half == "low":
        pot = "the low half of " + pot
    if award.lo_value is not None and len(winners) == 1:
        verb = "scoops"
    else:
        verb = "wins" if len(winners) == 1 else "split"
    if award.value is None:
        return "%s %s %s uncontested" % (who, verb, pot)
    if len(winners) == 1 and winners[0] in unshown:
        return "%s %s %s without showing" % (who, verb, pot)
    say = describe
    if say is None:
        from felt.engine.rank.evaluate import describe as say  # noqa: F811
    what = say(award.value, lo_kind if award.half == "low" else hi_kind)
    if award.lo_value is not None:
        what += " and " + say(award.lo_value, lo_kind)
    text = "%s %s %s with %s" % (who, verb, pot, what)
    if award.no_low:
        text += " (no low)"
    return text


def awards_text(awards, seats=None, describe=None, hi_kind="high", lo_kind="low8", unshown=()):
    """award_text for each award, in the order given (POT-7 order; high before low, SHOW-18)."""
    out = []  # a loop: a comprehension here made a closure and five cells (the showdown's step)
    for a in awards:
        out.append(award_text(a, seats, describe, hi_kind, lo_kind, unshown))
    return out

