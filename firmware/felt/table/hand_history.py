# The finished hand as PHH (controller layer): Table._write_history loads this with the PHH writer
# (felt.history.phh_write, not the reader) on the first hand a table with a history sink finishes --
# the actions, antes, blinds and the user fields felt.history.replay needs to open and kill as the
# table did.
from felt.engine.cards import UNKNOWN, card_text, cards_text


def text(t):
    """The PHH text of the hand table `t` has just finished."""
    from felt.history import phh_write as phh

    h = t.hand
    g = t.config.record
    acts = []
    for op in h.log:
        a = _phh_action(op)
        if a:
            acts.append(a)
    hist = phh.History(g.code, h.starting_stacks, acts, antes=_antes(h), blinds_or_straddles=(
        list(t.setup.blinds_or_straddles) if g.forced == "blinds" else None),
        bring_in=t.config.bring_in if g.forced == "bring_in" else None,
        small_bet=t.config.small_bet if g.structure == "limit" or g.forced == "bring_in" else None,
        big_bet=t.config.big_bet if g.structure == "limit" or g.forced == "bring_in" else None,
        min_bet=t.config.bb if g.structure != "limit" and g.forced == "blinds" else None,
        players=["seat %d" % s for s in t.setup.seats], finishing_stacks=list(h.stacks),
        extra=[("hand", t.hand_no), ("seats", list(t.setup.seats))] + _opener_field(h, g) + _rules_fields(h))
    for op in h.log:
        if op.kind == "kill":
            hist.actions = _with_kills(h, hist)
            break
    return phh.write(hist)


def _opener_field(h, g):
    # A live post equal to the big blind (make-up BLIND-14, new player BLIND-16) opens preflop
    # left of the big blind (GAME-3), but a PHH reader (pokerkit, felt.history.replay) takes a later equal
    # blind for a straddle and opens left of it. The user field (PHH: "_" names) tells felt.history.replay
    # to open as the table did; written only when the two readings differ.
    if g.forced != "blinds":
        return []
    from felt.engine.hand import openers as streets

    b = h.nominal_blinds
    if streets.position_opener(0, b) == streets.position_opener(0, b, later_ties=True):
        return []
    return [(OPENER_FIELD, True)]


OPENER_FIELD = "_felt_game3_opener"


def _rules_fields(h):
    # POT-20: a raked cash hand records hr.rake (basis points, cap or 0) for felt.history.replay, which
    # takes the same rake (PHH has no rake field; other readers see the stacks before it).
    # BLIND-26: a chopped hand is written as the small blind's fold marked "# chop" (PHH has no
    # chop: other readers give the big blind the small blind), and hr.blind_chop as a user field
    out = []
    for op in h.log:
        if op.kind == "chop":
            out.append(("_felt_chop", True))
    if h.event_heads_up and h.structure == "limit":
        out.append(("_felt_event_heads_up", True))  # TOUR-13: no raise cap heads-up (BET-5)
    if h.rules.mode != "cash":
        return out
    if h.rules.bbj_hand != "off":
        out.append(("_felt_bbj", True))  # CASH-12: the jackpot drop came off the pot (felt.history.replay takes it)
    rake = h.rules.rake
    if rake == "off":
        return out
    return out + [("_felt_rake", [rake.bp, rake.cap or 0])]


def _antes(h):
    # PHH has no dead blind: a player's dead money is written as its ante -- an uneven ante is dead
    # money in the main pot that counts toward no call, the same thing (POT-17). Heads-up PHH
    # lists are read swapped unless the button posts the big blind (engine/button.py)
    if not hasattr(h, "antes_posted"):
        return 0
    out = [h.antes_posted[p] + h.dead_posted[p] for p in range(h.n)]
    if h.n == 2 and h.rules.headsup_blinds == "button_is_sb":
        out.reverse()
    return out


# ---- a killed hand in PHH (DEAL-36/38; Hand.kill) ------------------------------------------------
# PHH has no kill: a killed hand is written as a fold at its next turn, and a bet or raise that the
# kill took back (DEAL-36) as the part of it that stood (a call/check, or a bet of the called part).
# Where the fold goes is found by replaying the written actions on a Hand as felt.history.replay does.
# A kill that ends the hand (GAME-6) before the killed hand's turn has no in-turn form: see _at_kills.

class _One:
    # one action as the History felt.history.replay._play reads (scale 1: the table writes chips)
    scale = 1

    def __init__(self, text):
        self.actions = [text]
        self.action_lines = [None]

    def action_line(self, k):
        return None


