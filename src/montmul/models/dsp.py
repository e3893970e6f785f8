# SPDX-License-Identifier: Apache-2.0
"""Paper 003: high-radix constant-time Montgomery multiplication in a redundant
number system on asymmetric DSP multipliers (``mm_dsp_redundant``).

Algorithm 1 of the paper (Orup's quotient simplification): with
M~ = (M' mod 2^r1) * M, where M' = -M^-1 mod 2^r1, the quotient digit is just
the low r1 bits of S:

    S_0 = 0
    for i = 0 .. m+2:  q_i = S_i mod 2^r1;  S_{i+1} = (S_i + q_i*M~)/2^r1 + a_i*B

A is consumed one radix-2^r1 digit per iteration; B, M~ and S are held as
redundant radix-2^r2 digits of r2+2 bits (value sum d_j * 2^(r2*j)).  One
(r1+2) x (r2+2) multiplier per digit forms a_i*B and one per digit forms
q_i*M~ (paper Sec. IV-A/IV-B).  Everything here is modelled digit by digit,
exactly as the RTL holds it; every digit is checked against its declared width
and every digit the RTL does not keep is checked to be zero.

Where this model departs from the printed text (docs/dsp.md gives the proofs
and the failing examples):

* The printed output bound [0, 2M] holds for M~, not for M: with M~ in every
  iteration the result lies in [0, 2*M~), up to 2^r1 times larger than 2N, so
  it neither fits the output port nor chains.  The last iteration (i = m+2,
  where a_{m+2} = 0) therefore uses N itself with the true quotient
  q' = (S mod 2^r1) * M' mod 2^r1; the result is then below 2N for A, B < 2N.
* The shift by r1 bits discards the low r1 bits of a *redundant* number: their
  value is a multiple of 2^r1 but not necessarily zero, so the carry
  c = (T_0 + (T_1 mod 2^e)*2^r2) / 2^r1 is added into the new lowest digit.
* m = ceil((k+1)/r1) (A < 2N < 2^(k+1) must fit m digits); the paper's
  ma = ceil(log2(M)/r1) agrees at 256 and 504 bits.
* M' is computed by the core from N (Newton's iteration), then M~ = M'*N on
  the q*M~ multipliers; nothing is cached, so the latency is a function of
  the width only.

Latency (docs/interface.md convention), Interleave = 1, by phase:
``newton`` P = Newton steps; ``kernel`` m+3 = Algorithm 1's iterations, the
cycles the paper counts (iteration 0, S_1 = a_0*B, beside M~ = M'*N;
iterations 1 .. m+1; iteration m+2 with N); ``qprime`` 1 (q' = q*M' before
iteration m+2); ``convert`` 1 (redundant to binary): L = P + m + 5.
"""

from __future__ import annotations

from dataclasses import dataclass

from .common import InputError, MMResult, ceil_div, check_inputs

#: Default digit sizes: the paper's 24x17 DSP48E1 multipliers.
R1_DEFAULT = 22
R2_DEFAULT = 15
#: Seed of Newton's iteration: N * ((3N) xor 2) = 1 (mod 2^5) for every odd N.
SEED_BITS = 5



def check_digits(r1: int, r2: int) -> None:
    """Legal digit sizes: r2 <= r1 <= 2*r2 - 4 (paper IV-A: r1 + r2 + 4 < 3*r2
    keeps the top part of a digit product below one digit; r1 >= r2 is this
    implementation's shift scheme), r2 >= 4."""
    if r2 < 4:
        raise InputError(f"r2={r2}: need r2 >= 4")
    if not r2 <= r1 <= 2 * r2 - 4:
        raise InputError(f"digit sizes r1={r1}, r2={r2}: need r2 <= r1 <= 2*r2 - 4")


