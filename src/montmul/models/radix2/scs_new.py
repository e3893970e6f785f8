# SPDX-License-Identifier: Apache-2.0
"""Fig. 10 / Algorithm 4: SCS-MM-New, corrected, and the printed algorithm."""

from __future__ import annotations

from ..common import MMResult, bit, check_inputs, csa, ha2
from ._util import until_zero


def scs_new_width(k: int) -> int:
    """Register width of the SCS-MM-New datapath for operand width k.

    B^ = 8B < 16N and D^ = B^ + N + 1 <= 17N < 2^(k+5); every loop value is
    below D^ (S_{i+1} <= (S_i + D^)/2), so k+5 bits hold every SS, SC and x.
    """
    return k + 5


def scs_new_ct_steps(k: int) -> int:
    """2H_CSA steps that always clear SC on a (k+5)-bit pair: each half-adder
    step moves the lowest set carry bit up by at least one place, so k+5
    half-adder steps, i.e. ceil((k+5)/2) 2H_CSA steps, suffice."""
    return (scs_new_width(k) + 1) // 2


def scs_new(a: int, b: int, n: int, k: int, *, skip: bool = True, const_time: bool = False) -> MMResult:
    """SCS-MM-New, corrected (docs/radix2.md lists every correction).

    Hardware phases (mm_scs_new):

    * precompute: (SS, SC) = (B^ + 2, N - 1) with B^ = 8B, a carry-save
      form of D^ = B^ + N^, N^ = N + 1, that needs no adder on the request,
      is loaded at the accepting edge; 2H_CSA until SC = 0, plus the
      detecting cycle; then D^ = SS.  (N^ itself is formed from the
      registered N during the precompute; the loop is its first reader.)
    * loop: i = -1 .. k+4 with skips; one cycle per executed iteration.  The
      quotient and skip signals come from the skip detector, eqs. (5), (7),
      (8) generalised to x_1 = q^ & N^_1, x_2 = q^ & N^_2 (they reduce to the
      printed equations when N = 3 mod 4).  No skip out of the last
      iteration (i = k+4).
    * convert: 2H_CSA until SC = 0, plus the detecting cycle.

    With ``skip=False`` no iteration is skipped.  With ``const_time=True``
    (the constant-time configuration) nothing is skipped and both "until
    SC = 0" loops run exactly :func:`scs_new_ct_steps` steps.
    """
    check_inputs(a, b, n, k)
    w = scs_new_width(k)
    nh, bh = n + 1, b << 3
    if const_time:
        skip = False
    dh, pre = until_zero(bh + 2, n - 1, ha2, w)
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
    if const_time:
        steps = scs_new_ct_steps(k)
        if max(pre, conv) > steps:
            raise AssertionError("constant-time step bound violated")
        pre = conv = steps
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
