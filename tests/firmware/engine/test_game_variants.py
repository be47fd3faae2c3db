# Games as data (GAME-1): every PHH variant and every RULES.md game/structure is a record;
# board-game flow examples GAME-2, GAME-6..9; short deck; configuration errors.
from check import eq, raises
from felt.engine.cards import parse_cards
from felt.engine.games import GAMES, game_for
from felt.engine.hand.machine import Hand
from felt.errors import ConfigError, RuleError


def test_GAME_1_every_phh_variant_and_rules_name_has_a_record():
    for code in ("NT", "FT", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB", "NS",
                 "PO/8", "FO", "PT", "F5S", "N5D", "F5D"):
        eq(GAMES[code].code, code)
    # GAME-1 example: {game: omaha8, structure: limit, ...}
    g = game_for("omaha8", "limit")
    eq((g.code, g.structure, g.hi, g.lo, len(g.streets[0].hole)), ("FO/8", "limit", "omaha", "low8", 4))
    eq(game_for("holdem", "no_limit").code, "NT")
    eq(game_for("stud7_8", "limit").code, "F7S/8")
    eq(game_for("stud5", "limit").code, "F5S")
    eq(game_for("draw5", "no_limit").code, "N5D")
    with raises(ConfigError, match="GAME-1"):
        game_for("razz", "limit")


def test_GAME_1_game_for_every_name_and_structure_and_nothing_else():
    # the RULES.md names x structures that exist, and only those (the parts are looked up in text)
    got = []
    for game in ("holdem", "omaha", "omaha8", "stud7", "stud7_8", "stud5", "draw5"):
        for structure in ("limit", "pot_limit", "no_limit"):
            try:
                got.append(game_for(game, structure).code)
            except ConfigError:
                pass
    eq(got, ["FT", "PT", "NT", "FO", "PO", "NO", "FO/8", "PO/8", "F7S", "F7S/8", "F5S", "P5S", "N5S",
             "F5D", "P5D", "N5D"])
    for game, structure in (("holdem:T omaha", "limit"), ("omaha ", "limit"), ("omaha", "limit "), ("", ""),
                            (None, "limit"), ("omaha", None), ("O", "F"), ("holdem", "limit:F pot_limit")):
        with raises(ConfigError, match="GAME-1"):
            game_for(game, structure)


def test_GAME_1_structures_and_street_counts_are_data():
    eq([len(GAMES[c].streets) for c in ("NT", "F7S", "F5S", "F5D", "F2L3D", "FB")], [4, 5, 4, 2, 4, 4])
    eq(GAMES["F7S"].max_players, 8)
    eq([s.big for s in GAMES["F7S"].streets], [False, False, True, True, True])  # BET-2
    eq([s.big for s in GAMES["F2L3D"].streets], [False, False, True, True])


def test_GAME_1_player_count_and_config_errors():
    with raises(ConfigError, match="GAME-1"):
        Hand(game=GAMES["NT"], stacks=[100], blinds=[1, 2])
    with raises(ConfigError, match="GAME-1"):
        Hand(game=GAMES["F7S"], stacks=[100] * 9, bring_in=1, small_bet=2)
    with raises(ConfigError, match="BLIND-12"):
        Hand(game=GAMES["NT"], stacks=[100] * 3, blinds=[0, 0])
    with raises(ConfigError, match="GAME-11"):
        Hand(game=GAMES["F7S"], stacks=[100] * 3, small_bet=2)
    with raises(ConfigError, match="GAME-10"):
        Hand(game=GAMES["F7S"], stacks=[100] * 3, blinds=[1, 2], bring_in=1, small_bet=2)
    with raises(ConfigError):
        Hand(game=GAMES["NT"], stacks=[100, 0], blinds=[1, 2])
    Hand(game=GAMES["NT"], stacks=[100] * 10, blinds=[1, 2])


def test_GAME_2_shoe_sequence_six_players_twenty_cards():
    h = Hand(game=GAMES["NT"], stacks=[1000] * 6, blinds=[5, 10])
    deck = parse_cards("2c3c4c5c6c7c8c9cTcJcQcKcAc2d3d4d5d6d7d8d")
    k = 0
    for rnd in range(2):  # one at a time, round-robin from the button's left
        for p in range(6):
            eq(h.next_hole_position(), p)
            h.deal_hole(p, deck[k])
            k += 1
    eq(h.phase, "bet")
    for street, count in ((1, 3), (2, 1), (3, 1)):
        while h.phase == "bet":
            h.check_call(h.actor)
        eq(h.street, street)
        eq(h.can_deal_board(deck[k + 1:k + 2]), True)
        h.burn(deck[k])
        k += 1
        h.deal_board(deck[k:k + count])
        k += count
    eq(k, 20)
    eq(len(h.burns), 3)


