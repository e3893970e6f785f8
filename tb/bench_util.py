# SPDX-License-Identifier: Apache-2.0
"""Helpers for the cocotb benches under tb/: the (simulator x width) grid of
a registered core as pytest parameters, and the call into the runner."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from montmul import cores
from montmul.sim import runner

SIMS = tuple(s for s in os.environ.get("MONTMUL_SIMS", "icarus,verilator").split(",") if s)


def grid(core_name: str, extra: tuple[dict[str, int], ...] = ({},), extra_widths=(16, 256)):
    """pytest parameters: every simulator x every test width for the default
    parameters, and the non-default parameter sets of ``extra`` at the widths
    ``extra_widths`` only (they exercise a parameter, not the width)."""
    core = cores.get(core_name)
    widths = os.environ.get("MONTMUL_WIDTHS")
    ws = tuple(int(w) for w in widths.split(",")) if widths else core.widths
    out = []
    for sim in SIMS:
        for w in ws:
            for p in extra:
                if p and w not in extra_widths and not widths:
                    continue
                tag = "-".join(f"{k}{v}" for k, v in p.items())
                out.append(pytest.param(sim, w, p, id=f"{sim}-w{w}" + (f"-{tag}" if tag else "")))
    return out


def run_bench(core_name: str, sim: str, width: int, params: dict[str, int], test_file: str) -> None:
    here = Path(test_file).resolve()
    runner.run(
        cores.get(core_name),
        sim,
        width,
        test_module=here.stem,
        test_dir=here.parent,
        params=params,
    )
