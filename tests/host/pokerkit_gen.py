# Seeded random hands played by PokerKit 0.7.7 (the reference engine, test-only) with random legal
# actions, written out as PHH text, for the differential tests and the replay benchmark. Host only.
# Every hand is a pure function of (variant, seed): PokerKit shuffles with the global `random`
# module, so it is seeded per hand; the action policy uses its own random.Random(seed).
import random
import warnings

from pokerkit import Automation, HandHistory

from felt.engine.cards import parse_card
from felt.engine.games import GAMES
from felt.engine.hand.machine import Hand
from felt.errors import FeltError

# Variant -> structure. Amounts are small odd-friendly integers so ties leave odd chips.
STRUCTURES = {
    "NT": dict(blinds=(1, 2), min_bet=2, players=(2, 9)),
    "NS": dict(blinds=(1, 2), min_bet=2, players=(2, 6)),
    "PO": dict(blinds=(1, 2), min_bet=2, players=(2, 9)),
    "N2L1D": dict(blinds=(1, 2), min_bet=2, players=(2, 6)),
    "FT": dict(blinds=(1, 2), small_bet=2, big_bet=4, players=(2, 9)),
    "FO/8": dict(blinds=(1, 2), small_bet=2, big_bet=4, players=(2, 9)),
    "F2L3D": dict(blinds=(1, 2), small_bet=2, big_bet=4, players=(2, 5)),
    "FB": dict(blinds=(1, 2), small_bet=2, big_bet=4, players=(2, 5)),
    "F7S": dict(ante=1, bring_in=1, small_bet=4, big_bet=8, players=(2, 7)),
    "F7S/8": dict(ante=1, bring_in=1, small_bet=4, big_bet=8, players=(2, 7)),
    "FR": dict(ante=1, bring_in=1, small_bet=4, big_bet=8, players=(2, 7)),
}
VARIANTS = tuple(sorted(STRUCTURES))
FIXED_LIMIT = ("FT", "FO/8", "F2L3D", "FB", "F7S", "F7S/8", "FR")
STUD = ("F7S", "F7S/8", "FR")
DRAW = ("N2L1D", "F2L3D", "FB")

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HAND_KILLING,
    Automation.CHIPS_PULLING,
)


class Generated:
    """One generated hand: PHH text plus PokerKit's own outcome and its pushes (for the checks
    that replace PokerKit's odd-chip choices by ours)."""

    def __init__(self, variant, seed, text, finishing_stacks, pushes, starting_stacks, departures=(),
                 mirror_error=None):
        self.variant = variant
        self.seed = seed
        self.text = text
        self.finishing_stacks = finishing_stacks
        # [(amount, winners, hand_type_index or None, pot_index, chips pushed per player)]
        self.pushes = pushes
        self.starting_stacks = starting_stacks
        self.departures = list(departures)  # what PokerKit allowed and our rules refused
        self.mirror_error = mirror_error  # our engine refused PokerKit's own move (a bug?)
        self.stud_tie = None


def _stacks(rng, n, big):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.15:
            out.append(rng.randint(1, big))  # below the big blind / bring-in + ante
        elif r < 0.5:
            out.append(rng.randint(big, 20 * big))
        else:
            out.append(rng.randint(20 * big, 150 * big))
    return out


