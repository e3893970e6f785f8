# SPDX-License-Identifier: Apache-2.0
"""The ws array's wide-port adapter model (montmul.models.ws_core): prep
(M from N), redc (S from U) and their composition with the array's product,
against Python ints: M = (Ñ + 1)/2^E' with Ñ = n'N, n' = -N^-1 mod 2^E';
S = (U + qN)/2^E < 2N; the adapter's S = A*B*R'^-1 mod N in [0, 2N), over
random and worst-case moduli (N = 1 mod 2^E', the largest n'), A = B = 2N - 1,
widths 3 .. 2048, w = 8, 16, 17 and d = 1 .. 4; the cycle formulas; bad
input."""
from __future__ import annotations

import random
from math import gcd

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from montmul.models import InputError, ws, ws_core

WS = (8, 16, 17)
DS = (1, 2, 3, 4)
WIDTHS = (3, 4, 8, 17, 31, 64, 100, 256, 521, 1024, 2048)


def _params(w, d):
    return {"WordWidth": w, "QuotDelay": d}


def _max_nprime(k, w, d):
    """An odd k-bit modulus with the largest n' = -N^-1 mod 2^E' the width
    allows: N = 1 mod 2^E' (n' = 2^E' - 1) when k > E', else the best of an
    exhaustive search (k <= 12) or of the odd N < 2^k near the extremes."""
    e1 = ws_core.scale_bits(w, d)
    mod = 1 << e1
    if k > e1:
        return (1 << k) - mod + 1
    cands = range(3, 1 << k, 2) if k <= 12 else [*range(3, 1 << 12, 2), *range((1 << k) - (1 << 12) + 1, 1 << k, 2)]
    return max(cands, key=lambda n: -pow(n, -1, mod) % mod)


def _moduli(k, w, d, rng, count=3):
    """Directed and random odd moduli of at most k bits."""
    out = {3, (1 << k) - 1, (1 << (k - 1)) + 1, _max_nprime(k, w, d)}
    out |= {rng.randrange(1 << (k - 1), 1 << k) | 1 for _ in range(count)}
    return sorted(n for n in out if 3 <= n < 1 << k)


def _check_prep(n, k, w, d):
    p = ws_core.prep(n, k, w, d)
    e1 = ws_core.scale_bits(w, d)
    nprime = -pow(n, -1, 1 << e1) % (1 << e1)
    assert p.nprime == nprime
    assert p.ntilde == nprime * n and p.ntilde % (1 << e1) == (1 << e1) - 1
    assert p.mscaled == (nprime * n + 1) >> e1 and p.mscaled < n
    assert p.m == ws.precompute(n, w, d, bits=k).m == len(p.words)
    assert all(0 <= x < 1 << w for x in p.words)
    assert sum(x << (w * j) for j, x in enumerate(p.words)) == p.mscaled
    assert p.first == e1 - 1 and p.cycles == e1 - 1 + p.m
    return p


def _check_model(a, b, n, k, w, d):
    r = ws_core.model(a, b, n, k, w=w, d=d, l_dsp=2 * d - 1)
    rl = ws_core.r_log2(k, _params(w, d))
    assert rl == w * ws_core.words(k, w, d) + w * (d + 1) + 1
    assert r.result % n == a * b * pow(2, -rl, n) % n
    assert 0 <= r.result < 2 * n
    assert r.cycles == sum(r.breakdown.values()) == ws_core.latency(k, w, d, l_dsp=2 * d - 1)
    return r


# --------------------------------------------------------------------------
# prep


@pytest.mark.parametrize("w", WS)
@pytest.mark.parametrize("d", DS)
def test_prep_identities(w, d):
    rng = random.Random(w * 10 + d)
    for k in WIDTHS:
        for n in _moduli(k, w, d, rng):
            _check_prep(n, k, w, d)


