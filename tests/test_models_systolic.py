# SPDX-License-Identifier: Apache-2.0
"""Models of paper 004's systolic and multiplexed systolic multipliers
(montmul.models.systolic): results against pow(), the output bound under
worst-case operands, the Montgomery constant N', and the cycle schedule
against an independent event-level derivation of the array."""
from __future__ import annotations

import random

import pytest

from montmul.models import InputError
from montmul.models import systolic as sy

WORD_WIDTHS = (4, 8, 16, 32)
WIDTHS = (3, 8, 14, 15, 16, 17, 30, 31, 32, 33, 62, 63, 64, 65, 127, 128, 257)
MODELS = (sy.systolic, sy.systolic_mux)


def _mont(a, b, n, rlog):
    return a * b * pow(2, -rlog, n) % n


def test_words_and_radix():
    # R = 2^(w*m) is the smallest whole number of words above 4N for N < 2^k.
    for w in WORD_WIDTHS:
        for k in range(3, 300):
            m = sy.words(k, w)
            assert w * m >= k + 2 > w * (m - 1)
            assert sy.r_log2(k, w) == w * m
    assert sy.words(1024, 32) == 33 and sy.words(1024, 16) == 65
    assert sy.words(1022, 32) == 32  # the paper's 32 PEs fit a 1022-bit modulus


def test_bad_word_width():
    for w in (0, 3, 33, 64):
        with pytest.raises(ValueError):
            sy.words(64, w)
        with pytest.raises(ValueError):
            sy.systolic(1, 1, 7, 8, word_width=w)


@pytest.mark.parametrize("model", MODELS)
def test_rejects_bad_inputs(model):
    for a, b, n in ((1, 1, 8), (1, 1, 1), (1, 1, 0), (22, 1, 11), (1, 22, 11), (1, 1, 1 << 8), (-1, 1, 11)):
        with pytest.raises(InputError):
            model(a, b, n, 8)


def test_inverse_seed_exhaustive():
    # N * (3N xor 2) = 1 mod 32 for every odd N: five correct bits to start.
    for n in range(1, 1 << 12, 2):
        assert n * ((3 * n) ^ 2) % 32 == 1


