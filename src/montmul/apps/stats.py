# SPDX-License-Identifier: Apache-2.0
"""Cycle statistics over random inputs, measured in RTL simulation (or from
the models), shared by the CLI, the leak audit and the reports; the benches'
software timing (:func:`median_ms`, :func:`cpu_name`)."""

from __future__ import annotations

import platform
import random
import statistics
import time
from pathlib import Path

from .. import cores, progress
from ..flows.sim import runner
from ..flows.sim.api import simulate


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


def _summaries(core, k: int, modulus_bits: int | None, seed: int, sim: str, measured: list[int], models) -> dict:
    """The run's description, the measured latencies' summary and the
    model's beside it (average, extremes, phases)."""
    out = {"core": core.name, "width": k, "modulus_bits": modulus_bits or k, "samples": len(measured),
           "seed": seed, "sim": sim}
    out.update(summary(measured))
    ms = summary([m.cycles for m in models])
    out.update({"model_avg": ms["avg"], "model_min": ms["min"], "model_max": ms["max"]})
    phases: dict[str, float] = {}
    for m in models:
        for key, v in m.breakdown.items():
            phases[key] = phases.get(key, 0) + v
    out["model_breakdown_avg"] = {key: v / len(models) for key, v in phases.items()}
    return out


def cycle_stats(core, k: int, samples: int, seed: int, sim: str, jobs: int = 1, params=None,
                modulus_bits: int | None = None) -> dict:
    """Random-input cycle statistics, measured, with the model's beside them.

    ``kernel_avg``: the cycles a core's paper counts (the model's ``kernel``
    phase where the model has one, else the whole latency)."""
    vectors = random_vectors(k, samples, seed, modulus_bits)
    measured, models, t_sim = measure(core, k, vectors, sim, jobs, params)
    out = _summaries(core, k, modulus_bits, seed, sim, measured, models)
    out["kernel_avg"] = out["model_breakdown_avg"].get("kernel", out["avg"])
    out["seconds_sim"] = round(t_sim, 2)
    return out


def batch_stats(core, k: int, batches: int, seed: int, sim: str, jobs: int = 1, params=None,
                modulus_bits: int | None = None) -> dict:
    """Cycle statistics of a core that keeps ``size`` = ``core.in_flight``
    products in flight: ``batches`` groups of ``size`` random requests (each
    with its own modulus), presented back to back on an idle core and taken
    as soon as presented.  Measured in RTL simulation (every result, accepting
    edge and response edge checked against the model: request i accepted i
    edges after the first, its response presented the model's latency after
    its accepting edge; RuntimeError on any difference) or, with
    ``sim="model"``, from the model alone.

    Per batch: ``cycles`` from the first accepting edge to the edge that
    presents the last response; ``kernel``, the batch as the paper counts it,
    = the measured spread of the accepting edges + the model's ``kernel``
    phase of the last request (its whole latency where the model has no such
    phase).  The per-product keys (avg, min, ...) are latencies, as in
    :func:`cycle_stats`."""
    size = core.in_flight(core.hdl_params(k, **(params or {})))
    flat = random_vectors(k, batches * size, seed, modulus_bits)
    groups = [flat[i * size:(i + 1) * size] for i in range(batches)]
    with progress.phase("model"), progress.Bar(len(flat), f"model: {core.name} width {k}", unit="mul") as bar:
        models = []
        for g in groups:
            models.append([core.run_model(a, b, n, k, params) for a, b, n in g])
            bar.update(len(g))
    t0 = time.monotonic()
    if sim == "model":
        rows = [[(m.result, 0, i, i + m.cycles) for i, m in enumerate(ms)] for ms in models]
    else:
        raw = runner.run_batch(core, sim, k, "core_group", [[x for v in g for x in v] for g in groups],
                               jobs, params)
        rows = [[tuple(r[4 * i:4 * i + 4]) for i in range(size)] for r in raw]
    t_sim = time.monotonic() - t0
    latencies, cycles, kernels = [], [], []
    for g, ms, row in zip(groups, models, rows):
        t_first = row[0][2]
        for i, ((a, b, n), m, (s, err, t_acc, t_out)) in enumerate(zip(g, ms, row)):
            if err or s != m.result or t_acc != t_first + i or t_out - t_acc != m.cycles:
                raise RuntimeError(
                    f"batch request {i} (a={a:#x} b={b:#x} n={n:#x}): rtl=({s:#x}, err {err}, accepted "
                    f"{t_acc - t_first} edges after the first, latency {t_out - t_acc}) model=({m.result:#x}, "
                    f"accepted {i} edges after the first, latency {m.cycles})")
            latencies.append(t_out - t_acc)
        cycles.append(row[-1][3] - t_first)
        kernels.append(row[-1][2] - t_first + ms[-1].breakdown.get("kernel", ms[-1].cycles))
    out = _summaries(core, k, modulus_bits, seed, sim, latencies, [m for ms in models for m in ms])
    bs = summary(cycles)
    out["batch"] = {"size": size, "count": batches, "avg": bs["avg"], "min": bs["min"], "max": bs["max"],
                    "kernel_avg": statistics.fmean(kernels)}
    out["kernel_avg"] = out["batch"]["kernel_avg"]
    out["seconds_sim"] = round(t_sim, 2)
    return out


def model_cycles(core_name: str, width: int, samples: int = 1000, seed: int = 1, params: dict | None = None) -> float:
    """Average cycles of one multiplication from the core's cycle model over
    ``samples`` random operands."""
    return cycle_stats(cores.lookup(core_name), width, samples, seed, "model", params=params)["avg"]


def median_ms(fn, reps: int) -> float:
    """The median wall time of ``reps`` calls of ``fn`` in milliseconds (after one call to warm up)."""
    fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e3


def cpu_name() -> str:
    """This machine's CPU model (/proc/cpuinfo), else what ``platform`` knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()
