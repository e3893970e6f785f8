# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_ws (rtl/ws), the ws array behind the common core ports (the
wide-port adapter, docs/ws_core.md): every result and every latency (the
accepting edge to the response) against montmul.models.ws_core.model, which
composes the units' models and the array's (montmul.models.ws).  Directed
moduli (3, 2^k - 1, the largest n'), A = B = 2N - 1, random requests,
back-pressure on the response, and rejected requests (even N, N < 3,
operands >= 2N) answered with err_o."""
from __future__ import annotations

import json
import os
import random

#: (simulator, Width, NumPe, WordWidth, QuotDelay)
CASES = [("icarus", 8, 8, 8, 4), ("icarus", 64, 12, 16, 4), ("verilator", 64, 12, 16, 4)]
TOP = "mm_ws"

if os.environ.get("MONTMUL_IN_SIM"):
    import cocotb
    from bench_util import ws_directed_moduli

    from montmul.flows.sim.driver import Handshake, reset_pulse
    from montmul.models import ws_core

    P = json.loads(os.environ["WS_PARAMS"])
    K, PES, W, D = P["Width"], P["NumPe"], P["WordWidth"], P["QuotDelay"]

    class WsDriver(Handshake):
        """The common core interface of a core the registry does not list yet."""

        request_ports = ("a_i", "b_i", "n_i")
        response_ports = ("s_o", "err_o")

        async def mul(self, a: int, b: int, n: int, ready_after: int = 0) -> tuple[int, int, int]:
            (s, err), cycles = await self.take(await self.request(a, b, n), ready_after)
            return s, err, cycles

    def expect(a, b, n):
        return ws_core.model(a, b, n, K, w=W, d=D, pes=PES, l_dsp=6, qlat=0)

    async def started(dut) -> WsDriver:
        drv = WsDriver(dut, 2 * ws_core.latency(K, W, D, PES) + 100)
        await drv.start()
        return drv

    @cocotb.test()
    async def test_products(dut):
        drv = await started(dut)
        rng = random.Random(int(os.environ.get("MONTMUL_SEED", "1")))
        mods = ws_directed_moduli(K, W, D) + [rng.randrange(3, 1 << K) | 1 for _ in range(6)]
        for i, n in enumerate(mods):
            for a, b in ((2 * n - 1, 2 * n - 1), (0, 2 * n - 1), (rng.randrange(2 * n), rng.randrange(2 * n))):
                exp = expect(a, b, n)
                s, err, t = await drv.mul(a, b, n, ready_after=i % 3)
                assert not err, f"N={n:#x} A={a:#x} B={b:#x}: rejected"
                assert s == exp.result, f"N={n:#x} A={a:#x} B={b:#x}: S={s:#x}, model {exp.result:#x}"
                assert t == exp.cycles, f"N={n:#x}: latency {t}, model {exp.cycles} ({exp.breakdown})"

    @cocotb.test()
    async def test_rejected_and_reset(dut):
        drv = await started(dut)
        n = (1 << (K - 1)) + 1
        for a, b, nn in ((1, 1, n + 1), (1, 1, 1), (2 * n, 1, n), (1, 2 * n, n)):
            s, err, _ = await drv.mul(a, b, nn)
            assert err and s == 0, f"A={a:#x} B={b:#x} N={nn:#x}: not rejected"
        await reset_pulse(dut)
        exp = expect(5, 7, n)
        assert await drv.mul(5, 7, n) == (exp.result, 0, exp.cycles)
else:
    import pytest

    @pytest.mark.parametrize("sim,k,p,w,d", CASES, ids=[f"{c[0]}-w{c[1]}-P{c[2]}-ww{c[3]}-d{c[4]}" for c in CASES])
    def test_mm_ws(sim, k, p, w, d):
        from bench_util import unit_bench

        files = [f"common/{f}" for f in ("mm_seg_add.sv", "mm_in_check.sv", "mm_req_ctrl.sv", "mm_csa_row.sv",
                                          "mm_cpa_fc.sv")]
        files += [f"ws/{f}" for f in ("mm_ws_mul.sv", "mm_ws_pe.sv", "mm_ws_ring.sv", "mm_ws_array.sv",
                                      "mm_ws_prep.sv", "mm_ws_redc.sv", "mm_ws.sv")]
        unit_bench(__file__, TOP, files, {"Width": k, "NumPe": p, "WordWidth": w, "QuotDelay": d}, sim, opt=False)
