# House-rule record (RULES.md §12.2): defaults per mode, validation, loading.
from check import eq, raises
from felt.engine.house import rules as settings
from felt.engine.house.rules import CASH, TOURNAMENT, HouseRules
from felt.engine.house.values import Rake, from_dict, parse_text
from felt.errors import ConfigError

# (key, cash default, tournament default) copied row by row from the §12.2 table; None = n/a.
REGISTER_TABLE = (
    ("initial_button", "high_card_by_suit", "high_card_by_suit"),
    ("button_mode", "dead", "dead"),
    ("headsup_blinds", "button_is_sb", "button_is_sb"),
    ("missed_blind_makeup", "standard", None),
    ("straddle", "off", "off"),
    ("blind_chop", "off", "off"),
    ("limit_raises_per_round", 3, 3),
    ("limit_headsup_uncapped", "cash_rule", "event_heads_up_only"),
    ("fifty_pct_basis", "largest_full_increment", "largest_full_increment"),
    ("multichip_silent", "tda", "tda"),
    ("nl_short_allin_reopen", "full_raise", "full_raise"),
    ("limit_short_allin_reopen", "more_than_half", "at_least_half"),
    ("public_pot_display", "pl_only", "pl_only"),
    ("undercall_cash", "must_correct", None),
    ("two_motion_raise", False, False),
    ("oot_mode", "club_chips_stay", "tda2019"),
    ("skipped_player_forfeit", "two_actions", "sa"),
    ("stack_display", "approximate_any_time", "tda_on_request"),
    ("sa_definition", "two_actions", "tda"),
    ("boxed_misdeal_threshold", 2, 2),
    ("single_extra_card", "burn", "misdeal"),
    ("foreign_card_after_sa", "void_refund", "scrap"),
    ("noburn_flop", "restore_order", "tda_random"),
    ("premature_turn", "tda2019", "tda2019"),
    ("presence_check", "console", "console"),
    ("self_exposure", "cash_club", "live_penalty"),
    ("stud_exposed_downcard", "tda2019", "tda2019"),
    ("premature_stud", "tda2019", "tda2019"),
    ("draw_max_replace", 5, 5),
    ("stud5_first_action", "bring_in_lowest", "bring_in_lowest"),
    ("stud_odd_chip_low", "high_card_by_suit", "high_card_by_suit"),
    ("hilo_identical_scoop", "even_split", "even_split"),
    ("rake", "off", "off"),
    ("allin_face_up", "at_showdown", "immediate"),
    ("show_request", "club_cash", "tda2019"),
    ("nut_check_last_to_act", "flag_only", "flag_only"),
    ("clock", None, "tda2019"),
    ("simultaneous_bust", None, "start_stack_order"),
    ("balance_move", None, "tda2019"),
    ("penalty_unit", None, "hands"),
    ("stud_open_pair_double", "off", "off"),
    ("short_buyin_once", False, None),
    ("bbj_min_rake", None, None),
    ("bbj_hand", "off", None),  # not in section 12.2: the qualifying hand of CASH-8 as a named house rule (issue 14)
    ("cash_action_timer", "off", None),
)


def test_register_has_every_key_of_section_12_2():
    eq(sorted(k for k, _, _ in REGISTER_TABLE), sorted(row.key for row in settings.register()))
    eq(len(settings.register()), 45)  # section 12.2's 44 and hr.bbj_hand


def test_defaults_per_mode_match_section_12_2():
    cash = HouseRules(CASH)
    tour = HouseRules(TOURNAMENT)
    for key, want_cash, want_tour in REGISTER_TABLE:
        eq(getattr(cash, key), want_cash, "cash " + key)
        eq(getattr(tour, key), want_tour, "tournament " + key)


def test_BET_4_limit_cap_default_is_4_for_draw():
    eq(HouseRules(CASH, game="draw5").limit_raises_per_round, 4)
    eq(HouseRules(TOURNAMENT, game="holdem").limit_raises_per_round, 3)
    eq(HouseRules(CASH, game="F5D").limit_raises_per_round, 4)


def test_three_ways_to_read_a_value():
    r = HouseRules(TOURNAMENT)
    eq(r["hr.sa_definition"], "tda")
    eq(r["sa_definition"], "tda")
    eq(r.get("hr.noburn_flop"), "tda_random")
    eq(r.get("hr.no_such_key", "x"), "x")
    with raises(ConfigError, match="unknown house rule"):
        r["hr.nope"]


def test_bad_choice_names_key_and_legal_options():
    with raises(ConfigError) as e:
        HouseRules(CASH, values={"hr.sa_definition": "three_actions"})
    msg = str(e.value)
    assert "hr.sa_definition" in msg and "tda, two_actions" in msg, msg


def test_bad_integer_range_names_range():
    with raises(ConfigError, match="an integer 2..3"):
        HouseRules(CASH, values={"boxed_misdeal_threshold": 4})
    with raises(ConfigError, match="an integer 0..5"):
        HouseRules(CASH, values={"draw_max_replace": 6})
    eq(HouseRules(CASH, values={"draw_max_replace": "3"}).draw_max_replace, 3)


