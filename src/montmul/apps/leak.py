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
    for c in ordered:
        lines.append(f"    {c['cycles']:7d}  {c['case']}")
    lines.append("  influence (one factor varied around a base run):" if rep.core.startswith("mm_pke") else
                 "  bit influence (mean |delta cycles| when one bit flips):")
    for op, d in rep.influence.items():
        vals = ", ".join(f"bit {p}: {v:.2f}" if p.isdigit() else f"{p.replace('_', ' ')}: {v:g}"
                         for p, v in d.items())
        lines.append(f"    {op}: {vals}")
    if rep.constant_time and rep.core.startswith("mm_pke"):
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
