# SPDX-License-Identifier: Apache-2.0
"""Pure-Python tests of paper 003's model (``montmul.models.dsp``): the
redundant radix-2^r2 datapath of mm_dsp_redundant against ``pow()``, the value
bounds of docs/dsp.md after every iteration, the printed text's gaps shown by
example, and the paper's cycle and DSP counts from its own formulas.

Seeded random streams; runs in seconds.
"""

from __future__ import annotations

import math
import random

import pytest

from montmul.models import dsp
from montmul.models.common import InputError

CONFIGS = [(22, 15), (16, 16), (20, 12), (17, 13)]


def _r(width, r1, r2):
    return dsp.geometry(width, r1, r2).r_log2


def _check(a, b, n, width, r1=22, r2=15):
    res = dsp.dsp_redundant(a, b, n, width, r1=r1, r2=r2)
    assert 0 <= res.result < 2 * n
    assert res.result % n == a * b * pow(2, -_r(width, r1, r2), n) % n
    return res


def _moduli(rng, k):
    yield 3 if k >= 2 else None
    yield (1 << k) - 1
    yield (1 << (k - 1)) + 1
    for _ in range(4):
        yield rng.randrange(1 << (k - 1), 1 << k) | 1
        yield rng.randrange(3, 1 << k) | 1


@pytest.mark.parametrize("r1,r2", CONFIGS)
@pytest.mark.parametrize("width", [3, 8, 15, 16, 17, 22, 23, 64, 255, 256, 264, 504, 1024])
def test_against_pow(width, r1, r2):
    rng = random.Random(width * 1000 + r1 * 37 + r2)
    wide = width > 256 and (r1, r2) != (22, 15)  # wide widths: fewer samples off the default
    for i, n in enumerate(_moduli(rng, width)):
        if wide and i > 3:
            break
        ops = {0, 1, n - 1, n, 2 * n - 1, rng.randrange(2 * n), rng.randrange(n)}
        for a in ops:
            for b in (0, 2 * n - 1, rng.randrange(2 * n)) if wide else (0, 1, 2 * n - 1, rng.randrange(2 * n)):
                _check(a, b, n, width, r1, r2)


@pytest.mark.parametrize("width", [8, 64, 256])
def test_random_many(width):
    rng = random.Random(width)
    for _ in range(1500 if width < 256 else 400):
        n = rng.randrange(3, 1 << width) | 1
        _check(rng.randrange(2 * n), rng.randrange(2 * n), n, width)


def test_chaining_stays_in_range():
    """Outputs fed back as inputs (squarings) stay below 2N."""
    rng = random.Random(7)
    for width in (16, 256):
        for n in ((1 << width) - 1, rng.randrange(1 << (width - 1), 1 << width) | 1):
            x = 2 * n - 1
            for _ in range(20):
                x = _check(x, x, n, width).result


@pytest.mark.parametrize("width,r1,r2", [(256, 22, 15), (504, 22, 15), (64, 16, 16), (100, 20, 12)])
def test_value_bounds_after_each_iteration(width, r1, r2):
    """docs/dsp.md's bounds: S_i < (3*2^r1 - 1) N while A's digits are fed,
    S_{m+1} < (2^r1 + 1) N, S_{m+2} < (2^r1 - 1 + 2^(1-r1)) N, result < 2N."""
    rng = random.Random(width + r1)
    two = 1 << r1
    for trial in range(60):
        n = (1 << width) - 1 if trial % 3 == 0 else rng.randrange(1 << (width - 1), 1 << width) | 1
        a = 2 * n - 1 if trial % 2 else rng.randrange(2 * n)
        b = 2 * n - 1 if trial % 4 < 2 else rng.randrange(2 * n)
        s, g, trace = dsp.dsp_redundant_trace(a, b, n, width, r1=r1, r2=r2)
        vals = [dsp.value(t["s"], r2) for t in trace]  # S_1 .. S_{m+3}
        m = g.m
        assert all(v < (3 * two - 1) * n for v in vals[:m])
        assert vals[m] < (two + 1) * n
        assert vals[m + 1] * two < (two * two - two + 2) * n
        assert vals[m + 2] == s < 2 * n
        # the digits the RTL keeps hold every value
        assert all(v < 1 << (r2 * g.ds) for v in vals)
        assert all(d < 1 << (r2 + 2) for t in trace for d in t["s"])


def test_quotient_digit_is_s_mod_2r1():
    rng = random.Random(3)
    for r1, r2 in CONFIGS:
        for _ in range(2000):
            s = [rng.randrange(1 << (r2 + 2)) for _ in range(4)]
            assert dsp.quotient(s, r1, r2) == dsp.value(s, r2) % (1 << r1)


def test_mac_and_product_are_exact():
    rng = random.Random(4)
    for r1, r2 in CONFIGS:
        for _ in range(500):
            x = [rng.randrange(1 << (r2 + 2)) for _ in range(6)]
            c = [rng.randrange(1 << (r2 + 2)) for _ in range(7)]
            y = rng.randrange(1 << (r1 + 2))
            t = dsp.mac(x, y, c, r1, r2, 9)
            assert dsp.value(t, r2) == dsp.value(x, r2) * y + dsp.value(c, r2)
            assert all(d < 1 << (r2 + 2) for d in t)  # Sec. IV-B: T_j < 2^(r2+2)