def test_TOUR_12_button_mode_fixed_dead_in_tournaments():
    with raises(ConfigError, match="fixed"):
        HouseRules(TOURNAMENT, values={"hr.button_mode": "moving"})
    eq(HouseRules(CASH, values={"hr.button_mode": "moving"}).button_mode, "moving")
    # restating the fixed value is fine
    eq(HouseRules(TOURNAMENT, values={"hr.button_mode": "dead"}).button_mode, "dead")


def test_BLIND_20_straddle_and_BLIND_26_chop_fixed_off_in_tournaments():
    with raises(ConfigError, match="hr.straddle"):
        HouseRules(TOURNAMENT, values={"straddle": "utg_2x"})
    with raises(ConfigError, match="hr.blind_chop"):
        HouseRules(TOURNAMENT, values={"blind_chop": "on"})


def test_not_applicable_keys_are_rejected_in_that_mode():
    with raises(ConfigError, match="does not apply in cash mode"):
        HouseRules(CASH, values={"hr.clock": "tda2019"})
    with raises(ConfigError, match="does not apply in tournament mode"):
        HouseRules(TOURNAMENT, values={"hr.cash_action_timer": 60})


def test_bool_keys_accept_true_false_text():
    eq(HouseRules(CASH, values={"hr.short_buyin_once": "true"}).short_buyin_once, True)
    eq(HouseRules(CASH, values={"hr.two_motion_raise": False}).two_motion_raise, False)
    with raises(ConfigError, match="false, true"):
        HouseRules(CASH, values={"hr.two_motion_raise": "yes"})


def test_CASH_13_timer_off_or_seconds():
    eq(HouseRules(CASH, values={"cash_action_timer": 60}).cash_action_timer, 60)
    with raises(ConfigError, match="off, or whole seconds"):
        HouseRules(CASH, values={"cash_action_timer": 0})


def test_bad_mode_rejected():
    with raises(ConfigError, match="mode must be one of cash, tournament"):
        HouseRules("freeroll")


def test_a_bad_value_leaves_nothing_applied():
    r = HouseRules(CASH, values={"hr.sa_definition": "tda"})
    with raises(ConfigError):
        r.replace({"hr.noburn_flop": "tda_random", "hr.premature_turn": "tda2020"})
    eq(r.noburn_flop, "restore_order")
    eq(r.sa_definition, "tda")


def test_replace_keeps_earlier_changes():
    r = HouseRules(CASH).replace({"hr.sa_definition": "tda"}).replace({"noburn_flop": "tda_random"})
    eq(r.changed(), [("hr.noburn_flop", "tda_random"), ("hr.sa_definition", "tda")])


def test_from_dict_with_mode_and_prefixes():
    r = from_dict({"mode": "tournament", "hr.clock": "legacy_60_10", "premature_turn": "tda2017"})
    eq(r.mode, TOURNAMENT)
    eq(r.clock, "legacy_60_10")
    eq(r.premature_turn, "tda2017")
    with raises(ConfigError, match="unknown house rule"):
        from_dict({"hr.sa_defintion": "tda"})


def test_parse_key_value_text():
    r = parse_text(
        """
        # venue X
        mode = cash
        hr.sa_definition = tda      # TDA everywhere
        hr.rake = 5% cap 150
        hr.cash_action_timer = 60
        """
    )
    eq(r.sa_definition, "tda")
    eq(r.rake, Rake(500, 150))
    eq(r.cash_action_timer, 60)


def test_parse_json_text():
    r = parse_text('{"mode": "cash", "hr.rake": {"percent": "2.5", "cap": 100}, "hr.short_buyin_once": true}')
    eq(r.rake, Rake(250, 100))
    eq(r.short_buyin_once, True)


def test_parse_text_errors_name_the_line():
    with raises(ConfigError, match="line 2"):
        parse_text("mode = cash\nhr.sa_definition tda\n")
    with raises(ConfigError, match="given twice"):
        parse_text("hr.clock = tda2019\nhr.clock = tda2019\n")
    with raises(ConfigError, match="bad JSON"):
        parse_text('{"mode": ')


def test_rake_rejects_floats_and_bad_fields():
    with raises(ConfigError, match="no floats"):
        HouseRules(CASH, values={"rake": {"percent": 2.5}})
    with raises(ConfigError, match="unknown field"):
        HouseRules(CASH, values={"rake": {"percent": 5, "max": 3}})
    with raises(ConfigError, match="at most 2 decimals"):
        HouseRules(CASH, values={"rake": {"percent": "2.555"}})


def test_a_key_holding_the_register_separators_is_unknown():
    # the register is one text of "key|kind|..." rows: "initial_button|choice" must not match inside it
    for key in ("initial_button|choice", "hr.initial_button|x", "button_mode\nstraddle", "hr."):
        with raises(ConfigError, match="unknown house rule"):
            settings.rule_of(key)
        with raises(ConfigError):
            HouseRules(CASH, values={key: "dead"})
    eq(settings.rule_of("hr.initial_button").key, "initial_button")
