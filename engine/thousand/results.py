"""The result of a hand: what each seat scores before the match applies it.

This module owns a hand's score changes (RULES.md §8): card points and
declared marriages, rounding, made or failed contract, dark play and the
golden round doubled, the sitting-out dealer's talon (four players), bolts
(болты) for a hand without tricks or points, and the other ways a hand ends:
the write-off (роспись), cross and bomb. It hands the changes to
:mod:`.match`, which applies them.
"""

from __future__ import annotations

from .actions import (
    Bomb,
    Cross,
)
from .cards import (
    ACE_MARRIAGE_VALUE,
    ACES_MASK,
    MARRIAGE_VALUES,
    SUITS,
    count,
    marriage_mask,
    marriages_in,
    points,
)
from .scoring import round_points, write_off_share
from .table import (
    Table,
)


class HandResults(Table):
    """The hand-result part of a :class:`~thousand.Game`."""

    def _marriage_points(self) -> list[int]:
        """Declared marriages per seat; with ``marriage_needs_capture`` only those whose
        declaring player took their king or queen in a trick."""
        out = [0] * self.players
        for s, suit in self.marriages:
            if suit < 0:
                out[s] += ACE_MARRIAGE_VALUE
            elif not self.rules.marriage_needs_capture or self.won[s] & marriage_mask(suit):
                out[s] += MARRIAGE_VALUES[suit]
        return out

    def _score_hand(self) -> None:
        assert self.declarer is not None and self.contract is not None
        r = self.rules
        n = self.players
        d = self.declarer
        if self.players == 2:
            # Discards count for the declarer; the other talon is dead or
            # goes to whoever took the last trick.
            self.won[d] |= self.discarded
            dead = self.talons[0] if self.talon == self.talons[1] else self.talons[1]
            if r.two_player_second_talon == "last_trick":
                self.won[self.tricks[-1][2]] |= dead
        card_points = [points(w) for w in self.won]
        marriage_points = self._marriage_points()
        totals = [card_points[s] + marriage_points[s] for s in range(n)]
        rounded = [round_points(t, r.rounding) for t in totals]
        compared = rounded[d] if r.declarer_rounding else totals[d]
        made = compared >= self.contract
        golden = 2 if self.golden else 1
        deltas = [0] * n
        marks: list[list[str]] = [[] for _ in range(n)]
        for s in self.active:
            if s == d:
                result = self.contract if made else -self.contract
                if self.dark:
                    result = 2 * totals[d] if made and not r.dark_cap_240 else 2 * result
                    marks[d].append("dark")
                deltas[s] = result * golden
            elif not self._scores_nothing(s):
                if self.golden and r.golden_marriage_not_doubled:
                    doubled = round_points(2 * card_points[s] + marriage_points[s], r.rounding)
                    deltas[s] = doubled
                else:
                    deltas[s] = rounded[s] * golden
        if self.golden:
            for row in marks:
                row.append("golden")
            self.golden_made = self.golden_made or made
        self._dealer_talon_score(deltas, marks)
        self._bolts(deltas, marks, totals)
        self._finish_hand(
            "made" if made else "failed",
            deltas,
            marks,
            {
                "card_points": card_points,
                "marriage_points": marriage_points,
                "totals": totals,
                "rounded": rounded,
                "tricks": list(self.trick_counts),
            },
        )

    def _scores_nothing(self, s: int) -> bool:
        """A defender on the barrel (or past the Polish lock) scores nothing."""
        lock = self.rules.lock_at
        return (
            self.on_barrel[s]
            or self.at_380[s] is not None
            or (lock is not None and self.scores[s] >= lock)
        )

    def _dealer_talon_score(self, deltas: list[int], marks: list[list[str]]) -> None:
        """Four players: the dealer, sitting out, scores the talon (RULES.md §11)."""
        dealer = self.sitting_out
        if dealer is None or self._scores_nothing(dealer):
            return
        r = self.rules
        talon = self.talon
        marriage = sum(MARRIAGE_VALUES[s] for s in marriages_in(talon))
        if r.dealer_score == "flat_30":
            value = 30
        elif r.dealer_score == "aces_50":
            value = 50 * count(talon & ACES_MASK) + marriage
        else:
            value = points(talon) + marriage
            if r.talon_half_marriage:
                for suit in SUITS:
                    half = talon & marriage_mask(suit)
                    if half and half != marriage_mask(suit):
                        value += MARRIAGE_VALUES[suit] // 2
        deltas[dealer] = value * (2 if self.golden else 1)
        marks[dealer].append("talon")

    def _bolts(self, deltas: list[int], marks: list[list[str]], totals: list[int]) -> None:
        r = self.rules
        if r.bolt_mode == "off":
            return
        for s in self.active:
            if self.on_barrel[s] or (r.no_bolt_on_own_game and s == self.declarer):
                continue
            bolted = self.trick_counts[s] == 0 if r.bolt_rule == "no_tricks" else totals[s] == 0
            if not bolted:
                if r.bolt_mode == "consecutive":
                    self.bolts[s] = 0
                continue
            double = (self.dark and s == self.declarer and r.dark_double_bolt) or (
                self.golden and r.golden_double_bolt
            )
            self._add_bolts(s, 2 if double else 1, deltas, marks)

    def _add_bolts(self, s: int, k: int, deltas: list[int], marks: list[list[str]]) -> None:
        r = self.rules
        for _ in range(k):
            self.bolts[s] += 1
            marks[s].append("bolt")
            if self.bolts[s] >= 3:
                self.bolts[s] = 0
                deltas[s] -= r.penalty * (2 if self.golden else 1)
                marks[s].append("bolt_penalty")

    def _write_off(self) -> None:
        assert self.declarer is not None and self.bid is not None
        r = self.rules
        d = self.declarer
        value = self.contract if self.contract is not None else self.bid
        self.contract = value
        deltas = [0] * self.players
        marks: list[list[str]] = [[] for _ in range(self.players)]
        golden = 2 if self.golden else 1
        if not r.write_off_keeps_score:
            deltas[d] = -value * (2 if self.dark else 1) * golden
        self.write_offs[d] += 1
        if r.write_off_third_penalty and self.write_offs[d] == 3:
            deltas[d] -= r.penalty
            marks[d].append("penalty")
        share = 60 if self.players == 2 or r.write_off_flat_60 else write_off_share(value)
        for o in self.opponents:
            if not self._scores_nothing(o):
                deltas[o] = share * golden
        marks[d].append("writeoff")
        if self.golden:
            for row in marks:
                row.append("golden")
        self._dealer_talon_score(deltas, marks)
        self._finish_hand("writeoff", deltas, marks, {})

    def _abandon(self, act: Cross | Bomb) -> None:
        """Cross (крещусь) or bomb: the declarer gives the hand up without loss."""
        assert self.declarer is not None and self.bid is not None
        d = self.declarer
        self.contract = self.contract if self.contract is not None else self.bid
        deltas = [0] * self.players
        marks: list[list[str]] = [[] for _ in range(self.players)]
        if isinstance(act, Cross):
            marks[d].append("cross")
            for o in self.opponents:
                if not self.on_barrel[o]:
                    self._add_bolts(o, 1, deltas, marks)
            self._finish_hand("cross", deltas, marks, {})
            return
        self.bombs[d] += 1
        marks[d].append("bomb")
        for o in self.opponents:
            if not self._scores_nothing(o):
                deltas[o] = 60
        self._finish_hand("bomb", deltas, marks, {})
