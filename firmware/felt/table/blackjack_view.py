# What a blackjack table shows (controller layer, pure): the box lights and the dealer display lines
# computed from the table's state only (felt/table/blackjack.py), so they repair themselves after a
# reset or a dropped write -- the same rule as felt/view.py for poker.
from felt.engine.blackjack import totals
from felt.engine.blackjack.round import BETTING, DEALER_PLAY, DONE, INSURANCE
from felt.engine.cards import card_text

# light states of a box
OFF = "off"
BET = "bet"  # a bet is down
ACT = "act"  # this box decides now
INSURE = "insure"  # this box may answer the insurance offer
WON = "won"
LOST = "lost"
PUSHED = "push"

WIDTH = 21  # characters a line on the 128x64 display (5x7 font)


def lights(t):
    """{box: light state} for boxes 1..bj.boxes."""
    r = t.round
    out = {}
    for b in range(1, t.rules.boxes + 1):
        out[b] = OFF
    if r is None:
        return out
    for b in r.bets:
        out[b] = BET
    kind, who = r.expect()
    if kind == "insurance":
        for b in who:
            out[b] = INSURE
    elif kind == "decision":
        out[who] = ACT
    elif r.phase == DONE:
        res = r.results()
        for b in res:
            out[b] = WON if res[b] > 0 else (LOST if res[b] < 0 else PUSHED)
    return out


def _hand(h):
    text = totals.text(h.cards) if len(h.cards) > 1 else card_text(h.cards[0]) if h.cards else "-"
    if h.outcome:
        text += " " + h.outcome
    elif h.doubles:
        text += " x%d" % (h.doubles + 1)
    return text


def lines(t):
    """The dealer display: the round and shoe, the dealer's cards (the up card only while the hole
    card is down), each hand's total (soft/hard) and the newest alert."""
    r = t.round
    head = "R%d S%d" % (t.round_no, t.shoe_no)
    if t.shoe is not None:
        head += " %d left" % t.shoe.left()
    out = [head[:WIDTH]]
    if r is None or r.phase == BETTING:
        out.append("bets: " + " ".join(["%d:%d" % (b, r.bets[b]) for b in sorted(r.bets)]) if r and r.bets else "place bets")
    else:
        if r.phase == DONE or r.phase == DEALER_PLAY:  # the hole card is turned over
            d = "D " + " ".join([card_text(c) for c in r.dealer]) + " " + totals.text(r.dealer)
        else:
            d = "D " + (card_text(r.dealer[0]) + (" ??" if len(r.dealer) > 1 else "") if r.dealer else "-")
        out.append(d[:WIDTH])
        at = r.acting()
        for h in r.hands:
            mark = ">" if h is at else " "
            out.append(("%s%d %s" % (mark, h.box, _hand(h)))[:WIDTH])
        if r.phase == INSURANCE:
            out.append("insurance? " + " ".join([str(b) for b in r.insurance_pending()]))
    if t.alerts:
        level, rule, text = t.alerts[-1]
        out.append(("!" + (rule + " " if rule else "") + text)[:WIDTH])
    return out[:8] if len(out) <= 8 else out[:7] + [out[-1]]
