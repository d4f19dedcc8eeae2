"""The elliptic curve NIST P-256: the prime-order group the private deal locks cards in.

This module owns the curve's arithmetic and nothing of cards or keys: the
curve ``y² = x³ − 3x + b`` over the prime field of ``P`` with base point
``G`` of prime order ``N`` and cofactor 1 (FIPS 186-4 appendix D.1.2.3;
SEC 2 v2 §2.4.2 names it secp256r1). Points travel compressed, 33 bytes
(SEC 1 v2 §2.3.3): since ``P ≡ 3 (mod 4)`` a square root is one power.

Plain Python on integers, the same in CPython and Pyodide: Jacobian
coordinates ``(X, Y, Z)`` for ``(X/Z², Y/Z³)``, and a scalar multiply by a
fixed 4-bit window. A point outside the arithmetic is affine ``(x, y)``; the
point at infinity is never a value here (every scalar is below ``N``).
It is not constant-time: the keys it multiplies by are used for one deal
and revealed at its end.
"""

from __future__ import annotations

P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
"""The field's prime, 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1."""
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
"""The group's prime order."""
G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)
"""The base point."""
POINT_BYTES = 33

Point = tuple[int, int]
_Jacobian = tuple[int, int, int]
_INFINITY: _Jacobian = (1, 1, 0)


def on_curve(point: object) -> bool:
    if not (isinstance(point, tuple) and len(point) == 2):
        return False
    x, y = point
    if not (isinstance(x, int) and isinstance(y, int) and 0 <= x < P and 0 <= y < P):
        return False
    return (y * y - (x * x * x - 3 * x + B)) % P == 0


def lift_x(x: int) -> Point | None:
    """The point with this ``x`` and an even ``y``, or ``None`` if there is none."""
    if not 0 <= x < P:
        return None
    rhs = (x * x * x - 3 * x + B) % P
    y = pow(rhs, (P + 1) // 4, P)
    if y * y % P != rhs:
        return None
    return (x, y if y % 2 == 0 else P - y)


def compress(point: Point) -> bytes:
    x, y = point
    return bytes([2 + (y & 1)]) + x.to_bytes(32, "big")


def decompress(data: bytes) -> Point:
    """A point from its 33 compressed bytes; ``ValueError`` unless it is one on the curve."""
    if len(data) != POINT_BYTES or data[0] not in (2, 3):
        raise ValueError("a point is 33 bytes, the first 02 or 03")
    x = int.from_bytes(data[1:], "big")
    point = lift_x(x)
    if point is None:
        raise ValueError("no point of the curve has this x")
    return point if data[0] == 2 else (x, P - point[1])


def _double(p: _Jacobian) -> _Jacobian:
    x, y, z = p
    if not z or not y:
        return _INFINITY
    yy = y * y % P
    s = 4 * x * yy % P
    zz = z * z % P
    m = 3 * (x - zz) * (x + zz) % P  # a = −3
    x3 = (m * m - 2 * s) % P
    y3 = (m * (s - x3) - 8 * yy * yy) % P
    z3 = 2 * y * z % P
    return (x3, y3, z3)


def _add(p: _Jacobian, q: _Jacobian) -> _Jacobian:
    x1, y1, z1 = p
    x2, y2, z2 = q
    if not z1:
        return q
    if not z2:
        return p
    z1z1, z2z2 = z1 * z1 % P, z2 * z2 % P
    u1, u2 = x1 * z2z2 % P, x2 * z1z1 % P
    s1, s2 = y1 * z2 * z2z2 % P, y2 * z1 * z1z1 % P
    h, r = (u2 - u1) % P, (s2 - s1) % P
    if not h:
        return _double(p) if not r else _INFINITY
    hh = h * h % P
    hhh = h * hh % P
    v = u1 * hh % P
    x3 = (r * r - hhh - 2 * v) % P
    y3 = (r * (v - x3) - s1 * hhh) % P
    return (x3, y3, z1 * z2 * h % P)


def multiply(k: int, point: Point) -> Point:
    """``k · point`` for ``0 < k < N`` (then never the point at infinity)."""
    if not 0 < k < N:
        raise ValueError("a scalar is between 1 and the group's order")
    base: _Jacobian = (point[0], point[1], 1)
    table = [_INFINITY, base]
    for _ in range(14):
        table.append(_add(table[-1], base))
    acc = _INFINITY
    for shift in range(252, -4, -4):
        if acc[2]:
            acc = _double(_double(_double(_double(acc))))
        digit = (k >> shift) & 15
        if digit:
            acc = _add(acc, table[digit])
    x, y, z = acc
    zi = pow(z, -1, P)
    zi2 = zi * zi % P
    return (x * zi2 % P, y * zi2 * zi % P)
