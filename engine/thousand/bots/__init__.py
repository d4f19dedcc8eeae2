"""Computer opponents: one entry point, :func:`choose`, deciding from a seat's view.

This package owns the bots. A bot sees exactly what a player at that seat
sees — the dict ``Game.view(seat)`` — and answers with one of the view's
legal actions in text form. Levels:

- ``random``: a uniformly random legal action (for tests);
- ``easy``: rules of thumb on its own hand;
- ``normal``: better rules of thumb plus card counting (cards out, voids,
  masters, the partner's trick);
- ``strong``: sampling of the hidden cards consistent with the view
  (determinization) and perfect-information alpha-beta search on each
  sample, choosing by expected match value.

Every level is deterministic for a given seed and view. ``budget_s`` only
caps the wall-clock time of ``strong`` as a safety net; by default its work
is a fixed number of samples and search nodes.

>>> from thousand import Game
>>> g = Game.new(seed=3)
>>> choose(g.view(g.current_player), level="easy") in g.view(g.current_player)["legal"]
True
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

LEVELS = ("random", "easy", "normal", "strong")

STRICT = False
"""Tests set this to let a bot's own errors surface instead of falling back."""

DEFAULT_BUDGET_S = 0.9
"""Wall-clock safety net for ``strong`` when no budget is given (seconds)."""


def _rng(view: dict[str, Any], level: str, seed: int) -> random.Random:
    # Mix the seed with the position so one seed still varies between decisions;
    # hashlib (not hash()) keeps it identical across processes and platforms.
    key = json.dumps(
        [
            seed,
            level,
            view.get("seat"),
            view.get("hand_no"),
            view.get("phase"),
            view.get("hand"),
            view.get("bids"),
            view.get("given"),
            view.get("trick"),
            len(view.get("tricks") or []),
        ],
        sort_keys=True,
        default=str,
    )
    digest = hashlib.sha256(key.encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def choose(
    view: dict[str, Any], level: str = "strong", seed: int = 0, budget_s: float | None = None
) -> str:
    """The action ``level`` picks for the seat of ``view``, as text from ``view["legal"]``."""
    legal: list[str] = list(view.get("legal") or [])
    if not legal:
        raise ValueError("the view has no legal action: it is not this seat's turn")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; levels are {', '.join(LEVELS)}")
    # The levels' modules are imported on the first decision, not with the package:
    # the page reads LEVELS before its first deal, and the search is large to import.
    from .heuristic import _fallback, choose_heuristic
    from .strong import choose_strong

    rng = _rng(view, level, seed)
    if level == "random" or len(legal) == 1:
        return legal[rng.randrange(len(legal))]
    try:
        if level == "strong":
            action = choose_strong(view, rng, DEFAULT_BUDGET_S if budget_s is None else budget_s)
        else:
            action = choose_heuristic(view, level, rng)
    except (KeyError, ValueError, IndexError, TypeError, AssertionError):
        # A view from a rule set the bot does not understand yet: stay legal.
        if STRICT:
            raise
        action = _fallback(legal)
    return action if action in legal else _fallback(legal)


__all__ = ["LEVELS", "choose"]