def test_GAME_6_flop_bet_all_fold_hand_ends():
    h = Hand(game=GAMES["NT"], stacks=[5000] * 3, blinds=[50, 100])
    for p, t in enumerate(("AcKd", "7h7s", "2c3d")):
        h.deal_hole(p, parse_cards(t))
    for _ in range(3):
        h.check_call(h.actor)
    h.deal_board(parse_cards("2h7d8s"))
    h.bet_raise_to(0, 300)
    h.fold(1)
    h.fold(2)
    eq(h.finished, True)
    eq(h.finishing_stacks(), [5200, 4900, 4900])
    eq(h.reasons, ["player 1 wins the main pot uncontested"])
    with raises(RuleError, match="DEAL-49"):
        h.burn(parse_cards("Kh")[0])


def test_GAME_7_turn_all_in_heads_up_river_dealt_without_betting():
    h = Hand(game=GAMES["NT"], stacks=[2200, 9000], blinds=[50, 100], rules={"mode": "tournament"})
    h.deal_hole(0, parse_cards("AhAd"))
    h.deal_hole(1, parse_cards("KsKd"))
    h.check_call(1)
    h.check_call(0)
    h.deal_board(parse_cards("2c7d9h"))  # GAME-7 example: tournament, turn, heads-up
    h.check_call(0)
    h.check_call(1)
    h.deal_board(parse_cards("Tc"))
    h.bet_raise_to(0, 2100)  # all-in
    h.check_call(1)
    eq((h.runout, h.street, h.phase), (True, 3, "deal"))
    h.show(0)
    h.show(1)
    h.deal_board(parse_cards("Kc"))
    eq(h.finished, True)
    eq(h.finishing_stacks(), [0, 11200])
    eq(h.reasons, ["player 2 wins the main pot with three of a kind, kings"])


def test_GAME_8_omaha_nine_players_get_36_hole_cards():
    h = Hand(game=GAMES["PO"], stacks=[1000] * 9, blinds=[5, 10])
    cards = list(range(36))
    for r in range(4):
        for p in range(9):
            eq(h.next_hole_position(), p)
            h.deal_hole(p, cards[9 * r + p])
    eq(h.phase, "bet")
    eq(sum(len(x) for x in h.hole), 36)


def test_GAME_9_omaha_hi_lo_split_and_scoop():
    # pot 2,000: A the best high, B the best low: 1,000 each
    h = Hand(game=GAMES["PO/8"], stacks=[5000] * 2, blinds=[500, 1000])
    h.deal_hole(0, parse_cards("KhKdQsJs"))  # high: kings full
    h.deal_hole(1, parse_cards("Ac2d9s9c"))  # low: 5-4-3-2-A
    h.check_call(1)
    h.check_call(0)
    for board in ("KcTh3d", "6s", "7h"):  # high: kings; low: 7-6-3-2-A
        h.deal_board(parse_cards(board))
        while h.phase == "bet":
            h.check_call(h.actor)
    h.show(0)
    h.show(1)
    eq(h.finishing_stacks(), [5000, 5000])
    eq([(a.half, a.amount) for a in h.results], [("high", 1000), ("low", 1000)])


def test_GAME_9_no_qualifying_low_high_takes_all():
    h = Hand(game=GAMES["FO/8"], stacks=[5000] * 2, blinds=[500, 1000], small_bet=1000)
    h.deal_hole(0, parse_cards("KhKdQsJs"))
    h.deal_hole(1, parse_cards("Ac2d9s9c"))
    h.check_call(1)
    h.check_call(0)
    for board in ("KcTh9d", "Qd", "Jh"):
        h.deal_board(parse_cards(board))
        while h.phase == "bet":
            h.check_call(h.actor)
    h.show(0)
    h.show(1)
    eq(h.finishing_stacks(), [6000, 4000])
    eq(h.results[0].no_low, True)


def test_short_deck_rejects_small_cards_and_plays_out():
    h = Hand(game=GAMES["NS"], stacks=[1000] * 2, blinds=[10, 20])
    with raises(RuleError, match="DECK-1"):
        h.deal_hole(0, parse_cards("5c"))
    h.deal_hole(0, parse_cards("AhKh"))
    h.deal_hole(1, parse_cards("6c6d"))
    eq(h.phase, "bet")
