"""Mental poker: the commutative encryption behind the private deal (web/net/PRIVATE_DEAL.md).

This module owns the arithmetic of the private deal and nothing of its
messages: Pohlig–Hellman / SRA locks (Shamir, Rivest and Adleman, "Mental
Poker", 1979) in the prime-order group of the elliptic curve NIST P-256
(:mod:`p256`), where the decisional Diffie–Hellman problem is believed
hard. A card is a fixed public point (:func:`encode`, by hash and
increment); a seat's secret for one deal (32 random bytes from the page's
``crypto.getRandomValues``) gives its keys (:class:`SeatSecret`): to lock
is to multiply by a scalar ``e``, to unlock to multiply by ``d = e⁻¹ mod
N``. Locks commute, so every seat locks and permutes the deck in turn and
cards are dealt by removing locks one seat at a time. Values travel as
compressed points, 66 lowercase hex digits.

It is plain Python, the same in CPython and Pyodide, and lives beside
net_bridge rather than in the engine: it is about peers, not about the rules.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from p256 import POINT_BYTES, N, Point, compress, decompress, lift_x, multiply, on_curve

VALUE_HEX = 2 * POINT_BYTES
"""A value on the wire: a compressed point, 33 bytes as lowercase hex."""
SECRET_HEX = 64
"""A seat's secret for one deal: 32 random bytes as lowercase hex."""
DECK = 24


def _expand(label: str, nbytes: int) -> int:
    """``nbytes`` of SHA-256 in counter mode over ``label``, as a number."""
    out = b""
    block = 0
    while len(out) < nbytes:
        out += hashlib.sha256(f"{label}/{block}".encode()).digest()
        block += 1
    return int.from_bytes(out[:nbytes], "big")


def _card_point(card: int) -> Point:
    """Hash and increment: the first ``x`` from SHA-256 of the card's name that is on the curve."""
    counter = 0
    while True:
        point = lift_x(_expand(f"thousand/card/{card}/{counter}", 32))
        if point is not None:
            return point
        counter += 1


CODES: tuple[Point, ...] = tuple(_card_point(c) for c in range(DECK))
"""The public encoding of each card ``0..23`` (thousand.cards): a point of the curve."""
_CARD_OF = {code: c for c, code in enumerate(CODES)}


def encode(card: int) -> Point:
    return CODES[card]


def decode(value: Point) -> int | None:
    """The card a fully unlocked value stands for, or ``None`` if it is no card."""
    return _CARD_OF.get(value)


def is_value(x: object) -> bool:
    """Whether ``x`` may be a locked card: a point of the curve."""
    return on_curve(x)


def to_wire(x: Point) -> str:
    return compress(x).hex()


def from_wire(text: object) -> Point:
    """A value from the wire; ``ValueError`` unless it is 66 hex digits of a curve point."""
    if not isinstance(text, str) or len(text) != VALUE_HEX:
        raise ValueError(f"a locked card is {VALUE_HEX} hex digits")
    try:
        data = bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"a locked card is {VALUE_HEX} hex digits") from None
    if data.hex() != text:
        raise ValueError("a locked card is written in lowercase hex")
    try:
        return decompress(data)
    except ValueError as e:
        raise ValueError(f"a locked card must be a point of the curve P-256: {e}") from None


def is_secret(text: object) -> bool:
    return (
        isinstance(text, str)
        and len(text) == SECRET_HEX
        and all(ch in "0123456789abcdef" for ch in text)
    )


@dataclass(frozen=True)
class Key:
    """A pair of scalars: ``lock`` is ``unlock``'s inverse modulo the group's order ``N``."""

    unlock: int

    @cached_property
    def lock(self) -> int:
        return pow(self.unlock, -1, N)


def key_of(secret: str, label: str) -> Key:
    """An unlocking key ``1 ≤ d < N`` drawn from ``secret`` for one use named ``label``."""
    return Key(_expand(f"thousand/key/{label}/{secret}", 48) % (N - 1) + 1)


def joint(keys: Iterable[Key]) -> Key:
    """The one key that removes all of ``keys`` at once (locks commute: scalars multiply)."""
    d = 1
    for key in keys:
        d = d * key.unlock % N
    return Key(d)


@dataclass(frozen=True)
class SeatSecret:
    """One seat's secret for one deal and what it gives: its deal key, permutation, pass keys."""

    secret: str

    def __post_init__(self) -> None:
        if not is_secret(self.secret):
            raise ValueError("a seat's secret is 64 lowercase hex digits")

    @cached_property
    def key(self) -> Key:
        return key_of(self.secret, "deal")

    def pass_key(self, number: int) -> Key:
        """The fresh key of this seat's part in pass ``number`` of the deal."""
        return key_of(self.secret, f"pass/{number}")

    def permutation(self, n: int = DECK) -> list[int]:
        """A secret order of ``n`` places (Fisher–Yates from the secret)."""
        order = list(range(n))
        stream = _Stream(f"thousand/permutation/{self.secret}")
        for i in range(n - 1, 0, -1):
            j = stream.below(i + 1)
            order[i], order[j] = order[j], order[i]
        return order


class _Stream:
    """Unbiased numbers from SHA-256 in counter mode."""

    def __init__(self, label: str) -> None:
        self.label, self.block, self.buffer = label, 0, b""

    def below(self, n: int) -> int:
        while True:
            if len(self.buffer) < 4:
                self.buffer += hashlib.sha256(f"{self.label}/{self.block}".encode()).digest()
                self.block += 1
            x, self.buffer = int.from_bytes(self.buffer[:4], "big"), self.buffer[4:]
            if x < (1 << 32) - (1 << 32) % n:
                return x % n


def lock(key: Key, values: Sequence[Point]) -> list[Point]:
    return [multiply(key.lock, x) for x in values]


def unlock(key: Key, values: Sequence[Point]) -> list[Point]:
    return [multiply(key.unlock, x) for x in values]


def shuffle(secret: SeatSecret, deck: Sequence[Point]) -> list[Point]:
    """This seat's turn of the shuffle: every card locked, the deck permuted."""
    locked = lock(secret.key, deck)
    return [locked[i] for i in secret.permutation(len(deck))]


def is_shuffle_of(key: Key, before: Sequence[Point], after: Sequence[Point]) -> bool:
    """Whether ``after`` is ``before`` locked by ``key`` and permuted (checked by unlocking)."""
    return len(before) == len(after) and sorted(unlock(key, after)) == sorted(before)
