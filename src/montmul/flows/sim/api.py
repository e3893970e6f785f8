# SPDX-License-Identifier: Apache-2.0
"""Batches of multiplications on a core in RTL simulation (no cocotb import
here: safe to use outside a simulation)."""

from __future__ import annotations

from dataclasses import dataclass

from ...cores import Core
from . import runner


@dataclass(frozen=True)
class SimResult:
    s: int
    err: int
    cycles: int


def simulate(
    core: Core,
    width: int,
    vectors: list[tuple[int, int, int]],
    sim: str = "verilator",
    jobs: int = 1,
    params: dict[str, int] | None = None,
) -> list[SimResult]:
    """Multiply every (a, b, n) of ``vectors`` on the RTL of ``core``, on one
    build, ``jobs`` simulator processes in parallel."""
    rows = runner.run_batch(core, sim, width, "core", [list(v) for v in vectors], jobs, params)
    return [SimResult(*row) for row in rows]
