"""Engine bridge: the Python end of the page's ``engine.call(method, ...args)``.

This module owns the one game the page is playing and the table of methods
the page may call. It runs inside Pyodide in the engine worker; arguments
and results cross as JSON text, so nothing but plain data leaves Python.
It holds no rules: every method is a thin call into the ``thousand``
package, and an error the engine raises (``IllegalAction`` above all)
comes back to the page as ``{"error": {"type", "message", "code"}}``
(``code`` and the refusal's detail, such as ``suit``, only for an
``IllegalAction``: see ``thousand.actions.REFUSAL_CODES``), which engine.js
turns into a rejected promise with that name and code.

Computer seats think here too (``bot_act``), so the page never freezes.

To add a call for the UI, add a function decorated with ``@method``.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from typing import Any

import thousand
from thousand import Game, IllegalAction, Rules

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
    rules = None
    if options.get("preset") is not None:
        rules = Rules.preset(options["preset"])
    if options.get("rules") is not None:
        base = rules or Rules.preset("classic")
        rules = base.replace(**options["rules"])
    return rules


@method
def new(options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Start a game: ``{"seed", "preset", "rules": {id: value}, "deal", "scores"}``, all optional.

    ``rules`` changes options on top of ``preset`` (classic when absent).
    """
    global _game
    options = options or {}
    _game = Game.new(
        rules=_rules(options),
        seed=options.get("seed", 0),
        deal=options.get("deal"),
        scores=options.get("scores"),
    )
    return {"current_player": _game.current_player}


@method
def view(seat: int | None) -> Any:
    """What one seat may see, with the actions it may take now, and ``last_action``."""
    return _current().view(seat)


@method
def act(seat: int, action: str, view_seat: int | None = None) -> dict[str, Any]:
    """Apply ``action`` for ``seat``; refused unless it is that seat's turn.

    Returns the new view for ``view_seat`` (default ``seat``) and the save text.
    """
    game = _current()
    if game.current_player != seat:
        raise _not_your_turn(game, seat)
    game.apply(action)
    return _after(game, seat if view_seat is None else view_seat)


def _not_your_turn(game: Game, seat: Any) -> IllegalAction:
    if game.current_player is None:
        return IllegalAction("the match is over", "game_over")
    return IllegalAction(
        f"it is not seat {seat}'s turn: seat {game.current_player} is to move", "not_your_turn"
    )


@method
def why(seat: int, action: str) -> dict[str, Any] | None:
    """Why ``action`` by ``seat`` would be refused, or ``None`` if it is legal; nothing changes.

    The answer is ``{"code", "message", ...detail}`` (``suit`` where a suit
    matters): the UI asks it when a player clicks a card it may not play.
    """
    refusal = _current().why_illegal(action, seat)
    return None if refusal is None else refusal.to_dict()


def _after(game: Game, view_seat: int | None) -> dict[str, Any]:
    return {"view": view(view_seat), "save": game.to_json()}


@method
def bot_act(seat: int, level: str, seed: int, view_seat: int | None = None) -> dict[str, Any]:
    """A computer player at ``seat`` chooses from its own view and plays.

    Returns the action, the new view for ``view_seat`` and the save text.
    """
    from thousand.bots import choose

    game = _current()
    if game.current_player != seat:
        raise _not_your_turn(game, seat)
    action = choose(game.view(seat), level, seed)
    game.apply(action)
    return {"action": action, **_after(game, view_seat)}


@method
def hint(seat: int, seed: int) -> dict[str, Any]:
    """What the strong computer player would do now at ``seat``, thinking from
    that seat's view only; nothing is applied. ``reason`` is a short code for
    the page to word, or None."""
    from thousand.bots import choose

    game = _current()
    if game.current_player != seat:
        raise IllegalAction(f"it is not seat {seat}'s turn")
    seat_view = game.view(seat)
    action = choose(seat_view, "strong", seed)
    return {"action": action, "reason": _hint_reason(action)}


@method
def hint_for_view(seat_view: Any, seed: int) -> dict[str, Any]:
    """What the strong computer player would do from a view passed in: a
    network table's seat asks with the view the host sent it, since this
    worker does not hold that game. The view is checked first; a malformed
    one is a ``ValueError`` saying what is wrong, and nothing is played."""
    from thousand.bots import choose

    _check_view(seat_view)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"a hint's seed is a whole number, not {type(seed).__name__}")
    action = choose(seat_view, "strong", seed)
    return {"action": action, "reason": _hint_reason(action)}


