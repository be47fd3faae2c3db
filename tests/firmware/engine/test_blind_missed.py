# Sitting out, missed blinds, returning and new players, seat changes, straddles, absent
# tournament seats (felt.engine.between_hands.blinds): RULES.md BLIND-11, 13..21, 23..25, DEAL-5, CASH-14.
from check import eq, raises
from felt.engine.between_hands.blinds import (ABSENT, ACTIVE, BACK, EMPTY, NEW, OUT, Post, Seat, change_seat, next_hand,
                                previous, table_of)
from felt.errors import RuleError

A, E = ACTIVE, EMPTY


def run(table, prev, hands, **kw):
    # Play `hands` hands in a row; returns the list of HandSetups.
    out = []
    for _ in range(hands):
        h = next_hand(table, prev, **kw)
        out.append(h)
        table, prev = h.table, h
    return out


def test_BLIND_13_sitting_out_marks_missed_bb_then_missed_sb():
    # Seat 4 presses "sit out"; the BB passes it (missed_bb), then the SB (missed_sb).
    t = table_of([A] * 6)
    t[3] = Seat(OUT)
    h1 = next_hand(t, previous(1, 2, 3), sb=100, bb=200)
    eq((h1.bb, h1.table[3].missed_bb, h1.table[3].missed_sb), (5, True, False))
    assert 4 not in h1.seats
    h2 = next_hand(h1.table, h1, sb=100, bb=200)
    eq((h2.sb, h2.table[3].missed_bb, h2.table[3].missed_sb), (5, True, True))
    # Sitting out where only the button passes leaves no mark.
    t = table_of([A] * 6)
    t[1] = Seat(OUT)
    h = next_hand(t, previous(6, 1, 2), sb=100, bb=200)
    eq((h.button, h.sb, h.bb), (1, None, 3))
    eq((h.table[1].missed_sb, h.table[1].missed_bb), (True, False))


def test_BLIND_14_returning_player_posts_bb_live_and_sb_dead():
    # NL 100/200: seat 4 missed both blinds and returns with the button on seat 8.
    t = table_of([A] * 9)
    t[3] = Seat(BACK, post=True, missed_sb=True, missed_bb=True)
    h = next_hand(t, previous(7, 8, 9), sb=100, bb=200)
    eq((h.button, h.sb, h.bb), (8, 9, 1))
    eq(h.post_of(4), [Post(4, "post_bb", 200, True), Post(4, "dead_sb", 100, False)])
    eq(sum(p.amount for p in h.posts), 600)  # 100 + 200 + 200 + 100 before any action
    pos = h.seats.index(4)
    eq((h.blinds_or_straddles[pos], h.dead[pos]), (200, 100))
    eq(h.table[3], Seat(ACTIVE))  # marks cleared, playing again


def test_BLIND_14_missed_sb_only_and_house_variants():
    t = table_of([A] * 9)
    t[3] = Seat(BACK, post=True, missed_sb=True)
    eq(next_hand(t, previous(7, 8, 9), sb=100, bb=200).post_of(4), [Post(4, "dead_sb", 100, False)])
    h = next_hand(t, previous(7, 8, 9), sb=100, bb=200, rules={"hr.missed_blind_makeup": "s0_penalty_literal"})
    eq(h.post_of(4), [Post(4, "dead_sb", 200, False)])
    t[3] = Seat(BACK, post=True, missed_sb=True, missed_bb=True)
    h = next_hand(t, previous(7, 8, 9), sb=100, bb=200, rules={"missed_blind_makeup": "bb_only"})
    eq(h.post_of(4), [Post(4, "post_bb", 200, True)])


def test_BLIND_11_live_post_counts_toward_the_call_dead_part_does_not():
    # Seat 4 posts 200 live + 100 dead; UTG raising to 600 leaves seat 4 400 to call.
    t = table_of([A] * 9)
    t[3] = Seat(BACK, post=True, missed_sb=True, missed_bb=True)
    h = next_hand(t, previous(7, 8, 9), sb=100, bb=200)
    pos = h.seats.index(4)
    eq(600 - h.blinds_or_straddles[pos], 400)
    eq([p.live for p in h.post_of(4)], [True, False])


