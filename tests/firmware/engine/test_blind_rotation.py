# Button and blinds across hands (felt.engine.between_hands.blinds): RULES.md BLIND-1..7, 12, 20, TOUR-12
# worked examples, and the PHH position order (pokerkit 0.7.7 heads-up included).
from check import eq, raises
from felt.engine.between_hands.blinds import (ACTIVE, EMPTY, Post, Seat, draw_for_button, limit_blinds, next_hand,
                                previous, table_of)
from felt.errors import ConfigError, RuleError

A, E = ACTIVE, EMPTY


def card(text):
    return "23456789TJQKA".index(text[0]) * 4 + "cdhs".index(text[1])


def blinds(h):
    return (h.button, h.sb, h.bb)


def test_BLIND_1_first_button_high_card_by_suit():
    cards = [card(t) for t in ("9c", "Kh", "4d", "Ks", "2s", "Td")]
    eq(draw_for_button(cards), 4)
    eq(draw_for_button(cards, "first_highest_dealt"), 2)
    eq(draw_for_button(cards + [None, None]), 4)
    eq(draw_for_button([None] * 6, "first_seated", seated_order=[5, 1]), 5)
    with raises(ConfigError):
        draw_for_button(cards, "coin")


def test_BLIND_2_limit_blinds_and_positions():
    # L 20/40 with the button on seat 3: seat 4 posts 10, seat 5 posts 20.
    sb, bb = limit_blinds(20)
    eq((sb, bb), (10, 20))
    h = next_hand(table_of([A] * 6), button=3, sb=sb, bb=bb)
    eq(blinds(h), (3, 4, 5))
    eq(h.posts, [Post(4, "sb", 10, True), Post(5, "bb", 20, True)])
    eq(h.seats, (4, 5, 6, 1, 2, 3))  # position 0 = first left of the button, button last
    eq(h.blinds_or_straddles, [10, 20, 0, 0, 0, 0])
    eq((h.bb_position, h.first_to_act), (1, 2))
    # NL config {sb: 50, bb: 100}: seat 4 posts 50 and seat 5 posts 100.
    h = next_hand(table_of([A] * 6), button=3, sb=50, bb=100)
    eq([(p.seat, p.amount) for p in h.posts], [(4, 50), (5, 100)])


def test_BLIND_3_button_moves_after_every_hand():
    t = table_of([A] * 9)
    h = next_hand(t, previous(4, 5, 6), sb=50, bb=100)
    eq(blinds(h), (5, 6, 7))
    h2 = next_hand(h.table, h, sb=50, bb=100)
    eq(blinds(h2), (6, 7, 8))
    # A misdeal replays the same hand: the same inputs give the same record (DEAL-14).
    eq(blinds(next_hand(t, previous(4, 5, 6), sb=50, bb=100)), (5, 6, 7))


def test_BLIND_4_dead_button_when_the_small_blind_busts():
    # Hand k: button 1, SB 2, BB 3. Seat 2 busts: BB 4, SB 3, button on empty seat 2.
    t = table_of([A, E, A, A, A, A])
    h = next_hand(t, previous(1, 2, 3), sb=50, bb=100)
    eq(blinds(h), (2, 3, 4))
    assert h.button_dead
    eq(h.seats, (3, 4, 5, 6, 1))


def test_BLIND_4_and_BLIND_12_lone_big_blind_when_the_big_blind_busts():
    # Seat 3 busts instead: BB 4, no SB (seat 3 empty), button 2. Only the BB is posted.
    t = table_of([A, A, E, A, A, A])
    h = next_hand(t, previous(1, 2, 3), sb=100, bb=200)
    eq(blinds(h), (2, None, 4))
    eq(h.sb_seat, 3)
    eq(h.posts, [Post(4, "bb", 200, True)])
    eq(h.seats, (4, 5, 6, 1, 2))
    eq(h.blinds_or_straddles, [200, 0, 0, 0, 0])
    eq((h.bb_position, h.first_to_act), (0, 1))
    # Next hand: the button goes to the dead SB position, seat 3 (empty): dead button.
    h2 = next_hand(h.table, h, sb=100, bb=200)
    eq(blinds(h2), (3, 4, 5))
    assert h2.button_dead


def test_BLIND_5_moving_button():
    # Hand k: button 1, SB 2, BB 3. Seat 2 leaves. Hand k+1: button 3, SB 4, BB 5.
    t = table_of([A, E, A, A, A, A])
    h = next_hand(t, previous(1, 2, 3), sb=50, bb=100, rules={"hr.button_mode": "moving"})
    eq(blinds(h), (3, 4, 5))
    assert not h.button_dead


def test_TOUR_12_tournaments_always_use_the_dead_button():
    with raises(ConfigError, match="TOUR-12"):
        next_hand(table_of([A] * 3), previous(1, 2, 3), sb=50, bb=100, mode="tournament",
                  rules={"button_mode": "moving"})


