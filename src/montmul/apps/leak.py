# SPDX-License-Identifier: Apache-2.0
"""Timing-leak audit: how a core's latency varies with the data.

Three measurements, all taken from RTL simulation (or the cycle-exact model
with ``sim="model"``):

* random operands and moduli: min / max / mean / standard deviation;
* chosen cases: dense and sparse multipliers and multiplicands, operands 0
  and 1, and long carry chains in B + N and in the final conversion;
* bit influence: for each operand (A, B, N) and a spread of bit positions,
  the mean absolute change in latency when that one bit is flipped, over a
  set of random base inputs.  An operand whose bits never change the latency
  does not leak through timing in this audit; one that does is named.

A core is reported constant-time when every measured latency is the same.

:func:`audit_pke` audits the public-key engine mm_pke's RSA-CRT program
instead (``montmul leak --core ws --engine pke``): cycle counts and
dispatch traces for different keys, messages and exponents of one length.
:func:`audit_pke_ecc` audits its ECC programs (``--ecc CURVE``): k·P and
u1·G + u2·Q over random and chosen scalars and points, on the model and
optionally on a sample through the engine's RTL.
"""

from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass, field

from math import gcd

from .stats import measure, random_vectors, summary


@dataclass
class LeakReport:
    core: str
    width: int
    sim: str
    samples: int
    random: dict[str, float]
    chosen: list[dict] = field(default_factory=list)
    influence: dict[str, dict[str, float]] = field(default_factory=dict)
    constant_time: bool = False
    drivers: list[str] = field(default_factory=list)
    #: program audits (mm_pke): the runs and the instructions per dispatch trace
    runs: int = 0
    trace_instructions: int = 0
    #: runs through the RTL (case, cycles, equal to the model's, trace equal, result right)
    rtl: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


def chosen_cases(k: int) -> list[tuple[str, int, int, int]]:
    """(label, a, b, n): the structured worst and best cases to try."""
    full = (1 << k) - 1  # N = 2^k - 1: all ones, longest chains
    sparse_n = (1 << (k - 1)) + 1  # N = 2^(k-1) + 1: sparse
    alt = int("10" * k, 2) & full | 1  # 0b...0101 pattern
    alt = alt if alt >= 3 else 3
    cases = []
    for nlabel, n in (("N=2^k-1", full), ("N=2^(k-1)+1", sparse_n), ("N=0101..", alt)):
        top = 2 * n - 1
        cases += [
            (f"{nlabel}, A=0 (sparse), B=2N-1", 0, top, n),
            (f"{nlabel}, A=1, B=2N-1", 1, top, n),
            (f"{nlabel}, A=2N-1 (dense), B=2N-1", top, top, n),
            (f"{nlabel}, A=2N-1 (dense), B=0", top, 0, n),
            (f"{nlabel}, A=2N-1, B=1", top, 1, n),
            (f"{nlabel}, A=B=N-1", n - 1, n - 1, n),
            (f"{nlabel}, A=B=1", 1, 1, n),
            (f"{nlabel}, A=B=0", 0, 0, n),
            (f"{nlabel}, A=0101.., B=1010..", alt % (2 * n), (alt << 1) % (2 * n), n),
        ]
    return cases


