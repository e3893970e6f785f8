# SPDX-License-Identifier: Apache-2.0
"""The ws array behind the common core interface: the wide-port adapter's
two arithmetic units and the adapter's model (``docs/ws_core.md``).

The ws array (:mod:`montmul.models.ws`) multiplies with a scaled modulus
Ñ = n'N, n' = -N^-1 mod 2^E' (E' = w(d+1)), and its product
U = (A*B + Q*Ñ)/2^(wm) lies in [0, 2Ñ), not in [0, 2N).  The adapter gives it
the ports of every montmul core (A, B in [0, 2N), S = A*B*R'^-1 mod N in
[0, 2N)) with two units that need no multiplier and no adder wider than a
word:

* **prep** (``rtl/ws/mm_ws_prep.sv``): M = (Ñ + 1)/2^E' from N alone.
  M is the radix-2 Montgomery reduction of 1 by 2^E': Y_0 = 1,
  Y_(j+1) = (Y_j + y_j N)/2 with y_j = Y_j mod 2, Y_E' = M (the bits y_j
  are n', so Y_E' * 2^E' = 1 + n'N = Ñ + 1).  Y < N throughout, so Y fits
  k bits; the unit keeps Y in carry-save form (S, C), one 3:2 row per step,
  and resolves S + C word by word, low word first, with a w-bit adder and a
  carry register: the stream of M's m words the array's load needs.
* **redc** (``rtl/ws/mm_ws_redc.sv``): S from U by E = E' + 1 radix-2
  reduction steps with the plain N (if U is odd, U += N; U >>= 1), in
  carry-save form, then the same word-serial resolution.  For U < 2^E N (so
  for U < 2Ñ = 2n'N < 2^E N) the result S = (U + qN)/2^E < 2N, and
  S = A*B*2^-(wm+E) (mod N): the adapter's radix is R' = 2^(wm+E).

Both functions run the units' registers bit for bit (the carry-save pair
after every step, every word the adder forms) and count their cycles as the
RTL does.  :func:`model` composes prep, the array's product
(:func:`montmul.models.ws.montmul`) and redc; its array cycles come from
:mod:`montmul.models.ws` (the closed form :func:`ws.chain_cycles` of one
loaded product, or :func:`ws.simulate` with ``simulate=True``), and the
cycles of the glue between the units in ``rtl/ws/mm_ws.sv`` are
:data:`ADAPTER_GLUE_CYCLES`.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import ws
from .common import InputError, MMResult, ceil_div, check_inputs, csa

#: Cycles the adapter's glue adds between the units in ``rtl/ws/mm_ws.sv``:
#: the request registers of prep and of the array's job, the array's job to
#: its first token (3 cycles, docs/ws.md "Native interface"), the result
#: stream into redc and the shell's response.  ``tb/mm_ws`` checks the sum
#: (every latency equal to :func:`model`'s) in every configuration it runs.
ADAPTER_GLUE_CYCLES = 7


def scale_bits(w: int, d: int) -> int:
    """E' = w(d+1): Ñ = -1 mod 2^E', M = (Ñ + 1)/2^E'."""
    return w * (d + 1)


def redc_steps(w: int, d: int) -> int:
    """E = E' + 1 radix-2 reduction steps: U < 2^E N gives S < 2N."""
    return scale_bits(w, d) + 1


def words(k: int, w: int, d: int) -> int:
    """m = ceil((k + E' + 2)/w): words of A, B, M (as loaded) and U for a
    build of Width k (``ws.precompute(n, w, d, bits=k).m``)."""
    return ceil_div(k + scale_bits(w, d) + 2, w)


def out_words(k: int, w: int) -> int:
    """Words redc resolves: ceil((k+1)/w) (S < 2N < 2^(k+1))."""
    return ceil_div(k + 1, w)


def r_log2(k: int, p, n: int | None = None) -> int:
    """log2 of the adapter's Montgomery radix R' = 2^(wm + E) for a build of
    Width k with parameters ``p`` (``WordWidth``, ``QuotDelay``); the same
    for every modulus of the build (``n`` is not used)."""
    w, d = p["WordWidth"], p["QuotDelay"]
    return w * words(k, w, d) + redc_steps(w, d)


def _check_params(k: int, w: int, d: int) -> None:
    if k < 3:
        raise ValueError(f"width k={k} is below 3")
    if w < ws.WORD_WIDTH_MIN:
        raise ValueError(f"word width w={w} is below {ws.WORD_WIDTH_MIN}")
    if d < 1:
        raise ValueError(f"quotient delay d={d} is below 1")


