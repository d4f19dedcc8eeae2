"""The curve P-256 (web/p256.py) against published answers, so it cannot be silently wrong.

The base point's order, the public key of RFC 6979's P-256 example key
(appendix A.2.5), and the small multiples of the base point of the NIST
test vectors; then the group laws the private deal relies on.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "web"))

import p256
from p256 import G, N, P, multiply


def test_the_base_point_is_on_the_curve_and_has_the_published_order() -> None:
    assert p256.on_curve(G)
    assert P == 2**256 - 2**224 + 2**192 + 2**96 - 1 and P % 4 == 3
    assert multiply(N - 1, G) == (G[0], P - G[1])  # (N − 1)·G = −G, so N·G is infinity
    assert pow(3, N - 1, N) == 1 and pow(3, P - 1, P) == 1  # both primes (Fermat, base 3)


def test_rfc6979_example_key() -> None:
    d = 0xC9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721
    assert multiply(d, G) == (
        0x60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6,
        0x7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299,
    )


def test_small_multiples_of_the_base_point() -> None:
    assert multiply(1, G) == G
    assert multiply(2, G) == (
        0x7CF27B188D034F7E8A52380304B51AC3C08969E277F21B35A60B48FC47669978,
        0x07775510DB8ED040293D9AC69F7430DBBA7DADE63CE982299E04B79D227873D1,
    )
    assert multiply(3, G) == (
        0x5ECBE4D1A6330A44C8F7EF951D4BF165E6C6B721EFADA985FB41661BC6E7FD6C,
        0x8734640C4998FF7E374B06CE1A64A2ECD82AB036384FB83D9A79B127A27D5032,
    )


def test_scalars_multiply_and_points_survive_the_wire() -> None:
    a, b = 0x1234567890ABCDEF << 180 | 77, N - 987654321
    point = multiply(a, G)
    assert multiply(b, point) == multiply(a * b % N, G) == multiply(a, multiply(b, G))
    assert multiply(pow(a, -1, N), point) == G
    for q in (G, point, multiply(b, G)):
        assert p256.decompress(p256.compress(q)) == q
        assert p256.on_curve(q)
    assert not p256.on_curve((G[0], G[1] + 1)) and not p256.on_curve((P, 0))


@pytest.mark.parametrize("k", [0, N, -1, N + 1])
def test_a_scalar_outside_the_group_is_refused(k: int) -> None:
    with pytest.raises(ValueError):
        multiply(k, G)
