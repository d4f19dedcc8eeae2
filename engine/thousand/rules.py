"""The house rules (договорённости) of Thousand as one frozen value.

This module owns ``Rules``, the frozen set of option values of one game,
and the named presets of RULES.md §12.8; the options themselves (ids,
defaults, allowed values, descriptions) are catalogued in
:mod:`thousand.options`. ``Rules`` is immutable and travels with a game
(inside its JSON and its views), so every seat of a network game plays the
same rules. The settings screen is generated from :func:`Rules.options`, so
the UI text and the engine cannot disagree.

>>> r = Rules.preset("classic").replace(samosval=True)
>>> r.samosval, Rules.from_dict(r.to_dict()) == r
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .options import GROUPS, OPTIONS, OPTIONS_BY_ID

# Values the engine does not play yet; Game.new refuses them with NotImplementedError.
_UNSUPPORTED: dict[str, tuple[Any, ...]] = {}


def _check_all(values: Mapping[str, Any]) -> dict[str, Any]:
    checked = {}
    for key, value in values.items():
        option = OPTIONS_BY_ID.get(key)
        if option is None:
            raise ValueError(f"unknown rule option {key!r}")
        checked[key] = option.check(value)
    return checked


@dataclass(frozen=True)
class Rules:
    """Every house rule of one game; build it with :meth:`preset` and :meth:`replace`."""

    values: tuple[tuple[str, Any], ...] = field(
        default_factory=lambda: tuple((o.id, o.default) for o in OPTIONS)
    )

    def __post_init__(self) -> None:
        # Options become plain attributes: the engine reads them on every action.
        object.__setattr__(self, "_by_id", dict(self.values))
        for key, value in self.values:
            object.__setattr__(self, key, value)

    def __getattr__(self, name: str) -> Any:
        by_id = self.__dict__.get("_by_id")
        if by_id is not None and name in by_id:
            return by_id[name]
        raise AttributeError(f"no rule option {name!r}")

    def __getitem__(self, name: str) -> Any:
        return self._by_id[name]

    @classmethod
    def preset(cls, name: str = "classic") -> Rules:
        """One of the named presets of RULES.md §12.8."""
        try:
            changes = PRESETS[name]
        except KeyError:
            raise ValueError(f"unknown preset {name!r}; presets are {', '.join(PRESETS)}") from None
        return cls().replace(**changes)

    def replace(self, **options: Any) -> Rules:
        """A copy with some options changed; an unknown id or a bad value is a ValueError."""
        checked = _check_all(options)
        by_id = dict(self._by_id)
        by_id.update(checked)
        return Rules(tuple((o.id, by_id[o.id]) for o in OPTIONS))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a dict of option ids; missing options keep their defaults."""
        if not isinstance(data, Mapping):
            raise ValueError(f"rules must be a dict of options, not {type(data).__name__}")
        return cls().replace(**dict(data))

    def to_dict(self) -> dict[str, Any]:
        return dict(self.values)

    def changed(self) -> dict[str, Any]:
        """The options that differ from their defaults."""
        return {o.id: self._by_id[o.id] for o in OPTIONS if self._by_id[o.id] != o.default}

    def unsupported(self) -> list[str]:
        """Options set to a value the engine does not play yet."""
        out = []
        for key, value in self.changed().items():
            if key in _UNSUPPORTED and value in _UNSUPPORTED[key]:
                out.append(key)
        return out

    @staticmethod
    def options() -> list[dict[str, Any]]:
        """Every option with its group, values and descriptions, for a settings screen."""
        return [o.describe() for o in OPTIONS]

    @staticmethod
    def groups() -> dict[str, tuple[str, str]]:
        return dict(GROUPS)

    @staticmethod
    def presets() -> list[str]:
        return list(PRESETS)

    def __repr__(self) -> str:
        changed = ", ".join(f"{k}={v!r}" for k, v in self.changed().items())
        return f"Rules({changed})"


PRESETS: dict[str, dict[str, Any]] = {
    "classic": {},
    "strict": {
        "barrel_min_bid": 121,
        "write_off_limit": 3,
        "write_off_third_penalty": True,
        "samosval": True,
        "silence_below": -120,
    },
    "mobile_app": {
        "ace_marriage": True,
        "redeal_hand_below": 14,
        "write_off_limit": 3,
        "write_off_third_penalty": True,
        "samosval": True,
        "golden": True,
        "dark": True,
    },
    "two_players": {"players": 2},
    "four_players": {"players": 4},
    "polish": {
        "bid_step": 10,
        "must_beat": True,
        "rounding": "nearest10",
        "lock_at": 800,
        "barrel_at": None,
        "bomb": 1,
        "dealer_score": "aces_50",
    },
}
