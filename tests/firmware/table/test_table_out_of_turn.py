# Out-of-turn actions at the table (issue 14, item 2): a console action for a seat that is not to
# act goes through Hand.out_of_turn (engine/outofturn.py) and is held as a proposal naming BET-39
# while the action stays on the seat to act; at the held seat's turn it binds or is released as
# BET-39/40 say under hr.oot_mode (tournament tda2019, cash club_chips_stay); out-of-turn action
# behind a skipped seat takes its turn as BET-41 says; an out-of-turn fold is binding (BET-43).
# The RULES.md examples, played through the simulated table; a power cut replays the journal to
# the same state. Runs under CPython and MicroPython.
from check import eq

from felt.table.alerts import CONFIRMED, LAPSED, PROPOSED, REJECTED
from felt.sim.runner import Sim

HOLES = ("2c", "3c", "4c", "5c", "6c", "7c", "2d", "3d", "4d", "5d", "6d", "7d")


def six(mode="tournament", button=1, extra="", sim=None):
    sim = sim or Sim()
    sim.run("table holdem no_limit seats=6 sb=50 bb=100 button=%d mode=%s %s" % (button, mode, extra))
    for s in range(1, 7):
        sim.run("seat %d 5000" % s)
    sim.run("hand")
    t = sim.table
    order = list(t.setup.seats)
    for i in range(12):
        sim.run("draw %s to seat %d" % (HOLES[i], order[i % 6]))
    return sim


def actor(t):
    return t.setup.seats[t.hand.actor] if t.hand.actor is not None else None


def to_flop(sim):
    """Preflop: everyone calls, the big blind checks; burn and flop."""
    t = sim.table
    while t.hand.street == 0 and t.hand.actor is not None:
        sim.run("act %d %s" % (actor(t), "check" if t.hand.legal().call == 0 else "call"))
    sim.run("draw 2h to burn")
    for c in ("8h", "9h", "Th"):
        sim.run("draw %s to board" % c)


def bet39_setup(mode="tournament", extra=""):
    # NL 50/100, flop: seat 3 bets 300, seat 4 folds; the action is on seat 5 (button 1: the flop
    # opens at seat 2, who checks)
    sim = six(mode, extra=extra)
    to_flop(sim)
    t = sim.table
    eq(actor(t), 2)
    sim.run("act 2 check")
    sim.run("act 3 bet 300")
    sim.run("act 4 fold")
    eq(actor(t), 5)
    return sim


def oot_alerts(t, rule="BET-39"):
    return [a for a in t.alerts if rule in a.rules]


def test_BET_39_tda2019_raise_out_of_turn_is_held_and_binds_when_seat_5_calls():
    sim = bet39_setup()
    t = sim.table
    sim.run("act 6 raise 800")
    held = [a for a in oot_alerts(t) if a.status == PROPOSED]
    eq(len(held), 1)
    assert "seat 6 raise 800 out of turn; seat 5 is to act" in held[0].text, held[0].text
    eq(actor(t), 5)  # the action stays on the seat to act
    eq(t.hand.bets[t.position(6)], 0)  # nothing applied yet
    sim.run("act 5 call")
    eq(held[0].status, CONFIRMED)
    eq(t.hand.bets[t.position(6)], 800)  # seat 6's raise to 800 stands
    eq(actor(t), 1)
    eq(t.hand.legal().call, 800)


def test_BET_39_tda2019_a_raise_in_between_voids_it_and_seat_6_has_every_option():
    sim = bet39_setup()
    t = sim.table
    sim.run("act 6 raise 800")
    sim.run("act 5 raise 900")
    held = oot_alerts(t)[0]
    eq(held.status, LAPSED)
    eq(actor(t), 6)
    eq(t.hand.bets[t.position(6)], 0)  # the 800 is returned
    lg = t.hand.legal()
    eq((lg.call, lg.min_to), (900, 1500))  # fold, call 900 or raise to at least 1,500
    sim.run("act 6 fold")
    eq(actor(t), 1)


def test_BET_39_club_chips_stay_the_300_stays_and_seat_6_may_fold_and_lose_it():
    sim = bet39_setup(mode="cash")
    t = sim.table
    eq(t.config.house.oot_mode, "club_chips_stay")
    sim.run("act 6 call")  # 300 out of turn
    sim.run("act 5 raise 900")
    eq(actor(t), 6)
    pot = t.hand.pot_total()
    sim.run("act 6 fold")
    eq(t.hand.stacks[t.position(6)], 5000 - 100 - 300)  # the preflop 100 and the 300 put in out of turn
    eq(t.hand.pot_total(), pot + 300)
    assert [a for a in oot_alerts(t) if "stays in the pot" in a.text], [a.line() for a in t.alerts]


