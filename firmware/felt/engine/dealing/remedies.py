# The dealer's answers to a DealCheck's ASSIST proposals (engine layer, pure; functions taking the check
# `dc`, loaded on first use by its one-line methods): confirm() applies the prescribed remedy (misdeal,
# fouled deck, boxed/exposed/extra card, burn rebuilds, premature cards, 7th street on a short stub) and
# reject() keeps the cards as dealt. A proposal of kind K is applied by _do_K(dc, f, card, out).
from felt.engine.dealing.plan import (BOARD, BURN, FAMILY_BOARD, FOREIGN, MISDEALT, VOID, card_text, cards_text,
                                      StreetPlan)
from felt.engine.findings import APPLIED, CONFIRMED, ENGINE, PROPOSED, REJECTED, Finding
from felt.engine.house.rules import CASH
from felt.errors import RuleError


def _pending_finding(dc, fid):
    if isinstance(fid, Finding):
        fid = fid.id
    if isinstance(fid, bool) or not isinstance(fid, int) or fid < 1 or fid > len(dc.findings):
        raise RuleError("DEAL-15: no finding #%r" % (fid,))
    f = dc.findings[fid - 1]
    if f.status != PROPOSED:
        raise RuleError("DEAL-15: finding #%d is %s, not a pending proposal" % (fid, f.status))
    return f


def _forget_problem(dc, f):
    if f.key is not None and dc._problems.get(f.key) is f:
        del dc._problems[f.key]


def confirm(dc, fid, card=None):
    """The dealer confirms proposal `fid` (an id or the Finding). `card`: the card the floor picked at
    random (DEAL-27 four-card flop, DEAL-28 tda_random). Returns the resulting instructions."""
    dc._alive()
    f = _pending_finding(dc, fid)
    out = []
    handler = globals().get("_do_" + f.kind)
    if handler is None:
        raise RuleError(f.rules[0], "proposal %s has no mechanical remedy" % f.kind)
    handler(dc, f, card, out)  # may raise RuleError before any change (random pick missing)
    f.status = CONFIRMED
    _forget_problem(dc, f)
    if dc.phase not in (MISDEALT, VOID):
        dc._maybe_complete(out)
        dc._derive(out)
    return out


def reject(dc, fid):
    """The dealer rejects proposal `fid`: nothing changes except what the rule says follows."""
    dc._alive()
    f = _pending_finding(dc, fid)
    out = []
    f.status = REJECTED
    if f.key is not None:
        dc._rejected[f.key] = True
        _forget_problem(dc, f)
    if f is dc._early_f:
        dc._keep_early[f.street] = True
        if f.street == dc.street:
            dc._adopt_early(f.street)
    if f is dc._four:
        # not a four-card flop: the fourth card is a premature turn
        c = dc.board.pop()
        dc._premature(2, f.draw, c, None, out)
    if f is dc._rebuild:
        dc._add(Finding("cards_stand", f.rules, ENGINE, "the %s stands as dealt" % dc.street_name(f.street),
                        "", status=APPLIED), out)
    dc._maybe_complete(out)
    dc._derive(out)
    return out


def _instruct(dc, f, kind, text, out, cards=(), detail=None):
    return dc._add(Finding(kind, f.rules, ENGINE, text, f.remedy, APPLIED, f.draw, f.seat, cards, detail), out)


def _do_misdeal(dc, f, card, out):
    dc.phase = MISDEALT
    for g in dc.findings:
        if g is not f and g.status == PROPOSED:
            dc._lapse(g, "the hand was misdealt", out)
    dc._add(Finding("redeal", ("DEAL-14",), ENGINE, "misdeal confirmed", f.remedy, APPLIED, seat=None,
                    detail={"button": dc.plan.button, "seats": dc.plan.seats, "same_stakes": True,
                            "blinds_reposted": True, "counts_as_one_hand": True}), out)


def _do_fouled_deck(dc, f, card, out):
    dc.phase = VOID
    for g in dc.findings:
        if g is not f and g.status == PROPOSED:
            dc._lapse(g, "the deck is fouled", out)
    _instruct(dc, f, "void_hand", "fouled deck: the hand is void", out, detail={"refund": True})


def _do_void_hand(dc, f, card, out):
    _do_fouled_deck(dc, f, card, out)


def _do_extra_card_burn(dc, f, card, out):
    c = f.cards[0]
    if dc._seat_of(c) is not None:  # still in a live holding (a dead hand's card is never a burn)
        dc._remove_logical(c)
        dc.burns.append(c)
        dc._street_burns.setdefault(1, []).append(c)
        dc._credit[1] = dc._credit.get(1, 0) + 1
    _instruct(dc, f, "move_card", "%s is the %s burn" % (card_text(c), dc.street_name(1)), out, cards=(c,))


