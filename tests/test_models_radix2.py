# SPDX-License-Identifier: Apache-2.0
"""Pure-Python tests of the corrected radix-2 models in ``montmul.models.radix2``.

Every corrected model must compute the Montgomery product

    MM(A, B) = A * B * 2^-(k+2)  (mod N)

for odd N, 3 <= N < 2^k, operands in [0, 2N), with the output in [0, 2N)
(Walter's bound, so products chain without a final subtraction).  The
reference is Python's ``pow(2, -(k+2), N)``.

No simulator is involved; the file is sized to run in well under a minute on
two cores (``pytest -n 2``).  All random streams are seeded from the test
parameters, so a failure reproduces exactly.
"""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from montmul.models import radix2
from montmul.models.common import InputError, MMResult

# --------------------------------------------------------------------------
# Models under test
# --------------------------------------------------------------------------
# Binary-operand entry points of every corrected model.  ``scs1`` is also run
# with a narrow CPA (more conversion words) and ``scs_new`` without skipping
# (the constant-time configuration); both must compute the same function.
MODELS = {
    "basic": radix2.basic,
    "scs1": radix2.scs1,
    "scs1_cpa8": functools.partial(radix2.scs1, cpa_width=8),
    "scs2": radix2.scs2,
    "fcs1": radix2.fcs1,
    "fcs2": radix2.fcs2,
    "mscs": radix2.mscs,
    "scs_new": radix2.scs_new,
    "scs_new_noskip": functools.partial(radix2.scs_new, skip=False),
}
NAMES = list(MODELS)

# Models that run exactly the k+2-iteration recurrence S <- (S + A_i B + q_i N)/2
# of Fig. 1 (in binary or carry-save form).  The value of S after every
# iteration does not depend on how it is split into sum and carry words, so
# these must agree bit for bit with ``basic``.
WALTER_K2 = ["scs1", "scs1_cpa8", "scs2", "fcs1", "fcs2", "mscs"]

CS_MODELS = {"fcs1_cs": radix2.fcs1_cs, "fcs2_cs": radix2.fcs2_cs}

# Random samples per (model, width, N mod 4, operand range).  Tuned so that
# the whole file takes well under a minute on two cores.
SAMPLES = {
    8: 1500,
    16: 1500,
    32: 800,
    64: 400,
    128: 150,
    256: 60,
    512: 25,
    1024: 10,
    2048: 5,
}
WIDTHS = list(SAMPLES)


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------
def ref(a: int, b: int, n: int, k: int) -> int:
    """A*B*2^-(k+2) mod N, fully reduced."""
    return a * b * pow(2, -(k + 2), n) % n


def check(res: MMResult, a: int, b: int, n: int, k: int, what: str = "") -> None:
    assert isinstance(res, MMResult), what
    r = res.result
    assert 0 <= r < 2 * n, f"{what}: result {r} outside [0, 2N) for a={a} b={b} n={n} k={k}"
    assert r % n == ref(a, b, n, k), (
        f"{what}: wrong residue for a={a} b={b} n={n} k={k}: got {r} (mod N {r % n}), "
        f"expected {ref(a, b, n, k)}"
    )


def rand_modulus(rng: random.Random, k: int, residue: int) -> int:
    """Random odd N with 3 <= N < 2^k and N = residue (mod 4).

    Half the moduli use the full width (top bit set, the hard case for the
    bounds), half have a random shorter bit length.
    """
    assert residue in (1, 3)
    while True:
        bits = k if rng.random() < 0.5 else rng.randint(2, k)
        n = (rng.randrange(1 << (bits - 1), 1 << bits) & ~3) | residue
        if 3 <= n < (1 << k):
            return n


def rng_for(*key) -> random.Random:
    # str seeds are hashed with SHA-512: deterministic across runs and hosts.
    return random.Random("-".join(map(str, key)))


