# SPDX-License-Identifier: Apache-2.0
"""The exponentiation engines ``mm_modexp`` and ``mm_modexp_crt`` on any
registered core: their bit-exact, cycle-exact models and their request
checks (``docs/modexp.md``); what they are built from is their design
(:mod:`montmul.design`).  Plain Python, no simulator imports;
:mod:`montmul.apps.modexp` runs the same jobs on the model or the RTL.

The engine, for one request (base, exp, exp_len, N, R^2 mod N, mode):

1. input checks (rejected requests answer at the accepting edge, 0 cycles);
2. ``one = MM(R2, 1)`` (R mod N, the Montgomery form of 1);
3. ``chk = MM(one, 1)``, reduced once: must be 1, else R2 was not R^2 mod N
   and the request is rejected (err) - a wrong R^2 never gives a silent wrong
   answer;
4. ``bm = MM(base, R2)`` (the base in the Montgomery domain);
5. the exponent bits exp_len-1 .. 0: left-to-right square-and-multiply
   (paper 004, Algorithm 2) or the Montgomery powering ladder;
6. ``s = MM(x, 1)`` leaves the domain; one conditional subtraction of N.

Every core product is in [0, 2N) and every operand in [0, 2N), so products
chain with no subtraction in between (Walter's bound; ``docs/interface.md``).

Latency (the core's latency definition, ``docs/interface.md``): each core
multiplication costs its own latency L_i plus :data:`MUL_OVERHEAD` cycles (the
edge at which the core accepts, and the edge at which the engine takes the
core's response), and each of the two reductions (R^2 check and final)
:data:`REDUCE_CYCLES` cycles: ``cycles = sum(L_i + MUL_OVERHEAD) + 2 * REDUCE_CYCLES``
(= sum(L_i + 2) + 6).
"""

from __future__ import annotations

from dataclasses import dataclass

import gmpy2

from . import cores
from .design import check_core
from .models import InputError

#: Engine cycles per core multiplication beyond the core's own latency: the
#: core's accepting edge and the edge at which the engine takes the response.
MUL_OVERHEAD = 2
#: Engine cycles per reduction (one conditional subtraction of N); there are
#: two: the R^2 check and the final reduction.  Three, so that neither is on
#: the clock's critical path: segment carries and check flags to registers,
#: then the prefix over the segments to registers, then y - N and the
#: selection (rtl/modexp/mm_modexp.sv).
REDUCE_CYCLES = 3


@dataclass(frozen=True)
class ModexpResult:
    result: int  #: base**exp mod n in [0, n); 0 when err
    err: int  #: 1 when the request was rejected
    cycles: int  #: engine latency, defined like a core's latency (docs/interface.md)
    mults: int  #: core multiplications performed


@dataclass(frozen=True)
class Mult:
    """One core multiplication of an exponentiation (for traces)."""

    a: int
    b: int
    s: int
    cycles: int  #: the core's own latency


def exp_len_width(width: int) -> int:
    """Width of the engine's ``exp_len_i`` port: $clog2(Width + 1)."""
    return max(1, width.bit_length())


def default_width(n: int) -> int:
    """width=None: the modulus' bit length, at least 3 (the cores' minimum)."""
    return max(3, n.bit_length())


def default_exp_len(exp: int) -> int:
    """exp_len=None: the exponent's bit length; exp = 0 is the one-bit
    exponent "0", so x**0 = 1 (also 0**0 = 1, as Python's pow)."""
    return max(1, exp.bit_length())


def r2_mod(n: int, core: str, width: int, params: dict[str, int] | None = None) -> int:
    """R^2 mod n for ``core``'s Montgomery radix R of a request with modulus
    ``n`` at ``width`` (the per-key precomputation the host gives the engine,
    like OpenSSL's BN_MONT_CTX)."""
    if n < 1:
        raise ValueError(f"modulus must be positive, got {n}")
    return pow(2, 2 * cores.resolve(core).radix_log2(width, params, n), n)


