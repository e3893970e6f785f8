# SPDX-License-Identifier: Apache-2.0
"""Bit-exact, cycle-exact models of paper 004's word-level Montgomery
multipliers: the systolic array (``mm_systolic``, Multiplexed = 0) and the
multiplexed systolic array (``mm_systolic``, Multiplexed = 1).  The reconstruction and every
assumption are in ``docs/systolic.md``.

Notation: w is the word width (radix r = 2^w), k the modulus width, m the
number of words, R = r^m the Montgomery radix, N' = -N^-1 mod r (the paper's
n'_0).  Algorithm 1 as reconstructed (word-level Montgomery, HAC 14.36, with
Walter's bound so there is no final subtraction):

    S = 0
    for i = 0 .. m-1:
        q_i = ((S_0 + a_i * B_0) mod r) * N' mod r        (quotient block)
        S   = (S + a_i * B + q_i * N) / r                  (PE array)
    return S            # = A*B*R^-1 mod N, in [0, 2N) for A, B in [0, 2N)

with m = ceil((k + 2) / w) so that R >= 2^(k+2) > 4N.

Both models are register-transfer simulations of the RTL, clock cycle by
clock cycle (each register is updated from the previous cycle's values
only), so they show that the schedule has no hazard, and they count the
latency of ``docs/interface.md`` by running it.  :func:`algorithm1` is the
plain recurrence; :func:`systolic_latency` and :func:`systolic_mux_latency`
the closed formulas.  The tests check all of them against each other and
against ``pow()``.
"""

from __future__ import annotations

from .common import InputError, MMResult, check_inputs, mask

#: Words of an arithmetic core of the multiplexed architecture (paper: four
#: PEs per multiplier block).
PES_PER_CORE = 4
#: Cycles between two iterations entering the array.  Systolic: the quotient
#: recurrence (PE1 -> S_0 register -> quotient block -> q register -> PE0)
#: takes three registered steps.  Multiplexed: one multiplier block serves
#: four words, one word per cycle.
SYSTOLIC_PERIOD = 3
MUX_PERIOD = PES_PER_CORE
#: Word widths the RTL accepts.
WORD_WIDTH_MIN, WORD_WIDTH_MAX = 4, 32
#: N * (3N xor 2) = 1 mod 2^5 for every odd N: the seed of the inverse.
INV_SEED_BITS = 5


def _check_word_width(word_width: int) -> None:
    if not WORD_WIDTH_MIN <= word_width <= WORD_WIDTH_MAX:
        raise ValueError(f"word width {word_width} outside [{WORD_WIDTH_MIN}, {WORD_WIDTH_MAX}]")