def test_BET_39_club_chips_stay_seat_6_may_add_600():
    sim = bet39_setup(mode="cash")
    t = sim.table
    sim.run("act 6 call")
    sim.run("act 5 raise 900")
    sim.run("act 6 call")
    eq(t.hand.bets[t.position(6)], 900)  # its 300 plus 600
    eq(t.hand.stacks[t.position(6)], 5000 - 100 - 900)


def test_BET_39_club_chips_stay_unchanged_action_binds_as_made():
    sim = bet39_setup(mode="cash")
    t = sim.table
    sim.run("act 6 call")
    sim.run("act 5 call")
    eq(t.hand.bets[t.position(6)], 300)
    eq(actor(t), 1)


def bet40_setup(mode):
    # flop: seat 3 checks, seat 6 checks out of turn while seat 4 is to act; seat 4 bets 300
    sim = six(mode, button=2)  # the flop opens at seat 3
    to_flop(sim)
    t = sim.table
    eq(actor(t), 3)
    sim.run("act 3 check")
    sim.run("act 6 check")
    eq(actor(t), 4)
    sim.run("act 4 bet 300")
    sim.run("act 5 fold")
    eq(actor(t), 6)
    return sim


def test_BET_40_club_chips_stay_out_of_turn_check_may_only_call_or_fold():
    sim = bet40_setup("cash")
    t = sim.table
    assert oot_alerts(t, "BET-40"), [a.line() for a in t.alerts]
    sim.run("act 6 raise 600")
    eq(t.alerts[-1].rules, ("BET-40",))
    eq(actor(t), 6)
    sim.run("act 6 call")
    eq(t.hand.bets[t.position(6)], 300)


def test_BET_40_tda2019_a_later_bet_restores_every_option():
    sim = bet40_setup("tournament")
    t = sim.table
    eq(oot_alerts(t)[0].status, LAPSED)
    sim.run("act 6 raise 600")
    eq(t.hand.bets[t.position(6)], 600)
    eq(actor(t), 1)


def test_BET_41_example_SA_out_of_turn_behind_the_skipped_seat_is_binding():
    # NL 100/200 preflop, button 6: UTG (seat 3) raises to 600; seat 5 calls out of turn passing
    # over seat 4, seat 6 folds: two actions, one with chips -- SA. The OOT actions bind; the floor
    # rules on seat 4
    sim = Sim()
    sim.run("table holdem no_limit seats=6 sb=100 bb=200 button=6 mode=tournament")
    for s in range(1, 7):
        sim.run("seat %d 5000" % s)
    sim.run("hand")
    t = sim.table
    order = list(t.setup.seats)
    for i in range(12):
        sim.run("draw %s to seat %d" % (HOLES[i], order[i % 6]))
    eq(actor(t), 3)
    sim.run("act 3 raise 600")
    sim.run("act 5 call")
    eq([a for a in oot_alerts(t, "BET-41") if a.seat == 4], [])  # one action is not SA
    sim.run("act 6 fold")
    floor = [a for a in oot_alerts(t, "BET-41") if a.seat == 4 and a.status == PROPOSED]
    eq(len(floor), 1)
    eq(floor[0].seat, 4)
    eq(actor(t), 4)
    sim.run("confirm %d" % floor[0].id)  # the floor rules seat 4's hand dead
    eq(t.hand.live[t.position(4)], False)
    eq(t.hand.bets[t.position(5)], 600)  # seat 5's call and seat 6's fold are binding
    eq(t.hand.live[t.position(6)], False)
    eq(actor(t), 1)


def test_BET_41_floor_lets_the_skipped_seat_play_on_and_the_bound_actions_still_bind():
    sim = Sim()
    sim.run("table holdem no_limit seats=6 sb=100 bb=200 button=6 mode=tournament")
    for s in range(1, 7):
        sim.run("seat %d 5000" % s)
    sim.run("hand")
    t = sim.table
    order = list(t.setup.seats)
    for i in range(12):
        sim.run("draw %s to seat %d" % (HOLES[i], order[i % 6]))
    sim.run("act 3 raise 600")
    sim.run("act 5 call")
    sim.run("act 6 fold")
    sim.run("reject")  # seat 4 plays on, limited by the floor
    sim.run("act 4 call")
    eq(t.hand.bets[t.position(5)], 600)
    eq(t.hand.live[t.position(6)], False)
    eq(actor(t), 1)


