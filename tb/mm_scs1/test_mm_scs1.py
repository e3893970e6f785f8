# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_scs1: the shared core suite (montmul.flows.sim.suite) at every test
width on Icarus and Verilator, each result and latency against the model;
the CPA_FC at its default 32-bit word, at the paper's other width (64) and at
a 7-bit word, narrower than any test width, so that every width ends in a
partial word."""
from __future__ import annotations

import os

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from montmul.flows.sim.suite import *
else:
    from bench_util import core_bench

    test_mm_scs1 = core_bench(__file__, "scs1")