def words(width: int, word_width: int) -> int:
    """m: words per operand = processing elements of the systolic array.
    The smallest m with w*m >= k + 2, so that R = 2^(w*m) > 4N for every
    N < 2^k (Walter's condition: no final subtraction)."""
    _check_word_width(word_width)
    return -(-(width + 2) // word_width)


def r_log2(width: int, word_width: int) -> int:
    """log2 of the Montgomery radix R = r^m."""
    return word_width * words(width, word_width)


def arith_cores(width: int, word_width: int) -> int:
    """Arithmetic cores of the multiplexed architecture: ceil(m / 4)."""
    return -(-words(width, word_width) // PES_PER_CORE)


def multipliers(width: int, word_width: int, arch: str) -> int:
    """w x w multipliers: two per PE (systolic) or two per arithmetic core
    (multiplexed), plus the quotient block's two."""
    if arch == "systolic":
        return 2 * words(width, word_width) + 2
    if arch == "systolic_mux":
        return 2 * arith_cores(width, word_width) + 2
    raise ValueError(f"unknown architecture {arch!r}")


def inv_steps(word_width: int) -> int:
    """Newton (Hensel) steps from the 5-bit seed to N' mod 2^w: each step
    doubles the number of correct low bits."""
    _check_word_width(word_width)
    steps, bits = 0, INV_SEED_BITS
    while bits < word_width:
        bits *= 2
        steps += 1
    return steps


def inv_seed(n: int, word_width: int) -> int:
    """y_0 = -(3N xor 2) mod r: N * y_0 = -1 mod 2^5."""
    return -((3 * n) ^ 2) & mask(word_width)


def quotient_block(x: int, y: int, s: int, z: int, word_width: int) -> int:
    """The quotient block (paper Fig. 5): ((x*y mod r) + s mod r) * z mod r.
    Iterations: x = a_i, y = B_0, s = S_0, z = N'.  Inverse steps:
    x = N_0, y = z = N'_j, s = 2, giving N'_(j+1) = N'_j (2 + N_0 N'_j)."""
    r = mask(word_width)
    return ((((x * y) & r) + s) & r) * z & r


def n_prime(n: int, word_width: int) -> int:
    """N' = -N^-1 mod r as the core computes it: the seed, then
    :func:`inv_steps` passes through the quotient block."""
    y = inv_seed(n, word_width)
    n0 = n & mask(word_width)
    for _ in range(inv_steps(word_width)):
        y = quotient_block(n0, y, 2, y, word_width)
    return y


def _split(x: int, w: int, m: int) -> list[int]:
    return [(x >> (w * j)) & mask(w) for j in range(m)]


def algorithm1(a: int, b: int, n: int, width: int, word_width: int = 16) -> int:
    """The word-level recurrence (Algorithm 1 as reconstructed), on whole
    integers; raises :class:`AssertionError` if S leaves [0, 3N)."""
    w, m = word_width, words(width, word_width)
    r = 1 << w
    npr = -pow(n, -1, r) % r
    s = 0
    for i in range(m):
        ai = (a >> (w * i)) & (r - 1)
        q = (((s & (r - 1)) + ai * (b & (r - 1))) * npr) % r
        t = s + ai * b + q * n
        assert t % r == 0
        s = t >> w
        assert s < 3 * n, "S left [0, 3N)"
    return s


def systolic_latency(width: int, word_width: int = 16) -> int:
    """Closed formula: I inverse steps, 1 cycle for q_0, a new iteration
    every 3 cycles, and the last one crossing m PEs: I + 4m - 2."""
    m = words(width, word_width)
    return inv_steps(word_width) + 1 + SYSTOLIC_PERIOD * (m - 1) + m


def systolic_mux_latency(width: int, word_width: int = 16) -> int:
    """Closed formula: I + 1 + 4(m-1) + (m multiplier-block cycles of the
    last iteration + 1 PE cycle) = I + 5m - 2."""
    m = words(width, word_width)
    return inv_steps(word_width) + 1 + MUX_PERIOD * (m - 1) + m + 1


def _control(cycle: int, istep: int, period: int, m: int) -> int | None:
    """Iteration whose quotient the control block computes in busy cycle
    ``cycle`` (1-based: the cycle ending at edge ``cycle`` after the
    accepting edge), or None."""
    c = cycle - 1 - istep
    if c < 0 or c % period:
        return None
    i = c // period
    return i if i < m else None


def _quot_next(cycle: int, istep: int, period: int, m: int, a: int, b0: int, s0: int, n0: int, npr: int,
               qa: int, qq: int, w: int) -> tuple[int, int, int, int]:
    """Next state of the quotient block's registers, shared by both arrays:
    N' (the ``istep`` inverse steps, then constant) and the register feeding
    PE0 (fire, a_i, q_i = (a_i B_0 + S_0) N' mod r when the control block
    (:func:`_control`, every ``period`` cycles) starts iteration i; else no
    fire, a_i and q_i held).  ``b0``, ``s0``, ``n0``: B_0, S_0, N_0."""
    n_npr = quotient_block(n0, npr, 2, npr, w) if cycle <= istep else npr
    it = _control(cycle, istep, period, m)
    if it is None:
        return n_npr, 0, qa, qq
    ai = (a >> (w * it)) & mask(w)
    return n_npr, 1, ai, quotient_block(ai, b0, s0, npr, w)


def systolic(a: int, b: int, n: int, width: int, *, word_width: int = 16) -> MMResult:
    """mm_systolic with Multiplexed = 0, register by register (see docs/systolic.md).

    Registers: N' (inverse, then constant), the quotient register (q, a_i,
    fire) feeding PE0, and per PE j the forwarded (fire, a_i, q_i), its
    result word lo_j (= S_(j-1) of the next iteration; PE0's is known zero)
    and its carry c_j (w + 1 bits; the last PE's carry is S_(m-1)).
    PE j fires when its forwarded fire input is high:
        t = S_j + a_i B_j + q_i N_j + c_(j-1)        (< 2 r^2)
    """
    check_inputs(a, b, n, width)
    w, m = word_width, words(width, word_width)
    msk = mask(w)
    bw, nw = _split(b, w, m), _split(n, w, m)
    istep = inv_steps(w)
    npr = inv_seed(n, w)
    # quotient-block output registers (inputs of PE0)
    qf = qa = qq = 0
    # PE output registers
    fo, ao, qo = [0] * m, [0] * m, [0] * m
    lo, co = [0] * m, [0] * m
    cycle = last_fires = 0
    while last_fires < m:
        cycle += 1
        if cycle > 10 * (m + istep + 4):
            raise AssertionError("systolic model: no result")
        # next-state values, from the current registers only
        s0 = lo[1] if m > 1 else co[0]
        n_npr, n_qf, n_qa, n_qq = _quot_next(cycle, istep, SYSTOLIC_PERIOD, m, a, bw[0], s0, nw[0], npr, qa, qq, w)
        n_fo, n_ao, n_qo = [0] * m, ao[:], qo[:]
        n_lo, n_co = lo[:], co[:]
        for j in range(m):
            fin, ain, qin = (qf, qa, qq) if j == 0 else (fo[j - 1], ao[j - 1], qo[j - 1])
            if not fin:
                continue
            sj = lo[j + 1] if j < m - 1 else co[m - 1]
            cin = co[j - 1] if j else 0
            t = sj + ain * bw[j] + qin * nw[j] + cin
            assert t < 2 << (2 * w), "PE sum wider than 2w+1 bits"
            if j == 0:
                assert t & msk == 0, "PE1's discarded word is not zero"
            n_fo[j], n_ao[j], n_qo[j] = 1, ain, qin
            n_lo[j], n_co[j] = t & msk, t >> w
            if j == m - 1:
                last_fires += 1  # the m-th firing of the last PE ends the product
        npr, qf, qa, qq = n_npr, n_qf, n_qa, n_qq
        fo, ao, qo, lo, co = n_fo, n_ao, n_qo, n_lo, n_co
    assert co[m - 1] >> w == 0, "S_(m-1) wider than a word"
    s = sum(lo[j + 1] << (w * j) for j in range(m - 1)) + (co[m - 1] << (w * (m - 1)))
    return MMResult(
        s,
        cycle,
        {
            "inverse": istep,
            "quotient": 1,
            "iterations": SYSTOLIC_PERIOD * (m - 1),
            "array": m,
        },
    )



def systolic_mux(a: int, b: int, n: int, width: int, *, word_width: int = 16) -> MMResult:
    """mm_systolic with Multiplexed = 1, register by register (see docs/systolic.md).

    Word j belongs to arithmetic core g = j // 4, slot p = j % 4.  Each core
    has one multiplier block (two w x w multipliers) that handles one of its
    words per cycle, in two multiply-accumulates:
        X_j = a_i B_j + hx_(j-1)          Y_j = q_i N_j + S_j + hy_(j-1)
    registering lo(X_j), lo(Y_j) for the PE and hx_j = X_j >> w,
    hy_j = Y_j >> w for the next word (the carries that run between the
    multiplier blocks).  The next cycle PE j adds once:
        Z_j = lo(X_j) + lo(Y_j) + c_(j-1)   ->  S_(j-1) = lo(Z_j), c_j = Z_j >> w (1 bit)
    and the last PE adds the two carry words as well, giving S_(m-2) and
    S_(m-1).  Word j of iteration i is in the multiplier block in busy cycle
    I + 2 + 4i + j and in its PE one cycle later.
    """
    check_inputs(a, b, n, width)
    w, m = word_width, words(width, word_width)
    g_n = arith_cores(width, word_width)
    msk = mask(w)
    bw, nw = _split(b, w, m), _split(n, w, m)
    istep = inv_steps(w)
    npr = inv_seed(n, w)
    qf = qa = qq = 0                     # quotient register: token, a_i, q_i
    af, qfw = [0] * g_n, [0] * g_n       # per core: (a_i, q_i) forwarded to the next core
    mbt = [0] * m                        # token: the MB handles word j this cycle (j >= 1)
    xl, yl, hx, hy = [0] * g_n, [0] * g_n, [0] * g_n, [0] * g_n
    pet = [0] * m                        # token: PE j adds this cycle
    pc, pw = [0] * m, [0] * m            # PE carry (1 bit), PE result word (S_(j-1))
    top = 0                              # S_(m-1), from the last PE
    cycle = last_fires = 0
    while last_fires < m:
        cycle += 1
        if cycle > 10 * (m + istep + 4):
            raise AssertionError("systolic_mux model: no result")
        s_word = [pw[j + 1] for j in range(m - 1)] + [top]
        n_npr, n_qf, n_qa, n_qq = _quot_next(cycle, istep, MUX_PERIOD, m, a, bw[0], s_word[0], nw[0], npr, qa, qq, w)
        n_af, n_qfw = af[:], qfw[:]
        n_mbt, n_pet = [0] * m, [0] * m
        n_xl, n_yl, n_hx, n_hy = xl[:], yl[:], hx[:], hy[:]
        n_pc, n_pw, n_top = pc[:], pw[:], top
        busy = [0] * g_n
        for j in range(m):
            g, p = divmod(j, PES_PER_CORE)
            # multiplier block of core g, word j
            if mbt[j] if j else qf:
                assert not busy[g], "two words in one multiplier block"
                busy[g] = 1
                ai, qi = (qa, qq) if g == 0 else (af[g - 1], qfw[g - 1])
                if p == 0:
                    cx, cy = (hx[g - 1], hy[g - 1]) if g else (0, 0)
                else:
                    cx, cy = hx[g], hy[g]
                x = ai * bw[j] + cx
                y = qi * nw[j] + s_word[j] + cy
                assert x < 1 << (2 * w) and y < 1 << (2 * w), "MAC wider than 2w bits"
                n_xl[g], n_yl[g], n_hx[g], n_hy[g] = x & msk, y & msk, x >> w, y >> w
                if p == PES_PER_CORE - 1:
                    n_af[g], n_qfw[g] = ai, qi
                if j + 1 < m:
                    n_mbt[j + 1] = 1
                n_pet[j] = 1
            # PE j
            if pet[j]:
                cin = pc[j - 1] if j else 0
                if j < m - 1:
                    z = xl[g] + yl[g] + cin
                    n_pc[j] = z >> w
                else:
                    z = ((hx[g] << w) | xl[g]) + ((hy[g] << w) | yl[g]) + cin
                    assert z >> (2 * w) == 0, "S_(m-1) wider than a word"
                    n_top = z >> w
                    last_fires += 1
                if j == 0:
                    assert z & msk == 0, "PE1's discarded word is not zero"
                else:
                    n_pw[j] = z & msk
        npr, qf, qa, qq = n_npr, n_qf, n_qa, n_qq
        af, qfw, mbt, pet = n_af, n_qfw, n_mbt, n_pet
        xl, yl, hx, hy = n_xl, n_yl, n_hx, n_hy
        pc, pw, top = n_pc, n_pw, n_top
    s = sum(pw[j + 1] << (w * j) for j in range(m - 1)) + (top << (w * (m - 1)))
    return MMResult(
        s,
        cycle,
        {
            "inverse": istep,
            "quotient": 1,
            "iterations": MUX_PERIOD * (m - 1),
            "array": m + 1,
        },
    )
