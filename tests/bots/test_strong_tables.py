"""The strong bot searches at every table size and preset: two, three and four players,
the talon choice and the discards of two players, and the match value behind it."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
import thousand.bots as bots
from thousand import Game, Rules
from thousand.bots import choose, declaring, strong
from thousand.bots.decision import DEFAULT_BUDGET
from thousand.bots.knowledge import read_view
from thousand.bots.sampling import sample_deals
from thousand.bots.value import MatchContext
from thousand.cards import mask_of

SEARCHED = ("bidding", "choose", "talon", "contract")
"""Phases the search decides by itself, never asking the counting heuristic."""

TABLES = [
    ("classic", {}),
    ("strict", {}),
    ("mobile_app", {}),
    ("polish", {}),
    ("two_players", {}),
    ("two_players", {"two_player_talon_choice": "seen", "two_player_second_talon": "last_trick"}),
    ("four_players", {}),
]


@pytest.fixture(autouse=True)
def strict_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "STRICT", True)


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the phase of every decision handed to the counting heuristic."""
    asked: list[str] = []
    real = strong.choose_heuristic

    def heuristic(view: dict[str, Any], level: str, rng: random.Random) -> str:
        asked.append(str(view.get("phase")))
        return real(view, level, rng)

    monkeypatch.setattr(strong, "choose_heuristic", heuristic)
    monkeypatch.setattr(declaring, "choose_heuristic", heuristic)
    return asked


@pytest.mark.parametrize(("preset", "changes"), TABLES)
def test_strong_searches_every_declaring_phase(
    preset: str, changes: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = _spy(monkeypatch)
    rules = Rules.preset(preset).replace(**changes)
    seen: set[str] = set()
    want = {"bidding", "talon", "contract", "play"}
    if rules.golden:
        want.discard("bidding")  # the first hand is the golden round: no bidding
    if changes.get("two_player_talon_choice") == "seen":
        want.add("choose")
    for seed in range(6):
        if seed >= 2 and want <= seen:
            break
        game = Game.new(rules, seed=seed)
        while game.phase != "over" and not [r for r in game.sheet if r["result"] != "redeal"]:
            seat = game.current_player
            assert seat is not None
            view = game.view(seat)
            # A long wall-clock budget: only the fixed node budget bounds the work, so a
            # busy machine cannot cut a search short and hand the decision on.
            action = choose(view, "strong", seed=seed, budget_s=60.0)
            assert action in view["legal"]
            if len(view["legal"]) > 1:
                seen.add(view["phase"])
            game.apply(action)
    assert want <= seen
    assert not [p for p in asked if p in SEARCHED], asked


def test_a_role_named_in_heuristic_in_is_handed_to_the_counting_heuristic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked = _spy(monkeypatch)
    budget = replace(DEFAULT_BUDGET, heuristic_in="bid+play_defender")
    game = Game.new(Rules.preset("classic"), seed=3)
    roles: list[tuple[str, bool]] = []
    while not [r for r in game.sheet if r["result"] != "redeal"]:
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        before = len(asked)
        action = strong.choose_strong(view, random.Random(seat), 60.0, budget)
        assert action in view["legal"]
        if len(view["legal"]) > 1 and view["phase"] in ("bidding", "play"):
            role = strong._role(view["phase"], read_view(view))
            roles.append((role, len(asked) > before))
        game.apply(action)
    # Bidding and the defence ask the heuristic at once; the declarer's play searches
    # (its near-ties still consult the heuristic's card, so only the others are checked).
    assert {r for r, _ in roles} >= {"bid", "play_declarer", "play_defender"}
    assert all(handed for role, handed in roles if role in ("bid", "play_defender"))


def _declarer_at_contract(preset: str, seed: int | str, bot_seed: int) -> dict[str, Any]:
    """The declarer's view when it names the contract, the normal level playing until then."""
    game = Game.new(Rules.preset(preset), seed=seed)
    while game.phase != "contract":
        seat = game.current_player
        assert seat is not None
        game.apply(choose(game.view(seat), "normal", seed=bot_seed))
    d = game.current_player
    assert d is not None
    return game.view(d)


def test_two_player_declarer_knows_its_discards() -> None:
    view = _declarer_at_contract("two_players", 5, 1)
    d = view["seat"]
    k = read_view(view)
    discards = mask_of(view["discarded"])
    assert k.laid_away == discards and discards.bit_count() == 2
    assert not k.pool & discards
    for deal in sample_deals(k, 20, random.Random(0), view["rules"]):
        other = 1 - d
        assert not deal.hands[other] & discards
        assert deal.hands[other].bit_count() == 10


def test_discard_plans_keep_marriages_and_bank_points() -> None:
    hand = mask_of(["KH", "QH", "AH", "TH", "AS", "9C", "JC", "9D", "JD", "QS", "TD", "KD"])
    plans = declaring.lay_away_plans(hand, [declaring.LAID_AWAY] * 2, 6, 2)
    assert len(plans) == 6
    for plan in plans:
        assert len(plan) == 2 and all(to == declaring.LAID_AWAY for _, to in plan)
        laid = {c for c, _ in plan}
        assert not laid & {int(x) for x in (mask_of(["KH"]).bit_length() - 1,)}
    hands = declaring.declarer_hands([hand, 0], 0, plans[0])
    assert hands[0].bit_count() == 10 and hands[1] == 0


def _ctx(**fields: Any) -> MatchContext:
    base: dict[str, Any] = {
        "seat": 0,
        "order": [0, 1, 2],
        "scores": [0, 0, 0],
        "on_barrel": [False] * 3,
        "rules": {},
    }
    base.update(fields)
    return MatchContext(**base)


def test_match_value_counts_barrel_attempts_write_offs_and_marriages() -> None:
    # A defender on its last barrel hand falls whatever the declarer does.
    last = _ctx(
        seat=1, scores=[300, 880, 300], on_barrel=[False, True, False], barrel_hands=[0, 2, 0]
    )
    first = _ctx(
        seat=1, scores=[300, 880, 300], on_barrel=[False, True, False], barrel_hands=[0, 0, 0]
    )
    assert last.play_outcome(0, 100, 110) < first.play_outcome(0, 100, 110) - 100
    # The third write-off costs the penalty on top of the bid.
    strict = {"write_off_third_penalty": True, "penalty": 120}
    third = _ctx(rules=strict, write_offs=[2, 0, 0])
    once = _ctx(rules=strict, write_offs=[0, 0, 0])
    assert third.write_off_outcome(0, 100) == once.write_off_outcome(0, 100) - 120
    # Playing out a failing hand against a defender's marriage can be worse than writing off.
    ctx = _ctx()
    bare = ctx.play_outcome(0, 120, 80)
    against = ctx.play_outcome(0, 120, 80, {1: 100.0, 2: 0.0})
    assert bare > ctx.write_off_outcome(0, 120) > against


def test_a_hand_that_takes_everything_names_a_high_contract() -> None:
    # Four aces and the hearts marriage with its ace and ten after the talon: the
    # declarer takes every trick, 220 points, from a bid of 100.
    view = _declarer_at_contract("classic", "dup/60", 60)
    assert {"AS", "AC", "AD", "AH", "TH", "KH", "QH"} <= set(view["hand"])
    action = strong.choose_strong(view, random.Random(60), 60.0)
    assert action.startswith("contract ")
    assert int(action.split()[1]) >= 180