def _kill_rewrite(h):
    # the PHH actions of h.log with each DEAL-36 return folded into the bet it came from: when all
    # of it came back, the bet is written as the fold itself (the same chips, at the killed hand's
    # own turn); else as the part that stood, and the fold follows at the next turn (_with_kills)
    acts = []
    kills = []
    last = {}  # position -> (index in acts of its last bet/raise, high before it, own bet before it)
    bets = {}  # position -> chips in front on this street
    high = 0
    betting = False
    for op in h.log:
        k = op.kind
        if k in ("burn", "board", "hole", "discard") and betting:
            high = 0  # a new street
            last = {}
            bets = {}
            betting = False
        if k in ("blind", "bring_in") and op.total > high:
            high = op.total
        elif k in ("bet", "raise", "complete"):
            last[op.position] = (len(acts), high, bets.get(op.position, 0))
            high = op.total
        if k in ("blind", "bring_in", "call", "bet", "raise", "complete"):
            bets[op.position] = op.total
        if k in ("fold", "check", "call", "bet", "raise", "complete", "bring_in", "kill"):
            betting = True
        if k == "kill":
            p = op.position
            if op.amount and p in last:
                i, before, own = last[p]
                high = before if before > op.total else op.total
                if op.total <= own:
                    acts[i] = "p%d f" % (p + 1)
                    continue
                acts[i] = ("p%d cbr %d" % (p + 1, op.total)) if op.total > before else ("p%d cc" % (p + 1))
            kills.append((p, len(acts)))  # dead once the actions before the kill are played
            continue
        a = _phh_action(op)
        if a:
            acts.append(a)
    return acts, kills


def _with_kills(h, hist):
    """The actions of hist for a hand with killed hands: in turn when they can be (a fold at the
    killed hand's next turn, any PHH reader plays it), else each kill where it happened (_at_kills)."""
    from felt.history import replay
    from felt.engine.games import GAMES
    from felt.engine.hand.machine import Hand
    from felt.engine.house.rules import CASH, HouseRules

    acts, kills = _kill_rewrite(h)
    game = GAMES[hist.variant]
    n = len(hist.starting_stacks)
    shadow = Hand(game=game, stacks=hist.starting_stacks, blinds=hist.blinds_or_straddles or [0] * n,
                  antes=hist.antes, bring_in=hist.bring_in or 0, small_bet=hist.small_bet or 0,
                  big_bet=hist.big_bet or 0, min_bet=hist.min_bet or 0, unit=1, rules=HouseRules(CASH, game.code),
                  record=False, phh_order=not replay._game3_opener(hist), event_heads_up=replay._event_heads_up(hist))
    out = []

    def play(text):
        out.append(text)
        return replay._play(shadow, _One(text)) is None

    def dead(p, done):
        for q, at in kills:
            if q == p and at <= done:
                return True
        return False

    def turns(done, nxt):
        # the killed hands fold when their turn comes; a live player the table never asked (its
        # street closed at once because the dead hand could no longer bet against it, GAME-5)
        # checks, which costs nothing, before the next recorded action that is not theirs
        for _ in range(4 * n):
            p = shadow.actor
            if p is None:
                return True
            if dead(p, done):
                word = "f"
            elif (nxt is None or not nxt.startswith("p%d " % (p + 1))) and not shadow.legal().call:
                word = "cc"
            else:
                return True
            if not play("p%d %s" % (p + 1, word)):
                return False
        return False

    for i in range(len(acts)):
        if not turns(i, acts[i]) or not play(acts[i]):
            return _at_kills(h)
    for _ in range(2 * n):  # a killed hand left at the showdown (all-in: it never had a turn) mucks
        if shadow.finished or not turns(len(acts), None) or shadow.finished or shadow.phase != "showdown":
            break
        left = [q for q, _ in kills if shadow.live[q] and not shadow.mucked[q] and shadow.can_muck(q)]
        if not left or not play("p%d sm" % (left[0] + 1)):
            break
    return out if shadow.finished else _at_kills(h)


def _at_kills(h):
    # A kill no in-turn order can express: the hand ended at it (GAME-6) before the killed hand's
    # turn came. Each kill is written where it happened, as a fold marked "# kill" (felt.history.replay
    # plays it with Hand.kill, which also returns an uncalled bet, DEAL-36); other readers refuse
    # the out-of-turn fold on that line.
    acts = []
    for op in h.log:
        if op.kind == "kill":
            acts.append("p%d f # kill" % (op.position + 1))
            continue
        a = _phh_action(op)
        if a:
            acts.append(a)
    return acts


def _phh_action(op):
    who = "p%d" % (op.position + 1) if op.position is not None else "d"
    k = op.kind
    if k == "hole":
        return "d dh %s %s" % (who, "".join(["??" if c == UNKNOWN else card_text(c) for c in op.cards]))
    if k == "board":
        return "d db %s" % cards_text(op.cards)
    if k == "fold":
        return who + " f"
    if k in ("check", "call"):
        return who + " cc"
    if k in ("bet", "raise", "complete"):
        return "%s cbr %d" % (who, op.total)
    if k == "bring_in":
        return who + " pb"
    if k == "discard":
        return ("%s sd %s" % (who, cards_text(op.cards))) if op.cards else who + " sd"
    if k == "show":
        return "%s sm %s" % (who, cards_text(op.cards))
    if k == "muck":
        return who + " sm"
    if k == "chop":
        return who + " f # chop"
    return None
