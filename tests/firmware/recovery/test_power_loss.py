# Power-loss proof on the simulated table (real firmware: table.py + loop.py + drivers on the sim
# HAL, journaled through felt.recovery.restore.TableRecorder). The firmware is killed at journal appends --
# on an event boundary (nothing of the record written), inside the record (torn) or right after it
# (written, not yet in effect) -- and rebooted on the same devices (antenna chips with their tags,
# shoe reader, console); the dealer re-enters a console entry the table never took. The finishing
# stacks, hand histories and lights must equal the uninterrupted run; chips are conserved.
# FELT_POWER_HANDS (default 3 per game here) sets the length; tests/soak/soak.py runs long ones.
import os

from check import eq

from felt.sim.runner import Sim
from felt.table.controller import PLAYING
from kit import check_game, HANDS, killed_run, plain_run, script_game, short_card


LONG = HANDS > 3  # FELT_POWER_HANDS=4+ adds kill schedules and corpus files (default run stays short)


# -- a dealer and players that script hands from the table's own state ------------------------


# -- outcome -----------------------------------------------------------------------------------


def test_holdem_survives_kills_at_all_eight_cut_offsets():
    kills = check_game("holdem", 1, [(7, 0), (7, 3)] if LONG else [(5, 0)])
    eq(kills > 10, True, "enough kills happened (%d)" % kills)


def test_omaha8_limit_survives_kills():
    check_game("omaha8", 2, [(9, 4)])


def test_stud7_survives_kills():
    check_game("stud7", 3, [(8, 1)])


def test_journaled_run_without_kills_equals_the_plain_run_pot_limit_omaha():
    lines = script_game("omaha", HANDS, 4)
    got, flash, _log = killed_run(lines, None)
    eq(got, plain_run(lines))
    eq(flash.kills, 0)


# -- real hand histories through the physical table, killed (what `feltctl sim --replay FILE.phh
# --kill-every N` runs) ----------------------------------------------------------------------------

def phh_lines(text):
    """Sim statements that deal and play a no-limit hold'em PHH hand on the simulated table:
    p1..pN sit in seats 1..N with the button on seat N (so p1 posts the small blind), hole cards
    round robin (DEAL-2), a burn before each street, unknown cards replaced by unused ones. The
    console entries are chosen from the table's own state (check or call for 'cc')."""
    from felt.history import phh as phhlib
    from felt.engine.cards import parse_card

    h = phhlib.read(text)
    if h.variant != "NT":
        raise ValueError("phh_lines plays no-limit hold'em (NT) hands, not %r" % h.variant)
    n = len(h.starting_stacks)
    blinds = h.blinds_or_straddles or [0] * n
    acts = [phhlib.parse_action(a, h.scale) for a in h.actions]
    used = {}
    for a in acts:
        for c in a.cards or []:
            if c != "??":
                used[parse_card(c)] = True
    spare = [c for c in range(52) if c not in used]
    holes = {}
    for a in acts:
        if a.verb == "dh":
            p = int(a.text.split("#", 1)[0].split()[2][1:])
            holes[p] = [c if c != "??" else short_card(spare.pop()) for c in a.cards]
    head = ["table holdem no_limit seats=%d sb=%d bb=%d button=%d" % (n, blinds[0], blinds[1], n)]
    head += ["seat %d %d" % (p + 1, h.starting_stacks[p]) for p in range(n)]
    head.append("hand")
    body = []
    for k in range(max([len(v) for v in holes.values()] or [0])):
        for p in range(1, n + 1):
            if p in holes and k < len(holes[p]):
                body.append("draw %s to seat %d" % (holes[p][k], p))
    for a in acts:
        if a.verb == "db":
            body.append("draw %s to burn" % short_card(spare.pop()))
            body.extend(["draw %s to board" % c for c in a.cards])
        elif a.verb == "f":
            body.append("act %d fold" % (a.actor + 1))
        elif a.verb == "cc":
            body.append(("cc", a.actor + 1))
        elif a.verb == "cbr":
            body.append(("cbr", a.actor + 1, a.amount))
        elif a.verb == "sm" and not a.cards:
            body.extend(["move %s from seat %d to muck" % (c, a.actor + 1) for c in holes.get(a.actor + 1, [])])
    return head, body


