# SPDX-License-Identifier: Apache-2.0
"""Bit-exact, cycle-counting models of the radix-2 Montgomery multipliers of
paper 000 (and its re-implementation, paper 001).

Notation (paper 000): k is the operand width, N the odd modulus (3 <= N < 2^k),
A and B the operands.  Every model here uses Walter's bound: k+2 effective
iterations, R = 2^(k+2), inputs and outputs in [0, 2N), so products chain
without a final subtraction.

Each model mirrors the phase structure of its hardware (see docs/radix2.md):

``load``        the accepting clock edge (not counted in the latency)
``precompute``  D = B + N by repeated carry-save additions until SC = 0, plus
                the cycle in which the zero detector sees SC = 0
``loop``        one cycle per (non-skipped) iteration
``convert``     carry-save to binary conversion (repeated carry-save additions
                until SC = 0 plus the detecting cycle, or a word-serial CPA)

Carry-save state is tracked exactly as the hardware holds it, because the skip
decisions and the length of every "until SC = 0" loop depend on how a value is
split between its sum and carry words, not only on the value.

The printed algorithms are modelled literally as well (``*_printed``), so that
their errors can be shown by example; see docs/radix2.md.
"""

from __future__ import annotations

from .common import MMResult, bit, check_inputs, csa, fits, ha, ha2

__all__ = [
    "basic",
    "scs1",
    "scs2",
    "fcs1",
    "fcs1_cs",
    "fcs2",
    "fcs2_cs",
    "mscs",
    "scs_new",
    "scs_new_printed",
    "until_zero",
]


def until_zero(ss: int, sc: int, step, width: int) -> tuple[int, int]:
    """Repeat the carry-save step (ss, sc) = step(ss, sc) until sc == 0.

    Returns (binary value, number of steps).  ``width`` is the register width;
    the model asserts that no step ever needs more.
    """
    ops = 0
    while sc:
        ss, sc = step(ss, sc)
        ops += 1
        if not (fits(ss, width) and fits(sc, width)):
            raise AssertionError(f"carry-save state overflows {width} bits")
    return ss, ops


# --------------------------------------------------------------------------
# Fig. 1: the basic radix-2 algorithm (binary, one carry-propagate adder)
# --------------------------------------------------------------------------
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


# --------------------------------------------------------------------------
# Fig. 2: SCS-based MM, two-level CSA loop; SCS-MM-1 (CPA_FC) and SCS-MM-2
# --------------------------------------------------------------------------
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


# --------------------------------------------------------------------------
# Fig. 5: FCS-MM-1 and FCS-MM-2 (operands and result in carry-save form)
# --------------------------------------------------------------------------
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
        from .common import InputError

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


# --------------------------------------------------------------------------
# Fig. 7 / Algorithm 3: MSCS-MM (one-level CSA, D = B + N, CSA conversion)
# --------------------------------------------------------------------------
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


# --------------------------------------------------------------------------
# Fig. 10 / Algorithm 4: SCS-MM-New
# --------------------------------------------------------------------------
def scs_new_width(k: int) -> int:
    """Register width of the SCS-MM-New datapath for operand width k.

    B^ = 8B < 16N and D^ = B^ + N + 1 <= 17N < 2^(k+5); every loop value is
    below D^ (S_{i+1} <= (S_i + D^)/2), so k+5 bits hold every SS, SC and x.
    """
    return k + 5


