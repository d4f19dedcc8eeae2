"""Network bridge: the Python end of multiplayer (web/net/), beside engine_bridge.

This module owns the one private peer (:class:`private_table.PrivatePeer`)
a page plays at a network table: the host's (its own seat and the computer
seats) or a guest's (its own seat). No peer holds the whole deal: every
peer follows the hand from what its seats know and the public messages, in
the order the host relays them, and checks the deal when every seat has
revealed its keys (web/net/PRIVATE_DEAL.md). Its methods are registered
with engine_bridge's ``@method`` under ``net_…`` names, so the page reaches
them with ``engine.call("net_…", …)``; it keeps its own state, apart from
the bridge's offline game.

A reloaded page rebuilds its peer from its master secret (kept in its own
storage) and the public messages so far (:func:`net_private_replay`).
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
from typing import Any

from engine_bridge import method
from private_table import BadReplace, Message, PrivatePeer
from thousand import Rules
from thousand.actions import IllegalAction

FIRST_DEALER = 0
"""Every network match starts with seat 0 dealing, so seat 1 bids first."""


class NotYourTurn(IllegalAction):
    """An action from a seat that is not the one to move (code ``not_your_turn``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "not_your_turn")


class Stale(IllegalAction):
    """A message for another deal, or one already received (a resend after a reload)."""


class Refused(IllegalAction):
    """A message this peer can see breaks the protocol or the rules: it is not relayed."""


class NoGame(LookupError):
    """A call before this page's private peer exists."""


class FormerDeal(ValueError):
    """A saved table whose deal was locked in the former 2048-bit group: it cannot go on."""


FORMER_VALUE_HEX = 512
"""A locked card of the former 2048-bit group on the wire (now a point, VALUE_HEX)."""


def _from_former_version(log: list[Message]) -> bool:
    """Whether a saved table's public messages hold values of the former group."""
    for msg in log:
        values = [*msg.get("deck", []), *dict(msg.get("values", {})).values()]
        values += [msg.get("value"), msg.get("y")]
        if any(isinstance(v, str) and len(v) == FORMER_VALUE_HEX for v in values):
            return True
    return False


_peer: PrivatePeer | None = None


def _current() -> PrivatePeer:
    if _peer is None:
        raise NoGame("no network game yet: call net_private_new first")
    return _peer


def _new(
    rules: dict[str, Any], seats: list[int], master: str, computers: list[int] | None
) -> PrivatePeer:
    global _peer
    full = Rules.from_dict(rules)
    if full.players == 2:
        raise ValueError("a network table is for three or four players")
    lobby = frozenset(int(s) for s in computers or [])
    _peer = PrivatePeer(full, FIRST_DEALER, sorted(int(s) for s in seats), master, lobby)
    return _peer


def _view(peer: PrivatePeer, seat: int) -> dict[str, Any]:
    """What ``seat`` may know now; while cards are moving, nobody's turn, no move and no card
    not yet read (a deal that waits for a seat's keys shows no one to move).

    Until the declarer has read the talon, the follower's game holds stand-in
    cards there: they are left out of the hand and the talon.
    """
    view = peer.follower.view(seat)
    if peer.turn is None:
        view["turn"], view["legal"] = None, []
    if not peer.talon_ready and peer.follower.hands is not None:
        known = set(peer.follower.hands.get(seat, []))
        view["hand"] = [c for c in view["hand"] if c in known]
        view["talon"] = None
    return view


def _state(peer: PrivatePeer, out: list[Message] | None = None) -> dict[str, Any]:
    """What the page needs after a change: the messages to send, its seats' views, verdicts."""
    f = peer.follower
    views: list[dict[str, Any] | None] = [
        _view(peer, s) if s in peer.seats else None for s in range(peer.players)
    ]
    any_view = f.game.view(None)
    return {
        "out": out or [],
        "deal": peer.deal_no,
        "turn": peer.turn,
        "phase": any_view["phase"],
        "hand_no": any_view["hand_no"],
        "winner": any_view["winner"],
        "waiting": f.waiting,
        "revealing": peer.revealing,
        "revealed": sorted(peer.ledger.revealed),
        "views": views,
        "verdicts": {str(k): [list(v) for v in found] for k, found in peer.verdicts.items()},
        "seats": list(peer.seats),
        "replaced": {str(s): level for s, level in sorted(peer.replaced.items())},
    }


@method
def net_private_new(
    rules: dict[str, Any], seats: list[int], master: str, computers: list[int] | None = None
) -> dict[str, Any]:
    """This page's peer of a new match, playing ``seats``; its first messages in ``out``.

    ``computers``: the seats the lobby gave to computers, which are no person's
    and so are never given to a computer again by a ``replace``.
    """
    peer = _new(rules, seats, master, computers)
    return _state(peer, peer.start())


