# Console rulings end to end through the simulated FELT1 wire (loop.py -> table -> table_rulings):
# kill (DEAL-38, SHOW-13, BET-43 fold at the turn), misdeal (DEAL-14 redeal, DEAL-15 refused after
# SA), posting (BLIND-2/14/15/16/20) and recorded floor decisions (BLIND-25 dead blinds). Every
# refusal names its rule on the console reply and the display and leaves the state unchanged.
# Runs under CPython and MicroPython.
from check import eq

from felt.proto import console as proto
from felt.sim.runner import Sim
from kit import refused, replayed, snapshot, wire

HOLES = (("Ah", 2), ("Kd", 3), ("2c", 1), ("Ac", 2), ("Kc", 3), ("3d", 1))


def table(seats=3, deal=True, extra="", history=None):
    sim = Sim(history=history)
    sim.run("table holdem no_limit seats=%d sb=50 bb=100 button=1 %s" % (seats, extra))
    for s in range(1, 4):
        sim.run("seat %d 1000" % s)
    sim.run("hand")
    if deal:
        for card, seat in HOLES:
            sim.run("draw %s to seat %d" % (card, seat))
    return sim


def test_DEAL_38_kill_the_actor_folds_it_now():
    sim = table()
    t = sim.table
    eq(t.hand.actor, 2)  # three-handed preflop: the button (seat 1) acts first
    r = wire(sim, "kill", [1], {"rule": "DEAL-38"}, "cards touched the muck")
    assert " ok re=" in r, r
    eq(t.hand.live, [True, True, False])
    eq(t.setup.seats[t.hand.actor], 2)
    eq(t.alerts[-1].rules, ("DEAL-38",))


def test_DEAL_38_DEAL_44_kill_another_seat_is_dead_at_once():
    sim = table()
    t = sim.table
    assert " ok " in wire(sim, "kill", [3])  # the big blind; seat 1 is to act
    eq(t.hand.live, [True, False, True])  # dead now, not at its turn (Hand.kill)
    assert 3 not in t.dc.live, t.dc.live  # no more cards to seat 3 (DEAL-44)
    wire(sim, "call", [1])
    wire(sim, "call", [2])  # the dead big blind has no option: the preflop is over
    eq(t.state, "playing")
    sim.run("draw 9s to burn")
    for c in ("4h", "5h", "6h"):
        sim.run("draw %s to board" % c)
    eq(len(t.hand.board), 3)
    eq(t.setup.seats[t.hand.actor], 2)


def run_out(sim, checkers=(2, 3, 1)):
    """Burn and deal flop, turn and river, every seat in `checkers` checking each street."""
    t = sim.table
    for burn, board in (("9s", ("4h", "5h", "6h")), ("9d", ("7c",)), ("9h", ("Jd",))):
        sim.run("draw %s to burn" % burn)
        for c in board:
            sim.run("draw %s to board" % c)
        for seat in checkers:
            if t.state == "playing" and t.hand.actor is not None and t.setup.seats[t.hand.actor] == seat:
                wire(sim, "check", [seat])


def test_DEAL_36_killed_raise_is_returned_at_once_and_the_PHH_replays():
    histories = []
    sim = table(history=histories.append)
    t = sim.table
    wire(sim, "raise", [1, 300])
    r = wire(sim, "kill", [1], {"rule": "DEAL-36"}, "dealer swept the cards")
    assert " ok " in r, r
    p1 = t.position(1)
    eq(t.hand.live[p1], False)
    eq(t.hand.stacks[p1], 900)  # the 200 nobody called came back; the 100 matching the BB stays
    assert [a for a in t.alerts if "uncalled 200 (DEAL-36)" in a.remedy], [a.line() for a in t.alerts]
    eq(t.setup.seats[t.hand.actor], 2)
    eq(t.hand.legal().call, 50)  # the small blind faces the big blind only
    wire(sim, "call", [2])
    wire(sim, "check", [3])
    run_out(sim)
    eq(t.state, "over")
    eq(t.stacks[0], 900)
    eq(sum(t.stacks), 3000)
    acts = replayed(histories, t)
    assert "p3 cc" in acts and "p3 f" in acts, acts  # the raise as the part that stood, then the fold


