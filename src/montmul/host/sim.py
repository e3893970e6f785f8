# SPDX-License-Identifier: Apache-2.0
"""Build ``mm_modexp_axil`` (the AXI4-Lite wrapper, rtl/bus/) on a registered
core and run cocotb modules on it, through :mod:`montmul.flows.sim.runner` (one
build directory per simulator, core, core parameters and width).

The register block is PeakRDL-regblock output, whose unpacked-struct ports
Icarus Verilog 11 does not support ("sorry: Unpacked structs not
supported"), so the wrapper builds on Verilator only (docs/integration.md).
"""

from __future__ import annotations

from pathlib import Path

from .. import cores, design
from ..flows.sim import modexp_sim, runner

SIMULATORS = ("verilator",)


def unit(core: cores.Core | str, params: dict[str, int] | None = None) -> design.Design:
    """The wrapper on ``core`` (writes the core's generated engine wrapper)."""
    return design.build("axil", core, params)


def run(core: cores.Core | str, width: int, test_module: str, test_dir: Path, *, sim: str = "verilator",
        params: dict[str, int] | None = None, extra_env: dict[str, str] | None = None,
        testcase: str | None = None, waves: bool = False) -> Path:
    """Build the wrapper on ``core`` at ``width`` and run the cocotb module ``test_module``."""
    if sim not in SIMULATORS:
        raise ValueError(f"mm_modexp_axil builds on {', '.join(SIMULATORS)} only (not {sim!r}): "
                         "Icarus Verilog 11 has no unpacked structs, which the PeakRDL register block uses")
    env = modexp_sim.env(core, width, params)
    env.update(extra_env or {})
    return runner.run(unit(core, params), sim, width, test_module=test_module, test_dir=test_dir,
                      extra_env=env, testcase=testcase, waves=waves)
