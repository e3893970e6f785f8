# SPDX-License-Identifier: Apache-2.0
"""Fig. 7 / Algorithm 3: MSCS-MM (one-level CSA, D = B + N, CSA conversion)."""

from __future__ import annotations

from ..common import MMResult, bit, check_inputs, csa, ha
from ._util import until_zero


def mscs(a: int, b: int, n: int, k: int) -> MMResult:
    """MSCS-MM: one three-input CSA does everything.

    precompute: (SS, SC) = (B, N) is loaded (a carry-save form of D); one
    half-adder step per cycle until SC = 0, plus the detecting cycle.
    loop: k+2 iterations, x in {0, N, B, D} selected by (A_i, q_i).
    convert: one half-adder step per cycle until SC = 0, plus the detecting
    cycle.
    """
    check_inputs(a, b, n, k)
    width = k + 3
    d, pre = until_zero(b, n, ha, width)
    ss = sc = 0
    for i in range(k + 2):
        ai = bit(a, i)
        q = (ss ^ sc ^ (ai & b)) & 1
        x = (0, n, b, d)[2 * ai + q]
        s, c = csa(ss, sc, x)
        ss, sc = s >> 1, c >> 1
    s, conv = until_zero(ss, sc, ha, width)
    return MMResult(
        s,
        (pre + 1) + (k + 2) + (conv + 1),
        {"precompute": pre + 1, "loop": k + 2, "convert": conv + 1},
    )
