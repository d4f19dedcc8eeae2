"""The match: a hand's result applied to the scores, the sheet and the winner.

This module owns what lasts from hand to hand: the four nines bonus, the
barrel (бочка) and falling off it, the intermediate barrel at 380, the
reverse barrel, samosval (самосвал: 555 back to 0), the golden round's
count and reset, the score sheet's rows, the winner, and the next dealer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import (
    texts_of,
)
from .table import (
    FOUR_NINES_BONUS,
    INTERMEDIATE_BARREL,
    OVER,
    Table,
)


class Match(Table):
    """The match part of a :class:`~thousand.Game`."""

    def _check_scores(self, scores: Sequence[int]) -> list[int]:
        if not isinstance(scores, list | tuple) or len(scores) != self.players:
            raise ValueError(f"scores must list {self.players} whole numbers")
        for value in scores:
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"scores must be whole numbers, not {value!r}")
            if value >= self._target:
                raise ValueError(f"a starting score must be below {self._target}, not {value}")
        return list(scores)

    def _finish_hand(
        self, result: str, deltas: list[int], marks: list[list[str]], details: dict[str, Any]
    ) -> None:
        """Apply a hand's score changes with the barrel rules and write the sheet row."""
        r = self.rules
        n = self.players
        d = self.declarer
        assert d is not None and self.contract is not None
        for s in self.nines_bonus:
            # "Whatever the result of the hand" (seed 004), so a write-off too.
            deltas[s] += FOUR_NINES_BONUS
            marks[s].append("four_nines")
        before = list(self.scores)
        new = [before[s] + deltas[s] for s in range(n)]
        barrel_at = r.barrel_at
        winner: int | None = None

        def fall(s: int, base: int) -> None:
            if r.barrel_fall_to == "minus_penalty":
                new[s] = base - r.penalty
            elif r.barrel_fall_to == "500":
                new[s] = 500
            else:
                new[s] = base - (self.last_bids[s] or r.penalty)
            self.falls[s] += 1
            self.on_barrel[s] = False
            self.barrel_hands[s] = 0
            marks[s].append("fall")
            if r.barrel_three_falls_zero and self.falls[s] >= 3:
                new[s] = 0
                self.falls[s] = 0
                marks[s].append("zero")

        if r.intermediate_barrel_380:
            self._intermediate_barrel(before, new, marks, result)
        for s in range(n):
            if not self.on_barrel[s]:
                continue
            if s == d and result == "made":
                new[s] = before[s] + deltas[s]
                if new[s] >= self._target:
                    winner = s
                    marks[s].append("win")
                continue
            if s == d and result in ("failed", "writeoff"):
                fall(s, before[s])
                continue
            new[s] = before[s]
            if s == self.sitting_out or (s == d and result in ("cross", "bomb")):
                continue  # a dealer sitting out does not use up an attempt
            self.barrel_hands[s] += 1
            marks[s].append(f"barrel_hand_{self.barrel_hands[s]}")
            if self.barrel_hands[s] >= r.barrel_attempts:
                fall(s, before[s])

        if barrel_at is not None:
            # Even in the hand somebody wins, a score past the barrel stops at it.
            arriving = [s for s in range(n) if not self.on_barrel[s] and new[s] >= barrel_at]
            for s in arriving:
                new[s] = barrel_at
                self.on_barrel[s] = True
                self.barrel_hands[s] = 0
                marks[s].append("barrel")
            if r.one_on_barrel and arriving:
                if len(arriving) > 1:
                    for s in arriving:
                        fall(s, barrel_at)
                else:
                    for s in range(n):
                        if self.on_barrel[s] and s not in (arriving[0], winner):
                            marks[s].append("knocked_off")
                            fall(s, barrel_at)
        elif winner is None:
            reached = [s for s in range(n) if new[s] >= self._target]
            if reached:
                winner = max(reached, key=lambda s: (new[s], s == d))
                marks[winner].append("win")

        if r.samosval:
            for s in range(n):
                if new[s] == 555 or (r.samosval_negative and new[s] == -555):
                    new[s] = 0
                    marks[s].append("samosval")
        if r.reverse_barrel and winner is None:
            winner = self._reverse_barrel(new, marks)

        self.scores = new
        self.hand_no += 1
        row: dict[str, Any] = {
            "hand": self.hand_no,
            "dealer": self.dealer,
            "result": result,
            "declarer": d,
            "bid": self.bid,
            "contract": self.contract,
            "dark": self.dark,
            "golden": self.golden,
            "talon": texts_of(self.talon) if self.talon_shown else None,
            "deltas": [new[s] - before[s] for s in range(n)],
            "scores": list(new),
            "marks": marks,
        }
        row.update(details)
        self.sheet.append(row)
        if winner is not None:
            self.winner = winner
            self.phase = OVER
            return
        self._end_golden_hand()
        self.dealer = (self.dealer + 1) % n
        self._deal()

    def _intermediate_barrel(
        self, before: list[int], new: list[int], marks: list[list[str]], result: str
    ) -> None:
        """The intermediate barrel at 380: a player who reaches it stops there, scores
        nothing as a defender, and moves on only by making a contract of their own
        within ``barrel_attempts`` hands; otherwise they fall by the penalty."""
        r = self.rules
        d = self.declarer
        fallen = INTERMEDIATE_BARREL - r.penalty
        for s in range(self.players):
            hands = self.at_380[s]
            if hands is None:
                crossed = before[s] < INTERMEDIATE_BARREL <= new[s]
                if crossed and not (s == d and result == "made"):
                    new[s] = INTERMEDIATE_BARREL
                    self.at_380[s] = 0
                    marks[s].append("barrel_380")
                continue
            if s == d and result == "made":
                self.at_380[s] = None
                continue
            if s == d and result in ("failed", "writeoff"):
                new[s], self.at_380[s] = fallen, None
                marks[s].append("fall_380")
                continue
            new[s] = before[s]
            if s == self.sitting_out:
                continue
            if hands + 1 >= r.barrel_attempts:
                new[s], self.at_380[s] = fallen, None
                marks[s].append("fall_380")
            else:
                self.at_380[s] = hands + 1
                marks[s].append(f"barrel_380_hand_{hands + 1}")

    def _reverse_barrel(self, new: list[int], marks: list[list[str]]) -> int | None:
        """Reverse barrel (обратная бочка): −880 must reach −1000 within three hands.

        Reaching it ends the match (that player has lost; the best score wins);
        failing in time puts the player back to −760.
        """
        r = self.rules
        for s in range(self.players):
            if new[s] <= -self._target:
                marks[s].append("reverse_barrel_out")
                return max(range(self.players), key=lambda k: new[k])
            entry = self.reverse_hands[s]
            if entry is None:
                if new[s] <= -880:
                    new[s] = -880
                    self.reverse_hands[s] = 0
                    marks[s].append("reverse_barrel")
                continue
            if new[s] > -880:
                self.reverse_hands[s] = None
                continue
            new[s] = -880
            self.reverse_hands[s] = entry + 1
            if entry + 1 >= r.barrel_attempts:
                new[s] = -880 + r.penalty
                self.reverse_hands[s] = None
                marks[s].append("fall")
        return None

    def _end_golden_hand(self) -> None:
        if not self.golden:
            return
        self.golden_left -= 1
        if self.golden_left or self.golden_made:
            return
        r = self.rules
        if r.golden_reset:
            self.scores = [0] * self.players
            row = dict(self.sheet[-1])
            row["scores"] = list(self.scores)
            row["marks"] = [[*m, "golden_reset"] for m in row["marks"]]
            self.sheet[-1] = row
        if r.golden_repeat:
            self.golden_left = min(self.players, 3)
