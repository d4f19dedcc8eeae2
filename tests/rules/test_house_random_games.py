"""Random legal games under every preset and table size.

See house_coverage.py for how each test registers what it covers.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from house_helpers import (
    DECK,
    check_views,
    highest_play,
    points,
    texts,
)
from thousand import Game, IllegalAction, Rules

# --- random legal games under every preset and table size ----------------------------------

RARE = ("writeoff", "cross", "bomb", "redeal", "decline")
# Everything switched on that changes the flow of a hand, to walk unusual paths.
EVERYTHING = {
    "dark": True,
    "dark_undarken": True,
    "dark_write_off": True,
    "golden": True,
    "golden_raise": True,
    "golden_repeat": True,
    "cross": True,
    "bomb": 2,
    "ace_marriage": True,
    "ace_marriage_trump": "last_ace",
    "marriage_first_lead": True,
    "marriage_needs_capture": True,
    "no_lead_foreign_trump": True,
    "must_beat": True,
    "pass_face_down": True,
    "redeal_three_nines_talon": True,
    "redeal_three_jacks_talon": True,
    "redeal_four_jacks": True,
    "redeal_penalty_dealer": True,
    "four_nines_bonus": True,
    "write_off_on_barrel": True,
    "samosval": True,
    "samosval_negative": True,
    "reverse_barrel": True,
    "intermediate_barrel_380": True,
    "two_player_second_talon": "last_trick",
    "two_player_talon_choice": "seen",
    "talon_half_marriage": True,
    "bolt_rule": "zero_points",
    "bolt_mode": "consecutive",
}

CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    **{name: (name, {}) for name in Rules.presets()},
    **{f"{n}p": ("classic", {"players": n}) for n in (2, 3, 4)},
    **{f"{n}p-everything": ("classic", {**EVERYTHING, "players": n}) for n in (2, 3, 4)},
    "polish-4p-golden": ("polish", {"players": 4, "golden": True}),
    "strict-2p-dark-lock": ("strict", {"players": 2, "dark": True, "lock_at": 800}),
}
ILLEGAL_PROBES = [
    *(f"play {c}" for c in DECK),
    "bid 300",
    "bid 101",
    "pass",
    "redeal",
    "decline",
    "dark",
    "look",
    "take 0",
    "take 2",
    "discard AS",
    "give AS 0",
    "give 9H 5",
    "contract 120",
    "contract 999",
    "writeoff",
    "cross",
    "bomb",
]


def random_action(g: Game, rng: random.Random) -> str:
    """A random legal action, leaning towards what players do, so some contracts are made."""
    options = [str(a) for a in g.legal_actions()]
    common = [a for a in options if a not in RARE]
    if common and (rng.random() < 0.9 or len(common) == len(options)):
        options = common
    bids = [a for a in options if a.startswith("bid ")]
    if bids:
        if rng.random() < 0.6 and "pass" in options:
            return "pass"
        return rng.choice(bids[:4])  # mostly modest raises
    contracts_ = [a for a in options if a.startswith("contract ")]
    if contracts_ and rng.random() < 0.8:
        return contracts_[0]
    declares = [a for a in options if a.endswith("declare")]
    if declares and rng.random() < 0.7:
        return rng.choice(declares)
    if options[0].startswith("play ") and rng.random() < 0.6:
        return highest_play(options)
    return rng.choice(options)


def check_hand_row(g: Game, row: dict[str, Any], before: Game) -> None:
    n = g.players
    assert len(row["deltas"]) == len(row["scores"]) == len(row["marks"]) == n
    if row["result"] not in ("made", "failed"):
        return
    total = sum(row["card_points"])
    if n == 2 and g.rules.two_player_second_talon == "dead":
        chosen = before.talon
        dead = before.talons[0] if chosen == before.talons[1] else before.talons[1]
        assert total == 120 - points(texts(dead))
    else:
        assert total == 120
    assert sum(row["tricks"]) == (10 if n == 2 else 8)
    d = row["declarer"]
    assert row["totals"][d] == row["card_points"][d] + row["marriage_points"][d]
    if not (row["dark"] or row["golden"]) and set(row["marks"][d]) <= {"bolt"}:
        assert row["deltas"][d] == (
            row["contract"] if row["result"] == "made" else -row["contract"]
        )
    if n == 4:
        sitter = row["dealer"]
        assert row["tricks"][sitter] == 0 and row["card_points"][sitter] == 0
        was = before.view(None)
        lock = g.rules.lock_at
        if not (
            was["barrel"][sitter]["on"]
            or was["barrel"][sitter].get("at_380")
            or (lock is not None and was["scores"][sitter] >= lock)
        ):
            assert "talon" in row["marks"][sitter]


# Scores near the barrel, the Polish lock, 380, samosval and the reverse barrel.
START_SCORES = (0, 0, 300, 360, 435, 540, 760, 790, 800, 860, 880, -435, -770, -880)


def play_random_game(
    rules_: Rules, seed: int, rng: random.Random, max_hands: int, max_actions: int = 400
) -> Game:
    n = rules_.players
    scores = None
    if rng.random() < 0.5:
        scores = [rng.choice(START_SCORES) for _ in range(n)]
    g = Game.new(rules=rules_, seed=seed, scores=scores)
    for _ in range(max_actions):
        if g.phase == "over" or len(g.sheet) >= max_hands:
            break
        if rng.random() < 0.5:  # views cost the most; half the moments are plenty
            check_views(g)
        if rng.random() < 0.05:
            saved = g.to_json()
            back = Game.from_json(saved)
            assert back == g and back.rules == g.rules
            assert all(back.view(s) == g.view(s) for s in [None, *range(n)])
            if rng.random() < 0.5:
                g = back
        if rng.random() < 0.05:
            legal_now = {str(a) for a in g.legal_actions()}
            probe = rng.choice([p for p in ILLEGAL_PROBES if p not in legal_now])
            saved = g.to_json()
            with pytest.raises(IllegalAction):
                g.apply(probe)
            assert g.to_json() == saved
        action = random_action(g, rng)
        assert g.is_legal(action)
        rows = len(g.sheet)
        before = g.copy()
        g.apply(action)
        assert g.log[-1] == action
        if len(g.sheet) > rows:
            for row in g.sheet[rows:]:
                check_hand_row(g, row, before)
    if g.phase == "over":
        assert g.winner is not None and g.current_player is None and g.legal_actions() == []
    # The log alone, with the rules, seed and deals, rebuilds the game.
    assert Game.from_json(g.to_json()) == g
    return g


@pytest.mark.parametrize("config", list(CONFIGS))
def test_random_games(config):
    preset, options = CONFIGS[config]
    rules_ = Rules.preset(preset).replace(**options)
    rng = random.Random(f"{preset}/{sorted(options.items())}")
    for k in range(6):
        play_random_game(rules_, seed=k, rng=rng, max_hands=5)
