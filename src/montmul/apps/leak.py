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
"""

from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass, field

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
    lines.append("  bit influence (mean |delta cycles| when one bit flips):")
    for op, d in rep.influence.items():
        vals = ", ".join(f"bit {p}: {v:.2f}" for p, v in d.items())
        lines.append(f"    {op}: {vals}")
    if rep.constant_time:
        lines.append("  verdict: constant time (every measured latency is equal)")
    else:
        lines.append(f"  verdict: DATA-DEPENDENT timing; driven by {', '.join(rep.drivers) or 'the data'}")
    return "\n".join(lines)