def resolve_lines(head, body):
    """The final statements: 'cc' / 'cbr' become check, call, bet or raise as the table sees it
    (run once on a plain sim)."""
    sim = Sim()
    out = []
    for line in head:
        sim.run(line)
        out.append(line)
    for item in body:
        if isinstance(item, tuple):
            t = sim.table
            h = t.hand
            lg = h.legal() if t.state == PLAYING else None
            call = lg.call if lg is not None else 0
            if item[0] == "cc":
                line = "act %d %s" % (item[1], "call" if call else "check")
            else:
                line = "act %d %s %d" % (item[1], "raise" if call or h.street == 0 else "bet", item[2])
        else:
            line = item
        sim.run(line)
        out.append(line)
    return out


PLURIBUS_6 = """variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [50, 100, 0, 0, 0, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000, 10000, 10000, 10000]
actions = ['d dh p1 Jd9h', 'd dh p2 Qh3h', 'd dh p3 9dKd', 'd dh p4 3dAd', 'd dh p5 3c5c', 'd dh p6 6hAh', 'p3 cbr 200', 'p4 f', 'p5 f', 'p6 cc', 'p1 f', 'p2 cc', 'd db 6d2d7s', 'p2 cc', 'p3 cc', 'p6 cc', 'd db Kc', 'p2 cc', 'p3 cc', 'p6 cc', 'd db 6s', 'p2 cbr 500', 'p3 cc', 'p6 cbr 2650', 'p2 f', 'p3 cc', 'p6 sm 6hAh', 'p3 sm']
hand = 6
players = ['MrWhite', 'Budd', 'MrOrange', 'Bill', 'MrBlue', 'Pluribus']
finishing_stacks = [9950, 9300, 7150, 10000, 10000, 13600]
"""


def replay_killed(text, every):
    """(uninterrupted outcome, killed outcome, kills) for one PHH hand."""
    lines = resolve_lines(*phh_lines(text))
    want = plain_run(lines)
    got, flash, _log = killed_run(lines, every)
    return want, got, flash.kills


def test_real_hand_history_killed_every_few_inputs_gives_the_recorded_result():
    # every=2 can livelock: an entry that opens a hand needs 4 writes (entry + compaction) to land
    for every in (3, 4, 5) if LONG else (3,):
        want, got, kills = replay_killed(PLURIBUS_6, every)
        eq(want["stacks"], [9950, 9300, 7150, 10000, 10000, 13600], "the sim table plays the PHH hand")
        eq(got, want, "killed every %d inputs" % every)
        eq(kills > 5, True, "kills happened (%d)" % kills)


def _corpus_files(limit):
    # real no-limit hold'em histories beside the repository (../shared/phh), when present
    base = None
    for cand in ("/work/shared/phh/data/pluribus", "../../shared/phh/data/pluribus", "../shared/phh/data/pluribus"):
        try:
            os.listdir(cand)
            base = cand
            break
        except OSError:
            continue
    if base is None:
        return []
    out = []
    for d in sorted(os.listdir(base)):
        try:
            names = sorted(os.listdir(base + "/" + d))
        except OSError:
            continue
        for name in names:
            if name.endswith(".phh"):
                out.append(base + "/" + d + "/" + name)
                if len(out) >= limit:
                    return out
    return out


def test_corpus_hands_killed_every_three_inputs():
    from check import Skip

    files = _corpus_files(HANDS + 2 if LONG else 2)
    if not files:
        raise Skip("../shared/phh is absent")
    from felt.history import phh as phhlib

    for path in files:
        with open(path) as f:
            text = f.read()
        want, got, _kills = replay_killed(text, 3)
        eq(got, want, path)
        recorded = phhlib.read(text).finishing_stacks
        if recorded is not None:
            eq(want["stacks"], list(recorded), "%s: the sim table reaches the recorded result" % path)
