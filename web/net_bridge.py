"""Network bridge: the Python end of multiplayer (web/net/), beside engine_bridge.

This module owns the host's authoritative game of a network table and the
hashing and checking of the fair deal (commit–reveal). Its methods are
registered with engine_bridge's ``@method`` under ``net_…`` names, so the
page reaches them with ``engine.call("net_…", …)`` like any engine call.
It keeps its own game, apart from the bridge's offline one, so a network
table and the offline UI never step on each other's state.

The fair deal of deal ``k`` (redeals count: the engine's deal number):

1. the host draws ``host_seed`` and ``nonce`` and publishes
   ``commit = H("thousand/commit/1|" + host_seed + "|" + nonce)``;
2. every guest then sends a random seed;
3. the deal is shuffled from ``deal_seed = H("thousand/deal-seed/1|" +
   host_seed + "|" + guest seeds in seat order)`` (``-`` for a seat that
   sent none), which the host sets with ``Game.set_deal_seed`` (deal 0 is
   the match seed of ``Game.new``);
4. when the deal is over the host reveals ``host_seed``, ``nonce``, the
   guest seeds and the action log; each guest's own engine replays the
   match and compares every view it was sent during that deal with the
   view the replay gives (:func:`audit`).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from engine_bridge import method
from thousand import Game, Rules
from thousand.actions import IllegalAction

HEX_SEED_LENGTH = 64
"""Seeds on the wire are 32 random bytes as lowercase hex."""


class NotYourTurn(IllegalAction):
    """An action from a seat that is not the one to move (code ``not_your_turn``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "not_your_turn")


class NoGame(LookupError):
    """A host call before the network game exists."""


_host: Game | None = None


def _game() -> Game:
    if _host is None:
        raise NoGame("no network game yet: call net_host_new or net_host_load first")
    return _host


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _is_seed(value: Any) -> bool:
    return (
        isinstance(value, str)
        and len(value) == HEX_SEED_LENGTH
        and all(c in "0123456789abcdef" for c in value)
    )


@method
def net_commit(host_seed: str, nonce: str) -> str:
    """The host's published commitment to ``host_seed``."""
    if not (_is_seed(host_seed) and _is_seed(nonce)):
        raise ValueError("host seed and nonce are 64 lowercase hex digits")
    return _sha256(f"thousand/commit/1|{host_seed}|{nonce}")


@method
def net_deal_seed(host_seed: str, guest_seeds: list[str | None]) -> str:
    """The seed one deal is shuffled from: every seat's contribution, in seat order."""
    if not _is_seed(host_seed):
        raise ValueError("the host seed is 64 lowercase hex digits")
    parts = []
    for seed in guest_seeds:
        if seed is not None and not _is_seed(seed):
            raise ValueError("a guest seed is 64 lowercase hex digits")
        parts.append(seed or "-")
    return _sha256(f"thousand/deal-seed/1|{host_seed}|{'|'.join(parts)}")


def _summary(game: Game) -> dict[str, Any]:
    return {
        "step": len(game.log),
        "deal": game.next_deal_number - 1,
        "next_deal": game.next_deal_number,
        "seeded": game.next_deal_number in game.deal_seeds,
        "turn": game.current_player,
        "phase": game.phase,
        "hand_no": game.hand_no + 1,
        "winner": game.winner,
    }


def _seat_view(game: Game, seat: int) -> dict[str, Any]:
    """One seat's view; its ``last_action`` (the engine's) hides a face-down card."""
    return game.view(seat)


def _state(game: Game) -> dict[str, Any]:
    """The summary plus every seat's own view: what the host hands out after a change."""
    return {**_summary(game), "views": [_seat_view(game, s) for s in range(game.players)]}


@method
def net_host_new(rules: dict[str, Any], seed: str) -> dict[str, Any]:
    """Start the host's network game; ``seed`` is deal 0's fair seed."""
    global _host
    if not _is_seed(seed):
        raise ValueError("a deal seed is 64 lowercase hex digits")
    _host = Game.new(rules=Rules.from_dict(rules), seed=seed)
    return _state(_host)


