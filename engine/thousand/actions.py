"""The actions a player can take, as small frozen values with text forms.

This module owns the vocabulary of moves and its text round trip: every
action prints as the text a player would type and :func:`parse_action`
reads it back. Whether an action is *legal* is the game's business
(:mod:`thousand.game`), not this module's.

>>> str(parse_action("give qs 2"))
'give QS 2'
>>> parse_action("play KH declare") == Play(parse_card("KH"), declare=True)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, card_text, parse_card


class IllegalAction(ValueError):
    """An action that is malformed or not allowed now; the message says why."""


@dataclass(frozen=True, slots=True)
class Bid:
    """Raise the bidding (торговля) to ``value``."""

    value: int

    def __str__(self) -> str:
        return f"bid {self.value}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Leave the bidding for this hand (пас); final."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Redeal:
    """Claim a redeal (пересдача) that one's cards qualify for."""

    def __str__(self) -> str:
        return "redeal"


@dataclass(frozen=True, slots=True)
class Decline:
    """Let a redeal claim go and play the hand."""

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class Give:
    """Pass one card to an opponent (снос)."""

    card: Card
    seat: int

    def __str__(self) -> str:
        return f"give {card_text(self.card)} {self.seat}"


@dataclass(frozen=True, slots=True)
class Contract:
    """Name the contract (заказ)."""

    value: int

    def __str__(self) -> str:
        return f"contract {self.value}"


@dataclass(frozen=True, slots=True)
class WriteOff:
    """Concede the hand before the first lead (роспись)."""

    def __str__(self) -> str:
        return "writeoff"


@dataclass(frozen=True, slots=True)
class Dark:
    """First hand plays dark (тёмная): 120 without looking at the cards."""

    def __str__(self) -> str:
        return "dark"


@dataclass(frozen=True, slots=True)
class Look:
    """First hand looks at the cards instead of playing dark."""

    def __str__(self) -> str:
        return "look"


@dataclass(frozen=True, slots=True)
class Take:
    """Two players: take talon 0 or talon 1."""

    index: int

    def __str__(self) -> str:
        return f"take {self.index}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Two players: put a card aside face down after taking a talon."""

    card: Card

    def __str__(self) -> str:
        return f"discard {card_text(self.card)}"


@dataclass(frozen=True, slots=True)
class Cross:
    """Cross (крещусь): abandon the hand; nobody scores, the opponents get a bolt."""

    def __str__(self) -> str:
        return "cross"


@dataclass(frozen=True, slots=True)
class Bomb:
    """Bomb (Polish): abandon the hand at no cost; each opponent gets 60."""

    def __str__(self) -> str:
        return "bomb"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card; ``declare`` leads the K or Q of a marriage and declares it (хвалить)."""

    card: Card
    declare: bool = False

    def __str__(self) -> str:
        return f"play {card_text(self.card)}" + (" declare" if self.declare else "")


Action = (
    Bid
    | Pass
    | Redeal
    | Decline
    | Give
    | Contract
    | WriteOff
    | Play
    | Dark
    | Look
    | Take
    | Discard
    | Cross
    | Bomb
)

_NO_ARGUMENT: dict[str, Action] = {
    "pass": Pass(),
    "redeal": Redeal(),
    "decline": Decline(),
    "writeoff": WriteOff(),
    "dark": Dark(),
    "look": Look(),
    "cross": Cross(),
    "bomb": Bomb(),
}


def _number(word: str, text: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise IllegalAction(f"{text!r}: {word!r} is not a whole number") from None


def parse_action(text: str) -> Action:
    """The action named by its text form, or ``IllegalAction`` saying what is malformed."""
    if not isinstance(text, str):
        raise IllegalAction(f"an action is a text like 'bid 105', not {type(text).__name__}")
    words = text.strip().lower().split()
    if not words:
        raise IllegalAction("empty action")
    verb, args = words[0], words[1:]
    try:
        if verb in _NO_ARGUMENT and not args:
            return _NO_ARGUMENT[verb]
        if verb == "bid" and len(args) == 1:
            return Bid(_number(args[0], text))
        if verb == "contract" and len(args) == 1:
            return Contract(_number(args[0], text))
        if verb == "give" and len(args) == 2:
            return Give(parse_card(args[0]), _number(args[1], text))
        if verb == "take" and len(args) == 1:
            return Take(_number(args[0], text))
        if verb == "discard" and len(args) == 1:
            return Discard(parse_card(args[0]))
        if verb == "play" and len(args) == 1:
            return Play(parse_card(args[0]))
        if verb == "play" and len(args) == 2 and args[1] == "declare":
            return Play(parse_card(args[0]), declare=True)
    except IllegalAction:
        raise
    except ValueError as e:
        raise IllegalAction(f"{text!r}: {e}") from None
    raise IllegalAction(
        f"unknown action {text!r}; actions are: bid N, pass, redeal, decline, dark, look, "
        "give CARD SEAT, take N, discard CARD, contract N, writeoff, cross, bomb, "
        "play CARD, play CARD declare"
    )


_ACTION_TYPES = (
    Bid,
    Pass,
    Redeal,
    Decline,
    Give,
    Contract,
    WriteOff,
    Play,
    Dark,
    Look,
    Take,
    Discard,
    Cross,
    Bomb,
)


def as_action(action: Action | str) -> Action:
    if isinstance(action, str):
        return parse_action(action)
    if isinstance(action, _ACTION_TYPES):
        return action
    raise IllegalAction(f"not an action: {action!r}")
