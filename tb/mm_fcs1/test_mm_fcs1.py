# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_fcs1, the carry-save FCS-MM-1 core (not on the common interface;
its binary wrapper runs the common suite): the carry-save suite
(montmul.flows.sim.cs_suite) at every test width on Icarus and Verilator, both
result words and the latency of every multiplication against the model."""
from __future__ import annotations

import os

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from montmul.flows.sim.cs_suite import *
else:
    from bench_util import core_bench

    test_mm_fcs1 = core_bench(__file__, "fcs1")
