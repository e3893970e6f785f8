# SPDX-License-Identifier: Apache-2.0
"""Build mm_modexp_crt (RSA-CRT in the engine, ``docs/modexp.md``) on a
registered core and run CRT requests on it, like :mod:`montmul.flows.sim.modexp_sim`
for mm_modexp: the core's files, the generated ``mm_modexp_core`` wrapper,
``rtl/modexp/mm_modexp_crt.sv``; HDL parameters ``Width`` (the primes) and
``ExpWidth`` (the exponent ports, default ``Width``)."""

from __future__ import annotations

from dataclasses import dataclass

from ... import cores
from ...engine import (
    CRT_RTL, LEN_CHECK_RTL, MUL_OVERHEAD, CrtRequest, CrtResult, check_crt_ports, core_hdl_params,
    write_core_wrapper,
)
from . import runner
from .modexp_sim import Engine, wrapper_root


@dataclass(frozen=True)
class CrtEngine(Engine):
    top: str = "mm_modexp_crt"

    def hdl_params(self, width: int, **given: int) -> dict[str, int]:
        cores.WIDTH.check("Width", width)
        exp_width = given.pop("ExpWidth", width)
        if given:
            raise ValueError(f"{self.top} has no parameter {', '.join(sorted(given))}")
        if not width <= exp_width <= 16384:
            raise ValueError(f"ExpWidth={exp_width} outside [{width}, 16384]")
        return {"Width": width, "ExpWidth": exp_width}


def crt_engine(core: str, params: dict[str, int] | None = None) -> CrtEngine:
    """mm_modexp_crt on ``core`` as a buildable unit (writes its wrapper)."""
    c = cores.get(core)
    fixed = core_hdl_params(core, params)
    tag = f"modexp_{c.name}" + (f"_{runner.param_tag(fixed)}" if fixed else "")
    wrapper = write_core_wrapper(wrapper_root() / tag / "mm_modexp_core.sv", core, params)
    return CrtEngine("crt_" + tag, c.rtl + (str(wrapper), LEN_CHECK_RTL, CRT_RTL))


def timeout_cycles(core: str, width: int, exp_width: int, params: dict[str, int] | None = None) -> int:
    """A generous bound on one CRT request's latency (hang detection): both
    threads' products one after the other at the core's worst case, after
    StPre's longest exponent alignment."""
    bound = cores.get(core).bound(width, params)
    mults = 2 * (5 + 2 * exp_width + 1) + 2
    return 2 * mults * (bound + MUL_OVERHEAD) + exp_width + 200


def simulate(
    reqs: list[CrtRequest],
    *,
    core: str = "scs_new",
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
    c = cores.get(core)
    env = {
        "MONTMUL_CORE": c.name,
        "MONTMUL_PARAMS": __import__("json").dumps(c.hdl_params(width, **(params or {}))),
        "MONTMUL_MODEXP_TIMEOUT": str(timeout_cycles(core, width, exp_width, params)),
    }
    rows = runner.run_batch(crt_engine(core, params), sim, width, "crt", [r.ports() + [int(ladder)] for r in reqs],
                            procs, params={"ExpWidth": exp_width}, extra_env=env)
    return [CrtResult(mq, h, err, cycles, 0) for mq, h, err, cycles in rows]
