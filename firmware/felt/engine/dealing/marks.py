# Console marks and rulings on a DealCheck (engine layer, pure; functions taking the check `dc`, loaded
# on first use by its one-line methods): boxed and exposed cards (DEAL-7, DEAL-11, DEAL-17, DEAL-21/22,
# DEAL-42/43), foreign cards (DEAL-13, DEAL-19/20), absent players (DEAL-39), killed hands, draws
# (DEAL-47), reshuffles (DEAL-34/35) and the hand-for-hand hold (TOUR-10).
from felt.engine.dealing.plan import (BOARD, BURN, DEALING, FAMILY_STUD, FOREIGN, MUCK, OVER, SHOWDOWN, STUB, card_text,
                                      place_text)
from felt.engine.findings import APPLIED, ENGINE, FLOOR, Finding
from felt.engine.house.rules import CASH
from felt.errors import RuleError


def hold(dc):
    """TOUR-10: hand-for-hand, an all-in was called: cards stay face down and nothing more is dealt
    until release(). Every draw meanwhile is alarmed and not placed."""
    dc._alive()
    dc.held = True
    return [dc._add(Finding("hold", ("TOUR-10",), ENGINE, "all-in during hand-for-hand", "HOLD -- await "
                            "the TD; cards stay face down", status=APPLIED), [])]




def _draw(dc, draw):
    if isinstance(draw, bool) or not isinstance(draw, int) or draw < 1 or draw > len(dc.draws):
        raise RuleError("DEAL-17: draw %r does not exist" % (draw,), legal=(1, len(dc.draws)))
    return dc.draws[draw - 1]


def mark_boxed(dc, draw):
    """The dealer marks shoe draw `draw` as found face up in the deck (DEAL-7, DEAL-17)."""
    dc._alive()
    card, place = _draw(dc, draw)
    if draw in dc._boxed:
        raise RuleError("DEAL-17: draw %d is already marked boxed" % draw)
    dc._boxed.append(draw)
    out = []
    initial = dc.street == 0 and not dc.sa
    if initial and len(dc._boxed) >= dc.rules.boxed_misdeal_threshold:
        dc._misdeal(("DEAL-7",), "%d boxed cards on the initial deal (draws %s)" % (
            len(dc._boxed), ", ".join(str(d) for d in dc._boxed)), out, draw=draw, cards=(card,))
        return out
    if isinstance(place, int):
        remedy = ("set %s aside; seat %d receives a replacement at the end of the dealing round" % (
            card_text(card), place))
    else:
        remedy = "set %s aside as if it were not there; the next card takes its place" % card_text(card)
    dc._propose("boxed_card", ("DEAL-17",), "%s (draw %d) was face up in the deck" % (card_text(card), draw),
                remedy, out, draw=draw, seat=place if isinstance(place, int) else None, cards=(card,))
    return out


def mark_exposed(dc, draw, betting_remains=True):
    """The dealer marks that draw `draw` was exposed by a dealer error (DEAL-11, DEAL-21, DEAL-22,
    DEAL-42, DEAL-43). `betting_remains`: for stud 7th street (DEAL-43)."""
    dc._alive()
    card, place = _draw(dc, draw)
    out = []
    seat = place if isinstance(place, int) else None
    if seat is None or card not in dc.holes.get(seat, ()):
        dc._add(Finding("exposed_recorded", ("DEAL-22",), FLOOR, "%s (draw %d) recorded as exposed" % (
            card_text(card), draw), "no mechanical remedy; the floor rules", draw=draw, cards=(card,)), out)
        return out
    initial = dc.street == 0
    if dc.plan.family == FAMILY_STUD:
        _stud_exposed(dc, draw, card, seat, initial, betting_remains, out)
        return out
    if initial and not dc.sa:
        dc._exposed.append(draw)
        if draw <= 2 or len(dc._exposed) >= 2:
            why = "one of the first two cards off the deck" if draw <= 2 else "a second exposed downcard"
            dc._misdeal(("DEAL-11",), "%s (draw %d) was exposed: %s" % (card_text(card), draw, why), out,
                        draw=draw, seat=seat, cards=(card,))
        else:
            dc._propose("exposed_card", ("DEAL-21",), "%s (draw %d, seat %d) was exposed during the deal" % (
                card_text(card), draw, seat),
                "finish the deal; then seat %d receives the next card and %s becomes the %s burn (no extra burn)"
                % (seat, card_text(card), dc.street_name(1)), out, draw=draw, seat=seat, cards=(card,))
        return out
    dc._add(Finding("exposed_recorded", ("DEAL-22",), FLOOR, "%s (draw %d, seat %d) recorded as exposed" % (
        card_text(card), draw, seat), "the card stays in play; the floor rules", draw=draw, seat=seat,
        cards=(card,)), out)
    return out


