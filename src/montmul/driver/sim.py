# SPDX-License-Identifier: Apache-2.0
"""Build ``mm_modexp_axil`` (the AXI4-Lite wrapper, rtl/bus/) on a registered
core and run cocotb modules on it, through :mod:`montmul.sim.runner` (one
build directory per simulator, core, core parameters and width).

The register block is PeakRDL-regblock output, whose unpacked-struct ports
Icarus Verilog 11 does not support ("sorry: Unpacked structs not
supported"), so the wrapper builds on Verilator only (docs/integration.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import cores, resources
from ..engine import ENGINE_RTL, core_hdl_params
from ..sim import modexp_sim, runner

#: The wrapper's own RTL, after the engine's (package first).
BUS_RTL = ("bus/mm_modexp_regs_pkg.sv", "bus/mm_modexp_regs.sv", "bus/mm_modexp_axil.sv")
SIMULATORS = ("verilator",)


@dataclass(frozen=True)
class BusUnit:
    """mm_modexp_axil on one core, as the runner builds it."""

    name: str
    rtl: tuple[str, ...]
    top: str = "mm_modexp_axil"

    def sources(self) -> list[Path]:
        rtl = resources.rtl_dir()
        return [rtl / f for f in self.rtl]

    def includes(self) -> list[Path]:
        return [resources.rtl_dir() / "common"]

    def hdl_params(self, width: int, **given: int) -> dict[str, int]:
        cores.WIDTH.check("Width", width)
        if given:
            raise ValueError(f"mm_modexp_axil has no parameter {', '.join(sorted(given))}")
        return {"Width": width}


def unit(core: str, params: dict[str, int] | None = None) -> BusUnit:
    """The wrapper on ``core`` (writes the core's generated engine wrapper)."""
    eng = modexp_sim.engine(core, params)
    fixed = core_hdl_params(core, params)
    tag = "_".join(f"{k}{v}" for k, v in sorted(fixed.items()))
    name = f"axil_{cores.get(core).name}" + (f"_{tag}" if tag else "")
    assert eng.rtl[-1] == ENGINE_RTL
    return BusUnit(name, eng.rtl + BUS_RTL)


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
