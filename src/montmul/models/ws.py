# SPDX-License-Identifier: Apache-2.0
"""The word-serial systolic Montgomery array ``ws``: arithmetic and timing.

Two levels, each the definition the RTL is checked against (``docs/ws.md``
has the proofs and the schedule):

* **Arithmetic** (:func:`precompute`, :func:`montmul`, :func:`waves`): word-
  serial Montgomery multiplication with a scaled modulus and a delayed
  quotient.  With n' = -N^-1 mod 2^(w(d+1)), Ñ = n'N and M = (Ñ+1)/2^(w(d+1)),

      H = 0
      for i in 0 .. s-1:
          X   = H + b_i*A + q_(i-d)*M*2^w
          q_i = X mod 2^w;   H = X >> w
      U = H*2^(wd) + sum_(f<d) q_(s-d+f)*2^(wf)

  gives U = (A*B + Q*Ñ)/R exactly (R = 2^(wm), Q = sum_(j<m) q_j 2^(wj)), so
  U = A*B*R^-1 (mod N) and U < 2Ñ for A, B < 2Ñ.  The quotient is a word of
  the sum (no multiplier in the recurrence) and q*M is needed d waves after q
  is formed: the multipliers' pipeline hides in those d waves.

* **Cycles** (:class:`Array`, :func:`simulate`): a register-transfer model of
  the ring of P physical processing elements, two products (the CRT halves)
  interleaved on even and odd cycles, c = ceil(V/P) chunks of virtual PEs,
  products chained as an exponentiation needs them.  Every register is
  modelled with the origin of the value it holds; a read that finds another
  value than the schedule needs raises :class:`ScheduleViolation` naming the
  rule, so the schedule's constraints come out of the model.

Figures: ``python -m montmul.models.ws`` (:func:`figures`).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from dataclasses import dataclass
from math import gcd

# --------------------------------------------------------------------------
# Arithmetic
# --------------------------------------------------------------------------

#: Word widths the array is meant for (MULT18X18D: 16 or 17); the model
#: accepts any width from 2 up (8 keeps tests small).
WORD_WIDTH_MIN = 2


@dataclass(frozen=True)
class Constants:
    """Host precomputation for one odd modulus (spec section 1).

    ``bits`` is the operand length ℓ the array is set up for (n < 2^ℓ); the
    two CRT halves share it so they share the word counts.
    """

    n: int
    w: int  #: word width
    d: int  #: quotient delay in waves
    bits: int  #: ℓ
    nprime: int  #: n' = -N^-1 mod 2^(w(d+1))
    ntilde: int  #: Ñ = n'*N, = -1 mod 2^(w(d+1))
    mscaled: int  #: M = (Ñ+1) / 2^(w(d+1)), < N
    m: int  #: words of A, B and U: ceil((ℓ + w(d+1) + 2)/w), so R >= 4Ñ

    @property
    def s(self) -> int:
        """Waves per product: m + d (the last d bring in the last d quotients)."""
        return self.m + self.d

    @property
    def v(self) -> int:
        """Virtual PEs: m + 1 (X < 2^(w(m+1)), see :func:`check_bounds`)."""
        return self.m + 1

    @property
    def m_words(self) -> int:
        """Words of M (M < N < 2^ℓ): virtual PEs 1 .. m_words use q*M."""
        return -(-self.bits // self.w)

    @property
    def r_log2(self) -> int:
        return self.w * self.m

    @property
    def r(self) -> int:
        return 1 << self.r_log2

    def word(self, x: int, j: int) -> int:
        return (x >> (self.w * j)) & ((1 << self.w) - 1)

    def to_mont(self, x: int) -> int:
        """x*R mod N: what the array's products are congruent to."""
        return x * self.r % self.n

    def r2(self) -> int:
        """R^2 mod N, the host constant of the conversion into the domain."""
        return self.r * self.r % self.n


