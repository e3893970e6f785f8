# SPDX-License-Identifier: Apache-2.0
"""Concrete counterexamples to SCS-MM-New as printed (Algorithm 4 of paper 001,
Fig. 10 of paper 000), modelled literally by ``radix2.scs_new_printed``.

Reference: MM(A, B) = A*B*2^-(k+2) mod N, output range [0, 2N) (the range
every other radix-2 core has, so products chain).  ``radix2.scs_new`` is the
corrected model.  Run with ``pytest -s`` to see the examples printed.

Error 1 -- the loop ``while i <= k+4`` may skip out of the last iteration
i = k+4; the skip divides by 2 once more, so the result is congruent to
A*B*2^-(k+3), i.e. half the correct residue mod N.  ``bound_fix=True``
suppresses only that skip and the residue is then always right.

    k   A       B       N        printed  correct (scs_new; = A*B*2^-(k+2) mod N)
    8   1       1       7        2        4       N = 3 mod 4, smallest example
    16  1       2       11       4        8       N = 3 mod 4
    8   1       2       5        4        3       N = 1 mod 4
    8   196     188     239      46       92      seeded search, N = 3 mod 4
    16  67066   69696   36991    19870    39740   seeded search, N = 3 mod 4
                                                  (39740 = 2749 mod N, in [0, 2N))

    In every row 2 * printed = correct (mod N).  First row: 2^10 = 2 mod 7, so
    2^-10 = 4 (correct) and 2^-11 = 2 (printed).  For N = 3 mod 4 this is the
    only error: with bound_fix=True these rows give exactly the correct value.

Error 2 -- eq. (4) uses N^ = 3N + 1 when N = 1 mod 4.  With error 1 fixed
(bound_fix=True) the residue is right, but the result can lie in [2N, 4N), so
it is not a legal operand of the next multiplication (a chain of squarings is
rejected by the input check or, in hardware without one, leaves the bound).

    k   A       B       N        printed(bound_fix)  2N       correct
    8   1       3       5        12                  10       2
    8   376     177     237      726                 474      252
    16  62416   60834   55117    142797              110234   32563

    (12 = 2*5 + 2, 726 = 2*237 + 252, 142797 = 2*55117 + 32563; "correct" is
    the output of scs_new, which stays in [0, 2N).)

With N = 3 mod 4 and bound_fix=True the printed algorithm equals ``scs_new``
result for result (tested on random inputs below).

The "seeded search" rows are what ``test_error1_search`` and
``test_error2_search`` find at k = 8 and 16 (seeds "error1-<k>-3" and
"error2-<k>"); the smallest rows come from an exhaustive search by increasing
N and A + B.  ``test_recorded_error1`` / ``test_recorded_error2`` re-check
every row literally.
"""

from __future__ import annotations

import random

import pytest

from montmul.models import radix2
from montmul.models.common import InputError


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------
def ref(a: int, b: int, n: int, k: int) -> int:
    return a * b * pow(2, -(k + 2), n) % n


def printed(a, b, n, k, bound_fix=False) -> int:
    return radix2.scs_new_printed(a, b, n, k, bound_fix=bound_fix).result


def correct(a, b, n, k) -> int:
    return radix2.scs_new(a, b, n, k).result


def rand_modulus(rng: random.Random, k: int, residue: int, full: bool = False) -> int:
    """Random odd N < 2^k, N = residue mod 4 (top bit set if ``full``)."""
    while True:
        bits = k if (full or rng.random() < 0.5) else rng.randint(2, k)
        n = (rng.randrange(1 << (bits - 1), 1 << bits) & ~3) | residue
        if 3 <= n < (1 << k):
            return n


def search(pred, k: int, residue: int, seed: str, tries: int = 2_000):
    """First (a, b, n) from a seeded stream of full-width moduli and operands
    in [0, 2N) for which ``pred(a, b, n, k)`` holds, else None."""
    rng = random.Random(seed)
    for _ in range(tries):
        n = rand_modulus(rng, k, residue, full=True)
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        if pred(a, b, n, k):
            return a, b, n
    return None


def wrong_residue(a, b, n, k) -> bool:
    return printed(a, b, n, k) % n != ref(a, b, n, k)


def out_of_bound(a, b, n, k) -> bool:
    return printed(a, b, n, k, bound_fix=True) >= 2 * n


