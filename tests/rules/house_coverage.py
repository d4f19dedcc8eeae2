"""The registry of which house-rule option values have a behaviour test.

Every house rule of RULES.md §12 is tested from an explicit deal that
compares an option value with the default, so a test fails if the engine
ignores the option. The tests live in the ``test_house_*`` modules, one per
part of §12, and register what they cover with ``@covers(option, values…)``.
``missing_values()`` walks ``Rules.options()`` and names any option or listed
value that no module of the family tests; it imports the whole family first,
so the answer is the same whichever of them pytest was asked to run.

Seats in the 3-player deals: dealer 0, first hand 1 (sits on 100), bidding
opens with seat 2. Where the lead's reading of an ambiguous rule is tested,
the test's docstring says so.
"""

from __future__ import annotations

import importlib
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from thousand import Rules

COVERED: dict[str, set[tuple[str, Any]]] = defaultdict(set)
COVERED_BY: dict[str, set[str]] = defaultdict(set)


def _key(value: Any) -> tuple[str, Any]:
    # True == 1 for a set, so the type is part of the key.
    return type(value).__name__, value


def covers(option: str, *values: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Record that the decorated test shows ``option`` behaving as RULES.md says for ``values``."""

    def mark(test: Callable[..., Any]) -> Callable[..., Any]:
        for value in values:
            COVERED[option].add(_key(value))
        COVERED_BY[option].add(test.__name__)
        return test

    return mark


# The values RULES.md §12 lists for the options that take a free number.
FREE_VALUES: dict[str, tuple[Any, ...]] = {
    "max_bid": (300, 200),
    "silence_below": (None, -120, 0),
    "penalty": (120, 100),
    "write_off_limit": (None, 2, 3),
    "redeal_talon_below": (5, None, 4, 15),
    "redeal_hand_below": (13, None, 14, 15),
    "barrel_attempts": (3, 2),
    "bomb": (0, 1, 2),
    "lock_at": (None, 800),
    "dark_min_score": (None, 240),
}


def required_values(option: dict[str, Any]) -> list[Any]:
    if option["kind"] == "bool":
        return [False, True]
    if option["choices"]:
        return list(option["choices"]) + ([None] if option["optional"] else [])
    return list(FREE_VALUES[option["id"]])


def missing_values() -> list[str]:
    """Every option value of ``Rules.options()`` that no ``test_house_*`` module covers."""
    for path in sorted(Path(__file__).parent.glob("test_house_*.py")):
        importlib.import_module(path.stem)  # the module pytest loaded, or a first import
    missing = []
    for o in Rules.options():
        if o["kind"] == "int" and o["id"] not in FREE_VALUES:
            missing.append(f"{o['id']}: add its RULES.md values to FREE_VALUES and test them")
            continue
        for value in required_values(o):
            if _key(value) not in COVERED[o["id"]]:
                missing.append(f"{o['id']}={value!r}")
    return missing