def _do_give_card(dc, f, card, out):
    k = f.detail.get("count", 1)
    dc._owed[f.seat] = dc._owed.get(f.seat, 0) + k
    _instruct(dc, f, "deal_replacement", "deal seat %d %d card(s)" % (f.seat, k), out)


def _do_dead_hand(dc, f, card, out):
    kill_hand(dc, f.seat)
    _instruct(dc, f, "kill_hand", "seat %d's hand is dead" % f.seat, out)
    if len(dc.live) <= 1:
        dc._end(out, "the hand is over: one live hand remains (GAME-6)")


def kill_hand(dc, seat):
    """Seat `seat`'s hand is dead: its cards go to the muck and it gets no more (DEAL-44)."""
    if seat not in dc._killed:
        dc._killed.append(seat)
    if seat in dc.live:
        dc.live.remove(seat)
    for c in dc.holes.get(seat, ()):
        if c != FOREIGN:
            dc.muck.append(c)
    if seat in dc.holes:
        dc.holes[seat] = []
    dc._owed[seat] = 0


def _do_absent(dc, f, card, out):
    if dc.rules.mode != CASH and f.seat not in dc._absent_killed:
        dc._absent_killed.append(f.seat)
    _do_dead_hand(dc, f, card, out)


def _do_boxed_card(dc, f, card, out):
    c = f.cards[0]
    where = dc._remove_logical(c)
    if where is not None:
        dc.aside.append(c)
    dc._street_draws = [x for x in dc._street_draws if x[1] != c]  # as if it were not there
    if isinstance(where, int):
        dc._owed[where] = dc._owed.get(where, 0) + 1
    _instruct(dc, f, "move_card", "%s is set aside" % card_text(c), out, cards=(c,))


def _do_exposed_card(dc, f, card, out):
    c = f.cards[0]
    if dc._seat_of(c) == f.seat:
        dc._remove_logical(c)
        dc._owed[f.seat] = dc._owed.get(f.seat, 0) + 1
        dc.burns.append(c)
        dc._street_burns.setdefault(1, []).append(c)
        dc._credit[1] = dc._credit.get(1, 0) + 1
    _instruct(dc, f, "move_card", "%s is the %s burn; seat %d gets the next card after the deal" % (
        card_text(c), dc.street_name(1), f.seat), out, cards=(c,))


def _do_stud_exposed_downcard(dc, f, card, out):
    _instruct(dc, f, "upcard", "%s plays as seat %d's upcard" % (card_text(f.cards[0]), f.seat), out,
              cards=f.cards, detail={"upcard": f.cards[0]})


def _do_seventh_street_exposed(dc, f, card, out):
    _do_boxed_card(dc, f, card, out)


def _do_foreign_replace(dc, f, card, out):
    dc._take_out(FOREIGN, dc.holes[f.seat])
    dc._owed[f.seat] = dc._owed.get(f.seat, 0) + 1
    _instruct(dc, f, "deal_replacement", "seat %d gets the next card in place of the foreign card" % f.seat,
              out)


def _do_foreign_scrap(dc, f, card, out):
    place = f.detail.get("place")
    if isinstance(place, int):
        dc._take_out(FOREIGN, dc.holes[place])
    else:
        dc._take_out(FOREIGN, dc.board)
    _instruct(dc, f, "remove_card", "the foreign card is disregarded", out)


def _do_four_card_flop(dc, f, card, out):
    flop = list(f.cards)
    if card is None or card not in flop:
        raise RuleError("DEAL-27: name the card the floor picked (one of %s)" % cards_text(flop),
                        legal=tuple(flop))
    if dc._take_out(card, dc.board):
        dc.burns.append(card)
        dc._street_burns.setdefault(2, []).append(card)
        dc._credit[2] = dc._credit.get(2, 0) + 1
    _instruct(dc, f, "move_card", "%s is the turn burn; the flop is %s; deal the turn without a burn" % (
        card_text(card), cards_text([c for c in flop if c != card])), out, cards=(card,))


def _do_noburn_flop(dc, f, card, out):
    if dc.rules.noburn_flop == "tda_random":
        flop = [c for d, c, p in dc._street_draws if p == BOARD]
        if card is None or card not in flop:
            raise RuleError("DEAL-28: name the card picked at random as the burn (one of %s)" %
                            cards_text(flop), legal=tuple(flop))
        if dc._take_out(card, dc.board):
            dc.burns.append(card)
            dc._street_burns.setdefault(1, []).append(card)
        rest = [(d, c, BOARD) for d, c, p in dc._street_draws if c != card]
        dc._street_draws = [(f.draw, card, BURN)] + rest
        _instruct(dc, f, "move_card", "%s is the flop burn; complete the flop from the stub" % card_text(card),
                  out, cards=(card,))
        return
    _rebuild_street(dc, f, out)


