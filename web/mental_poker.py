"""Mental poker: the commutative encryption behind the private deal (web/net/PRIVATE_DEAL.md).

This module owns the arithmetic of the private deal and nothing of its
messages: SRA / Pohlig–Hellman locks in the subgroup of quadratic residues
modulo the 2048-bit safe prime of RFC 3526 group 14 (Shamir, Rivest and
Adleman, "Mental Poker", 1979, with Lipton's quadratic-residue fix). A card
is a fixed public residue (:func:`encode`); a seat's secret for one deal
(32 random bytes from the page's ``crypto.getRandomValues``) gives its keys
(:class:`SeatSecret`); :func:`lock` and :func:`unlock` commute, so every
seat locks and permutes the deck in turn and cards are dealt by removing
locks one seat at a time. Values travel as 512 lowercase hex digits.

It is plain Python (``pow(x, e, p)``), the same in CPython and Pyodide, and
lives beside net_bridge rather than in the engine: it is about peers, not
about the rules.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74"
    "020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F1437"
    "4FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF05"
    "98DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB"
    "9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF695581718"
    "3995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF",
    16,
)
"""The 2048-bit MODP prime of RFC 3526 group 14; a safe prime."""
Q = (P - 1) // 2
"""The prime order of the subgroup of quadratic residues mod ``P``."""
VALUE_HEX = 512
"""A value on the wire: 256 bytes as lowercase hex."""
SECRET_HEX = 64
"""A seat's secret for one deal: 32 random bytes as lowercase hex."""
KEY_BITS = 256
DECK = 24


def _expand(label: str, nbytes: int) -> int:
    """``nbytes`` of SHA-256 in counter mode over ``label``, as a number."""
    out = b""
    block = 0
    while len(out) < nbytes:
        out += hashlib.sha256(f"{label}/{block}".encode()).digest()
        block += 1
    return int.from_bytes(out[:nbytes], "big")


def _residue(label: str) -> int:
    x = _expand(label, 256) % P
    return pow(x, 2, P)


CODES: tuple[int, ...] = tuple(_residue(f"thousand/card/{c}") for c in range(DECK))
"""The public encoding of each card ``0..23`` (thousand.cards): a quadratic residue."""
_CARD_OF = {code: c for c, code in enumerate(CODES)}


def encode(card: int) -> int:
    return CODES[card]


def decode(value: int) -> int | None:
    """The card a fully unlocked value stands for, or ``None`` if it is no card."""
    return _CARD_OF.get(value)


def jacobi(a: int, n: int) -> int:
    """The Jacobi symbol (a/n) for odd ``n``: for a prime ``n``, 1 on quadratic residues.

    Computed by quadratic reciprocity, many times cheaper than Euler's
    criterion ``pow(a, (n - 1) // 2, n)``.
    """
    a %= n
    result = 1
    while a:
        twos = (a & -a).bit_length() - 1
        a >>= twos
        if twos & 1 and n % 8 in (3, 5):
            result = -result
        if a % 4 == 3 and n % 4 == 3:
            result = -result
        a, n = n % a, a
    return result if n == 1 else 0


def is_value(x: object) -> bool:
    """Whether ``x`` may be a locked card: a quadratic residue other than 1, below ``P``."""
    return isinstance(x, int) and 1 < x < P and jacobi(x, P) == 1


def to_wire(x: int) -> str:
    return format(x, f"0{VALUE_HEX}x")


def from_wire(text: object) -> int:
    """A value from the wire; ``ValueError`` unless it is 512 hex digits of a residue."""
    if not isinstance(text, str) or len(text) != VALUE_HEX:
        raise ValueError("a locked card is 512 hex digits")
    try:
        x = int(text, 16)
    except ValueError:
        raise ValueError("a locked card is 512 hex digits") from None
    if text != to_wire(x) or not is_value(x):
        raise ValueError("a locked card must be a quadratic residue modulo the group's prime")
    return x


def is_secret(text: object) -> bool:
    return (
        isinstance(text, str)
        and len(text) == SECRET_HEX
        and all(ch in "0123456789abcdef" for ch in text)
    )


@dataclass(frozen=True)
class Key:
    """A pair of exponents: ``lock`` is ``unlock``'s inverse modulo ``Q``."""

    unlock: int

    @cached_property
    def lock(self) -> int:
        return pow(self.unlock, -1, Q)


def key_of(secret: str, label: str) -> Key:
    """A 256-bit unlocking key drawn from ``secret`` for one use named ``label``."""
    d = _expand(f"thousand/key/{label}/{secret}", KEY_BITS // 8) | (1 << (KEY_BITS - 1))
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


def lock(key: Key, values: Sequence[int]) -> list[int]:
    return [pow(x, key.lock, P) for x in values]


def unlock(key: Key, values: Sequence[int]) -> list[int]:
    return [pow(x, key.unlock, P) for x in values]


def shuffle(secret: SeatSecret, deck: Sequence[int]) -> list[int]:
    """This seat's turn of the shuffle: every card locked, the deck permuted."""
    locked = lock(secret.key, deck)
    return [locked[i] for i in secret.permutation(len(deck))]


def is_shuffle_of(key: Key, before: Sequence[int], after: Sequence[int]) -> bool:
    """Whether ``after`` is ``before`` locked by ``key`` and permuted (checked by unlocking)."""
    return len(before) == len(after) and sorted(unlock(key, after)) == sorted(before)