def check_ports(base: int, exp: int, n: int, r2: int, exp_len: int, width: int) -> None:
    """ValueError for values that cannot even be presented at the ports."""
    for name, v, bits in (
        ("base", base, width),
        ("exp", exp, width),
        ("n", n, width),
        ("r2", r2, width),
        ("exp_len", exp_len, exp_len_width(width)),
    ):
        if v < 0 or v >= 1 << bits:
            raise ValueError(f"{name}={v} does not fit the engine's {bits}-bit port (width {width})")


def rejects(base: int, exp: int, n: int, r2: int, exp_len: int, width: int) -> str | None:
    """Why the engine rejects the request at its accepting edge, or None."""
    if n < 3 or n % 2 == 0:
        return f"modulus N={n} must be odd and at least 3"
    if base >= n:
        return f"base {base} not below N"
    if not 1 <= exp_len <= width:
        return f"exponent length {exp_len} outside [1, {width}]"
    if exp >> exp_len:
        return f"exponent {exp:#x} has bits set at or above exp_len={exp_len}"
    if r2 >= n:
        return f"R^2 input {r2} not below N"
    return None


def engine_model(
    base: int,
    exp: int,
    n: int,
    r2: int,
    exp_len: int,
    *,
    core: str = "scs_new",
    width: int,
    params: dict[str, int] | None = None,
    ladder: bool = False,
    trace: list[Mult] | None = None,
) -> ModexpResult:
    """The engine's answer to one request with explicit R^2 and exp_len (the
    ports of mm_modexp), cycle-exact.  ``trace`` (if given) receives every
    core multiplication in order."""
    c = cores.resolve(core)
    check_core(c)
    check_ports(base, exp, n, r2, exp_len, width)
    if rejects(base, exp, n, r2, exp_len, width):
        return ModexpResult(0, 1, 0, 0)
    cycles = 0
    mults = 0

    class _CoreErr(Exception):
        pass

    def mm(a: int, b: int) -> int:
        nonlocal cycles, mults
        assert 0 <= a < c.in_bound * n and 0 <= b < c.in_bound * n, "operand outside the core's input range"
        try:
            r = c.run_model(a, b, n, width, params)
        except InputError:
            # The core answers err at its accepting edge; the engine takes it
            # at the next edge and answers err (never expected).
            cycles += MUL_OVERHEAD
            mults += 1
            raise _CoreErr from None
        assert 0 <= r.result < c.out_bound * n, "core result outside its output range"
        cycles += r.cycles + MUL_OVERHEAD
        mults += 1
        if trace is not None:
            trace.append(Mult(a, b, r.result, r.cycles))
        return r.result

    def reduce(s: int) -> int:
        nonlocal cycles
        cycles += REDUCE_CYCLES
        return s - n if s >= n else s

    try:
        x = mm(r2, 1)  # R mod N, in [0, 2N)
        if reduce(mm(x, 1)) != 1:  # R2 * R^-2 must be 1 mod N
            return ModexpResult(0, 1, cycles, mults)
        y = mm(base, r2)  # base * R mod N
        for i in reversed(range(exp_len)):
            bit = (exp >> i) & 1
            if ladder:
                # Invariant y = x * base (Montgomery forms); both products
                # every bit, whatever its value.
                p = mm(x, y)
                if bit:
                    x, y = p, mm(y, y)
                else:
                    x, y = mm(x, x), p
            else:
                x = mm(x, x)
                if bit:
                    x = mm(x, y)
        result = reduce(mm(x, 1))
    except _CoreErr:
        return ModexpResult(0, 1, cycles, mults)
    assert 0 <= result < n, "final result outside [0, N)"
    assert result == pow(base, exp, n), "engine model disagrees with pow()"
    return ModexpResult(result, 0, cycles, mults)


