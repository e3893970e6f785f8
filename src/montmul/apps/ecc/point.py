# SPDX-License-Identifier: Apache-2.0
"""Points of a short-Weierstrass curve in projective coordinates on a
:class:`~montmul.apps.ecc.field.Field`, with the complete addition formulas of
Renes, Costello and Batina, "Complete addition formulas for prime order
elliptic curves" (2016).

A point is (X : Y : Z) with x = X/Z, y = Y/Z; the point at infinity is
(0 : 1 : 0).  The formulas are complete: one sequence of field operations
adds any two points of a curve of odd order (the same point twice, a point
and its negative, the point at infinity), so no branch tells doubling from
addition or finds the point at infinity.  General a: their Algorithm 1
(addition, 12M + 3m_a + 2m_3b) and Algorithm 3 (doubling, 8M + 3S + 3m_a +
2m_3b); a = -3: Algorithm 4 (addition, 12M + 2m_b) and Algorithm 6 (doubling,
8M + 3S + 2m_b).  Every M, S, m_a, m_b and m_3b is one product on the core.

Scalar multiplication (:meth:`Arith.mul`) is a fixed 4-bit window over a
fixed number of bits (those of n), each table entry chosen by a masked scan
of the whole table; :meth:`Arith.mul_ladder` is a Montgomery ladder with
conditional swaps written as masks.  Both run the same products in the same
order for every scalar below 2^bits.  The double-scalar u1*G + u2*Q of
verification (:meth:`Arith.mul2_public`) works on public data and may branch
on it (Shamir's trick, one table of G, Q, G+Q).
"""

from __future__ import annotations

from .curves import Curve, affine_add_public, affine_mul_public
from .field import Field

__all__ = ["Arith", "affine_add_public", "affine_mul_public"]

Point = tuple[int, int, int]