def test_kill_out_of_turn_is_written_as_a_fold_at_its_turn_in_the_PHH():
    histories = []
    sim = table(history=histories.append)
    t = sim.table
    assert " ok " in wire(sim, "kill", [3])  # seat 1 to act
    wire(sim, "raise", [1, 300])
    wire(sim, "fold", [2])  # one live hand left: seat 1 wins
    eq(t.state, "over")
    eq(t.stacks, [1150, 950, 900])
    acts = replayed(histories, t)
    eq(acts[-3:], ["p3 cbr 300", "p1 f", "p2 f"])


def test_GAME_6_a_killed_bettor_leaves_one_live_hand_the_bet_returns_and_the_PHH_replays():
    histories = []
    sim = table(history=histories.append)
    t = sim.table
    wire(sim, "fold", [1])
    wire(sim, "call", [2])
    wire(sim, "check", [3])
    sim.run("draw 9s to burn")
    for c in ("4h", "5h", "6h"):
        sim.run("draw %s to board" % c)
    wire(sim, "bet", [2, 200])
    assert " ok " in wire(sim, "kill", [2], {"rule": "DEAL-36"})
    eq(t.state, "over")  # seat 3 is the last live hand (GAME-6)
    eq(t.stacks, [1000, 900, 1100])  # seat 2's 200 bet came back; seat 3 won the 200 preflop pot
    acts = replayed(histories, t)
    eq(acts[-1], "p1 f")  # the uncalled bet written as the fold itself


def test_an_all_in_killed_hand_is_mucked_at_the_showdown_and_cannot_win():
    sim = table()
    t = sim.table
    wire(sim, "allin", [1])
    wire(sim, "call", [2])
    assert " ok " in wire(sim, "kill", [1], {"rule": "DEAL-38"})  # all-in: it never has a turn again
    wire(sim, "fold", [3])
    sim.run("draw 9s to burn")
    for c in ("4h", "5h", "6h"):
        sim.run("draw %s to board" % c)
    sim.run("draw 9d to burn")
    sim.run("draw 7c to board")
    sim.run("draw 9h to burn")
    sim.run("draw Jd to board")
    eq(t.state, "over")
    eq(t.stacks[0], 0)  # seat 1 (2c 3d had a straight 3-7) lost everything it put in
    eq(t.stacks[1] + t.stacks[2], 3000)


def test_a_killed_all_in_hand_is_mucked_at_the_showdown_in_the_PHH():
    histories = []
    sim = table(history=histories.append)
    t = sim.table
    wire(sim, "allin", [1])
    wire(sim, "call", [2])
    assert " ok " in wire(sim, "kill", [1])  # all-in and called: nothing comes back
    wire(sim, "call", [3])
    run_out(sim)
    eq(t.state, "over")
    eq(t.stacks[0], 0)
    acts = replayed(histories, t)
    eq(acts[-1], "p3 sm")  # an all-in hand never has a turn: the PHH mucks it at the showdown


def test_kill_refusals_name_the_rule_and_change_nothing():
    sim = table()
    wire(sim, "kill", [3])
    refused(sim, "DEAL-38", "kill", [3])  # dead already
    wire(sim, "kill", [2])
    refused(sim, "GAME-6", "kill", [1])  # the last live hand


def test_kill_outside_a_hand_and_of_a_seat_not_dealt_in():
    sim = Sim()
    sim.run("table holdem no_limit seats=4 sb=50 bb=100 button=1")
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    r = wire(sim, "kill", [2])
    assert "rule=GAME-6" in r and "code=rule" in r, r
    sim.run("hand")
    refused(sim, "DEAL-5", "kill", [4])


def test_DEAL_14_misdeal_before_SA_redeals_with_the_same_button():
    sim = table()
    t = sim.table
    button = t.setup.button
    wire(sim, "fold", [1])  # one action: no SA yet (two_actions, cash)
    assert " ok " in wire(sim, "misdeal", (), {"rule": "DEAL-8"}, "first card to the wrong seat")
    eq(t.misdeals, 1)
    eq(t.hand_no, 1)
    eq(t.setup.button, button)
    eq(t.state, "playing")
    eq(t.hand.pot_total(), 150)  # blinds returned and posted again
    eq(t.hand.live, [True, True, True])
    eq(t.account()["shoe"], 52)  # every card back
    sim.run("clear")  # the dealer collects the cards from the antennas
    for card, seat in HOLES:
        sim.run("draw %s to seat %d" % (card, seat))
    eq([len(t.hand.hole[p]) for p in range(3)], [2, 2, 2])


def test_DEAL_15_misdeal_after_SA_is_refused():
    sim = table()
    wire(sim, "call", [1])
    wire(sim, "call", [2])
    refused(sim, "DEAL-15", "misdeal")