def modexp_model(
    base: int,
    exp: int,
    n: int,
    *,
    core: str = "scs_new",
    width: int | None = None,
    params: dict[str, int] | None = None,
    ladder: bool = False,
    exp_len: int | None = None,
) -> ModexpResult:
    """base**exp mod n as mm_modexp computes it on ``core``, with its exact
    latency.  R^2 comes from :func:`r2_mod`; width=None is n's bit length (at
    least 3); exp_len=None is exp's bit length (exp = 0: one bit, x**0 = 1).

    Requests the engine rejects return err=1 (result 0, 0 cycles); values that
    do not fit the engine's ports (negative, or >= 2**width) raise ValueError.
    """
    if width is None:
        width = default_width(n)
    if exp_len is None:
        exp_len = default_exp_len(exp)
    r2 = r2_mod(n, core, width, params) if n >= 1 else 0
    return engine_model(base, exp, n, r2, exp_len, core=core, width=width, params=params, ladder=ladder)


# ---------------------------------------------------------------------------
# RSA-CRT: mm_modexp_crt (docs/modexp.md, "RSA-CRT in the engine")
#
# One request: c (2k bits), the primes p > q (k bits each, top bit set),
# dP, dQ with their lengths, R^2 mod p, R^2 mod q and qInv*R mod p (qInv =
# q^-1 mod p).  Two threads, P (mod p) and Q (mod q), run side by side on one
# core in rounds: a round is every product both threads can issue now (all
# independent), issued back to back as the core accepts them; the round ends
# when the last response is taken.  A one-slot core takes them one after the
# other; a core with several slots (dsp_redundant, Interleave > 1) keeps them
# in flight together.  Per thread (modulus N, R2 = R^2 mod N, K = 2^k):
#   round Init:  x = MM(R2, 1)             R mod N
#                y = MM(R2, K)             K*R mod N
#   round Chk:   z = MM(x, 1)              must be 1 mod N (R2 check)
#                y = MM(c_hi, y)           c_hi*K mod N
#   Chk (1 cycle): z mod N == 1 else err; y = y mod N
#   Add (1 cycle): y = y + (c_lo mod N)    congruent to c, in [0, 2N)
#   round Base:  y = MM(y, R2)             c*R mod N
#   rounds Loop: square-and-multiply or ladder, as mm_modexp
#   round Exit:  y = MM(x, 1)
# (a thread whose loop ends first issues its exit while the other goes on);
#   Red (1 cycle):  y = y mod N            m_p, m_q
#   G1, G2 (1 cycle each): y_P = m_p + p - m_q    in (0, 2p) as q < p
#   round Gar (thread P): y = MM(y, qInv*R)  h, unreduced
#                         z = MM(q, qInv*R)  must be 1 mod p (qInv check)
#   Fin (1 cycle): z mod p == 1 else err; h = y mod p
# Response: (m_q, h); the host's m = m_q + q*h (a k x k multiply-add).

#: Engine cycles of each one-cycle step of a CRT request (Chk, Add, Add2,
#: Red, G1, G2, Fin), besides StPre (crt_pre_cycles).
CRT_STEPS = ("chk", "add", "add2", "red", "g1", "g2", "fin")
@dataclass(frozen=True)
class CrtRequest:
    """The ports of mm_modexp_crt (host-precomputed per key: r2p, r2q, qinvr)."""

    c: int  #: 2k bits, any value (reduced mod p and q on the core)
    p: int  #: the larger prime, odd, k bits with the top bit set
    q: int  #: the smaller prime, odd, k bits with the top bit set, q < p
    dp: int
    dq: int
    dp_len: int  #: 1 .. exp_width
    dq_len: int
    r2p: int  #: R^2 mod p (R: the core's radix for p)
    r2q: int  #: R^2 mod q
    qinvr: int  #: (q^-1 mod p) * R mod p

    def ports(self) -> list[int]:
        return [self.c, self.p, self.q, self.dp, self.dq, self.dp_len, self.dq_len, self.r2p, self.r2q, self.qinvr]


@dataclass(frozen=True)
class CrtResult:
    mq: int  #: c^dQ mod q (0 on err)
    h: int  #: (m_p - m_q) * qInv mod p (0 on err)
    err: int
    cycles: int  #: engine latency (accepting edge to the edge after which out_valid_o is high)
    mults: int  #: core products
    rounds: int = 0  #: rounds of products (model only)

    def m(self, q: int) -> int:
        """Garner's last step, on the host: m = m_q + q*h, in [0, p*q)."""
        return self.mq + q * self.h


