# SPDX-License-Identifier: Apache-2.0
"""Fig. 5 of paper 000: FCS-MM-1 and FCS-MM-2 (operands and result in carry-save form).

``fcs1_cs`` / ``fcs2_cs`` model the carry-save cores ``mm_fcs1`` /
``mm_fcs2`` bit for bit: they return the result's sum and carry words exactly
as the cores' registers hold them, and the cores' latency.  ``fcs1_bin`` /
``fcs2_bin`` model the binary wrapper ``mm_fcs_bin`` (Variant 1 / 2):
(A, 0) and (B, 0) into the carry-save core, then the word-serial
carry-propagate converter of SCS-MM-1 (``scs.cpa_fc``) on the held result.
``fcs1`` / ``fcs2`` are the bare algorithms with binary operands (the value
SS + SC, the carry-save latency).

Register widths (docs/radix2.md, "FCS-MM-1 and FCS-MM-2"): with B < 2N the
loop value S = SS + SC stays below 3N < 2^(k+2), so SS and SC are k+2 bits;
the CSA rows see at most S + 3N < 6N < 2^(k+3).  The models assert both.
"""

from __future__ import annotations

from ..common import InputError, MMResult, bit, check_inputs, csa, fits
from .scs import cpa_fc


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


def _halve(s: int, c: int, k: int, what: str) -> tuple[int, int]:
    """The last CSA row's outputs, halved into the (k+2)-bit SS, SC registers."""
    if s & 1 or not (fits(s, k + 3) and fits(c, k + 3)):
        raise AssertionError(f"{what}: CSA row output odd or wider than k+3 bits")
    ss, sc = s >> 1, c >> 1
    if not (fits(ss, k + 2) and fits(sc, k + 2)):
        raise AssertionError(f"{what}: carry-save state overflows {k + 2} bits")
    return ss, sc


def fcs1_cs(a_s: int, a_c: int, b_s: int, b_c: int, n: int, k: int) -> tuple[int, int, MMResult]:
    """FCS-MM-1 (Fig. 5/6): five-to-two CSA, A read bit-serially through the BRFA.

    q_i = (SS_0 + SC_0 + A_i*(BS_0 + BC_0)) mod 2;
    (SS, SC) <- (SS + SC + A_i*BS + A_i*BC + q_i*N) / 2, k+2 iterations, one
    per cycle; the rows add A_i*BS, then A_i*BC, then q_i*N.  The BRFA loads
    A_0 at the accepting edge, so the latency is k+2.
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
        ss, sc = _halve(s3, c3, k, "FCS-MM-1")
    return ss, sc, MMResult(ss + sc, k + 2, {"loop": k + 2})


def fcs1(a: int, b: int, n: int, k: int) -> MMResult:
    """FCS-MM-1 with binary operands (AC = BC = 0); the result is SS + SC."""
    check_inputs(a, b, n, k)
    return fcs1_cs(a, 0, b, 0, n, k)[2]


def fcs2_cs(a_s: int, a_c: int, b_s: int, b_c: int, n: int, k: int) -> tuple[int, int, MMResult]:
    """FCS-MM-2: (DS, DC) = BS + BC + N precomputed in one CSA cycle, then a
    four-to-two CSA adds 0, N, (BS, BC) or (DS, DC) selected by (A_i, q_i).

    The precompute cycle reuses the first CSA row (SS, SC loaded with BS, BC
    and N selected), so (DS, DC) is exactly one carry-save addition of
    BS, BC and N.  Latency 1 + (k+2).
    """
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
        ss, sc = _halve(s2, c2, k, "FCS-MM-2")
    return ss, sc, MMResult(ss + sc, 1 + k + 2, {"precompute": 1, "loop": k + 2})


def fcs2(a: int, b: int, n: int, k: int) -> MMResult:
    """FCS-MM-2 with binary operands (AC = BC = 0); the result is SS + SC."""
    check_inputs(a, b, n, k)
    return fcs2_cs(a, 0, b, 0, n, k)[2]


def _bin(cs_model, a: int, b: int, n: int, k: int, cpa_width: int) -> MMResult:
    """The binary wrappers: (A, 0), (B, 0) into the carry-save core, then
    ceil((k+1)/w) cycles of the w-bit word-serial CPA on the held result.
    The first word is added in the cycle after the core's result appears, so
    the wrapper adds exactly one cycle per word."""
    check_inputs(a, b, n, k)
    ss, sc, res = cs_model(a, 0, b, 0, n, k)
    s, words = cpa_fc(ss, sc, k, cpa_width)
    breakdown = dict(res.breakdown, convert=words)
    return MMResult(s, res.cycles + words, breakdown)


def fcs1_bin(a: int, b: int, n: int, k: int, cpa_width: int = 32) -> MMResult:
    """``mm_fcs_bin`` with Variant = 1: FCS-MM-1 behind the common interface.
    Latency (k+2) + ceil((k+1)/cpa_width), independent of the operands."""
    return _bin(fcs1_cs, a, b, n, k, cpa_width)


def fcs2_bin(a: int, b: int, n: int, k: int, cpa_width: int = 32) -> MMResult:
    """``mm_fcs_bin`` with Variant = 2: FCS-MM-2 behind the common interface.
    Latency 1 + (k+2) + ceil((k+1)/cpa_width), independent of the operands."""
    return _bin(fcs2_cs, a, b, n, k, cpa_width)
