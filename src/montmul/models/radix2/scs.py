# SPDX-License-Identifier: Apache-2.0
"""Fig. 2 of paper 000: SCS-based MM, two-level CSA loop; SCS-MM-1 (CPA_FC) and SCS-MM-2.

Both models hold exactly the registers of their cores (``mm_scs1``,
``mm_scs2``): SS and SC are k+2 bits wide, and the models assert that no
value ever needs more (see docs/radix2.md, "SCS-MM-1 and SCS-MM-2").
"""

from __future__ import annotations

from ..common import MMResult, bit, check_inputs, csa, fits, ha2, mask
from ._util import until_zero


def _scs_loop(a: int, b: int, n: int, k: int) -> tuple[int, int]:
    """Steps 1-5 of Fig. 2: k+2 iterations of a two-level CSA.

    (SS, SC) <- (SS + SC + A_i*B + q_i*N) / 2 with
    q_i = (SS_0 + SC_0 + A_i*B_0) mod 2.

    SS + SC < 3N < 2^(k+2) after every iteration (B < 2N), so both words fit
    the cores' (k+2)-bit registers; before the halving the row outputs sum to
    less than 6N < 2^(k+3).
    """
    ss = sc = 0
    for i in range(k + 2):
        ai = bit(a, i)
        q = (ss ^ sc ^ (ai & b)) & 1
        s1, c1 = csa(ss, sc, b if ai else 0)
        s2, c2 = csa(s1, c1, n if q else 0)
        # s2 is even (q was chosen so), c2 is even by construction.
        if s2 & 1:
            raise AssertionError("SCS loop: odd sum word before the halving")
        ss, sc = s2 >> 1, c2 >> 1
        if not (fits(ss, k + 2) and fits(sc, k + 2)):
            raise AssertionError(f"SCS loop: carry-save state overflows {k + 2} bits")
    return ss, sc


def cpa_fc(ss: int, sc: int, k: int, cpa_width: int) -> tuple[int, int]:
    """The word-serial carry-propagate format converter of SCS-MM-1.

    One word of ``min(cpa_width, k+1)`` bits of SS and SC per cycle, least
    significant first, with the carry kept in a flip-flop; the k+1 result
    bits need ceil((k+1)/cpa_width) words.  Returns (value, cycles).
    """
    if cpa_width < 1:
        raise ValueError(f"cpa_width must be at least 1, got {cpa_width}")
    word = min(cpa_width, k + 1)
    words = -(-(k + 1) // word)
    carry = result = 0
    for j in range(words):
        t = (ss >> (j * word) & mask(word)) + (sc >> (j * word) & mask(word)) + carry
        result |= (t & mask(word)) << (j * word)
        carry = t >> word
    # SS + SC = S < 2N < 2^(k+1): nothing is left above the k+1 converted bits
    # and the last word leaves no carry.
    if carry or ss >> (k + 1) or sc >> (k + 1) or result != ss + sc:
        raise AssertionError("CPA_FC: the result does not fit in k+1 bits")
    return result, words


def scs1(a: int, b: int, n: int, k: int, cpa_width: int = 32) -> MMResult:
    """SCS-MM-1: the Fig. 2 loop, then a word-serial CPA format converter
    (CPA_FC) of ``cpa_width`` bits that adds one word per cycle.

    Latency k+2 + ceil((k+1)/cpa_width), independent of the operands.
    """
    check_inputs(a, b, n, k)
    ss, sc = _scs_loop(a, b, n, k)
    s, words = cpa_fc(ss, sc, k, cpa_width)
    return MMResult(s, k + 2 + words, {"loop": k + 2, "convert": words})


def scs2(a: int, b: int, n: int, k: int) -> MMResult:
    """SCS-MM-2: the Fig. 2 loop; the two-level CSA is reused for the format
    conversion, two half-adder steps per cycle until SC = 0, plus the cycle in
    which the zero detector sees SC = 0 in the carry register."""
    check_inputs(a, b, n, k)
    ss, sc = _scs_loop(a, b, n, k)
    s, ops = until_zero(ss, sc, ha2, k + 2)
    return MMResult(s, k + 2 + ops + 1, {"loop": k + 2, "convert": ops + 1})
