"""Trick play with every card known: the rules of a trick and a position to search.

This module owns the rules of trick play (розыгрыш) in one place: which
cards a seat may lead, which it may follow with (follow suit, else trump,
and with ``must_beat`` higher when it can), which leads declare a marriage
(марьяж, or the ace marriage, тузовый марьяж), what a declaration does to
the trump, and who wins a trick. The match (:class:`thousand.Game`) asks
these functions on every card, and the search bot's solver
(:mod:`thousand.bots.solver`) asks the very same ones inside its search, so
a rule has one implementation.

:class:`Position` is the perfect-information state of trick play: bitmask
hands, the trick on the table, the trump and who declared it, who may
declare. It copies in a few list copies, lists its legal moves and plays
them; a search or a test can run a whole hand on it.

Cards and sets are the ints and bitmasks of :mod:`thousand.cards`; a trump
is a suit ``0..3`` or :data:`NO_TRUMP`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple

from .cards import (
    ACE,
    ACE_MARRIAGE_VALUE,
    ACES_MASK,
    CARD_POINTS,
    DECK_SIZE,
    MARRIAGE_VALUES,
    SUIT_MASKS,
    SUITS,
    Card,
    CardSet,
    iter_cards,
)

NO_TRUMP = -1
"""The trump of a hand in which nobody has declared one yet."""

SUIT_LOW = 0x41041
"""Bit 0 of every suit: one bit per suit after a shift (the marriage test's mask)."""


class TrickRules(NamedTuple):
    """The options of :class:`thousand.Rules` that decide trick play."""

    must_beat: bool = False
    must_lead_trump: bool = False
    no_lead_foreign_trump: bool = False
    marriage_first_lead: bool = False
    ace_marriage: bool = False
    ace_marriage_trump: str = "none"

    @classmethod
    def of(cls, rules: Any) -> TrickRules:
        """The trick rules of a :class:`~thousand.Rules` value or of its ``to_dict()``."""
        d = cls()

        def get(name: str, default: object) -> Any:
            if isinstance(rules, Mapping):
                return rules.get(name, default)
            return getattr(rules, name)

        return cls(
            must_beat=bool(get("must_beat", d.must_beat)),
            must_lead_trump=bool(get("must_lead_trump", d.must_lead_trump)),
            no_lead_foreign_trump=bool(get("no_lead_foreign_trump", d.no_lead_foreign_trump)),
            marriage_first_lead=bool(get("marriage_first_lead", d.marriage_first_lead)),
            ace_marriage=bool(get("ace_marriage", d.ace_marriage)),
            ace_marriage_trump=str(get("ace_marriage_trump", d.ace_marriage_trump)),
        )


# --- the rules ----------------------------------------------------------------------------


def beats(c: Card, best: Card, trump: int) -> bool:
    """Whether ``c`` takes the trick from ``best``: higher in its suit, or a trump."""
    if c // 6 == best // 6:
        return c > best
    return c // 6 == trump


def _beats_table() -> bytes:
    return bytes(
        beats(c, best, trump)
        for trump in (NO_TRUMP, *SUITS)
        for best in range(DECK_SIZE)
        for c in range(DECK_SIZE)
    )


BEATS = _beats_table()
""":func:`beats` as a table for search: ``BEATS[(trump + 1) * 576 + best * 24 + c]``."""


def trick_winner(trick: Sequence[tuple[int, Card]], trump: int) -> int:
    """The seat that takes the (complete or not) ``trick`` of ``(seat, card)`` pairs."""
    best_seat, best = trick[0]
    for seat, c in trick[1:]:
        if beats(c, best, trump):
            best_seat, best = seat, c
    return best_seat


def _above(c: Card) -> CardSet:
    """The cards of ``c``'s suit that rank above it."""
    return SUIT_MASKS[c // 6] & ~((2 << c) - 1)


@cache
def follow_table(must_beat: bool) -> tuple[tuple[CardSet, ...], ...]:
    """For each trick state (its index is :func:`follow_key`), the sets a follower
    must play from, in order: the first one the hand meets is the legal set, and a
    hand that meets none may play anything.

    This is the whole follow rule: follow the suit led; without it, trump; with
    ``must_beat``, beat the best card of the trick (in the suit led unless it has
    been trumped, else with a higher trump) when the hand can.
    """
    table: list[tuple[CardSet, ...]] = [()] * (5 * DECK_SIZE * DECK_SIZE)
    for led in SUITS:
        for best in range(DECK_SIZE):
            for trump in (NO_TRUMP, *SUITS):
                order: list[CardSet] = []
                if must_beat and best // 6 == led:
                    order.append(_above(best))
                order.append(SUIT_MASKS[led])
                if trump != NO_TRUMP and trump != led:
                    if must_beat and best // 6 == trump:
                        order.append(_above(best))
                    order.append(SUIT_MASKS[trump])
                table[follow_key(led, best, trump)] = tuple(order)
    return tuple(table)


def follow_key(led: int, best: Card, trump: int) -> int:
    """The index of a trick state in :func:`follow_table`: the index of ``best``'s row
    in :data:`BEATS` plus the suit led, so a search computes both with one sum."""
    return (trump + 1) * 576 + best * DECK_SIZE + led


def followable(hand: CardSet, sets: tuple[CardSet, ...]) -> CardSet:
    """The cards of ``hand`` that may follow, given the trick state's ``follow_table`` row."""
    for allowed in sets:
        legal = hand & allowed
        if legal:
            return legal
    return hand


def leadable(hand: CardSet, trump: int, foreign: bool, rules: TrickRules) -> CardSet:
    """The cards of ``hand`` that may lead (without declaring).

    ``foreign`` says the trump was declared by another seat: with
    ``no_lead_foreign_trump`` such a trump is not led while the hand holds
    another suit; with ``must_lead_trump`` a hand holding a trump leads one.
    """
    if trump == NO_TRUMP:
        return hand
    trumps = hand & SUIT_MASKS[trump]
    if not trumps:
        return hand
    if rules.must_lead_trump:
        return trumps
    if rules.no_lead_foreign_trump and foreign and hand != trumps:
        return hand & ~trumps
    return hand


def marriage_pairs(hand: CardSet) -> int:
    """Bit ``6*suit`` set for every suit whose king and queen are both in ``hand``."""
    return (hand >> 3) & (hand >> 2) & SUIT_LOW


def declaring(hand: CardSet, rules: TrickRules) -> CardSet:
    """The cards whose lead may declare: both cards of every marriage in ``hand``, and
    with ``ace_marriage`` the four aces when the hand holds them all.

    Whether the seat may declare at all (it has taken a trick, or the rules
    allow a marriage on the first lead) is the caller's question.
    """
    pairs = (hand >> 3) & (hand >> 2) & SUIT_LOW  # marriage_pairs, inline for search
    out = (pairs << 2) | (pairs << 3)
    if rules.ace_marriage and hand & ACES_MASK == ACES_MASK:
        out |= ACES_MASK
    return out


def declaration(c: Card, seat: int, trump: int, trump_by: int, rules: TrickRules) -> Declared:
    """What leading ``c`` and declaring does: the points, and the trump after it."""
    if c % 6 == ACE:
        if rules.ace_marriage_trump != "none":
            return Declared(ACE_MARRIAGE_VALUE, NO_TRUMP, -1)
        return Declared(ACE_MARRIAGE_VALUE, trump, trump_by)
    return Declared(MARRIAGE_VALUES[c // 6], c // 6, seat)


class Declared(NamedTuple):
    points: int
    trump: int
    trump_by: int


def shows_trump(c: Card, hand_before: CardSet, seat: int, ace_by: int, rules: TrickRules) -> bool:
    """With ``ace_marriage_trump == "last_ace"``: whether ``c``, the last of the four
    aces of the seat that declared them, makes its suit trump."""
    return (
        seat == ace_by
        and c % 6 == ACE
        and rules.ace_marriage_trump == "last_ace"
        and hand_before & ACES_MASK == 1 << c
    )


# --- a position ---------------------------------------------------------------------------


class Position:
    """Trick play with all hands known.

    ``order`` is the seats that play, clockwise; ``hands`` is indexed by seat;
    ``trick`` the cards on the table, led by its first seat (else ``turn``
    leads); ``trump``/``trump_by`` the trump and who declared it (``-1``:
    nobody); ``ace_by`` who declared the ace marriage (``-1``: nobody);
    ``eligible`` has bit ``seat`` set for every seat that has taken a trick;
    ``points`` the card and marriage points each seat has taken so far, and
    ``last_trick_bonus`` the points the last trick carries besides its cards
    (two players with ``two_player_second_talon == "last_trick"``).
    """

    __slots__ = (
        "ace_by",
        "eligible",
        "hands",
        "last_trick_bonus",
        "next_seat",
        "order",
        "points",
        "rules",
        "trick",
        "trump",
        "trump_by",
        "turn",
    )

    def __init__(
        self,
        rules: TrickRules,
        order: Sequence[int],
        hands: Sequence[CardSet],
        turn: int,
        trick: Sequence[tuple[int, Card]] = (),
        trump: int = NO_TRUMP,
        trump_by: int = -1,
        ace_by: int = -1,
        eligible: int = 0,
        points: Sequence[int] | None = None,
        last_trick_bonus: int = 0,
    ) -> None:
        self.rules = rules
        self.order = tuple(order)
        self.next_seat = {s: self.order[(k + 1) % len(self.order)] for k, s in enumerate(order)}
        self.hands = list(hands)
        self.turn = turn
        self.trick = list(trick)
        self.trump = trump
        self.trump_by = trump_by
        self.ace_by = ace_by
        self.eligible = eligible
        self.points = list(points) if points is not None else [0] * len(self.hands)
        self.last_trick_bonus = last_trick_bonus

    def copy(self) -> Position:
        p = Position.__new__(Position)
        for name in Position.__slots__:
            setattr(p, name, getattr(self, name))
        p.hands, p.trick, p.points = list(self.hands), list(self.trick), list(self.points)
        return p

    @property
    def over(self) -> bool:
        return not any(self.hands[s] for s in self.order)

    def may_declare(self, seat: int) -> bool:
        return self.rules.marriage_first_lead or bool(self.eligible >> seat & 1)

    def legal_moves(self) -> list[tuple[Card, bool]]:
        """Every ``(card, declare)`` the seat to move may play, cards ascending."""
        seat = self.turn
        hand = self.hands[seat]
        if self.trick:
            led = self.trick[0][1] // 6
            best = self.trick[0][1]
            for _, c in self.trick[1:]:
                if beats(c, best, self.trump):
                    best = c
            rows = follow_table(self.rules.must_beat)[follow_key(led, best, self.trump)]
            return [(c, False) for c in iter_cards(followable(hand, rows))]
        foreign = self.trump_by != seat
        out = [(c, False) for c in iter_cards(leadable(hand, self.trump, foreign, self.rules))]
        if self.may_declare(seat):
            out += [(c, True) for c in iter_cards(declaring(hand, self.rules))]
        return sorted(out)

    def play(self, c: Card, declare: bool = False) -> int | None:
        """Play a legal move; returns the winner when it completes the trick."""
        seat = self.turn
        hand = self.hands[seat]
        r = self.rules
        if declare:
            d = declaration(c, seat, self.trump, self.trump_by, r)
            self.points[seat] += d.points
            self.trump, self.trump_by = d.trump, d.trump_by
            if c % 6 == ACE:
                self.ace_by = seat
        if shows_trump(c, hand, seat, self.ace_by, r):
            self.trump, self.trump_by = c // 6, seat
        self.hands[seat] = hand & ~(1 << c)
        self.trick.append((seat, c))
        if len(self.trick) < len(self.order):
            self.turn = self.next_seat[seat]
            return None
        winner = trick_winner(self.trick, self.trump)
        self.points[winner] += sum(CARD_POINTS[x] for _, x in self.trick)
        if self.over:
            self.points[winner] += self.last_trick_bonus
        self.eligible |= 1 << winner
        self.trick = []
        self.turn = winner
        return winner
