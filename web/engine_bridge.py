"""Engine bridge: the Python end of the page's ``engine.call(method, ...args)``.

This module owns the one game the page is playing and the table of methods
the page may call. It runs inside Pyodide in the engine worker; arguments
and results cross as JSON text, so nothing but plain data leaves Python.
It holds no rules: every method is a thin call into the ``thousand``
package, and an error the engine raises (``IllegalAction`` above all)
comes back to the page as ``{"error": {"type", "message"}}``, which
engine.js turns into a rejected promise with that name.

To add a call for the UI, add a function decorated with ``@method``.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from typing import Any

import thousand
from thousand import Game, Rules

METHODS: dict[str, Callable[..., Any]] = {}
_game: Game | None = None


def method(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Make fn callable from the page under its own name (a trailing ``_`` dropped)."""
    METHODS[fn.__name__.rstrip("_")] = fn
    return fn


def _current() -> Game:
    if _game is None:
        raise LookupError("no game yet: call new first")
    return _game


def _rules(options: dict[str, Any]) -> Rules | None:
    if options.get("rules") is not None:
        return Rules.from_dict(options["rules"])
    if options.get("preset") is not None:
        return Rules.preset(options["preset"])
    return None


@method
def new(options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Start a game: ``{"seed": int, "preset": name}`` or ``{"rules": {...}}``."""
    global _game
    options = options or {}
    _game = Game.new(rules=_rules(options), seed=int(options.get("seed", 0)))
    return {"current_player": _game.current_player}


@method
def view(seat: int) -> Any:
    """What one seat may see, with the actions it may take now."""
    return _current().view(seat)


@method
def apply(action: str) -> dict[str, Any]:
    """Apply one action of the player to move; ``IllegalAction`` if it is not legal."""
    game = _current()
    game.apply(action)
    return {"current_player": game.current_player}


@method
def legal() -> list[str]:
    """The legal actions of the player to move, as text."""
    return [str(a) for a in _current().legal_actions()]


@method
def save() -> str:
    return _current().to_json()


@method
def load(text: str) -> dict[str, Any]:
    global _game
    _game = Game.from_json(text)
    return {"current_player": _game.current_player}


@method
def presets() -> list[str]:
    return list(Rules.presets())


def info() -> str:
    """What the worker reports when it is ready: engine version and the methods."""
    return json.dumps(
        {"engine": getattr(thousand, "__version__", None), "methods": sorted(METHODS)}
    )


def call(name: str, args_json: str) -> str:
    """Run one method; the reply is ``{"ok": result}`` or ``{"error": {...}}`` as JSON."""
    try:
        fn = METHODS.get(name)
        if fn is None:
            raise LookupError(f"no engine method {name!r}; there are {', '.join(sorted(METHODS))}")
        return json.dumps({"ok": fn(*json.loads(args_json))})
    except Exception as e:
        # A bug in the engine shows its traceback in the console; an error the
        # player can cause (a ValueError such as IllegalAction) needs none.
        if not isinstance(e, (ValueError, LookupError)):
            traceback.print_exc()
        return json.dumps({"error": {"type": type(e).__name__, "message": str(e)}})