def test_BLIND_2_post_confirms_the_engine_posts():
    sim = table()
    assert " ok " in wire(sim, "post", [2, "sb", 50])
    assert " ok " in wire(sim, "post", [3, "bb"])
    refused(sim, "BLIND-2", "post", [2, "sb", 60])
    refused(sim, "BLIND-2", "post", [3, "sb"])
    refused(sim, "GAME-17", "post", [1, "ante"])


def test_BLIND_16_BLIND_15_new_player_posts_or_waits():
    sim = Sim()
    sim.run("table holdem no_limit seats=6 sb=50 bb=100 button=1")
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    sim.run("hand")
    for card, seat in HOLES:
        sim.run("draw %s to seat %d" % (card, seat))
    wire(sim, "fold", [1])
    wire(sim, "fold", [2])  # hand 1 is over: a player sitting down now is new (BLIND-16)
    sim.run("seat 5 1000")
    t = sim.table
    refused(sim, "BLIND-16", "post", [5, "bb", 200])
    assert " ok " in wire(sim, "post", [5, "bb", 100])
    eq(t._rec(5).post, True)
    assert " ok " in wire(sim, "post", [5, "wait"])
    eq(t._rec(5).post, False)
    refused(sim, "BLIND-2", "post", [1, "sb"])  # posted by the table when the hand starts
    r = wire(sim, "post", [4, "bb"])
    assert "rule=BLIND-16" in r, r  # an empty seat


def test_BLIND_20_straddle_post_needs_the_house_rule():
    sim = Sim()
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1")
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    r = wire(sim, "post", [1, "straddle", 200])
    assert " error " in r and "rule=BLIND-20" in r, r
    eq(sim.table._rec(1).straddle, False)


def test_BLIND_25_floor_decisions_are_recorded_and_dead_blinds_posted():
    sim = table()
    t = sim.table
    n = len(t.alerts)
    assert " ok " in wire(sim, "floor", ["penalty", 2], {"rule": "BET-39"}, "one round")
    eq(t.alerts[n].rules, ("BET-39",))
    assert "penalty seat 2" in t.alerts[n].text
    assert " ok " in wire(sim, "floor", ["dead", 2], {"rule": "BLIND-25", "amount": 60})
    eq(t._rec(2).dead_owed, 60)
    r = wire(sim, "floor", ["dead", 2], {"rule": "BLIND-25"})
    assert "rule=BLIND-25" in r and " error " in r, r
    eq(t.floor_decision("dead", 2, "BLIND-25", -60), False)  # no debt cancelled by a negative amount
    eq(t._rec(2).dead_owed, 60)


def test_floor_money_commands_need_the_floor_key():
    sim = table()
    for word in ("void", "stack", "level", "structure", "delay", "deck"):
        before = snapshot(sim.table)
        r = wire(sim, "floor", [word])
        assert " error " in r and "code=auth" in r, r
        eq(snapshot(sim.table), before)


def test_floor_kill_and_misdeal_words_map_to_the_rulings():
    sim = table()
    assert " ok " in wire(sim, "floor", ["kill", 1], {"rule": "DEAL-36"})
    eq(sim.table.hand.live[2], False)
    eq(sim.table.killed, {1: "DEAL-36"})
    assert " ok " in wire(sim, "floor", ["misdeal"])  # one fold is no SA
    eq(sim.table.misdeals, 1)
    eq(sim.table.killed, {})


def test_every_console_verb_of_the_protocol_is_handled():
    # no documented console verb is answered `unsupported` (hardware/protocols/console.md)
    sample = {"fold": [1], "check": [1], "call": [1], "bet": [1, 300], "raise": [1, 300], "allin": [1],
              "bringin": [1], "complete": [1, 20], "post": [1, "sb"], "push": [1, [100]], "confirm": [1],
              "reject": [1], "kill": [1], "misdeal": [], "mark": [1, "exposed"], "floor": ["penalty"],
              "newhand": [], "stack": [1, 500], "set": ["bb", 100], "get": ["bb"], "challenge": [],
              "auth": ["alice", "0a" * 16, "5a" * 32], "deckline": [1],
              "pot": [], "count": [1]}
    text = {"auth": "void", "deckline": "felt-deck 1"}
    # `puback` is the room bridge's answer, taken by the runtime's console filter (felt.room.wire,
    # tests/firmware/room/test_room_publisher.py) before the table; a table with no bridge names it.
    # `bj` (1.4) is a blackjack table's (felt.runtime.blackjack, tests/firmware/e2e/test_e2e_blackjack.py):
    # a poker table names it unsupported
    verbs = [v for v in proto.verb_names() if proto.verb(v).sender == proto.CONSOLE and v not in ("puback", "bj")]
    eq(sorted(verbs), sorted(sample))
    sim = table()
    for v in sorted(verbs):
        r = wire(sim, v, sample[v], None, text.get(v))
        assert "code=unsupported" not in r, r
    assert "code=unsupported" in wire(sim, "bj", ["close"], None, None)