def _stud_exposed(dc, draw, card, seat, initial, betting_remains, out):
    idx = dc.holes[seat].index(card)
    pattern = []
    for i in range(len(dc.plan.streets)):
        pattern.extend(dc.street_plan(i).hole)
    up = pattern[idx] if idx < len(pattern) else False
    last = dc.street == len(dc.plan.streets) - 1
    if up:
        dc._add(Finding("exposed_recorded", ("DEAL-22",), FLOOR, "%s is an upcard anyway" % card_text(card),
                        "nothing to do", draw=draw, seat=seat, cards=(card,)), out)
    elif initial and not dc.sa:
        mode = dc.rules.stud_exposed_downcard
        before = dc._stud_up.get(seat, 0)
        dc._stud_up[seat] = before + 1
        if mode == "tda2004" or (mode == "tda2017" and before >= 1):
            dc._misdeal(("DEAL-42",), "%s (draw %d), a downcard of seat %d, was exposed (%s)" % (
                card_text(card), draw, seat, mode), out, draw=draw, seat=seat, cards=(card,))
        else:
            dc._propose("stud_exposed_downcard", ("DEAL-42",), "%s (draw %d), a downcard of seat %d, was exposed"
                        % (card_text(card), draw, seat),
                        "%s becomes seat %d's upcard and its 3rd-street card is dealt face down; seat %d may "
                        "be the bring-in" % (card_text(card), seat, seat), out, draw=draw, seat=seat,
                        cards=(card,))
    elif last and betting_remains:
        dc._propose("seventh_street_exposed", ("DEAL-43",), "%s (draw %d), seat %d's 7th-street card, was "
                    "exposed" % (card_text(card), draw, seat),
                    "set %s aside and give seat %d the next card face down" % (card_text(card), seat), out,
                      draw=draw, seat=seat, cards=(card,))
    else:
        dc._add(Finding("exposed_recorded", ("DEAL-22", "DEAL-43"), FLOOR, "%s (draw %d) recorded as exposed"
                          % (card_text(card), draw), "the card stays in play", draw=draw, seat=seat,
                          cards=(card,)), out)


def foreign(dc, place):
    """A non-standard card (joker, other deck or back; UnknownTag / ForeignDeckCard from the deck
    registry) was drawn to `place` (a seat, BOARD, BURN or None), or found in the STUB (DEAL-13,
    DEAL-19, DEAL-20)."""
    dc._alive()
    out = []
    if place == STUB:
        dc._add(Finding("foreign_in_stub", ("DEAL-19",), ENGINE, "a foreign card was found in the stub",
                          "remove it; play continues", status=APPLIED), out)
        return out
    place = dc._check_place(place)
    dc.draws.append((FOREIGN, place))
    n = len(dc.draws)
    if isinstance(place, int):
        if dc.phase == DEALING and dc.street == 0 and place in dc.plan.seats:
            dc._initial_card(n, FOREIGN, place, out)
        else:
            dc.holes.setdefault(place, []).append(FOREIGN)
    elif place == BOARD:
        dc.board.append(FOREIGN)
    else:
        dc.aside.append(FOREIGN)
        dc._add(Finding("foreign_card", ("DEAL-19",), ENGINE, "draw %d is a foreign card" % n,
                          "remove it; it is not a burn", draw=n, status=APPLIED), out)
        return out
    seat = place if isinstance(place, int) else None
    cash = dc.rules.mode == CASH
    if seat is not None and cash and not dc._acted.get(seat):
        dc._propose("foreign_replace", ("DEAL-20",), "seat %d holds a foreign card (draw %d)" % (seat, n),
                      "remove the foreign card; seat %d receives the next card from the stub" % seat, out,
                      draw=n, seat=seat)
    elif not dc.sa:
        f = dc._misdeal(("DEAL-13",), "a foreign card (draw %d) at %s before substantial action" % (
            n, place_text(place)), out, draw=n, seat=seat)
        f.detail["place"] = place
    else:
        foreign_after_sa(dc, seat, place, out)
    dc._derive(out)
    return out


def foreign_after_sa(dc, seat, place, out):
    where = place_text(place)
    if dc.rules.foreign_card_after_sa == "void_refund":
        dc._propose("void_hand", ("DEAL-19",), "a foreign card at %s after substantial action" % where,
                      "the hand is void: every player gets back what they put in", out, seat=seat)
    else:
        dc._propose("foreign_scrap", ("DEAL-19",), "a foreign card at %s after substantial action" % where,
                      "disregard it like a scrap of paper: remove it%s" % (
                          " (seat %d is then short and dead, DEAL-25)" % seat if seat is not None else
                          "; the next stub card takes its place"), out, seat=seat, detail={"place": place})