def test_BLIND_15_waiting_for_the_big_blind():
    # Seat 4 owes blinds and waits: skipped by the deal until the BB reaches it, then posts
    # only the normal BB (200) and plays.
    t = table_of([A] * 9)
    t[3] = Seat(BACK, post=False, missed_sb=True, missed_bb=True)
    hands = run(t, previous(7, 8, 9), 5, sb=100, bb=200)
    eq([h.bb for h in hands], [1, 2, 3, 4, 5])
    for h in hands[:3]:
        assert 4 not in h.seats
        assert 4 in h.waiting
    eq(hands[3].post_of(4), [Post(4, "bb", 200, True)])
    eq(hands[3].table[3], Seat(ACTIVE))
    assert 4 in hands[4].seats


def test_BLIND_16_new_player_posts_or_waits_by_position():
    # Button 3, seat 4 empty, SB 5, BB 6. A newcomer in seat 4 cannot play this hand; a
    # newcomer in seat 9 may post 200 and play at once.
    t = table_of([A, A, A, NEW, A, A, A, A, NEW])
    t[3].post = True
    t[8].post = True
    h = next_hand(t, previous(2, 3, 5), sb=100, bb=200)
    eq((h.button, h.sb, h.bb), (3, 5, 6))
    assert 4 not in h.seats
    eq(h.post_of(9), [Post(9, "post_bb", 200, True)])
    eq(h.table[3].status, NEW)
    eq(h.table[8].status, ACTIVE)
    # A newcomer who waits is dealt in when the BB reaches them, with no extra post.
    t[8].post = False
    h = next_hand(t, previous(2, 3, 5), sb=100, bb=200)
    assert 9 not in h.seats


def test_DEAL_5_deal_list_skips_sitting_out_and_blocked_newcomers():
    # Seats 1-9: seat 6 sitting out, seat 8 a newcomer between the button and the SB.
    t = table_of([A, A, A, A, A, OUT, A, NEW, A])
    t[7].post = True
    h = next_hand(t, previous(6, 7, 9), sb=100, bb=200)
    eq((h.button, h.sb, h.bb), (7, 9, 1))
    eq(h.seats, (9, 1, 2, 3, 4, 5, 7))
    eq(h.waiting, (6, 8))


def test_BLIND_17_new_game_everyone_who_drew_is_active():
    # Seven players draw; seat 6 goes to the bar before its first BB and is marked missed_bb.
    t = table_of([A] * 7)
    h1 = next_hand(t, button=1, sb=100, bb=200)
    eq((h1.sb, h1.bb), (2, 3))
    eq(len(h1.seats), 7)
    t2 = [s.copy() for s in h1.table]
    t2[5] = Seat(OUT)
    h2 = next_hand(t2, h1, sb=100, bb=200)
    h3 = next_hand(h2.table, h2, sb=100, bb=200)
    eq((h2.bb, h3.bb), (4, 5))
    h4 = next_hand(h3.table, h3, sb=100, bb=200)
    eq(h4.bb, 7)
    assert h4.table[5].missed_bb


def test_BLIND_18_changing_seats_toward_the_blind_is_free():
    # The BB is on seat 5. 8 -> 6 keeps playing; 6 -> 9 waits for the BB unless it posts.
    t = table_of([A, A, A, A, A, E, A, A, E])
    moved = change_seat(t, 8, 6, bb_seat=5)
    eq((moved[5].status, moved[7].status), (ACTIVE, EMPTY))
    t = table_of([A, A, A, A, A, A, A, E, E])
    moved = change_seat(t, 6, 9, bb_seat=5)
    eq(moved[8].status, NEW)
    h = next_hand(moved, previous(3, 4, 5), sb=100, bb=200)
    assert 9 not in h.seats
    moved[8].post = True
    eq(next_hand(moved, previous(3, 4, 5), sb=100, bb=200).post_of(9), [Post(9, "post_bb", 200, True)])
    with raises(RuleError, match="BLIND-18"):
        change_seat(t, 6, 7, bb_seat=5)


def test_BLIND_19_no_cards_to_a_seat_that_owes_and_has_not_posted():
    t = table_of([A] * 6)
    t[3] = Seat(BACK, post=False, missed_bb=True)
    h = next_hand(t, previous(5, 6, 1), sb=100, bb=200)
    eq(h.bb, 2)
    assert 4 not in h.seats


