"""Readings of the rules where the sources disagree or are terse, pinned down.

Each test names the source text behind the choice, so a later change of mind
is a deliberate one.
"""

from __future__ import annotations

import random

from house_helpers import new_game, rules
from thousand import Game


def test_four_nines_bonus_is_a_flat_120_whatever_the_penalty() -> None:
    # Seed 004: «получает 120 очков … если после сноса на руках остаются четыре девятки».
    g = new_game(
        [None, "9S 9C 9D 9H AS AC TD", None],
        None,
        four_nines_bonus=True,
        penalty=200,
        redeal_four_nines=False,
        redeal_four_nines_after_pass=False,
    )
    g.apply("pass")
    g.apply("pass")
    g.apply("give AS 2")
    g.apply("give AC 0")
    g.apply("writeoff")
    row = g.sheet[-1]
    assert row["result"] == "writeoff"
    assert "four_nines" in row["marks"][1]
    assert row["deltas"][1] == -100 + 120


def test_no_dark_play_with_two_players() -> None:
    # Seed 002: dark play is a game of three or four.
    for seed in range(5):
        g = Game.new(rules=rules(players=2, dark=True), seed=seed)
        assert g.phase == "bidding"
    g = Game.new(rules=rules(dark=True), seed=0)
    assert g.phase == "dark"


def test_golden_round_lasts_one_hand_per_active_player() -> None:
    # RULES.md §9.2: N is the number of active players, three at a table of four.
    g = Game.new(rules=rules(players=4, golden=True, golden_raise=False), seed=4)
    rng = random.Random(4)
    golden_hands = []
    while g.hand_no < 5:
        before = g.hand_no
        g.apply(rng.choice(g.legal_actions()))
        if g.hand_no != before and g.sheet[-1]["result"] != "redeal":
            golden_hands.append(g.sheet[-1]["golden"])
    assert golden_hands[:4] == [True, True, True, False]


def test_fall_minus_contract_costs_the_fallers_own_last_bid() -> None:
    # Seed 002: a fall from the barrel costs «последнюю ставку» of that player.
    g = new_game(
        [None, None, None],
        None,
        scores=[880, 0, 0],
        barrel_fall_to="minus_contract",
        barrel_attempts=1,
    )
    g.apply("bid 105")  # seat 2 bids; seat 0, on the barrel, never bids
    g.apply("pass")
    g.apply("pass")
    rng = random.Random(0)
    while g.hand_no == 0:
        g.apply(rng.choice(g.legal_actions()))
    row = g.sheet[-1]
    assert "fall" in row["marks"][0]
    assert row["scores"][0] == 880 - 120  # no bid of its own: the penalty
