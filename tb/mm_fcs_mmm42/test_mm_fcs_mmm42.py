# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_fcs_mmm42: the shared core suite (montmul.flows.sim.suite) at every test
width on Icarus and Verilator, each result and latency against the model."""
from __future__ import annotations

import os

CORE = "fcs_mmm42"

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from montmul.flows.sim.suite import *
else:
    import pytest
    from bench_util import grid, run_bench

    @pytest.mark.parametrize("sim,width,params", grid(CORE))
    def test_mm_fcs_mmm42(sim, width, params):
        run_bench(CORE, sim, width, params, __file__)
