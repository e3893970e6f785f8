# SPDX-License-Identifier: Apache-2.0
"""Bench of systolic (mm_systolic, Multiplexed = 0): the shared core suite
(montmul.flows.sim.suite) at the registry's test widths and WordWidth sets on
Icarus and Verilator, each result and latency against the model; on
Verilator with the port-level properties of rtl/formal/mm_core_props.sv
bound and checked as assertions."""
from __future__ import annotations

import os

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from montmul.flows.sim.suite import *
else:
    from bench_util import core_bench

    test_mm_systolic = core_bench(__file__, "systolic")