def test_shift_carry_is_needed():
    """Discarding the low r1 bits of T (as printed) loses a carry: the low
    part is a nonzero multiple of 2^r1 in most iterations."""
    rng = random.Random(5)
    carries = 0
    for _ in range(200):
        n = rng.randrange(1 << 255, 1 << 256) | 1
        _, _, trace = dsp.dsp_redundant_trace(rng.randrange(2 * n), rng.randrange(2 * n), n, 256)
        carries += sum(t["c"] for t in trace)
    assert carries > 1000
    # and the shift with its carry is exact
    for r1, r2 in CONFIGS:
        for _ in range(300):
            t = [rng.randrange(1 << (r2 + 2)) for _ in range(6)]
            low = dsp.value(t, r2) % (1 << r1)
            t[0] = (t[0] - low) % (1 << (r2 + 2)) if t[0] >= low else t[0]
            if dsp.value(t, r2) % (1 << r1):
                continue
            u, c = dsp.shift(t, r1, r2)
            assert dsp.value(u, r2) + c == dsp.value(t, r2) >> r1


def test_printed_output_bound_is_2mtilde_not_2m():
    """Algorithm 1 as printed (M~ in every iteration) is correct mod N but its
    output exceeds 2N: the printed bound [0, 2M] holds for M~ only."""
    rng = random.Random(6)
    worst = 0
    for _ in range(300):
        n = rng.randrange(1 << 255, 1 << 256) | 1
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        m = dsp.paper_ma(256)
        s = dsp.printed_algorithm1(a, b, n, 22, m)
        mt = ((-pow(n, -1, 1 << 22)) % (1 << 22)) * n
        assert s % n == a * b * pow(2, -22 * (m + 2), n) % n
        assert s < 2 * mt
        worst = max(worst, s / n)
    assert worst > 2 ** 20


def test_neg_inverse():
    for r1 in (16, 17, 20, 22, 24):
        for n in range(1, 4000, 2):
            mp, steps = dsp.neg_inverse(n, r1)
            assert (n * mp) % (1 << r1) == (1 << r1) - 1
            assert len(steps) == math.ceil(math.log2(r1 / 5)) + 1  # 5 -> 10 -> 20 -> 40 bits


def test_geometry_and_cycles_against_the_paper():
    """Sec. IV-C: ma + 3 cycles, 2*mb + 4 DSPs; Table I: 15/31/47 cycles at
    256 bits and 26/53/80 at 504 bits for 1/2/3 interleaved products."""
    table1 = {256: (15, 31, 47, 40), 504: (26, 53, 80, 72)}
    for width, (c1, c2, c3, dsps) in table1.items():
        assert [dsp.paper_batch_cycles(width, 22, i) for i in (1, 2, 3)] == [c1, c2, c3]
        assert dsp.paper_dsp_count(width, 15) == dsps
        # independently: ma = ceil(log2 M / r1) for a full-width M
        ma = -(-width // 22)
        assert c1 == ma + 3
        g = dsp.geometry(width)
        assert g.iterations == ma + 3  # our m agrees with the paper's at both sizes
        assert g.multipliers <= dsps
    with pytest.raises(InputError):
        dsp.paper_batch_cycles(256, 22, 4)


def test_latency_is_constant_and_breakdown_sums():
    rng = random.Random(8)
    for width in (8, 64, 256):
        g = dsp.geometry(width)
        lats = set()
        for _ in range(50):
            n = rng.randrange(3, 1 << width) | 1
            res = dsp.dsp_redundant(rng.randrange(2 * n), rng.randrange(2 * n), n, width)
            lats.add(res.cycles)
            assert sum(res.breakdown.values()) == res.cycles
            assert res.breakdown["kernel"] == g.iterations == g.m + 3  # the paper's count
        assert lats == {g.latency}


def test_rejects():
    for a, b, n in [(1, 1, 4), (1, 1, 1), (6, 0, 3), (0, 6, 3), (-1, 0, 3), (0, 0, 1 << 8)]:
        with pytest.raises(InputError):
            dsp.dsp_redundant(a, b, n, 8)
    for r1, r2 in [(14, 15), (27, 15), (22, 3)]:
        with pytest.raises(InputError):
            dsp.dsp_redundant(1, 1, 3, 8, r1=r1, r2=r2)
    with pytest.raises(InputError):
        dsp.geometry(2)


def test_interleave_latency_and_ring_schedule():
    """Every step takes Interleave cycles; the ring schedule of mm_req_pipe:
    I requests on consecutive edges, no more until a response is taken, a
    phase's context reusable at the edge its product completes."""
    lat1 = dsp.latency(256)
    assert lat1 == 3 + 12 + 5  # P + m + 5 at r1 = 22: Newton 5 -> 10 -> 20 -> 40 bits
    for ilv in (1, 2, 3):
        res = dsp.dsp_redundant(5, 7, 11, 256, interleave=ilv)
        assert res.cycles == ilv * lat1 == sum(res.breakdown.values())
        ring = dsp.RingSchedule(256, interleave=ilv)
        for t in range(ilv):
            assert ring.ready(t)
            ring.accept(t, legal=True)
        assert not ring.ready(ilv)  # I outstanding
        assert ring.valid_edge() == ilv * lat1
        for t in range(ilv):
            ring.take(ilv * lat1 + t)
        assert ring.taken[-1] - 0 == dsp.batch_cycles(256, interleave=ilv) == ilv - 1 + ilv * lat1
        # every phase is free again; a rejected request takes no context
        e = ring.taken[-1] + 1
        ring.accept(e, legal=False)
        assert ring.valid_edge() == e
        assert ring.ready(e + 1) == (ilv > 1)
    ring = dsp.RingSchedule(64, interleave=2)
    ring.accept(10, legal=True)
    ring.take(10 + 2 * dsp.latency(64))
    assert not ring.ready(12)  # same phase, context busy
    assert ring.ready(11)
    assert ring.ready(10 + 2 * dsp.latency(64))  # finishing: reusable at that edge
    with pytest.raises(InputError):
        dsp.dsp_redundant(1, 1, 3, 8, interleave=4)
