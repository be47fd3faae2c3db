# The table controller across hands (no hardware): button and blinds move by BLIND-* through
# engine/button.py, busted players leave, seat buttons sit out / return / post (BLIND-13..16),
# a misdeal keeps the button (DEAL-14), a void hand keeps it too (DEAL-18).
from check import eq

from felt.sim.runner import card_uid, registry
from felt.table.controller import Table, TableConfig


def hexu(c):
    return "".join(["%02X" % b for b in card_uid(c)])


def table(stacks, button=1, **kw):
    t = Table(TableConfig(game="holdem", structure="no_limit", seats=len(stacks), sb=5, bb=10, button=button, **kw),
              registry())
    for i in range(len(stacks)):
        if stacks[i]:
            t.sit(i + 1, stacks[i])
    return t


def deal(t):
    k = 0
    for _ in range(2):
        for seat in t.setup.seats:
            t.shoe_card(card_uid(k))
            t.antenna(("card-arrived", "seat%d" % seat, hexu(k)))
            k += 1


def fold_around(t):
    """Everyone folds to the last player left (GAME-6)."""
    while t.state == "playing":
        t.act(t.setup.seats[t.hand.actor], "fold")
    for u in sorted(t.onant):
        t.antenna(("card-left", t.onant[u], u))


def positions(t):
    return (t.setup.button, t.setup.sb, t.setup.bb)


def test_BLIND_3_button_moves_one_seat_each_hand():
    t = table([100, 100, 100, 100], button=1)
    seen = []
    for _ in range(5):
        t.new_hand()
        seen.append(positions(t))
        deal(t)
        fold_around(t)
    eq(seen, [(1, 2, 3), (2, 3, 4), (3, 4, 1), (4, 1, 2), (1, 2, 3)])


def test_busted_player_leaves_and_the_seat_is_skipped():
    t = table([100, 100, 10, 100], button=1)
    t.new_hand()
    eq(positions(t), (1, 2, 3))
    deal(t)
    # seat 3 (big blind, 10 chips) is all-in by the blind; everyone else folds: seat 3 wins
    t.act(4, "fold")
    t.act(1, "fold")
    t.act(2, "fold")
    eq(t.stacks, [100, 95, 15, 100])
    t.new_hand()
    eq(positions(t), (2, 3, 4))
    deal(t)
    t.act(1, "call")
    t.act(2, "call")
    t.act(3, "allin")
    t.act(4, "fold")
    t.act(1, "fold")
    t.act(2, "fold")
    eq(t.state, "over")
    eq(t.stacks[2], 45)  # 10 + 10 + 10 called or posted by the others, its own 15


def test_BLIND_13_BLIND_15_long_press_sits_out_and_returns_to_wait_for_the_big_blind():
    t = table([100, 100, 100, 100], button=1)
    t.new_hand()
    t.button(4, "long")  # during the hand: counts from the next hand
    deal(t)
    fold_around(t)
    t.new_hand()
    eq(4 in t.setup.seats, False)
    eq(positions(t), (2, 3, 1))
    deal(t)
    fold_around(t)
    t.button(4, "long")  # back: waits for the big blind
    t.new_hand()
    eq(4 in t.setup.seats, False)
    deal(t)
    fold_around(t)
    t.button(4, "short")  # posts now instead of waiting (BLIND-14)
    t.new_hand()
    eq(4 in t.setup.seats, True)


def test_DEAL_14_misdeal_keeps_button_and_blinds():
    t = table([100, 100, 100], button=2)
    t.new_hand()
    before = positions(t)
    t.shoe_card(card_uid(0))
    t.antenna(("card-arrived", "seat2", hexu(0)))  # the button's seat got the first card
    pend = t.pending()
    eq(pend[0].rules, ("DEAL-8", "DEAL-12"))
    t.ruling(pend[0].id, True)
    eq(positions(t), before)
    eq(t.hand_no, 1)
    eq(t.misdeals, 1)
    eq(t.hand.stacks, [95, 90, 100])  # blinds posted once


def test_BLIND_16_new_player_between_hands_posts_a_big_blind():
    t = table([100, 100, 100, 0], button=1)
    t.new_hand()
    deal(t)
    fold_around(t)
    t.sit(4, 200)
    t.new_hand()
    eq(4 in t.setup.seats, True)
    posts = [(p.seat, p.kind) for p in t.setup.posts]
    assert (4, "post_bb") in posts or t.setup.bb == 4, posts


def test_BLIND_21_rebuy_of_a_seated_player_is_not_a_fresh_start():
    t = table([100, 100, 100], button=1)
    t.new_hand()
    deal(t)
    fold_around(t)
    t.sit(2, 500)  # tops up between hands: still an active player, no new-player post
    eq(t.stacks[1], 500)
    t.new_hand()
    posts = [(p.seat, p.kind) for p in t.setup.posts]
    eq((2, "post_bb") in posts, False)
    eq(positions(t), (2, 3, 1))


def test_GAME_1_BET_1_console_settings_between_hands_only():
    t = table([100, 100, 100], button=1)
    eq(t.configure("bb", 20), True)
    eq(t.configure("sb", 10), True)
    eq(t.configure("hr.button_mode", "moving"), True)
    eq(t.setting("hr.button_mode"), "moving")
    eq(t.configure("hr.button_mode", "sideways"), False)  # validated by settings.py, nothing changed
    eq(t.setting("hr.button_mode"), "moving")
    eq(t.configure("colour", 3), False)
    t.new_hand()
    eq(t.hand.stacks, [90, 80, 100])  # the new blinds
    eq(t.configure("bb", 40), False)  # not during a hand
    eq(t.alerts[-1].rules, ("GAME-1",))
