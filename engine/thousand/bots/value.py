"""What a hand's outcome is worth for the match, seen from one seat.

This module owns the bots' yardstick: a hand's score changes turned into a
match value for one seat — its own new score against the mean of the
others', with the match rules that bend it: the barrel (бочка) where a made
contract wins the match and a failed one falls, defenders on the barrel
scoring nothing, its attempts (a player who does not win within them
falls), falls and the third fall back to zero, the score cap at the
barrel, the samosval (самосвал) at 555, the penalty for a third write-off
and for a third bolt (болт: a hand without a trick, here a hand without a
point). Decisions compare these values, not raw hand points. The values
include the score as it stands, so a decision compares them with each
other or with :meth:`MatchContext.standing` (what a redeal leaves), never
with a bare number; the value of passing in the bidding is the same kind of
value (:meth:`MatchContext.defend_outcome`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

WIN_VALUE = 1500.0
"""Worth of winning the match, in score points."""

DEFENDED_MADE = 0.55
"""Share of the contracts a defender sees made, as the levels' bidding figures give it."""

DEFENDED_MADE_BY = 5
"""Points by which a contract that is made passes it, in a typical defended hand."""

DEFENDED_FAIL_BY = 30
"""Points by which a contract that fails is short of it, in a typical defended hand."""


@dataclass
class MatchContext:
    """The match state a hand's outcome lands on."""

    seat: int
    order: list[int]
    scores: list[int]
    on_barrel: list[bool]
    rules: dict[str, Any]
    barrel_hands: list[int] = field(default_factory=list)
    falls: list[int] = field(default_factory=list)
    write_offs: list[int] = field(default_factory=list)
    bolts: list[int] = field(default_factory=list)

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
            barrel_hands=[int(b.get("hands", 0)) for b in barrel],
            falls=[int(b.get("falls", 0)) for b in barrel],
            write_offs=[int(x) for x in view.get("write_offs") or [0] * n],
            bolts=[int(x) for x in view.get("bolts") or [0] * n],
        )

    def _fall(self, s: int, base: int) -> float:
        """Seat ``s``'s score after falling off the barrel at ``base``."""
        r = self.rules
        penalty = int(r.get("penalty", 120))
        mode = r.get("barrel_fall_to", "minus_penalty")
        after = 500 if mode == "500" else base - penalty
        falls = self.falls[s] if s < len(self.falls) else 0
        if r.get("barrel_three_falls_zero", True) and falls + 1 >= 3:
            after = 0
        return after

    def _bolt(self, s: int) -> int:
        """What one more bolt costs seat ``s`` now: the penalty on every third one."""
        r = self.rules
        if r.get("bolt_mode", "total") == "never" or s >= len(self.bolts):
            return 0
        return int(r.get("penalty", 120)) if self.bolts[s] % 3 == 2 else 0

    def _after(self, s: int, delta: int, declarer: int, made: bool, contract: int) -> float:
        r = self.rules
        barrel_at = r.get("barrel_at", 880)
        target = 1001 if r.get("target_1001") else 1000
        before = self.scores[s]
        if self.on_barrel[s] and barrel_at is not None:
            if s == declarer:
                if made and before + contract >= target:
                    return before + contract + WIN_VALUE
                if not made:
                    return self._fall(s, before)
            hands = self.barrel_hands[s] if s < len(self.barrel_hands) else 0
            if hands + 1 >= int(r.get("barrel_attempts", 3)):
                return self._fall(s, before)
            return before
        after = before + delta
        if barrel_at is not None and after >= int(barrel_at):
            after = int(barrel_at)
        elif barrel_at is None and after >= target:
            return after + WIN_VALUE
        if r.get("samosval") and (after == 555 or (r.get("samosval_negative") and after == -555)):
            after = 0
        return after

    def _versus_others(self, values: dict[int, float]) -> float:
        """This seat's value less the mean of the others'."""
        others = [values[s] for s in self.order if s != self.seat]
        mean = sum(others) / len(others) if others else 0.0
        return values[self.seat] - mean

    def standing(self) -> float:
        """This seat's value of the match as it stands, as a redeal leaves it."""
        return self._versus_others({s: float(self.scores[s]) for s in self.order})

    def fresh(self) -> MatchContext:
        """The same table at the start of a match: no scores, nobody on the barrel."""
        n = len(self.scores)
        return replace(
            self,
            scores=[0] * n,
            on_barrel=[False] * n,
            barrel_hands=[0] * n,
            falls=[0] * n,
            write_offs=[0] * n,
            bolts=[0] * n,
        )

    def utility(self, deltas: dict[int, int], declarer: int, made: bool, contract: int) -> float:
        """This seat's value of the score changes ``deltas``: own score minus the others' mean."""
        values = {s: self._after(s, deltas.get(s, 0), declarer, made, contract) for s in self.order}
        return self._versus_others(values)

    # --- outcomes of one hand ---------------------------------------------------------------

    def play_outcome(
        self,
        declarer: int,
        contract: int,
        total: float,
        extra: dict[int, float] | None = None,
    ) -> float:
        """Value of a played hand where the declarer ends with ``total`` points.

        The defenders share what the declarer does not take, equally, plus
        ``extra`` (a defender's marriages, or how far its own points are from
        the even share); a defender left without a point takes a bolt.
        """
        made = total >= contract
        defenders = [s for s in self.order if s != declarer]
        share = max(0.0, 120.0 - min(total, 120.0)) / max(1, len(defenders))
        rounding = 5
        deltas = {declarer: contract if made else -contract}
        for s in defenders:
            own = share + (extra.get(s, 0.0) if extra else 0.0)
            deltas[s] = int(round(own / rounding) * rounding)
            if own <= 0:
                deltas[s] -= self._bolt(s)
        return self.utility(deltas, declarer, made, contract)

    def defend_outcome(self, declarers: list[int], contract: int) -> float:
        """Value of defending a hand that one of ``declarers`` plays at ``contract``.

        Each is as likely to declare; the contract is made in the share
        :data:`DEFENDED_MADE` of hands, by :data:`DEFENDED_MADE_BY`, and fails by
        :data:`DEFENDED_FAIL_BY` otherwise. With no one else to declare, the match stands as it is.
        """
        if not declarers:
            return self.standing()
        total = 0.0
        for d in declarers:
            made = self.play_outcome(d, contract, float(contract + DEFENDED_MADE_BY))
            failed = self.play_outcome(d, contract, float(contract - DEFENDED_FAIL_BY))
            total += DEFENDED_MADE * made + (1 - DEFENDED_MADE) * failed
        return total / len(declarers)

    def write_off_outcome(self, declarer: int, value: int) -> float:
        r = self.rules
        half = -(-value // 2)
        share = 60 if r.get("write_off_flat_60") else -(-half // 5) * 5
        deltas = {declarer: 0 if r.get("write_off_keeps_score") else -value}
        mine = self.write_offs[declarer] if declarer < len(self.write_offs) else 0
        if r.get("write_off_third_penalty") and mine + 1 == 3:
            deltas[declarer] -= int(r.get("penalty", 120))
        if len(self.order) == 2:
            share = 60
        for s in self.order:
            if s != declarer:
                deltas[s] = share
        return self.utility(deltas, declarer, False, value)