def test_BLIND_6_heads_up_button_posts_the_small_blind():
    # NL 50/100, seat 2 (button) and seat 7: seat 2 posts 50, seat 7 posts 100. Deal order
    # 7, 2; seat 2 acts first preflop.
    t = [Seat(A) if s in (2, 7) else Seat(E) for s in range(1, 11)]
    h = next_hand(t, button=2, sb=50, bb=100)
    eq(blinds(h), (2, 2, 7))
    assert h.heads_up
    eq(h.seats, (7, 2))
    eq(sorted([(p.seat, p.amount) for p in h.posts]), [(2, 50), (7, 100)])
    # pokerkit 0.7.7 / PHH: position 0 is the BB and reads blinds_or_straddles[1].
    eq(h.blinds_or_straddles, [50, 100])
    eq((h.bb_position, h.first_to_act), (0, 1))
    # Next hand the blinds swap.
    h2 = next_hand(h.table, h, sb=50, bb=100)
    eq(blinds(h2), (7, 7, 2))
    eq(h2.seats, (2, 7))


def test_BLIND_6_heads_up_button_is_bb_house_rule():
    t = [Seat(A) if s in (2, 7) else Seat(E) for s in range(1, 11)]
    h = next_hand(t, button=2, sb=50, bb=100, rules={"hr.headsup_blinds": "button_is_bb"})
    eq(blinds(h), (2, 7, 2))
    eq(sorted([(p.seat, p.amount) for p in h.posts]), [(2, 100), (7, 50)])
    eq(h.first_to_act, 0)  # the non-button player acts first on every street
    eq(h.seats, (7, 2))
    eq(h.blinds_or_straddles, [50, 100])  # plain per position: PHH has no form for this rule
    h2 = next_hand(h.table, h, sb=50, bb=100, rules={"hr.headsup_blinds": "button_is_bb"})
    eq(blinds(h2), (7, 2, 7))


def test_BLIND_7_going_heads_up_nobody_takes_the_bb_twice():
    # Hand k: button 1, SB 3, BB 5; seat 3 busts: BB 1, seat 5 button and SB.
    t = table_of([A, E, E, E, A, E])
    h = next_hand(t, previous(1, 3, 5), sb=50, bb=100)
    eq(blinds(h), (5, 5, 1))
    # If seat 1 busts instead: BB 3 and button/SB 5.
    t = table_of([E, E, A, E, A, E])
    h = next_hand(t, previous(1, 3, 5), sb=50, bb=100)
    eq(blinds(h), (5, 5, 3))


def test_BLIND_7_leaving_heads_up_with_a_new_player():
    # Heads-up seats 2 (button/SB) and 7 (BB); a newcomer in seat 9 waits for the BB: the BB
    # moves on to seat 9, seat 7 posts the SB, seat 2 keeps the button.
    t = table_of([E, A, E, E, E, E, A, E, "new", E])
    h = next_hand(t, previous(2, 2, 7), sb=50, bb=100)
    eq(blinds(h), (2, 7, 9))
    eq(h.seats, (7, 9, 2))
    # A newcomer in seat 4 (between the old button and the old BB) cannot enter on the
    # button: still heads-up, the BB goes to seat 2, and seat 4 waits.
    t = table_of([E, A, E, "new", E, E, A, E, E, E])
    t[3].post = True
    h = next_hand(t, previous(2, 2, 7), sb=50, bb=100)
    eq(blinds(h), (7, 7, 2))
    eq(h.waiting, (4,))
    h2 = next_hand(h.table, h, sb=50, bb=100)
    eq(blinds(h2), (7, 2, 4))
    eq(h2.seats, (2, 4, 7))


def test_BLIND_12_fewer_than_two_players_is_refused():
    with raises(RuleError, match="BLIND-12"):
        next_hand(table_of([A, E, E]), previous(1, 2, 3), sb=1, bb=2)
    with raises(RuleError, match="BLIND-1"):
        next_hand(table_of([A, E, A]), button=2, sb=1, bb=2)
    with raises(ConfigError):
        next_hand(table_of([A] * 11), button=1, sb=1, bb=2)


def test_BLIND_22_previous_hand_record_is_validated():
    # The dealer may correct the button for the next hand (BLIND-22) with previous(...).
    with raises(ConfigError):
        next_hand(table_of([A] * 6), previous(1, 2, 9), sb=1, bb=2)
    eq(blinds(next_hand(table_of([A] * 6), previous(3, 4, 5), sb=1, bb=2)), (4, 5, 6))


def test_TOUR_19_games_without_blinds_keep_the_button_and_post_only_antes():
    # Stud (antes and a bring-in, no blinds): the button stays frozen; everyone seated and
    # not sitting out is dealt in; missed-blind marks wait for the next blind game.
    from felt.engine.between_hands.blinds import BACK, OUT

    t = table_of([A, A, OUT, A, E, A])
    t[3] = Seat(BACK, missed_bb=True)
    h = next_hand(t, previous(4, 6, 1), ante=10, bb=0)
    eq((h.button, h.sb, h.bb, h.first_to_act), (4, None, None, None))
    eq(h.seats, (6, 1, 2, 4))
    eq(h.antes, [10, 10, 10, 10])
    eq([p.kind for p in h.posts], ["ante"] * 4)
    eq(h.table[3], Seat(BACK, missed_bb=True))
    eq(next_hand(h.table, h, ante=10, bb=0).button, 4)
    with raises(ConfigError):
        next_hand(t, previous(4, 6, 1), sb=5, bb=0)