def test_a_refused_bet_carries_the_legal_range_on_the_wire():
    sim = table()
    r = wire(sim, "raise", [1, 150])
    eq(proto.decode_line(r.encode()).opts.get("legal"), (200, 1000))


def test_set_and_get_bringin_is_the_bring_in_field():
    sim = Sim()
    sim.run("table stud7 limit seats=3 ante=5 bring_in=10 small_bet=20 big_bet=40 button=1")
    assert " ok " in wire(sim, "set", ["bringin", 15])
    eq(sim.table.config.bring_in, 15)
    assert "value=15" in wire(sim, "get", ["bringin"])


def test_DEAL_14_proposals_of_a_misdealt_hand_lapse_with_it():
    sim = table()
    t = sim.table
    wire(sim, "mark", [1, "exposed"])  # seat 1's second card exposed by the dealer: a proposal
    assert t.pending(), [a.line() for a in t.alerts]
    assert " ok " in wire(sim, "misdeal")
    eq(t.pending(), [])
    sim.run("clear")
    for card, seat in HOLES:
        sim.run("draw %s to seat %d" % (card, seat))
    assert " ok " in wire(sim, "fold", [1])  # the new deal's action is not held by an old proposal


def test_DEAL_25_a_dead_hand_confirmed_after_SA_is_killed_in_the_hand_too():
    # the dealing check's ruling (too many cards after SA) must reach the engine Hand: the seat is
    # out of the betting at once, and the hand goes on without it
    sim = table()
    t = sim.table
    sim.run("draw 7s to seat 1")  # a third card to seat 1
    wire(sim, "call", [1])
    wire(sim, "call", [2])  # SA: no misdeal, seat 1's hand is dead (DEAL-25), proposed
    got = [a for a in t.pending() if "DEAL-25" in a.rules]
    assert got, [a.line() for a in t.alerts]
    assert " ok " in wire(sim, "confirm", [got[-1].id])
    eq(t.hand.live[t.position(1)], False)
    eq(t.killed.get(1), "DEAL-25")
    assert not [a for a in t.alerts if "GAME-2" in a.rules], [a.line() for a in t.alerts]
    eq(t.setup.seats[t.hand.actor], 3)  # the big blind's option
    wire(sim, "check", [3])
    eq(t.hand.phase, "deal")  # the flop is due
    eq(t.hand.pot_total(), 300)  # seat 1's called 100 stays in the pot


def test_GAME_6_a_kill_that_ends_the_hand_between_streets_is_written_where_it_happened():
    # seat 1 folds, the preflop closes heads-up and seat 2 is killed before the flop: seat 3 wins
    # at once. No in-turn PHH can say it (the killed hand never gets a turn), so the fold is
    # written at the kill, marked "# kill"; felt.history.replay plays it with Hand.kill: the table's stacks
    from felt.history import phh
    from felt.history import replay
    histories = []
    sim = table(history=histories.append)
    t = sim.table
    wire(sim, "fold", [1])
    wire(sim, "call", [2])
    wire(sim, "check", [3])
    assert " ok " in wire(sim, "kill", [2])
    eq(t.state, "over")
    eq(t.stacks, [1000, 900, 1100])
    h = phh.read(histories[0])
    eq(h.actions[-1], "p1 f # kill")
    got = replay.replay(h)
    assert "error" not in got, got
    eq(got["finishing_stacks"], [t.stacks[s - 1] for s in t.setup.seats])
    # without the mark it is an out-of-turn fold, which a hand history may not hold (BET-38)
    plain = replay.replay(phh.read(histories[0].replace(" # kill", "")))
    assert "error" in plain, plain


