# What a blackjack table shows (controller layer, pure): the box lights and the dealer display lines
# computed from the table's state only (felt/table/blackjack.py), so they repair themselves after a
# reset or a dropped write -- the same rule as felt/view.py for poker.
from felt.engine.blackjack import totals
from felt.engine.blackjack.round import BETTING, DEALER_PLAY, DONE, INSURANCE
from felt.engine.cards import card_text
from felt.table import textfit
from felt.table.textfit import fit, wrap

# light states of a box
OFF = "off"
BET = "bet"  # a bet is down
ACT = "act"  # this box decides now
INSURE = "insure"  # this box may answer the insurance offer
WON = "won"
LOST = "lost"
PUSHED = "push"

WIDTH = textfit.WIDTH  # characters a line: the SSD1306 with its 8x8 font cuts anything longer
# the seat-button offer as the display words it (felt.table.blackjack MENU, INSURE, EVEN)
OFFER = {"hit": "HIT", "double": "DOUBLE", "split": "SPLIT", "surrender": "SURRENDER", "redouble": "REDOUBLE",
         "yes": "INSURE", "even": "EVEN MONEY"}


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


def offers(t):
    """A line for each seat-button offer open now: '1: DOUBLE? hold' (hold the button to take it)."""
    out = []
    for b in sorted(t.menu):
        at = t.choice(b)
        opts = t.options(b) if at is not None else []
        if at is not None and at < len(opts):
            word = OFFER[opts[at]]
            out.append(fit("%d: %s? hold" % (b, word), "%d: %s?" % (b, word)))
    return out


# a settled hand's outcome in at most 4 letters (the total beside it says blackjack or bust)
_OUTCOME = {"blackjack": "win", "win": "win", "push": "push", "lose": "lose", "bust": "lose", "surrender": "surr",
            "even_money": "even"}


def _hand(h):
    text = totals.text(h.cards) if len(h.cards) > 1 else card_text(h.cards[0]) if h.cards else "-"
    if h.outcome:
        return text, _OUTCOME.get(h.outcome, h.outcome[:4])
    return text, ("x%d" % (h.doubles + 1)) if h.doubles else ""


def _hand_line(h, acting):
    # ">1 soft 17 x2", " 3 bust 24 lose": at most 2 + 7 + 1 + 4 = 14 of the 16 characters
    mark = ">" if acting else " "
    total, tail = _hand(h)
    return fit(("%s%d %s %s" % (mark, h.box, total, tail)) if tail else "%s%d %s" % (mark, h.box, total),
               "%s%d %s" % (mark, h.box, total))


def _head(t):
    rn, sn = t.round_no, t.shoe_no
    if t.shoe is None:
        return fit("R%d S%d" % (rn, sn), "R%d" % rn)
    left = t.shoe.left()
    return fit("R%d S%d %d left" % (rn, sn, left), "R%d S%d %dL" % (rn, sn, left), "R%d %dL" % (rn, left), "R%d" % rn)


def _dealer(r):
    if r.phase == DONE or r.phase == DEALER_PLAY:  # the hole card is turned over
        total = totals.text(r.dealer) if r.dealer else "-"
        return fit("D " + " ".join([card_text(c) for c in r.dealer]) + " " + total,
                   "D %s, %d cards" % (total, len(r.dealer)), "D %s" % total)
    if not r.dealer:
        return "D -"
    return "D " + card_text(r.dealer[0]) + (" ??" if len(r.dealer) > 1 else "")


def _alert(t, rows):
    level, rule, text = t.alerts[-1]
    return wrap("!" + (rule + " " if rule else "") + text, rows)


def lines(t):
    """The dealer display, at most 8 lines of WIDTH (16) characters (SSD1306, 8x8 font): the
    round, shoe and cards left; the dealer's cards (the up card only while the hole card is down);
    each hand's total (soft/hard) with the acting one marked and kept in view; the insurance
    offer; the seat-button offers; the newest alert (2-3 lines, its rule ID first)."""
    if t.tilted is not None:  # issue 16 item 3: play is locked, say why (as the poker view)
        return (["TILT", "PLAY LOCKED"] + wrap(t.tilted, 4) + ["CALL THE FLOOR"])[:8]
    r = t.round
    out = [_head(t)]
    hands = []
    extra = []
    if r is None or r.phase == BETTING:
        bets = " ".join(["%d:%d" % (b, r.bets[b]) for b in sorted(r.bets)]) if r is not None else ""
        extra = wrap("bets " + bets, 4) if bets else ["place bets"]
    else:
        out.append(_dealer(r))
        at = r.acting()
        hands = [_hand_line(h, h is at) for h in r.hands]
        if r.phase == INSURANCE:
            who = [str(b) for b in r.insurance_pending()]
            extra.append(fit("insurance? " + " ".join(who), "ins? " + " ".join(who), "ins? " + "".join(who)))
        extra.extend(offers(t))
    tail = _alert(t, 3 if len(out) + len(hands) + len(extra) <= 5 else 2) if t.alerts else []
    room = 8 - len(out) - len(extra) - len(tail)
    if len(hands) > room:  # many split hands: the window keeps the acting hand in view
        i = r.hands.index(at) if at is not None else len(hands) - 1
        start = max(0, min(i - 1, len(hands) - room))
        hands = hands[start:start + room]
    return (out + hands + extra)[:8 - len(tail)] + tail
