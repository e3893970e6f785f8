# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_r4booth_left: the shared core suite (montmul.sim.suite) on
Icarus and Verilator, each result and latency against the model.  The default
build (w = 16, p = 8, b = 1: Case II at these widths) at the registry's widths,
and parameter sets (all with w | 2p) that put the kernel in Case I
(e + 1 >= p + 2p/w + b) for most moduli and Case II for short ones."""
from __future__ import annotations

import os

CORE = "r4booth_left"

#: non-default builds, run at the widths of EXTRA_WIDTHS
EXTRA = (
    {"WordWidth": 4, "NumPes": 2},                      # a discarding PE every pass, Case I from 9 bits
    {"WordWidth": 8, "NumPes": 4, "FifoLatency": 2},    # Case II below ~40 bits, Case I above
    {"WordWidth": 4, "NumPes": 6, "FifoLatency": 3},    # three discards per pass, FIFO latency 3
)
EXTRA_WIDTHS = (64,)

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from montmul.sim.suite import *  # noqa: F401,F403
else:
    import pytest
    from bench_util import grid, run_bench

    @pytest.mark.parametrize("sim,width,params", grid(CORE, ({},) + EXTRA, EXTRA_WIDTHS))
    def test_mm_r4booth_left(sim, width, params):
        run_bench(CORE, sim, width, params, __file__)
