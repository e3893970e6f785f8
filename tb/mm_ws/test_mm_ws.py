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
    from cocotb.clock import Clock
    from cocotb.triggers import FallingEdge, RisingEdge

    from montmul.models import ws_core

    P = json.loads(os.environ["WS_PARAMS"])
    K, PES, W, D = P["Width"], P["NumPe"], P["WordWidth"], P["QuotDelay"]

    def expect(a, b, n):
        return ws_core.model(a, b, n, K, w=W, d=D, pes=PES, l_dsp=6, qlat=0)

    async def start(dut):
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
        dut.rst_ni.value = 0
        dut.in_valid_i.value = 0
        dut.out_ready_i.value = 0
        await RisingEdge(dut.clk_i)
        await FallingEdge(dut.clk_i)
        dut.rst_ni.value = 1

    async def request(dut, a, b, n, hold=0):
        """One request at a falling edge; returns (s, err, cycles from the
        accepting edge to out_valid_o)."""
        dut.a_i.value, dut.b_i.value, dut.n_i.value = a, b, n
        dut.in_valid_i.value = 1
        while not int(dut.in_ready_o.value):
            await FallingEdge(dut.clk_i)
        await FallingEdge(dut.clk_i)  # the edge between took the request
        dut.in_valid_i.value = 0
        t = 0
        while not int(dut.out_valid_o.value):
            await FallingEdge(dut.clk_i)
            t += 1
            assert t < 100_000, "no response"
        for _ in range(hold):
            await FallingEdge(dut.clk_i)
            assert int(dut.out_valid_o.value)
        s, err = int(dut.s_o.value), int(dut.err_o.value)
        dut.out_ready_i.value = 1
        await FallingEdge(dut.clk_i)
        dut.out_ready_i.value = 0
        return s, err, t

    @cocotb.test()
    async def test_products(dut):
        await start(dut)
        rng = random.Random(int(os.environ.get("MONTMUL_SEED", "1")))
        mod = 1 << (W * (D + 1))
        big = max(range(3, min(1 << K, 1 << 12), 2), key=lambda n: -pow(n, -1, mod) % mod)
        mods = sorted({3, (1 << K) - 1, (1 << (K - 1)) + 1, big})
        mods += [rng.randrange(3, 1 << K) | 1 for _ in range(6)]
        for i, n in enumerate(mods):
            for a, b in ((2 * n - 1, 2 * n - 1), (0, 2 * n - 1), (rng.randrange(2 * n), rng.randrange(2 * n))):
                exp = expect(a, b, n)
                s, err, t = await request(dut, a, b, n, hold=i % 3)
                assert not err, f"N={n:#x} A={a:#x} B={b:#x}: rejected"
                assert s == exp.result, f"N={n:#x} A={a:#x} B={b:#x}: S={s:#x}, model {exp.result:#x}"
                assert t == exp.cycles, f"N={n:#x}: latency {t}, model {exp.cycles} ({exp.breakdown})"

    @cocotb.test()
    async def test_rejected(dut):
        await start(dut)
        n = (1 << (K - 1)) + 1
        for a, b, nn in ((1, 1, n + 1), (1, 1, 1), (2 * n, 1, n), (1, 2 * n, n)):
            s, err, _ = await request(dut, a, b, nn)
            assert err and s == 0, f"A={a:#x} B={b:#x} N={nn:#x}: not rejected"
        exp = expect(5, 7, n)
        s, err, t = await request(dut, 5, 7, n)
        assert not err and s == exp.result and t == exp.cycles
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