def test_prep_largest_nprime():
    """N = 1 mod 2^E' gives n' = 2^E' - 1: the largest Ñ and M."""
    for w, d in ((8, 1), (16, 4), (17, 2)):
        e1 = ws_core.scale_bits(w, d)
        k = e1 + 40
        p = _check_prep(_max_nprime(k, w, d), k, w, d)
        assert p.nprime == (1 << e1) - 1


@settings(max_examples=300, deadline=None)
@given(k=st.integers(3, 600), w=st.sampled_from(WS), d=st.sampled_from(DS), data=st.data())
def test_prep_property(k, w, d, data):
    n = data.draw(st.integers(1, (1 << (k - 1)) - 1)) * 2 + 1
    _check_prep(n, k, w, d)


# --------------------------------------------------------------------------
# redc


@pytest.mark.parametrize("w", WS)
@pytest.mark.parametrize("d", DS)
def test_redc_identities(w, d):
    """S = (U + qN)/2^E exactly, S = U 2^-E (mod N), S < 2N, for U at the
    ends of its range (0, 2Ñ - 1 and the bound 2^E N - 1) and random."""
    rng = random.Random(w * 100 + d)
    e = ws_core.redc_steps(w, d)
    for k in WIDTHS:
        for n in _moduli(k, w, d, rng, count=2):
            ntilde = ws_core.prep(n, k, w, d).ntilde
            for u in (0, 1, 2 * ntilde - 1, (n << e) - 1, rng.randrange(2 * ntilde)):
                r = ws_core.redc(u, n, k, w, d)
                assert r.result << e == u + r.q * n and 0 <= r.q < 1 << e
                assert r.result % n == u * pow(2, -e, n) % n
                assert 0 <= r.result < 2 * n
                assert len(r.words) == ws_core.out_words(k, w) and all(0 <= x < 1 << w for x in r.words)
                assert r.cycles == e + -(-(k + 1) // w)


def test_redc_needs_e_steps():
    """E' steps would not do: with the largest n' and U = 2Ñ - 1 the result
    after E' steps is not below 2N (so E = E' + 1 is needed)."""
    w, d = 8, 1
    e1 = ws_core.scale_bits(w, d)
    k = e1 + 20
    n = _max_nprime(k, w, d)
    ntilde = ws_core.prep(n, k, w, d).ntilde
    u = 2 * ntilde - 1
    y = u
    for _ in range(e1):
        y = (y + (y & 1) * n) >> 1
    assert y >= 2 * n
    assert ws_core.redc(u, n, k, w, d).result < 2 * n


# --------------------------------------------------------------------------
# the adapter


@pytest.mark.parametrize("w", WS)
@pytest.mark.parametrize("d", DS)
def test_model_identities(w, d):
    rng = random.Random(w * 1000 + d)
    for k in WIDTHS:
        for n in _moduli(k, w, d, rng, count=1):
            for a, b in ((2 * n - 1, 2 * n - 1), (0, 2 * n - 1), (1, 1), (n, n - 1),
                         (rng.randrange(2 * n), rng.randrange(2 * n))):
                _check_model(a, b, n, k, w, d)


@settings(max_examples=200, deadline=None)
@given(k=st.integers(3, 300), w=st.sampled_from(WS), d=st.sampled_from(DS), data=st.data())
def test_model_property(k, w, d, data):
    n = data.draw(st.integers(1, (1 << (k - 1)) - 1)) * 2 + 1
    a = data.draw(st.integers(0, 2 * n - 1))
    b = data.draw(st.integers(0, 2 * n - 1))
    _check_model(a, b, n, k, w, d)


def test_model_cycles_breakdown():
    k, w, d = 64, 16, 4
    r = ws_core.model(5, 7, 1001, k, w=w, d=d)
    arr = ws.Array(ws_core.words(k, w, d) + 1, w, d, 6, 0)
    kk = ws.precompute(1001, w, d, bits=k)
    assert r.breakdown == {"prep": ws_core.scale_bits(w, d) - 1 + kk.m,
                           "array": ws.chain_cycles(arr, kk, 1, square=False, halves=1, load=True),
                           "redc": ws_core.redc_steps(w, d) + -(-(k + 1) // w),
                           "glue": ws_core.ADAPTER_GLUE_CYCLES}


@pytest.mark.parametrize("k,w,d,pes,l_dsp", [(16, 8, 2, None, 3), (40, 8, 1, 6, 1), (64, 16, 4, 6, 6)])
def test_model_simulated_array(k, w, d, pes, l_dsp):
    """The array's cycles by ws.simulate (one loaded product) equal the
    closed form, and the simulated U is the one redc reduces."""
    rng = random.Random(k)
    n = rng.randrange(1 << (k - 1), 1 << k) | 1
    a, b = rng.randrange(2 * n), 2 * n - 1
    fast = ws_core.model(a, b, n, k, w=w, d=d, pes=pes, l_dsp=l_dsp)
    sim = ws_core.model(a, b, n, k, w=w, d=d, pes=pes, l_dsp=l_dsp, simulate=True)
    assert fast == sim


# --------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize("n,match", [(0, "below 3"), (1, "below 3"), (2, "below 3"), (-5, "below 3"),
                                     (10, "even"), (511, "does not fit"), (257, "does not fit")])