@dataclass(frozen=True)
class Geometry:
    """Digit counts and cycle counts of one configuration (width k, r1, r2).

    Digit counts are the smallest that hold every value the datapath can take
    (bounds in docs/dsp.md); the model asserts that every digit beyond them is
    zero.
    """

    width: int
    r1: int
    r2: int
    m: int  #: radix-2^r1 digits of A: ceil((k+1)/r1)
    dn: int  #: binary radix-2^r2 digits of N: ceil(k/r2)
    db: int  #: binary radix-2^r2 digits of B: ceil((k+1)/r2)
    dk: int  #: redundant digits of a_i*B < 2^(k+r1+1)
    dm: int  #: redundant digits of M~ = M'*N < 2^(k+r1)
    ds: int  #: redundant digits of S < 3*2^r1*N < 2^(k+r1+2)
    dt: int  #: redundant digits of T = S + q*M~ < 2^(k+2*r1+1)
    newton: int  #: Newton steps from the 5-bit seed to r1 bits

    @property
    def e(self) -> int:
        return self.r1 - self.r2

    @property
    def iterations(self) -> int:
        """Algorithm 1's loop: m + 3 iterations (the paper's cycle count)."""
        return self.m + 3

    @property
    def r_log2(self) -> int:
        """R = 2^(r1*(m+2))."""
        return self.r1 * (self.m + 2)

    @property
    def multipliers(self) -> int:
        """(r1+2) x (r2+2) digit multipliers: db for a_i*B, dm for q*M~."""
        return self.db + self.dm

    def breakdown(self) -> dict[str, int]:
        """Cycles by phase (Interleave = 1); ``kernel`` is Algorithm 1's m+3
        iterations, the count of the paper's Table I."""
        return {"newton": self.newton, "kernel": self.iterations, "qprime": 1, "convert": 1}

    @property
    def latency(self) -> int:
        """Cycles from the accepting edge to the response (Interleave = 1)."""
        return sum(self.breakdown().values())


def geometry(width: int, r1: int = R1_DEFAULT, r2: int = R2_DEFAULT) -> Geometry:
    if width < 3:
        raise InputError(f"width must be at least 3, got {width}")
    check_digits(r1, r2)
    k = width
    newton, bits = 0, SEED_BITS
    while bits < r1:
        bits, newton = 2 * bits, newton + 1
    dn = ceil_div(k, r2)
    return Geometry(
        width=k,
        r1=r1,
        r2=r2,
        m=ceil_div(k + 1, r1),
        dn=dn,
        db=ceil_div(k + 1, r2),
        dk=min(ceil_div(k + 1, r2) + 2, ceil_div(k + r1 + 1, r2)),
        dm=min(dn + 2, ceil_div(k + r1, r2)),
        ds=ceil_div(k + r1 + 2, r2),
        dt=ceil_div(k + 2 * r1 + 1, r2),
        newton=newton,
    )


def r_log2(width: int, r1: int = R1_DEFAULT, r2: int = R2_DEFAULT) -> int:
    """log2 of the Montgomery radix R = 2^(r1*(m+2))."""
    return geometry(width, r1, r2).r_log2


def latency(width: int, r1: int = R1_DEFAULT, r2: int = R2_DEFAULT) -> int:
    """Latency of one product (Interleave = 1), docs/interface.md convention."""
    return geometry(width, r1, r2).latency


# --------------------------------------------------------------------------
# The paper's own counts (Sec. IV-C, Table I), for comparison
# --------------------------------------------------------------------------


def paper_ma(width: int, r1: int = R1_DEFAULT) -> int:
    """ma = ceil(log2(M)/r1) for a width-bit modulus (Sec. IV-C)."""
    return ceil_div(width, r1)


def paper_mb(width: int, r2: int = R2_DEFAULT) -> int:
    """mb = ceil(log2(M)/r2) for a width-bit modulus (Sec. IV-C)."""
    return ceil_div(width, r2)


def paper_dsp_count(width: int, r2: int = R2_DEFAULT) -> int:
    """2*mb + 4 DSP blocks (Sec. IV-C): mb + 2 digits of B and of M~."""
    return 2 * paper_mb(width, r2) + 4


def paper_batch_cycles(width: int, r1: int = R1_DEFAULT, interleave: int = 1) -> int:
    """Clock cycles for ``interleave`` products started on consecutive cycles,
    as Table I counts them: each product needs interleave*(ma+3) cycles
    (every iteration is split into ``interleave`` register stages), the last
    starts interleave-1 cycles after the first."""
    if interleave not in (1, 2, 3):
        raise InputError(f"interleave must be 1, 2 or 3, got {interleave}")
    return interleave * (paper_ma(width, r1) + 3) + interleave - 1


# --------------------------------------------------------------------------
# Digit-level helpers: each one is a block of the RTL
# --------------------------------------------------------------------------