def _fields(variant, rng, n):
    s = STRUCTURES[variant]
    f = {"variant": variant, "ante_trimming_status": rng.random() < 0.5}
    if variant in STUD:
        f["antes"] = [s["ante"]] * n
        f["bring_in"] = s["bring_in"]
        f["small_bet"] = s["small_bet"]
        f["big_bet"] = s["big_bet"]
        f["starting_stacks"] = _stacks(rng, n, s["small_bet"])
        return f
    sb, bb = s["blinds"]
    blinds = [sb, bb] + [0] * (n - 2)
    if n > 3 and variant in ("NT", "PO") and rng.random() < 0.15:
        blinds[2] = 2 * bb  # straddle
    f["blinds_or_straddles"] = blinds
    # No big-blind antes here: PokerKit 0.7.7 hands a lone big-blind ante back to its payer when
    # he folds (a pot only he is eligible for) and counts it in his later bets; GAME-17 makes it
    # dead money. The real WSOP hands with big-blind antes in ../shared/phh cover that case.
    f["antes"] = [1] * n if rng.random() < 0.4 else [0] * n
    if "min_bet" in s:
        f["min_bet"] = s["min_bet"]
    else:
        f["small_bet"] = s["small_bet"]
        f["big_bet"] = s["big_bet"]
    stacks = _stacks(rng, n, bb)
    # A blind poster keeps a chip behind: PokerKit lets a player all-in from posting fold, and
    # prices the call at a short straddle instead of the full one (BET-23). Other seats may
    # still hold less than the big blind.
    for p in range(n):
        need = f["antes"][p] + blinds[p] + 1
        if blinds[p] and stacks[p] < need:
            stacks[p] = need + rng.randint(0, 3 * bb)
    f["starting_stacks"] = stacks
    return f


class Mirror:
    """Our engine's Hand fed the same operations as PokerKit's state, so that the generator only
    picks actions legal under both rule sets. Where PokerKit allows what our rules forbid (see
    test_differential_pokerkit.py), the refusal's rule is counted in `departures`."""

    def __init__(self, fields):
        n = len(fields["starting_stacks"])
        self.hand = Hand(game=GAMES[fields["variant"]], stacks=fields["starting_stacks"],
                         blinds=fields.get("blinds_or_straddles") or [0] * n, antes=fields["antes"],
                         bring_in=fields.get("bring_in", 0), small_bet=fields.get("small_bet", 0),
                         big_bet=fields.get("big_bet", 0), min_bet=fields.get("min_bet", 0))
        self.done = 0
        self.error = None
        # when PokerKit and we disagree on who opens a stud street: (PokerKit's actor, ours, their
        # upcards, our actor's upcards, everybody's upcards, live, stacks)
        self.stud_tie = None

    def sync(self, state):
        ops = state.operations
        while self.error is None and self.done < len(ops):
            op = ops[self.done]
            self.done += 1
            try:
                self._apply(op)
            except FeltError as e:
                self.error = "%s: %s" % (type(op).__name__, e)
                h = self.hand
                if getattr(e, "rule", None) == "BET-38" and h.game.family == "stud" and h.street > 0:
                    ours = h.actor
                    theirs = op.player_index
                    self.stud_tie = (theirs, ours, h.upcards(theirs), h.upcards(ours),
                                     [h.upcards(q) for q in range(h.n)], list(h.live), list(h.stacks))

    def _apply(self, op):
        h = self.hand
        kind = type(op).__name__
        if kind == "HoleDealing":
            h.deal_hole(op.player_index, _felt_cards(op.cards))
        elif kind == "BoardDealing":
            h.deal_board(_felt_cards(op.cards))
        elif kind == "StandingPatOrDiscarding":
            h.draw(op.player_index, _felt_cards(op.cards))
        elif kind == "Folding":
            h.fold(op.player_index)
        elif kind == "CheckingOrCalling":
            h.check_call(op.player_index)
        elif kind == "BringInPosting":
            h.post_bring_in(op.player_index)
        elif kind == "CompletionBettingOrRaisingTo":
            h.bet_raise_to(op.player_index, op.amount)
        elif kind == "HoleCardsShowingOrMucking":
            p = op.player_index
            cards = _felt_cards(op.hole_cards)
            if not cards:
                h.muck(p)
            elif not (h.shown[p] and all(c in h.hole[p] for c in cards)):
                h.show(p, cards)

    def raise_range(self, p):
        """(lo, hi) bet/raise-to totals our rules allow p now, or a blocking rule ID."""
        if self.error is not None:
            return None
        legal = self.hand.legal()
        if legal is None or legal.position != p:
            return "actor"
        if not legal.can_raise:
            return legal.block[0] if legal.block else "no raise"
        return legal.min_to, legal.max_to


def _felt_cards(cards):
    return [parse_card(repr(c)) for c in cards]


