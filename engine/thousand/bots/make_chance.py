"""The chance that a declarer makes its contract, given what one sampled deal reaches.

This module owns the strong level's calibration of its declaring samples. A
sample's shaded double-dummy result (:func:`.declaring.first_lead_reach`)
says only whether a declarer who saw every card would reach a value; the
real declarer guesses, and the real defenders err. A small logistic model,
fitted on hands the strong level declared and played out against the
normal level, turns a sample's margin over the contract — the highest
value it reaches minus the contract — into the chance of making it; a
linear fit on the hands it passed gives the match value of defending
instead, by that chance. Their coefficients are data in the package
(``make_chance.json``), written by ``bench/train_make_chance.py``;
inference is pure Python.
"""

from __future__ import annotations

import json
import math
from importlib import resources
from typing import Any

LOWEST_MARGIN = -60
"""Margins below this (and a sample that reaches no probed value) count as this."""
HIGHEST_MARGIN = 40


def margin(reached: int, contract: int) -> int:
    """A sample's margin over ``contract``: what it reaches minus the contract, clipped."""
    if reached < 0:
        return LOWEST_MARGIN
    return max(LOWEST_MARGIN, min(HIGHEST_MARGIN, reached - contract))


def features(m: int) -> list[float]:
    """The model's inputs for one sample's margin: a bias, the margin, whether it reaches.

    The contract's own value is no input: the training hands name a high
    contract only when nearly every sample reaches it, so its weight would
    learn that selection, not the play.
    """
    return [1.0, m / 10.0, 1.0 if m >= 0 else 0.0]


# Read when the module is imported, not on first use: a page restored from a memory
# snapshot has every module in memory but none of the package's files.
_DATA: dict[str, Any] = json.loads(
    resources.files(__package__).joinpath("make_chance.json").read_text()
)


def _data() -> dict[str, Any]:
    return _DATA


def model() -> tuple[float, ...]:
    """The fitted weights, one per input of :func:`features`."""
    return tuple(float(w) for w in _data()["weights"])


def defend_inputs(chance: float, raised: bool) -> list[float]:
    """The defence model's inputs: a bias, the hand's chance at the next bid, a raised bid."""
    return [1.0, chance, 1.0 if raised else 0.0]


def defend_value(chance: float, raised: bool) -> float:
    """The match value of passing, for a hand with ``chance`` of making the next bid.

    A least-squares fit of the match points the strong level scored in the
    hands it passed: defending pays more the better the passer's own cards
    (the declarer fails more often), and less against a declarer who raised
    the bid of its own will (``raised``) than against the obligatory one.
    """
    w = [float(x) for x in _data()["defend"]]
    return sum(a * b for a, b in zip(w, defend_inputs(chance, raised), strict=True))


def hand_chance(reached: list[int], contract: int) -> float:
    """The chance of making ``contract``: the mean of the samples' chances."""
    return sum(sample_chance(r, contract) for r in reached) / max(1, len(reached))


def sample_chance(reached: int, contract: int, weights: tuple[float, ...] | None = None) -> float:
    """The chance of making ``contract`` in a sample that reaches ``reached`` (``-1``: none)."""
    w = model() if weights is None else weights
    z = sum(a * b for a, b in zip(w, features(margin(reached, contract)), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


__all__ = [
    "defend_inputs",
    "defend_value",
    "features",
    "hand_chance",
    "margin",
    "model",
    "sample_chance",
]
