# SPDX-License-Identifier: Apache-2.0
"""montmul.ecc.point: the complete formulas and the scalar multiplications,
checked against affine arithmetic on integers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from montmul import ecc
from montmul.apps.ecc.field import Field
from montmul.apps.ecc.point import Arith, affine_add_public, affine_mul_public

#: a = -3 (secp160r1, secp192r1), a = 0 (secp160k1), general a (brainpoolP160r1)
CURVES = ("secp160r1", "secp192r1", "secp160k1", "brainpoolP160r1")


def arith(name: str, core: str = "r2_basic", record: bool = False) -> Arith:
    c = ecc.curve(name)
    return Arith(c, Field(core, c.p, max(c.p.bit_length(), c.n.bit_length()), record=record))


@pytest.mark.parametrize("name", CURVES)
def test_formula_choice(name):
    E = arith(name)
    assert E.minus3 == (name.endswith("r1") and not name.startswith("brainpool"))


@pytest.mark.parametrize("name", CURVES)
@settings(max_examples=8, deadline=None)
@given(i=st.integers(min_value=1), j=st.integers(min_value=1))
def test_addition_and_doubling_are_complete(name, i, j):
    E = arith(name)
    c = E.curve
    i, j = i % c.n, j % c.n
    g = (c.gx, c.gy)
    A, B = affine_mul_public(c, i, g), affine_mul_public(c, j, g)
    PA = E.point(*A) if A else E.inf
    PB = E.point(*B) if B else E.inf
    assert E.affine(E.add(PA, PB)) == affine_add_public(c, A, B)
    assert E.affine(E.add(PA, PA)) == affine_add_public(c, A, A)  # addition doubles too
    assert E.affine(E.dbl(PA)) == affine_add_public(c, A, A)
    neg = E.point(A[0], c.p - A[1]) if A else E.inf
    assert E.affine(E.add(PA, neg)) is None  # P + (-P)
    assert E.affine(E.add(PA, E.inf)) == A and E.affine(E.add(E.inf, PA)) == A
    assert E.affine(E.dbl(E.inf)) is None and E.affine(E.add(E.inf, E.inf)) is None
    # a point with Z != 1 (a scaled representation) adds the same
    Fz = E.F.enter(7)
    scaled = tuple(E.F.mul(v, Fz) for v in PB)
    assert E.affine(E.add(PA, scaled)) == affine_add_public(c, A, B)


@pytest.mark.parametrize("name", CURVES)
@settings(max_examples=2, deadline=None)
@given(k=st.integers(min_value=0))
def test_scalar_multiplications(name, k):
    E = arith(name)
    c = E.curve
    k %= c.n
    G = E.point(c.gx, c.gy)
    want = affine_mul_public(c, k, (c.gx, c.gy))
    assert E.affine(E.mul(k, G)) == want
    assert E.affine(E.mul_ladder(k, G)) == want
    u = (k * 7 + 3) % c.n
    Q = affine_mul_public(c, 5, (c.gx, c.gy))
    assert E.affine(E.mul2_public(k, G, u, E.point(*Q))) == affine_mul_public(c, (k + 5 * u) % c.n, (c.gx, c.gy))


@pytest.mark.parametrize("k", [0, 1, 2, 15, 16, 17])
def test_small_and_top_scalars(k):
    E = arith("secp160r1")
    c = E.curve
    G = E.point(c.gx, c.gy)
    for s in (k, c.n - 1 - k):
        assert E.affine(E.mul(s, G)) == affine_mul_public(c, s, (c.gx, c.gy))
    with pytest.raises(ValueError, match="scalar out of range"):
        E.mul(1 << 161, G)


def test_select_scans_the_whole_table():
    E = arith("secp160r1")
    table = [(i, 2 * i, 3 * i) for i in range(16)]
    assert [E.select(table, i) for i in range(16)] == table


@pytest.mark.parametrize("method", ["mul", "mul_ladder"])
def test_scalar_multiplication_runs_the_same_products_for_every_scalar(method):
    # On a constant-time core the product count and every product's latency
    # are the same for different scalars (the operands differ, the sequence
    # of operations does not)
    # (64-bit scalars: the property holds for every length)
    c = ecc.curve("secp160r1")
    runs = []
    for k in (1, (1 << 64) - 1, 0x5A5A5A5A5A5A5A5A):
        E = arith("secp160r1", "scs_new_ct", record=True)
        getattr(E, method)(k, E.point(c.gx, c.gy), bits=64)
        runs.append([cyc for *_, cyc in E.F.log])
    assert runs[0] == runs[1] == runs[2]
    # while a data-dependent core shows the scalar in its cycles
    cyc = []
    for k in (1, (1 << 64) - 1):
        E = arith("secp160r1", "scs_new", record=True)
        getattr(E, method)(k, E.point(c.gx, c.gy), bits=64)
        cyc.append(E.F.cycles)
    assert cyc[0] != cyc[1]