@method
def net_private_replay(
    rules: dict[str, Any],
    seats: list[int],
    master: str,
    log: list[Message],
    computers: list[int] | None = None,
) -> dict[str, Any]:
    """Rebuild this page's peer from the public messages so far; ``out`` is what it still owes."""
    if _from_former_version(log):
        raise FormerDeal(
            "this table was saved by an earlier version of the game, whose private deal "
            "cannot go on: open a new table"
        )
    peer = _new(rules, seats, master, computers)
    peer.catching_up = True  # what it owed along the way was sent then
    for msg in log:
        # A replace refused when it came is refused again: nothing changed then either.
        with contextlib.suppress(BadReplace):
            peer.receive(msg)
    peer.catching_up = False
    return _state(peer, [] if peer.revealing else peer._next())


@method
def net_private_receive(msg: Message, catching_up: bool = False) -> dict[str, Any]:
    """One public message in the host's order; ``out`` is what this page's seats send next.

    ``catching_up``: a message from before this page's reload, whose answers this page
    sent then (its seats' shuffles and unlocks are not worked out again; ``out`` may
    then lack them). A ``replace`` this peer refuses raises ``Refused`` and changes nothing.
    """
    peer = _current()
    peer.catching_up = bool(catching_up)
    try:
        out = peer.receive(msg)
    except BadReplace as e:
        raise Refused(str(e)[:200]) from None
    finally:
        peer.catching_up = False
    return _state(peer, out)


@method
def net_private_state() -> dict[str, Any]:
    return _state(_current())


@method
def net_private_act(seat: int, action: str) -> Message:
    """The message of ``seat``'s move (``IllegalAction`` if its own cards do not allow it)."""
    peer = _current()
    if not isinstance(action, str):
        raise IllegalAction("an action is a text such as 'bid 110'", "malformed")
    if peer.turn != seat:
        turn = peer.turn
        raise NotYourTurn("nobody moves now" if turn is None else f"it is seat {turn}'s turn")
    return peer.act(seat, action)


@method
def net_private_check(msg: Message) -> None:
    """Refuse a guest's message this peer can see is wrong, before it is relayed to anyone.

    It is tried on a copy of the peer: a message for another deal, out of
    turn, repeated, or a move no hand consistent with what this peer knows
    allows. What only the keys can prove is left to the audit at the end.
    """
    peer = _current()
    seat = msg.get("seat")
    if msg.get("deal") != peer.deal_no:
        raise Stale(f"deal {peer.deal_no} is on the table, not {msg.get('deal')!r}")
    claim = isinstance(seat, int) and peer.may_claim(seat, msg.get("action"))
    if msg.get("t") == "act" and peer.turn != seat and not claim:
        turn = peer.turn
        raise NotYourTurn("nobody moves now" if turn is None else f"it is seat {turn}'s turn")
    if msg.get("t") == "reveal" and seat in peer.ledger.revealed:
        raise Stale("this key is revealed already")
    if msg.get("t") == "ready" and seat in peer.ready:
        raise Stale("this seat said it was ready already")
    trial = copy.deepcopy(peer)
    try:
        trial._receive(int(seat), msg)  # type: ignore[arg-type]
    except (ValueError, KeyError, TypeError) as e:
        raise Refused(str(e)[:200]) from None


@method
def net_private_bot(seat: int, level: str) -> str:
    """The action a computer player of ``level`` takes for ``seat`` (a seat of this peer) now."""
    from thousand.bots import choose

    peer = _current()
    if peer.turn != seat or seat not in peer.seats:
        raise NotYourTurn(f"seat {seat} does not move here now")
    # Tied to the position, so a host that reloads mid-hand has its bots play on as before.
    digest = hashlib.sha256(
        f"thousand/bot/{peer.master}/{peer.deal_no}/{len(peer.actions)}".encode()
    )
    return choose(peer.follower.view(seat), level=level, seed=int(digest.hexdigest()[:8], 16))


@method
def net_private_timeout() -> dict[str, Any]:
    """The time to reveal the keys is up: the deal's verdict with what was revealed."""
    peer = _current()
    peer.timeout()
    return _state(peer)


@method
def net_rules(preset: str | None, changes: dict[str, Any] | None) -> dict[str, Any]:
    """The whole rules a table plays: ``preset`` (classic by default) with ``changes`` on top."""
    rules = Rules.preset(preset or "classic").replace(**(changes or {}))
    unsupported = rules.unsupported()
    if unsupported:
        raise ValueError("these rule options are not implemented yet: " + ", ".join(unsupported))
    return rules.to_dict()
