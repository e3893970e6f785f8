# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_dsp_redundant (paper 003).

* the shared core suite (montmul.flows.sim.suite) at Interleave = 1, both digit
  configurations (``dsp_redundant``: 24x17, ``dsp_redundant_ecp5``: 18x18),
  every test width of the registry entries, Icarus and Verilator;
* interleave_tests.py (several products in flight) at Interleave = 1, 2, 3:
  slots filled back to back with a different modulus each, rejected requests
  among them, back-pressure while slots are busy, reset with every slot busy;
  every result, every in_ready_o and every latency against the model.

Every result and every latency is checked against montmul.models.dsp.
"""
from __future__ import annotations

import os
from pathlib import Path

CORE = "dsp_redundant"

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    from montmul.flows.sim.suite import *
else:
    import pytest
    from bench_util import SIMS, core_bench

    from montmul import cores
    from montmul.flows.sim import runner

    test_mm_dsp_redundant = core_bench(__file__, CORE)
    test_mm_dsp_redundant_ecp5 = core_bench(__file__, "dsp_redundant_ecp5")

    # Default: Icarus at 16 bits with Interleave 1, 2, 3, Verilator at 256
    # bits with 2 and 3 (the suite covers Interleave = 1 there), to keep the
    # bench cheap; MONTMUL_WIDTHS runs every simulator and factor at each width.
    _WIDE = tuple(int(w) for w in os.environ.get("MONTMUL_WIDTHS", "").split(",") if w)
    _DEFAULT = {"icarus": [(16, 1), (16, 2), (16, 3)], "verilator": [(256, 2), (256, 3)]}
    _ILV = [
        (sim, w, i)
        for sim in SIMS
        for w, i in ([(w, i) for w in _WIDE for i in (1, 2, 3)] if _WIDE else _DEFAULT.get(sim, []))
    ]

    @pytest.mark.parametrize("sim,width,interleave", _ILV)
    def test_mm_dsp_redundant_interleave(sim, width, interleave):
        here = Path(__file__).resolve()
        runner.run(
            cores.get(CORE), sim, width, test_module="interleave_tests", test_dir=here.parent,
            params={"Interleave": interleave},
        )
