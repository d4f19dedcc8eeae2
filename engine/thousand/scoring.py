"""Arithmetic of the score sheet: rounding, write-off shares, the deal's shuffle.

This module owns the small pure functions that turn points into scores
(RULES.md §8) and the reproducible shuffle every deal comes from. The game
state machine (:mod:`thousand.game`) decides *when* they apply.

>>> [round_points(x, "nearest5") for x in (17, 18, 51, 53, 56, 58)]
[15, 20, 50, 55, 55, 60]
>>> [round_points(x, "by_last_digit") for x in (34, 37, 28, 32, 33)]
[35, 35, 30, 30, 30]
>>> write_off_share(125)
65
"""

from __future__ import annotations

import hashlib

from .cards import DECK_SIZE, Card


def round_points(points: int, rounding: str) -> int:
    """A defender's hand total rounded as the rules say (округление)."""
    if rounding == "none":
        return points
    if rounding == "nearest5":
        # Remainder 1–2 goes down, 3–4 goes up: 17 → 15, 18 → 20.
        low = points - points % 5
        return low + 5 if points % 5 >= 3 else low
    if rounding == "by_last_digit":
        # Last digit 1–3 → 0, 4–7 → 5, 8–9 → the next ten.
        tens, digit = divmod(points, 10)
        if digit <= 3:
            return tens * 10
        if digit <= 7:
            return tens * 10 + 5
        return tens * 10 + 10
    if rounding == "nearest10":
        low = points - points % 10
        return low + 10 if points % 10 >= 5 else low
    raise ValueError(f"unknown rounding {rounding!r}")


def write_off_share(value: int) -> int:
    """Each opponent's share of a written-off contract: half, rounded up to a multiple of 5."""
    half = -(-value // 2)
    return -(-half // 5) * 5


def shuffled_deck(seed: int | str, deal_number: int) -> list[Card]:
    """The deck for one deal, shuffled reproducibly from the match seed.

    The stream is SHA-256 in counter mode, so every platform (CPython,
    Pyodide, a peer checking a network deal) gets the same cards.
    """
    deck = list(range(DECK_SIZE))
    stream = _ByteStream(f"thousand/deal/{seed}/{deal_number}")
    for i in range(DECK_SIZE - 1, 0, -1):
        j = _below(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


class _ByteStream:
    def __init__(self, key: str) -> None:
        self.key = key.encode()
        self.counter = 0
        self.buffer = b""

    def take(self) -> int:
        if not self.buffer:
            self.buffer = hashlib.sha256(self.key + self.counter.to_bytes(8, "big")).digest()
            self.counter += 1
        value, self.buffer = self.buffer[0], self.buffer[1:]
        return value


def _below(stream: _ByteStream, n: int) -> int:
    # Rejection sampling keeps the shuffle exactly uniform.
    limit = 256 - 256 % n
    while True:
        b = stream.take()
        if b < limit:
            return b % n
