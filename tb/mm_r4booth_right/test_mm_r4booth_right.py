# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_r4booth_right: the shared core suite (montmul.sim.suite) on
Icarus and Verilator, each result and latency against the model.  The default
build (w = 16, p = 2, b = 1) at the registry's widths, and parameter sets that
put the kernel in Case I (e >= 2p + b), Case II and both (the suite's random
moduli have every length up to Width, so one build sees several e and k)."""
from __future__ import annotations

import os

CORE = "r4booth_right"

#: non-default builds, run at the widths of EXTRA_WIDTHS (NumPes = 1 and
#: larger widths are run by hand, see docs/scalable.md)
EXTRA = (
    {"WordWidth": 8, "NumPes": 3, "FifoLatency": 2},    # Case II below ~50 bits, Case I above
    {"WordWidth": 4, "NumPes": 4, "FifoLatency": 3},    # FIFO latency 3, both cases
)
EXTRA_WIDTHS = (64,)

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from montmul.sim.suite import *  # noqa: F401,F403
else:
    import pytest
    from bench_util import grid, run_bench

    @pytest.mark.parametrize("sim,width,params", grid(CORE, ({},) + EXTRA, EXTRA_WIDTHS))
    def test_mm_r4booth_right(sim, width, params):
        run_bench(CORE, sim, width, params, __file__)
