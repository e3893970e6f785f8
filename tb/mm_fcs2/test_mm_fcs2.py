# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_fcs2, the carry-save FCS-MM-2 core: the same bench as
tb/mm_fcs1 (see there; the carry-save suite montmul.flows.sim.cs_suite)."""
from __future__ import annotations

import os

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from montmul.flows.sim.cs_suite import *
else:
    from bench_util import core_bench

    test_mm_fcs2 = core_bench(__file__, "fcs2")
