# SPDX-License-Identifier: Apache-2.0
"""Modular exponentiation on any registered core, on the model or the RTL.

:func:`modexp` runs a list of (base, exp, n) jobs through the engine
``mm_modexp`` (``docs/modexp.md``): on its cycle-exact model
(:mod:`montmul.engine`) or, with ``sim="icarus"|"verilator"``, in RTL
simulation (:mod:`montmul.flows.sim.modexp_sim`).  The model's entry points are
re-exported here for users: :func:`modexp_model`, :func:`r2_mod`,
:class:`ModexpResult`.
"""

from __future__ import annotations

from ..engine import ModexpResult, default_width, modexp_model, r2_mod
from ..flows.sim import modexp_sim

__all__ = ["SIMS", "ModexpResult", "modexp", "modexp_model", "r2_mod"]

SIMS = ("model", "icarus", "verilator")


def modexp(
    jobs: list[tuple[int, int, int]],
    *,
    core: str = "scs_new",
    width: int | None = None,
    sim: str = "model",
    ladder: bool = False,
    params: dict[str, int] | None = None,
    procs: int = 1,
) -> list[ModexpResult]:
    """Run every (base, exp, n) of ``jobs`` on the model or the RTL.

    width=None: the largest modulus' bit length (at least 3), one build for
    all jobs.  The simulated path builds the engine once per (core, width,
    sim, params) and returns the RTL's results and cycle counts (compare them
    with :func:`modexp_model`); ``procs`` shards the jobs over parallel
    simulator processes.
    """
    if sim not in SIMS:
        raise ValueError(f"unknown sim {sim!r}; use one of {', '.join(SIMS)}")
    if not jobs:
        return []
    if width is None:
        width = max(default_width(n) for _, _, n in jobs)
    if sim == "model":
        return [
            modexp_model(b, e, n, core=core, width=width, params=params, ladder=ladder) for b, e, n in jobs
        ]
    return modexp_sim.simulate(jobs, core=core, width=width, sim=sim, ladder=ladder, params=params, procs=procs)
