# Blackjack house rules (felt.engine.blackjack.rules): every option is a named key with a legal set
# and a default (hardware/rules-blackjack.md §2); a bad value or key is a ConfigError naming it.
from check import eq, raises
from felt.engine.blackjack import rules as bjrules
from felt.engine.blackjack.rules import BlackjackRules, parse
from felt.errors import ConfigError


def test_BJ_defaults_are_the_documented_ones():
    r = BlackjackRules()
    eq((r.soft17, r.blackjack_pays, r.payout_rounding, r.double_on, r.double_after_split, r.redouble),
       ("stand", "3:2", "down", "any_two", True, False))
    eq((r.split_match, r.split_max_hands, r.resplit_aces, r.split_aces_one_card, r.surrender),
       ("pictures", 4, False, True, "none"))
    eq((r.insurance, r.even_money, r.hole_card, r.enhc_loses, r.boxes, r.decks, r.cut_card),
       (True, True, "peek", "all", 7, 6, "tag"))
    eq(r.text(), "")


def test_BJ_every_key_names_its_rule():
    for key in bjrules.keys():
        assert bjrules.rule_of(key).startswith("BJ-"), key
    with raises(ConfigError, match="known"):
        bjrules.rule_of("nope")


def test_BJ_bad_values_are_config_errors_naming_the_key():
    for values, key in (({"soft17": "maybe"}, "soft17"), ({"boxes": 8}, "boxes"), ({"boxes": "x"}, "boxes"),
                        ({"redouble": 2}, "redouble"), ({"decks": 9}, "decks"), ({"min_bet": 1.5}, "min_bet"),
                        ({"blackjack_pays": "2:1"}, "blackjack_pays"), ({"double_on": "11"}, "double_on")):
        with raises(ConfigError, match="bj." + key):
            BlackjackRules(values)
    with raises(ConfigError, match="unknown"):
        BlackjackRules({"dealer_peeks": True})
    with raises(ConfigError, match="min_bet"):
        BlackjackRules({"min_bet": 100, "max_bet": 50})


def test_BJ_text_and_parse_round_trip():
    r = BlackjackRules({"soft17": "hit", "redouble": True, "split_max_hands": 3, "hole_card": "enhc", "decks": 8})
    eq(r.text(), "soft17=hit redouble=1 split_max_hands=3 hole_card=enhc decks=8")
    eq(parse(r.text()), r)
    eq(parse(""), BlackjackRules())
    eq(r.replace({"soft17": "stand"}).soft17, "stand")
    with raises(ConfigError):
        parse("soft17")
