# SPDX-License-Identifier: Apache-2.0
"""Build mm_modexp on a registered core and run exponentiations on it.

Safe to import outside a simulation (like :mod:`montmul.flows.sim.runner`, which
does the building): the engine on core C is described to the runner as an
:class:`Engine` whose RTL is C's files, the generated
``mm_modexp_core`` wrapper (``build/modexp/<core>_<params>/``) and
``rtl/modexp/mm_modexp.sv``, with the single HDL parameter ``Width``.  So one
build directory per (simulator, core, core parameters, width), shared by all
jobs, and the runner's locking and up-to-date checks apply unchanged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ... import cores, resources
from ...engine import (
    ENGINE_RTL, LEN_CHECK_RTL, MUL_OVERHEAD, REDUCE_CYCLES, ModexpResult, check_ports, core_hdl_params,
    default_exp_len, r2_mod, write_core_wrapper,
)
from . import runner


def wrapper_root() -> Path:
    """Generated core wrappers, one folder per (core, core parameters)."""
    return resources.build_root() / "modexp"


@dataclass(frozen=True)
class Engine:
    """mm_modexp (or a wrapper around it, ``top``) on one core, as the runner
    builds it: the core's files, the generated wrapper, the engine; the
    single HDL parameter ``Width``."""

    name: str
    rtl: tuple[str, ...]  #: under rtl/ (the wrapper's path is absolute)
    top: str = "mm_modexp"

    def sources(self) -> list[Path]:
        rtl = resources.rtl_dir()
        return [rtl / f for f in self.rtl]

    def includes(self) -> list[Path]:
        return [resources.rtl_dir() / "common"]

    def hdl_params(self, width: int, **given: int) -> dict[str, int]:
        cores.WIDTH.check("Width", width)
        if given:
            raise ValueError(f"{self.top} has no parameter {', '.join(sorted(given))}")
        return {"Width": width}


def engine(core: str, params: dict[str, int] | None = None) -> Engine:
    """The engine on ``core`` as a buildable unit (writes its wrapper)."""
    c = cores.get(core)
    fixed = core_hdl_params(core, params)
    name = f"modexp_{c.name}" + (f"_{runner.param_tag(fixed)}" if fixed else "")
    wrapper = write_core_wrapper(wrapper_root() / name / "mm_modexp_core.sv", core, params)
    return Engine(name, c.rtl + (str(wrapper), LEN_CHECK_RTL, ENGINE_RTL))


def timeout_cycles(core: str, width: int, params: dict[str, int] | None = None) -> int:
    """A generous bound on one exponentiation's latency (for hang detection):
    the most products (ladder, exp_len = Width) at the core's worst case."""
    c = cores.get(core)
    bound = c.bound(width, params)
    mults = 3 + 2 * width + 1
    return 2 * (mults * (bound + MUL_OVERHEAD) + 2 * REDUCE_CYCLES) + 100


def env(core: str, width: int, params: dict[str, int] | None = None) -> dict[str, str]:
    """Environment for cocotb modules running on the engine: the real core
    (for its model), its HDL parameters, and the hang timeout."""
    c = cores.get(core)
    return {
        "MONTMUL_CORE": c.name,
        "MONTMUL_PARAMS": json.dumps(c.hdl_params(width, **(params or {}))),
        "MONTMUL_MODEXP_TIMEOUT": str(timeout_cycles(core, width, params)),
    }


def build(core: str, sim: str, width: int, params: dict[str, int] | None = None, waves: bool = False) -> Path:
    return runner.build(engine(core, params), sim, width, waves=waves)


def run(
    core: str,
    sim: str,
    width: int,
    test_module: str,
    test_dir: Path,
    params: dict[str, int] | None = None,
    extra_env: dict[str, str] | None = None,
    tag: str = "",
    build_first: bool = True,
    testcase: str | None = None,
) -> Path:
    """Build the engine on ``core`` and run the cocotb module ``test_module``."""
    e = env(core, width, params)
    e.update(extra_env or {})
    return runner.run(
        engine(core, params),
        sim,
        width,
        test_module=test_module,
        test_dir=test_dir,
        extra_env=e,
        tag=tag,
        build_first=build_first,
        testcase=testcase,
    )


def simulate(
    jobs: list[tuple[int, int, int]],
    *,
    core: str = "scs_new",
    width: int,
    sim: str = "verilator",
    ladder: bool = False,
    params: dict[str, int] | None = None,
    procs: int = 1,
) -> list[ModexpResult]:
    """Run every (base, exp, n) on the RTL; R^2 from :func:`r2_mod`, exp_len
    the exponent's bit length (at least 1).  ``mults`` counts the products the
    engine handed to its core (counted at the core's handshake)."""
    reqs = []
    for base, exp, n in jobs:
        t = default_exp_len(exp)
        r2 = r2_mod(n, core, width, params) if n >= 1 else 0
        check_ports(base, exp, n, r2, t, width)
        reqs.append([base, exp, t, n, r2, int(ladder)])
    rows = runner.run_batch(engine(core, params), sim, width, "modexp", reqs, procs,
                            extra_env=env(core, width, params))
    return [ModexpResult(*row) for row in rows]
