"""What a hand's outcome is worth for the match, seen from one seat.

This module owns the bots' yardstick: a hand's score changes turned into a
match value for one seat — its own new score against the mean of the
others', with the match rules that bend it: the barrel (бочка) where a made
contract wins the match and a failed one falls, defenders on the barrel
scoring nothing, the score cap at the barrel, and the samosval (самосвал) at
555. Decisions compare these values, not raw hand points. Bolts (болт) are
not modelled yet: the search does not track who takes a trick.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WIN_VALUE = 1500.0
"""Worth of winning the match, in score points."""


@dataclass
class MatchContext:
    """The match state a hand's outcome lands on."""

    seat: int
    order: list[int]
    scores: list[int]
    on_barrel: list[bool]
    rules: dict[str, Any]

    @classmethod
    def from_view(cls, view: dict[str, Any], order: list[int]) -> MatchContext:
        n = int(view.get("players", 3))
        barrel = view.get("barrel") or [{"on": False}] * n
        return cls(
            seat=int(view["seat"]),
            order=order,
            scores=[int(x) for x in view.get("scores") or [0] * n],
            on_barrel=[bool(b.get("on")) for b in barrel],
            rules=dict(view.get("rules") or {}),
        )

    def _after(self, s: int, delta: int, declarer: int, made: bool, contract: int) -> float:
        r = self.rules
        penalty = int(r.get("penalty", 120))
        barrel_at = r.get("barrel_at", 880)
        target = 1001 if r.get("target_1001") else 1000
        before = self.scores[s]
        if self.on_barrel[s] and barrel_at is not None:
            if s == declarer:
                if made and before + contract >= target:
                    return before + contract + WIN_VALUE
                if not made:
                    return int(barrel_at) - penalty
            return before
        after = before + delta
        if barrel_at is not None and after >= int(barrel_at):
            after = int(barrel_at)
        elif barrel_at is None and after >= target:
            return after + WIN_VALUE
        if r.get("samosval") and (after == 555 or (r.get("samosval_negative") and after == -555)):
            after = 0
        return after

    def utility(self, deltas: dict[int, int], declarer: int, made: bool, contract: int) -> float:
        """This seat's value of the score changes ``deltas``: own score minus the others' mean."""
        values = {s: self._after(s, deltas.get(s, 0), declarer, made, contract) for s in self.order}
        others = [values[s] for s in self.order if s != self.seat]
        mean = sum(others) / len(others) if others else 0.0
        return values[self.seat] - mean

    # --- outcomes of one hand ---------------------------------------------------------------

    def play_outcome(self, declarer: int, contract: int, total: float) -> float:
        """Value of a played hand where the declarer ends with ``total`` points.

        The defenders share what the declarer does not take, equally.
        """
        made = total >= contract
        defenders = [s for s in self.order if s != declarer]
        share = max(0.0, 120.0 - min(total, 120.0)) / max(1, len(defenders))
        rounding = 5
        deltas = {declarer: contract if made else -contract}
        for s in defenders:
            deltas[s] = int(round(share / rounding) * rounding)
        return self.utility(deltas, declarer, made, contract)

    def write_off_outcome(self, declarer: int, value: int) -> float:
        r = self.rules
        half = -(-value // 2)
        share = 60 if r.get("write_off_flat_60") else -(-half // 5) * 5
        deltas = {declarer: 0 if r.get("write_off_keeps_score") else -value}
        for s in self.order:
            if s != declarer:
                deltas[s] = share
        return self.utility(deltas, declarer, False, value)
