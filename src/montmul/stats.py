# SPDX-License-Identifier: Apache-2.0
"""Cycle statistics over random inputs, measured in RTL simulation (or from
the models), shared by the CLI, the leak audit and the reports."""

from __future__ import annotations

import random
import statistics
import time

from . import cores, progress
from .sim.api import simulate


def random_vectors(k: int, samples: int, seed: int, modulus_bits: int | None = None) -> list[tuple[int, int, int]]:
    """Random odd moduli of exactly ``modulus_bits`` bits (default k; top bit
    set) with operands uniform in [0, N)."""
    bits = k if modulus_bits is None else modulus_bits
    if not 2 <= bits <= k:
        raise ValueError(f"modulus bits {bits} outside [2, {k}] (the core's width)")
    rng = random.Random(seed)
    out = []
    for _ in range(samples):
        n = rng.randrange(1 << (bits - 1), 1 << bits) | 1
        if n < 3:
            n = 3
        out.append((rng.randrange(n), rng.randrange(n), n))
    return out


def summary(xs: list[int]) -> dict[str, float]:
    if not xs:
        raise ValueError("no samples: the statistics need at least one")
    return {
        "avg": statistics.fmean(xs),
        "min": min(xs),
        "max": max(xs),
        "std": statistics.pstdev(xs) if len(xs) > 1 else 0.0,
    }


def measure(core, k: int, vectors, sim: str, jobs: int = 1, params=None):
    """Latency of every (a, b, n) in ``vectors``: from RTL simulation (checked
    result by result and cycle by cycle against the model; RuntimeError on any
    difference) or, with ``sim="model"``, from the model.

    Returns (cycles list, model results list, simulation seconds).
    """
    models = []
    with progress.phase("model"), progress.Bar(len(vectors), f"model: {core.name} width {k}", unit="mul") as bar:
        for a, b, n in vectors:
            models.append(core.run_model(a, b, n, k, params))
            bar.update()
    if sim == "model":
        return [m.cycles for m in models], models, 0.0
    t0 = time.monotonic()
    res = simulate(core, k, vectors, sim=sim, jobs=jobs, params=params)
    t_sim = time.monotonic() - t0
    bad = [(v, r, m) for v, r, m in zip(vectors, res, models) if r.err or r.s != m.result or r.cycles != m.cycles]
    if bad:
        v, r, m = bad[0]
        raise RuntimeError(
            f"{len(bad)} of {len(vectors)} RTL results disagree with the model; first: "
            f"a={v[0]:#x} b={v[1]:#x} n={v[2]:#x} rtl=({r.s:#x}, err {r.err}, {r.cycles} cycles) "
            f"model=({m.result:#x}, {m.cycles} cycles)"
        )
    return [r.cycles for r in res], models, t_sim


def cycle_stats(core, k: int, samples: int, seed: int, sim: str, jobs: int = 1, params=None,
                modulus_bits: int | None = None) -> dict:
    """Random-input cycle statistics, measured, with the model's beside them.

    ``kernel_avg``: the cycles a core's paper counts (the model's ``kernel``
    phase where the model has one, else the whole latency)."""
    vectors = random_vectors(k, samples, seed, modulus_bits)
    measured, models, t_sim = measure(core, k, vectors, sim, jobs, params)
    out = {"core": core.name, "width": k, "modulus_bits": modulus_bits or k, "samples": samples,
           "seed": seed, "sim": sim}
    out.update(summary(measured))
    ms = summary([m.cycles for m in models])
    out.update({"model_avg": ms["avg"], "model_min": ms["min"], "model_max": ms["max"]})
    phases: dict[str, float] = {}
    for m in models:
        for key, v in m.breakdown.items():
            phases[key] = phases.get(key, 0) + v
    out["model_breakdown_avg"] = {key: v / samples for key, v in phases.items()}
    out["kernel_avg"] = out["model_breakdown_avg"].get("kernel", out["avg"])
    out["seconds_sim"] = round(t_sim, 2)
    return out


def model_cycles(core_name: str, width: int, samples: int = 1000, seed: int = 1, params: dict | None = None) -> float:
    """Average cycles of one multiplication from the core's cycle model over
    ``samples`` random operands."""
    return cycle_stats(cores.lookup(core_name), width, samples, seed, "model", params=params)["avg"]
