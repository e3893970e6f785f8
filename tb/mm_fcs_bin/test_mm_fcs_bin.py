# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_fcs_bin (a full-carry-save core behind the common binary
interface) in both registered configurations, fcs1_bin (Variant 1, FCS-MM-1)
and fcs2_bin (Variant 2, FCS-MM-2): the shared core suite
(montmul.flows.sim.suite) at every test width on Icarus and Verilator, each result
and latency against the model."""
from __future__ import annotations

import os

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from montmul.flows.sim.suite import *
else:
    from bench_util import core_bench

    test_mm_fcs_bin = core_bench(__file__, "fcs1_bin", "fcs2_bin")
