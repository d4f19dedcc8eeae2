"""The rules object: every house option, the presets, and bad names or values refused.

Seat numbering in every deal: seat 0 deals, seat 1 is first hand (sits on
100), seat 2 speaks first in the bidding — unless a test says otherwise.
"""

from __future__ import annotations

import json

import pytest
from helpers import (
    rules,
)
from thousand import Game, Rules

# --- Rules -------------------------------------------------------------------------

ALL_OPTION_IDS = [
    # §12.1
    "bid_cap",
    "max_bid",
    "no_jump_bids",
    "silence_below",
    "hidden_talon_at_100",
    "pass_face_down",
    "barrel_min_bid",
    # §12.2
    "marriage_first_lead",
    "marriage_needs_capture",
    "ace_marriage",
    "ace_marriage_trump",
    "no_lead_foreign_trump",
    "must_lead_trump",
    # §12.3
    "redeal_talon_below",
    "redeal_two_nines_talon",
    "redeal_three_nines_talon",
    "redeal_three_jacks_talon",
    "redeal_hand_below",
    "redeal_four_nines",
    "redeal_four_nines_after_pass",
    "redeal_four_jacks",
    "redeal_only_at_100",
    "redeal_penalty_dealer",
    # §12.4
    "rounding",
    "declarer_rounding",
    "penalty",
    "bolt_rule",
    "bolt_mode",
    "no_bolt_on_own_game",
    "four_nines_bonus",
    # §12.5
    "write_off",
    "write_off_flat_60",
    "write_off_keeps_score",
    "write_off_limit",
    "write_off_third_penalty",
    "write_off_on_barrel",
    "cross",
    # §12.6
    "barrel_at",
    "barrel_attempts",
    "barrel_three_falls_zero",
    "one_on_barrel",
    "barrel_fall_to",
    "target_1001",
    "samosval",
    "samosval_negative",
    "reverse_barrel",
    "intermediate_barrel_380",
    # §12.7
    "dark",
    "golden",
    "players",
    "dealer_score",
    "two_player_second_talon",
    # §12.9
    "bid_step",
    "must_beat",
    "lock_at",
    "bomb",
]


def _on(v: object) -> bool:
    return v is True or v == "on"


def _off(v: object) -> bool:
    return v in (False, None, "off", "none", 0)


def test_classic_has_every_option_with_its_default() -> None:
    d = Rules.preset("classic").to_dict()
    missing = [k for k in ALL_OPTION_IDS if k not in d]
    assert not missing, f"options missing from Rules: {missing}"
    assert d["bid_cap"] == "hand_marriages"
    assert d["max_bid"] == 300
    assert d["barrel_min_bid"] == 120
    assert d["rounding"] == "nearest5"
    assert d["penalty"] == 120
    assert d["bolt_rule"] == "no_tricks"
    assert d["bolt_mode"] == "total"
    assert d["barrel_at"] == 880
    assert d["barrel_attempts"] == 3
    assert d["barrel_fall_to"] == "minus_penalty"
    assert d["players"] == 3
    assert d["dealer_score"] == "talon_points"
    assert d["two_player_second_talon"] == "dead"
    assert d["bid_step"] == 5
    assert d["redeal_hand_below"] == 13
    assert d["redeal_talon_below"] == 5
    for on in (
        "hidden_talon_at_100",
        "redeal_two_nines_talon",
        "redeal_four_nines",
        "redeal_four_nines_after_pass",
        "write_off",
        "barrel_three_falls_zero",
        "one_on_barrel",
    ):
        assert _on(d[on]), on
    for off in (
        "no_jump_bids",
        "silence_below",
        "pass_face_down",
        "marriage_first_lead",
        "marriage_needs_capture",
        "ace_marriage",
        "no_lead_foreign_trump",
        "must_lead_trump",
        "redeal_three_nines_talon",
        "redeal_three_jacks_talon",
        "redeal_four_jacks",
        "redeal_only_at_100",
        "redeal_penalty_dealer",
        "declarer_rounding",
        "no_bolt_on_own_game",
        "four_nines_bonus",
        "write_off_flat_60",
        "write_off_keeps_score",
        "write_off_limit",
        "write_off_third_penalty",
        "write_off_on_barrel",
        "cross",
        "target_1001",
        "samosval",
        "samosval_negative",
        "reverse_barrel",
        "intermediate_barrel_380",
        "dark",
        "golden",
        "must_beat",
        "lock_at",
        "bomb",
    ):
        assert _off(d[off]), off
    assert Rules.preset("classic") == Rules.preset("classic")
    assert Game.new().view(None)["rules"] == d


def test_rules_round_trip_and_replace() -> None:
    classic = Rules.preset("classic")
    assert Rules.from_dict(classic.to_dict()) == classic
    r = classic.replace(max_bid=200, rounding="by_last_digit")
    assert r != classic
    assert r.to_dict()["max_bid"] == 200
    assert r.to_dict()["rounding"] == "by_last_digit"
    assert classic.to_dict()["max_bid"] == 300, "replace must not mutate the original"
    assert Rules.from_dict(r.to_dict()) == r
    json.dumps(r.to_dict())


