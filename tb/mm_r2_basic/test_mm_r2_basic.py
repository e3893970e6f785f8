# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_r2_basic: the shared core suite (montmul.flows.sim.suite) at every test
width on Icarus and Verilator, each result and latency against the model."""
from __future__ import annotations

import os

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from montmul.flows.sim.suite import *
else:
    from bench_util import core_bench

    test_mm_r2_basic = core_bench(__file__, "r2_basic")