def _act(state, rng, mirror, departures):
    i = state.actor_index
    call = state.checking_or_calling_amount
    choices = ["cc", "cc", "cc"]
    if call and state.can_fold() and (mirror.error is not None or mirror.hand.can_fold(i)):
        choices.append("f")
    span = None
    if state.can_complete_bet_or_raise_to():
        lo = state.min_completion_betting_or_raising_to_amount
        hi = state.max_completion_betting_or_raising_to_amount
        ours = mirror.raise_range(i)
        if ours is None:
            span = (lo, hi)
        elif isinstance(ours, tuple):
            a, b = max(lo, ours[0]), min(hi, ours[1])
            if a <= b:
                span = (a, b)
            else:
                departures.append("amounts: pokerkit %d..%d, ours %d..%d" % (lo, hi, ours[0], ours[1]))
        else:
            departures.append("raise refused by " + ours)
        if span is not None:
            choices += ["cbr", "cbr"]
    if state.can_post_bring_in():
        choices = ["pb", "pb", "cbr"] if "cbr" in choices else ["pb"]
    pick = rng.choice(choices)
    if pick == "f":
        state.fold()
    elif pick == "pb":
        state.post_bring_in()
    elif pick == "cc":
        state.check_or_call()
    else:
        lo, hi = span
        r = rng.random()
        amount = lo if r < 0.4 else hi if r < 0.7 else rng.randint(lo, hi)
        state.complete_bet_or_raise_to(amount)


def _discard(state, rng):
    i = state.stand_patter_or_discarder_index
    hole = list(state.hole_cards[i])
    # never draw more than the deck holds (so no card is reshuffled back into one hand)
    pending = len(state.discarded_cards[state.street_index])
    room = max(0, len(state.deck_cards) - 2 - pending)
    k = min(rng.randint(0, len(hole)), room)
    state.stand_pat_or_discard(rng.sample(hole, k))


def generate(variant, seed):
    """Play one random hand of `variant` with PokerKit; returns Generated."""
    rng = random.Random("%s:%d" % (variant, seed))
    s = STRUCTURES[variant]
    n = rng.randint(*s["players"])
    fields = _fields(variant, rng, n)
    random.seed("deck:%s:%d" % (variant, seed))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hh = HandHistory(actions=[], automations=AUTOMATIONS, **fields)
        game = hh.create_game()
        state = game(fields["starting_stacks"], n)
        pushes = []
        departures = []
        mirror = Mirror(fields)
        steps = 0
        while state.status:
            steps += 1
            mirror.sync(state)
            if steps > 2000:
                raise RuntimeError("hand does not end: %s %d" % (variant, seed))
            if state.can_burn_card():
                state.burn_card()  # HandHistory.create_game drops the burning automation
            elif state.can_stand_pat_or_discard():
                _discard(state, rng)
            elif state.actor_index is not None:
                _act(state, rng, mirror, departures)
            elif state.can_push_chips():
                amount, pot_index, board_index, kind = state._sub_pots[0]
                pot = state._pots[pot_index]
                if board_index is None:
                    winners = tuple(pot.player_indices)
                else:
                    hands = tuple(state.get_up_hands(board_index, kind))
                    live = [hands[i] for i in pot.player_indices if hands[i] is not None]
                    best = max(live) if live else None
                    winners = tuple(i for i in pot.player_indices if live and hands[i] == best)
                op = state.push_chips()
                pushes.append((amount, winners, kind, pot_index, tuple(op.amounts)))
            else:
                raise RuntimeError("stuck: %s %d" % (variant, seed))
        out = HandHistory.from_game_state(game, state, finishing_stacks=list(state.stacks))
        text = out.dumps()
        mirror.sync(state)
    g = Generated(variant, seed, text, list(state.stacks), pushes, list(fields["starting_stacks"]),
                  departures, mirror.error)
    g.stud_tie = mirror.stud_tie
    return g


if __name__ == "__main__":
    import sys

    v = sys.argv[1] if len(sys.argv) > 1 else "NT"
    g = generate(v, int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    print(g.text)
    print("# pushes", g.pushes)
    print("# departures", g.departures, "mirror error", g.mirror_error)