def crt_slots(core: str, params: dict[str, int] | None = None) -> int:
    """Products the core keeps in flight (the registry's in_flight)."""
    c = cores.resolve(core)
    return c.in_flight(c.hdl_params(c.all_params["Width"].default, **(params or {})))


def check_crt_ports(req: CrtRequest, width: int, exp_width: int) -> None:
    """ValueError for values that cannot even be presented at the ports."""
    lw = exp_len_width(exp_width)
    for name, bits in (("c", 2 * width), ("p", width), ("q", width), ("dp", exp_width), ("dq", exp_width),
                       ("dp_len", lw), ("dq_len", lw), ("r2p", width), ("r2q", width), ("qinvr", width)):
        v = getattr(req, name)
        if v < 0 or v >= 1 << bits:
            raise ValueError(f"{name}={v} does not fit the CRT engine's {bits}-bit port (width {width})")


def _crt_accept_rejects(req: CrtRequest, width: int, exp_width: int) -> str | None:
    """Why mm_modexp_crt rejects the request at its accepting edge, or None."""
    top = 1 << (width - 1)
    for name in ("p", "q"):
        v = getattr(req, name)
        if v % 2 == 0 or not v & top:
            return f"{name}={v} must be odd with its top bit (bit {width - 1}) set"
    for name, t in (("dP", req.dp_len), ("dQ", req.dq_len)):
        if not 1 <= t <= exp_width:
            return f"{name} length {t} outside [1, {exp_width}]"
    return None


def crt_pre_cycles(req: CrtRequest, exp_width: int) -> int:
    """Cycles of mm_modexp_crt's StPre (the range checks one after another on
    the threads' adders, and the exponents' alignment: one left shift per
    cycle until bit length-1 is at the top of the ExpWidth-bit register)."""
    return max(CRT_PRE_CHECKS, exp_width - req.dp_len, exp_width - req.dq_len)


#: Check steps of StPre (thread P's q < p, R^2 mod p < p, qInv*R < p).
CRT_PRE_CHECKS = 3


def crt_rejects(req: CrtRequest, width: int, exp_width: int | None = None) -> str | None:
    """Why mm_modexp_crt rejects the request, or None: at its accepting edge
    (p, q, exponent lengths) or after StPre (the rest; crt_pre_cycles).
    (A wrong R^2 or qInv*R is found later, by the Chk and Fin steps.)"""
    exp_width = width if exp_width is None else exp_width
    why = _crt_accept_rejects(req, width, exp_width)
    if why:
        return why
    if req.q >= req.p:
        return "q must be below p (give the larger prime as p)"
    for name, e, t in (("dP", req.dp, req.dp_len), ("dQ", req.dq, req.dq_len)):
        if e >> t:
            return f"{name} {e:#x} has bits set at or above its length {t}"
    if req.r2p >= req.p:
        return "R^2 mod p input not below p"
    if req.r2q >= req.q:
        return "R^2 mod q input not below q"
    if req.qinvr >= req.p:
        return "qInv*R input not below p"
    return None


def _round_edges(t0: int, lats: list[int], slots: int) -> int:
    """Edge at which the engine takes the last response of a round whose
    products (latencies ``lats``) it presents from the cycle after edge
    ``t0``, in order, holding out_ready high: the core's handshake as
    mm_req_ctrl (one slot) or mm_req_pipe around a ring of ``slots``
    contexts (montmul.models.dsp.RingSchedule): a request is accepted at edge
    e when fewer than ``slots`` responses are outstanding (taken before e)
    and the context of phase e mod slots is free (completed at or before e);
    a product accepted at e is filled at e + L; the oldest response is
    presented after edge max(filled, previous take) and taken one edge
    later."""
    if slots == 1:
        return t0 + sum(lat + MUL_OVERHEAD for lat in lats)
    busy: dict[int, int] = {}
    filled: list[int] = []
    taken: list[int] = []
    e, j, n = t0 + 1, 0, len(lats)
    while len(taken) < n:
        k = len(taken)
        te = max(filled[k], taken[-1] if k else -1) + 1 if k < len(filled) else None
        out = len(filled) - k
        can = j < n and out < slots and busy.get(e % slots, -1) <= e
        if can:
            busy[e % slots] = e + lats[j]
            filled.append(e + lats[j])
            j += 1
        if te == e:
            taken.append(e)
        if not can and te != e and (j == n or out >= slots):
            e = te  # nothing to accept before the next take
        else:
            e += 1
    return taken[-1]


