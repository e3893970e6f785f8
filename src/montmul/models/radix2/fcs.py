# SPDX-License-Identifier: Apache-2.0
"""Fig. 5 of paper 000: FCS-MM-1 and FCS-MM-2 (operands and result in carry-save form)."""

from __future__ import annotations

from ..common import InputError, MMResult, bit, check_inputs, csa


def _brfa_bits(a_s: int, a_c: int, count: int):
    """Barrel-register full adder: the bits of AS + AC, least significant first,
    one per cycle (a full adder and a carry flip-flop)."""
    cy = 0
    for i in range(count):
        x, y = bit(a_s, i), bit(a_c, i)
        yield x ^ y ^ cy
        cy = (x & y) | (x & cy) | (y & cy)


def _cs_check(xs: int, xc: int, n: int, k: int, name: str) -> None:
    if xs < 0 or xc < 0 or xs + xc >= 2 * n:
        raise InputError(f"operand {name}={xs}+{xc} (carry-save) is outside [0, 2N)")


def fcs1_cs(a_s: int, a_c: int, b_s: int, b_c: int, n: int, k: int) -> tuple[int, int, MMResult]:
    """FCS-MM-1 (Fig. 5/6): five-to-two CSA, A read bit-serially through the BRFA.

    q_i = (SS_0 + SC_0 + A_i*(BS_0 + BC_0)) mod 2;
    (SS, SC) <- (SS + SC + A_i*BS + A_i*BC + q_i*N) / 2, k+2 iterations.
    Returns (SS, SC, result) with result.result == SS + SC.
    """
    check_inputs(0, 0, n, k)
    _cs_check(a_s, a_c, n, k, "A")
    _cs_check(b_s, b_c, n, k, "B")
    ss = sc = 0
    for ai in _brfa_bits(a_s, a_c, k + 2):
        q = (ss ^ sc ^ (ai & (b_s ^ b_c))) & 1
        s1, c1 = csa(ss, sc, b_s if ai else 0)
        s2, c2 = csa(s1, c1, b_c if ai else 0)
        s3, c3 = csa(s2, c2, n if q else 0)
        ss, sc = s3 >> 1, c3 >> 1
    return ss, sc, MMResult(ss + sc, k + 2, {"loop": k + 2})


def fcs1(a: int, b: int, n: int, k: int) -> MMResult:
    """FCS-MM-1 with binary operands (AC = BC = 0); the result is SS + SC."""
    check_inputs(a, b, n, k)
    return fcs1_cs(a, 0, b, 0, n, k)[2]


def fcs2_cs(a_s: int, a_c: int, b_s: int, b_c: int, n: int, k: int) -> tuple[int, int, MMResult]:
    """FCS-MM-2: (DS, DC) = BS + BC + N precomputed in one CSA cycle, then a
    four-to-two CSA adds 0, N, (BS, BC) or (DS, DC) selected by (A_i, q_i)."""
    check_inputs(0, 0, n, k)
    _cs_check(a_s, a_c, n, k, "A")
    _cs_check(b_s, b_c, n, k, "B")
    d_s, d_c = csa(b_s, b_c, n)
    sel = {(0, 0): (0, 0), (0, 1): (n, 0), (1, 0): (b_s, b_c), (1, 1): (d_s, d_c)}
    ss = sc = 0
    for ai in _brfa_bits(a_s, a_c, k + 2):
        q = (ss ^ sc ^ (ai & (b_s ^ b_c))) & 1
        xs, xc = sel[(ai, q)]
        s1, c1 = csa(ss, sc, xs)
        s2, c2 = csa(s1, c1, xc)
        ss, sc = s2 >> 1, c2 >> 1
    return ss, sc, MMResult(ss + sc, 1 + k + 2, {"precompute": 1, "loop": k + 2})


def fcs2(a: int, b: int, n: int, k: int) -> MMResult:
    """FCS-MM-2 with binary operands (AC = BC = 0); the result is SS + SC."""
    check_inputs(a, b, n, k)
    return fcs2_cs(a, 0, b, 0, n, k)[2]