def _positions(bits: int) -> list[int]:
    pos = {0, 1, 2, 3, bits // 4, bits // 2, 3 * bits // 4, bits - 2, bits - 1}
    return sorted(p for p in pos if 0 <= p < bits)


def audit(core, k: int, samples: int = 200, seed: int = 1, sim: str = "verilator",
          jobs: int = 1, bases: int = 12, params: dict[str, int] | None = None) -> LeakReport:
    rand = random_vectors(k, samples, seed)
    chosen = chosen_cases(k)
    # Bit-flip pairs: a random base, and the base with one bit flipped.
    base_vecs = random_vectors(k, bases, seed + 1)
    flips: list[tuple[str, int, int, int, int]] = []  # (operand, pos, a, b, n)
    for a, b, n in base_vecs:
        for p in _positions(k + 1):
            for op in ("A", "B"):
                x = (a if op == "A" else b) ^ (1 << p)
                if x >= 2 * n:
                    continue
                flips.append((op, p, x, b, n) if op == "A" else (op, p, a, x, n))
        for p in _positions(k)[1:]:  # N stays odd: never flip bit 0
            m = n ^ (1 << p)
            if m < 3 or m >= 1 << k or a >= 2 * m or b >= 2 * m:
                continue
            flips.append(("N", p, a, b, m))
    vectors = rand + [(a, b, n) for _, a, b, n in chosen] + base_vecs + [(a, b, n) for _, _, a, b, n in flips]
    cycles, _, _ = measure(core, k, vectors, sim, jobs, params)
    i = 0
    rc = cycles[i:i + len(rand)]
    i += len(rand)
    cc = cycles[i:i + len(chosen)]
    i += len(chosen)
    bc = cycles[i:i + len(base_vecs)]
    i += len(base_vecs)
    fc = cycles[i:]
    # Influence: mean |delta| per operand and per position.
    infl: dict[str, dict[str, float]] = {}
    per: dict[tuple[str, int], list[int]] = {}
    # Recover each flip's base latency by walking the same loops again.
    j = 0
    for bi, (a, b, n) in enumerate(base_vecs):
        for p in _positions(k + 1):
            for op in ("A", "B"):
                x = (a if op == "A" else b) ^ (1 << p)
                if x >= 2 * n:
                    continue
                per.setdefault((op, p), []).append(abs(fc[j] - bc[bi]))
                j += 1
        for p in _positions(k)[1:]:
            m = n ^ (1 << p)
            if m < 3 or m >= 1 << k or a >= 2 * m or b >= 2 * m:
                continue
            per.setdefault(("N", p), []).append(abs(fc[j] - bc[bi]))
            j += 1
    assert j == len(fc)
    for (op, p), ds in sorted(per.items()):
        infl.setdefault(op, {})[str(p)] = statistics.fmean(ds)
    everything = rc + cc + bc + fc
    const = min(everything) == max(everything)
    drivers = [op for op, d in infl.items() if any(v > 0 for v in d.values())]
    chosen_rows = [{"case": lab, "cycles": c} for (lab, _, _, _), c in zip(chosen, cc)]
    return LeakReport(core.name, k, sim, samples, summary(rc), chosen_rows, infl, const, drivers)


def format_report(rep: LeakReport) -> str:
    r = rep.random
    lines = [
        f"timing-leak audit: {rep.core}, width {rep.width}, {rep.sim}",
        f"  random ({rep.samples}): min {r['min']}  max {r['max']}  avg {r['avg']:.2f}  std {r['std']:.2f}",
        "  chosen cases:",
    ]
    ordered = sorted(rep.chosen, key=lambda c: c["cycles"])
    if rep.runs and ordered and ordered[0]["cycles"] == ordered[-1]["cycles"] and \
            all(c["trace_equal"] for c in ordered):  # a program audit where every chosen case agrees: one line
        lines[-1] = (f"  chosen cases ({len(ordered)}): every one {ordered[0]['cycles']} cycles with the base's trace: "
                     + "; ".join(c["case"] for c in ordered))
    for c in ordered if lines[-1] == "  chosen cases:" else []:
        trace = "" if "trace_equal" not in c or c["trace_equal"] else "  (dispatch trace differs)"
        lines.append(f"    {c['cycles']:7d}  {c['case']}{trace}")
    lines.append("  influence (one factor varied around a base run):" if rep.core.startswith("mm_pke") else
                 "  bit influence (mean |delta cycles| when one bit flips):")
    for op, d in rep.influence.items():
        vals = ", ".join(f"bit {p}: {v:.2f}" if p.isdigit() else f"{p.replace('_', ' ')}: {v:g}"
                         for p, v in d.items())
        lines.append(f"    {op}: {vals}")
    if rep.rtl:
        lines.append(f"  through mm_pke's RTL ({rep.rtl[0]['sim']}):")
    for row in rep.rtl:
        lines.append(f"    {row['cycles']:7d}  {row['case']}: cycles as the model "
                     f"{'yes' if row['cycles_equal'] else 'NO'}, dispatch trace as the model "
                     f"{'yes' if row['trace_equal'] else 'NO'}, result {'right' if row['result_ok'] else 'WRONG'}")
    if rep.constant_time and rep.runs:
        rtl = f"; {len(rep.rtl)} of them on the RTL ({rep.rtl[0]['sim']}), equal" if rep.rtl else ""
        lines.append(f"  verdict: constant time: {rep.runs} runs, every one {r['min']} cycles with the same "
                     f"dispatch trace ({rep.trace_instructions} instructions){rtl}")
    elif rep.constant_time and rep.core.startswith("mm_pke"):
        lines.append("  verdict: constant time (every cycle count and every dispatch trace is equal)")
    elif rep.constant_time:
        lines.append("  verdict: constant time (every measured latency is equal)")
    else:
        lines.append(f"  verdict: DATA-DEPENDENT timing; driven by {', '.join(rep.drivers) or 'the data'}")
    return "\n".join(lines)


# --------------------------------------------------------------------------
# The public-key engine mm_pke: program-level audit of the RSA-CRT program


def _prime(bits: int, rng) -> int:
    import gmpy2

    while True:
        p = int(gmpy2.next_prime(rng.randrange(1 << (bits - 1), 1 << bits)))
        if p.bit_length() == bits:
            return p


def audit_pke(bits: int, samples: int = 20, seed: int = 1, pes: int | None = None,
              blind: bool = False, exp_blind_bits: int = 0) -> LeakReport:
    """Timing audit of the RSA-CRT program on the engine mm_pke
    (``docs/pke.md``) at halves of ``bits`` bits, on its cycle-exact model
    (``pke.run``, whose cycles the RTL equals: ``tb/mm_pke``, the RSA tests
    on Icarus and Verilator).

    Every run computes (values included) and records the cycle count and
    the dispatch trace: every executed instruction with its issue cycle and
    its cycles.  Runs: ``samples`` random keys (primes of exactly ``bits``
    bits, random exponents and messages); chosen cases (messages 0, 1, 2,
    N - 1; exponents 1, 2^ℓ - 1, and with one window 0 or 15); and three
    one-factor families around one base (another key with the base's
    exponents and message, another message, another exponent), whose
    influence is the largest |Δ cycles| and the number of runs whose trace
    differs from the base's.  ``blind``: base blinding (r^e on the engine,
    random r per run); ``exp_blind_bits``: exponents of ``bits`` + that many
    bits.  Constant time: every cycle count equal, every trace equal, and
    equal to the cycles-only run (``compute=False``)."""
    import random

    from ..flows.sim.pke_sim import PES, engine_build
    from ..models import pke

    rng = random.Random(seed)
    b = engine_build(bits, bits + exp_blind_bits, pes=PES if pes is None else pes, base_blind=blind)
    e_bits = b.exp_bits

    def key():
        p, q = _prime(bits, rng), _prime(bits, rng)
        while q == p:
            q = _prime(bits, rng)
        return max(p, q), min(p, q)

    def one(p, q, dp, dq, c):
        n = p * q
        r = None
        if blind:
            r = rng.randrange(2, n)
            while gcd(r, n) != 1:
                r = rng.randrange(2, n)
        res = pke.rsa_crt(p, q, dp, dq, c, bits, exp_bits=e_bits, pes=b.pes, w=b.w, latency=b.latency,
                          qlat=b.qlat, d=b.d, r=r, e=65537 if blind else None)
        # with base blinding the engine computes (c r^e)^dP r^-1 (= c^dP for a real key's dP)
        x = c * pow(r, 65537, n) % n if blind else c
        want = [pow(x, e_, m) * (pow(r, -1, m) if blind else 1) % m for e_, m in ((dp, p), (dq, q))]
        assert [res.value % p, res.value % q] == want, "the engine model is wrong"
        return res.cycles, res.trace

    def rexp():
        return rng.randrange(1, 1 << e_bits)

    ref = pke.rsa_crt(*key(), 1, 1, 0, bits, exp_bits=e_bits, pes=b.pes, w=b.w, latency=b.latency, qlat=b.qlat,
                      d=b.d, r=2 if blind else None, e=65537 if blind else None, compute=False)
    runs: list[tuple[str, int, list]] = []
    for _ in range(samples):
        p, q = key()
        runs.append(("random", *one(p, q, rexp(), rexp(), rng.randrange(p * q))))
    p0, q0 = key()
    n0 = p0 * q0
    dp0, dq0, c0 = rexp(), rexp(), rng.randrange(n0)
    top = (1 << e_bits) - 1
    w0 = top ^ (0xF << (4 * (b.windows // 2)))  # one window 0 in the middle
    chosen = [("message 0", p0, q0, dp0, dq0, 0), ("message 1", p0, q0, dp0, dq0, 1),
              ("message 2", p0, q0, dp0, dq0, 2), ("message N-1", p0, q0, dp0, dq0, n0 - 1),
              ("exponents 1", p0, q0, 1, 1, c0), ("exponents 2^E-1 (every window 15)", p0, q0, top, top, c0),
              ("exponents with one window 0", p0, q0, w0, w0, c0),
              ("dP = 1, dQ = 2^E-1", p0, q0, 1, top, c0)]
    chosen_runs = [(lab, *one(*args)) for lab, *args in chosen]
    base = one(p0, q0, dp0, dq0, c0)
    fams: dict[str, list] = {"key": [], "message": [], "exponent": []}
    for _ in range(max(3, samples // 4)):
        p, q = key()
        fams["key"].append(one(p, q, dp0, dq0, c0 % (p * q)))
        fams["message"].append(one(p0, q0, dp0, dq0, rng.randrange(n0)))
        fams["exponent"].append(one(p0, q0, rexp(), rexp(), c0))
    infl = {name: {"max_delta_cycles": float(max(abs(c - base[0]) for c, _ in rs)),
                   "traces_differing": float(sum(t != base[1] for _, t in rs))} for name, rs in fams.items()}
    every = [c for _, c, _ in runs] + [c for _, c, _ in chosen_runs] + [base[0]] + \
        [c for rs in fams.values() for c, _ in rs]
    traces = [t for _, _, t in runs] + [t for _, _, t in chosen_runs] + [t for rs in fams.values() for _, t in rs]
    const = min(every) == max(every) == ref.cycles and all(t == base[1] for t in traces)
    drivers = [name for name, d in infl.items() if d["max_delta_cycles"] or d["traces_differing"]]
    if not const and not drivers:
        drivers = ["the data"]
    rows = [{"case": lab, "cycles": c, "trace_equal": t == base[1]} for lab, c, t in chosen_runs]
    what = f"mm_pke RSA-CRT (P={b.pes}, w={b.w}, d={b.d}" + (", base blinding" if blind else "") + \
        (f", +{exp_blind_bits} exponent bits" if exp_blind_bits else "") + ")"
    return LeakReport(what, bits, "model", samples, summary([c for _, c, _ in runs]), rows, infl, const, drivers)


# --------------------------------------------------------------------------
# Program audits: cycles and dispatch traces of runs of one program


def audit_runs(what: str, width: int, run, random_cases: list, chosen_cases: list[tuple[str, object]], base,
               families: dict[str, list], ref_cycles: int | None = None, sim: str = "model") -> LeakReport:
    """The verdict of a program audit: ``run(case) -> (cycles, trace)`` is
    called for every random case, every chosen (label, case), the ``base``
    case and every case of each one-factor family (cases that differ from
    ``base`` in one input only).  Constant time: every cycle count equal
    (and equal to ``ref_cycles``, the cycles-only count, when given) and
    every trace equal to the base's.  A family's influence is its largest
    |Δ cycles| from the base and the number of its runs whose trace differs;
    the drivers are the families with either."""
    runs = [run(c) for c in random_cases]
    chosen_runs = [(lab, *run(c)) for lab, c in chosen_cases]
    b_cyc, b_tr = run(base)
    fam_runs = {name: [run(c) for c in cs] for name, cs in families.items()}
    infl = {name: {"max_delta_cycles": float(max((abs(c - b_cyc) for c, _ in rs), default=0)),
                   "traces_differing": float(sum(t != b_tr for _, t in rs))} for name, rs in fam_runs.items()}
    every = [c for c, _ in runs] + [c for _, c, _ in chosen_runs] + [b_cyc] + \
        [c for rs in fam_runs.values() for c, _ in rs]
    traces = [t for _, t in runs] + [t for _, _, t in chosen_runs] + [t for rs in fam_runs.values() for _, t in rs]
    const = min(every) == max(every) and (ref_cycles is None or ref_cycles == b_cyc) and \
        all(t == b_tr for t in traces)
    drivers = [name for name, d in infl.items() if d["max_delta_cycles"] or d["traces_differing"]]
    if not const and not drivers:
        drivers = ["the data"]
    rows = [{"case": lab, "cycles": c, "trace_equal": t == b_tr} for lab, c, t in chosen_runs]
    return LeakReport(what, width, sim, len(random_cases), summary([c for c, _ in runs] or [b_cyc]), rows, infl,
                      const, drivers, runs=len(every), trace_instructions=len(b_tr))


# --------------------------------------------------------------------------
# The public-key engine mm_pke: the ECC programs

#: The ECC operations the audit runs: k·P (ECDH's), u1·G + u2·Q (ECDSA
#: verification's) and k·G with the scalar split over the halves (signing's)
ECC_OPS = ("k·P", "u1·G + u2·Q", "k·G")


def ecc_chosen_scalars(n: int, bits: int) -> list[tuple[str, int]]:
    """(label, scalar below 2^bits): small, around n, 0-heavy, 1-heavy and
    patterned scalars, and zero windows at either end and in the middle."""
    top = (1 << bits) - 1
    v = -(-bits // 4)  # windows
    mid = 4 * (v // 2)
    half = bits // 2
    cases = [("0", 0), ("1", 1), ("2", 2), ("15 (one window, 15)", 15), ("16 (windows 1, 0)", 16),
             ("small: 2^16 - 1", (1 << 16) - 1), ("n - 1", n - 1), ("n - 2", n - 2),
             ("n (the point at infinity)", n), ("(n - 1) / 2", (n - 1) // 2),
             ("2^bits - 1 (1-heavy: every window 15)", top), ("2^(bits-1) (0-heavy: one bit)", 1 << (bits - 1)),
             ("0x11..1 (0-heavy: every window 1)", int("1" * v, 16) & top),
             ("0x55..5 (alternating bits)", int("5" * v, 16) & top), ("0xAA..A (alternating bits)", int("A" * v, 16) & top),
             ("2^bits - 1 with one window 0 in the middle", top ^ (0xF << mid)),
             ("low half 0, high half 1", top ^ ((1 << half) - 1)), ("low half 1, high half 0", (1 << half) - 1)]
    seen, out = set(), []
    for lab, k in cases:
        if 0 <= k <= top and k not in seen:
            seen.add(k)
            out.append((lab, k))
    return out


def audit_pke_ecc(curve, samples: int = 20, seed: int = 1, pes: int | None = None, mod_alu: bool = False,
                  ops=ECC_OPS, sim: str = "model", rtl_samples: int = 3, runner=None) -> list[LeakReport]:
    """Timing audit of the engine's ECC programs (``montmul.apps.ecc.engine``)
    for ``curve`` (a name or a :class:`~montmul.apps.ecc.curves.Curve`):
    one report per operation of ``ops``.

    k·P: ``samples`` random scalars below 2^bits(n) on random points, the
    chosen scalars of :func:`ecc_chosen_scalars` on one point, and two
    one-factor families around a base (another scalar, another point).
    u1·G + u2·Q: random (u1, u2, Q), each chosen scalar as u1 and as u2 and
    both equal, and three families (u1, u2, Q).  k·G (``engine.base_mult``:
    the low and high windows of k on the two halves, then their sum):
    random and chosen scalars, one family.  Every run computes the point on
    the engine's cycle-exact model (``pke.run``; checked against the affine
    reference: RuntimeError if it differs) and records its cycles and
    dispatch trace (every executed instruction: pc, text, issue cycle,
    cycles); the verdict is :func:`audit_runs`'s, with the cycles-only count
    as the reference.  ``sim`` "icarus" or "verilator": also ``rtl_samples``
    runs through mm_pke's RTL (``pke_sim.simulate``, one build): the scalars
    n − 1, 2^bits − 1, 2^(bits−1), 0, 1, n in this order (for u1·G + u2·Q
    pairs of them), then the random cases; the cycles, the dispatches (cycle
    and pc of every main-timeline instruction, mm_pke's debug port) and the
    point must equal the model's, or the verdict is not constant time.
    ``runner``: the engine's hook (``run_scalar_mult``'s), to audit another
    runner of the programs."""
    import random

    from .ecc import engine as E
    from .ecc.curves import affine_add_public, affine_mul_public, get

    c = get(curve)
    for op in ops:
        if op not in ECC_OPS:
            raise ValueError(f"unknown ECC operation {op!r}; use one of {', '.join(ECC_OPS)}")
    if sim not in ("model", "icarus", "verilator"):
        raise ValueError(f"unknown simulator {sim!r}; use model, icarus or verilator")
    rng = random.Random(seed)
    nb = c.n.bit_length()
    arr = {"mod_alu": mod_alu, **({} if pes is None else {"pes": pes})}
    G = (c.gx, c.gy)
    V, G1 = E.split_base(c)
    mask = (1 << (4 * V)) - 1

    def rpoint():
        return affine_mul_public(c, rng.randrange(1, c.n), G)

    def rscalar():
        return rng.randrange(1 << nb)

    def check(got, want, label):
        if got != want:
            raise RuntimeError(f"the engine's model computes a wrong point for {c.name} {label}")

    def mul(k, P):
        return affine_mul_public(c, k, P)

    #: per operation: case -> (the halves' points, their scalars, the point to expect)
    inputs = {
        "k·P": lambda k, P: ([P, P], [k, k], mul(k, P)),
        "u1·G + u2·Q": lambda u1, u2, Q: ([G, Q], [u1, u2], affine_add_public(c, mul(u1, G), mul(u2, Q))),
        "k·G": lambda k: ([G, G1], [k & mask, k >> (4 * V)], mul(k, G)),
    }
    chosen_k = ecc_chosen_scalars(c.n, nb)
    top = (1 << nb) - 1
    rtl_k = [("n - 1", c.n - 1), ("2^bits - 1", top), ("2^(bits-1)", 1 << (nb - 1)), ("0", 0), ("1", 1), ("n", c.n)]
    nf = max(3, samples // 4)
    reports = []
    for op in ops:
        if op == "k·P":
            def one(case):
                k, P = case
                r = E.run_scalar_mult(c, k, P, runner=runner, **arr)
                check(r.point, inputs[op](*case)[2], f"k·P, k = {k:#x}")
                return r.cycles, r.trace

            P0 = rpoint()
            base = (rscalar(), P0)
            rand = [(rscalar(), rpoint()) for _ in range(samples)]
            chosen = [(f"k = {lab}", (k, P0)) for lab, k in chosen_k]
            fams = {"scalar": [(rscalar(), P0) for _ in range(nf)], "point": [(base[0], rpoint()) for _ in range(nf)]}
            ref = E.run_scalar_mult(c, 0, G, compute=False, **arr).cycles
            eb = E.EccBuild(c, E.scalar_windows(nb), False, **arr)
            picks = [(f"k = {lab}", (k, P0)) for lab, k in rtl_k]
        elif op == "u1·G + u2·Q":
            def one(case):
                u1, u2, Q = case
                r = E.run_double(c, u1, G, u2, Q, nb, runner=runner, **arr)
                check(r.point, inputs[op](*case)[2], f"u1·G + u2·Q, u1 = {u1:#x}, u2 = {u2:#x}")
                return r.cycles, r.trace

            Q0 = rpoint()
            base = (rscalar(), rscalar(), Q0)
            rand = [(rscalar(), rscalar(), rpoint()) for _ in range(samples)]
            chosen = [(f"u1 = {lab}", (k, base[1], Q0)) for lab, k in chosen_k] + \
                [(f"u2 = {lab}", (base[0], k, Q0)) for lab, k in chosen_k] + \
                [(f"u1 = u2 = {lab}", (k, k, Q0)) for lab, k in chosen_k]
            fams = {"u1": [(rscalar(), base[1], Q0) for _ in range(nf)],
                    "u2": [(base[0], rscalar(), Q0) for _ in range(nf)],
                    "point Q": [(base[0], base[1], rpoint()) for _ in range(nf)]}
            ref = E.run_double(c, 0, G, 0, G, nb, compute=False, **arr).cycles
            eb = E.EccBuild(c, E.scalar_windows(nb), True, **arr)
            picks = [(f"u1 = {rtl_k[i][0]}, u2 = {rtl_k[j][0]}", (rtl_k[i][1], rtl_k[j][1], Q0))
                     for i, j in ((0, 0), (1, 3), (3, 1), (2, 4), (4, 5), (5, 2))]
        else:  # k·G
            def one(case):
                (k,) = case
                r = E.base_mult(c, k, runner=runner, **arr)
                check(r.point, inputs[op](*case)[2], f"k·G, k = {k:#x}")
                return r.cycles, r.trace

            base = (rscalar(),)
            rand = [(rscalar(),) for _ in range(samples)]
            chosen = [(f"k = {lab}", (k,)) for lab, k in chosen_k]
            fams = {"scalar": [(rscalar(),) for _ in range(nf)]}
            ref = E.base_mult(c, 0, compute=False, **arr).cycles
            eb = E.EccBuild(c, V, True, **arr)
            picks = [(f"k = {lab}", (k,)) for lab, k in rtl_k]
        b = eb.pb
        what = f"mm_pke ECC {op} on {c.name} (P={b.pes}, w={b.w}, d={b.d}" + (", ModAlu" if mod_alu else "") + ")"
        rep = audit_runs(what, c.p.bit_length(), one, rand, chosen, base, fams, ref)
        if sim != "model" and rtl_samples:
            picks += [(f"random {i}", case) for i, case in enumerate(rand)]
            rep.rtl = _ecc_on_rtl(eb, [(lab, *inputs[op](*case)) for lab, case in picks[:rtl_samples]], sim)
            rep.sim = f"model + {sim}"
            ok = all(r["cycles"] == rep.random["min"] and r["cycles_equal"] and r["trace_equal"] and r["result_ok"]
                     for r in rep.rtl)
            if not ok:
                rep.constant_time = False
                rep.drivers = rep.drivers or ["the RTL"]
        reports.append(rep)
    return reports


def _ecc_on_rtl(eb, cases: list[tuple], sim: str) -> list[dict]:
    """Run ``eb``'s program for each (label, points, scalars, expected point)
    through mm_pke's RTL in one simulator process; a row per case."""
    from ..flows.sim import pke_sim
    from ..models import pke
    from .ecc import engine as E

    ep = E.program(eb)
    b = eb.pb
    words = 1 << max(9, (len(ep.program) - 1).bit_length())
    addrs = sorted({a for addr, size in ep.regions.values() for a in range(addr, addr + size)})
    reqs, wants = [], []
    for _, pts, ks, want_pt in cases:
        banks, kk = E.images(ep, pts, ks)
        res = pke.run(ep.program, [x[:] for x in banks], eb.machine(kk))
        want_disp = [(issue, pc) for pc, text, issue, _ in res.trace if not text.startswith("PROD")]
        reads = [(0, ep.regions[r][0], b.m) for r in ("XOUT", "YOUT")]
        reqs.append(pke_sim.Request(pke.encode(ep.program), banks, reads, addrs, trace=True))
        wants.append((res.cycles, want_disp, want_pt))
    resps = pke_sim.simulate(b, reqs, sim=sim, prog_words=words)
    rows = []
    for (lab, *_), resp, (cyc, disp, pt) in zip(cases, resps, wants):
        x, y = (pke_sim.value(w_, b.w) for w_ in resp.words)
        got = None if (x, y) == (0, 0) else (x, y)
        rows.append({"case": lab, "sim": sim, "cycles": resp.cycles, "cycles_equal": resp.cycles == cyc and not resp.err,
                     "trace_equal": list(resp.dispatches) == disp, "dispatches": len(resp.dispatches),
                     "result_ok": got == pt})
    return rows
