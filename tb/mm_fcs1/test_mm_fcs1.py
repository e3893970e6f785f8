# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_fcs1, the carry-save FCS-MM-1 core (not on the common interface;
its binary wrapper runs the common suite): the carry-save suite
(montmul.flows.sim.cs_suite) at every test width on Icarus and Verilator, both
result words and the latency of every multiplication against the model."""
from __future__ import annotations

import os

CORE = "fcs1"

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from montmul.flows.sim.cs_suite import *
else:
    import pytest
    from bench_util import grid, run_bench

    @pytest.mark.parametrize("sim,width,params", grid(CORE))
    def test_mm_fcs1(sim, width, params):
        run_bench(CORE, sim, width, params, __file__)
