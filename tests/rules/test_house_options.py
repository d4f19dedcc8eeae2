"""The option list, the presets, rules inside saved games, and that every option value
has a behaviour test.

See house_coverage.py for how each test registers what it covers.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from house_coverage import missing_values, required_values
from thousand import Game, Rules

# --- Rules: the option list, presets, and rules inside saved games -------------------------

# Every option id RULES.md names, with its default (the first value of its row).
RULES_MD_DEFAULTS: dict[str, Any] = {
    # 12.1
    "bid_cap": "hand_marriages",
    "max_bid": 300,
    "no_jump_bids": False,
    "silence_below": None,
    "hidden_talon_at_100": True,
    "pass_face_down": False,
    "barrel_min_bid": 120,
    # 12.2
    "marriage_first_lead": False,
    "marriage_needs_capture": False,
    "ace_marriage": False,
    "ace_marriage_trump": "none",
    "no_lead_foreign_trump": False,
    "must_lead_trump": False,
    # 12.3
    "redeal_talon_below": 5,
    "redeal_two_nines_talon": True,
    "redeal_three_nines_talon": False,
    "redeal_three_jacks_talon": False,
    "redeal_hand_below": 13,
    "redeal_four_nines": True,
    "redeal_four_nines_after_pass": True,
    "redeal_four_jacks": False,
    "redeal_only_at_100": False,
    "redeal_penalty_dealer": False,
    # 12.4
    "rounding": "nearest5",
    "declarer_rounding": False,
    "penalty": 120,
    "bolt_rule": "no_tricks",
    "bolt_mode": "total",
    "no_bolt_on_own_game": False,
    "four_nines_bonus": False,
    # 12.5
    "write_off": True,
    "write_off_flat_60": False,
    "write_off_keeps_score": False,
    "write_off_limit": None,
    "write_off_third_penalty": False,
    "write_off_on_barrel": False,
    "cross": False,
    # 12.6
    "barrel_at": 880,
    "barrel_attempts": 3,
    "barrel_three_falls_zero": True,
    "one_on_barrel": True,
    "barrel_fall_to": "minus_penalty",
    "target_1001": False,
    "samosval": False,
    "samosval_negative": False,
    "reverse_barrel": False,
    "intermediate_barrel_380": False,
    # 12.7 with 9.1, 9.2, 10, 11
    "dark": False,
    "dark_min_score": None,
    "dark_undarken": False,
    "dark_cap_240": False,
    "dark_double_bolt": False,
    "dark_write_off": False,
    "golden": False,
    "golden_reset": False,
    "golden_repeat": False,
    "golden_raise": False,
    "golden_double_bolt": False,
    "golden_marriage_not_doubled": False,
    "players": 3,
    "dealer_score": "talon_points",
    "talon_half_marriage": False,
    "two_player_second_talon": "dead",
    "two_player_talon_choice": "blind",
    # 12.9
    "bid_step": 5,
    "must_beat": False,
    "lock_at": None,
    "bomb": 0,
}

# Values RULES.md lists for each option (besides the default) that must be accepted.
RULES_MD_VALUES: dict[str, tuple[Any, ...]] = {
    "bid_cap": ("none",),
    "max_bid": (200, 250, 420),
    "silence_below": (-120, 0),
    "barrel_min_bid": (121, 125),
    "ace_marriage_trump": ("cancel", "last_ace"),
    "redeal_talon_below": (None, 4),
    "redeal_hand_below": (None, 14, 15),
    "rounding": ("by_last_digit", "none", "nearest10"),
    "bolt_rule": ("zero_points",),
    "bolt_mode": ("consecutive", "off"),
    "write_off_limit": (2, 3),
    "barrel_at": (900, None),
    "barrel_fall_to": ("500", "minus_contract"),
    "players": (2, 4),
    "dealer_score": ("flat_30", "aces_50"),
    "two_player_second_talon": ("last_trick",),
    "two_player_talon_choice": ("seen",),
    "bid_step": (10,),
    "lock_at": (800,),
    "bomb": (1,),
}


def test_options_list_every_rules_md_option_with_descriptions_and_values():
    options = {o["id"]: o for o in Rules.options()}
    assert len(options) == len(Rules.options())  # no id twice
    assert set(options) == set(RULES_MD_DEFAULTS)
    groups = Rules.groups()
    for oid, o in options.items():
        assert o["default"] == RULES_MD_DEFAULTS[oid], oid
        assert Rules()[oid] == o["default"] and getattr(Rules(), oid) == o["default"]
        assert o["en"].strip() and o["ru"].strip(), oid
        assert any("а" <= ch.lower() <= "я" or ch in "ёЁ" for ch in o["ru"]), oid
        assert o["group"] in groups and all(groups[o["group"]])
        if o["kind"] == "bool":
            assert isinstance(o["default"], bool) and not o["choices"]
        elif o["kind"] == "choice":
            assert o["default"] in o["choices"] or (o["default"] is None and o["optional"])
        else:
            assert o["kind"] == "int" and o["low"] is not None and o["high"] is not None
            assert o["step"] >= 1
        for value in RULES_MD_VALUES.get(oid, ()):
            assert Rules().replace(**{oid: value})[oid] == value, (oid, value)
        json.dumps(o, ensure_ascii=False)  # the settings screen gets it as JSON


@pytest.mark.parametrize(
    "options",
    [
        {"rounding": "nearest3"},
        {"players": 5},
        {"max_bid": 303},
        {"samosval": "yes"},
        {"penalty": True},
        {"barrel_min_bid": 122},
        {"no_such_rule": True},
    ],
)
def test_bad_option_values_are_refused_by_name(options):
    name = next(iter(options))
    with pytest.raises(ValueError, match=name):
        Rules().replace(**options)
    with pytest.raises(ValueError, match=name):
        Rules.from_dict(options)


PRESET_CHANGES: dict[str, dict[str, Any]] = {
    "classic": {},
    "strict": {
        "barrel_min_bid": 121,
        "write_off_limit": 3,
        "write_off_third_penalty": True,
        "samosval": True,
        "silence_below": -120,
    },
    "two_players": {"players": 2},
    "four_players": {"players": 4},
    "polish": {
        "bid_step": 10,
        "must_beat": True,
        "rounding": "nearest10",
        "lock_at": 800,
        "barrel_at": None,
        "bomb": 1,
        "dealer_score": "aces_50",
    },
}


@pytest.mark.parametrize("name", sorted(PRESET_CHANGES))
def test_presets_have_the_rules_md_values(name):
    preset = Rules.preset(name)
    assert preset.changed() == PRESET_CHANGES[name]
    assert Rules.from_dict(preset.to_dict()) == preset


def test_preset_list_and_mobile_app():
    assert set(Rules.presets()) == {*PRESET_CHANGES, "mobile_app"}
    app = Rules.preset("mobile_app")
    # Seed 004's app offers the golden round and dark play among its agreements.
    assert app.changed() and app.players == 3
    assert set(app.changed()) <= set(RULES_MD_DEFAULTS)
    with pytest.raises(ValueError, match="no_such_preset"):
        Rules.preset("no_such_preset")


def test_every_rules_md_value_either_plays_or_is_refused_as_not_implemented():
    for o in Rules.options():
        for value in {*required_values(o), *RULES_MD_VALUES.get(o["id"], ())}:
            r = Rules().replace(**{o["id"]: value})
            if r.unsupported():
                assert o["id"] in r.unsupported()
                with pytest.raises(NotImplementedError, match=o["id"]):
                    Game.new(rules=r, seed=3)
            else:
                g = Game.new(rules=r, seed=3)
                assert g.rules == r and g.current_player is not None


@pytest.mark.parametrize("name", Rules.presets())
def test_a_saved_game_reloads_with_its_own_rules(name):
    r = Rules.preset(name).replace(samosval_negative=True, penalty=100)
    g = Game.new(rules=r, seed=11, scores=[10] * r.players)
    rng = random.Random(name)
    for _ in range(30):
        g.apply(rng.choice(g.legal_actions()))
    saved = g.to_json()
    assert json.loads(saved)["rules"] == r.to_dict()
    back = Game.from_json(saved)
    assert back.rules == r and back == g
    assert back.view(0)["rules"] == r.to_dict()
    assert [str(a) for a in back.legal_actions()] == [str(a) for a in g.legal_actions()]
    # The reloaded game does not fall back to the classic rules when it carries on.
    assert Game.from_json(back.to_json()).rules.changed() == r.changed()


# --- every option value is tested -----------------------------------------------------------


def test_every_option_value_has_a_behaviour_test():
    missing = missing_values()
    assert not missing, "options without a behaviour test: " + ", ".join(missing)
