# SPDX-License-Identifier: Apache-2.0
"""Bench of systolic_mux (mm_systolic, Multiplexed = 1): the same bench as
tb/mm_systolic (see there) on the multiplexed array, at its own registry test
widths and WordWidth sets."""
from __future__ import annotations

import os

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from montmul.flows.sim.suite import *
else:
    from bench_util import core_bench

    test_mm_systolic_mux = core_bench(__file__, "systolic_mux")