@pytest.mark.parametrize("w", WORD_WIDTHS)
def test_n_prime(w):
    r = 1 << w
    rng = random.Random(w)
    ns = range(1, r, 2) if w <= 12 else [rng.randrange(1, r) | 1 for _ in range(4000)] + [1, r - 1, r // 2 + 1]
    for n in ns:
        assert n * sy.n_prime(n, w) % r == r - 1
        # the seed alone is not enough beyond 5 bits: the steps are needed
    if w > sy.INV_SEED_BITS:
        assert any(n * sy.inv_seed(n, w) % r != r - 1 for n in range(1, 1 << w, 2))
    # one step fewer than inv_steps leaves some N wrong
    steps = sy.inv_steps(w)
    if steps:
        bad = 0
        for n in range(1, min(r, 1 << 12), 2):
            y = sy.inv_seed(n, w)
            for _ in range(steps - 1):
                y = sy.quotient_block(n % r, y, 2, y, w)
            bad += n * y % r != r - 1
        assert bad


@pytest.mark.parametrize("w", WORD_WIDTHS)
@pytest.mark.parametrize("model", MODELS)
def test_random_against_pow(model, w):
    rng = random.Random(100 + w)
    for k in WIDTHS:
        rlog = sy.r_log2(k, w)
        for t in range(25):
            n = rng.randrange(3, 1 << k) | 1 if t % 3 else rng.randrange(1 << (k - 1), 1 << k) | 1
            bound = 2 * n if t % 2 else n
            a, b = rng.randrange(bound), rng.randrange(bound)
            res = model(a, b, n, k, word_width=w)
            assert res.result % n == _mont(a, b, n, rlog)
            assert 0 <= res.result < 2 * n
            assert res.result == sy.algorithm1(a, b, n, k, w)


def _worst_operands(k):
    """Moduli and operands that push S towards its bound: N = 2^k - 1 and
    other dense/sparse N, operands 2N - 1, N, N - 1, 0, 1 and words of all
    ones."""
    mods = {3, 5, 7, (1 << k) - 1, (1 << k) - 3, (1 << (k - 1)) + 1, (1 << (k - 1)) - 1}
    mods = {n for n in mods if 3 <= n < (1 << k)}
    for n in sorted(mods):
        ops = {0, 1, n - 1, n, n + 1, 2 * n - 1, 2 * n - 2, ((1 << (k + 1)) - 1) % (2 * n)}
        for a in ops:
            for b in ops:
                if a < 2 * n and b < 2 * n:
                    yield a, b, n


@pytest.mark.parametrize("w", WORD_WIDTHS)
def test_worst_case_bound(w):
    """S < 2N at the end (and S < 3N after every iteration, asserted inside
    algorithm1) for the operands that maximise it; chained squarings of the
    largest input stay in range."""
    for k in (3, 4, 5, 8, 15, 16, 17, 31, 32, 33, 64, 65, 96):
        rlog = sy.r_log2(k, w)
        for a, b, n in _worst_operands(k):
            for model in MODELS:
                res = model(a, b, n, k, word_width=w)
                assert res.result < 2 * n and res.result % n == _mont(a, b, n, rlog)
        n = (1 << k) - 1
        x = 2 * n - 1
        for _ in range(20):
            x = sy.systolic(x, x, n, k, word_width=w).result
            assert x < 2 * n


def test_bound_search_and_tightness():
    """Random search for the largest S/N: it stays below 2, and with one
    word fewer (R = r^(m-1) <= 2^(k+1), below 4N for large N) the bound breaks:
    the k + 2 in m = ceil((k+2)/w) is needed."""
    rng = random.Random(5)
    worst = 0.0
    for _ in range(3000):
        w = rng.choice(WORD_WIDTHS)
        k = rng.randrange(3, 80)
        n = rng.randrange(max(3, (1 << k) - (1 << max(1, k - 3))), 1 << k) | 1
        a, b = rng.randrange(n, 2 * n), rng.randrange(n, 2 * n)
        s = sy.algorithm1(a, b, n, k, w)
        worst = max(worst, s / n)
        assert s < 2 * n
    assert worst > 1.0  # the search does reach the upper half

    # With R = 2^(k+1) (e.g. k = 31, w = 16: 2 words = 32 bits), S >= 2N occurs.
    def short(a, b, n, w, m):
        r = 1 << w
        npr = -pow(n, -1, r) % r
        s = 0
        for i in range(m):
            ai = (a >> (w * i)) % r
            q = ((s + ai * b) * npr) % r
            s = (s + ai * b + q * n) >> w
        return s

    k, w = 31, 16
    n = (1 << k) - 1
    assert 2 * w < k + 2  # one word fewer than sy.words(k, w)
    over = [x for x in range(2 * n - 200, 2 * n) if short(x, x, n, w, 2) >= 2 * n]
    assert over, "expected outputs >= 2N with R = 2^(k+1)"


# ---------------------------------------------------------------------------
# Cycle schedule: an independent event-level derivation


def _asap_systolic(m, istep):
    """Earliest finishing cycle of every operation of the systolic array,
    from its data dependencies, one cycle per operation:
    Q_i (quotient block) needs S_0 of iteration i (PE_1 of i-1, or PE_0 if
    m = 1) and N'; PE(i, j) needs q_i (Q_i, forwarded through PE(i, j-1)),
    the carry of PE(i, j-1) and S_j (PE(i-1, j+1), or PE(i-1, m-1) for the
    last word)."""
    q, pe = {}, {}
    for i in range(m):
        dep = istep
        if i:
            dep = max(dep, pe[i - 1, 1 if m > 1 else 0])
            dep = max(dep, q[i - 1])  # one quotient block
        q[i] = dep + 1
        for j in range(m):
            d = q[i] if j == 0 else pe[i, j - 1]
            if i:
                d = max(d, pe[i - 1, min(j + 1, m - 1)], pe[i - 1, j])
            pe[i, j] = d + 1
    # each PE does one operation per cycle
    for j in range(m):
        times = [pe[i, j] for i in range(m)]
        assert len(set(times)) == m
    return pe[m - 1, m - 1]


def _asap_mux(m, istep):
    """Same for the multiplexed array: MB(i, j) (the multiplier block of
    core j // 4 on word j) needs q_i (j = 0) or MB(i, j-1) (the carries
    hx, hy and the forwarded a_i, q_i), and S_j (PE(i-1, j+1), or the last PE
    for j = m-1); PE(i, j) needs MB(i, j) and PE(i, j-1).  Each multiplier
    block may take one word per cycle: checked, not assumed."""
    q, mb, pe = {}, {}, {}
    for i in range(m):
        dep = istep
        if i:
            dep = max(dep, pe[i - 1, 1 if m > 1 else 0], q[i - 1])
        q[i] = dep + 1
        for j in range(m):
            d = q[i] if j == 0 else mb[i, j - 1]
            if i:
                d = max(d, pe[i - 1, min(j + 1, m - 1)], mb[i - 1, j])
            mb[i, j] = d + 1
            pe[i, j] = max(mb[i, j], pe.get((i, j - 1), 0)) + 1
    used = {}
    for (i, j), t in mb.items():
        key = (j // sy.PES_PER_CORE, t)
        assert key not in used, f"multiplier block {j // 4} double-booked at cycle {t}"
        used[key] = (i, j)
    return pe[m - 1, m - 1]


@pytest.mark.parametrize("w", WORD_WIDTHS)
def test_schedule_against_event_level(w):
    for k in list(range(3, 70)) + [127, 128, 255, 256, 512, 1024, 2048]:
        m, istep = sy.words(k, w), sy.inv_steps(w)
        assert sy.systolic_latency(k, w) == _asap_systolic(m, istep)
        assert sy.systolic_mux_latency(k, w) == _asap_mux(m, istep)


@pytest.mark.parametrize("w", WORD_WIDTHS)
def test_model_cycles(w):
    """The register-transfer models run for exactly the derived latency,
    whatever the operands; the breakdown adds up."""
    rng = random.Random(w)
    for k in (3, 8, 16, 33, 64, 100, 256):
        n = rng.randrange(3, 1 << k) | 1
        for model, lat in ((sy.systolic, sy.systolic_latency), (sy.systolic_mux, sy.systolic_mux_latency)):
            for a, b in ((0, 0), (2 * n - 1, 2 * n - 1), (rng.randrange(2 * n), rng.randrange(2 * n))):
                res = model(a, b, n, k, word_width=w)
                assert res.cycles == lat(k, w)
                assert sum(res.breakdown.values()) == res.cycles


def test_known_latencies_1024():
    # Worked by hand in docs/systolic.md: I = 3 (w = 32) / 2 (w = 16).
    assert (sy.words(1024, 32), sy.inv_steps(32)) == (33, 3)
    assert sy.systolic_latency(1024, 32) == 3 + 4 * 33 - 2
    assert sy.systolic_mux_latency(1024, 32) == 3 + 5 * 33 - 2
    assert sy.systolic_latency(1024, 16) == 2 + 4 * 65 - 2


def test_multiplier_budget():
    """The multiplexed core uses at most half the multipliers of the
    systolic one once there are three words or more."""
    for w in WORD_WIDTHS:
        for k in range(3, 2100, 7):
            ms = sy.multipliers(k, w, "systolic")
            mx = sy.multipliers(k, w, "systolic_mux")
            assert ms == 2 * sy.words(k, w) + 2
            if sy.words(k, w) >= 3:
                assert 2 * mx <= ms
    with pytest.raises(ValueError):
        sy.multipliers(64, 16, "other")
