# SPDX-License-Identifier: Apache-2.0
"""Build mm_modexp on a registered core and run exponentiations on it.

Safe to import outside a simulation (like :mod:`montmul.flows.sim.runner`,
which does the building): the engine on core C is its design
(:func:`montmul.design.build`, kind ``modexp``: C's files, the generated
``mm_modexp_core`` wrapper, ``rtl/modexp/mm_modexp.sv``; the single HDL
parameter ``Width``).  So one build directory per (simulator, core, core
parameters, width), shared by all jobs, and the runner's locking and
up-to-date checks apply unchanged.
"""

from __future__ import annotations

import json

from ... import cores, design
from ...engine import MUL_OVERHEAD, REDUCE_CYCLES, ModexpResult, check_ports, default_exp_len, r2_mod
from . import runner


def engine(core: cores.Core | str, params: dict[str, int] | None = None) -> design.Design:
    """The engine on ``core`` as a buildable unit (writes its wrapper)."""
    return design.build("modexp", core, params)


def timeout_cycles(core: cores.Core | str, width: int, params: dict[str, int] | None = None) -> int:
    """A generous bound on one exponentiation's latency (for hang detection):
    the most products (ladder, exp_len = Width) at the core's worst case."""
    c = cores.resolve(core)
    bound = c.bound(width, params)
    mults = 3 + 2 * width + 1
    return 2 * (mults * (bound + MUL_OVERHEAD) + 2 * REDUCE_CYCLES) + 100


def env(core: cores.Core | str, width: int, params: dict[str, int] | None = None) -> dict[str, str]:
    """Environment for cocotb modules running on the engine: the real core
    (for its model), its HDL parameters, and the hang timeout."""
    c = cores.resolve(core)
    return {
        "MONTMUL_CORE": c.name,
        "MONTMUL_PARAMS": json.dumps(c.hdl_params(width, **(params or {}))),
        "MONTMUL_MODEXP_TIMEOUT": str(timeout_cycles(core, width, params)),
    }


def build(core: cores.Core | str, sim: str, width: int, params: dict[str, int] | None = None, waves: bool = False) -> Path:
    return runner.build(engine(core, params), sim, width, waves=waves)


def run(
    core: cores.Core | str,
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
    core: cores.Core | str = "scs_new",
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
