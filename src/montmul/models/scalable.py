# SPDX-License-Identifier: Apache-2.0
"""Paper 002: parallelized radix-4 scalable Montgomery multiplication with
Booth encoding (v = 2), and the cycle schedule of its kernel of p processing
elements (PEs) for the right-shifting (l = 2) and left-shifting (l = 1) PEs.

Notation (paper 002, Sec. III-IV; ``docs/scalable.md`` gives the decisions):

* ``n``  the modulus length in bits, taken at run time from the modulus
  (``N.bit_length()``), not from the core's build width;
* ``w``  word width, ``p`` number of PEs, ``b`` FIFO latency;
* ``e = ceil((n + 3) / w)`` words of Y, M^ and Z (n1 = n + 3);
* ``k = ceil((n + 4) / (2p))`` pipeline cycles, so that n2 = 2pk >= n + 4;
  f = pk radix-4 digits of X and of Q;
* M^ = (s*N + 1)/4 with s = M' mod 4 taken as the *signed* residue +-1
  (the paper takes 1 or 3, which breaks the output bound, see the doc);
* R = 2^(2pk - 2).

The algorithm (Fig. 2 as reconstructed and checked here), with Z signed::

    Z = 0; t = 0
    for d in 0 .. f-1:
        q   = Z mod 4                          # two LSBs of the PE's first Z word
        dq  = Booth(q1, q0, t); t = q1         # radix-4 Booth digit of Q
        dx  = Booth(x[2d+1], x[2d], x[2d-1])   # radix-4 Booth digit of X
        Z   = floor(Z / 4) + dq*M^ + dx*Y      # Orup's parallel step
    Z = Z + 4*M^*t  (+ N when s = -1)          # final correction in the FIFO

Result Z = A*B*2^-(2pk-2) mod N in [0, 2N) for A, B in [0, 2N).

Three models of it: :func:`algorithm` on whole integers (fast), and
:func:`kernel_words_right` / :func:`kernel_words_left`, the word-serial
datapaths of the right- and left-shifting RTL PEs (w-bit words, Booth
selectors, carries, the hidden sign bit of the right PE's last word, the left
PE's shifted multiples and discarded words) -- tests check that they agree
bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .common import InputError, MMResult, ceil_div, check_inputs

V = 2  #: bits of X consumed per PE (radix 4)
KINDS = ("right", "left")
LATENCY_BETWEEN_PES = {"right": 2, "left": 1}  #: the paper's l



# ---------------------------------------------------------------------------
# Parameters and geometry


def check_params(width: int, word_width: int, num_pes: int, fifo_latency: int) -> None:
    """Raise ValueError for a build-time combination the RTL refuses."""
    if width < 3:
        raise ValueError(f"Width must be >= 3, got {width}")
    if word_width < 4 or word_width & (word_width - 1):
        raise ValueError(f"WordWidth must be a power of two >= 4, got {word_width}")
    if num_pes < 1:
        raise ValueError(f"NumPes must be >= 1, got {num_pes}")
    if fifo_latency < 1:
        raise ValueError(f"FifoLatency must be >= 1, got {fifo_latency}")


@dataclass(frozen=True)
class Geometry:
    """Word and pipeline-cycle counts for one modulus length."""

    n: int  #: modulus length in bits
    w: int
    p: int
    e: int  #: words of Y, M^, Z: ceil((n + 3)/w)
    k: int  #: pipeline cycles: ceil((n + 4)/(2p))

    @property
    def f(self) -> int:
        """Radix-4 digits of X (and of Q): pk."""
        return self.p * self.k

    @property
    def n2(self) -> int:
        return 2 * self.p * self.k

    @property
    def r_log2(self) -> int:
        return self.n2 - 2


def geometry(n_bits: int, word_width: int, num_pes: int) -> Geometry:
    if n_bits < 2:
        raise ValueError(f"modulus length must be >= 2 bits, got {n_bits}")
    e = ceil_div(n_bits + 3, word_width)
    k = ceil_div(n_bits + 4, 2 * num_pes)
    return Geometry(n_bits, word_width, num_pes, e, k)


def r_log2(width: int, n: int, word_width: int = 16, num_pes: int = 2) -> int:
    """log2 of the Montgomery radix R the cores use for modulus ``n`` (any
    build ``width`` >= n's length): R = 2^(2pk - 2), k = ceil((len(n)+4)/2p).
    It depends on the modulus length, not on the build width."""
    if n.bit_length() > width:
        raise ValueError(f"modulus {n} does not fit in {width} bits")
    return geometry(n.bit_length(), word_width, num_pes).r_log2


def mhat(n: int) -> int:
    """Signed M^ = (s*N + 1)/4, s = -N^-1 mod 4 as +-1: (N+1)/4 for N = 3 mod 4,
    -(N-1)/4 for N = 1 mod 4.  |M^| < N/4 + 1."""
    s = 1 if n & 3 == 3 else -1
    return (s * n + 1) // 4


def mhat_paper(n: int, n2: int) -> int:
    """M^ as printed: ((M' mod 4)*M + 1)/4 with M' = -M^-1 mod 2^n2."""
    mp = (-pow(n, -1, 1 << n2)) % (1 << n2)
    return ((mp % 4) * n + 1) // 4


def booth(b2: int, b1: int, b0: int) -> int:
    """Table I: radix-4 Booth digit of bits (x_{2i+1}, x_{2i}, x_{2i-1})."""
    return -2 * b2 + b1 + b0


def _bit(x: int, i: int) -> int:
    return (x >> i) & 1 if i >= 0 else 0


# ---------------------------------------------------------------------------
# The algorithm on integers


def algorithm(
    x: int,
    y: int,
    n: int,
    num_pes: int,
    *,
    word_width: int = 16,
    printed_mhat: bool = False,
    correction: str = "q1",
    trace: list[int] | None = None,
) -> int:
    """Fig. 2 on whole integers; returns the final Z.

    ``printed_mhat`` uses the paper's M^ (M' mod 4 in {1, 3}) and leaves out
    the +N; ``correction`` selects when 4M^ is added at the end: ``"q1"`` when
    the top bit of the last quotient digit is set (ours), ``"negative"`` when
    the last Booth digit of Q is negative per Table I (as printed; wrong for
    q = 3 with a set carry-in bit, see the doc).  ``trace`` (a list) receives
    every intermediate Z.
    """
    g = geometry(n.bit_length(), word_width, num_pes)
    mh = mhat_paper(n, g.n2) if printed_mhat else mhat(n)
    z = 0
    t = 0
    dq = 0
    for d in range(g.f):
        q = z & 3
        dq = booth(q >> 1, q & 1, t)
        t = q >> 1
        dx = booth(_bit(x, 2 * d + 1), _bit(x, 2 * d), _bit(x, 2 * d - 1))
        z = (z >> 2) + dq * mh + dx * y
        if trace is not None:
            trace.append(z)
    fix = t if correction == "q1" else int(dq < 0)
    z += 4 * mh * fix
    if not printed_mhat and n & 3 == 1:
        z += n
    return z


# ---------------------------------------------------------------------------
# The right-shifting PE's word-serial datapath (what mm_r4booth_pe does with ShiftLeft = 0)


def _booth_ctrl(b2: int, b1: int, b0: int) -> tuple[int, int, int]:
    """Booth encoder outputs (neg, zero, double) as in the RTL."""
    zero = int(b2 == b1 == b0)
    neg = int(b2 and not (b1 and b0))
    double = int((b2 and not b1 and not b0) or (not b2 and b1 and b0))
    return neg, zero, double


def _select(word: int, prev_msb: int, neg: int, zero: int, double: int, w: int) -> int:
    """Booth selector on one w-bit word: 0, +-V, +-2V (inverted when negative;
    the +1 of the two's complement goes in as a carry of the first word)."""
    m = (1 << w) - 1
    if zero:
        return 0
    v = ((word << 1) | prev_msb) & m if double else word
    return v ^ m if neg else v


def _words(x: int, e: int, w: int) -> list[int]:
    return [(x >> (w * j)) & ((1 << w) - 1) for j in range(e)]


def kernel_words_right(x: int, y: int, n: int, num_pes: int, word_width: int) -> int:
    """The final result computed word by word exactly as the right-shifting
    RTL does: Z in e words of w bits plus a hidden sign bit that travels with
    the last word; each PE step shifts Z right by two (the shifted-in bits of
    the last word are the hidden sign), adds the two Booth-selected multiples
    and the carries of the negative ones (S_X + S_Q) into the first word; the
    last word is summed in w + 1 bits to produce the new hidden sign.  The
    FIFO then adds ((t xor s<0) ? N : 0) + t, the correction, word by word."""
    w = word_width
    m = (1 << w) - 1
    g = geometry(n.bit_length(), w, num_pes)
    e = g.e
    mneg = int(n & 3 == 1)
    mh = abs(mhat(n))
    yw, mw, nw = _words(y, e, w), _words(mh, e, w), _words(n, e, w)
    if y >> (e * w) or mh >> (e * w):
        raise AssertionError("operand does not fit in e words")
    z = [0] * e
    zsign = 0
    t = 0
    for d in range(g.f):
        q = z[0] & 3
        qn, qz, qd = _booth_ctrl(q >> 1, q & 1, t)
        qn = (qn ^ mneg) & (1 - qz)
        t = q >> 1
        xn, xz, xd = _booth_ctrl(_bit(x, 2 * d + 1), _bit(x, 2 * d), _bit(x, 2 * d - 1))
        carry = qn + xn
        yprev = mprev = 0
        out = []
        for j in range(e):
            hi = (zsign * 3) if j == e - 1 else (z[j + 1] & 3)
            zsh = (hi << (w - 2)) | (z[j] >> 2)
            ys = _select(yw[j], yprev, xn, xz, xd, w)
            ms = _select(mw[j], mprev, qn, qz, qd, w)
            yprev, mprev = yw[j] >> (w - 1), mw[j] >> (w - 1)
            if j < e - 1:
                s = zsh + ys + ms + carry
                out.append(s & m)
                carry = s >> w
            else:
                # sign-extend the three w-bit words to w+1 bits; bit w is the
                # sign of the whole (e*w + 1)-bit two's complement Z
                ext = 1 << w
                s = sum(v | (ext if v >> (w - 1) else 0) for v in (zsh, ys, ms)) + carry
                out.append(s & m)
                zsign = (s >> w) & 1
        z = out
    # FIFO correction on the last pass
    add_n = t ^ mneg
    carry = t
    res = 0
    for j in range(e):
        s = z[j] + (nw[j] if add_n else 0) + carry
        res |= (s & m) << (w * j)
        carry = s >> w
    return res & ((1 << (e * w)) - 1)


def kernel_words_left(x: int, y: int, n: int, num_pes: int, word_width: int) -> int:
    """The final result computed word by word as the left-shifting RTL does
    (needs w | 2p, so every PE keeps one effective LSB position pos = 2i mod w
    for all passes).  Z is not shifted: the stream holds Z*2^pos in e + 1
    words (the overflow word); the PE clears the two bits q at pos and adds the
    Booth multiples shifted left by pos + 2, with the +1s of negative multiples
    (S_X + S_Q) at bit pos + 2.  A PE with pos + 2 = w discards the stream's
    word 0 (all zero by then): its output word j is input word j + 1 (the last
    one the sign extension of word e) plus the unshifted multiples.  After the
    last pass pos is 2pk mod w = 0 again, so the stream is Z itself."""
    w = word_width
    m = (1 << w) - 1
    if (2 * num_pes) % w:
        raise ValueError(f"the left-shifting kernel needs w | 2p (w={w}, p={num_pes})")
    g = geometry(n.bit_length(), w, num_pes)
    e = g.e
    mneg = int(n & 3 == 1)
    mh = abs(mhat(n))
    yw, mw, nw = _words(y, e + 1, w), _words(mh, e + 1, w), _words(n, e + 1, w)
    z = [0] * (e + 1)
    t = 0
    for d in range(g.f):
        pos = (2 * d) % w
        disc = pos + 2 == w
        q = (z[0] >> pos) & 3
        qn, qz, qd = _booth_ctrl(q >> 1, q & 1, t)
        qn = (qn ^ mneg) & (1 - qz)
        t = q >> 1
        xn, xz, xd = _booth_ctrl(_bit(x, 2 * d + 1), _bit(x, 2 * d), _bit(x, 2 * d - 1))
        z[0] &= ~(3 << pos) & m
        if disc:
            if z[0]:
                raise AssertionError("discarded word is not zero")
            top = m if z[e] >> (w - 1) else 0
            zin = z[1:] + [top]
            sft = 0
        else:
            zin = z
            sft = pos + 2
        out = []
        carry = (qn + xn) << sft  # injection at bit sft of word 0
        yprev = mprev = 0
        for j in range(e + 1):
            def sel(v, prev, neg, zero, dbl):
                if zero:
                    return 0
                s2 = sft + dbl
                a = ((v << s2) | (prev >> (w - s2))) & m if s2 else v
                if neg:
                    a = ~a & m
                    if j == 0:
                        a &= ~((1 << sft) - 1) & m
                return a
            ys = sel(yw[j], yprev, xn, xz, xd)
            ms = sel(mw[j], mprev, qn, qz, qd)
            yprev, mprev = yw[j], mw[j]
            s_ = zin[j] + ys + ms + carry
            out.append(s_ & m)
            carry = s_ >> w
        z = out
    add_n = t ^ mneg
    carry = t
    res = 0
    for j in range(e + 1):
        s_ = z[j] + (nw[j] if add_n else 0) + carry
        res |= (s_ & m) << (w * j)
        carry = s_ >> w
    return res


# ---------------------------------------------------------------------------
# Kernel schedule


def discards(d_first: int, count: int, word_width: int) -> int:
    """Left-shifting PEs: words of Z discarded while digits d_first ..
    d_first+count-1 are processed (one each time the total left shift 2(d+1)
    reaches a multiple of w)."""
    return sum(1 for d in range(d_first, d_first + count) if (2 * (d + 1)) % word_width == 0)


@dataclass(frozen=True)
class Schedule:
    starts: tuple[int, ...]  #: cycle at which PE0 takes word 0 of each pass (pass 0 at 0)
    kernel: int  #: the paper's counted cycles: sum of the pass lengths
    finish: int  #: cycle at which the last word of the last pass leaves the last PE
    case: str  #: "I", "II" or "I+II" (left-shifting, mixed passes)


def schedule(kind: str, n_bits: int, word_width: int, num_pes: int, fifo_latency: int = 1) -> Schedule:
    """Event schedule of the kernel, pass by pass.

    Right-shifting: PE i takes word j of pass c at T_c + 2i + j and its output
    word j reaches PE i+1 two cycles later; the last PE's word j enters the
    FIFO at T_c + 2p + j and can reach PE0 b cycles later.  PE0 starts pass
    c+1 when it has taken all e words of pass c and the FIFO holds word 0:
    T_{c+1} = max(T_c + e, T_c + 2p + b).
    Left-shifting: one cycle between PEs, e + 1 words per pass, and a PE that
    discards a word of Z delays the stream behind it by one cycle.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    g = geometry(n_bits, word_width, num_pes)
    p, b = num_pes, fifo_latency
    starts = [0]
    cases = set()
    words = g.e if kind == "right" else g.e + 1
    for c in range(g.k):
        t = starts[-1]
        if kind == "right":
            head = t + 2 * p + b  # word 0 of pass c leaves the last PE at t + 2p
        else:
            head = t + p + discards(c * p, p, word_width) + b
        free = t + words  # PE0 has taken every word of pass c
        cases.add("I" if free >= head else "II")
        starts.append(max(free, head))
    kernel = starts[-1] - starts[0]
    last = starts[g.k - 1]
    if kind == "right":
        finish = last + 2 * p + g.e - 1
    else:
        finish = last + p + discards((g.k - 1) * p, p, word_width) + words - 1
    case = "+".join(sorted(cases))
    return Schedule(tuple(starts[:-1]), kernel, finish, case)


def paper_kernel_cycles(kind: str, n_bits: int, word_width: int, num_pes: int, fifo_latency: int = 1) -> Fraction:
    """Sec. IV-C's equations: right: k*e if e >= lp + b else k*(lp + b);
    left: k*(e+1) if e + 1 >= lp + vp/w + b else k*(lp + vp/w + b).
    A Fraction, since vp/w need not be an integer."""
    g = geometry(n_bits, word_width, num_pes)
    p, b, w = num_pes, fifo_latency, word_width
    if kind == "right":
        return Fraction(g.k * (g.e if g.e >= 2 * p + b else 2 * p + b))
    if kind == "left":
        case2 = Fraction(p) + Fraction(V * p, w) + b
        return g.k * (Fraction(g.e + 1) if g.e + 1 >= case2 else case2)
    raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")


# ---------------------------------------------------------------------------
# The core models


def _run(kind: str, a: int, b: int, n: int, width: int, word_width: int, num_pes: int, fifo_latency: int) -> MMResult:
    check_params(width, word_width, num_pes, fifo_latency)
    check_inputs(a, b, n, width)
    nb = n.bit_length()
    g = geometry(nb, word_width, num_pes)
    s = schedule(kind, nb, word_width, num_pes, fifo_latency)
    z = algorithm(a, b, n, num_pes, word_width=word_width)
    # Latency (docs/interface.md): the operands are loaded at the accepting
    # edge and PE0 takes word 0 in the next cycle (cycle 1); the result
    # register takes the last corrected word at the end of cycle 1 + finish.
    cycles = 1 + s.finish
    return MMResult(
        z,
        cycles,
        {
            "kernel": s.kernel,
            "drain": cycles - s.kernel,
            "pipeline_cycles": g.k,
            "words": g.e,
            "n_bits": nb,
        },
    )


def r4booth_right(
    a: int, b: int, n: int, width: int, *, word_width: int = 16, num_pes: int = 2, fifo_latency: int = 1
) -> MMResult:
    """mm_r4booth with ShiftLeft = 0: A*B*2^-(2pk-2) mod N in [0, 2N); cycles = the RTL
    latency (k-1)*P + 2p + e with P = max(e, 2p + b); breakdown['kernel'] =
    the paper's k*P."""
    return _run("right", a, b, n, width, word_width, num_pes, fifo_latency)


def r4booth_left(
    a: int, b: int, n: int, width: int, *, word_width: int = 16, num_pes: int = 2, fifo_latency: int = 1
) -> MMResult:
    """mm_r4booth with ShiftLeft = 1: same result; one cycle between PEs, e + 1 words per
    pass and 2p/w discard cycles per pass; needs w | 2p.  cycles = the RTL
    latency (k-1)*P + p + 2p/w + e + 1 with P = max(e + 1, p + 2p/w + b);
    breakdown['kernel'] = the paper's k*P."""
    if word_width >= 4 and num_pes >= 1 and (2 * num_pes) % word_width:
        raise ValueError(f"NumPes: 2*NumPes must be a multiple of WordWidth (p={num_pes}, w={word_width})")
    return _run("left", a, b, n, width, word_width, num_pes, fifo_latency)


__all__ = [
    "InputError",
    "Geometry",
    "Schedule",
    "algorithm",
    "booth",
    "check_params",
    "discards",
    "geometry",
    "kernel_words_left",
    "kernel_words_right",
    "mhat",
    "mhat_paper",
    "paper_kernel_cycles",
    "r4booth_left",
    "r4booth_right",
    "r_log2",
    "schedule",
    "table3",
    "TABLE3",
]


# ---------------------------------------------------------------------------
# Table III: 1024/256-bit modular exponentiation times


#: (shift, clock MHz, w, p, n, printed time in ms) for the two Booth designs
TABLE3 = (
    ("right", 248, 16, 16, 256, "0.62"),
    ("right", 248, 16, 16, 1024, "18"),
    ("right", 248, 16, 32, 256, "0.68"),
    ("right", 248, 16, 32, 1024, "9.1"),
    ("right", 248, 16, 64, 256, "0.80"),
    ("right", 248, 16, 64, 1024, "9.7"),
    ("left", 186, 16, 16, 256, "0.47"),
    ("left", 186, 16, 16, 1024, "24"),
    ("left", 186, 16, 32, 256, "0.52"),
    ("left", 186, 16, 32, 1024, "13"),
    ("left", 186, 16, 64, 256, "0.60"),
    ("left", 186, 16, 64, 1024, "7.2"),
)


def _decimals(printed: str) -> int:
    return len(printed.split(".")[1]) if "." in printed else 0


def _round_like(value: float, printed: str) -> str:
    return f"{value:.{_decimals(printed)}f}"


def table3(fifo_latency: int = 1) -> list[dict[str, object]]:
    """Table III rebuilt: (2n+2) products of the model's kernel cycles at the
    table's clock, beside the printed time; ``match`` says whether the rebuilt
    time rounds to the printed digits; ``implied_cycles`` is the range of
    cycles per product that rounds to the printed time at the table's clock."""
    rows = []
    for kind, mhz, w, p, n, printed in TABLE3:
        s = schedule(kind, n, w, p, fifo_latency)
        ms = (2 * n + 2) * s.kernel / (mhz * 1e3)
        half = Fraction(1, 2 * 10 ** _decimals(printed))
        implied = tuple(float((Fraction(printed) + d) * mhz * 1000 / (2 * n + 2)) for d in (-half, half))
        rebuilt = _round_like(ms, printed)
        rows.append(
            {
                "shift": kind,
                "mhz": mhz,
                "w": w,
                "p": p,
                "n": n,
                "case": s.case,
                "kernel_cycles": s.kernel,
                "ms": ms,
                "rebuilt": rebuilt,
                "printed": printed,
                "match": rebuilt == printed,
                "implied_cycles": implied,
            }
        )
    return rows
