"""Cards, suits and sets of cards as plain ints and bitmasks.

This module owns the deck of Thousand: 24 cards, 9 J Q K 10 A in four suits.
A card is an int ``0..23``: ``suit * 6 + rank`` where rank 0 is the nine and
rank 5 the ace, so a higher rank index is a stronger card inside its suit
(A > 10 > K > Q > J > 9 — the ten beats the king). A set of cards is an int
bitmask with bit ``card`` set; the whole deck fits in 24 bits, so hands copy
and hash for free, which the search bots rely on.

Suits are ordered by marriage value: spades 40, clubs 60, diamonds 80,
hearts 100. Text forms are rank ``9 J Q K T A`` plus suit ``S C D H``:
``TH`` is the ten of hearts.

>>> parse_card("TH") == card(HEARTS, TEN)
True
>>> card_text(parse_card("QS"))
'QS'
>>> points(mask_of(["AH", "TH", "KH"]))
25
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Card = int
"""One card, ``0..23``."""

CardSet = int
"""A set of cards as a bitmask over ``1 << card``."""

SPADES, CLUBS, DIAMONDS, HEARTS = 0, 1, 2, 3
SUITS = (SPADES, CLUBS, DIAMONDS, HEARTS)
NINE, JACK, QUEEN, KING, TEN, ACE = 0, 1, 2, 3, 4, 5
RANKS = (NINE, JACK, QUEEN, KING, TEN, ACE)

SUIT_CHARS = "SCDH"
RANK_CHARS = "9JQKTA"
SUIT_SYMBOLS = "♠♣♦♥"
SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")
RANK_NAMES = ("nine", "jack", "queen", "king", "ten", "ace")
RANK_SHORT = ("9", "J", "Q", "K", "10", "A")

RANK_POINTS = (0, 2, 3, 4, 10, 11)
"""Card points by rank: 9 → 0, J → 2, Q → 3, K → 4, 10 → 10, A → 11."""

CARD_POINTS = tuple(RANK_POINTS[c % 6] for c in range(24))
"""Card points by card index."""

MARRIAGE_VALUES = (40, 60, 80, 100)
"""Marriage (марьяж) value by suit: ♠ 40, ♣ 60, ♦ 80, ♥ 100."""

ACE_MARRIAGE_VALUE = 200
"""All four aces in one hand (тузовый марьяж), where the rules allow it."""

DECK_SIZE = 24
FULL_DECK: CardSet = (1 << DECK_SIZE) - 1
SUIT_MASKS = tuple(0b111111 << (6 * s) for s in SUITS)
DECK_POINTS = 120


def card(suit: int, rank: int) -> Card:
    """The card of this suit and rank."""
    return suit * 6 + rank


def suit_of(c: Card) -> int:
    return c // 6


def rank_of(c: Card) -> int:
    return c % 6


def bit(c: Card) -> CardSet:
    return 1 << c


def card_points(c: Card) -> int:
    return RANK_POINTS[c % 6]


def _mask_points_table() -> tuple[int, ...]:
    # Points of every 6-bit suit pattern, so a whole set is four lookups.
    return tuple(sum(RANK_POINTS[r] for r in RANKS if pattern >> r & 1) for pattern in range(64))


_SUIT_PATTERN_POINTS = _mask_points_table()


def points(cards: CardSet) -> int:
    """Card points of a set of cards."""
    return (
        _SUIT_PATTERN_POINTS[cards & 63]
        + _SUIT_PATTERN_POINTS[cards >> 6 & 63]
        + _SUIT_PATTERN_POINTS[cards >> 12 & 63]
        + _SUIT_PATTERN_POINTS[cards >> 18 & 63]
    )


def count(cards: CardSet) -> int:
    return cards.bit_count()


def iter_cards(cards: CardSet) -> Iterator[Card]:
    """The cards of a set, lowest index first."""
    while cards:
        low = cards & -cards
        yield low.bit_length() - 1
        cards ^= low


def cards_of(cards: CardSet) -> list[Card]:
    """The cards of a set as a list, lowest index first (a plain loop: search calls it a lot)."""
    out = []
    while cards:
        low = cards & -cards
        out.append(low.bit_length() - 1)
        cards ^= low
    return out


def highest(cards: CardSet) -> Card:
    """The highest-index card of a non-empty set (the strongest of one suit)."""
    return cards.bit_length() - 1


MARRIAGE_MASKS = tuple(1 << card(s, KING) | 1 << card(s, QUEEN) for s in SUITS)


def marriage_mask(suit: int) -> CardSet:
    """The king and queen of a suit."""
    return MARRIAGE_MASKS[suit]


ACES_MASK: CardSet = sum(1 << card(s, ACE) for s in SUITS)
NINES_MASK: CardSet = sum(1 << card(s, NINE) for s in SUITS)
JACKS_MASK: CardSet = sum(1 << card(s, JACK) for s in SUITS)


def marriages_in(cards: CardSet) -> list[int]:
    """Suits whose king and queen are both in the set."""
    return [s for s in SUITS if cards & MARRIAGE_MASKS[s] == MARRIAGE_MASKS[s]]


def marriage_points_in(cards: CardSet) -> int:
    return sum(MARRIAGE_VALUES[s] for s in marriages_in(cards))


def card_text(c: Card) -> str:
    """``TH`` for the ten of hearts."""
    return RANK_CHARS[c % 6] + SUIT_CHARS[c // 6]


def card_label(c: Card) -> str:
    """What a screen reader says: ``10♥ ten of hearts``."""
    r, s = c % 6, c // 6
    return f"{RANK_SHORT[r]}{SUIT_SYMBOLS[s]} {RANK_NAMES[r]} of {SUIT_NAMES[s]}"


def parse_card(text: str) -> Card:
    """The card named by its text form; ``10H`` is accepted for ``TH``."""
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANK_CHARS or t[1] not in SUIT_CHARS:
        raise ValueError(f"not a card: {text!r} (expected rank 9 J Q K T A and suit S C D H)")
    return card(SUIT_CHARS.index(t[1]), RANK_CHARS.index(t[0]))


def parse_suit(text: str) -> int:
    t = text.strip().upper()
    if len(t) != 1 or t not in SUIT_CHARS:
        raise ValueError(f"not a suit: {text!r} (expected S C D H)")
    return SUIT_CHARS.index(t)


def mask_of(texts: Iterable[str]) -> CardSet:
    """The set of the named cards; a repeated card is an error."""
    mask = 0
    for t in texts:
        b = bit(parse_card(t))
        if mask & b:
            raise ValueError(f"card {t!r} appears twice")
        mask |= b
    return mask


def texts_of(cards: CardSet) -> list[str]:
    """Card texts of a set, sorted by suit then rank (high first)."""
    return [card_text(c) for c in sorted(iter_cards(cards), key=lambda c: (c // 6, -(c % 6)))]
