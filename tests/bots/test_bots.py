"""Tests of the bots: legal answers everywhere, decisions from the view alone, determinism,
and the strong bot finding the obvious plays on explicit deals."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
import thousand.bots as bots
from thousand import Game, Rules
from thousand.bots import LEVELS, choose
from thousand.bots.solver import Solver
from thousand.cards import parse_card

# The strong bot's clock is only a safety net (0.9 s by default); the tests that
# compare decisions give it room, so that a busy machine's clock cannot decide
# them and the fixed work does.
UNHURRIED_S = 60.0


@pytest.fixture(autouse=True)
def strict_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    # A bot's own error must fail the test, not hide behind the safe fallback.
    monkeypatch.setattr(bots, "STRICT", True)


def playable_presets() -> list[str]:
    """Every preset the engine plays today; new ones join as they land."""
    names = []
    for name in Rules.presets():
        try:
            Game.new(Rules.preset(name), seed=0)
        except NotImplementedError:
            continue
        names.append(name)
    return names


def random_positions(preset: str, seed: int, count: int) -> Iterator[tuple[Game, dict[str, Any]]]:
    """Positions reached by random legal play: the game and the view of the seat to act."""
    rng = random.Random(seed)
    game = Game.new(Rules.preset(preset), seed=seed)
    made = 0
    while made < count and game.phase != "over":
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        yield game, view
        made += 1
        game.apply(rng.choice(view["legal"]))


@pytest.mark.parametrize("preset", playable_presets())
def test_every_level_answers_legally(preset: str) -> None:
    for seed in range(3):
        for k, (_, view) in enumerate(random_positions(preset, seed, 80)):
            for level in ("random", "easy", "normal"):
                assert choose(view, level, seed=k) in view["legal"]
            if k % 4 == 0:
                # The search bot is slower: every fourth position, with a short budget.
                assert choose(view, "strong", seed=k, budget_s=0.3) in view["legal"]


@pytest.mark.parametrize("preset", playable_presets())
def test_bots_play_whole_hands_legally(preset: str) -> None:
    rules = Rules.preset(preset)
    game = Game.new(rules, seed=11)
    levels = ["strong", "normal", "easy", "random"]
    hands = 0
    while game.phase != "over" and hands < 1:
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        action = choose(view, levels[seat % len(levels)], seed=seat)
        assert action in view["legal"]
        game.apply(action)
        hands = len([r for r in game.sheet if r["result"] != "redeal"])


def test_unknown_level_and_no_turn_are_errors() -> None:
    game = Game.new(seed=1)
    view = game.view(game.current_player)
    with pytest.raises(ValueError, match="unknown bot level"):
        choose(view, "grandmaster")
    idle = next(s for s in range(3) if s != game.current_player)
    with pytest.raises(ValueError, match="no legal action"):
        choose(game.view(idle), "easy")


def test_same_seed_same_decision() -> None:
    for _, view in random_positions("classic", 5, 40):
        for level in LEVELS:
            first = choose(view, level, seed=3, budget_s=UNHURRIED_S)
            assert choose(view, level, seed=3, budget_s=UNHURRIED_S) == first
            assert choose(copy.deepcopy(view), level, seed=3, budget_s=UNHURRIED_S) == first


def test_a_copy_of_the_view_gives_the_same_action() -> None:
    # The view as a network peer would receive it: JSON text, parsed again.
    for _, view in random_positions("classic", 8, 30):
        wire = json.loads(json.dumps(view))
        for level in LEVELS:
            same = choose(wire, level, seed=1, budget_s=UNHURRIED_S)
            assert same == choose(view, level, seed=1, budget_s=UNHURRIED_S)


def _explode(*_: Any, **__: Any) -> Any:
    raise AssertionError("a bot reached into the game state")


def test_the_bot_never_touches_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    positions = list(random_positions("classic", 9, 40))
    expected = {
        (k, level): choose(view, level, seed=2, budget_s=UNHURRIED_S)
        for k, (_, view) in enumerate(positions)
        for level in LEVELS
    }
    for name in ("view", "legal_actions", "copy", "apply", "to_json", "is_legal", "replay"):
        monkeypatch.setattr(Game, name, _explode)
    monkeypatch.setattr(Game, "new", classmethod(_explode))
    monkeypatch.setattr(Game, "from_json", classmethod(_explode))
    for k, (_, view) in enumerate(positions):
        for level in LEVELS:
            assert choose(view, level, seed=2, budget_s=UNHURRIED_S) == expected[k, level]


def _swap_hidden(deal: dict[str, Any], seat: int) -> dict[str, Any]:
    """The same deal with one card swapped between the two seats ``seat`` cannot see."""
    other = copy.deepcopy(deal)
    a, b = [s for s in range(3) if s != seat]
    other["hands"][a][0], other["hands"][b][0] = other["hands"][b][0], other["hands"][a][0]
    return other


def test_hidden_cards_do_not_change_the_decision() -> None:
    # Two deals that differ only in cards seat 2 cannot see give seat 2 the same
    # view, so every bot must answer the same: it cannot be peeking.
    rng = random.Random(4)
    for trial in range(12):
        deck = [c + s for s in "SCDH" for c in "9JQKTA"]
        rng.shuffle(deck)
        deal = {
            "dealer": 0,
            "hands": [deck[0:7], deck[7:14], deck[14:21]],
            "talon": deck[21:],
        }
        one = Game.new(deal=deal, seed=trial)
        two = Game.new(deal=_swap_hidden(deal, 2), seed=trial)
        assert one.current_player == 2
        view_one, view_two = one.view(2), two.view(2)
        assert view_one == view_two
        for level in LEVELS:
            one_says = choose(view_one, level, seed=trial, budget_s=UNHURRIED_S)
            assert one_says == choose(view_two, level, seed=trial, budget_s=UNHURRIED_S)


def test_bots_use_only_the_public_package_interface() -> None:
    # The bot modules import cards and values, nothing of the game state machine.
    import ast
    import inspect

    from thousand.bots import heuristic, knowledge, sampling, solver, strong, value

    for module in (heuristic, knowledge, sampling, solver, strong, value, bots):
        tree = ast.parse(inspect.getsource(module))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = {a.name for a in node.names}
                assert node.module not in ("game", "thousand.game"), module.__name__
                assert "Game" not in names, module.__name__
            elif isinstance(node, ast.Import):
                assert all("game" not in a.name for a in node.names), module.__name__


# --- the strong bot finds the obvious ------------------------------------------------------

# Dealer 0, so seat 1 is first hand and sits on the hundred; seats 2 and 0 pass.
# Seat 1 holds the hearts marriage with the ace and ten; seat 2 holds the two low
# hearts and no diamonds; seat 0 holds clubs and diamonds.
DEAL = {
    "dealer": 0,
    "hands": [
        ["TC", "KC", "QC", "JC", "TD", "KD", "QD"],
        ["AS", "AC", "KH", "QH", "AH", "TH", "AD"],
        ["9H", "JH", "TS", "KS", "QS", "JS", "9S"],
    ],
    "talon": ["9C", "9D", "JD"],
}


def _declared_game(contract: int) -> Game:
    game = Game.new(deal=DEAL, seed=1)
    for action in ("pass", "pass", "give JD 0", "give 9C 2", f"contract {contract}"):
        game.apply(action)
    return game


def _finish(game: Game, levels: dict[int, str]) -> dict[str, Any]:
    hands = len(game.sheet)
    while len(game.sheet) == hands:
        seat = game.current_player
        assert seat is not None
        game.apply(choose(game.view(seat), levels.get(seat, "normal"), seed=0))
    return game.sheet[-1]


def test_strong_declares_the_marriage_that_makes_the_contract() -> None:
    # 200 is out of reach without the hearts marriage (100), and reachable with it.
    game = _declared_game(200)
    row = _finish(game, {1: "strong"})
    assert row["result"] == "made"
    assert row["marriage_points"][1] == 100


def test_strong_draws_trumps_before_cashing_side_aces() -> None:
    game = _declared_game(200)
    for action in ("play AS", "play 9S", "play JC", "play KH declare", "play 9H", "play QD"):
        game.apply(action)
    view = game.view(1)
    # Seat 2 still holds the jack of trumps and no diamond: leading the ace of
    # diamonds now lets it ruff, and 200 is lost. The solver agrees on the truth.
    hands = list(game.hands)
    truth = {
        text: Solver([0, 1, 2], 1).value_after(hands, [], 1, 3, 0b010, parse_card(text), False)
        for text in ("QH", "AH", "TH", "AC", "AD", "9D")
    }
    assert truth["AD"] < truth["AH"]
    choice = choose(view, "strong", seed=0)
    assert choice.split()[1] in {c for c, v in truth.items() if v == max(truth.values())}
    row = _finish(game, {1: "strong"})
    assert row["result"] == "made"


def test_strong_takes_the_last_tricks_holding_the_top_trumps() -> None:
    # Any seed: the answer must not depend on sampling luck.
    for seed in range(4):
        game = _declared_game(200)
        for action in ("play AS", "play 9S", "play JC", "play KH declare", "play 9H", "play QD"):
            game.apply(action)
        while game.phase == "play" and len(game.tricks) < 8:
            seat = game.current_player
            assert seat is not None
            game.apply(choose(game.view(seat), "strong" if seat == 1 else "normal", seed=seed))
        row = game.sheet[-1]
        # Only the nine of diamonds is a loser: seven tricks and the contract.
        assert row["tricks"][1] == 7 and row["result"] == "made"