def crt_engine_model(
    req: CrtRequest,
    *,
    core: str = "scs_new",
    width: int,
    exp_width: int | None = None,
    params: dict[str, int] | None = None,
    ladder: bool = False,
    trace: list[Mult] | None = None,
) -> CrtResult:
    """mm_modexp_crt's answer to one request, bit- and cycle-exact."""
    c = cores.resolve(core)
    check_core(c)
    if c.in_bound < 2:
        raise ValueError(f"core {core!r}: the CRT engine needs operands up to 2N (its in_bound is {c.in_bound})")
    exp_width = width if exp_width is None else exp_width
    check_crt_ports(req, width, exp_width)
    if _crt_accept_rejects(req, width, exp_width):
        return CrtResult(0, 0, 1, 0, 0)
    t_edge = crt_pre_cycles(req, exp_width)  # StPre ends at this edge
    if crt_rejects(req, width, exp_width):
        return CrtResult(0, 0, 1, t_edge, 0)
    slots = crt_slots(core, params)
    mask = (1 << (width + 1)) - 1
    c_hi, c_lo = req.c >> width, req.c & ((1 << width) - 1)
    th = []
    for n, e, t, r2 in ((req.p, req.dp, req.dp_len, req.r2p), (req.q, req.dq, req.dq_len, req.r2q)):
        th.append({"n": n, "e": e, "t": t, "r2": r2,
                   "x": 0, "y": 0, "z": 0, "ph": "init", "idx": 0, "sub": 0, "ebit": 0})
    P, Q = th
    mults = 0
    rounds = 0

    def red(s: dict, v: int) -> int:
        return v - s["n"] if v >= s["n"] else v

    def products(s: dict) -> list[tuple[int, int, str]]:
        ph, x, y = s["ph"], s["x"], s["y"]
        if ph == "init":
            return [(s["r2"], 1, "x"), (s["r2"], 1 << width, "y")]
        if ph == "chk":
            return [(x, 1, "z"), (c_hi, y, "y")]
        if ph == "base":
            return [(y, s["r2"], "y")]
        if ph == "loop":
            if ladder:
                return [(x, y, "x" if s["ebit"] else "y"), (y, y, "y") if s["ebit"] else (x, x, "x")]
            return [(x, y, "x")] if s["sub"] else [(x, x, "x")]
        if ph == "exit":
            return [(x, 1, "y")]
        if ph == "gar":
            return [(y, req.qinvr, "y"), (Q["n"], req.qinvr, "z")]
        return []

    def advance(s: dict) -> None:
        ph = s["ph"]
        if ph == "init":
            s["ph"] = "chk"
        elif ph == "base":
            s["ph"], s["idx"], s["sub"] = "loop", s["t"] - 1, 0
            s["ebit"] = (s["e"] >> s["idx"]) & 1
        elif ph == "loop":
            if not ladder and not s["sub"] and s["ebit"]:
                s["sub"] = 1
                return
            s["sub"] = 0
            if s["idx"] == 0:
                s["ph"] = "exit"
            else:
                s["idx"] -= 1
                s["ebit"] = (s["e"] >> s["idx"]) & 1
        elif ph in ("exit", "gar"):
            s["ph"] = "fin"

    def run_round() -> None:
        nonlocal t_edge, mults, rounds
        lats = []
        for s in th:
            for a, b, dst in products(s):  # operands as at the round's start
                r = c.run_model(a, b, s["n"], width, params)
                assert 0 <= r.result < 2 * s["n"], "core result outside [0, 2N)"
                if trace is not None:
                    trace.append(Mult(a, b, r.result, r.cycles))
                s[dst] = r.result
                lats.append(r.cycles)
        mults += len(lats)
        rounds += 1
        t_edge = _round_edges(t_edge, lats, slots)
        for s in th:
            advance(s)

    run_round()  # Init
    run_round()  # Chk (phase stays chk: the Chk step follows)
    t_edge += 1  # Chk step
    if any(red(s, s["z"]) != 1 for s in th):
        return CrtResult(0, 0, 1, t_edge, mults, rounds)
    for s in th:
        s["y"] = red(s, s["y"])
    t_edge += 2  # Add and Add2 steps
    for s in th:
        s["y"] = red(s, s["y"] + c_lo)  # < N + 2^k, then once - N: < 2N
        s["ph"] = "base"
    while any(s["ph"] != "fin" for s in th):
        run_round()  # Base, Loop ..., Exit
    t_edge += 1  # Red
    for s in th:
        s["y"] = red(s, s["y"])
    mp, mq = P["y"], Q["y"]
    t_edge += 1  # G1
    P["y"] += P["n"]
    t_edge += 1  # G2
    P["y"] = (P["y"] + (~Q["y"] & mask) + 1) & mask
    P["ph"] = "gar"
    run_round()
    t_edge += 1  # Fin
    if red(P, P["z"]) != 1:
        return CrtResult(0, 0, 1, t_edge, mults, rounds)
    h = red(P, P["y"])
    p, q = req.p, req.q
    assert mp == pow(req.c, req.dp, p) and mq == pow(req.c, req.dq, q), "CRT model disagrees with pow()"
    assert h == (mp - mq) * pow(q, -1, p) % p, "CRT model: h disagrees with Garner"
    return CrtResult(mq, h, 0, t_edge, mults, rounds)


