# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_fcs1, the carry-save FCS-MM-1 core (not on the common
interface; its wrapper mm_fcs_bin runs the common suite as fcs1_bin): the carry-save
tests of cs_suite.py at every test width on Icarus and Verilator, both result
words and the latency of every multiplication against the model fcs1_cs."""
from __future__ import annotations

import os

CORE = "fcs1"

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from cs_suite import *  # noqa: F401,F403
else:
    import pytest
    from cs_bench import cs_grid, run_cs_bench

    @pytest.mark.parametrize("sim,width", cs_grid(CORE))
    def test_mm_fcs1(sim, width):
        run_cs_bench(CORE, sim, width, __file__)
