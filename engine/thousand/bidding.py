"""The bidding and the declarer's talon: bids, contracts, redeal claims.

This module owns the auction (торговля): which bids a seat may make (the
step, the cap of 120 plus marriages, the barrel's least bid, dark play and
silence), who wins it and takes the talon (прикуп), the talon's passing on
(снос) and the claim for four nines received, the contract (заказ) values,
whether the declarer may write off (роспись), and every redeal claim
(пересдача) with its stable reason code.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import (
    ACE_MARRIAGE_VALUE,
    ACES_MASK,
    JACKS_MASK,
    NINES_MASK,
    CardSet,
    count,
    marriage_points_in,
    marriages_in,
    points,
)
from .table import (
    BIDDING,
    CHOOSE,
    CLAIM,
    CONTRACT,
    OBLIGATORY_BID,
    TALON,
    Table,
)


class RedealReason(NamedTuple):
    """Why a redeal may be claimed: a stable ``code`` (one of :data:`REDEAL_REASONS`),
    the threshold ``value`` where the rule has one (points), and the English ``text``."""

    code: str
    value: int | None
    text: str


REDEAL_REASONS: dict[str, str] = {
    "hand_below": "hand worth less than {value}",
    "four_nines": "four nines in hand",
    "four_jacks": "four jacks in hand",
    "talon_below": "talon worth less than {value}",
    "talon_two_nines": "two nines in the talon",
    "talon_three_nines": "three nines in the talon",
    "talon_three_jacks": "three jacks in the talon",
    "four_nines_with_talon": "four nines with the talon",
    "four_nines_after_pass": "four nines after the pass",
}
"""The codes of redeal claims, as a sheet row's ``reason_code``, with the English
text of its ``reason`` (``{value}`` is the row's ``reason_value``, a threshold)."""


def _reason(code: str, value: int | None = None) -> RedealReason:
    return RedealReason(code, value, REDEAL_REASONS[code].format(value=value))


_DEALER_PENALTY_REASONS = (
    "talon_three_nines",
    "four_nines",
    "four_nines_with_talon",
    "four_nines_after_pass",
)


class Bidding(Table):
    """The bidding and talon part of a :class:`~thousand.Game`."""

    def _marriage_value(self, cards: CardSet) -> int:
        value = marriage_points_in(cards)
        if self.rules.ace_marriage and cards & ACES_MASK == ACES_MASK:
            value += ACE_MARRIAGE_VALUE
        return value

    def _cap(self, cards: CardSet) -> int:
        """The highest bid or contract these cards allow (120 + their marriages)."""
        if self.rules.bid_cap == "none":
            return int(self.rules.max_bid)
        return min(int(self.rules.max_bid), 120 + self._marriage_value(cards))

    def _least_for(self, seat: int, value: int) -> int:
        """``value`` raised to what a player on the barrel must at least play: the
        barrel's least bid, and never less than what reaches the target."""
        if self.on_barrel[seat]:
            needed = self._target - self.scores[seat]
            return max(value, int(self.rules.barrel_min_bid), needed)
        return value

    def _values(self, low: int, high: int) -> list[int]:
        """Bid or contract values from ``low`` to ``high``: multiples of the step,
        plus ``low`` itself when a barrel minimum like 121 is not one."""
        step = int(self.rules.bid_step)
        start = -(-low // step) * step
        values = [low] if low % step and low <= high else []
        return values + list(range(start, high + 1, step))

    def _bid_values(self, seat: int) -> list[int]:
        r = self.rules
        if r.silence_below is not None and self.scores[seat] < r.silence_below:
            return []
        hand = self.hands[seat]
        # Against dark play only an opponent with a marriage may bid, and 125 at once.
        if self.dark and not (r.dark_undarken and marriages_in(hand)):
            return []
        step = int(r.bid_step)
        low = self._least_for(seat, (self.high_bid // step + 1) * step)
        high = self._cap(hand)
        values = self._values(low, high)
        if r.no_jump_bids:
            values = values[:1]
        return values

    def _contract_values(self) -> list[int]:
        assert self.declarer is not None and self.bid is not None
        low = self._least_for(self.declarer, self.bid)
        if self.dark or (self.golden and not self.rules.golden_raise):
            return [low]
        # A declarer who gave away a marriage card may not be able to reach
        # the bid any more; the bid itself always remains a contract.
        high = max(self._cap(self.hands[self.declarer]), low)
        return self._values(low, high)

    def _may_write_off(self) -> bool:
        r = self.rules
        s = self.declarer
        if s is None or not r.write_off:
            return False
        if self.dark and not r.dark_write_off:
            return False
        if self.on_barrel[s] and not r.write_off_on_barrel:
            return False
        limit = r.write_off_limit
        return not (limit is not None and self.write_offs[s] >= limit)

    def _redeal_reasons(self, seat: int) -> list[RedealReason]:
        """The redeal claims (пересдача) this seat may make now."""
        r = self.rules
        if self.phase == CLAIM:
            return [_reason("four_nines_after_pass")] if seat == self.turn else []
        is_declarer = seat == self.declarer and self.phase in (TALON, CONTRACT)
        # A hand-based claim is made before one has bid; the declarer may still make
        # it when they never spoke (first hand winning the obligatory 100).
        has_bid = any(s == seat for s, _ in self.bids[1:])
        may_claim_hand = not has_bid and (
            (
                self.phase == BIDDING
                and seat == self.turn
                and not (self.dark and seat == self.first_hand)
            )
            or is_declarer
        )
        if is_declarer and r.redeal_only_at_100 and (self.raised or self.bid != OBLIGATORY_BID):
            return []
        reasons: list[RedealReason] = []
        dealt = self.dealt[seat]
        if may_claim_hand:
            if r.redeal_hand_below is not None and points(dealt) < r.redeal_hand_below:
                reasons.append(_reason("hand_below", r.redeal_hand_below))
            if r.redeal_four_nines and dealt & NINES_MASK == NINES_MASK:
                reasons.append(_reason("four_nines"))
            if r.redeal_four_jacks and dealt & JACKS_MASK == JACKS_MASK:
                reasons.append(_reason("four_jacks"))
        if is_declarer:
            talon = self.talon
            if r.redeal_talon_below is not None and points(talon) < r.redeal_talon_below:
                reasons.append(_reason("talon_below", r.redeal_talon_below))
            nines = count(talon & NINES_MASK)
            if r.redeal_two_nines_talon and nines == 2:
                reasons.append(_reason("talon_two_nines"))
            if r.redeal_three_nines_talon and nines == 3:
                reasons.append(_reason("talon_three_nines"))
            if r.redeal_three_jacks_talon and count(talon & JACKS_MASK) == 3:
                reasons.append(_reason("talon_three_jacks"))
            if r.redeal_four_nines_after_pass and (dealt | talon) & NINES_MASK == NINES_MASK:
                reasons.append(_reason("four_nines_with_talon"))
        return reasons

    def _advance_bidding(self) -> None:
        in_auction = [s for s in self.active if not self.passed[s]]
        if len(in_auction) == 1:
            self._take_talon(in_auction[0])
            return
        s = self._next(self.turn)
        while self.passed[s]:
            s = self._next(s)
        self.turn = s

    def _take_talon(self, declarer: int) -> None:
        self.declarer = declarer
        self.bid = self.high_bid
        self.turn = declarer
        at_100 = not self.raised and self.high_bid == OBLIGATORY_BID
        hidden = self.dark or self.golden or (self.rules.hidden_talon_at_100 and at_100)
        self.talon_shown = not hidden
        if self.players == 2:
            self.phase = CHOOSE
            return
        self.hands[declarer] |= self.talon
        self.phase = TALON

    def _take_talon_of_two(self, index: int) -> None:
        assert self.declarer is not None
        self.talon = self.talons[index]
        self.hands[self.declarer] |= self.talon
        self.phase = TALON

    def _after_passing(self) -> None:
        r = self.rules
        if r.four_nines_bonus:
            self.nines_bonus = [s for s in self.active if self.hands[s] & NINES_MASK == NINES_MASK]
        if r.redeal_four_nines_after_pass and self.players > 2:
            self.claimants = [o for o in self.opponents if self.hands[o] & NINES_MASK == NINES_MASK]
        self._next_claim()

    def _next_claim(self) -> None:
        assert self.declarer is not None
        if self.claimants:
            self.phase = CLAIM
            self.turn = self.claimants.pop(0)
        else:
            self.phase = CONTRACT
            self.turn = self.declarer

    def _redeal(self, seat: int) -> None:
        reason = self._redeal_reasons(seat)[0]
        deltas = [0] * self.players
        marks: list[list[str]] = [[] for _ in range(self.players)]
        if self.rules.redeal_penalty_dealer and reason.code in _DEALER_PENALTY_REASONS:
            deltas[self.dealer] = -self.rules.penalty
            marks[self.dealer].append("penalty")
            self.scores[self.dealer] -= self.rules.penalty
        self.sheet.append(
            {
                "hand": self.hand_no + 1,
                "dealer": self.dealer,
                "result": "redeal",
                "claimant": seat,
                "reason": reason.text,
                "reason_code": reason.code,
                "reason_value": reason.value,
                "declarer": self.declarer,
                "bid": self.bid,
                "contract": None,
                "deltas": deltas,
                "scores": list(self.scores),
                "marks": marks,
            }
        )
        self._deal()
