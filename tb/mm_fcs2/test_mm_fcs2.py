# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_fcs2, the carry-save FCS-MM-2 core (not on the common
interface; its wrapper mm_fcs_bin runs the common suite as fcs2_bin): the carry-save
tests of tb/mm_fcs1/cs_suite.py at every test width on Icarus and Verilator,
both result words and the latency of every multiplication against the model
fcs2_cs."""
from __future__ import annotations

import os
import sys
from pathlib import Path

CORE = "fcs2"

# The carry-save suite and its runner helpers live beside the FCS-MM-1 bench.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mm_fcs1"))

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from cs_suite import *  # noqa: F401,F403,E402
else:
    import pytest
    from cs_bench import cs_grid, run_cs_bench  # noqa: E402

    @pytest.mark.parametrize("sim,width", cs_grid(CORE))
    def test_mm_fcs2(sim, width):
        run_cs_bench(CORE, sim, width, __file__)