def cs_split(rng: random.Random, v: int) -> tuple[int, int]:
    """A random carry-save form (s, c) of v >= 0, s + c == v."""
    mode = rng.randrange(4)
    if mode == 0:
        return v, 0
    if mode == 1:
        return 0, v
    if mode == 2:  # disjoint bit sets, like a freshly loaded register pair
        m = rng.getrandbits(max(v.bit_length(), 1))
        return v & m, v & ~m
    s = rng.randrange(v + 1)  # arbitrary split
    return s, v - s


# --------------------------------------------------------------------------
# Random moduli and operands against pow()
# --------------------------------------------------------------------------
@pytest.mark.parametrize("bound", ["N", "2N"])
@pytest.mark.parametrize("residue", [1, 3], ids=["N=1mod4", "N=3mod4"])
@pytest.mark.parametrize("k", WIDTHS)
@pytest.mark.parametrize("name", NAMES)
def test_random_against_pow(name, k, residue, bound):
    f = MODELS[name]
    rng = rng_for("random", name, k, residue, bound)
    for _ in range(SAMPLES[k]):
        n = rand_modulus(rng, k, residue)
        assert n % 4 == residue
        top = n if bound == "N" else 2 * n
        a, b = rng.randrange(top), rng.randrange(top)
        check(f(a, b, n, k), a, b, n, k, name)


