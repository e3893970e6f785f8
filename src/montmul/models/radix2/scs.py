# SPDX-License-Identifier: Apache-2.0
"""Fig. 2 of paper 000: SCS-based MM, two-level CSA loop; SCS-MM-1 (CPA_FC) and SCS-MM-2."""

from __future__ import annotations

from ..common import MMResult, bit, check_inputs, csa, ha2
from ._util import until_zero


def _scs_loop(a: int, b: int, n: int, k: int) -> tuple[int, int]:
    """Steps 1-5 of Fig. 2: k+2 iterations of a two-level CSA.

    (SS, SC) <- (SS + SC + A_i*B + q_i*N) / 2 with
    q_i = (SS_0 + SC_0 + A_i*B_0) mod 2.
    """
    ss = sc = 0
    for i in range(k + 2):
        ai = bit(a, i)
        q = (ss ^ sc ^ (ai & b)) & 1
        s1, c1 = csa(ss, sc, b if ai else 0)
        s2, c2 = csa(s1, c1, n if q else 0)
        # s2 is even (q was chosen so), c2 is even by construction.
        ss, sc = s2 >> 1, c2 >> 1
    return ss, sc


def scs1(a: int, b: int, n: int, k: int, cpa_width: int = 32) -> MMResult:
    """SCS-MM-1: the Fig. 2 loop, then a word-serial CPA format converter
    (CPA_FC) of ``cpa_width`` bits that adds one word per cycle."""
    check_inputs(a, b, n, k)
    ss, sc = _scs_loop(a, b, n, k)
    words = -(-(k + 1) // cpa_width)
    return MMResult(ss + sc, k + 2 + words, {"loop": k + 2, "convert": words})


def scs2(a: int, b: int, n: int, k: int) -> MMResult:
    """SCS-MM-2: the Fig. 2 loop; the two-level CSA is reused for the format
    conversion, two half-adder steps per cycle until SC = 0, plus the cycle in
    which the zero detector sees SC = 0."""
    check_inputs(a, b, n, k)
    ss, sc = _scs_loop(a, b, n, k)
    s, ops = until_zero(ss, sc, ha2, k + 3)
    return MMResult(s, k + 2 + ops + 1, {"loop": k + 2, "convert": ops + 1})