def _check_digit(x: int, bits: int, what: str) -> None:
    if not 0 <= x < (1 << bits):
        raise AssertionError(f"{what} = {x:#x} does not fit {bits} bits")


def to_digits(x: int, r: int, count: int) -> list[int]:
    """Binary radix-2^r digits of x (count of them; x must fit)."""
    if x >> (r * count):
        raise AssertionError(f"{x:#x} does not fit {count} radix-2^{r} digits")
    return [(x >> (r * j)) & ((1 << r) - 1) for j in range(count)]


def value(digits: list[int], r: int) -> int:
    """Value of a (redundant) radix-2^r digit vector."""
    return sum(d << (r * j) for j, d in enumerate(digits))


def _truncate(digits: list[int], count: int, what: str) -> list[int]:
    """Keep ``count`` digits; the RTL has no register for the rest, so they
    must be zero (value bounds in docs/dsp.md)."""
    if any(digits[count:]):
        raise AssertionError(f"{what}: digit beyond the {count} kept is nonzero: {digits[count:]}")
    return digits[:count] + [0] * (count - len(digits))


def _split(p: int, r1: int, r2: int) -> tuple[int, int, int]:
    """A digit product P = X_j * Y (< 2^(r1+r2+4)) split at digit boundaries:
    P[r2-1:0] -> digit j, P[2r2-1:r2] -> digit j+1, P[r1+r2+3:2r2] -> digit j+2."""
    _check_digit(p, r1 + r2 + 4, "digit product")
    m2 = (1 << r2) - 1
    return p & m2, (p >> r2) & m2, p >> (2 * r2)


def mac(x: list[int], y: int, c: list[int], r1: int, r2: int, count: int) -> list[int]:
    """T = X*Y + C (Sec. IV-B): X redundant radix-2^r2 digits (r2+2 bits),
    Y one (r1+2)-bit digit, C redundant digits (r2+2 bits).  Each digit

        T_j = P_{j-2}[hi] + P_{j-1}[mid] + P_j[lo] + C_j[r2-1:0] + C_{j-1}[r2+1:r2]

    is below 2^(r2+2) when r1 + 4 <= 2*r2.  Returns ``count`` digits.  With
    C = 0 this is the product K of Sec. IV-A."""
    _check_digit(y, r1 + 2, "multiplier digit Y")
    for d in x:
        _check_digit(d, r2 + 2, "multiplicand digit")
    for d in c:
        _check_digit(d, r2 + 2, "addend digit")
    n = max(len(x) + 2, len(c) + 1)
    t = [0] * n
    for j, xd in enumerate(x):
        lo, mid, hi = _split(xd * y, r1, r2)
        t[j] += lo
        t[j + 1] += mid
        t[j + 2] += hi
    for j, cd in enumerate(c):
        t[j] += cd & ((1 << r2) - 1)
        t[j + 1] += cd >> r2
    for d in t:
        _check_digit(d, r2 + 2, "MAC digit T_j")
    return _truncate(t, count, "X*Y + C")


def quotient(s: list[int], r1: int, r2: int) -> int:
    """q = S mod 2^r1 from the two lowest redundant digits:
    (S_0 + (S_1 mod 2^e) * 2^r2) mod 2^r1, e = r1 - r2 (S_2 and above are
    multiples of 2^(2*r2) >= 2^r1).  The carry out of the r1-bit sum is
    dropped, so q < 2^r1."""
    e = r1 - r2
    return (s[0] + ((s[1] & ((1 << e) - 1)) << r2)) & ((1 << r1) - 1)


def shift(t: list[int], r1: int, r2: int) -> tuple[list[int], int]:
    """(T / 2^r1) re-aligned to radix-2^r2 digits (Sec. IV-C, third step).

    T's low r1 bits (T_0 and T_1[e-1:0]) are a multiple of 2^r1; being
    redundant they are not necessarily zero, so their carry
    c = (T_0 + T_1[e-1:0]*2^r2) >> r1 is returned to be added into the new
    digit 0.  New digits: U_j = T_{j+1}[r2+1:e] + T_{j+2}[e-1:0] * 2^(r2-e).
    """
    e = r1 - r2
    me = (1 << e) - 1
    low = t[0] + ((t[1] & me) << r2)
    if low & ((1 << r1) - 1):
        raise AssertionError(f"low r1 bits of T are not a multiple of 2^r1: {low:#x}")
    c = low >> r1
    u = []
    for j in range(len(t) - 1):
        nxt = t[j + 2] & me if j + 2 < len(t) else 0
        u.append((t[j + 1] >> e) + (nxt << (r2 - e)))
    for d in u:
        _check_digit(d, r2 + 2, "shifted digit U_j")
    return u, c


