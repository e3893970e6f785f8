# SPDX-License-Identifier: Apache-2.0
"""Pure-Python tests of the reconstructed FCS-MMM42 model
(``montmul.models.radix2.fcs_mmm42``) and of MSCS-MM's cycle accounting.

The reference is Python's ``pow(2, -(k+2), N)``; every random stream is
seeded from the test parameters.
"""

from __future__ import annotations

import random

import pytest

from montmul import cores
from montmul.models import radix2
from montmul.models.common import InputError

WIDTHS = {3: 0, 4: 0, 5: 0, 8: 3000, 13: 2000, 16: 2000, 33: 800, 64: 400, 128: 150, 256: 60, 1024: 8}


def ref(a: int, b: int, n: int, k: int) -> int:
    return a * b * pow(2, -(k + 2), n) % n


def rand_modulus(rng: random.Random, k: int, residue: int) -> int:
    while True:
        bits = k if rng.random() < 0.5 else rng.randint(2, k)
        n = (rng.randrange(1 << (bits - 1), 1 << bits) & ~3) | residue
        if 3 <= n < (1 << k):
            return n


def cases(k: int, residue: int, count: int):
    """Exhaustive for tiny widths, random otherwise; operands in [0, 2N)."""
    if count == 0:
        for n in range(residue, 1 << k, 4):
            if n >= 3:
                for a in range(2 * n):
                    for b in range(2 * n):
                        yield a, b, n
        return
    rng = random.Random(f"fcs_mmm42-{k}-{residue}")
    for i in range(count):
        n = rand_modulus(rng, k, residue)
        bound = 2 * n if i % 2 else n
        yield rng.randrange(bound), rng.randrange(bound), n


@pytest.mark.parametrize("residue", (1, 3))
@pytest.mark.parametrize("k", list(WIDTHS))
def test_fcs_mmm42_binary(k, residue):
    """Right residue, output in [0, 2N), bit-exact with the k+2-iteration
    recurrence (skipping only drops exact divisions by two), and the cycle
    count is 1 + (k + 2 - skips) + convert."""
    for a, b, n in cases(k, residue, WIDTHS[k]):
        m = radix2.fcs_mmm42(a, b, n, k)
        assert m.result == radix2.basic(a, b, n, k).result, (a, b, n, k)
        assert 0 <= m.result < 2 * n and m.result % n == ref(a, b, n, k)
        br = m.breakdown
        assert br["loop"] == k + 2 - br["skips"] and br["precompute"] == 1
        assert m.cycles == 1 + br["loop"] + br["convert"]
        assert m.cycles <= cores.get("fcs_mmm42").bound(k)
        m0 = radix2.fcs_mmm42(a, b, n, k, skip=False)
        assert m0.result == m.result and m0.breakdown["loop"] == k + 2


@pytest.mark.parametrize("k", (8, 16, 64, 256))
def test_fcs_mmm42_carry_save_operands(k):
    """The carry-save core takes any carry-save split of A and B."""
    rng = random.Random(f"fcs_mmm42-cs-{k}")
    for _ in range(300 if k < 256 else 40):
        n = rand_modulus(rng, k, rng.choice((1, 3)))
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        a_s, b_s = rng.randrange(a + 1), rng.randrange(b + 1)
        ss, sc, m = radix2.fcs_mmm42_cs(a_s, a - a_s, b_s, b - b_s, n, k)
        assert ss + sc == m.result < 2 * n
        assert m.result % n == ref(a, b, n, k)


def test_fcs_mmm42_skips_about_a_quarter():
    """A skip needs A_(i+1) = 0 and an even S[i+1] (the carry word's low bit
    is structurally zero on the binary interface), so about one iteration
    in five is skipped: 1 + (k+2)/1.25 core cycles for full-width moduli
    and random operands (paper 001's table: 822 at k = 1024)."""
    rng = random.Random(5)
    k, runs = 1024, 40
    core = 0
    for _ in range(runs):
        n = rng.randrange(1 << (k - 1), 1 << k) | 1
        m = radix2.fcs_mmm42(rng.randrange(2 * n), rng.randrange(2 * n), n, k)
        core += m.breakdown["precompute"] + m.breakdown["loop"]
    assert abs(core / runs - (1 + (k + 2) / 1.25)) < 10


def test_fcs_mmm42_rejects():
    for a, b, n in ((1, 1, 8), (1, 1, 1), (22, 1, 11), (1, 22, 11), (1, 1, 256)):
        with pytest.raises(InputError):
            radix2.fcs_mmm42(a, b, n, 8)
    with pytest.raises(InputError):
        radix2.fcs_mmm42_cs(11, 11, 0, 0, 11, 8)


@pytest.mark.parametrize("k", (8, 33, 256))
def test_mscs_cycles(k):
    """MSCS-MM: (pre + 1) + (k + 2) + (conv + 1), within the registry bound;
    the worst-case carry chains of the paper (SS = 11..1, SC = 1) cost one
    step per bit."""
    rng = random.Random(f"mscs-{k}")
    bound = cores.get("mscs").bound(k)
    for _ in range(200):
        n = rand_modulus(rng, k, rng.choice((1, 3)))
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        m = radix2.mscs(a, b, n, k)
        assert m.result == radix2.basic(a, b, n, k).result
        assert m.breakdown["loop"] == k + 2 and m.cycles <= bound
    # D = B + N with N = 2^k - 1, B = 1: after t half-adder steps
    # (SS, SC) = (2^k - 2^t, 2^t), so k + 1 steps + the detecting cycle.
    n = (1 << k) - 1
    m = radix2.mscs(0, 1, n, k)
    assert m.breakdown["precompute"] == k + 2