def test_bad_modulus(n, match):
    with pytest.raises(InputError, match=match):
        ws_core.prep(n, 8, 8, 1)
    with pytest.raises(InputError, match=match):
        ws_core.redc(0, n, 8, 8, 1)
    with pytest.raises(ValueError, match=match):
        ws_core.model(0, 0, n, 8, w=8, d=1, l_dsp=1)


@pytest.mark.parametrize("a,b", [(22, 0), (0, 22), (-1, 0), (0, 10**9)])
def test_bad_operands(a, b):
    with pytest.raises(ValueError, match="outside"):
        ws_core.model(a, b, 11, 8, w=8, d=1, l_dsp=1)


def test_bad_u():
    n, k, w, d = 11, 8, 8, 1
    e = ws_core.redc_steps(w, d)
    with pytest.raises(ValueError, match="outside"):
        ws_core.redc(n << e, n, k, w, d)
    with pytest.raises(ValueError, match="outside"):
        ws_core.redc(-1, n, k, w, d)


@pytest.mark.parametrize("k,w,d,match", [(2, 8, 1, "width"), (8, 1, 1, "word width"), (8, 8, 0, "delay")])
def test_bad_parameters(k, w, d, match):
    with pytest.raises(ValueError, match=match):
        ws_core.prep(3, k, w, d)
    with pytest.raises(ValueError, match=match):
        ws_core.model(1, 1, 3, k, w=w, d=d)


def test_array_geometry_checked():
    with pytest.raises(ValueError, match="quotient delay"):
        ws_core.model(1, 1, 11, 8, w=8, d=1, l_dsp=6)
    with pytest.raises(ValueError, match="ring"):  # c = 2 chunks need P = 2 mod 4
        ws_core.model(1, 1, 1001, 64, w=16, d=4, pes=8)


# --------------------------------------------------------------------------
# The registered core: the ring of a build from its HDL parameters