def absent(dc, seat, _out=None):
    """DEAL-39: seat `seat` was not at the table when the last card of the initial deal landed."""
    dc._alive()
    out = [] if _out is None else _out
    if seat not in dc.plan.seats:
        raise RuleError("DEAL-39: seat %r is not dealt in" % (seat,), legal=dc.plan.seats)
    if dc.rules.mode == CASH:
        remedy = "absent players are not dealt in: remove seat %d's cards" % seat
    else:
        remedy = "seat %d's hand is dead; its blinds and antes stay in the pot" % seat
    dc._propose("absent", ("DEAL-39",), "seat %d is absent at the end of the deal" % seat, remedy, out,
                  seat=seat)
    return out




def kill(dc, seat, rule="DEAL-38"):
    """A hand killed by a console ruling (DEAL-38 and others): it gets no further cards (DEAL-44)."""
    dc._alive()
    if seat not in dc.plan.seats:
        raise RuleError(rule, "seat %r is not dealt in" % (seat,), legal=dc.plan.seats)
    out = []
    from felt.engine.dealing import remedies
    remedies.kill_hand(dc, seat)
    dc._add(Finding("hand_killed", (rule,), ENGINE, "seat %d's hand is dead" % seat, "", seat=seat,
                      status=APPLIED), out)
    if len(dc.live) <= 1 and dc.phase not in (OVER, SHOWDOWN):
        dc._end(out, "the hand is over: one live hand remains (GAME-6)")
    else:
        dc._derive(out)
    return out




def discard(dc, seat, cards):
    """DEAL-47: on a draw street, `seat` discards `cards` (() = stands pat)."""
    dc._alive()
    s = dc.street
    if not dc.street_plan(s).draw or dc.phase != DEALING:
        raise RuleError("DEAL-47: no draw is in progress")
    if seat not in dc.live:
        raise RuleError("DEAL-47: seat %r holds no live hand" % (seat,), legal=tuple(dc.live))
    if dc._drew.get(seat):
        raise RuleError("DEAL-47: seat %d has already drawn" % seat)
    for c in cards:
        if c not in dc.holes[seat]:
            raise RuleError("DEAL-47: %s is not in seat %d's hand" % (card_text(c), seat))
    out = []
    if len(dc._street_burns.get(s, ())) < dc._need_burn(s):
        dc._note(("draw_noburn", s), Finding("missing_burn", ("DEAL-47", "DEAL-3"), ENGINE,
                                               "the draw began without a burn",
                                               "burn one card before the first replacement"), out)
    expected = None
    for live_seat in dc.plan.seats:
        if live_seat in dc.live and not dc._drew.get(live_seat):
            expected = live_seat
            break
    if seat != expected:
        dc._add(Finding("out_of_order", ("DEAL-47",), ENGINE, "seat %d draws before seat %d" % (seat, expected),
                          "players draw in turn from the first seat left of the button", seat=seat), out)
    if dc._drawer is not None and dc._owed.get(dc._drawer, 0):
        dc._add(Finding("out_of_order", ("DEAL-47",), ENGINE, "seat %d still waits for %d card(s)" % (
            dc._drawer, dc._owed[dc._drawer]), "each player receives all replacements before the next "
            "player draws", seat=dc._drawer), out)
    top = dc.rules.draw_max_replace
    if len(cards) > top:
        dc._add(Finding("too_many_discards", ("DEAL-47", "GAME-15"), ENGINE, "seat %d discards %d cards" % (
            seat, len(cards)), "the house allows at most %d" % top, seat=seat), out)
    for c in cards:
        dc.holes[seat].remove(c)
        dc.muck.append(c)
    dc._owed[seat] = dc._owed.get(seat, 0) + len(cards)
    dc._drew[seat] = True
    dc._drawer = seat
    dc._maybe_complete(out)
    dc._derive(out)
    return out




def reshuffled(dc, include=()):
    """DEAL-34 / DEAL-35: the stub was reshuffled face down and reloaded (include "muck" and/or "burn"
    when those cards were mixed in). Returns a finding whose detail holds the candidate cards."""
    dc._alive()
    for what in include:
        if what not in (MUCK, BURN):
            raise RuleError("DEAL-35: include %r: only muck and burn can be mixed in" % (what,))
    out = []
    if MUCK in include:
        dc._to_stub(dc.muck)
        dc.muck = []
    if BURN in include:
        dc._to_stub(dc.burns)
        dc.burns = []
        dc._street_burns = {}
    cands = dc.stub_candidates()
    rules = ("DEAL-34", "DEAL-35") if include else ("DEAL-34",)
    dc._add(Finding("reshuffle", rules, ENGINE, "the stub was reshuffled: %d candidate cards" % len(cands),
                      "the next draws come from these cards in unknown order", status=APPLIED,
                      detail={"candidates": cands}), out)
    return out
