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
from typing import Any

from .cards import DECK_SIZE, SUIT_CHARS, Card, card_text, parse_card

REFUSAL_CODES: dict[str, str] = {
    "not_your_turn": "the action comes from a seat that is not the one to move",
    "game_over": "the match is over; nobody moves any more",
    "malformed": "not an action: unparseable text, a wrong type or a value out of range",
    "wrong_phase": "an action of another phase (a bid while the cards are played…)",
    "not_in_hand": "the card is not in the seat's hand",
    "must_follow": "the card does not follow the suit led; ``suit`` is the suit led",
    "must_trump": "with none of the suit led the seat must trump; ``suit`` is the trump",
    "must_beat": "the card is too low: the rules make the seat beat the trick "
    "(or over-trump) when it can; ``suit`` is the suit it must beat in",
    "must_lead_trump": "the rules make a seat holding a trump lead one; ``suit`` is the trump",
    "no_foreign_trump": "the seat may not lead the trump another player declared; "
    "``suit`` is the trump",
    "cannot_declare": "this lead cannot declare a marriage (no marriage, not on the lead, "
    "or no trick taken yet)",
    "cannot_raise": "the seat may not raise the bidding now and may only pass",
    "bid_too_low": "a bid or contract below the least allowed; ``detail``: ``low``, ``high``",
    "bid_too_high": "a bid or contract above what the cards allow; ``detail``: ``low``, ``high``",
    "bid_step": "a bid or contract between the bounds but off the step; "
    "``detail``: ``low``, ``high``",
    "not_opponent": "a card given to a seat that is not an opponent of the declarer",
    "already_given": "that opponent already received a card",
    "no_redeal": "the seat has no redeal claim now",
    "too_late": "abandoning the hand is only possible before the first lead",
    "not_allowed": "anything else the rules in force do not allow now",
}
"""The stable reason codes of :class:`IllegalAction`, each with what it means.

A front end shows its own words for a code (and the ``suit``, when there is
one); the English message is for logs, tests and players of the text form.
"""


class IllegalAction(ValueError):
    """An action that is malformed or not allowed now; the message says why.

    ``code`` is one of :data:`REFUSAL_CODES`, stable for front ends to
    translate; ``detail`` holds JSON-ready facts the message names (``suit``:
    a suit letter ``S C D H`` where a suit matters; ``low``/``high``/``step``
    for a bid or contract), and :attr:`suit` is ``detail["suit"]`` or ``None``.
    It is still a ``ValueError``, and ``str()`` is the message alone.
    """

    def __init__(self, message: str, code: str = "not_allowed", **detail: Any) -> None:
        super().__init__(message)
        if code not in REFUSAL_CODES:
            raise ValueError(f"unknown refusal code {code!r}")
        self.message = message
        self.code = code
        self.detail: dict[str, Any] = detail

    @property
    def suit(self) -> str | None:
        """The suit the refusal is about (``S C D H``), or ``None``."""
        value = self.detail.get("suit")
        return value if isinstance(value, str) else None

    def to_dict(self) -> dict[str, Any]:
        """``{"code", "message", **detail}``, ready for JSON."""
        return {"code": self.code, "message": self.message, **self.detail}


def suit_detail(suit: int) -> dict[str, Any]:
    """The ``detail`` of a refusal about one suit."""
    return {"suit": SUIT_CHARS[suit]}


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
        raise IllegalAction(f"{text!r}: {word!r} is not a whole number", "malformed") from None


def parse_action(text: str) -> Action:
    """The action named by its text form, or ``IllegalAction`` saying what is malformed."""
    if not isinstance(text, str):
        raise IllegalAction(
            f"an action is a text like 'bid 105', not {type(text).__name__}", "malformed"
        )
    words = text.strip().lower().split()
    if not words:
        raise IllegalAction("empty action", "malformed")
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
        raise IllegalAction(f"{text!r}: {e}", "malformed") from None
    raise IllegalAction(
        f"unknown action {text!r}; actions are: bid N, pass, redeal, decline, dark, look, "
        "give CARD SEAT, take N, discard CARD, contract N, writeoff, cross, bomb, "
        "play CARD, play CARD declare",
        "malformed",
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
    """``action`` read from its text, or checked to be a well-formed action value.

    Its values are checked as far as they can be without a game: a card is
    one of the 24, numbers are whole numbers, ``declare`` is true or false.
    Anything else raises ``IllegalAction`` with code ``malformed``.
    """
    if isinstance(action, str):
        return parse_action(action)
    if type(action) is Play:
        # The hot path of every hand, checked without the general loop.
        c = action.card
        if type(c) is int and 0 <= c < DECK_SIZE and type(action.declare) is bool:
            return action
    if not isinstance(action, _ACTION_TYPES):
        raise IllegalAction(f"not an action: {action!r}", "malformed")
    for name in action.__slots__:
        value = getattr(action, name)
        if name == "declare":
            if not isinstance(value, bool):
                raise IllegalAction(f"{action!r}: declare must be true or false", "malformed")
        elif not isinstance(value, int) or isinstance(value, bool):
            raise IllegalAction(f"{action!r}: {name} must be a whole number", "malformed")
        elif name == "card" and not 0 <= value < DECK_SIZE:
            raise IllegalAction(f"{action!r}: no card {value}; cards are 0..23", "malformed")
    return action
