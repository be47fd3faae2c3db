# Seeded random hands played by PokerKit 0.7.7 (the reference engine, test-only) with random legal
# actions, written out as PHH text, for the differential tests and the replay benchmark. Host only.
# Every hand is a pure function of (variant, seed): PokerKit shuffles with the global `random`
# module, so it is seeded per hand; the action policy uses its own random.Random(seed).
import random
import warnings

from pokerkit import Automation, HandHistory

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

    def __init__(self, variant, seed, text, finishing_stacks, pushes, starting_stacks):
        self.variant = variant
        self.seed = seed
        self.text = text
        self.finishing_stacks = finishing_stacks
        self.pushes = pushes  # [(amount, winners (player indices), hand_type_index or None)]
        self.starting_stacks = starting_stacks


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
    r = rng.random()
    if r < 0.5:
        f["antes"] = [0] * n
    elif r < 0.75:
        f["antes"] = [1] * n
    else:
        f["antes"] = [0] * n
        f["antes"][1] = bb  # big-blind ante
    if "min_bet" in s:
        f["min_bet"] = s["min_bet"]
    else:
        f["small_bet"] = s["small_bet"]
        f["big_bet"] = s["big_bet"]
    f["starting_stacks"] = _stacks(rng, n, bb)
    return f


def _cap(variant, state):
    # most completions/bets/raises per street we generate: the smaller of PokerKit's cap (4)
    # and ours (BET-4: bet + 3 raises; preflop the big blind is the bet in board games)
    if variant not in FIXED_LIMIT:
        return None
    if variant in STUD or variant in DRAW:
        return 4
    return 3 if state.street_index == 0 else 4


def _fl_target(variant, state):
    # FO/8 is pot-limit in PokerKit 0.7.7 (a departure from the rules): bet fixed-limit amounts
    inc = STRUCTURES[variant]["small_bet"] if state.street_index < 2 else STRUCTURES[variant]["big_bet"]
    i = state.actor_index
    return min(max(state.bets) + inc, state.bets[i] + state.stacks[i])


def _act(variant, state, rng):
    i = state.actor_index
    call = state.checking_or_calling_amount
    choices = ["cc", "cc", "cc"]
    if call and state.can_fold():
        choices.append("f")
    cap = _cap(variant, state)
    if state.can_complete_bet_or_raise_to() and (cap is None or state.completion_betting_or_raising_count < cap):
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
        lo = state.min_completion_betting_or_raising_to_amount
        hi = state.max_completion_betting_or_raising_to_amount
        if variant == "FO/8":
            amount = _fl_target(variant, state)
            if not (lo <= amount <= hi):
                state.check_or_call()
                return
        else:
            r = rng.random()
            amount = lo if r < 0.4 else hi if r < 0.7 else rng.randint(lo, hi)
        state.complete_bet_or_raise_to(amount)
    del i


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
        steps = 0
        while state.status:
            steps += 1
            if steps > 2000:
                raise RuntimeError("hand does not end: %s %d" % (variant, seed))
            if state.can_burn_card():
                state.burn_card()  # HandHistory.create_game drops the burning automation
            elif state.can_stand_pat_or_discard():
                _discard(state, rng)
            elif state.actor_index is not None:
                _act(variant, state, rng)
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
                state.push_chips()
                pushes.append((amount, winners, kind))
            else:
                raise RuntimeError("stuck: %s %d" % (variant, seed))
        out = HandHistory.from_game_state(game, state, finishing_stacks=list(state.stacks))
        text = out.dumps()
    return Generated(variant, seed, text, list(state.stacks), pushes, list(fields["starting_stacks"]))


if __name__ == "__main__":
    import sys

    v = sys.argv[1] if len(sys.argv) > 1 else "NT"
    g = generate(v, int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    print(g.text)
    print("# pushes", g.pushes)
