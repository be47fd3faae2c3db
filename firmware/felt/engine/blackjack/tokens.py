# Round inputs as text tokens (engine layer, pure; hardware/blackjack-history.md): what Round.log
# writes, read back into Round calls -- the body of a round history and of test scripts.
#   b3=25  bet 25 on box 3 (0 takes it back)     go   bets closed
#   3:Ah   the ace of hearts lands on box 3      D:Ah the same on the dealer's spot
#   3h 3s 3d 3p 3r 3x   box 3 hits, stands, doubles, splits, surrenders, re-doubles
#   3i5    box 3 insures for 5   3e even money   3n declines insurance   ic offer closed
from felt.engine.cards import parse_card
from felt.engine.blackjack.round import DEALER, DOUBLE, HIT, REDOUBLE, SPLIT, STAND, SURRENDER
from felt.errors import FormatError

_DECIDE = {"h": HIT, "s": STAND, "d": DOUBLE, "p": SPLIT, "r": SURRENDER, "x": REDOUBLE}


def _box(text, token):
    if not text.isdigit():
        raise FormatError("%r: a box is a number 1..7" % token)
    return int(text)


def apply(rnd, token):
    """Feed one token to Round `rnd`. FormatError for a token that is not one; the round's own
    named errors (BlackjackError) for one it refuses."""
    if token == "go":
        return rnd.close_bets()
    if token == "ic":
        return rnd.close_insurance()
    if ":" in token:
        where, card = token.split(":", 1)
        return rnd.deal(parse_card(card), DEALER if where == "D" else _box(where, token))
    if token.startswith("b") and "=" in token:
        box, amount = token[1:].split("=", 1)
        if not amount.isdigit():
            raise FormatError("%r: a bet is a whole number of chips" % token)
        return rnd.bet(_box(box, token), int(amount))
    at = 0
    while at < len(token) and token[at].isdigit():
        at += 1
    if at == 0 or at == len(token):
        raise FormatError("%r is no round token" % token)
    box, rest = _box(token[:at], token), token[at:]
    if rest in _DECIDE:
        return rnd.decide(box, _DECIDE[rest])
    if rest == "e":
        return rnd.even_money(box)
    if rest == "n":
        return rnd.decline_insurance(box)
    if rest[0] == "i" and rest[1:].isdigit():
        return rnd.insure(box, int(rest[1:]))
    raise FormatError("%r is no round token" % token)


def play(rnd, text):
    """Feed every token of `text` (space separated) to `rnd`; returns `rnd`."""
    for token in text.split():
        apply(rnd, token)
    return rnd

