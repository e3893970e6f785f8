# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_ws_redc (rtl/ws), the wide-port adapter's final reduction:
S = (U + qN)/2^E from the array's U, against the model
montmul.models.ws_core.redc, result and cycles (out_valid_o E + ceil((k+1)/w)
cycles after the edge that takes U's last word).

U values: the array's products (montmul.models.ws.montmul) of A = B = 2N - 1
and of random operands, U = 2Ñ - 1 (the array's bound), U = 2^E N - 1 (the
unit's bound), 0 and random U < 2Ñ; over directed moduli (3, 2^k - 1,
2^(k-1) + 1, the largest n') and random ones.  Also: gaps in the U stream,
back-pressure on the response, back-to-back operations, a reset in the
middle of an operation, N taken with the first word only (n_i changes
afterwards), and illegal inputs (U >= 2^E N, even N, N = 1): the same
timing, no hang.  Icarus at 3 (w = 2, the smallest build), 8 and 64 bits,
Verilator at 256.
"""
from __future__ import annotations

import os
import random
from types import SimpleNamespace

TOP = "mm_ws_redc"


if os.environ.get("MONTMUL_IN_SIM"):
    import cocotb
    from cocotb.triggers import FallingEdge

    from bench_util import ws_directed_moduli, ws_unit_params, ws_unit_start

    from montmul.models import ws, ws_core

    K, W, D = ws_unit_params()
    E = ws_core.redc_steps(W, D)
    MWORDS = ws_core.words(K, W, D)

    def u_values(n: int, rng: random.Random) -> list[int]:
        k = ws.precompute(n, W, D, bits=K)
        top = 2 * n - 1
        us = [ws.montmul(top, top, k)[0], ws.montmul(rng.randrange(2 * n), rng.randrange(2 * n), k)[0],
              2 * k.ntilde - 1, (n << E) - 1, 0, rng.randrange(2 * k.ntilde)]
        return us

    async def start(dut):
        await ws_unit_start(dut, ("in_word_i",))

    async def run(dut, u: int, n: int, rng: random.Random | None = None) -> None:
        """Stream U's m words (with random gaps if ``rng``), called at a
        falling edge; wait for S (with random back-pressure if ``rng``);
        returns at the falling edge after the edge that takes S.  Checks S
        and the cycles against the model and in_ready_o while busy; for an
        illegal input (even N, N = 1, U >= 2^E N) S is not checked, only the
        timing (the model's closed form)."""
        if n % 2 and n >= 3 and u < n << E:
            exp = ws_core.redc(u, n, K, W, D)
        else:
            exp = SimpleNamespace(result=None, cycles=ws_core.redc_cycles(K, W, D))
        mask = (1 << W) - 1
        j = 0
        while j < MWORDS:  # here: between edges; the next edge may take word j
            gap = rng is not None and rng.random() < 0.3
            dut.in_valid_i.value = int(not gap)
            dut.in_word_i.value = (u >> (W * j)) & mask if not gap else rng.getrandbits(W)
            dut.n_i.value = n if j == 0 else rng.getrandbits(K) if rng else 0  # N with U_0 only
            taken = not gap and int(dut.in_ready_o.value)
            await FallingEdge(dut.clk_i)
            j += taken
        dut.in_valid_i.value = 0
        t = 0  # edges after the one that took the last word
        while not int(dut.out_valid_o.value):
            assert not int(dut.in_ready_o.value), f"U={u:#x}: in_ready_o high while busy"
            await FallingEdge(dut.clk_i)
            t += 1
            assert t <= exp.cycles + 1, f"U={u:#x} N={n:#x}: no result after {t} cycles"
        assert t == exp.cycles, f"U={u:#x} N={n:#x}: S valid after {t} cycles, model {exp.cycles}"
        while True:
            ready = 1 if rng is None else int(rng.random() < 0.5)
            dut.out_ready_i.value = ready
            assert int(dut.out_valid_o.value) and not int(dut.in_ready_o.value)
            got = int(dut.s_o.value)
            assert exp.result is None or got == exp.result, f"U={u:#x} N={n:#x}: S={got:#x}, model {exp.result:#x}"
            await FallingEdge(dut.clk_i)
            if ready:
                break
        dut.out_ready_i.value = 0
        assert int(dut.in_ready_o.value) and not int(dut.out_valid_o.value)

    @cocotb.test()
    async def test_products(dut):
        """Directed and random moduli, the array's products and the bounds,
        U streamed every cycle, the response taken at once."""
        await start(dut)
        rng = random.Random(int(os.environ.get("MONTMUL_SEED", "1")))
        mods = ws_directed_moduli(K, W, D) + [rng.randrange(1 << (K - 1), 1 << K) | 1 for _ in range(4)]
        for n in mods:
            for u in u_values(n, rng):
                await run(dut, u, n)

    @cocotb.test()
    async def test_gaps_and_backpressure(dut):
        """Gaps in the U stream and a held response; N changes after U_0."""
        await start(dut)
        rng = random.Random(2)
        for n in ws_directed_moduli(K, W, D) + [rng.randrange(3, 1 << K) | 1 for _ in range(3)]:
            for u in u_values(n, rng)[:3]:
                await run(dut, u, n, rng)

    @cocotb.test()
    async def test_illegal_inputs(dut):
        """U at or above the unit's bound 2^E N (up to all m words ones), an
        even N, N = 1 (the adapter's request check and the array's bound keep
        them out): S has the legal timing, the unit returns to idle (no hang),
        and the next legal operation is exact."""
        await start(dut)
        rng = random.Random(4)
        top = (1 << (W * MWORDS)) - 1
        for n in (rng.randrange(3, 1 << K) | 1, (1 << K) - 1):
            for u in (n << E, top):
                await run(dut, u, n)
        for n in (0, 1, 2, (1 << K) - 2):
            await run(dut, rng.randrange(1 << (K + E)), n)
        n = rng.randrange(3, 1 << K) | 1
        await run(dut, rng.randrange(n << E), n)

    @cocotb.test()
    async def test_reset_mid_operation(dut):
        """A reset while U streams in, during the steps or the resolution
        returns the unit to taking U_0; the next operation is exact."""
        await start(dut)
        rng = random.Random(3)
        mask = (1 << W) - 1
        for cut in (1, MWORDS + 2, MWORDS + E + 1):
            n = rng.randrange(3, 1 << K) | 1
            u = rng.randrange(n << E)
            dut.n_i.value = n
            for c in range(cut):
                dut.in_valid_i.value = int(c < MWORDS)
                dut.in_word_i.value = (u >> (W * c)) & mask if c < MWORDS else 0
                await FallingEdge(dut.clk_i)
            dut.in_valid_i.value = 0
            dut.rst_ni.value = 0
            await FallingEdge(dut.clk_i)
            dut.rst_ni.value = 1
            assert int(dut.in_ready_o.value) and not int(dut.out_valid_o.value)
            n = rng.randrange(3, 1 << K) | 1
            await run(dut, rng.randrange(n << E), n)
else:
    import pytest
    from bench_util import WS_UNIT_CASES, WS_UNIT_IDS

    @pytest.mark.parametrize("sim,k,w,d", WS_UNIT_CASES, ids=WS_UNIT_IDS)
    def test_mm_ws_redc(sim, k, w, d):
        from bench_util import ws_unit_bench

        ws_unit_bench(__file__, TOP, sim, k, w, d)