def _legal(m, pes, c, d, lat):
    """The array's rules (docs/ws.md, "Legal builds"), written out."""
    return (3 <= pes <= 512 and 1 <= c <= 4 and (c - 1) * pes <= m <= c * pes - 1 and 2 * c * d >= lat
            and (c == 1 or (pes % 2 == 0 and gcd(pes // 2, c) == 1)))


def test_fit_pes_is_the_fewest_legal():
    """fit_pes looks at eight candidates (as mm_ws.sv's fit_pe): the result
    is the smallest legal P of an exhaustive search, for every m the array
    can hold and every lap count."""
    for c in range(1, 5):
        for m in range(4, 2100):
            best = next((p for p in range(3, 513) if _legal(m, p, c, 8, 0)), 0)
            assert ws_core.fit_pes(m, c) == best, (m, c)


@pytest.mark.parametrize("k", [3, 8, 64, 1024, 4096, 8192])
@pytest.mark.parametrize("w,d,regs", [(16, 4, (3, 0)), (8, 3, (3, 0)), (4, 2, (2, 2)), (17, 2, (3, 0)), (2, 3, (2, 0))])
def test_build_from_the_width(k, w, d, regs):
    """NumPe = Chunks = 0: the fewest laps that have a legal ring, on the
    fewest PEs; qlat = -1 exactly at 2cd = L."""
    lat = ws_core.dsp_latency(*regs)
    m = ws_core.words(k, w, d)
    laps = [c for c in range(1, 5) if any(_legal(m, p, c, d, lat) for p in range(3, 513))]
    if not laps:
        with pytest.raises(ValueError, match="no ring"):
            ws_core.build(k, w, d, 0, 0, *regs)
        return
    b = ws_core.build(k, w, d, 0, 0, *regs)
    assert (b.m, b.chunks, b.latency) == (m, laps[0], lat)
    assert b.pes == min(p for p in range(3, 513) if _legal(m, p, b.chunks, d, lat))
    assert b.qlat == (-1 if 2 * b.chunks * d == lat else 0)
    # the same ring given explicitly, or by one of the two
    assert ws_core.build(k, w, d, b.pes, b.chunks, *regs) == b
    assert ws_core.build(k, w, d, b.pes, 0, *regs) == b
    assert ws_core.build(k, w, d, 0, b.chunks, *regs) == b


@pytest.mark.parametrize("args,match", [
    ((64, 16, 4, 8, 0), "ring of NumPe=8 cannot run Chunks=2"),   # m = 10: c = 2, P/2 even
    ((64, 16, 4, 6, 1), r"\(Chunks-1\)\*NumPe <= m"),              # m = 10 > P - 1
    ((64, 16, 4, 5, 0), "need 3 laps|cannot run"),                 # c = 3 on an odd P
    ((64, 16, 4, 2, 0), r"NumPe=2 outside"),
    ((64, 16, 4, 513, 0), r"NumPe=513 outside"),
    ((64, 16, 4, 0, 5), r"Chunks=5 outside"),
    ((64, 16, 2, 11, 0), "QuotDelay=2 too short"),                  # 2cd = 4 < L = 6
    ((64, 19, 4, 0, 0), "WordWidth=19 outside"),
    ((64, 16, 1, 0, 0), "QuotDelay=1 outside"),
    ((64, 16, 4, 0, 0, 4), "DspRegs=4"),
    ((64, 16, 4, 0, 0, 3, 3), "LoopRegs=3 outside"),
    ((8192, 2, 2, 0, 0), "no ring of at most 512 PEs and 4 laps"),
])
def test_build_rejects_illegal_rings(args, match):
    with pytest.raises(ValueError, match=match):
        ws_core.build(*args)


def test_core_model_is_the_model_of_the_build():
    """The registry's model (HDL parameter names) runs :func:`model` on the
    build's ring; the registry's latency is the model's cycles."""
    from montmul import cores

    core = cores.get("ws")
    rng = random.Random(5)
    for k, p in ((8, {}), (64, {"WordWidth": 8, "QuotDelay": 3}), (33, {"WordWidth": 4, "QuotDelay": 2, "Chunks": 2,
                                                                         "DspRegs": 2, "LoopRegs": 2})):
        hdl = core.hdl_params(k, **p)
        b = ws_core.build_of(k, hdl)
        n = rng.randrange(3, 1 << k) | 1
        a, bb = rng.randrange(2 * n), rng.randrange(2 * n)
        got = core.run_model(a, bb, n, k, p)
        assert got == ws_core.model(a, bb, n, k, w=b.w, d=b.d, pes=b.pes, l_dsp=b.latency, qlat=b.qlat)
        assert got.cycles == core.bound(k, p)
        assert got.result % n == a * bb * pow(2, -core.radix_log2(k, p, n), n) % n