@method
def net_host_load(text: str) -> dict[str, Any]:
    """Resume the host's network game from :func:`net_host_save`'s text."""
    global _host
    _host = Game.from_json(text)
    return _state(_host)


@method
def net_host_save() -> str:
    return _game().to_json()


@method
def net_host_state() -> dict[str, Any]:
    return _state(_game())


@method
def net_host_set_seed(deal_number: int, seed: str) -> dict[str, Any]:
    if not _is_seed(seed):
        raise ValueError("a deal seed is 64 lowercase hex digits")
    game = _game()
    game.set_deal_seed(deal_number, seed)
    return _summary(game)


@method
def net_host_would_deal(seat: int, action: str) -> bool:
    """Whether this action, if legal, would deal a new hand (last card, redeal, write-off…).

    The host must have that deal's fair seed set before it applies such an
    action, since the engine deals at once.
    """
    game = _game()
    if seat != game.current_player:
        return False
    trial = game.copy()
    try:
        trial.apply(action)
    except IllegalAction:
        return False
    return trial.next_deal_number != game.next_deal_number


@method
def net_host_apply(seat: int, action: str) -> dict[str, Any]:
    """Apply ``seat``'s action; ``NotYourTurn`` or ``IllegalAction`` change nothing."""
    game = _game()
    if not isinstance(seat, int) or isinstance(seat, bool) or seat != game.current_player:
        turn = game.current_player
        raise NotYourTurn(
            "the match is over" if turn is None else f"it is seat {turn}'s turn, not seat {seat}'s"
        )
    if not isinstance(action, str):
        raise IllegalAction("an action is a text such as 'bid 110'", "malformed")
    game.apply(action)
    return _state(game)


@method
def net_host_bot(seat: int, level: str) -> str:
    """The action a computer player of ``level`` takes for ``seat`` now."""
    from thousand.bots import choose

    game = _game()
    if seat != game.current_player:
        raise NotYourTurn(f"it is not seat {seat}'s turn")
    # The bot's randomness is tied to the position, so a host that reloads
    # mid-hand has its bots play on exactly as they would have.
    seed = int(_sha256(f"thousand/bot/{game.seed}/{len(game.log)}")[:8], 16)
    return choose(game.view(seat), level=level, seed=seed)


# --- the guest's audit ------------------------------------------------------------------


def _first_difference(got: Any, want: Any, where: str = "") -> str | None:
    """Where two JSON values first differ, as a path like ``hand`` or ``tricks[2].cards``."""
    if isinstance(got, dict) and isinstance(want, dict):
        for key in sorted(set(got) | set(want)):
            inner = _first_difference(
                got.get(key), want.get(key), f"{where}.{key}" if where else key
            )
            if inner:
                return inner
        return None
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            inner = _first_difference(g, w, f"{where}[{i}]")
            if inner:
                return inner
        return None
    return None if got == want else (where or "the view")


def _describe(path: str, got: Any, want: Any) -> str:
    return f"{path}: you were shown {json.dumps(got)}, the seeds give {json.dumps(want)}"


def _lookup(value: Any, path: str) -> Any:
    for part in path.replace("]", "").replace("[", ".").split("."):
        if part == "" or value is None:
            continue
        value = value[int(part)] if isinstance(value, list) else value.get(part)
    return value


