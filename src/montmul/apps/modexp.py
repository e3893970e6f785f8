# SPDX-License-Identifier: Apache-2.0
"""Modular exponentiation on any registered core, on the model or the RTL:
the one place that chooses between them, for both engines.

:func:`modexp` runs (base, exp, n) jobs through ``mm_modexp`` and :func:`crt`
runs RSA-CRT requests through ``mm_modexp_crt`` (``docs/modexp.md``): on
their cycle-exact models (:mod:`montmul.engine`) or, with
``sim="icarus"|"verilator"``, in RTL simulation (:mod:`montmul.flows.sim`),
where every result and cycle count is compared with the model's
(:class:`ModelMismatch` if one differs; ``check=False`` skips it).  The
model's entry points are re-exported here for users: :func:`modexp_model`,
:func:`r2_mod`, :class:`ModexpResult`.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace

from .. import cores, progress
from ..engine import (
    CrtRequest, CrtResult, ModexpResult, crt_engine_model, crt_request, default_width, modexp_model, r2_mod,
)
from ..flows.sim import crt_sim, modexp_sim

__all__ = ["SIMS", "CrtRequest", "CrtResult", "ModelMismatch", "ModexpResult", "crt", "crt_request", "modexp",
           "modexp_model", "r2_mod"]

SIMS = ("model", "icarus", "verilator")


class ModelMismatch(RuntimeError):
    """An RTL result or cycle count differs from the engine's model."""


def _check_sim(sim: str) -> None:
    if sim not in SIMS:
        raise ValueError(f"unknown sim {sim!r}; use one of {', '.join(SIMS)}")


def _compare(sim: str, got, want, fields: tuple[str, ...], what: list[str]) -> None:
    """ModelMismatch naming the first job whose ``fields`` differ."""
    for g, w, name in zip(got, want, what):
        diff = [f"{f} {getattr(g, f)} vs {getattr(w, f)}" for f in fields if getattr(g, f) != getattr(w, f)]
        if diff:
            raise ModelMismatch(f"{name}: RTL ({sim}) disagrees with the model: {', '.join(diff)}")


@contextlib.contextmanager
def _modelling(count: int, what: str, core: cores.Core | str, width: int):
    """Progress (montmul.progress) and the ``model`` phase's wall time while
    the cycle-exact model runs ``count`` items: an RSA-2048 signature models
    for half a minute, also after its simulation, to check it."""
    name = core if isinstance(core, str) else core.name
    with progress.phase("model"), progress.Bar(count, f"model: {what} on {name}, width {width}", unit=what) as bar:
        yield bar


def modexp(
    jobs: list[tuple[int, int, int]],
    *,
    core: cores.Core | str = "scs_new",
    width: int | None = None,
    sim: str = "model",
    ladder: bool = False,
    params: dict[str, int] | None = None,
    procs: int = 1,
    check: bool = True,
) -> list[ModexpResult]:
    """Run every (base, exp, n) of ``jobs`` on the model or the RTL.

    width=None: the largest modulus' bit length (at least 3), one build for
    all jobs.  The simulated path builds the engine once per (core, width,
    sim, params), returns the RTL's results and cycle counts, and (``check``)
    compares each with :func:`modexp_model`; ``procs`` shards the jobs over
    parallel simulator processes.
    """
    _check_sim(sim)
    if not jobs:
        return []
    if width is None:
        width = max(default_width(n) for _, _, n in jobs)

    def model() -> list[ModexpResult]:
        out = []
        with _modelling(len(jobs), "exponentiations", core, width) as bar:
            for b, e, n in jobs:
                out.append(modexp_model(b, e, n, core=core, width=width, params=params, ladder=ladder))
                bar.update()
        return out

    if sim == "model":
        return model()
    res = modexp_sim.simulate(jobs, core=core, width=width, sim=sim, ladder=ladder, params=params, procs=procs)
    if check:
        _compare(sim, res, model(), ("result", "err", "cycles", "mults"),
                 [f"{b:#x}^{e:#x} mod {n:#x}" for b, e, n in jobs])
    return res


def crt(
    reqs: list[CrtRequest],
    *,
    core: cores.Core | str = "scs_new",
    width: int,
    exp_width: int | None = None,
    sim: str = "model",
    ladder: bool = False,
    params: dict[str, int] | None = None,
    procs: int = 1,
    check: bool = True,
) -> list[CrtResult]:
    """Run every RSA-CRT request (:func:`crt_request`) on the CRT engine's
    model or its RTL, built once for (core, width, exp_width, sim, params).
    The simulated path (``check``) compares every result and cycle count
    with :func:`montmul.engine.crt_engine_model` and takes the product
    counts from it (the simulation does not count them; without ``check``
    they are 0)."""
    _check_sim(sim)
    if not reqs:
        return []

    def model() -> list[CrtResult]:
        out = []
        with _modelling(len(reqs), "CRT requests", core, width) as bar:
            for r in reqs:
                out.append(crt_engine_model(r, core=core, width=width, exp_width=exp_width, params=params,
                                            ladder=ladder))
                bar.update()
        return out

    if sim == "model":
        return model()
    res = crt_sim.simulate(reqs, core=core, width=width, exp_width=exp_width, sim=sim, ladder=ladder,
                           params=params, procs=procs)
    if not check:
        return res
    want = model()
    _compare(sim, res, want, ("mq", "h", "err", "cycles"), [f"CRT request {i}" for i in range(len(reqs))])
    return [replace(r, mults=w.mults) for r, w in zip(res, want)]