@pytest.mark.parametrize("k", [8, 16, 64, 512])
@pytest.mark.parametrize("name", WALTER_K2)
def test_k2_models_agree_with_basic(name, k):
    """The k+2-iteration models compute the very same value as Fig. 1."""
    f = MODELS[name]
    rng = rng_for("agree", name, k)
    for _ in range(SAMPLES[k] // 4):
        n = rand_modulus(rng, k, rng.choice((1, 3)))
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        assert f(a, b, n, k).result == radix2.basic(a, b, n, k).result, (a, b, n, k)


@pytest.mark.parametrize("k", [8, 16, 64, 512])
def test_scs_new_skip_does_not_change_result(k):
    rng = rng_for("noskip", k)
    for _ in range(SAMPLES[k] // 4):
        n = rand_modulus(rng, k, rng.choice((1, 3)))
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        with_skip = radix2.scs_new(a, b, n, k)
        without = radix2.scs_new(a, b, n, k, skip=False)
        assert with_skip.result == without.result, (a, b, n, k)


# --------------------------------------------------------------------------
# Corner moduli and operands
# --------------------------------------------------------------------------
def corner_moduli(k: int) -> list[int]:
    return sorted({m for m in (3, (1 << k) - 1, (1 << (k - 1)) + 1) if 3 <= m < (1 << k)})


def corner_operands(n: int) -> list[int]:
    return sorted({0, 1, n - 1, n, 2 * n - 1})


@pytest.mark.parametrize("k", [2, 3, 4, 5, 8, 16, 17, 32, 64, 255, 256, 1024, 2048])
@pytest.mark.parametrize("name", NAMES)
def test_corners(name, k):
    f = MODELS[name]
    moduli = corner_moduli(k)
    assert 3 in moduli and (1 << k) - 1 in moduli
    for n in moduli:
        for a in corner_operands(n):
            for b in corner_operands(n):
                check(f(a, b, n, k), a, b, n, k, name)


def test_corner_moduli_cover_both_residues():
    # 2^k - 1 = 3 mod 4 and 2^(k-1) + 1 = 1 mod 4: both quotient-digit
    # regimes of SCS-MM-New are among the corners.
    for k in (8, 16, 2048):
        assert {m % 4 for m in corner_moduli(k)} == {1, 3}


@pytest.mark.parametrize("k", [8, 16, 64])
@pytest.mark.parametrize("name", NAMES)
def test_small_moduli_at_wide_width(name, k):
    """Every odd modulus below 64 (so N much narrower than k) with operands
    sweeping [0, 2N)."""
    f = MODELS[name]
    for n in range(3, 64, 2):
        for a in range(0, 2 * n, 3):
            for b in (0, 1, n - 1, n, n + 1, 2 * n - 1):
                check(f(a, b, n, k), a, b, n, k, name)


# --------------------------------------------------------------------------
# Long chains: squarings and multiplications, as in an exponentiation
# --------------------------------------------------------------------------
CHAINS = {8: 20, 16: 20, 32: 10, 64: 6, 256: 3, 1024: 1, 2048: 1}


@pytest.mark.parametrize("residue", [1, 3], ids=["N=1mod4", "N=3mod4"])
@pytest.mark.parametrize("k", list(CHAINS))
@pytest.mark.parametrize("name", NAMES)
def test_squaring_chain_from_top(name, k, residue):
    """x <- MM(x, x) 64 times starting from the largest operand 2N-1, every
    tenth step also x <- MM(x, y) with a fixed y; x never leaves [0, 2N)."""
    f = MODELS[name]
    rng = rng_for("square", name, k, residue)
    for _ in range(CHAINS[k]):
        n = rand_modulus(rng, k, residue)
        rinv = pow(2, -(k + 2), n)
        y = rng.randrange(2 * n)
        x = x_ref = 2 * n - 1
        for step in range(64):
            x = f(x, x, n, k).result
            x_ref = x_ref * x_ref * rinv % n
            assert 0 <= x < 2 * n, (name, n, k, step, x)
            assert x % n == x_ref, (name, n, k, step)
            if step % 10 == 9:
                x = f(x, y, n, k).result
                x_ref = x_ref * y * rinv % n
                assert 0 <= x < 2 * n, (name, n, k, step, x)
                assert x % n == x_ref, (name, n, k, step)


@pytest.mark.parametrize("residue", [1, 3], ids=["N=1mod4", "N=3mod4"])
@pytest.mark.parametrize("k", list(CHAINS))
@pytest.mark.parametrize("name", NAMES)
def test_modular_exponentiation(name, k, residue):
    """Left-to-right square-and-multiply with a 64-bit exponent entirely in
    the Montgomery domain (64 squarings, ~32 multiplications), then
    MM(x, 1) to leave the domain; the result equals pow(base, e, N)."""
    f = MODELS[name]
    rng = rng_for("exp", name, k, residue)
    for _ in range(CHAINS[k]):
        n = rand_modulus(rng, k, residue)
        r_mod = (1 << (k + 2)) % n
        base = rng.randrange(n)
        e = rng.getrandbits(64) | (1 << 63)
        y = f(base, r_mod * r_mod % n, n, k).result  # base * R mod N
        assert 0 <= y < 2 * n and y % n == base * r_mod % n
        acc = r_mod  # 1 in the Montgomery domain
        prefix = 0
        for bit in bin(e)[2:]:
            acc = f(acc, acc, n, k).result
            prefix *= 2
            if bit == "1":
                acc = f(acc, y, n, k).result
                prefix += 1
            assert 0 <= acc < 2 * n, (name, n, k, prefix, acc)
            assert acc % n == pow(base, prefix, n) * r_mod % n, (name, n, k, prefix)
        assert prefix == e
        out = f(acc, 1, n, k).result
        # Walter: MM(x, 1) with x < 2N is at most N (N only when x = 0 mod N).
        assert 0 <= out <= n, (name, n, k, out)
        assert out % n == pow(base, e, n), (name, n, k)


# --------------------------------------------------------------------------
# Cycle counts
# --------------------------------------------------------------------------
PHASES = {"precompute", "loop", "convert"}


def phase_sum(res: MMResult) -> int:
    return sum(v for key, v in res.breakdown.items() if key != "skips")


@pytest.mark.parametrize("k", [2, 8, 16, 33, 64, 256, 1024])
@pytest.mark.parametrize("name", NAMES)
def test_cycles_equal_phase_sum(name, k):
    f = MODELS[name]
    rng = rng_for("cycles", name, k)
    for _ in range(200 if k <= 64 else 20):
        n = rand_modulus(rng, k, 3) if k < 3 else rand_modulus(rng, k, rng.choice((1, 3)))
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        res = f(a, b, n, k)
        phases = {key: v for key, v in res.breakdown.items() if key != "skips"}
        assert set(phases) <= PHASES, res.breakdown
        assert "loop" in phases
        assert all(isinstance(v, int) and v >= 1 for v in phases.values()), res.breakdown
        assert res.cycles == phase_sum(res), (name, a, b, n, k, res)


@pytest.mark.parametrize("k", [2, 8, 16, 64, 1024])
def test_cycles_fixed_latency_models(k):
    rng = rng_for("fixed", k)
    for _ in range(100 if k <= 64 else 10):
        n = rand_modulus(rng, k, 3) if k < 3 else rand_modulus(rng, k, rng.choice((1, 3)))
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        r = radix2.basic(a, b, n, k)
        assert r.cycles == k + 2 and r.breakdown == {"loop": k + 2}
        r = radix2.fcs1(a, b, n, k)
        assert r.cycles == k + 2 and r.breakdown == {"loop": k + 2}
        r = radix2.fcs2(a, b, n, k)
        assert r.breakdown == {"precompute": 1, "loop": k + 2} and r.cycles == k + 3
        for w in (8, 32, 64):
            r = radix2.scs1(a, b, n, k, cpa_width=w)
            words = -(-(k + 1) // w)
            assert r.breakdown == {"loop": k + 2, "convert": words}
            assert r.cycles == k + 2 + words
        for name in ("scs2", "mscs"):
            r = MODELS[name](a, b, n, k)
            assert r.breakdown["loop"] == k + 2
            assert r.breakdown["convert"] >= 1


@pytest.mark.parametrize("k", [8, 16, 32, 64, 256, 1024])
def test_scs_new_skip_accounting(k):
    rng = rng_for("skips", k)
    max_skips = 0
    for _ in range(300 if k <= 64 else 20):
        n = rand_modulus(rng, k, rng.choice((1, 3)))
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        r = radix2.scs_new(a, b, n, k)
        skips = r.breakdown["skips"]
        assert skips >= 0
        # iterations i = -1 .. k+4 (k+6 of them); a skip retires two per cycle
        assert r.breakdown["loop"] == k + 6 - skips, (a, b, n, k, r.breakdown)
        max_skips = max(max_skips, skips)

        r0 = radix2.scs_new(a, b, n, k, skip=False)
        assert r0.breakdown["skips"] == 0
        assert r0.breakdown["loop"] == k + 6
        assert r0.breakdown["precompute"] == r.breakdown["precompute"]
        assert r0.cycles == phase_sum(r0)
    # the skip path is actually exercised on random operands
    assert max_skips > 0


def test_scs_new_skips_with_zero_operand():
    # A = 0: every iteration before the last may skip, so about half of the
    # k+6 iterations are retired in pairs.
    k = 64
    n = (1 << k) - 1
    r = radix2.scs_new(0, n, n, k)
    assert r.result == 0
    assert r.breakdown["skips"] >= (k + 4) // 2 - 1
    assert r.breakdown["loop"] == k + 6 - r.breakdown["skips"]


# --------------------------------------------------------------------------
# Carry-save operands (FCS-MM-1, FCS-MM-2)
# --------------------------------------------------------------------------
@pytest.mark.parametrize("residue", [1, 3], ids=["N=1mod4", "N=3mod4"])
@pytest.mark.parametrize("k", [8, 16, 32, 64, 256, 1024, 2048])
@pytest.mark.parametrize("name", list(CS_MODELS))
def test_carry_save_operands(name, k, residue):
    f = CS_MODELS[name]
    rng = rng_for("cs", name, k, residue)
    for _ in range(SAMPLES[k] // 2):
        n = rand_modulus(rng, k, residue)
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        a_s, a_c = cs_split(rng, a)
        b_s, b_c = cs_split(rng, b)
        ss, sc, res = f(a_s, a_c, b_s, b_c, n, k)
        assert ss >= 0 and sc >= 0
        assert res.result == ss + sc
        check(res, a, b, n, k, name)
        assert res.cycles == phase_sum(res)
        # the value does not depend on the split of the operands
        assert ss + sc == radix2.basic(a, b, n, k).result


@pytest.mark.parametrize("residue", [1, 3], ids=["N=1mod4", "N=3mod4"])
@pytest.mark.parametrize("k", [8, 16, 64, 1024])
@pytest.mark.parametrize("name", list(CS_MODELS))
def test_carry_save_chain(name, k, residue):
    """Results fed back in carry-save form, as the FCS cores are meant to be
    used: 60 squarings of (SS, SC), every seventh step times a fixed (YS, YC)."""
    f = CS_MODELS[name]
    rng = rng_for("cschain", name, k, residue)
    for _ in range(CHAINS.get(k, 1)):
        n = rand_modulus(rng, k, residue)
        rinv = pow(2, -(k + 2), n)
        y = rng.randrange(2 * n)
        y_s, y_c = cs_split(rng, y)
        x_s, x_c = cs_split(rng, 2 * n - 1)
        x_ref = (2 * n - 1) % n
        for step in range(60):
            x_s, x_c, res = f(x_s, x_c, x_s, x_c, n, k)
            x_ref = x_ref * x_ref * rinv % n
            assert 0 <= x_s + x_c < 2 * n and res.result == x_s + x_c
            assert (x_s + x_c) % n == x_ref, (name, n, k, step)
            if step % 7 == 6:
                x_s, x_c, res = f(x_s, x_c, y_s, y_c, n, k)
                x_ref = x_ref * y * rinv % n
                assert 0 <= x_s + x_c < 2 * n
                assert (x_s + x_c) % n == x_ref, (name, n, k, step)


@pytest.mark.parametrize("name", list(CS_MODELS))
def test_carry_save_corner_operands(name):
    f = CS_MODELS[name]
    for k in (2, 8, 16, 64):
        for n in corner_moduli(k):
            for a in corner_operands(n):
                for b in corner_operands(n):
                    for a_s, a_c in ((a, 0), (0, a), (a // 2, a - a // 2)):
                        for b_s, b_c in ((b, 0), (0, b), (b - b // 3, b // 3)):
                            ss, sc, res = f(a_s, a_c, b_s, b_c, n, k)
                            assert res.result == ss + sc
                            check(res, a, b, n, k, name)


# --------------------------------------------------------------------------
# Property tests (hypothesis)
# --------------------------------------------------------------------------
@st.composite
def requests(draw, max_width=192):
    k = draw(st.integers(2, max_width))
    n = 2 * draw(st.integers(1, (1 << (k - 1)) - 1)) + 1  # odd, 3 <= n < 2^k
    a = draw(st.integers(0, 2 * n - 1))
    b = draw(st.integers(0, 2 * n - 1))
    return a, b, n, k


@settings(max_examples=300, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(req=requests())
def test_property_all_models(req):
    a, b, n, k = req
    base = radix2.basic(a, b, n, k).result
    for name, f in MODELS.items():
        res = f(a, b, n, k)
        check(res, a, b, n, k, name)
        assert res.cycles == phase_sum(res)
        if name in WALTER_K2:
            assert res.result == base, name


@settings(max_examples=200, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(req=requests(), fa=st.floats(0, 1), fb=st.floats(0, 1))
def test_property_carry_save(req, fa, fb):
    a, b, n, k = req
    a_s = int(a * fa)
    b_s = int(b * fb)
    for name, f in CS_MODELS.items():
        ss, sc, res = f(a_s, a - a_s, b_s, b - b_s, n, k)
        assert res.result == ss + sc
        check(res, a, b, n, k, name)


@settings(max_examples=150, deadline=None, database=None)
@given(req=requests(max_width=96), steps=st.integers(50, 70))
def test_property_chain(req, steps):
    a, b, n, k = req
    rinv = pow(2, -(k + 2), n)
    for name in ("basic", "mscs", "scs_new", "fcs2"):
        f = MODELS[name]
        x, x_ref = a, a % n
        for step in range(steps):
            if step % 5 == 4:
                x, x_ref = f(x, b, n, k).result, x_ref * b * rinv % n
            else:
                x, x_ref = f(x, x, n, k).result, x_ref * x_ref * rinv % n
            assert 0 <= x < 2 * n and x % n == x_ref, (name, step)


# --------------------------------------------------------------------------
# Rejected requests
# --------------------------------------------------------------------------
ALL_ENTRY_POINTS = dict(MODELS)
ALL_ENTRY_POINTS["scs_new_printed"] = radix2.scs_new_printed
ALL_ENTRY_POINTS["fcs1_cs"] = lambda a, b, n, k: radix2.fcs1_cs(a, 0, b, 0, n, k)
ALL_ENTRY_POINTS["fcs2_cs"] = lambda a, b, n, k: radix2.fcs2_cs(a, 0, b, 0, n, k)


def bad_requests(k: int):
    """(a, b, n) triples that every core must reject at width k."""
    n_ok = (1 << k) - 1
    yield 0, 0, 1 << (k - 1)  # even N
    yield 1, 1, (1 << (k - 1)) + 2  # even N
    yield 0, 0, 2  # even and below 3
    yield 0, 0, 1  # odd but below 3
    yield 0, 0, -1
    yield 0, 0, -3
    yield 0, 0, (1 << k) + 1  # odd but does not fit in k bits
    yield 0, 0, (1 << (k + 1)) - 1
    yield 2 * n_ok, 0, n_ok  # A = 2N
    yield 0, 2 * n_ok, n_ok  # B = 2N
    yield 2 * n_ok + 1, 1, n_ok
    yield 1, 4 * n_ok, n_ok
    yield -1, 0, n_ok
    yield 0, -1, n_ok
    yield 2 * 3, 0, 3  # A = 2N, smallest modulus
    yield 0, 2 * 5, 5


@pytest.mark.parametrize("k", [8, 64])
@pytest.mark.parametrize("name", list(ALL_ENTRY_POINTS))
def test_input_errors(name, k):
    f = ALL_ENTRY_POINTS[name]
    for a, b, n in bad_requests(k):
        with pytest.raises(InputError):
            f(a, b, n, k)
    # ... while the extreme legal request is accepted
    n = (1 << k) - 1
    f(2 * n - 1, 2 * n - 1, n, k)


@pytest.mark.parametrize("name", list(CS_MODELS))
def test_input_errors_carry_save(name):
    f = CS_MODELS[name]
    k, n = 16, 40_001
    two_n = 2 * n
    for a_s, a_c, b_s, b_c in (
        (n, n, 0, 0),  # AS + AC = 2N although each word is below N
        (0, 0, two_n - 1, 1),  # BS + BC = 2N
        (two_n, 0, 0, 0),
        (0, two_n, 0, 0),
        (0, 0, 0, two_n),
        (-1, 1, 0, 0),  # negative words
        (0, 0, 1, -1),
    ):
        with pytest.raises(InputError):
            f(a_s, a_c, b_s, b_c, n, k)
    for n_bad in (2, 1, 40_000, (1 << k) + 1):
        with pytest.raises(InputError):
            f(0, 0, 0, 0, n_bad, k)
    f(n, n - 1, two_n - 2, 1, n, k)  # AS + AC = BS + BC = 2N - 1 is legal
