# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_ws (rtl/ws), the ws array behind the common core ports (the
wide-port adapter, docs/ws_core.md), registered as core ``ws``:

* the shared core suite (montmul.flows.sim.suite) at the registry's test
  widths and parameter sets on Icarus and Verilator, every result and latency
  against montmul.models.ws_core (through the registry: ``core_model``); on
  Verilator with the port-level properties of rtl/formal/mm_core_props.sv
  bound and checked as assertions;
* test_largest_scaled_modulus: the moduli with the largest n' (the largest
  scaled modulus Ñ = n'N, so the array's largest U < 2Ñ), 3, 2^k - 1 and
  2^(k-1) + 1 (``bench_util.ws_directed_moduli``), A = B = 2N - 1, A = 0 and
  random operands, with back-pressure on the response."""
from __future__ import annotations

import os

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    import cocotb
    from bench_util import ws_directed_moduli

    from montmul.flows.sim.driver import CoreDriver, config
    from montmul.flows.sim.suite import *
    from montmul.flows.sim.suite import rng_from_env

    @cocotb.test()
    async def test_largest_scaled_modulus(dut):
        core, k, params = config()
        rng = rng_from_env()
        drv = CoreDriver(dut)
        await drv.start()
        for i, n in enumerate(ws_directed_moduli(k, params["WordWidth"], params["QuotDelay"])):
            for a, b in ((2 * n - 1, 2 * n - 1), (0, 2 * n - 1), (rng.randrange(2 * n), rng.randrange(2 * n))):
                want = core.run_model(a, b, n, k, params)
                resp = await drv.mul(a, b, n, ready_after=i % 3)
                assert resp.err == 0, f"N={n:#x} A={a:#x} B={b:#x}: rejected"
                assert resp.s == want.result, f"N={n:#x} A={a:#x} B={b:#x}: S={resp.s:#x}, model {want.result:#x}"
                assert resp.cycles == want.cycles, (
                    f"N={n:#x}: latency {resp.cycles}, model {want.cycles} ({want.breakdown})")
else:
    from bench_util import core_bench, props_live

    test_mm_ws = core_bench(__file__, "ws", props=True)
    test_mm_ws_props_live = props_live("ws")