def scs_new(a: int, b: int, n: int, k: int, *, skip: bool = True) -> MMResult:
    """SCS-MM-New, corrected (docs/radix2.md lists every correction).

    Hardware phases (mm_scs_new):

    * precompute: (SS, SC) = (B^, N^) with B^ = 8B and N^ = N + 1 is loaded
      at the accepting edge; 2H_CSA until SC = 0, plus the detecting cycle;
      then D^ = SS.
    * loop: i = -1 .. k+4 with skips; one cycle per executed iteration.  The
      quotient and skip signals come from the skip detector, eqs. (5), (7),
      (8) generalised to x_1 = q^ & N^_1, x_2 = q^ & N^_2 (they reduce to the
      printed equations when N = 3 mod 4).  No skip out of the last
      iteration (i = k+4).
    * convert: 2H_CSA until SC = 0, plus the detecting cycle.

    With ``skip=False`` no iteration is skipped (used by the constant-time
    configuration).
    """
    check_inputs(a, b, n, k)
    w = scs_new_width(k)
    nh, bh = n + 1, b << 3
    dh, pre = until_zero(bh, nh, ha2, w)
    nh1, nh2 = bit(nh, 1), bit(nh, 2)
    xs = (0, nh, bh, dh)
    ss = sc = 0
    qh = ah = 0
    i = -1
    cycles = skips = 0
    while i <= k + 4:
        s, c = csa(ss, sc, xs[2 * ah + qh])
        # Skip detector, from the low bits of the CSA inputs only.
        x1, x2 = qh & nh1, qh & nh2
        ss0, ss1, ss2 = ss & 1, (ss >> 1) & 1, (ss >> 2) & 1
        sc0, sc1, sc2 = sc & 1, (sc >> 1) & 1, (sc >> 2) & 1
        d1 = ss1 ^ sc1 ^ x1  # = SS[i+1]_0
        d0 = ss0 & sc0  # = SC[i+1]_0   (x_0 = 0)
        q1 = d1 ^ d0
        q2 = ss2 ^ sc2 ^ x2 ^ ((ss1 & sc1) | (ss1 & x1) | (sc1 & x1))
        a1, a2 = bit(a, i + 1), bit(a, i + 2)
        skp = skip and i < k + 4 and not (a1 | d1 | d0)
        # s_0 is q_i; dropping it is exact because N^ = N + 1 (see docs).
        ss, sc = s >> 1, c >> 1
        cycles += 1
        if skp:
            ss, sc = ss >> 1, sc >> 1
            qh, ah = q2, a2
            i += 2
            skips += 1
        else:
            qh, ah = q1, a1
            i += 1
    s, conv = until_zero(ss, sc, ha2, w)
    return MMResult(
        s,
        (pre + 1) + cycles + (conv + 1),
        {"precompute": pre + 1, "loop": cycles, "skips": skips, "convert": conv + 1},
    )


def scs_new_printed(a: int, b: int, n: int, k: int, *, bound_fix: bool = False) -> MMResult:
    """Algorithm 4 of paper 001 / Fig. 10 of paper 000, exactly as printed.

    N^ from eq. (4) (N + 1 if N = 3 mod 4, 3N + 1 if N = 1 mod 4), B^ = 8B,
    D^ by 1F_CSA then 2H_CSA until SC = 0, the while loop i = -1 .. k+4 with
    q_{i+1}, q_{i+2}, skip_{i+1} from eqs. (5), (7), (8) and an unconditional
    skip, and the final 2H_CSA conversion.  ``bound_fix`` suppresses the skip
    out of the last iteration (correction 1 only), to isolate correction 2.

    This is *not* a correct multiplier; it exists to show the errors.
    """
    check_inputs(a, b, n, k)
    nh = n + 1 if n % 4 == 3 else 3 * n + 1
    bh = b << 3
    ss, sc = csa(bh, nh, 0)  # step 2
    cycles = 1
    while sc:  # steps 3-4
        ss, sc = ha2(ss, sc)
        cycles += 1
    dh = ss  # step 5
    xs = (0, nh, bh, dh)
    ss = sc = 0
    qh = ah = 0
    i = -1
    while i <= k + 4:  # step 7
        s, c = csa(ss, sc, xs[2 * ah + qh])  # steps 8-12
        q1 = (bit(ss, 1) ^ bit(sc, 1)) ^ (bit(ss, 0) & bit(sc, 0))  # (5)
        q2 = (bit(ss, 2) ^ bit(sc, 2)) ^ (qh & bit(nh, 2)) ^ (bit(ss, 1) & bit(sc, 1))  # (7)
        skp = not (bit(a, i + 1) | (bit(ss, 1) ^ bit(sc, 1)) | (bit(ss, 0) & bit(sc, 0)))  # (8)
        if bound_fix and i >= k + 4:
            skp = False
        ss, sc = s >> 1, c >> 1
        cycles += 1
        if skp:  # steps 14-17
            ss, sc = ss >> 1, sc >> 1
            qh, ah = q2, bit(a, i + 2)
            i += 2
        else:  # steps 18-20
            qh, ah = q1, bit(a, i + 1)
            i += 1
    while sc:  # steps 23-24
        ss, sc = ha2(ss, sc)
        cycles += 1
    return MMResult(ss, cycles, {})
