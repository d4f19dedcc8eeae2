"""Why an action is refused: the stable code, the message and the detail.

This module owns the answer to "why not?": for an action that is not legal
now, the :class:`~thousand.IllegalAction` that says why — a code from
:data:`thousand.actions.REFUSAL_CODES`, an English message, and the suit or
the bounds it is about — and :meth:`why_illegal`, which asks without
applying, for any seat.
"""

from __future__ import annotations

from .actions import (
    Action,
    Bid,
    Bomb,
    Contract,
    Cross,
    Dark,
    Decline,
    Discard,
    Give,
    IllegalAction,
    Look,
    Pass,
    Play,
    Redeal,
    Take,
    WriteOff,
    as_action,
)
from .cards import (
    SUIT_CHARS,
    SUIT_MASKS,
    bit,
    card_text,
    suit_of,
)
from .hand import Hand
from .table import (
    _AFTER_BIDDING,
    BIDDING,
    CHOOSE,
    CLAIM,
    CONTRACT,
    DARK,
    OVER,
    PLAY,
    TALON,
)


class Refusals(Hand):
    """The refusal part of a :class:`~thousand.Game`."""

    def why_illegal(self, action: Action | str, seat: int | None = None) -> IllegalAction | None:
        """Why ``action`` would be refused, or ``None`` if it is legal; nothing changes.

        ``seat`` is who asks (default: the seat to move). A seat that is not
        the one to move gets ``not_your_turn`` whatever the action, so a front
        end can explain any card a player clicks; once the match is over
        every action gets ``game_over``. The answer is the very exception
        :meth:`apply` would raise (for the seat to move), with its
        :attr:`~thousand.actions.IllegalAction.code`.
        """
        if self.phase == OVER:
            return IllegalAction("the match is over", "game_over")
        if seat is not None and seat != self.turn:
            if not isinstance(seat, int) or isinstance(seat, bool):
                return IllegalAction(f"no seat {seat!r}", "malformed")
            return IllegalAction(
                f"it is not seat {seat}'s turn: seat {self.turn} is to move", "not_your_turn"
            )
        try:
            act = as_action(action)
        except IllegalAction as e:
            return e
        if self._allows(act):
            return None
        return self._refusal(act)

    def _refusal(self, action: Action) -> IllegalAction:
        """Why ``action``, which is not among the legal actions, is refused."""
        if self.phase == OVER:
            return IllegalAction("the match is over", "game_over")
        s, phase = self.turn, self.phase
        if isinstance(action, Give) and not 0 <= action.seat < self.players:
            return IllegalAction(f"no seat {action.seat} at a table of {self.players}", "malformed")
        if isinstance(action, Take) and action.index not in (0, 1):
            return IllegalAction(f"there is no talon {action.index}: take 0 or 1", "malformed")
        if isinstance(action, Bid) and phase == BIDDING:
            values = self._bid_values(s)
            if not values:
                return IllegalAction(
                    f"seat {s} cannot raise the bid now and may only pass", "cannot_raise"
                )
            return _value_refusal(
                f"bid {action.value} is not allowed: bids now run from {values[0]} to {values[-1]}",
                action.value,
                values,
            )
        if isinstance(action, Contract) and phase == CONTRACT:
            values = self._contract_values()
            return _value_refusal(
                f"contract {action.value} is not allowed: contracts run from {values[0]} "
                f"to {values[-1]}",
                action.value,
                values,
            )
        if isinstance(action, Give) and phase == TALON and self.players > 2:
            if not self.hands[s] & bit(action.card):
                return IllegalAction(
                    f"seat {s} does not hold {card_text(action.card)}", "not_in_hand"
                )
            if action.seat not in self.opponents:
                return IllegalAction(
                    f"seat {action.seat} is not an opponent of the declarer", "not_opponent"
                )
            return IllegalAction(f"seat {action.seat} already received a card", "already_given")
        if isinstance(action, Discard) and phase == TALON:
            return IllegalAction(f"seat {s} does not hold {card_text(action.card)}", "not_in_hand")
        if isinstance(action, Play) and phase == PLAY:
            return self._play_refusal(s, action)
        if isinstance(action, Redeal):
            return IllegalAction(f"seat {s} has no redeal claim now", "no_redeal")
        if isinstance(action, WriteOff | Cross | Bomb) and phase in _AFTER_BIDDING:
            if phase == PLAY and not self._before_first_lead():
                return IllegalAction(f"{action} is only possible before the first lead", "too_late")
            return IllegalAction(f"seat {s} may not {action} this hand")
        if _PHASE_OF.get(type(action)) != phase:
            return IllegalAction(f"{action} is not possible in the {phase} phase", "wrong_phase")
        return IllegalAction(f"{action} is not possible in the {phase} phase")

    def _play_refusal(self, s: int, action: Play) -> IllegalAction:
        c = action.card
        hand = self.hands[s]
        if not hand & bit(c):
            return IllegalAction(f"seat {s} does not hold {card_text(c)}", "not_in_hand")
        if action.declare:
            if self.trick:
                message = "a marriage is declared only by leading its king or queen"
            elif not self.trick_counts[s] and not self.rules.marriage_first_lead:
                message = "a marriage may be declared only after taking a trick"
            else:
                message = f"{card_text(c)} is not part of a marriage in hand"
            return IllegalAction(message, "cannot_declare")
        if not self.trick:
            assert self.trump is not None
            trump = SUIT_CHARS[self.trump]
            if self.rules.must_lead_trump:
                return IllegalAction(
                    f"you must lead a trump ({trump})", "must_lead_trump", suit=trump
                )
            return IllegalAction(
                f"you may not lead the trump ({trump}) that another player declared",
                "no_foreign_trump",
                suit=trump,
            )
        led_suit = suit_of(self.trick[0][1])
        led = SUIT_CHARS[led_suit]
        if hand & SUIT_MASKS[led_suit]:
            if self.rules.must_beat and suit_of(c) == led_suit:
                return IllegalAction(
                    f"{card_text(c)} is too low: you must beat the trick when you can",
                    "must_beat",
                    suit=led,
                )
            return IllegalAction(
                f"{card_text(c)} does not follow suit: play a card of {led}",
                "must_follow",
                suit=led,
            )
        assert self.trump is not None
        trump = SUIT_CHARS[self.trump]
        if self.rules.must_beat and suit_of(c) == self.trump:
            return IllegalAction(
                f"{card_text(c)} is too low: you must over-trump when you can",
                "must_beat",
                suit=trump,
            )
        return IllegalAction(
            f"{card_text(c)}: with no {led} you must play a trump ({trump})",
            "must_trump",
            suit=trump,
        )


_PHASE_OF: dict[type, str] = {
    Dark: DARK,
    Look: DARK,
    Bid: BIDDING,
    Pass: BIDDING,
    Take: CHOOSE,
    Give: TALON,
    Discard: TALON,
    Decline: CLAIM,
    Contract: CONTRACT,
    Play: PLAY,
}
"""The phase an action belongs to, where it belongs to one (``redeal`` and the
ways to abandon a hand belong to several)."""


def _value_refusal(message: str, value: int, values: list[int]) -> IllegalAction:
    """A bid or contract outside ``values``: too low, too high, or off the step."""
    low, high = values[0], values[-1]
    if value < low:
        code = "bid_too_low"
    elif value > high:
        code = "bid_too_high"
    else:
        code = "bid_step"
    return IllegalAction(message, code, low=low, high=high)