def _check_modulus(n: int, k: int) -> None:
    if not isinstance(n, int) or n < 3:
        raise InputError(f"modulus N={n} is below 3")
    if n % 2 == 0:
        raise InputError(f"modulus N={n} is even; Montgomery multiplication needs an odd modulus")
    if n >= 1 << k:
        raise InputError(f"modulus N={n} does not fit in {k} bits")


def _resolve(s: int, c: int, w: int, count: int) -> list[int]:
    """The word-serial carry-propagate adder: ``count`` words of S + C, low
    first, each x_j + y_j + carry with a w-bit adder and a carry register.
    Asserts that nothing is left above the last word."""
    mask = (1 << w) - 1
    out, cy = [], 0
    for _ in range(count):
        t = (s & mask) + (c & mask) + cy
        out.append(t & mask)
        cy = t >> w
        s >>= w
        c >>= w
    assert s == 0 and c == 0 and cy == 0, "S + C fits the resolved words"
    return out


def _step(s: int, c: int, n: int) -> tuple[int, int, int]:
    """One radix-2 reduction step on the carry-save pair: y = (S + C) mod 2,
    (S', 2C') = 3:2 row of (S, C, yN), then halve.  S' is even (y makes the
    sum even and 2C' has no bit 0), so halving drops a zero bit:
    S + C -> (S + C + yN)/2 exactly."""
    y = (s ^ c) & 1
    row_s, row_c = csa(s, c, n if y else 0)  # row_c = maj(...) << 1
    assert row_s & 1 == 0 and row_c & 1 == 0
    return row_s >> 1, row_c >> 1, y


@dataclass(frozen=True)
class Prep:
    """What the prep unit produces for one modulus (spec: docs/ws_core.md)."""

    n: int
    w: int
    d: int
    k: int
    m: int  #: words of the M stream (and of A, B, U): ceil((k + E' + 2)/w)
    mscaled: int  #: M = (Ñ + 1) / 2^E'
    nprime: int  #: n' = -N^-1 mod 2^E' (the reduction bits y_j)
    words: tuple[int, ...]  #: M's m words, low first (the top ones are 0: M < N)
    first: int  #: cycles from the accepting edge to the edge after which word 0 is valid
    cycles: int  #: cycles from the accepting edge to the edge that takes the last word (ready held high)

    @property
    def ntilde(self) -> int:
        return self.nprime * self.n


def prep_first(w: int, d: int) -> int:
    """Prep's cycles to the first M word: E' - 1 (the accepting edge loads
    Y_1 = (1 + N)/2 as the pair (N >> 1, 1); the other E' - 1 steps take a
    cycle each)."""
    return scale_bits(w, d) - 1


def prep_cycles(k: int, w: int, d: int) -> int:
    """Prep's cycles from the accepting edge to the edge that takes the last
    M word, one word taken per cycle: E' - 1 + m."""
    return prep_first(w, d) + words(k, w, d)


def prep(n: int, k: int, w: int, d: int) -> Prep:
    """M's words from N, as ``mm_ws_prep`` computes them.

    Radix-2 Montgomery reduction of 1 by 2^E' in carry-save form:
    Y_1 = (1 + N)/2 = (N >> 1) + 1 is loaded as the pair (N >> 1, 1) (N is
    odd: no adder), then E' - 1 steps; Y_j < N throughout (Y_(j+1) <
    (N + N)/2), so both halves of the pair fit k bits.  Then m words of
    S + C, low first.  Raises :class:`InputError` (a ValueError) for an
    illegal modulus and ValueError for illegal parameters.
    """
    _check_params(k, w, d)
    _check_modulus(n, k)
    e1 = scale_bits(w, d)
    s, c, nprime = n >> 1, 1, 1  # Y_1; y_0 = 1 (Y_0 = 1 is odd)
    for j in range(1, e1):
        s, c, y = _step(s, c, n)
        nprime |= y << j
        assert s + c < n and s < 1 << k and c < 1 << k
    m = words(k, w, d)
    out = _resolve(s, c, w, m)
    mscaled = sum(x << (w * j) for j, x in enumerate(out))
    assert mscaled << e1 == nprime * n + 1, "M * 2^E' = n'N + 1 = Ñ + 1"
    return Prep(n=n, w=w, d=d, k=k, m=m, mscaled=mscaled, nprime=nprime, words=tuple(out),
                first=prep_first(w, d), cycles=prep_cycles(k, w, d))


@dataclass(frozen=True)
class Redc:
    """What the redc unit produces for one U."""

    result: int  #: S = (U + qN) / 2^E, in [0, 2N)
    q: int  #: the E reduction bits, low first
    words: tuple[int, ...]  #: S's ceil((k+1)/w) words as the adder forms them, low first
    cycles: int  #: from the edge that takes U's last word to the edge after which S is valid


