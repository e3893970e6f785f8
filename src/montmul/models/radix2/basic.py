# SPDX-License-Identifier: Apache-2.0
"""Fig. 1 of paper 000: the basic radix-2 algorithm (binary, one carry-propagate adder)."""

from __future__ import annotations

from ..common import MMResult, bit, check_inputs


def basic(a: int, b: int, n: int, k: int) -> MMResult:
    """Fig. 1 with Walter's k+2 iterations: S = (S + A_i*B + q_i*N) / 2.

    Hardware (mm_r2_basic): one (k+3)-bit three-operand adder; one iteration
    per cycle; latency k+2.
    """
    check_inputs(a, b, n, k)
    s = 0
    for i in range(k + 2):
        ai = bit(a, i)
        q = (s + ai * b) & 1
        s = (s + ai * b + q * n) >> 1
    return MMResult(s, k + 2, {"loop": k + 2})
