"""The play phase of a match: the game's tricks on the shared trick rules.

This module owns how a :class:`~thousand.Game` plays its cards: the legal
leads and follows and the marriage declarations of the seat to move, a card
played (declaring, the ace marriage, the trick completed and taken), and the
hand's end when the last card is played. The rules themselves are those of
:mod:`thousand.position`, the same functions the search bot's solver uses.
"""

from __future__ import annotations

from .actions import (
    Action,
    Play,
)
from .cards import (
    ACE,
    Card,
    CardSet,
    bit,
    iter_cards,
    points,
    rank_of,
    suit_of,
)
from .position import (
    NO_TRUMP,
    Position,
    beats,
    declaration,
    declaring,
    follow_key,
    follow_table,
    followable,
    leadable,
    shows_trump,
    trick_winner,
)
from .table import PLAY, Table


class TrickPlay(Table):
    """The trick-play part of a :class:`~thousand.Game`."""

    def _plays(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        out: list[Action] = []
        if not self.trick:
            for c in iter_cards(self._leadable(seat)):
                out.append(Play(c))
            for c in iter_cards(hand):
                if self._may_declare(seat, c):
                    out.append(Play(c, declare=True))
            return out
        for c in iter_cards(self._followable(hand)):
            out.append(Play(c))
        return out

    def _leadable(self, seat: int) -> CardSet:
        """The cards ``seat`` may lead (without declaring)."""
        trump = NO_TRUMP if self.trump is None else self.trump
        return leadable(self.hands[seat], trump, self.trump_by != seat, self._trick_rules)

    def _followable(self, hand: CardSet) -> CardSet:
        """The cards of ``hand`` that may follow the trick on the table."""
        trump = NO_TRUMP if self.trump is None else self.trump
        led = self.trick[0][1]
        best = led
        for _, c in self.trick[1:]:
            if beats(c, best, trump):
                best = c
        rows = follow_table(self._trick_rules.must_beat)[follow_key(led // 6, best, trump)]
        return followable(hand, rows)

    def _may_declare(self, seat: int, c: Card) -> bool:
        """Whether leading ``c`` may declare a marriage (or the ace marriage)."""
        if not (self.trick_counts[seat] > 0 or self.rules.marriage_first_lead):
            return False
        return bool(declaring(self.hands[seat], self._trick_rules) & bit(c))

    def _play(self, s: int, act: Play) -> None:
        c = act.card
        hand_before = self.hands[s]
        r = self._trick_rules
        if act.declare:
            trump = NO_TRUMP if self.trump is None else self.trump
            trump_by = -1 if self.trump_by is None else self.trump_by
            declared = declaration(c, s, trump, trump_by, r)
            if rank_of(c) == ACE:
                self.ace_marriage_by = s
                self.marriages.append((s, -1))
            else:
                self.marriages.append((s, suit_of(c)))
            self.trump = None if declared.trump == NO_TRUMP else declared.trump
            self.trump_by = None if declared.trump_by < 0 else declared.trump_by
        self.hands[s] &= ~bit(c)
        ace_by = -1 if self.ace_marriage_by is None else self.ace_marriage_by
        if shows_trump(c, hand_before, s, ace_by, r):
            # The last of the four aces shows the trump suit.
            self.trump, self.trump_by = suit_of(c), s
        self.trick.append((s, c))
        if len(self.trick) < len(self.active):
            self.turn = self._next(s)
            return
        winner = self._trick_winner()
        self._last_trick_winner = winner
        for _, played in self.trick:
            self.won[winner] |= bit(played)
        self.trick_counts[winner] += 1
        self.tricks.append((self.trick[0][0], tuple(self.trick), winner))
        self.trick = []
        self.turn = winner
        if not any(self.hands):
            self._score_hand()

    def _trick_winner(self) -> int:
        return trick_winner(self.trick, NO_TRUMP if self.trump is None else self.trump)

    def trick_position(self) -> Position:
        """The play phase as a perfect-information :class:`~thousand.position.Position`
        (every hand known), for search and checks; ``ValueError`` outside play."""
        if self.phase != PLAY:
            raise ValueError(f"no trick play in the {self.phase} phase")
        pts = [points(w) for w in self.won]
        for seat, value in enumerate(self._marriage_points()):
            pts[seat] += value
        bonus = 0
        if self.players == 2 and self.rules.two_player_second_talon == "last_trick":
            bonus = points(self.talons[0] if self.talon == self.talons[1] else self.talons[1])
        return Position(
            self._trick_rules,
            self.active,
            self.hands,
            self.turn,
            self.trick,
            NO_TRUMP if self.trump is None else self.trump,
            -1 if self.trump_by is None else self.trump_by,
            -1 if self.ace_marriage_by is None else self.ace_marriage_by,
            sum(1 << s for s in self.active if self.trick_counts[s]),
            pts,
            bonus,
        )