def random_requests(seed: str, k: int, residue: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        n = rand_modulus(rng, k, residue)
        yield rng.randrange(2 * n), rng.randrange(2 * n), n


# (k, a, b, n, printed, correct) -- see the module docstring
ERROR1_EXAMPLES = [
    (8, 1, 1, 7, 2, 4),
    (16, 1, 2, 11, 4, 8),
    (8, 1, 2, 5, 4, 3),
    (8, 196, 188, 239, 46, 92),
    (16, 67066, 69696, 36991, 19870, 39740),
]
# (k, a, b, n, printed with bound_fix, correct)
ERROR2_EXAMPLES = [
    (8, 1, 3, 5, 12, 2),
    (8, 376, 177, 237, 726, 252),
    (16, 62416, 60834, 55117, 142797, 32563),
]


# --------------------------------------------------------------------------
# The recorded examples
# --------------------------------------------------------------------------
@pytest.mark.parametrize("k,a,b,n,p,c", ERROR1_EXAMPLES)
def test_recorded_error1(k, a, b, n, p, c):
    assert printed(a, b, n, k) == p
    assert correct(a, b, n, k) == c
    r = ref(a, b, n, k)
    assert c < 2 * n and c % n == r
    assert p % n != r  # wrong residue ...
    assert 2 * p % n == r  # ... by exactly one extra halving
    assert printed(a, b, n, k, bound_fix=True) % n == r
    if n % 4 == 3:  # the only error for N = 3 mod 4
        assert printed(a, b, n, k, bound_fix=True) == c


@pytest.mark.parametrize("k,a,b,n,p,c", ERROR2_EXAMPLES)
def test_recorded_error2(k, a, b, n, p, c):
    assert n % 4 == 1
    assert printed(a, b, n, k, bound_fix=True) == p
    assert p >= 2 * n  # outside the documented output range [0, 2N) ...
    assert p < 4 * n
    assert p % n == ref(a, b, n, k)  # ... although congruent
    assert correct(a, b, n, k) == c and c < 2 * n and c % n == ref(a, b, n, k)
    with pytest.raises(InputError):  # cannot be the next operand
        radix2.scs_new_printed(p, p, n, k, bound_fix=True)


def test_show_examples():
    """Print one small example per error (visible with ``pytest -s``)."""
    k, a, b, n, p, c = ERROR1_EXAMPLES[0]
    got_p, got_c = printed(a, b, n, k), correct(a, b, n, k)
    print()
    print("SCS-MM-New as printed, error 1 (skip out of the last iteration i = k+4):")
    print(f"  k={k} A={a} B={b} N={n}: printed -> {got_p}, correct A*B*2^-(k+2) mod N = {got_c}")
    print(f"  printed = A*B*2^-(k+3) mod N = {a * b * pow(2, -(k + 3), n) % n}; "
          f"with bound_fix -> {printed(a, b, n, k, bound_fix=True)}")
    k2, a2, b2, n2, p2, c2 = ERROR2_EXAMPLES[0]
    got_p2 = printed(a2, b2, n2, k2, bound_fix=True)
    print("SCS-MM-New as printed, error 2 (N^ = 3N+1 for N = 1 mod 4, output range):")
    print(f"  k={k2} A={a2} B={b2} N={n2}: printed(bound_fix) -> {got_p2} >= 2N = {2 * n2} "
          f"(= {got_p2 % n2} mod N), scs_new -> {correct(a2, b2, n2, k2)}")
    for kk, aa, bb, nn, _, _ in ERROR1_EXAMPLES[1:]:
        print(f"  error 1: k={kk} a={aa} b={bb} n={nn} printed={printed(aa, bb, nn, kk)} "
              f"correct={correct(aa, bb, nn, kk)}")
    for kk, aa, bb, nn, _, _ in ERROR2_EXAMPLES[1:]:
        print(f"  error 2: k={kk} a={aa} b={bb} n={nn} printed(bound_fix)="
              f"{printed(aa, bb, nn, kk, bound_fix=True)} correct={correct(aa, bb, nn, kk)}")
    assert (got_p, got_c) == (p, c) and got_p % n != got_c
    assert got_p2 == p2 and got_p2 >= 2 * n2


# --------------------------------------------------------------------------
# Error 1: the skip out of the last iteration
# --------------------------------------------------------------------------
@pytest.mark.parametrize("residue", [1, 3], ids=["N=1mod4", "N=3mod4"])
@pytest.mark.parametrize("k", [8, 16, 64, 256, 1024])
def test_error1_search(k, residue):
    hit = search(wrong_residue, k, residue, f"error1-{k}-{residue}")
    assert hit is not None, "no counterexample found: has the printed model changed?"
    a, b, n = hit
    r = ref(a, b, n, k)
    p = printed(a, b, n, k)
    assert p % n != r
    assert 2 * p % n == r  # one division by 2 too many
    c = radix2.scs_new(a, b, n, k).result
    assert c < 2 * n and c % n == r  # the corrected model is right there
    assert printed(a, b, n, k, bound_fix=True) % n == r  # and so is the fix
    print(f"\nerror 1, k={k}, N={residue} mod 4: a={a} b={b} n={n} printed={p} correct={c}")


@pytest.mark.parametrize("residue", [1, 3], ids=["N=1mod4", "N=3mod4"])
@pytest.mark.parametrize("k", [8, 16, 64])
def test_error1_is_common_and_only_a_factor_of_two(k, residue):
    """Over random inputs the printed result is either right or exactly half
    the right residue, and wrong often (not a rare corner case)."""
    total = wrong = 0
    for a, b, n in random_requests(f"e1rate-{k}-{residue}", k, residue, 1500):
        r = ref(a, b, n, k)
        p = printed(a, b, n, k) % n
        assert p == r or 2 * p % n == r, (a, b, n, k)
        total += 1
        wrong += p != r
    assert wrong >= total // 20, f"only {wrong}/{total} wrong"


@pytest.mark.parametrize("residue", [1, 3], ids=["N=1mod4", "N=3mod4"])
@pytest.mark.parametrize("k", [8, 16, 32, 64, 256, 1024])
def test_error1_disappears_with_bound_fix(k, residue):
    count = {8: 3000, 16: 3000, 32: 1500, 64: 800, 256: 100, 1024: 20}[k]
    for a, b, n in random_requests(f"e1fix-{k}-{residue}", k, residue, count):
        assert printed(a, b, n, k, bound_fix=True) % n == ref(a, b, n, k), (a, b, n, k)


def test_error1_exhaustive_small():
    """Every request at k = 4: the printed loop is wrong for some, the fixed
    one for none."""
    k = 4
    wrong = 0
    for n in range(3, 1 << k, 2):
        for a in range(2 * n):
            for b in range(2 * n):
                r = ref(a, b, n, k)
                wrong += printed(a, b, n, k) % n != r
                assert printed(a, b, n, k, bound_fix=True) % n == r, (a, b, n)
    assert wrong > 0


# --------------------------------------------------------------------------
# Error 2: N^ = 3N + 1 for N = 1 mod 4 breaks the output bound
# --------------------------------------------------------------------------
@pytest.mark.parametrize("k", [8, 16, 64, 256, 1024])
def test_error2_search(k):
    hit = search(out_of_bound, k, 1, f"error2-{k}")
    assert hit is not None, "no out-of-range result found: has the printed model changed?"
    a, b, n = hit
    p = printed(a, b, n, k, bound_fix=True)
    r = ref(a, b, n, k)
    assert 2 * n <= p < 4 * n
    assert p % n == r  # the residue is right, only the range is broken
    c = radix2.scs_new(a, b, n, k).result
    assert c < 2 * n and c % n == r
    with pytest.raises(InputError):
        radix2.scs_new(p, b, n, k)  # not a legal operand for any core
    print(f"\nerror 2, k={k}: a={a} b={b} n={n} printed(bound_fix)={p} (2N={2 * n}) correct={c}")


@pytest.mark.parametrize("k", [8, 16, 64, 256])
def test_error2_range_by_residue(k):
    """With bound_fix: for N = 1 mod 4 results reach [2N, 4N) (and stay
    congruent); for N = 3 mod 4 they never leave [0, 2N)."""
    count = {8: 3000, 16: 3000, 64: 800, 256: 150}[k]
    over = 0
    for a, b, n in random_requests(f"e2range-{k}-1", k, 1, count):
        p = printed(a, b, n, k, bound_fix=True)
        assert 0 <= p < 4 * n and p % n == ref(a, b, n, k), (a, b, n, k)
        over += p >= 2 * n
    assert over > 0
    for a, b, n in random_requests(f"e2range-{k}-3", k, 3, count):
        p = printed(a, b, n, k, bound_fix=True)
        assert 0 <= p < 2 * n, (a, b, n, k)


@pytest.mark.parametrize("k", [16, 64])
def test_error2_breaks_squaring_chains(k):
    """x <- MM(x, x): with the printed algorithm (bound_fix) and N = 1 mod 4
    a result soon leaves [0, 2N) and cannot be squared again; scs_new runs
    the same chains to the end."""
    rng = random.Random(f"e2chain-{k}")
    broken = 0
    for _ in range(10):
        n = rand_modulus(rng, k, 1, full=True)
        x0 = rng.randrange(2 * n)
        x = y = x0
        for _ in range(60):
            y = radix2.scs_new(y, y, n, k).result
            assert y < 2 * n
        for _ in range(60):
            try:
                x = printed(x, x, n, k, bound_fix=True)
            except InputError:
                assert x >= 2 * n
                broken += 1
                break
        else:
            assert x % n == y % n
    assert broken > 0


# --------------------------------------------------------------------------
# N = 3 mod 4 with the loop bound fixed: identical to scs_new
# --------------------------------------------------------------------------
@pytest.mark.parametrize("k", [8, 16, 32, 64, 256, 1024, 2048])
def test_printed_with_fix_equals_scs_new_for_3mod4(k):
    count = {8: 3000, 16: 3000, 32: 1500, 64: 800, 256: 100, 1024: 20, 2048: 8}[k]
    for a, b, n in random_requests(f"equal-{k}", k, 3, count):
        assert printed(a, b, n, k, bound_fix=True) == correct(a, b, n, k), (a, b, n, k)


def test_printed_with_fix_equals_scs_new_corners():
    for k in (2, 3, 8, 16, 64):
        for n in {3, (1 << k) - 1, (1 << k) - 5}:
            if not (3 <= n < (1 << k)) or n % 4 != 3:
                continue
            for a in (0, 1, n - 1, n, 2 * n - 1):
                for b in (0, 1, n - 1, n, 2 * n - 1):
                    assert printed(a, b, n, k, bound_fix=True) == correct(a, b, n, k), (a, b, n, k)