def test_BET_41_cash_two_actions_with_no_bet_pending_records_a_check():
    # flop, checked to seat 3 (button 1: seat 2 checked); seats 4 and 5 check out of turn -- two
    # actions behind seat 3 (hr.skipped_player_forfeit = two_actions): seat 3 loses the right to
    # act, the engine records its check, and the held checks bind
    sim = six("cash")
    to_flop(sim)
    t = sim.table
    sim.run("act 2 check")
    eq(actor(t), 3)
    sim.run("act 4 check")
    eq(actor(t), 3)
    sim.run("act 5 check")
    assert [a for a in oot_alerts(t, "BET-41") if "loses the right to act" in a.text], [a.line() for a in t.alerts]
    eq(actor(t), 6)


def test_BET_43_out_of_turn_fold_confirmed_is_out_at_once():
    sim = bet39_setup()
    t = sim.table
    sim.run("act 1 fold")
    f = oot_alerts(t)[0]
    assert "BET-43" in f.rules, f.rules
    sim.run("confirm")
    eq(t.hand.live[t.position(1)], False)
    eq(actor(t), 5)


def test_BET_43_out_of_turn_fold_held_binds_at_its_turn():
    sim = bet39_setup()
    t = sim.table
    sim.run("act 6 fold")
    sim.run("act 5 raise 900")  # even a raise in between: a fold is always binding
    eq(t.hand.live[t.position(6)], False)
    eq(actor(t), 1)


def test_BET_39_a_rejected_proposal_is_dropped():
    sim = bet39_setup()
    t = sim.table
    sim.run("act 6 raise 800")
    sim.run("reject")
    eq(oot_alerts(t)[0].status, REJECTED)
    sim.run("act 5 call")
    eq(actor(t), 6)
    eq(t.hand.bets[t.position(6)], 0)


def test_BET_39_one_held_action_per_seat():
    sim = bet39_setup()
    t = sim.table
    sim.run("act 6 raise 800")
    sim.run("act 6 call")
    eq(t.alerts[-1].status, "note")
    assert "already held" in t.alerts[-1].text, t.alerts[-1].text
    eq(len([a for a in oot_alerts(t) if a.status == PROPOSED]), 1)


def test_BET_39_held_action_survives_a_power_cut():
    from felt.sim.powerloss import KillFlash, PowerSim
    sim = PowerSim(KillFlash(None))
    six(sim=sim)
    to_flop(sim)
    sim.run("act 2 check")
    sim.run("act 3 bet 300")
    sim.run("act 4 fold")
    sim.run("act 6 raise 800")
    sim.restart()
    t = sim.table
    eq([a.status for a in oot_alerts(t)], [PROPOSED])
    eq(actor(t), 5)
    sim.run("act 5 call")
    eq(t.hand.bets[t.position(6)], 800)
    sim.restart()
    t = sim.table
    eq(t.hand.bets[t.position(6)], 800)
    eq([a.status for a in oot_alerts(t)], [CONFIRMED])
    eq(actor(t), 1)


def test_BET_42_dealer_prompted_call_comes_back_when_the_player_folds():
    # cash (club_chips_stay): D's out-of-turn call of 600 was prompted by the dealer (console mark
    # dealer_error); C re-raises to 1,800; D folds and its 600 is returned (BET-42), where an
    # unprompted out-of-turn call would have stayed in the pot (BET-39)
    sim = bet39_setup(mode="cash")  # seat 3 bet 300, seat 4 folded, seat 5 to act
    t = sim.table
    sim.run("act 6 call")
    sim.run("mark 6 dealer_error")
    held = oot_alerts(t)[0]
    assert "BET-42" in held.rules, held.rules
    sim.run("act 5 raise 900")
    eq(actor(t), 6)
    sim.run("act 6 fold")
    eq(t.hand.stacks[t.position(6)], 4900)  # only the preflop 100 is gone


def test_BET_36_string_bet_second_motion_is_returned():
    # flop: seat 2 bets 600; facing it, seat 3 pushes 600 (a call) and goes back to its stack for
    # 1,000 more without having said "raise": only the first motion counts
    sim = Sim()
    sim.run("table holdem no_limit seats=3 sb=100 bb=200 button=1 mode=tournament")
    for s in (1, 2, 3):
        sim.run("seat %d 5000" % s)
    sim.run("hand")
    t = sim.table
    for i in range(6):
        sim.run("draw %s to seat %d" % (HOLES[i], (2, 3, 1)[i % 3]))
    to_flop(sim)
    sim.run("act 2 bet 600")
    sim.run("push 3 500,100")
    eq(actor(t), 1)
    before = list(t.hand.stacks)
    sim.run("push 3 1000")
    eq(t.alerts[-1].rules, ("BET-36",))
    eq(t.hand.stacks, before)
    eq(t.hand.bets[t.position(3)], 600)
    eq([a for a in oot_alerts(t) if a.seat == 3], [])  # not taken for an out-of-turn raise
    eq(actor(t), 1)