class Arith:
    """The group law of ``curve`` on the field ``F`` (mod curve.p).  Creating
    it enters a, b and 3b into the Montgomery domain (three products)."""

    def __init__(self, curve: Curve, F: Field):
        if F.p != curve.p:
            raise ValueError("the field's modulus is not the curve's p")
        self.curve = curve
        self.F = F
        self.a = F.enter(curve.a)
        self.b = F.enter(curve.b)
        self.b3 = F.enter(3 * curve.b % curve.p)
        self.minus3 = curve.a_is_minus_3
        self.inf: Point = (0, F.one, 0)
        self.add = self._add_m3 if self.minus3 else self._add_a
        self.dbl = self._dbl_m3 if self.minus3 else self._dbl_a

    # -- conversions -----------------------------------------------------------
    def point(self, x: int, y: int) -> Point:
        """The affine point (x, y) (ordinary values) as (X : Y : 1) in the domain."""
        F = self.F
        return (F.enter(x), F.enter(y), F.one)

    def affine(self, P: Point) -> tuple[int, int] | None:
        """(x, y) as ordinary values, or None for the point at infinity.  One
        Fermat inversion of Z (the same products for every point)."""
        F = self.F
        zi = F.inv(P[2])
        x, y = F.leave(F.mul(P[0], zi)), F.leave(F.mul(P[1], zi))
        if P[2] == 0:  # the result, public once computed
            return None
        return x, y

    def cswap(self, bit: int, P: Point, Q: Point) -> tuple[Point, Point]:
        """(Q, P) if bit else (P, Q), by masks."""
        m = -bit
        out_p, out_q = [], []
        for u, v in zip(P, Q):
            t = m & (u ^ v)
            out_p.append(u ^ t)
            out_q.append(v ^ t)
        return tuple(out_p), tuple(out_q)  # type: ignore[return-value]

    def _products(self, P: Point, Q: Point) -> tuple[int, int, int, int]:
        """The first steps of both complete additions (Algorithms 1 and 4, in
        their order): X1*X2, Y1*Y2, Z1*Z2 and X1*Y2 + X2*Y1."""
        mul, add, sub = self.F.mul, self.F.add, self.F.sub
        (X1, Y1, Z1), (X2, Y2, Z2) = P, Q
        t0 = mul(X1, X2)
        t1 = mul(Y1, Y2)
        t2 = mul(Z1, Z2)
        t3 = sub(mul(add(X1, Y1), add(X2, Y2)), add(t0, t1))
        return t0, t1, t2, t3

    # -- Renes-Costello-Batina 2016, general a ---------------------------------
    def _add_a(self, P: Point, Q: Point) -> Point:
        """Algorithm 1: complete addition, any a."""
        F = self.F
        mul, add, sub = F.mul, F.add, F.sub
        a, b3 = self.a, self.b3
        X1, Y1, Z1 = P
        X2, Y2, Z2 = Q
        t0, t1, t2, t3 = self._products(P, Q)
        t4 = mul(add(X1, Z1), add(X2, Z2))
        t5 = add(t0, t2)
        t4 = sub(t4, t5)
        t5 = mul(add(Y1, Z1), add(Y2, Z2))
        X3 = add(t1, t2)
        t5 = sub(t5, X3)
        Z3 = mul(a, t4)
        X3 = mul(b3, t2)
        Z3 = add(X3, Z3)
        X3 = sub(t1, Z3)
        Z3 = add(t1, Z3)
        Y3 = mul(X3, Z3)
        t1 = add(add(t0, t0), t0)
        t2 = mul(a, t2)
        t4 = mul(b3, t4)
        t1 = add(t1, t2)
        t2 = sub(t0, t2)
        t2 = mul(a, t2)
        t4 = add(t4, t2)
        t2 = mul(t1, t4)
        Y3 = add(Y3, t2)
        t2 = mul(t5, t4)
        X3 = mul(X3, t3)
        X3 = sub(X3, t2)
        t2 = mul(t3, t1)
        Z3 = mul(t5, Z3)
        Z3 = add(Z3, t2)
        return X3, Y3, Z3

    def _dbl_a(self, P: Point) -> Point:
        """Algorithm 3: exception-free doubling, any a."""
        F = self.F
        mul, add, sub = F.mul, F.add, F.sub
        a, b3 = self.a, self.b3
        X, Y, Z = P
        t0 = mul(X, X)
        t1 = mul(Y, Y)
        t2 = mul(Z, Z)
        t3 = mul(X, Y)
        t3 = add(t3, t3)
        Z3 = mul(X, Z)
        Z3 = add(Z3, Z3)
        X3 = mul(a, Z3)
        Y3 = mul(b3, t2)
        Y3 = add(X3, Y3)
        X3 = sub(t1, Y3)
        Y3 = add(t1, Y3)
        Y3 = mul(X3, Y3)
        X3 = mul(t3, X3)
        Z3 = mul(b3, Z3)
        t2 = mul(a, t2)
        t3 = sub(t0, t2)
        t3 = mul(a, t3)
        t3 = add(t3, Z3)
        Z3 = add(t0, t0)
        t0 = add(Z3, t0)
        t0 = add(t0, t2)
        t0 = mul(t0, t3)
        Y3 = add(Y3, t0)
        t2 = mul(Y, Z)
        t2 = add(t2, t2)
        t0 = mul(t2, t3)
        X3 = sub(X3, t0)
        Z3 = mul(t2, t1)
        Z3 = add(Z3, Z3)
        Z3 = add(Z3, Z3)
        return X3, Y3, Z3

    # -- Renes-Costello-Batina 2016, a = -3 --------------------------------------
    def _add_m3(self, P: Point, Q: Point) -> Point:
        """Algorithm 4: complete addition, a = -3."""
        F = self.F
        mul, add, sub = F.mul, F.add, F.sub
        b = self.b
        X1, Y1, Z1 = P
        X2, Y2, Z2 = Q
        t0, t1, t2, t3 = self._products(P, Q)
        t4 = mul(add(Y1, Z1), add(Y2, Z2))
        X3 = add(t1, t2)
        t4 = sub(t4, X3)
        X3 = mul(add(X1, Z1), add(X2, Z2))
        Y3 = add(t0, t2)
        Y3 = sub(X3, Y3)
        Z3 = mul(b, t2)
        X3 = sub(Y3, Z3)
        Z3 = add(X3, X3)
        X3 = add(X3, Z3)
        Z3 = sub(t1, X3)
        X3 = add(t1, X3)
        Y3 = mul(b, Y3)
        t1 = add(t2, t2)
        t2 = add(t1, t2)
        Y3 = sub(Y3, t2)
        Y3 = sub(Y3, t0)
        t1 = add(Y3, Y3)
        Y3 = add(t1, Y3)
        t1 = add(t0, t0)
        t0 = add(t1, t0)
        t0 = sub(t0, t2)
        t1 = mul(t4, Y3)
        t2 = mul(t0, Y3)
        Y3 = mul(X3, Z3)
        Y3 = add(Y3, t2)
        X3 = mul(t3, X3)
        X3 = sub(X3, t1)
        Z3 = mul(t4, Z3)
        t1 = mul(t3, t0)
        Z3 = add(Z3, t1)
        return X3, Y3, Z3

    def _dbl_m3(self, P: Point) -> Point:
        """Algorithm 6: exception-free doubling, a = -3."""
        F = self.F
        mul, add, sub = F.mul, F.add, F.sub
        b = self.b
        X, Y, Z = P
        t0 = mul(X, X)
        t1 = mul(Y, Y)
        t2 = mul(Z, Z)
        t3 = mul(X, Y)
        t3 = add(t3, t3)
        Z3 = mul(X, Z)
        Z3 = add(Z3, Z3)
        Y3 = mul(b, t2)
        Y3 = sub(Y3, Z3)
        X3 = add(Y3, Y3)
        Y3 = add(X3, Y3)
        X3 = sub(t1, Y3)
        Y3 = add(t1, Y3)
        Y3 = mul(X3, Y3)
        X3 = mul(X3, t3)
        t3 = add(t2, t2)
        t2 = add(t2, t3)
        Z3 = mul(b, Z3)
        Z3 = sub(Z3, t2)
        Z3 = sub(Z3, t0)
        t3 = add(Z3, Z3)
        Z3 = add(Z3, t3)
        t3 = add(t0, t0)
        t0 = add(t3, t0)
        t0 = sub(t0, t2)
        t0 = mul(t0, Z3)
        Y3 = add(Y3, t0)
        t0 = mul(Y, Z)
        t0 = add(t0, t0)
        Z3 = mul(t0, Z3)
        X3 = sub(X3, Z3)
        Z3 = mul(t0, t1)
        Z3 = add(Z3, Z3)
        Z3 = add(Z3, Z3)
        return X3, Y3, Z3

    # -- scalar multiplication ---------------------------------------------------
    #: bits per window of :meth:`mul` (16-entry table: fewest products for
    #: 160- to 521-bit scalars)
    WINDOW = 4

    def select(self, table: list[Point], idx: int) -> Point:
        """table[idx] by a masked scan of the whole table: every entry is read
        and combined under a mask, so neither the branch taken nor the memory
        read depends on idx."""
        X = Y = Z = 0
        for j, (x, y, z) in enumerate(table):
            m = ((idx ^ j) - 1) >> 8  # -1 if idx == j else 0 (idx ^ j < 256)
            X |= x & m
            Y |= y & m
            Z |= z & m
        return X, Y, Z

    def mul(self, k: int, P: Point, bits: int | None = None) -> Point:
        """k*P, k in [0, 2^bits) (default bits: those of n), by a fixed
        window of :attr:`WINDOW` bits: a table 0*P .. 15*P, then per window
        four doublings, a masked scan of the table (:meth:`select`) and one
        complete addition (also for a zero window, which adds the point at
        infinity).  The same products in the same order for every k."""
        w = self.WINDOW
        bits = self.curve.n.bit_length() if bits is None else bits
        if not 0 <= k < 1 << bits:
            raise ValueError(f"scalar out of range [0, 2^{bits})")
        table = [self.inf, P, self.dbl(P)]
        for _ in range(3, 1 << w):
            table.append(self.add(table[-1], P))
        R = self.inf
        for i in range((bits + w - 1) // w - 1, -1, -1):
            for _ in range(w):
                R = self.dbl(R)
            R = self.add(R, self.select(table, (k >> (w * i)) & ((1 << w) - 1)))
        return R

    def mul_ladder(self, k: int, P: Point, bits: int | None = None) -> Point:
        """k*P by the Montgomery ladder over ``bits`` bits (default: those of
        n), k in [0, 2^bits): per bit one conditional swap (masks), one
        complete addition and one doubling, whatever k's bits are (about 1.5
        times :meth:`mul`'s products)."""
        bits = self.curve.n.bit_length() if bits is None else bits
        if not 0 <= k < 1 << bits:
            raise ValueError(f"scalar out of range [0, 2^{bits})")
        R0, R1 = self.inf, P
        prev = 0
        for i in range(bits - 1, -1, -1):
            bit = (k >> i) & 1
            R0, R1 = self.cswap(bit ^ prev, R0, R1)
            R1 = self.add(R0, R1)
            R0 = self.dbl(R0)
            prev = bit
        R0, R1 = self.cswap(prev, R0, R1)
        return R0

    def mul2_public(self, u1: int, P: Point, u2: int, Q: Point) -> Point:
        """u1*P + u2*Q for public scalars (Shamir's trick: one doubling per
        bit, one addition per bit where either scalar has a one)."""
        table = (None, P, Q, self.add(P, Q))
        R = self.inf
        for i in range(max(u1.bit_length(), u2.bit_length()) - 1, -1, -1):
            R = self.dbl(R)
            j = ((u1 >> i) & 1) | (((u2 >> i) & 1) << 1)
            if j:  # public data
                R = self.add(R, table[j])
        return R
