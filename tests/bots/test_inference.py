"""Tests of the card-play inference: which sampled deals the cards played make less likely."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial

from thousand import Game
from thousand.bots import choose
from thousand.bots.decision import DEFAULT_BUDGET
from thousand.bots.inference import play_likelihood
from thousand.bots.knowledge import Knowledge, PlayedTrick, read_view
from thousand.bots.sampling import Deal, sample_deals
from thousand.bots.strong import choose_strong
from thousand.cards import mask_of, parse_card


def _knowledge(tricks: list[list[tuple[int, str]]]) -> Knowledge:
    """Seat 2's knowledge after ``tricks`` (no trump), seat 0 declaring."""
    history = [PlayedTrick([(s, parse_card(c)) for s, c in t], None, False) for t in tricks]
    played = mask_of([c for t in tricks for _, c in t])
    return Knowledge(
        seat=2,
        players=3,
        phase="play",
        turn=0,
        hand=0,
        sizes=[7, 7, 7],
        declarer=0,
        bid=100,
        contract=100,
        trump=None,
        trick=[],
        leader=0,
        played=played,
        history=history,
    )


def _deal(seat0: list[str], seat1: list[str]) -> Deal:
    return Deal([mask_of(seat0), mask_of(seat1), 0], 0)


def test_a_losing_card_above_a_cheaper_loser_makes_the_deal_less_likely() -> None:
    # Seat 0 leads the ace of spades; seat 1 follows with the king, which loses.
    k = _knowledge([[(0, "AS"), (1, "KS"), (2, "9S")]])
    cheaper = _deal(["AC"], ["JS"])  # seat 1 held the jack and gave the king instead
    no_cheaper = _deal(["AC"], ["TS"])  # the ten is dearer than the king
    assert play_likelihood(k, cheaper, 0.3, 1.0) == 0.3
    assert play_likelihood(k, no_cheaper, 0.3, 1.0) == 1.0
    # Off, and for this seat's own cards (seat 2 played its nine): no evidence.
    assert play_likelihood(k, cheaper, 1.0, 1.0) == 1.0


def test_a_card_that_takes_the_trick_says_nothing_of_cheaper_cards() -> None:
    k = _knowledge([[(0, "9S"), (1, "KS"), (2, "QS")]])
    assert play_likelihood(k, _deal(["AC"], ["JS"]), 0.3, 1.0) == 1.0


def test_a_low_lead_beside_a_master_makes_the_deal_less_likely() -> None:
    k = _knowledge([[(0, "9C"), (1, "JC"), (2, "AC")]])
    with_master = _deal(["AD", "KD"], ["TD"])
    without = _deal(["KD", "QD"], ["AD"])  # the ace of diamonds is out: no master
    assert play_likelihood(k, with_master, 1.0, 0.6) == 0.6
    assert play_likelihood(k, without, 1.0, 0.6) == 1.0
    # A lead that declares a marriage is not weighed.
    declared = _knowledge([])
    declared.history = [PlayedTrick(k.history[0].cards, None, True)]
    assert play_likelihood(declared, with_master, 1.0, 0.6) == 1.0


def _midgame(seed: int) -> tuple[Game, dict[str, object]]:
    game = Game.new(seed=f"inference/{seed}")
    for _ in range(300):
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        if view["phase"] == "play" and len(view.get("tricks") or []) >= 3 and not view["trick"]:
            return game, view
        game.apply(choose(view, level="normal", seed=seed))
    raise AssertionError("no hand reached its fourth trick")


def test_the_view_reader_records_the_tricks_and_sampling_follows_the_evidence() -> None:
    for seed in range(40):
        try:
            game, view = _midgame(seed)
        except AssertionError:
            continue
        k = read_view(view)
        assert [len(t.cards) for t in k.history] == [3, 3, 3]
        assert [c for t in k.history for _, c in t.cards] == [
            parse_card(c) for t in view["tricks"] for _, c in t["cards"]
        ]
        rules = game.rules.to_dict()
        plain = sample_deals(k, 60, random.Random(0), rules)
        weights = [play_likelihood(k, d, 0.2, 0.5) for d in plain]
        if min(weights) == 1.0:
            continue  # nothing played here says anything; try another hand
        weighed = sample_deals(
            k,
            60,
            random.Random(0),
            rules,
            likelihood=partial(play_likelihood, k, follow=0.2, lead=0.5),
        )
        after = [play_likelihood(k, d, 0.2, 0.5) for d in weighed]
        # The resampled deals are, on average, more likely than plain ones.
        assert sum(after) / len(after) > sum(weights) / len(weights)
        return
    raise AssertionError("no hand gave any card-play evidence")


def test_strong_with_inference_plays_a_legal_card_deterministically() -> None:
    budget = replace(DEFAULT_BUDGET, infer_follow=0.3, infer_lead=0.6, play_samples=6)
    _, view = _midgame(1)
    legal = view["legal"]
    assert isinstance(legal, list)
    picks = {choose_strong(view, random.Random(5), None, budget) for _ in range(2)}
    assert len(picks) == 1 and picks <= set(legal)