def radd(u: list[int], k: list[int], cin: int, r2: int, count: int) -> list[int]:
    """Z = U + K + cin in the redundant system (Sec. III-A.2):
    Z_j = U_j[r2-1:0] + K_j[r2-1:0] + U_{j-1}[r2+1:r2] + K_{j-1}[r2+1:r2],
    with cin in the free carry slot of digit 0."""
    n = max(len(u), len(k)) + 1
    u = u + [0] * (n - len(u))
    k = k + [0] * (n - len(k))
    m2 = (1 << r2) - 1
    z = []
    for j in range(n):
        d = (u[j] & m2) + (k[j] & m2)
        d += (u[j - 1] >> r2) + (k[j - 1] >> r2) if j else cin
        z.append(d)
    for d in z:
        _check_digit(d, r2 + 2, "sum digit Z_j")
    return _truncate(z, count, "U + K")


def neg_inverse(n: int, r1: int) -> tuple[int, list[int]]:
    """M' = -N^-1 mod 2^r1 by Newton's iteration y <- y*(2 + N*y) mod 2^r1
    from the 5-bit seed y_0 = -((3N) xor 2) mod 2^5, exactly as the RTL
    computes it (one step per cycle).  Returns (M', [y_0, y_1, ...])."""
    mask = (1 << r1) - 1
    seed_mask = (1 << min(SEED_BITS, r1)) - 1
    y = (-((3 * n) ^ 2)) & seed_mask
    steps = [y]
    bits = SEED_BITS
    while bits < r1:
        y = (y * ((2 + ((n & mask) * y)) & mask)) & mask
        steps.append(y)
        bits *= 2
    if (n * y + 1) & mask:
        raise AssertionError("Newton's iteration did not reach -N^-1 mod 2^r1")
    return y, steps


# --------------------------------------------------------------------------
# The multiplication
# --------------------------------------------------------------------------


def dsp_redundant_trace(a: int, b: int, n: int, width: int, *, r1: int = R1_DEFAULT, r2: int = R2_DEFAULT):
    """Run the datapath and return (result, geometry, trace): trace is a list
    of dicts, one per iteration, with q, the carry c and the digit vectors
    S (after the iteration), for tests and for debugging the RTL."""
    check_inputs(a, b, n, width)
    g = geometry(width, r1, r2)
    mp, _ = neg_inverse(n, r1)
    nd = to_digits(n, r2, g.dn)
    bd = to_digits(b, r2, g.db)
    mt = mac(nd, mp, [], r1, r2, g.dm)  # M~ = M' * N on the q*M~ multipliers
    if value(mt, r2) != mp * n or (value(mt, r2) + 1) % (1 << r1):
        raise AssertionError("M~ is not M'*N = -1 mod 2^r1")
    trace = []
    s = [0] * g.ds
    for i in range(g.iterations):
        ai = (a >> (r1 * i)) & ((1 << r1) - 1)
        kd = mac(bd, ai, [], r1, r2, g.dk)  # a_i * B
        if i == 0:
            # S_0 = 0, q_0 = 0: S_1 = a_0*B (the M~ cycle's iteration)
            q, c, s = 0, 0, radd([], kd, 0, r2, g.ds)
        elif i < g.iterations - 1:
            q = quotient(s, r1, r2)
            t = mac(mt, q, s, r1, r2, g.dt)
            u, c = shift(t, r1, r2)
            s = radd(u, kd, c, r2, g.ds)
        else:
            # the last iteration (a_{m+2} = 0): N and the true quotient
            q = (quotient(s, r1, r2) * mp) & ((1 << r1) - 1)
            if ai:
                raise AssertionError("a_{m+2} must be zero")
            t = mac(nd, q, s, r1, r2, g.dt)
            u, c = shift(t, r1, r2)
            s = radd(u, [], c, r2, g.ds)
        trace.append({"i": i, "a": ai, "q": q, "c": c, "s": list(s)})
    return value(s, r2), g, trace


