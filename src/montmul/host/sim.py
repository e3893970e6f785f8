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

from .. import cores
from ..engine import ENGINE_RTL, core_hdl_params
from ..flows.sim import modexp_sim, runner

#: The wrapper's own RTL, after the engine's (package first).
BUS_RTL = ("bus/mm_modexp_regs_pkg.sv", "bus/mm_modexp_regs.sv", "bus/mm_modexp_axil.sv")
SIMULATORS = ("verilator",)


def unit(core: str, params: dict[str, int] | None = None) -> modexp_sim.Engine:
    """The wrapper on ``core`` (writes the core's generated engine wrapper)."""
    eng = modexp_sim.engine(core, params)
    fixed = core_hdl_params(core, params)
    tag = runner.param_tag(fixed)
    name = f"axil_{cores.get(core).name}" + (f"_{tag}" if tag else "")
    assert eng.rtl[-1] == ENGINE_RTL
    return modexp_sim.Engine(name, eng.rtl + BUS_RTL, top="mm_modexp_axil")


def run(core: str, width: int, test_module: str, test_dir: Path, *, sim: str = "verilator",
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