@method
def net_audit(req: dict[str, Any]) -> dict[str, Any]:
    """Check one revealed deal against everything this guest saw during it.

    ``req``: ``rules``, ``seat``, ``deal`` (k), ``host_seed``, ``nonce``,
    ``guest_seeds`` (per seat, or null), ``seeds`` (the deal seeds of the
    deals before k, by number), ``log`` (the actions up to the end of deal
    k), ``commit`` (what the host published before the deal, or null if
    this guest missed it), ``my_seed`` (what this guest sent, or null) and
    ``observations`` (``[{"step", "view"}]``: each view received during
    deal k and the length of the log it was made at).

    Returns ``{"ok": bool, "problems": [text], "checked": n}``: the deal
    is rebuilt by this guest's own engine from the revealed seeds and the
    log, and every observed view must equal the rebuilt one.
    """
    problems: list[str] = []
    k = int(req["deal"])
    seat = int(req["seat"])
    host_seed, nonce = req.get("host_seed"), req.get("nonce")
    guest_seeds = list(req.get("guest_seeds") or [])
    try:
        commit = net_commit(host_seed, nonce)
        deal_seed = net_deal_seed(host_seed, guest_seeds)
    except (TypeError, ValueError) as e:
        return {"ok": False, "problems": [f"the host's reveal is malformed: {e}"], "checked": 0}
    if req.get("commit") is not None and req["commit"] != commit:
        problems.append(
            f"deal {k + 1}: the revealed host seed does not match the commitment published "
            "before the deal"
        )
    mine = req.get("my_seed")
    if mine is not None and (seat >= len(guest_seeds) or guest_seeds[seat] != mine):
        problems.append(f"deal {k + 1}: your own random seed was left out of the shuffle")
    seeds = {int(j): s for j, s in (req.get("seeds") or {}).items() if int(j) < k}
    seeds[k] = deal_seed
    if 0 not in seeds:
        return {
            "ok": False,
            "problems": ["the reveal lacks the seed of the first deal"],
            "checked": 0,
        }
    try:
        game = Game.new(rules=Rules.from_dict(req["rules"]), seed=seeds[0])
        for j, s in seeds.items():
            if j > 0:
                game.set_deal_seed(j, s)
    except (TypeError, ValueError, KeyError, NotImplementedError) as e:
        return {"ok": False, "problems": [f"cannot rebuild the game: {e}"], "checked": 0}

    by_step: dict[int, list[dict[str, Any]]] = {}
    for obs in req.get("observations") or []:
        by_step.setdefault(int(obs["step"]), []).append(obs["view"])
    log = list(req.get("log") or [])
    checked = 0
    for step in range(len(log) + 1):
        if step > 0:
            try:
                game.apply(log[step - 1])
            except (IllegalAction, ValueError) as e:
                problems.append(
                    f"action {step} of the revealed log ({log[step - 1]}) is illegal: {e}"
                )
                break
        for seen in by_step.pop(step, []):
            if game.next_deal_number - 1 != k:
                problems.append(f"a view of deal {k + 1} was sent at step {step}, in another deal")
                continue
            want = json.loads(json.dumps(_seat_view(game, seat)))
            if seen.get("last_action") is None:
                # A host that reloaded sends its first views with no last action.
                want["last_action"] = seen.get("last_action")
                if "last_action" not in seen:
                    del want["last_action"]
            path = _first_difference(seen, want)
            checked += 1
            if path is not None:
                problems.append(
                    f"deal {k + 1}, step {step}: "
                    + _describe(path, _lookup(seen, path), _lookup(want, path))
                )
    else:
        if game.next_deal_number <= k + 1 and game.current_player is not None:
            problems.append(f"the revealed log stops before deal {k + 1} ends")
    if by_step:
        problems.append(f"views of deal {k + 1} were sent at steps the revealed log never reached")
    return {"ok": not problems, "problems": problems[:5], "checked": checked}


@method
def net_rules(preset: str | None, changes: dict[str, Any] | None) -> dict[str, Any]:
    """The whole rules a table plays: ``preset`` (classic by default) with ``changes`` on top."""
    rules = Rules.preset(preset or "classic").replace(**(changes or {}))
    unsupported = rules.unsupported()
    if unsupported:
        raise ValueError("these rule options are not implemented yet: " + ", ".join(unsupported))
    return rules.to_dict()