def precompute(n: int, w: int, d: int, bits: int | None = None) -> Constants:
    """n', Ñ, M and the word counts for an odd modulus n >= 3 (spec §1).

    Raises ValueError for an even or too small modulus, a word width below 2,
    d < 1, or ``bits`` below n's length.
    """
    if not isinstance(n, int) or n < 3:
        raise ValueError(f"modulus N={n} is below 3")
    if n % 2 == 0:
        raise ValueError(f"modulus N={n} is even; Montgomery multiplication needs an odd modulus")
    if w < WORD_WIDTH_MIN:
        raise ValueError(f"word width w={w} is below {WORD_WIDTH_MIN}")
    if d < 1:
        raise ValueError(f"quotient delay d={d} is below 1")
    bits = n.bit_length() if bits is None else bits
    if bits < n.bit_length():
        raise ValueError(f"modulus N={n} does not fit in {bits} bits")
    low = 1 << (w * (d + 1))
    nprime = -pow(n, -1, low) % low
    ntilde = nprime * n
    m = -(-(bits + w * (d + 1) + 2) // w)
    k = Constants(n=n, w=w, d=d, bits=bits, nprime=nprime, ntilde=ntilde,
                  mscaled=(ntilde + 1) // low, m=m)
    check_bounds(k)
    return k


def check_bounds(k: Constants) -> None:
    """The bounds the hardware relies on (proofs in docs/ws.md)."""
    low = 1 << (k.w * (k.d + 1))
    assert k.ntilde % low == low - 1, "Ñ = -1 mod 2^(w(d+1))"
    assert k.mscaled * low == k.ntilde + 1
    assert k.mscaled < k.n, "M < N, so M has ceil(ℓ/w) words"
    assert 4 * k.ntilde <= k.r, "R >= 4Ñ (Walter's bound: outputs < 2Ñ)"


def carry_max(w: int) -> int:
    """Largest carry a PE passes right: 2^(w+1) - 2 (w+1 bits).

    sum = h + b*a + q*M' + c <= (r-1) + 2(r-1)^2 + c with r = 2^w; c <= 2r-2
    gives sum <= 2r^2 - r - 1, whose carry floor(sum/r) is again <= 2r-2.
    """
    return (1 << (w + 1)) - 2


def sum_max(w: int) -> int:
    """Largest PE sum: 2^(2w+1) - 2^w - 1 (2w+1 bits)."""
    r = 1 << w
    return 2 * r * r - r - 1


def widths(w: int) -> dict[str, int]:
    """Register widths of a PE (bits), from the bounds above."""
    return {"word": w, "products": (2 * (((1 << w) - 1) ** 2)).bit_length(),
            "sum": sum_max(w).bit_length(), "carry": carry_max(w).bit_length()}


def _check_operands(a: int, b: int, k: Constants) -> None:
    for name, x in (("A", a), ("B", b)):
        if not isinstance(x, int) or not 0 <= x < 2 * k.ntilde:
            raise ValueError(f"operand {name}={x} is outside [0, 2Ñ)")


def montmul(a: int, b: int, k: Constants) -> tuple[int, list[int]]:
    """The word loop of spec §1 on integers: (U, [q_0 .. q_(s-1)]).

    Asserts H < A + 2^w M (so H < R: m words) and X < 2^(w(m+1)) every wave.
    """
    _check_operands(a, b, k)
    w, d, mask = k.w, k.d, (1 << k.w) - 1
    mshift = k.mscaled << w
    h_bound = a + mshift
    h, qs = 0, []
    for i in range(k.s):
        bi = k.word(b, i) if i < k.m else 0
        x = h + bi * a + (qs[i - d] * mshift if i >= d else 0)
        assert x >> (w * (k.m + 1)) == 0, "X < 2^(w(m+1))"
        qs.append(x & mask)
        h = x >> w
        assert h < h_bound <= k.r, "H < A + 2^w M <= R"
    u = (h << (w * d)) + sum(qs[k.s - d + f] << (w * f) for f in range(d))
    return u, qs


def quotient(qs: list[int], k: Constants) -> int:
    """Q = sum_(j<m) q_j 2^(wj): the multiple of Ñ the product adds."""
    return sum(q << (k.w * j) for j, q in enumerate(qs[: k.m]))


def waves(a: int, b: int, k: Constants) -> tuple[int, list[int], list[list[int]]]:
    """The same product computed word by word, as the virtual PEs do it.

    Virtual PE v (0 .. V-1) holds a_v and M_(v-1); in wave i

        sum_v = h_v + b_i*a_v + q_(i-d)*M_(v-1) + c_(v-1)
        v = 0:  q_i = sum_0 mod 2^w, c_0 = sum_0 >> w
        v >= 1: h_(v-1) <- sum_v mod 2^w (next wave), c_v = sum_v >> w

    Returns (U, quotients, sums) with sums[i][v] the sum of PE v in wave i,
    asserting every word width (carry <= :func:`carry_max`, the top PE's
    carry 0, h into the top PE 0).
    """
    _check_operands(a, b, k)
    w, d, V, mask = k.w, k.d, k.v, (1 << k.w) - 1
    aw = [k.word(a, v) for v in range(V)]
    mw = [k.word(k.mscaled, v - 1) if v >= 1 else 0 for v in range(V)]
    assert aw[V - 1] == 0 and mw[V - 1] == 0, "the top virtual PE holds no operand words"
    h = [0] * V
    qs: list[int] = []
    sums: list[list[int]] = []
    for i in range(k.s):
        bi = k.word(b, i) if i < k.m else 0
        qd = qs[i - d] if i >= d else 0
        c = 0
        new_h = [0] * V
        row = []
        for v in range(V):
            sv = h[v] + bi * aw[v] + qd * mw[v] + c
            assert sv <= sum_max(w)
            row.append(sv)
            if v == 0:
                qs.append(sv & mask)
            else:
                new_h[v - 1] = sv & mask
            c = sv >> w
            assert c <= carry_max(w)
        assert c == 0, "the top virtual PE's carry is 0"
        sums.append(row)
        h = new_h
    hv = sum(x << (w * j) for j, x in enumerate(h))
    u = (hv << (w * d)) + sum(qs[k.s - d + f] << (w * f) for f in range(d))
    return u, qs, sums


# --------------------------------------------------------------------------
# Cycle level: the ring of physical PEs
# --------------------------------------------------------------------------


class ScheduleViolation(RuntimeError):
    """A schedule the hardware cannot run; ``rule`` names the broken rule."""

    def __init__(self, rule: str, detail: str):
        super().__init__(f"{rule}: {detail}")
        self.rule = rule


#: The rules :func:`simulate` checks (docs/ws.md, "Schedule").
RULES = {
    "token-slot": "two tokens in one PE's token register in one cycle",
    "quotient-late": "q_(i-d) not yet formed when wave i's token leaves PE 0",
    "h-not-ready": "the h word a PE adds is not the one its wave needs",
    "carry-not-ready": "the carry a PE adds is not its left neighbour's of the same wave",
    "a-not-ready": "a PE's A (or M) word is not yet the one of the product its token carries",
    "b-not-ready": "the B word of a wave is not at PE 0 when its token is formed",
    "result-chain": "more result words in a PE's result chain than it holds (d-1)",
    "out-path": "two result words in one PE's out register in one cycle",
}

#: B operand of a chained product: the previous result streamed back (squaring).
SQUARE = "square"
#: The product field of a load token.
LOAD = -1


@dataclass(frozen=True)
class ResultOf:
    """B operand of a chained product: the result of an earlier product of the
    same half (e.g. x~ for every table entry), read from PE 0's buffer, so it
    must have arrived there."""

    product: int


@dataclass(frozen=True)
class Array:
    """A ring of P physical PEs of w-bit words.

    ``latency`` L: cycles from the cycle a PE's token register holds a wave's
    token (its DSP operands are read then) to the cycle that PE's 3-input add
    uses the two products (input, pipeline and output registers of the
    MULT18X18D, a fabric register on each side, the P1+P2 register).
    ``qlat``: cycles from PE 0's add to the quotient's first use, minus one:
    0 when the add writes PE 0's quotient register and the token takes q from
    there (readable the cycle after the add); -1 when the add's low word also
    goes straight into the outgoing token register (a bypass: usable in the
    add's own cycle); k > 0 for k extra register stages.
    """

    pes: int
    w: int
    d: int
    latency: int = 6
    qlat: int = 0

    def __post_init__(self):
        if self.pes < 1:
            raise ValueError(f"P={self.pes}: need at least one PE")
        if self.latency < 1:
            raise ValueError(f"latency L={self.latency}: need L >= 1")
        if self.qlat < -1:
            raise ValueError(f"qlat={self.qlat}: need qlat >= -1")

    def chunks(self, k: Constants) -> int:
        """c = ceil(V/P): laps of the ring per wave."""
        return -(-k.v // self.pes)

    def quotient_ok(self, k: Constants) -> bool:
        """The rule "quotient-late": q_(i-d) is in wave i's token when it
        leaves PE 0 (2cd >= L + 1 + qlat), and the last wave finds the
        earlier quotients U_0 .. U_(d-2) in PE 0's quotient register when it
        launches them on the result chain (d = 1, or 2c >= 1 + qlat)."""
        c = self.chunks(k)
        return 2 * c * self.d >= self.latency + 1 + self.qlat and (self.d == 1 or 2 * c >= 1 + self.qlat)

    def interval(self, k: Constants, square: bool = True) -> int:
        """Cycles between the starts of two chained products of one half (the
        cycles per product pair, both halves running): the closed form of
        docs/ws.md.  A in place: 2c(s-1) + L + 1.  B streamed back
        (squaring): word d (the first from the out path) 2c(s-1) + L + 4 -
        2cd, and PE 0's quotient words U_0 .. U_(d-1) 2c(s-d) + L + 2 +
        max(qlat, 0) (binds for d = 1 or qlat >= 2c(d-1)).  For c >= 2 the
        interval is rounded up to a multiple of 2c (slots of the two
        products of a half that overlap at the boundary must not collide)."""
        c = self.chunks(k)
        t = 2 * c * (k.s - 1) + self.latency + 1
        if square:
            t = max(t, 2 * c * (k.s - 1) + self.latency + 4 - 2 * c * self.d,
                    2 * c * (k.s - self.d) + self.latency + 2 + max(self.qlat, 0))
        if c >= 2:
            t = -(-t // (2 * c)) * 2 * c
        return t

    def product_latency(self, k: Constants) -> int:
        """Cycles from a product's first token at PE 0 to the cycle after its
        last result word arrives at PE 0 over the out path (one half)."""
        c = self.chunks(k)
        last_v = k.m - k.d  # the virtual PE of U's top word m-1
        return self.latency + 2 * c * (k.s - 1) + 2 * last_v + 1

    def busy(self, k: Constants) -> int:
        """Word products one product needs: b_i*a_v (i, v < m) and
        q_j*M_(v-1) (j < m, 1 <= v <= ceil(ℓ/w))."""
        return k.m * k.m + k.m * k.m_words


@dataclass
class Job:
    """One half's chain of products: the first A, then one B per product:
    an int (from memory, there from the start), :data:`SQUARE` (the previous
    result; for product 0, A itself) or :class:`ResultOf`.

    ``load``: A and M enter the PEs over the token path first (one load
    token per virtual PE, in the half's wave slots, each stopping at its
    PE); otherwise they are there from the start, as after an earlier load.
    """

    k: Constants
    a: int
    bs: list
    load: bool = False


@dataclass
class HalfResult:
    results: list[int]  #: U of every product
    final: list[list[int]]  #: per product, the cycle each U word is final (by word)
    arrive: list[list[int]]  #: per product, the cycle each U word is readable at PE 0
    starts: list[int]  #: t0 of every product (its wave 0 at virtual PE 0)


@dataclass
class SimResult:
    halves: list[HalfResult]
    cycles: int  #: from the first token at PE 0 to the cycle after the last word arrives
    dsp_busy: int  #: word products done (structurally nonzero operands)
    dsp_cycles: int  #: 2P * cycles

    @property
    def utilisation(self) -> float:
        return self.dsp_busy / self.dsp_cycles


@dataclass
class _Token:
    """A token register's content: which wave (half, product, wave, lap of
    the ring), its operand words and the last-wave bit."""

    half: int
    prod: int  #: or LOAD
    wave: int  #: or, for a load token, its destination virtual PE
    chunk: int
    b: int
    q: int
    last: bool


def simulate(arr: Array, jobs: list[Job], interval: int | None = None,
             trace: list | None = None) -> SimResult:
    """Run one or two halves' chains of products on the ring, cycle by cycle.

    Half h's product j starts (its wave 0 reaches virtual PE 0) at cycle
    L + h + j*interval (default :meth:`Array.interval`), 2cV cycles later if
    a job loads its A and M first (:attr:`Job.load`).  Returns the results
    with the cycle every result word is final and readable at PE 0; raises
    :class:`ScheduleViolation` on the first broken rule.

    ``trace``, if a list, receives the state of every busy PE in every cycle:
    ``("token", cycle, pe, (half, product, wave, chunk), b, q)`` for a token
    register (the DSP operands read that cycle; the products reach the add L
    cycles later; PE 0 puts q into the token as it leaves; a load token has
    product :data:`LOAD` and its destination virtual PE as wave) and
    ``("add", cycle, pe, (half, product, wave, virtual PE), h, carry_in,
    sum)`` for the 3-input add.
    """
    if not 1 <= len(jobs) <= 2:
        raise ValueError("one or two halves")
    k0 = jobs[0].k
    for job in jobs:
        if (job.k.w, job.k.d, job.k.bits) != (arr.w, arr.d, k0.bits):
            raise ValueError("both halves need the array's w and d and the same length ℓ")
        if not job.bs:
            raise ValueError("a job needs at least one product")
        _check_operands(job.a, job.a, job.k)
        for j, b in enumerate(job.bs):
            if isinstance(b, ResultOf):
                if not 0 <= b.product < j:
                    raise ValueError(f"product {j}: B = result of product {b.product}, not an earlier one")
            elif b != SQUARE:
                _check_operands(b, b, job.k)
    P, w, d, L = arr.pes, arr.w, arr.d, arr.latency
    V, m, s = k0.v, k0.m, k0.s
    c = arr.chunks(k0)
    mask = (1 << w) - 1
    square = any(not isinstance(b, int) for job in jobs for b in job.bs)
    gap = arr.interval(k0, square) if interval is None else interval

    base = L + (load_cycles(arr, k0) if any(job.load for job in jobs) else 0)

    def t0(h: int, j: int) -> int:
        return base + h + j * gap

    # Stationary registers, per (half, physical PE, chunk): (product, value, readable from)
    never = 1 << 62
    areg: dict[tuple[int, int, int], tuple[int, int, int]] = {}
    mreg: dict[tuple[int, int, int], tuple[int, int]] = {}
    for h, job in enumerate(jobs):
        for v in range(V):
            mv = job.k.word(job.k.mscaled, v - 1) if v else 0
            areg[h, v % P, v // P] = (0, 0 if job.load else job.k.word(job.a, v), never if job.load else 0)
            mreg[h, v % P, v // P] = (0 if job.load else mv, never if job.load else 0)
    # Values in flight: key (physical PE, cycle written) -> (tag, value)
    hline: dict[tuple[int, int], tuple[tuple, int]] = {}
    carry: dict[tuple[int, int], tuple[tuple, int]] = {}
    chain: dict[tuple[int, int], int] = defaultdict(int)  # occupancy of result chains
    outreg: dict[tuple[int, int], tuple] = {}
    qreg: dict[tuple[int, int, int], tuple[int, int, int]] = {}  # (half, prod, i) -> (q, readable from, add cycle)
    # PE 0's result buffer: (half, prod, word) -> (value, readable from)
    buf: dict[tuple[int, int, int], tuple[int, int]] = {}
    final: dict[tuple[int, int, int], int] = {}
    tokens: dict[int, list[tuple[int, _Token]]] = defaultdict(list)
    adds: dict[int, list[tuple[int, _Token, int]]] = defaultdict(list)
    busy = 0

    # Issue schedule: wave i of (h, j) enters PE 0's token register at t0 + 2ci - L.
    issue: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for h, job in enumerate(jobs):
        if job.load:  # load token for virtual PE v in the slot of a wave -V+v
            for v in range(V):
                issue[h + 2 * c * v].append((h, LOAD, v))
        for j in range(len(job.bs)):
            for i in range(s):
                issue[t0(h, j) + 2 * c * i - L].append((h, j, i))
    nprod = [len(job.bs) for job in jobs]

    def b_word(h: int, j: int, i: int, tau: int) -> int:
        if i >= m:
            return 0
        src = jobs[h].bs[j]
        if isinstance(src, int):
            return jobs[h].k.word(src, i)
        if src == SQUARE and j == 0:
            return jobs[h].k.word(jobs[h].a, i)
        jsrc = j - 1 if src == SQUARE else src.product
        got = buf.get((h, jsrc, i))
        if got is None or got[1] > tau - 1:
            raise ScheduleViolation("b-not-ready", f"half {h} product {j} wave {i}: B word {i} "
                                    f"(product {jsrc}'s result) not at PE 0 by cycle {tau - 1}")
        return got[0]

    def deliver(h: int, j: int, word: int, value: int, when: int) -> None:
        if word >= m:
            assert value == 0, "U < 2Ñ <= R/2: words >= m are 0"
            return
        buf[h, j, word] = (value, when)

    def a_write(h: int, j: int, v: int, value: int, when: int) -> None:
        if v >= V:
            assert value == 0
            return
        if v >= m:
            assert value == 0, "a_m = 0 (U < R)"
        if j + 1 < nprod[h]:
            areg[h, v % P, v // P] = (j + 1, value, when)

    t, t_end = min(issue), max(issue) + c * P + L + 2
    while t <= t_end:
        for h, j, i in issue.pop(t, ()):
            if j == LOAD:  # i is the destination virtual PE
                kh = jobs[h].k
                tok = _Token(h, LOAD, i, 0, kh.word(jobs[h].a, i), kh.word(kh.mscaled, i - 1) if i else 0, False)
            else:
                tok = _Token(h, j, i, 0, b_word(h, j, i, t), 0, i == s - 1)
            tokens[t].append((0, tok))
        # Adds: (P1+P2) + h + c (first: PE 0's add may feed a token of this cycle, qlat = -1).
        for u, tok, pp in adds.pop(t, ()):
            h, j, i = tok.half, tok.prod, tok.wave
            v = tok.chunk * P + u
            want_h = (h, j, i - 1, v + 1) if i >= 1 and v + 1 < V else None
            got = hline.pop((u, t - (2 * c - 1)), (None, 0))
            if got[0] != want_h:
                raise ScheduleViolation("h-not-ready", f"half {h} product {j} wave {i} virtual PE {v} "
                                        f"cycle {t}: h from {got[0]}, needs {want_h}")
            want_c = (h, j, i, v - 1) if v >= 1 else None
            cin = carry.pop(((u - 1) % P, t - 1), (None, 0))
            if cin[0] != want_c:
                raise ScheduleViolation("carry-not-ready", f"half {h} product {j} wave {i} virtual PE {v} "
                                        f"cycle {t}: carry from {cin[0]}, needs {want_c}")
            sv = pp + got[1] + cin[1]
            if trace is not None:
                trace.append(("add", t, u, (h, j, i, v), got[1], cin[1], sv))
            assert sv <= sum_max(w)
            low, cout = sv & mask, sv >> w
            assert cout <= carry_max(w)
            if v == V - 1:
                assert cout == 0, "the top virtual PE's carry is 0"
            else:
                carry[u, t] = ((h, j, i, v), cout)
            if v == 0:
                qreg[h, j, i] = (low, t + 1 + arr.qlat, t)
            elif not tok.last:  # the last wave sends h = 0 left
                hline[(u - 1) % P, t] = ((h, j, i, v), low)
            if tok.last:
                _finish(arr, k0, h, j, v, u, t, low, tok.chunk, qreg, chain, outreg, final,
                        deliver, a_write)
        # Token registers: DSP operands read now, the add L cycles later.
        seen = set()
        for u, tok in tokens.pop(t, ()):
            if u in seen:
                raise ScheduleViolation("token-slot", f"PE {u} cycle {t}")
            seen.add(u)
            if trace is not None:
                trace.append(("token", t, u, (tok.half, tok.prod, tok.wave, tok.chunk), tok.b, tok.q))
            v = tok.chunk * P + u
            h = tok.half
            nxt = _Token(**tok.__dict__)
            if tok.prod == LOAD:
                if v == tok.wave:  # arrived: write this PE's A and M words
                    areg[h, u, tok.chunk] = (0, tok.b, t + 1)
                    mreg[h, u, tok.chunk] = (tok.q, t + 1)
                    continue
            else:
                pp = 0
                if tok.wave < m:
                    j_a, a_v, ready = areg[h, u, tok.chunk]
                    if j_a != tok.prod or ready > t:
                        raise ScheduleViolation("a-not-ready", f"half {h} product {tok.prod} wave {tok.wave} "
                                                f"virtual PE {v} cycle {t}: A word of product {j_a}, "
                                                f"readable from cycle {ready}")
                    pp += tok.b * a_v
                    busy += v < m
                if tok.wave >= d:
                    m_v, ready = mreg[h, u, tok.chunk]
                    if ready > t:
                        raise ScheduleViolation("a-not-ready", f"half {h} product {tok.prod} wave {tok.wave} "
                                                f"virtual PE {v} cycle {t}: M word not loaded")
                    pp += tok.q * m_v
                    busy += 1 <= v <= k0.m_words
                adds[t + L].append((u, tok, pp))
                # PE 0 puts q_(i-d) into the token as it leaves in chunk 0.
                if u == 0 and tok.chunk == 0 and tok.wave >= d:
                    q = qreg.get((h, tok.prod, tok.wave - d))
                    if q is None or q[1] > t:
                        raise ScheduleViolation("quotient-late", f"half {h} product {tok.prod}: q_{tok.wave - d} "
                                                f"not formed when wave {tok.wave}'s token leaves PE 0 (cycle {t})")
                    nxt.q = q[0]
            # Move right.
            un = u + 1
            if un == P:
                un, nxt.chunk = 0, nxt.chunk + 1
            if tok.prod == LOAD or nxt.chunk * P + un < V:
                tokens[t + 1].append((un, nxt))
        t += 1

    if issue or tokens or adds:
        raise AssertionError("simulation ended with work left")
    halves = []
    span_end = 0
    for h, job in enumerate(jobs):
        res, fin, arr_at = [], [], []
        for j in range(nprod[h]):
            words = [buf[h, j, x] for x in range(m)]
            res.append(sum(vx << (w * x) for x, (vx, _) in enumerate(words)))
            fin.append([final[h, j, x] for x in range(m)])
            arr_at.append([r for _, r in words])
            span_end = max(span_end, max(arr_at[-1]))
        halves.append(HalfResult(res, fin, arr_at, [t0(h, j) for j in range(nprod[h])]))
    cycles = span_end  # from cycle 0: the first load token or wave token at PE 0
    return SimResult(halves, cycles, busy, 2 * P * cycles)


def _finish(arr, k, h, j, v, u, t, low, chunk, qreg, chain, outreg, final, deliver, a_write):
    """The last wave at virtual PE v (physical u, cycle t): U's words leave.

    Virtual PE v >= 1 holds U_(v+d-1) (= H_s word v-1); PE 0 holds the last d
    quotients U_0 .. U_(d-1).  Each word goes (1) right over the result chain
    to the PE that holds it as the next product's A word (one hop per cycle,
    with the wavefront: U_(v+d-1) d-1 hops, U_f f hops) and (2) left over the
    out path to PE 0, where it is readable one cycle after it reaches PE 0;
    a word of chunk k first waits k*P cycles in its PE, so the words reach
    PE 0 in order, one every two cycles per half.  PE 0's quotient words go
    to PE 0's buffer when they are formed.
    """
    P, d = arr.pes, arr.d
    if v == 0:
        for f in range(d):
            qv, ready, formed = qreg[h, j, k.s - d + f]
            if f < d - 1 and ready > t:
                raise ScheduleViolation("quotient-late", f"half {h} product {j}: q_{k.s - d + f} not in PE 0's "
                                        f"quotient register when the last wave leaves (cycle {t})")
            if f < k.m:
                final[h, j, f] = formed
            deliver(h, j, f, qv, formed + 1 + max(arr.qlat, 0))
            _chain(P, d, h, j, 0, f, t, qv, chain, a_write)
        return
    x = v + d - 1
    if x < k.m:
        final[h, j, x] = t
    _chain(P, d, h, j, v, d - 1, t, low, chain, a_write)
    launch = t + chunk * P
    for hop in range(u + 1):  # PE u's out register .. PE 0's buffer write port
        key = (u - hop, launch + 1 + hop)
        if key in outreg:
            raise ScheduleViolation("out-path", f"PE {u - hop} cycle {launch + 1 + hop}: "
                                    f"U word {x} of half {h} product {j} meets word {outreg[key]}")
        outreg[key] = (h, j, x)
    deliver(h, j, x, low, launch + u + 1)


def _chain(P, d, h, j, v0, hops, t, value, chain, a_write):
    """U word from virtual PE v0 (add in cycle t) goes ``hops`` PEs right:
    PE v0+n-1's chain register holds it in cycle t+n; the PE it reaches
    writes it into its A register, readable from cycle t+hops+1."""
    for n in range(1, hops + 1):
        key = ((v0 + n - 1) % P, t + n)
        chain[key] += 1
        if chain[key] > d - 1:
            raise ScheduleViolation("result-chain", f"PE {key[0]} cycle {key[1]}: more than d-1 = {d - 1} words")
    a_write(h, j, v0 + hops, value, t + hops + 1)


# --------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------

#: Fixed-window exponentiation: window bits and table entries.
WINDOW = 4


def pick_delay(pes: int, w: int, bits: int, latency: int, qlat: int = 0) -> int:
    """The smallest quotient delay d that meets the rule "quotient-late"
    (:meth:`Array.quotient_ok`: 2cd >= L + 1 + qlat, ...), where c = ceil(V/P)
    itself grows with d."""
    for d in range(1, latency + qlat + 2):
        if Array(pes, w, d, latency, qlat).quotient_ok(precompute(3, w, d, bits)):
            return d
    raise ValueError(f"no quotient delay d fits L={latency}, qlat={qlat}")


def ring_ok(pes: int, c: int) -> bool:
    """The ring's slot rule (found by :func:`simulate`, "token-slot"): with
    two halves and c chunks the slots h + kP (h < 2, k < c) must differ mod
    2c: c = 1, or P even with gcd(P/2, c) = 1 (for c = 2: P = 2 mod 4)."""
    return c == 1 or (pes % 2 == 0 and gcd(pes // 2, c) == 1)


def window_digits(e: int, bits: int) -> list[int]:
    """The exponent's 4-bit windows, most significant first (ceil(ℓ/4) of
    them whatever e's value: constant time)."""
    count = -(-bits // WINDOW)
    return [(e >> (WINDOW * (count - 1 - i))) & (2**WINDOW - 1) for i in range(count)]


def exponent_chains(k: Constants, x: int, e: int) -> tuple[Job, Job]:
    """One half of a constant-time 4-bit fixed-window exponentiation x^e mod N
    (e < 2^ℓ) as the array runs it: two chains of products.

    Chain 1: x~ = U(x, R^2 mod N), then T[j] = U(T[j-1], x~) for j = 2..15
    (T[0] = R mod N and R^2 mod N are host constants, T[1] = x~).  Then
    T[e_0] is loaded into the PEs as A, and chain 2 runs, per further window,
    four squarings and one multiplication by T[e_i] (B from memory), then
    U(X, 1) out of the domain: a value = x^e (mod N) in [0, Ñ] (its exact
    reduction mod N, like the CRT recombination, is the engine's).  The
    table's values come from :func:`montmul`.
    """
    if not 0 <= x < k.n:
        raise ValueError(f"base x={x} is outside [0, N)")
    if not 0 <= e < 1 << k.bits:
        raise ValueError(f"exponent e={e} is outside [0, 2^{k.bits})")
    r2 = k.r2()
    job1 = Job(k, x, [r2] + [ResultOf(0)] * (2**WINDOW - 2), load=True)
    table = [k.r % k.n, montmul(x, r2, k)[0]]
    for _ in range(2, 2**WINDOW):
        table.append(montmul(table[-1], table[1], k)[0])
    digits = window_digits(e, k.bits)
    bs: list = []
    for dig in digits[1:]:
        bs += [SQUARE] * WINDOW + [table[dig]]
    bs.append(1)
    return job1, Job(k, table[digits[0]], bs, load=True)


def chain_cycles(arr: Array, k: Constants, products: int, square: bool = True, halves: int = 2,
                 load: bool = False) -> int:
    """Cycles of a chain of ``products`` products per half, from the first
    token at PE 0 to the cycle after the last result word is at PE 0:
    (load) + (products-1)*interval + product latency (+1 for the second half)."""
    return ((load_cycles(arr, k) if load else 0) + (products - 1) * arr.interval(k, square)
            + arr.product_latency(k) + (halves - 1))


def load_cycles(arr: Array, k: Constants) -> int:
    """Cycles a load of A and M adds before a chain: 2cV (V load tokens per
    half in the wave slots, so the first wave keeps its slot)."""
    return 2 * arr.chunks(k) * k.v


def exponentiation(arr: Array, k: Constants) -> dict[str, int]:
    """Cycles of one constant-time 4-bit fixed-window CRT exponentiation on
    the array, both halves interleaved (:func:`exponent_chains`; closed
    forms, each chain's checked against :func:`simulate` in the tests):
    load x, chain 1, load T[e_0], chain 2."""
    job1, job2 = exponent_chains(k, 1, 0)
    n1, n2 = len(job1.bs), len(job2.bs)
    total = chain_cycles(arr, k, n1, load=True) + chain_cycles(arr, k, n2, load=True)
    return {"products": n1 + n2, "load": 2 * load_cycles(arr, k), "cycles": total,
            "busy": 2 * (n1 + n2) * arr.busy(k)}


def figures(pes: int = 70, w: int = 17, latency: int = 6, qlat: int = 0,
            bits_list: tuple[int, ...] = (1024, 1536, 2048),
            mhz: tuple[float, ...] = (150.0, 165.0), d: int | None = None) -> list[dict]:
    """One row per operand length ℓ (an RSA-2ℓ CRT half): the array's
    geometry, cycles per product pair, DSP utilisation and the cycles and
    milliseconds of a CRT exponentiation.  d defaults to :func:`pick_delay`."""
    if any(f <= 0 for f in mhz):
        raise ValueError("clock frequencies must be positive")
    if any(bits < 2 for bits in bits_list):
        raise ValueError("half lengths ℓ must be at least 2 bits")
    rows = []
    for bits in bits_list:
        dd = pick_delay(pes, w, bits, latency, qlat) if d is None else d
        arr = Array(pes, w, dd, latency, qlat)
        k = precompute(3, w, dd, bits)
        c = arr.chunks(k)
        pair = arr.interval(k, square=True)
        words = -(-bits // w)
        ideal = 2 * (2 * words * words) / (2 * pes)
        ex = exponentiation(arr, k)
        row = {"bits": bits, "w": w, "d": dd, "P": pes, "L": latency, "m": k.m, "s": k.s, "V": k.v,
               "c": c, "ring_ok": ring_ok(pes, c), "pair_cycles": pair,
               "ideal": ideal, "pair_util": 2 * arr.busy(k) / (2 * pes * pair),
               "products": ex["products"], "exp_cycles": ex["cycles"],
               "exp_util": ex["busy"] / (2 * pes * ex["cycles"])}
        for f in mhz:
            row[f"ms@{f:g}"] = ex["cycles"] / (f * 1e3)
        rows.append(row)
    return rows


def format_figures(rows: list[dict]) -> str:
    mhz = [key for key in rows[0] if key.startswith("ms@")]
    head = ["ℓ", "w", "d", "P", "L", "m", "s", "V", "c", "cycles/pair", "vs 4s²/2P", "DSP busy",
            "products/half", "exp cycles", "exp DSP busy"] + [f"ms @ {key[3:]} MHz" for key in mhz]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r["bits"], r["w"], r["d"], r["P"], r["L"], r["m"], r["s"], r["V"],
                 f"{r['c']}" + ("" if r["ring_ok"] else " (ring rule broken)"), r["pair_cycles"],
                 f"{r['pair_cycles'] / r['ideal']:.3f}", f"{100 * r['pair_util']:.1f} %", r["products"],
                 f"{r['exp_cycles']:,}", f"{100 * r['exp_util']:.1f} %"] + [f"{r[key]:.3f}" for key in mhz]
        lines.append("| " + " | ".join(str(x) for x in cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m montmul.models.ws", description=(
        "Figures of the ws array: cycles per product pair, DSP utilisation and a 4-bit "
        "fixed-window CRT exponentiation (closed forms checked by the cycle model)."))
    ap.add_argument("--pes", type=int, default=70, help="physical PEs P (default 70)")
    ap.add_argument("--w", type=int, default=17, help="word width (default 17)")
    ap.add_argument("--latency", type=int, default=6, help="DSP path latency L (default 6)")
    ap.add_argument("--qlat", type=int, default=0, help="extra quotient latency (default 0)")
    ap.add_argument("--d", type=int, default=None, help="quotient delay (default: the smallest legal)")
    ap.add_argument("--bits", type=int, nargs="+", default=[1024, 1536, 2048], help="half lengths ℓ")
    ap.add_argument("--mhz", type=float, nargs="+", default=[150.0, 165.0], help="clock frequencies")
    args = ap.parse_args(argv)
    try:
        rows = figures(args.pes, args.w, args.latency, args.qlat, tuple(args.bits), tuple(args.mhz), args.d)
    except ValueError as e:
        ap.exit(2, f"error: {e}\n")
    print(format_figures(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