def crt_request(
    c: int, p: int, q: int, dp: int, dq: int, *, core: str, width: int,
    params: dict[str, int] | None = None,
) -> CrtRequest:
    """The host's side of a CRT request: the primes in order (p > q; swapped
    with their exponents if needed), exponent lengths, R^2 mod p and mod q
    and qInv*R mod p (the per-key precomputation, like OpenSSL's
    BN_MONT_CTX and RSA_get0_crt_params)."""
    if p < q:
        p, q, dp, dq = q, p, dq, dp
    if p == q or p < 3 or q < 3 or gmpy2.gcd(p, q) != 1:
        raise ValueError("p and q must be distinct coprime odd moduli (the primes of the key)")
    c_core = cores.resolve(core)
    qinv = pow(q, -1, p)
    qinvr = (qinv << c_core.radix_log2(width, params, p)) % p
    return CrtRequest(c, p, q, dp, dq, default_exp_len(dp), default_exp_len(dq),
                      r2_mod(p, core, width, params), r2_mod(q, core, width, params), qinvr)


def crt_model(
    core: str,
    width: int | None,
    c: int,
    p: int,
    q: int,
    dP: int,
    dQ: int,
    *,
    ladder: bool = False,
    params: dict[str, int] | None = None,
    exp_width: int | None = None,
) -> tuple[int, int]:
    """One RSA-CRT private-key operation on mm_modexp_crt on ``core``:
    (m = c^d mod p*q, the engine's exact cycles).  width=None: the primes'
    bit length; exp_width=None: width (wider for blinded exponents).
    ValueError if the engine rejects the request."""
    if width is None:
        width = max(p.bit_length(), q.bit_length(), 3)
    req = crt_request(c, p, q, dP, dQ, core=core, width=width, params=params)
    r = crt_engine_model(req, core=core, width=width, exp_width=exp_width, params=params, ladder=ladder)
    if r.err:
        raise ValueError(f"the CRT engine rejects the request: {crt_rejects(req, width, exp_width) or 'R^2/qInv check'}")
    return r.m(req.q), r.cycles
