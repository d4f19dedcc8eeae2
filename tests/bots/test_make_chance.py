"""The strong level's make-chance model: it loads, it is sensible, and it stays seeded."""

from __future__ import annotations

import random
from dataclasses import replace

from thousand import Game
from thousand.bots import choose
from thousand.bots.decision import DEFAULT_BUDGET
from thousand.bots.declaring import Reach, contract_choice
from thousand.bots.make_chance import (
    defend_value,
    features,
    hand_chance,
    margin,
    model,
    sample_chance,
)
from thousand.bots.strong import choose_strong
from thousand.bots.value import MatchContext


def test_the_model_ships_one_weight_per_input() -> None:
    assert len(model()) == len(features(0))


def test_a_wider_margin_is_a_better_chance() -> None:
    chances = [sample_chance(100 + m, 100) for m in range(-60, 45, 5)]
    assert chances == sorted(chances)
    assert chances[0] < 0.3 < 0.7 < chances[-1]
    # A sample that reaches no probed value is the worst margin there is.
    assert sample_chance(-1, 100) == sample_chance(40, 100) < sample_chance(50, 100)
    assert margin(500, 100) == margin(200, 100)


def test_defending_pays_more_the_better_the_passers_cards() -> None:
    values = [defend_value(c / 10, raised=False) for c in range(11)]
    assert values == sorted(values)
    assert values[0] < 20 < 40 < values[-1]
    # Against a declarer who raised the bid of its own will, defending pays less.
    assert defend_value(0.5, raised=True) < defend_value(0.5, raised=False)
    assert hand_chance([150, -1], 100) == (sample_chance(150, 100) + sample_chance(-1, 100)) / 2


def test_the_calibrated_contract_weighs_chances_not_cut_offs() -> None:
    ctx = MatchContext(seat=0, order=[0, 1, 2], scores=[0, 0, 0], on_barrel=[False] * 3, rules={})
    # Every sample reaches 100 by the width of a hair: counted as sure, against a chance.
    hair = [Reach(100, {1: 0.0, 2: 0.0})] * 12
    _, sure = contract_choice(ctx, 0, hair, [100], 15)
    _, chance = contract_choice(ctx, 0, hair, [100], 15, calibrated=True)
    assert chance < sure
    made = ctx.play_outcome(0, 100, 100.0, {})
    failed = ctx.play_outcome(0, 100, 95.0, {})
    q = sample_chance(100, 100)
    assert abs(chance - (q * made + (1 - q) * failed)) < 1e-9


def _view_at(phase: str, seed: int) -> dict[str, object]:
    game = Game.new(seed=seed)
    view = game.view(game.current_player)
    while view["phase"] != phase:
        game.apply(choose(view, "normal", seed=0))
        view = game.view(game.current_player)
    return view


def test_calibrated_declaring_decides_the_same_by_seed() -> None:
    budget = replace(DEFAULT_BUDGET, make_chance=2, learned_defend=1)
    for phase, seed in (("bidding", 5), ("contract", 2)):
        view = _view_at(phase, seed)
        first = choose_strong(view, random.Random(3), None, budget)
        assert first in view["legal"]  # type: ignore[operator]
        assert choose_strong(view, random.Random(3), None, budget) == first