def redc_cycles(k: int, w: int, d: int) -> int:
    """Redc's cycles from the edge taking U's last word to the edge after
    which ``out_valid_o`` is high: E steps + ceil((k+1)/w) words."""
    return redc_steps(w, d) + out_words(k, w)


def redc(u: int, n: int, k: int, w: int, d: int) -> Redc:
    """S from the array's U, as ``mm_ws_redc`` computes it.

    E = w(d+1) + 1 radix-2 steps by N in carry-save form from (U, 0), then
    ceil((k+1)/w) words of S + C.  Legal input: N odd, 3 <= N < 2^k, and
    0 <= U < 2^E N (the array's U < 2Ñ = 2n'N meets it, n' < 2^(E-1)); then
    every Y_j < 2^E N < 2^(k+E) (the registers' width) and S < 2N.
    """
    _check_params(k, w, d)
    _check_modulus(n, k)
    e = redc_steps(w, d)
    if not isinstance(u, int) or not 0 <= u < n << e:
        raise InputError(f"U={u} is outside [0, 2^{e} N)")
    s, c, q = u, 0, 0
    for j in range(e):
        s, c, y = _step(s, c, n)
        q |= y << j
        assert s + c < n << e and s < 1 << (k + e) and c < 1 << (k + e)
    assert s + c < 2 * n, "S = (U + qN)/2^E < 2N"
    out = _resolve(s, c, w, out_words(k, w))
    result = sum(x << (w * j) for j, x in enumerate(out))
    assert result << e == u + q * n
    return Redc(result=result, q=q, words=tuple(out), cycles=redc_cycles(k, w, d))


def array_of(k: int, w: int, d: int, pes: int | None = None, latency: int = 6, qlat: int = 0) -> ws.Array:
    """The ws array the model times: P = ``pes`` (default V = m + 1, one
    chunk), the DSP path latency and the quotient latency.  ValueError if
    the quotient delay is too short for them (``ws.Array.quotient_ok``) or
    the ring cannot run the operand's chunks (``ws.ring_ok``)."""
    _check_params(k, w, d)
    kk = ws.precompute(3, w, d, bits=k)
    arr = ws.Array(pes if pes is not None else kk.v, w, d, latency, qlat)
    if not arr.quotient_ok(kk):
        raise ValueError(f"quotient delay d={d} is too short for latency L={latency}, qlat={qlat} "
                         f"with {arr.chunks(kk)} chunk(s) (need 2cd >= L + 1 + qlat)")
    if not ws.ring_ok(arr.pes, arr.chunks(kk)):
        raise ValueError(f"a ring of P={arr.pes} PEs cannot run {arr.chunks(kk)} chunks "
                         f"(need P even with gcd(P/2, c) = 1)")
    return arr


def array_cycles(k: int, w: int, d: int, pes: int | None = None, latency: int = 6, qlat: int = 0) -> int:
    """The array's cycles of one product with its A and M loaded first
    (``ws.chain_cycles`` of one loaded product, one half): from the first
    load token at PE 0 to the cycle after U's last word is at PE 0."""
    arr = array_of(k, w, d, pes, latency, qlat)
    return ws.chain_cycles(arr, ws.precompute(3, w, d, bits=k), 1, square=False, halves=1, load=True)


def latency(k: int, w: int, d: int, pes: int | None = None, l_dsp: int = 6, qlat: int = 0) -> int:
    """The adapter's latency (data independent): prep + array + redc + glue."""
    return (prep_cycles(k, w, d) + array_cycles(k, w, d, pes, l_dsp, qlat) + redc_cycles(k, w, d)
            + ADAPTER_GLUE_CYCLES)


