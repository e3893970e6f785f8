# SPDX-License-Identifier: Apache-2.0
"""FCS-MMM42 (Kuang et al., paper 000's [10]), reconstructed.

Paper 000 describes the design only in outline: a full-carry-save (FCS)
multiplier built on a four-to-two (two-level) CSA, whose superfluous
carry-save additions are suppressed (skipped), with critical path
T_MUX4 + 2 T_FA and area 2k FA + 7k REG + 2k SR + 2k MUX2 + 2k MUX4.  The
reconstruction (docs/radix2.md, "FCS-MMM42 (reconstructed)") is FCS-MM-2
(McIvor: D = BS + BC + N in carry-save, x = (XS, XC) in {0, N, B, D} by
(A_i, q_i), BRFA for A) plus paper 000's skip mechanism (Sec. III-B/C):
when A_(i+1) = 0 and SS[i+1]_0 = SC[i+1]_0 = 0, iteration i+1 adds nothing
and S[i+1] is even, so it is replaced by a second right shift; the
quotients q_(i+1), q_(i+2) are computed one iteration early.

``fcs_mmm42_cs`` is the carry-save core (operands and result in carry-save
form, the published design); ``fcs_mmm42`` is the core on the common binary
interface (operands fed as (A, 0), (B, 0)), which converts the result to
binary by two serial half-adder steps per cycle (the two CSA levels with
x = 0) until SC = 0.
"""

from __future__ import annotations

from ..common import InputError, MMResult, bit, check_inputs, csa, fits, ha2
from ._util import until_zero


def fcs_mmm42_width(k: int) -> int:
    """Register width of the FCS-MMM42 datapath for operand width k.

    D = BS + BC + N < 3N and every loop value S = SS + SC stays below 3N
    (S' = (S + x)/2, x <= D), so the four-to-two inputs sum to below
    6N < 2^(k+3): k+3 bits hold every CSA output, including the first
    level's carries shifted into place.
    """
    return k + 3


def _csa42(w: int, x: int, y: int, z: int) -> tuple[int, int, int]:
    """Four-to-two CSA as two stacked rows: (w, x, y) then z.

    Returns (sum, carry, first-level carry), carries shifted into place,
    sum + carry == w + x + y + z."""
    s1, c1 = csa(w, x, y)
    s2, c2 = csa(s1, c1, z)
    return s2, c2, c1


def _cs_check(xs: int, xc: int, n: int, name: str) -> None:
    if xs < 0 or xc < 0 or xs + xc >= 2 * n:
        raise InputError(f"operand {name}={xs}+{xc} (carry-save) is outside [0, 2N)")


def fcs_mmm42_cs(
    a_s: int, a_c: int, b_s: int, b_c: int, n: int, k: int, *, skip: bool = True
) -> tuple[int, int, MMResult]:
    """FCS-MMM42 on carry-save operands: returns (SS, SC, result).

    Cycles (after the accepting edge, no format conversion):

    * 1 precompute cycle: (DS, DC) = 4:2-CSA(BS, BC, N, 0), and in parallel
      the skip detector runs "iteration -1" on the zero state: A^ = A_0,
      q^ = A_0 B_0, and iteration 0 is skipped when A_0 = 0.
    * one cycle per executed iteration i = 0 .. k+1 (k + 2 - skips): the
      4:2 CSA computes SS + SC + XS + XC; the detector reads the low bits
      of its outputs, SS[i+1]_(1:0) and SC[i+1]_(1:0):
        q_(i+1)    = SS[i+1]_0 ^ SC[i+1]_0 ^ (A_(i+1) & B_0)
        skip_(i+1) = ~(A_(i+1) | SS[i+1]_0 | SC[i+1]_0)   (never from i = k+1)
        q_(i+2)    = SS[i+1]_1 ^ SC[i+1]_1 ^ (A_(i+2) & B_0)
      with B_0 = BS_0 ^ BC_0, A_j = bit j of AS + AC (the BRFA).  On a
      skip iteration i+1 would add x = 0 to an even S[i+1] whose words both
      have a zero low bit, so S[i+2] = (SS[i+1] >> 1, SC[i+1] >> 1)
      exactly: the outputs are shifted by two, and (A_(i+2), q_(i+2))
      selects x for the next cycle.

    ``skip=False`` never skips (the loop is then FCS-MM-2's k+2 cycles).
    """
    check_inputs(0, 0, n, k)
    _cs_check(a_s, a_c, n, "A")
    _cs_check(b_s, b_c, n, "B")
    w = fcs_mmm42_width(k)
    a = a_s + a_c  # the bits the BRFA produces, least significant first
    b0 = (b_s ^ b_c) & 1
    ds, dc, _ = _csa42(b_s, b_c, n, 0)
    # DC is a carry word of the second level: its two low bits are zero.
    assert dc & 3 == 0 and fits(ds, w) and fits(dc, w)
    sel = ((0, 0), (n, 0), (b_s, b_c), (ds, dc))

    def decide(i: int, s1: int, c1: int) -> tuple[bool, int, int]:
        """Skip detector in iteration i, from S[i+1] = (s1, c1)."""
        a1, a2 = bit(a, i + 1), bit(a, i + 2)
        skp = skip and i < k + 1 and not (a1 | bit(s1, 0) | bit(c1, 0))
        if skp:
            return True, a2, bit(s1, 1) ^ bit(c1, 1) ^ (a2 & b0)
        return False, a1, bit(s1, 0) ^ bit(c1, 0) ^ (a1 & b0)

    # Precompute cycle = iteration -1 on the zero state.
    skipped, ah, qh = decide(-1, 0, 0)
    i = 1 if skipped else 0
    skips = int(skipped)
    ss = sc = 0
    cycles = 0
    while i <= k + 1:
        xs, xc = sel[2 * ah + qh]
        s2, c2, c1 = _csa42(ss, sc, xs, xc)
        assert s2 & 1 == 0, "q_i must make SS + SC + XS + XC even"
        assert fits(s2, w) and fits(c2 >> 1, w) and fits(c1, w), "4:2 CSA overflows"
        ss, sc = s2 >> 1, c2 >> 1  # S[i+1]
        cycles += 1
        skipped, ah, qh = decide(i, ss, sc)
        if skipped:
            ss, sc = ss >> 1, sc >> 1  # S[i+2] = S[i+1] / 2, exact
            i += 2
            skips += 1
        else:
            i += 1
    return ss, sc, MMResult(
        ss + sc, 1 + cycles, {"precompute": 1, "loop": cycles, "skips": skips}
    )


def fcs_mmm42(a: int, b: int, n: int, k: int, *, skip: bool = True) -> MMResult:
    """FCS-MMM42 on the common binary interface (mm_fcs_mmm42).

    Operands enter as (A, 0) and (B, 0); after the carry-save core
    (``fcs_mmm42_cs``) the result is converted to binary by the same 4:2
    CSA with x = 0, i.e. two serial half-adder steps per cycle, until
    SC = 0, plus the detecting cycle.  Latency:
    1 + (k + 2 - skips) + (conv + 1).
    """
    check_inputs(a, b, n, k)
    ss, sc, core = fcs_mmm42_cs(a, 0, b, 0, n, k, skip=skip)
    s, conv = until_zero(ss, sc, ha2, fcs_mmm42_width(k))
    return MMResult(
        s,
        core.cycles + conv + 1,
        {**core.breakdown, "convert": conv + 1},
    )
