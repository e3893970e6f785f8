# SPDX-License-Identifier: Apache-2.0
"""Helpers for the cocotb benches under tb/: a registered core's (simulator x
width x parameter set) grid as pytest parameters, and the call into the
runner.  Widths and parameter sets come from the registry (``test_widths``,
``test_params``); ``MONTMUL_WIDTHS`` (comma-separated) and ``MONTMUL_SIMS``
override them for a run by hand."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from montmul import cores
from montmul.sim import runner

SIMS = tuple(s for s in os.environ.get("MONTMUL_SIMS", "icarus,verilator").split(",") if s)


def grid(core_name: str):
    """pytest parameters (sim, width, params): each simulator at the core's
    test widths for it (``MONTMUL_WIDTHS`` overrides them for every
    simulator), and the registry's other parameter sets at each simulator's
    smallest width (they exercise a parameter, not the width)."""
    core = cores.lookup(core_name)
    widths = os.environ.get("MONTMUL_WIDTHS")
    out = []
    for sim in SIMS:
        ws = tuple(int(w) for w in widths.split(",")) if widths else core.test_widths[sim]
        for w in ws:
            for p in ({}, *core.test_params):
                if p and w != min(ws) and not widths:
                    continue
                tag = "-".join(f"{k}{v}" for k, v in p.items())
                out.append(pytest.param(sim, w, dict(p), id=f"{sim}-w{w}" + (f"-{tag}" if tag else "")))
    return out


def run_bench(core_name: str, sim: str, width: int, params: dict[str, int], test_file: str) -> None:
    here = Path(test_file).resolve()
    runner.run(
        cores.lookup(core_name),
        sim,
        width,
        test_module=here.stem,
        test_dir=here.parent,
        params=params,
    )