def model(a: int, b: int, n: int, k: int, *, w: int = 16, d: int = 4, pes: int | None = None,
          l_dsp: int = 6, qlat: int = 0, simulate: bool = False) -> MMResult:
    """S = A*B*R'^-1 mod N in [0, 2N), R' = 2^(wm + E), through the adapter:
    prep (M from N), the ws array's product U of A and B, redc (S from U).

    Inputs as every core: odd 3 <= N < 2^k, A, B in [0, 2N)
    (:class:`InputError` otherwise).  ``pes``, ``l_dsp`` (the DSP path
    latency L) and ``qlat`` describe the array (``ws.Array``; default
    P = m + 1).

    Cycles: prep's (accept to the last M word taken) + the array's (one
    loaded product: ``ws.chain_cycles``, or ``ws.simulate`` with one
    ``ws.Job`` and ``load=True`` when ``simulate``, which also checks the
    simulated U) + redc's (U's last word to S valid) +
    :data:`ADAPTER_GLUE_CYCLES` (``rtl/ws/mm_ws.sv``).
    """
    _check_params(k, w, d)
    check_inputs(a, b, n, k)
    p = prep(n, k, w, d)
    kk = ws.precompute(n, w, d, bits=k)
    assert kk.mscaled == p.mscaled and kk.m == p.m
    u, _ = ws.montmul(a, b, kk)
    arr = array_of(k, w, d, pes, l_dsp, qlat)
    if simulate:
        sim = ws.simulate(arr, [ws.Job(kk, a, [b], load=True)])
        assert sim.halves[0].results == [u]
        t_array = sim.cycles
    else:
        t_array = ws.chain_cycles(arr, kk, 1, square=False, halves=1, load=True)
    r = redc(u, n, k, w, d)
    breakdown = {"prep": p.cycles, "array": t_array, "redc": r.cycles, "glue": ADAPTER_GLUE_CYCLES}
    return MMResult(result=r.result, cycles=sum(breakdown.values()), breakdown=breakdown)


# --------------------------------------------------------------------------
# The registered core: a build's ring from its HDL parameters
# --------------------------------------------------------------------------

#: The array's legal ranges (``rtl/ws/mm_ws_array.sv``, docs/ws.md "Legal
#: builds"): P PEs, c laps, quotient delay d, word width w (the DSP
#: multiplier's 18 bits), DSP registers and transport registers.
PES_MIN, PES_MAX = 3, 512
CHUNKS_MAX = 4
DELAY_MIN, DELAY_MAX = 2, 8
WORD_MAX = 18
DSP_REGS = (2, 3)
LOOP_REGS_MAX = 2


def dsp_latency(dsp_regs: int, loop_regs: int) -> int:
    """The array's DSP path latency L = DspRegs + 3 + LoopRegs (docs/ws.md)."""
    return dsp_regs + 3 + loop_regs


def ring_rule(pes: int, chunks: int) -> bool:
    """The ring's slot rule: c = 1, or P even with gcd(P/2, c) = 1
    (:func:`montmul.models.ws.ring_ok`)."""
    return ws.ring_ok(pes, chunks)