def test_BLIND_20_straddle_left_of_the_big_blind():
    # NL 100/200: seat 6 (UTG) straddles 400; seat 7 acts first; seat 6 acts last preflop.
    t = table_of([A] * 9)
    t[5].straddle = True
    rules = {"hr.straddle": "utg_2x"}
    h = next_hand(t, previous(2, 3, 4), sb=100, bb=200, rules=rules)
    eq((h.button, h.sb, h.bb, h.straddle), (3, 4, 5, 6))
    eq(h.post_of(6), [Post(6, "straddle", 400, True)])
    eq(h.blinds_or_straddles, [100, 200, 400, 0, 0, 0, 0, 0, 0])
    eq(h.seats[h.first_to_act], 7)
    assert not h.table[5].straddle  # a straddle is asked for one hand at a time
    t[5].straddle = False
    t[6].straddle = True
    with raises(RuleError, match="BLIND-20"):
        next_hand(t, previous(2, 3, 4), sb=100, bb=200, rules=rules)
    t[6].straddle = False
    t[5].straddle = True
    with raises(RuleError, match="BLIND-20"):
        next_hand(t, previous(2, 3, 4), sb=100, bb=200)  # hr.straddle defaults to off


def test_BLIND_21_busting_and_rebuying_owes_the_missed_blinds():
    # Seat 2 busts on its button hand (the console sets it out) and rebuys after the blinds
    # have passed: it owes the standard make-up, not a newcomer's post.
    t = table_of([A] * 6)
    h = next_hand(t, previous(1, 2, 3), sb=100, bb=200)
    eq(h.button, 2)
    t = [s.copy() for s in h.table]
    t[1] = Seat(OUT)
    hands = run(t, h, 5, sb=100, bb=200)
    eq([x.bb for x in hands], [5, 6, 1, 3, 4])
    back = [s.copy() for s in hands[-1].table]
    eq((back[1].missed_sb, back[1].missed_bb), (True, True))
    back[1].status = BACK
    back[1].post = True
    h = next_hand(back, hands[-1], sb=100, bb=200)
    eq(h.post_of(2), [Post(2, "post_bb", 200, True), Post(2, "dead_sb", 100, False)])


def test_BLIND_23_tournament_absent_seat_still_pays():
    # Seat 7 is away: it is dealt in, its 400 BB stays in the pot, its cards are killed.
    t = table_of([A] * 9)
    t[6] = Seat(ABSENT)
    h = next_hand(t, previous(5, 6, 6), sb=200, bb=400, ante=50, mode="tournament")
    eq(h.bb, 7)
    eq(h.post_of(7), [Post(7, "bb", 400, True), Post(7, "ante", 50, False)])
    eq(h.absent, (h.seats.index(7),))
    # A sitting-out seat in a tournament is absent, not skipped.
    t[6] = Seat(OUT)
    h = next_hand(t, previous(5, 6, 6), sb=200, bb=400, mode="tournament")
    assert 7 in h.seats
    assert not h.table[6].missed_bb


def test_BLIND_24_tournament_new_players_except_between_sb_and_button():
    # Moved player in seat 9, button 8, SB 1: waits one hand. A player placed in seat 2
    # (the BB) posts the BB and plays.
    t = table_of([A, NEW, A, A, A, A, A, A, NEW])
    h = next_hand(t, previous(7, 8, 1), sb=200, bb=400, mode="tournament")
    eq((h.button, h.sb, h.bb), (8, 1, 2))
    assert 9 not in h.seats
    eq(h.post_of(2), [Post(2, "bb", 400, True)])
    # On the button itself a placed player plays at once.
    t = table_of([A, A, A, A, A, A, A, NEW, E])
    h = next_hand(t, previous(7, 8, 1), sb=200, bb=400, mode="tournament")
    assert 8 in h.seats


def test_BLIND_25_dead_blinds_entered_by_the_floor():
    t = table_of([A] * 6)
    t[4].dead_owed = 600
    h = next_hand(t, previous(1, 2, 3), sb=100, bb=200)
    eq(h.post_of(5), [Post(5, "dead", 600, False)])
    eq(h.dead[h.seats.index(5)], 600)
    eq(h.table[4].dead_owed, 0)


def test_GAME_17_antes_per_dealt_position():
    t = table_of([A, OUT, A, A])
    h = next_hand(t, previous(4, 1, 3), sb=10, bb=20, ante=5)
    eq(h.seats, (3, 4, 1))
    eq(h.antes, [5, 5, 5])
