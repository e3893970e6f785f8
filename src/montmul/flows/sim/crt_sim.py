# SPDX-License-Identifier: Apache-2.0
"""Build mm_modexp_crt (RSA-CRT in the engine, ``docs/modexp.md``) on a
registered core and run CRT requests on it, like :mod:`montmul.flows.sim.modexp_sim`
for mm_modexp: its design (:func:`montmul.design.build`, kind ``crt``); HDL
parameters ``Width`` (the primes) and ``ExpWidth`` (the exponent ports,
default ``Width``)."""

from __future__ import annotations

import json

from ... import cores, design
from ...engine import MUL_OVERHEAD, CrtRequest, CrtResult, check_crt_ports
from . import runner


def crt_engine(core: cores.Core | str, params: dict[str, int] | None = None) -> design.Design:
    """mm_modexp_crt on ``core`` as a buildable unit (writes its wrapper)."""
    return design.build("crt", core, params)


def timeout_cycles(core: cores.Core | str, width: int, exp_width: int, params: dict[str, int] | None = None) -> int:
    """A generous bound on one CRT request's latency (hang detection): both
    threads' products one after the other at the core's worst case, after
    StPre's longest exponent alignment."""
    bound = cores.resolve(core).bound(width, params)
    mults = 2 * (5 + 2 * exp_width + 1) + 2
    return 2 * mults * (bound + MUL_OVERHEAD) + exp_width + 200


def simulate(
    reqs: list[CrtRequest],
    *,
    core: cores.Core | str = "scs_new",
    width: int,
    exp_width: int | None = None,
    sim: str = "verilator",
    ladder: bool = False,
    params: dict[str, int] | None = None,
    procs: int = 1,
) -> list[CrtResult]:
    """Run every request on the RTL; ``mults`` of the results is 0 (not
    counted in simulation: compare results and cycles with the model)."""
    exp_width = width if exp_width is None else exp_width
    for r in reqs:
        check_crt_ports(r, width, exp_width)
    c = cores.resolve(core)
    env = {
        "MONTMUL_CORE": c.name,
        "MONTMUL_PARAMS": json.dumps(c.hdl_params(width, **(params or {}))),
        "MONTMUL_MODEXP_TIMEOUT": str(timeout_cycles(core, width, exp_width, params)),
    }
    rows = runner.run_batch(crt_engine(core, params), sim, width, "crt", [r.ports() + [int(ladder)] for r in reqs],
                            procs, params={"ExpWidth": exp_width}, extra_env=env)
    return [CrtResult(mq, h, err, cycles, 0) for mq, h, err, cycles in rows]