def fit_pes(m: int, chunks: int) -> int:
    """The fewest PEs that run m words in c laps: the smallest P >= 3 with
    (c-1)P <= m <= cP - 1 that meets the ring rule, or 0 if there is none
    (as ``mm_ws.sv``'s ``fit_pe``: the first of P0 .. P0 + 7, P0 =
    max(3, ceil((m+1)/c)); a legal P for c <= 4 is among them if any is)."""
    p0 = max(PES_MIN, -(-(m + 1) // chunks))
    for p in range(p0, p0 + 8):
        if p <= PES_MAX and (chunks - 1) * p <= m and ring_rule(p, chunks):
            return p
    return 0


@dataclass(frozen=True)
class Build:
    """The array of one build of ``mm_ws`` (:func:`build`)."""

    k: int
    w: int
    d: int
    m: int  #: words of A, B, M, U
    pes: int  #: P
    chunks: int  #: c = ceil((m + 1)/P)
    latency: int  #: L = DspRegs + 3 + LoopRegs
    qlat: int  #: -1 with the quotient bypass (2cd = L), else 0


def build(k: int, w: int = 16, d: int = 4, pes: int = 0, chunks: int = 0, dsp_regs: int = 3,
          loop_regs: int = 0) -> Build:
    """The ring of a build of ``mm_ws`` at Width k from its HDL parameters
    ``WordWidth``, ``QuotDelay``, ``NumPe``, ``Chunks``, ``DspRegs``,
    ``LoopRegs``, with ``mm_ws.sv``'s rules for the two that may be 0:

    * ``NumPe`` = 0 and ``Chunks`` = 0: the fewest laps c (1 .. 4) with
      2cd >= L for which a ring exists, on the fewest PEs for them
      (:func:`fit_pes`; c = 1: P = m + 1);
    * ``NumPe`` = 0, ``Chunks`` = c: the fewest PEs for c laps;
    * ``Chunks`` = 0, ``NumPe`` = P: c = ceil((m + 1)/P), the only c that
      can run m words on P PEs.

    ValueError (one line, naming the rule) for a build the RTL rejects with
    ``MM_FATAL``: w outside 2 .. 18, d outside 2 .. 8, DspRegs not 2 or 3,
    LoopRegs outside 0 .. 2, P outside 3 .. 512, c outside 1 .. 4, the ring
    rule, m outside [(c-1)P, cP - 1], 2cd < L."""
    if not 3 <= k:
        raise ValueError(f"width k={k} is below 3")
    if not ws.WORD_WIDTH_MIN <= w <= WORD_MAX:
        raise ValueError(f"WordWidth={w} outside [{ws.WORD_WIDTH_MIN}, {WORD_MAX}]")
    if not DELAY_MIN <= d <= DELAY_MAX:
        raise ValueError(f"QuotDelay={d} outside [{DELAY_MIN}, {DELAY_MAX}]")
    if dsp_regs not in DSP_REGS:
        raise ValueError(f"DspRegs={dsp_regs}: must be 2 or 3")
    if not 0 <= loop_regs <= LOOP_REGS_MAX:
        raise ValueError(f"LoopRegs={loop_regs} outside [0, {LOOP_REGS_MAX}]")
    m, lat = words(k, w, d), dsp_latency(dsp_regs, loop_regs)
    if pes == 0 and chunks == 0:
        chunks = next((c for c in range(1, CHUNKS_MAX + 1) if 2 * c * d >= lat and fit_pes(m, c)), 0)
        if not chunks:
            raise ValueError(f"no ring of at most {PES_MAX} PEs and {CHUNKS_MAX} laps runs m={m} words "
                             f"with QuotDelay={d} (Width={k}, WordWidth={w})")
    if pes == 0:
        if not 1 <= chunks <= CHUNKS_MAX:
            raise ValueError(f"Chunks={chunks} outside [1, {CHUNKS_MAX}]")
        pes = fit_pes(m, chunks)
        if not pes:
            raise ValueError(f"no ring of at most {PES_MAX} PEs runs m={m} words in Chunks={chunks} laps "
                             f"(Width={k}, WordWidth={w}, QuotDelay={d})")
    if not PES_MIN <= pes <= PES_MAX:
        raise ValueError(f"NumPe={pes} outside [{PES_MIN}, {PES_MAX}] (0: chosen from the width)")
    if chunks == 0:
        chunks = -(-(m + 1) // pes)
        if chunks > CHUNKS_MAX:
            raise ValueError(f"NumPe={pes} PEs need {chunks} laps for m={m} words; at most {CHUNKS_MAX}")
    if not 1 <= chunks <= CHUNKS_MAX:
        raise ValueError(f"Chunks={chunks} outside [1, {CHUNKS_MAX}]")
    if not ring_rule(pes, chunks):
        raise ValueError(f"a ring of NumPe={pes} cannot run Chunks={chunks} laps (need P even with gcd(P/2, c) = 1)")
    if not (chunks - 1) * pes <= m <= chunks * pes - 1:
        raise ValueError(f"m={m} words (Width={k}, WordWidth={w}, QuotDelay={d}) need "
                         f"(Chunks-1)*NumPe <= m <= Chunks*NumPe - 1; NumPe={pes}, Chunks={chunks}")
    if 2 * chunks * d < lat:
        raise ValueError(f"QuotDelay={d} too short: need 2*Chunks*QuotDelay >= L = DspRegs + 3 + LoopRegs = {lat}")
    return Build(k=k, w=w, d=d, m=m, pes=pes, chunks=chunks, latency=lat, qlat=-1 if 2 * chunks * d == lat else 0)


def build_of(k: int, p) -> Build:
    """:func:`build` from a dict of HDL parameters (the registry's)."""
    return build(k, p["WordWidth"], p["QuotDelay"], p["NumPe"], p["Chunks"], p["DspRegs"], p["LoopRegs"])


def core_latency(k: int, p) -> int:
    """The latency of a build (HDL parameters ``p``): :func:`latency` of its
    ring, the same for every request."""
    b = build_of(k, p)
    return latency(k, b.w, b.d, b.pes, b.latency, b.qlat)


def core_model(a: int, b: int, n: int, k: int, *, word_width: int = 16, quot_delay: int = 4, num_pe: int = 0,
               chunks: int = 0, dsp_regs: int = 3, loop_regs: int = 0) -> MMResult:
    """:func:`model` of the build with these HDL parameters (``WordWidth``,
    ``QuotDelay``, ``NumPe``, ``Chunks``, ``DspRegs``, ``LoopRegs``): the
    registry's model of the core ``ws``."""
    g = build(k, word_width, quot_delay, num_pe, chunks, dsp_regs, loop_regs)
    return model(a, b, n, k, w=g.w, d=g.d, pes=g.pes, l_dsp=g.latency, qlat=g.qlat)