def _check_view(seat_view: Any) -> None:
    """Refuse a view the bot cannot think from: wrong shape, or not the seat's turn."""
    from thousand.actions import parse_action
    from thousand.cards import parse_card

    def bad(what: str) -> ValueError:
        return ValueError(f"malformed view: {what}")

    if not isinstance(seat_view, dict):
        raise bad(f"a view is an object, not {type(seat_view).__name__}")
    players, seat = seat_view.get("players"), seat_view.get("seat")
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise bad("players must be 2, 3 or 4")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise bad(f"seat must be a seat of the {players} at the table")
    if not isinstance(seat_view.get("phase"), str):
        raise bad("phase must be a text")
    hand, legal = seat_view.get("hand"), seat_view.get("legal")
    if not isinstance(hand, list) or not all(isinstance(c, str) for c in hand):
        raise bad("hand must be a list of cards")
    if not isinstance(legal, list) or not all(isinstance(a, str) for a in legal):
        raise bad("legal must be a list of actions")
    try:
        cards = [parse_card(c) for c in hand]
        for a in legal:
            parse_action(a)
        Rules.from_dict(seat_view.get("rules") or {})
    except ValueError as e:
        raise bad(str(e)) from None
    if len(set(cards)) != len(cards):
        raise bad("a card appears twice in the hand")
    if seat_view.get("turn") != seat or not legal:
        raise IllegalAction(f"it is not seat {seat}'s turn in this view")


def _hint_reason(action: str) -> str | None:
    """A reason that the action's own text makes plain; None when it says nothing more."""
    words = action.split()
    if words[-1] == "declare":
        return "declare"
    if words[0] in ("pass", "writeoff"):
        return words[0]
    return None


@method
def undo(seat: int, view_seat: int | None = None) -> dict[str, Any]:
    """Take back ``seat``'s last action in the hand being played, with every
    action after it (the computer's answers), by rebuilding the game from its
    log without them. The deal is the same, since the game is rebuilt from
    the same seed and deals. ``IllegalAction`` when the seat has not acted
    in this hand.

    Returns how many actions were taken back, the new view and the save text.
    """
    global _game
    game = _current()
    this_hand = (seat, len(game.sheet))
    mine = [k for k, mover in enumerate(game.log_movers) if mover == this_hand]
    if not mine or game.phase == "over":
        raise IllegalAction("nothing to take back: you have not acted in this hand")
    last = mine[-1]
    data = json.loads(game.to_json())
    log: list[str] = data["log"]
    _game = Game.from_json(json.dumps({**data, "log": log[:last]}))
    return {"undone": len(log) - last, **_after(_game, seat if view_seat is None else view_seat)}


@method
def match_summary(seat: int) -> dict[str, Any]:
    """One seat's figures for the statistics, read off the sheet and the log:
    hands played, contracts declared and made, points, marriages declared,
    bolts, barrel arrivals and falls, the final scores and the winner."""
    game = _current()
    rows = [r for r in game.sheet if r["result"] != "redeal"]
    marriages = sum(
        1
        for (mover, _), action in zip(game.log_movers, game.log, strict=True)
        if mover == seat and action.endswith(" declare")
    )
    marks = [m for r in rows for m in r["marks"][seat]]
    mine = [r for r in rows if r["declarer"] == seat]
    return {
        "players": game.players,
        "over": game.phase == "over",
        "winner": game.winner,
        "won": game.winner == seat,
        "hands": len(rows),
        "contracts": len(mine),
        "made": sum(1 for r in mine if r["result"] == "made"),
        "points": sum(r["deltas"][seat] for r in rows),
        "marriages": marriages,
        "bolts": marks.count("bolt"),
        "barrels": marks.count("barrel"),
        "falls": marks.count("fall"),
        "scores": list(game.scores),
        "score": game.scores[seat],
    }


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
    """Load a game saved by ``save``; a corrupt or foreign text is a ValueError saying why."""
    global _game
    _game = Game.from_json(text)
    return {"current_player": _game.current_player, "players": _game.players}


@method
def presets() -> list[str]:
    return list(Rules.presets())


