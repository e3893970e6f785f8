# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_systolic_mux: the shared core suite (montmul.sim.suite) on Icarus
and Verilator, each result and latency against the model, at the registry's
test widths with WordWidth 16, and at one width each with WordWidth 8 and 32
(with MONTMUL_WIDTHS, every word width at the widths given)."""
from __future__ import annotations

import os

CORE = "systolic_mux"

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from montmul.sim.suite import *  # noqa: F401,F403
else:
    import pytest
    from bench_util import grid, run_bench

    # WordWidth 16 at every registry width (3, 5 and 9 words: one, two and
    # three arithmetic cores, the last one partly filled); 8 at 32 bits and
    # 32 at 128 bits (five words, two cores).
    GRID = grid(CORE) + grid(CORE, ({"WordWidth": 8},), (32,)) + grid(CORE, ({"WordWidth": 32},), (128,))

    @pytest.mark.parametrize("sim,width,params", GRID)
    def test_mm_systolic_mux(sim, width, params):
        run_bench(CORE, sim, width, params, __file__)