def test_BLIND_20_a_straddle_only_from_the_seat_left_of_the_next_big_blind():
    # before: any active seat's straddle request was accepted, and the next hand then refused to
    # start (BLIND-20) for as long as the request stood
    sim = Sim()
    sim.run("table holdem no_limit seats=4 sb=50 bb=100 button=1 hr.straddle=utg_2x")
    for s in (1, 2, 3, 4):
        sim.run("seat %d 1000" % s)
    t = sim.table
    r = wire(sim, "post", [3, "straddle", 200])  # seat 3 is the first hand's big blind
    assert " error " in r and "rule=BLIND-20" in r, r
    eq(t._rec(3).straddle, False)
    assert " ok " in wire(sim, "newhand")
    eq(t.state, "playing")
    eq(t.setup.bb, 3)
    sim2 = Sim()
    sim2.run("table holdem no_limit seats=4 sb=50 bb=100 button=1 hr.straddle=utg_2x")
    for s in (1, 2, 3, 4):
        sim2.run("seat %d 1000" % s)
    assert " ok " in wire(sim2, "post", [4, "straddle", 200])  # left of the big blind: straddles
    assert " ok " in wire(sim2, "newhand")
    eq(sim2.table.setup.straddle, 4)


def test_BLIND_16_new_player_between_button_and_sb_is_refused_a_post():
    # Players on seats 1, 3, 5 of six, button 1: hand 1 has SB 3, BB 5, so hand 2 has the button
    # on 3 and the SB on 5. A newcomer in seat 4 sits between them: BLIND-16 says it is not dealt
    # in there, so a post is refused (not answered "to play the next hand") and it is not dealt in.
    sim = Sim()
    sim.run("table holdem no_limit seats=6 sb=50 bb=100 button=1")
    for s in (1, 3, 5):
        sim.run("seat %d 1000" % s)
    sim.run("hand")
    t = sim.table
    eq((t.setup.button, t.setup.sb, t.setup.bb), (1, 3, 5))
    for card, seat in (("Ah", 3), ("Kd", 5), ("2c", 1), ("Ac", 3), ("Kc", 5), ("3d", 1)):
        sim.run("draw %s to seat %d" % (card, seat))
    wire(sim, "fold", [1])
    wire(sim, "fold", [3])  # hand 1 is over
    sim.run("seat 4 1000")
    r = refused(sim, "BLIND-16", "post", [4, "bb", 100])
    assert "button seat 3, SB seat 5" in r and "BLIND-15" in r, r
    sim.run("hand")
    eq((t.setup.button, t.setup.sb), (3, 5))
    assert 4 not in t.setup.seats, t.setup.seats  # the refusal told the truth
    eq([p for p in t.setup.posts if p.seat == 4], [])
    # once the button has passed seat 4 the post is accepted and the seat plays that hand
    for card, seat in (("Ah", 5), ("Kd", 1), ("2c", 3), ("Ac", 5), ("Kc", 1), ("3d", 3)):
        sim.run("draw %s to seat %d" % (card, seat))
    wire(sim, "fold", [3])
    wire(sim, "fold", [5])  # hand 2 is over: the next button is seat 5
    assert " ok " in wire(sim, "post", [4, "bb", 100])
    sim.run("hand")
    assert 4 in t.setup.seats, t.setup.seats
    eq([(p.kind, p.amount) for p in t.setup.posts if p.seat == 4], [("post_bb", 100)])


def test_DEAL_39_console_mark_absent_proposes_and_the_confirm_kills_in_the_engine():
    # hr.presence_check = console (default): the dealer marks an absent seat at the end of the deal.
    # The mark proposes DEAL-39; the confirm kills the hand in the engine (Hand.kill): its big blind
    # stays in the pot and the action passes it by.
    sim = table(extra="mode=tournament")
    t = sim.table
    pot = t.hand.pot_total()
    r = wire(sim, "mark", [3, "absent"])
    assert " ok " in r, r
    a = t.alerts[-1]
    eq((a.status, a.rules, a.seat), ("proposed", ("DEAL-39",), 3))
    eq(t.hand.live, [True, True, True])  # a proposal: nothing dead before the dealer confirms
    assert " ok " in wire(sim, "confirm", [a.id])
    eq(t.hand.live[t.position(3)], False)
    eq(t.hand.live_count(), 2)
    eq(t.killed.get(3), "DEAL-39")
    eq(t.hand.pot_total(), pot)  # its 100 big blind stays in the pot
    wire(sim, "call", [1])
    wire(sim, "call", [2])  # the dead big blind has no option: the preflop is over
    eq(t.hand.street, 1)


