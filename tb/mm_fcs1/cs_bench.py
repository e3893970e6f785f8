# SPDX-License-Identifier: Apache-2.0
"""The pytest side of the carry-save core benches (tb/mm_fcs1, tb/mm_fcs2).

mm_fcs1 and mm_fcs2 have carry-save operand and result ports, so they are
not registered cores (the registry describes the common interface; their
binary wrapper mm_fcs_bin is registered as fcs1_bin / fcs2_bin).  For the runner, which
builds a :class:`montmul.cores.Core`, this module derives a descriptor of the
bare carry-save core from its wrapper's entry: the wrapper's file list up to
the carry-save core, and the parameters the carry-save core has.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench_util import SIMS
from montmul import cores
from montmul.sim import runner

def cs_core(name: str) -> cores.Core:
    """An (unregistered) descriptor of the carry-save core ``name``."""
    return cores.unit(name)


def cs_grid(name: str):
    """pytest parameters: every simulator x every test width."""
    widths = os.environ.get("MONTMUL_WIDTHS")
    ws = tuple(int(w) for w in widths.split(",")) if widths else cores.get(f"{name}_bin").widths
    return [pytest.param(sim, w, id=f"{sim}-w{w}") for sim in SIMS for w in ws]


def run_cs_bench(name: str, sim: str, width: int, test_file: str) -> None:
    here = Path(test_file).resolve()
    runner.run(cs_core(name), sim, width, test_module=here.stem, test_dir=here.parent)