def _do_burn_error(dc, f, card, out):
    _rebuild_street(dc, f, out)


def _rebuild_street(dc, f, out):
    # DEAL-28 restore_order / DEAL-29: the order the cards would have had; surplus cards become burns
    s = dc.street
    need = dc._need_burn(s)
    n_board = dc.street_plan(s).board
    order = []
    for d, c, p in dc._street_draws:
        if dc._remove_logical(c) is not None:  # a card reshuffled back into the stub drops out
            order.append((d, c))
    burns = [c for d, c in order[:need]]
    board = [c for d, c in order[need:need + n_board]]
    surplus = [c for d, c in order[need + n_board:]]
    for c in burns + surplus:
        dc.burns.append(c)
        dc._street_burns.setdefault(s, []).append(c)
    for c in board:
        dc.board.append(c)
    dc._street_draws = ([(d, c, BURN) for d, c in order[:need]] +
                        [(d, c, BOARD) for d, c in order[need:need + n_board]] +
                        [(d, c, BURN) for d, c in order[need + n_board:]])
    if surplus and s + 1 < len(dc.plan.streets):
        dc._credit[s + 1] = dc._credit.get(s + 1, 0) + 1
    text = "burn %s; %s %s" % (cards_text(burns) or "-", dc.street_name(s), cards_text(board) or "-")
    if surplus:
        text += "; %s become(s) burn(s)" % cards_text(surplus)
    if len(board) < n_board:
        text += "; deal %d more %s card(s)" % (n_board - len(board), dc.street_name(s))
    _instruct(dc, f, "rebuild", text, out, detail={"burns": burns, "board": board, "surplus": surplus})


def _do_short_stub(dc, f, card, out):
    branch = f.detail["branch"]
    s = f.street
    if branch in ("A", "C"):
        earlier = []
        for i in range(1, s):
            earlier.extend(dc._street_burns.get(i, ()))
        for c in earlier:
            dc._take_out(c, dc.burns)
        dc._to_stub(earlier)
    if branch in ("B", "C"):
        for seat in dc.live:
            dc._expect[seat] -= len(dc.plan.streets[s].hole)
        dc._override[s] = StreetPlan(burn=1, hole=(), board=1)
    _instruct(dc, f, "seventh_street", "7th street: case %s" % branch, out, detail={"branch": branch})


def _do_premature_stud(dc, f, card, out):
    t = f.street
    cards = []
    for seat, c in dc._early_seat:
        cards.append(c)
        if dc.rules.premature_stud == "tda2017":
            dc.aside.append(c)
    dc._early_seat = []
    if dc.rules.premature_stud == "tda2017":
        last = len(dc.plan.streets) - 1
        dc._setting_aside = t
        dc._aside_return[last] = dc._aside_return.get(last, []) + cards
        dc._credit[t] = 0
        dc._credit[last] = dc._credit.get(last, 0) + 1
    else:
        dc._to_stub(cards)
        dc._credit[t] = dc.street_plan(t).burn
    _instruct(dc, f, "premature", "premature %s handled" % dc.street_name(t), out, cards=cards)


def _do_premature_board(dc, f, card, out):
    t = f.street
    cards = list(dc._early_board)
    dc._early_board = []
    name = dc.street_name(t)
    early_burn = dc._credit.get(t, 0) >= dc.street_plan(t).burn if t < len(dc.plan.streets) else False
    if name == "turn" and dc.plan.family == FAMILY_BOARD and dc.rules.premature_turn == "tda2017":
        for c in cards:
            dc.aside.append(c)
        dc._credit[t] = 0  # the turn gets a new burn; the early burn stays with the burns
        dc._credit[t + 1] = dc._credit.get(t + 1, 0) + 1
        dc._aside_return[t + 1] = dc._aside_return.get(t + 1, []) + cards
        _instruct(dc, f, "premature", "%s set aside face up until the river" % cards_text(cards), out,
                  cards=cards)
        return
    dc._to_stub(cards)
    text = "%s back into the stub; reshuffle the stub face down and reload the shoe" % cards_text(cards)
    if t < len(dc.plan.streets):
        text += "; then the %s is dealt %s" % (name, "without a burn" if early_burn else "with its burn")
    _instruct(dc, f, "reshuffle_stub", text, out, cards=cards)


def _do_premature_flop(dc, f, card, out):
    _do_premature_board(dc, f, card, out)


def _do_premature_turn(dc, f, card, out):
    _do_premature_board(dc, f, card, out)


def _do_premature_river(dc, f, card, out):
    _do_premature_board(dc, f, card, out)


def _do_extra_board(dc, f, card, out):
    _do_premature_board(dc, f, card, out)