@method
def preset(name: str) -> dict[str, Any]:
    """The option values of one preset."""
    return Rules.preset(name).to_dict()


@method
def options() -> dict[str, Any]:
    """Everything the settings screen needs: options, groups (en, ru), presets and bot levels."""
    from thousand.bots import LEVELS

    return {
        "options": Rules.options(),
        "groups": {k: list(v) for k, v in Rules.groups().items()},
        "presets": {name: Rules.preset(name).to_dict() for name in Rules.presets()},
        "levels": list(LEVELS),
    }


@method
def preview(action: str) -> dict[str, Any]:
    """The sheet row ``action`` would score now, on a copy: the game itself is unchanged.

    For a confirmation that names the amounts (a write-off's loss and shares).
    """
    game = Game.from_json(_current().to_json())
    rows = len(game.sheet)
    game.apply(action)
    if len(game.sheet) == rows:
        raise ValueError(f"{action!r} scores nothing now")
    return dict(game.sheet[rows])


@method
def hand_replay(index: int) -> dict[str, Any]:
    """Every step of the ``index``-th deal of the current game (0 first), all cards face up.

    Each frame has the hands of every seat, the talon, the trick on the
    table (a completed trick stays shown on the step that completed it), the
    bids, contract, trump, declared marriages and the action that led to it.
    Only finished deals can be replayed.
    """
    game = _current()
    if not isinstance(index, int) or not 0 <= index < len(game.sheet):
        raise ValueError(f"no finished hand {index!r}: {len(game.sheet)} hands are finished")
    data = json.loads(game.to_json())
    log = data.pop("log")
    data["log"] = []
    g = Game.from_json(json.dumps(data))
    frames: list[dict[str, Any]] = []
    k = 0
    while len(g.sheet) < index:
        g.apply(log[k])
        k += 1

    def frame(action: str | None, seat: int | None, trick: Any = None) -> dict[str, Any]:
        v = g.view(None)
        return {
            "action": action,
            "seat": seat,
            "phase": v["phase"],
            "dealer": v["dealer"],
            "hands": [g.view(s)["hand"] for s in range(g.players)],
            "talon": [c for c in _talon_texts(g)],
            "trick": trick if trick is not None else v["trick"],
            "bids": v["bids"],
            "declarer": v["declarer"],
            "contract": v["contract"],
            "trump": v["trump"],
            "marriages": v["marriages"],
            "trick_counts": v["trick_counts"],
            "card_points": v["card_points"],
            "scores": v["scores"],
        }

    frames.append(frame(None, None))
    while len(g.sheet) == index:
        seat = g.current_player
        trick_before = g.view(None)["trick"]
        tricks_before = len(g.tricks)
        snapshot = None
        if g.players == len(trick_before) + 1 or (
            g.sitting_out is not None and len(trick_before) == 2
        ):
            snapshot = frame(None, None)
        act = str(g.apply(log[k]))
        k += 1
        if len(g.sheet) > index:
            # The hand is over: show the final trick on the hands as they were.
            last = snapshot or frame(None, None)
            if act.startswith("play "):
                last["hands"][seat] = [c for c in last["hands"][seat] if c != act.split()[1]]
                last["trick"] = [*trick_before, [seat, act.split()[1]]]
            done = (g.last_action or {}).get("trick")
            if done is not None:
                # The final trick counts for its winner, who is named.
                last["trick_counts"] = list(last["trick_counts"])
                last["trick_counts"][done["winner"]] += 1
                last["trick_winner"] = done["winner"]
            last["action"], last["seat"] = act, seat
            frames.append(last)
            break
        if act.startswith("play ") and len(g.tricks) > tricks_before:
            taken = g.view(None)["tricks"][-1]
            frames.append({**frame(act, seat, taken["cards"]), "trick_winner": taken["winner"]})
        else:
            frames.append(frame(act, seat))
    return {"frames": frames, "row": game.sheet[index], "players": game.players}


def _talon_texts(g: Game) -> list[str]:
    from thousand.cards import texts_of

    return texts_of(g.talon) if g.players != 2 else [c for t in g.talons for c in texts_of(t)]


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
        error: dict[str, Any] = {"type": type(e).__name__, "message": str(e)}
        if isinstance(e, IllegalAction):
            error.update(e.to_dict())
        return json.dumps({"error": error})
