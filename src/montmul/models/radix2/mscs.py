# SPDX-License-Identifier: Apache-2.0
"""Fig. 7 / Algorithm 3: MSCS-MM (one-level CSA, D = B + N, CSA conversion)."""

from __future__ import annotations

from ..common import MMResult, bit, check_inputs, csa, fits, ha
from ._util import until_zero


def mscs_width(k: int) -> int:
    """Register width of the MSCS-MM datapath for operand width k.

    D = B + N < 3N < 2^(k+2); every loop value S = SS + SC stays below 3N
    (S' = (S + x)/2 with x <= D < 3N), the conversion starts below 2N
    (Walter's bound), so k+2 bits hold every SS, SC, x and D.
    """
    return k + 2


def mscs(a: int, b: int, n: int, k: int) -> MMResult:
    """MSCS-MM: one three-input CSA row does everything (mm_mscs).

    * precompute: (SS, SC) = (B, N) is loaded at the accepting edge (a
      carry-save form of D); one half-adder step (SS + SC + 0) per cycle
      until SC = 0, plus the detecting cycle, which stores D = SS, clears
      (SS, SC) and precomputes (A_0, q_0 = A_0 B_0).
    * loop: k+2 iterations (SS, SC) = (SS + SC + x)/2, x in {0, N, B, D}
      selected by the registered (A_i, q_i).  q_(i+1) is computed in
      iteration i from the CSA *inputs* (paper 000 Sec. III-A):
      SS+SC+x is even, so the carry out of bit 0 is SS_0 | SC_0 and
      q_(i+1) = SS_1 ^ SC_1 ^ x_1 ^ (SS_0 | SC_0) ^ (A_(i+1) & B_0);
      only x_1 waits for the multiplexer.
    * convert: one half-adder step per cycle until SC = 0, plus the
      detecting cycle.
    """
    check_inputs(a, b, n, k)
    w = mscs_width(k)
    d, pre = until_zero(b, n, ha, w)
    xs = (0, n, b, d)
    ss = sc = 0
    ah, qh = bit(a, 0), bit(a, 0) & b & 1  # precomputed in the detecting cycle
    for i in range(k + 2):
        x = xs[2 * ah + qh]
        s, c = csa(ss, sc, x)
        assert s & 1 == 0, "q_i must make SS + SC + x even"
        a1 = bit(a, i + 1)
        q1 = bit(ss, 1) ^ bit(sc, 1) ^ bit(x, 1) ^ (bit(ss, 0) | bit(sc, 0)) ^ (a1 & b & 1)
        ss, sc = s >> 1, c >> 1
        assert q1 == (ss ^ sc ^ (a1 & b)) & 1, "lookahead quotient"
        assert fits(ss, w) and fits(sc, w) and fits(c, w + 1), "loop value overflows"
        ah, qh = a1, q1
    s, conv = until_zero(ss, sc, ha, w)
    return MMResult(
        s,
        (pre + 1) + (k + 2) + (conv + 1),
        {"precompute": pre + 1, "loop": k + 2, "convert": conv + 1},
    )
