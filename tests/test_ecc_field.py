# SPDX-License-Identifier: Apache-2.0
"""montmul.ecc.field: GF(p) in the Montgomery domain of a core's model,
checked against Python's integers (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from montmul import cores, ecc
from montmul.apps.ecc.field import Field, constants

P192 = ecc.curve("secp192r1").p
P160 = ecc.curve("secp160k1").p
N160 = ecc.curve("secp160k1").n  # 161 bits: a modulus below the width's top
#: a mix of radix-2, radix-4, scalable and DSP cores
CORES = ("r2_basic", "scs_new_ct", "r4booth_left", "systolic", "dsp_redundant")
FIELDS = [(c, m, w) for c in CORES for m, w in ((P192, 192), (N160, 161))]

elem = st.integers(min_value=0)


@pytest.mark.parametrize("core,p,width", FIELDS, ids=[f"{c}-{m.bit_length()}b" for c, m, _ in FIELDS])
@settings(max_examples=6, deadline=None)
@given(x=elem, y=elem)
def test_field_ops_match_integers(core, p, width, x, y):
    x, y = x % p, y % p
    F = Field(core, p, width)
    X, Y = F.enter(x), F.enter(y)
    assert 0 <= X < p and X == x * (1 << F.k.r_log2) % p
    assert F.leave(F.mul(X, Y)) == x * y % p
    assert F.leave(F.sqr(X)) == x * x % p
    assert F.leave(F.add(X, Y)) == (x + y) % p
    assert F.leave(F.sub(X, Y)) == (x - y) % p
    assert F.leave(F.neg(X)) == -x % p
    assert F.leave(F.inv(X)) == (pow(x, -1, p) if x else 0)
    for v in (F.mul(X, Y), F.add(X, Y), F.sub(X, Y), F.neg(X)):
        assert 0 <= v < p  # canonical
    assert F.select(0, X, Y) == X and F.select(1, X, Y) == Y


@pytest.mark.parametrize("core", CORES)
def test_edges(core):
    p = P192
    F = Field(core, p)
    top = F.enter(p - 1)
    assert F.leave(F.add(top, top)) == p - 2
    assert F.leave(F.sub(0, top)) == 1
    assert F.leave(F.mul(top, top)) == 1
    assert F.neg(0) == 0 and F.inv(0) == 0
    assert F.leave(F.one) == 1
    with pytest.raises(ValueError, match="out of range"):
        F.enter(p)


def test_counts_and_record():
    F = Field("scs_new_ct", P160, 161, record=True)
    a = F.enter(5)
    F.mul(a, a)
    assert F.products == 2 == len(F.log)
    assert F.cycles == sum(c for *_, c in F.log)
    # the log holds the model's own answers
    for x, y, r, cyc in F.log:
        res = cores.get("scs_new_ct").run_model(x, y, P160, 161)
        assert (res.result, res.cycles) == (r, cyc)


def test_constants_cached_per_core_width_modulus():
    assert constants("r2_basic", 192, P192) is constants("r2_basic", 192, P192)
    assert constants("r2_basic", 192, P192) is not constants("scs_new_ct", 192, P192)


def test_bad_modulus():
    with pytest.raises(ValueError, match="does not fit"):
        Field("r2_basic", P192, 160)
    with pytest.raises(ValueError, match="does not fit"):
        Field("r2_basic", 1 << 100, 128)
    with pytest.raises(KeyError, match="unknown core"):
        Field("nope", P192)
