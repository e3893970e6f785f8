# SPDX-License-Identifier: Apache-2.0
"""Bench of r4booth_left (mm_r4booth, ShiftLeft = 1, left-shifting PEs):
the same bench as tb/mm_r4booth_right (see there) on the left-shifting
configuration, at its own registry test widths and parameter sets."""
from __future__ import annotations

import os

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from montmul.flows.sim.suite import *
else:
    from bench_util import core_bench

    test_mm_r4booth_left = core_bench(__file__, "r4booth_left")