def dsp_redundant(
    a: int, b: int, n: int, width: int, *, r1: int = R1_DEFAULT, r2: int = R2_DEFAULT, interleave: int = 1
) -> MMResult:
    """Montgomery product A*B*2^-(r1*(m+2)) mod N in [0, 2N), as mm_dsp_redundant
    returns it, with its latency and the breakdown by phase.

    With ``interleave`` = I > 1 every step of the schedule takes I cycles (the
    product's context goes round a ring of I register stages), so the latency
    is I times the Interleave = 1 latency whatever the other slots do; the
    breakdown is scaled the same way.

    Raises :class:`InputError` for the requests the core rejects (even or
    small modulus, operand not below 2N) and for illegal digit sizes or
    interleave factors."""
    check_digits(r1, r2)
    check_interleave(interleave)
    s, g, _ = dsp_redundant_trace(a, b, n, width, r1=r1, r2=r2)
    if s >= 2 * n:
        raise AssertionError(f"result {s} not below 2N")
    return MMResult(s, interleave * g.latency, {k: interleave * v for k, v in g.breakdown().items()})


def check_interleave(interleave: int) -> None:
    if interleave not in (1, 2, 3):
        raise InputError(f"interleave must be 1, 2 or 3, got {interleave}")


def batch_cycles(width: int, r1: int = R1_DEFAULT, r2: int = R2_DEFAULT, interleave: int = 1) -> int:
    """Cycles from the first accepting edge to the last response of
    ``interleave`` products accepted on consecutive edges of an idle core
    (mm_dsp_redundant's counterpart of Table I's count)."""
    check_interleave(interleave)
    return interleave - 1 + interleave * latency(width, r1, r2)


class RingSchedule:
    """Exact handshake timing of mm_dsp_redundant with Interleave = I (the
    shell mm_req_pipe around a ring of I contexts), for the benches.

    Edges are numbered from reset.  The context at the ring's last stage in
    cycle t (the one ending at edge t) is the one of phase t mod I; a legal
    request accepted at edge t loads it, and it completes (and is free again
    for a request accepted at that same edge) at edge t + I*L.  A rejected
    request takes no context.  in_ready_o at edge t: fewer than I responses
    outstanding (accepted, not yet taken) and the phase's context free or
    finishing.  Every accepted request takes a reorder-buffer entry, filled at
    t + I*L (legal) or at t (rejected); the oldest entry is presented
    (out_valid_o high after edge max(filled, previous response taken)).
    """

    def __init__(self, width: int, r1: int = R1_DEFAULT, r2: int = R2_DEFAULT, interleave: int = 1):
        check_interleave(interleave)
        self.ilv = interleave
        self.lat = interleave * latency(width, r1, r2)
        self.busy_until: dict[int, int] = {}  # phase -> completing edge
        self.filled: list[int] = []  # per accepted request: edge its entry fills
        self.taken: list[int] = []  # per taken response: its edge

    def outstanding(self) -> int:
        return len(self.filled) - len(self.taken)

    def ready(self, t: int) -> bool:
        """in_ready_o during the cycle that ends at edge t."""
        free = self.busy_until.get(t % self.ilv, -1) <= t
        return self.outstanding() < self.ilv and free

    def accept(self, t: int, legal: bool) -> None:
        if not self.ready(t):
            raise AssertionError(f"request accepted at edge {t} while the model says not ready")
        if legal:
            self.busy_until[t % self.ilv] = t + self.lat
            self.filled.append(t + self.lat)
        else:
            self.filled.append(t)

    def valid_edge(self) -> int:
        """Edge after which the next response (the oldest untaken) is presented."""
        k = len(self.taken)
        prev = self.taken[-1] if self.taken else -1
        return max(self.filled[k], prev)

    def take(self, t: int) -> None:
        self.taken.append(t)


def printed_algorithm1(a: int, b: int, n: int, r: int, m: int) -> int:
    """Algorithm 1 as printed, on plain integers: M~ in every iteration,
    m+3 iterations, R = 2^(r*(m+2)).  Used to show that its output bound is
    2*M~, not 2*M (docs/dsp.md)."""
    mp = (-pow(n, -1, 1 << r)) % (1 << r)
    mt = mp * n
    s = 0
    for i in range(m + 3):
        q = s % (1 << r)
        s = (s + q * mt) // (1 << r) + ((a >> (r * i)) % (1 << r)) * b
    return s