def test_strict_preset() -> None:
    d = Rules.preset("strict").to_dict()
    assert d["barrel_min_bid"] == 121
    assert d["write_off_limit"] == 3
    assert _on(d["write_off_third_penalty"])
    assert _on(d["samosval"])
    assert d["silence_below"] == -120


@pytest.mark.parametrize("option", ["nonsense_option", "maxbid"])
def test_unknown_option_is_a_value_error_naming_it(option: str) -> None:
    with pytest.raises(ValueError, match=option):
        Rules.preset("classic").replace(**{option: 1})
    d = Rules.preset("classic").to_dict()
    d[option] = 1
    with pytest.raises(ValueError, match=option):
        Rules.from_dict(d)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("max_bid", 302),
        ("max_bid", "lots"),
        ("rounding", "banana"),
        ("players", 5),
        ("bid_cap", "sky"),
        ("penalty", "x"),
        ("hidden_talon_at_100", "maybe"),
    ],
)
def test_bad_value_is_a_value_error_naming_the_option(option: str, value: object) -> None:
    with pytest.raises(ValueError, match=option):
        Rules.preset("classic").replace(**{option: value})
    d = Rules.preset("classic").to_dict()
    d[option] = value
    with pytest.raises(ValueError, match=option):
        Rules.from_dict(d)


def test_unknown_preset() -> None:
    with pytest.raises((ValueError, KeyError)):
        Rules.preset("no_such_preset")


# One non-default value per option, as RULES.md §12 lists them.
NON_DEFAULT = {
    "bid_cap": "none",
    "max_bid": 250,
    "no_jump_bids": True,
    "silence_below": -120,
    "hidden_talon_at_100": False,
    "pass_face_down": True,
    "barrel_min_bid": 121,
    "marriage_first_lead": True,
    "marriage_needs_capture": True,
    "ace_marriage": True,
    "ace_marriage_trump": "cancel",
    "no_lead_foreign_trump": True,
    "must_lead_trump": True,
    "redeal_talon_below": 10,
    "redeal_two_nines_talon": False,
    "redeal_three_nines_talon": True,
    "redeal_three_jacks_talon": True,
    "redeal_hand_below": 14,
    "redeal_four_nines": False,
    "redeal_four_nines_after_pass": False,
    "redeal_four_jacks": True,
    "redeal_only_at_100": True,
    "redeal_penalty_dealer": True,
    "rounding": "by_last_digit",
    "declarer_rounding": True,
    "penalty": 100,
    "bolt_rule": "zero_points",
    "bolt_mode": "consecutive",
    "no_bolt_on_own_game": True,
    "four_nines_bonus": True,
    "write_off": False,
    "write_off_flat_60": True,
    "write_off_keeps_score": True,
    "write_off_limit": 2,
    "write_off_third_penalty": True,
    "write_off_on_barrel": True,
    "cross": True,
    "barrel_at": 900,
    "barrel_three_falls_zero": False,
    "one_on_barrel": False,
    "barrel_fall_to": "minus_contract",
    "target_1001": True,
    "samosval": True,
    "samosval_negative": True,
    "reverse_barrel": True,
    "intermediate_barrel_380": True,
    "dark": True,
    "golden": True,
    "players": 4,
    "dealer_score": "flat_30",
    "two_player_second_talon": "last_trick",
    "bid_step": 10,
    "must_beat": True,
    "lock_at": 800,
    "bomb": 1,
}


@pytest.mark.parametrize(("option", "value"), sorted(NON_DEFAULT.items()), ids=sorted(NON_DEFAULT))
def test_every_option_value_is_accepted_or_not_implemented(option: str, value: object) -> None:
    # A value RULES.md lists must be a valid Rules value; Game.new either
    # plays with it or raises NotImplementedError naming the option.
    r = Rules.preset("classic").replace(**{option: value})
    assert r.to_dict()[option] == value
    assert Rules.from_dict(r.to_dict()) == r
    try:
        game = Game.new(rules=r, seed=5)
    except NotImplementedError as e:
        assert option in str(e), f"NotImplementedError does not name {option!r}: {e}"
        return
    # It plays: a few hundred first-legal-action steps must not crash.
    for _ in range(300):
        if game.current_player is None:
            break
        actions = game.legal_actions()
        assert actions, "a player to move must have a legal action"
        game.apply(actions[-1] if len(game.log) % 2 else actions[0])


def test_rules_travel_with_the_game() -> None:
    r = rules(max_bid=250)
    game = Game.new(rules=r, seed=4)
    assert game.view(0)["rules"]["max_bid"] == 250
    copy = Game.from_json(game.to_json())
    assert copy.view(0)["rules"] == r.to_dict()