def test_BLIND_23_tournament_absent_seat_is_dealt_in_pays_and_is_killed():
    # Seat 2 (the small blind) is away in a tournament: it is dealt in and posts its 50 (BLIND-23),
    # its hand is dead in the engine from the start (Hand.kill), the action passes it by, and the
    # hand's PHH replays to the table's stacks.
    histories = []
    sim = Sim(history=histories.append)
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1 mode=tournament")
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    t = sim.table
    t.button(2, "long")  # seat 2's player leaves the table before the hand
    sim.run("hand")
    eq(t.setup.seats, (2, 3, 1))  # dealt in
    eq(t.hand.live[t.position(2)], False)
    eq(t.killed.get(2), "BLIND-23")
    eq(t.hand.pot_total(), 150)  # its small blind stays in the pot
    assert [a for a in t.alerts if a.rules == ("BLIND-23",) and a.seat == 2], [a.line() for a in t.alerts]
    for card, seat in HOLES:
        sim.run("draw %s to seat %d" % (card, seat))
    eq(t.setup.seats[t.hand.actor], 1)
    wire(sim, "call", [1])
    wire(sim, "check", [3])
    eq(t.hand.street, 1)
    run_out(sim, checkers=(3, 1))
    eq(t.state, "over")
    eq(t.stacks[1], 950)
    eq(sum(t.stacks), 3000)
    replayed(histories, t)


def test_BLIND_23_stud_tournament_absent_bring_in_seat_pays_the_bring_in_and_is_killed():
    # 7-card stud tournament: seats 1 and 3 are away. Both are dealt in and ante (BLIND-23). When
    # the initial deal completes, seat 1 holds the lowest upcard (2c): the table posts the bring-in
    # for it -- the bring-in only, never a completion (GAME-11, TDA04 item 8: the minimum bet) --
    # then its hand is killed; seat 3's hand is killed as soon as the deal is complete too. The
    # two live seats play to the end without a 4th-street card to the dead hands (DEAL-44).
    histories = []
    sim = Sim(history=histories.append)
    sim.run("table stud7 limit seats=4 ante=5 bring_in=10 small_bet=20 big_bet=40 button=4 mode=tournament")
    for s in (1, 2, 3, 4):
        sim.run("seat %d 1000" % s)
    t = sim.table
    t.button(1, "long")
    t.button(3, "long")
    sim.run("hand")
    eq(sorted(t.setup.seats), [1, 2, 3, 4])  # the absent seats are dealt in
    eq(t.hand.pot_total(), 20)  # every seat's ante
    eq(t.hand.live[t.position(1)], True)  # not before the deal: it may hold the bring-in card
    downs = ("Ah", "Ad", "As", "Ac", "Kh", "Qd", "Jh", "Td")
    ups = {1: "2c", 2: "Kd", 3: "9s", 4: "Qh"}
    order = list(t.setup.seats)
    for k in range(2):
        for seat in order:
            sim.run("draw %s to seat %d" % (downs[k * 4 + seat - 1], seat))
    for seat in order:
        sim.run("draw %s to seat %d" % (ups[seat], seat))
    p1 = t.position(1)
    eq(t.hand.live[p1], False)
    eq(t.hand.live[t.position(3)], False)
    eq(t.killed.get(1), "BLIND-23")
    eq(t.killed.get(3), "BLIND-23")
    eq(t.stacks[0] if t.state != "playing" else t.hand.stacks[p1], 985)  # ante 5 + bring-in 10
    eq(t.hand.pot_total(), 30)
    assert [a for a in t.alerts if a.rules == ("BLIND-23",) and a.seat == 1 and "bring-in" in a.text], \
        [a.line() for a in t.alerts]
    eq(t.setup.seats[t.hand.actor], 2)  # the action goes on to the left of the bring-in
    wire(sim, "call", [2])
    wire(sim, "call", [4])
    eq(t.hand.street, 1)
    for cards in (("5c", "7c", "Ks"), ("5s", "8c", "3d"), ("6s", "9c", "4d"), ("6c", "Jc", "Jd")):
        sim.run("draw %s to burn" % cards[0])
        sim.run("draw %s to seat 2" % cards[1])
        sim.run("draw %s to seat 4" % cards[2])
        for _ in range(2):
            if t.state == "playing" and t.hand.actor is not None:
                wire(sim, "check", [t.setup.seats[t.hand.actor]])
    eq(t.state, "over")
    eq(t.stacks[0], 985)
    eq(t.stacks[2], 995)
    eq(sum(t.stacks), 4000)
    assert not [a for a in t.alerts if a.level == "warn" and "DEAL-44" in a.rules], [a.line() for a in t.alerts]
    replayed(histories, t)
