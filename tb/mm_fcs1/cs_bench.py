# SPDX-License-Identifier: Apache-2.0
"""The pytest side of the carry-save core benches (tb/mm_fcs1, tb/mm_fcs2).

mm_fcs1 and mm_fcs2 have carry-save operand and result ports, so they are
not registered cores (the registry describes the common interface; their
binary wrappers fcs1_bin / fcs2_bin are registered).  For the runner, which
builds a :class:`montmul.cores.Core`, this module derives a descriptor of the
bare carry-save core from its wrapper's entry: the wrapper's file list up to
the carry-save core, and the parameters the carry-save core has.
"""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from bench_util import SIMS
from montmul import cores
from montmul.models import radix2
from montmul.sim import runner

#: carry-save core -> (RTL files, binary-operand model, latency bound)
_CS = {
    "fcs1": (cores.FCS1_CS_RTL, radix2.fcs1, lambda k: k + 2),
    "fcs2": (cores.FCS2_CS_RTL, radix2.fcs2, lambda k: 1 + k + 2),
}


def cs_core(name: str) -> cores.Core:
    """An (unregistered) descriptor of the carry-save core ``name``."""
    rtl, model, bound = _CS[name]
    wrapper = cores.get(f"{name}_bin")
    return dataclasses.replace(
        wrapper,
        name=name,
        rtl=rtl,
        model=model,
        params={k: wrapper.params[k] for k in ("Width", "CheckRange")},
        model_params={},
        latency_bound=bound,
        description=f"{name}: carry-save operands and result (not on the common interface)",
    )


def cs_grid(name: str):
    """pytest parameters: every simulator x every test width."""
    widths = os.environ.get("MONTMUL_WIDTHS")
    ws = tuple(int(w) for w in widths.split(",")) if widths else cores.get(f"{name}_bin").widths
    return [pytest.param(sim, w, id=f"{sim}-w{w}") for sim in SIMS for w in ws]


def run_cs_bench(name: str, sim: str, width: int, test_file: str) -> None:
    here = Path(test_file).resolve()
    runner.run(cs_core(name), sim, width, test_module=here.stem, test_dir=here.parent)
