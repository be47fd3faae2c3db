# Seeded random play of every game (GAME-1): whatever legal actions are taken, chips are
# conserved and the hand finishes; every rejected action (RuleError) leaves the state exactly
# as it was and agrees with the can_X twin. A tiny LCG keeps CPython and MicroPython identical.
from check import eq
from felt.engine.games import GAMES
from felt.engine.hand.machine import Hand
from felt.errors import RuleError


class Rng:
    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def snap(h):
    r = h.round
    return (list(h.stacks), list(h.committed), list(r.bets), list(h.live), list(h.mucked), h.phase,
            h.street, h.actor, r.high, r.inc, r.level, r.count, list(r.needs), list(r.acted), list(r.last),
            [list(x) for x in h.hole], list(h.board), list(h.pending_hole), h.pending_board,
            list(h.to_draw), len(h.log))


def rejected(h, fn, *args):
    """Call fn; if it raises RuleError, the state must not have changed. True if rejected."""
    before = snap(h)
    try:
        fn(*args)
    except RuleError:
        eq(snap(h), before, "state after a rejected %s%r" % (fn.__name__, args))
        return True
    return False


def new_hand(code, rng):
    game = GAMES[code]
    n = 2 + rng.below(min(game.max_players, 7) - 1)
    stacks = [20 + rng.below(400) * 5 for _ in range(n)]
    kw = {}
    if game.forced == "bring_in":
        kw = {"antes": 2, "bring_in": 5, "small_bet": 10, "big_bet": 20}
    elif game.structure == "limit":
        kw = {"blinds": [5, 10], "small_bet": 10, "big_bet": 20}
    else:
        kw = {"blinds": [5, 10], "antes": rng.below(2) * 2}
    mode = "tournament" if rng.below(2) else "cash"
    return Hand(game=game, stacks=stacks, rules={"mode": mode}, **kw)


def shuffled_deck(code, rng):
    deck = [c for c in range(52) if GAMES[code].deck != "short" or c >= 16]
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def bet_step(h, rng):
    p = h.actor
    lg = h.legal()
    # an illegal attempt first: a random total, or an action for the wrong position
    wrong = (p + 1) % h.n
    eq(rejected(h, h.fold, wrong), True)
    total = rng.below(h.stacks[p] + h.bets[p] + 50)
    ok = h.can_bet_raise_to(p, total)
    eq(rejected(h, h.bet_raise_to, p, total), not ok)
    if h.actor != p or h.phase != "bet":
        return  # the random total was legal and played
    pick = rng.below(10)
    if lg.bring_in:
        if pick < 7 or not lg.can_raise:
            h.post_bring_in(p)
        else:
            h.bet_raise_to(p, lg.min_to)
    elif pick < 2 and lg.call:
        h.fold(p)
    elif pick < 4 and lg.can_raise:
        span = lg.max_to - lg.min_to
        h.bet_raise_to(p, lg.min_to + (rng.below(span + 1) if span else 0))
    else:
        h.check_call(p)


def play(code, seed):
    rng = Rng(seed)
    h = new_hand(code, rng)
    start = sum(h.stacks) + sum(h.committed)
    deck = shuffled_deck(code, rng)
    for _ in range(2000):
        if h.finished:
            break
        if h.phase == "bet":
            bet_step(h, rng)
        elif h.phase == "draw":
            p = h.drawer()
            k = rng.below(min(4, len(h.hole[p])) + 1)
            h.draw(p, h.hole[p][:k])
            for _ in range(k):
                if not deck:  # the stub ran out: the dead cards become the new stub
                    deck = [c for c in h.discards + h.burns if c >= 0]
                    for q in range(h.n):
                        if not h.live[q]:
                            deck.extend(h.hole[q])
                h.deal_hole(p, deck.pop())
        elif h.phase == "showdown" or (h.runout and rng.below(3) == 0):
            for p in range(h.n):
                if h.live[p] and not h.mucked[p] and not h.shown[p]:
                    if rng.below(4) == 0 and h.can_muck(p):
                        h.muck(p)
                    elif h.can_show(p):
                        h.show(p)
                    break
        elif h.pending_board:
            if h.can_burn(deck[-1]):
                h.burn(deck.pop())
            h.deal_board(deck.pop())
        else:
            st = h.game.streets[h.street]
            need = sum(h.pending_hole)
            if h.game.family == "stud" and need > len(deck) and h.can_deal_board([deck[-1]]):
                h.deal_board(deck.pop())  # DEAL-46: one community card
                continue
            if h.can_burn(deck[-1]) and st.burn:
                h.burn(deck.pop())
            h.deal_hole(h.next_hole_position(), deck.pop())
    eq(h.finished, True, "%s seed %d finished" % (code, seed))
    eq(sum(h.finishing_stacks()), start, "%s seed %d chips" % (code, seed))
    for s in h.finishing_stacks():
        eq(s >= 0, True)
    return h


def _games(codes, seeds):
    for code in codes:
        for seed in range(seeds):
            play(code, seed * 7919 + 1)


def test_GAME_1_random_play_board_games_conserve_chips():
    _games(("NT", "PT", "FT", "NS", "PO", "FO", "PO/8", "FO/8"), 12)


def test_GAME_1_random_play_stud_games_conserve_chips():
    _games(("F7S", "F7S/8", "FR", "F5S"), 12)


def test_GAME_1_random_play_draw_games_conserve_chips():
    _games(("F5D", "N5D", "N2L1D", "F2L3D", "FB"), 12)
