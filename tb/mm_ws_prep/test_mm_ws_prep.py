# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_ws_prep (rtl/ws), the wide-port adapter's prep unit: M's
words from N, against the model montmul.models.ws_core.prep, word for word
and cycle for cycle (first word valid E' - 1 cycles after the accepting
edge, the last taken E' - 1 + m cycles after it with out_ready_i high, plus
one cycle per stall).

Tests: directed moduli (3, 2^k - 1, 2^(k-1) + 1, the largest n' the width
allows: N = 1 mod 2^E' when k > E') and random ones; back-pressure on the
stream; back-to-back requests with in_valid_i held (a request while busy
waits, the next is taken the cycle after the last word); a reset in the
middle of an operation; illegal moduli (even, 1): the same timing, no hang.  Icarus at 3 (w = 2, the smallest build), 8 and 64 bits,
Verilator at 256.
"""
from __future__ import annotations

import os
import random
from types import SimpleNamespace

TOP = "mm_ws_prep"


if os.environ.get("MONTMUL_IN_SIM"):
    import cocotb
    from cocotb.triggers import FallingEdge

    from bench_util import ws_directed_moduli, ws_unit_params, ws_unit_start

    from montmul.models import ws_core

    K, W, D = ws_unit_params()

    async def start(dut):
        await ws_unit_start(dut, ())

    async def run(dut, n: int, rng: random.Random | None = None, hold_next: int | None = None) -> int:
        """One request for ``n``, called at a falling edge; returns at the
        falling edge after the edge that takes the last word.  ``rng``:
        random back-pressure.  ``hold_next``: after the accepting edge keep
        in_valid_i high with this next modulus (a request while busy).
        Checks every word, out_last_o, words_o, in_ready_o while busy and
        the cycle counts against the model; returns the stall cycles.  For
        an illegal N (even, or 1) the unit's words are not M, and only the
        timing is checked (the model's closed forms)."""
        if n % 2 and n >= 3:
            exp = ws_core.prep(n, K, W, D)
        else:
            exp = SimpleNamespace(m=ws_core.words(K, W, D), words=None, first=ws_core.prep_first(W, D),
                                  cycles=ws_core.prep_cycles(K, W, D))
        dut.n_i.value = n
        dut.in_valid_i.value = 1
        while not int(dut.in_ready_o.value):
            await FallingEdge(dut.clk_i)
        await FallingEdge(dut.clk_i)  # after the accepting edge (edge 0)
        if hold_next is None:
            dut.in_valid_i.value = 0
            dut.n_i.value = rng.getrandbits(K) if rng else 0  # N was taken at the accept
        else:
            dut.n_i.value = hold_next
        t, got, first, stalls = 0, [], None, 0
        while True:  # here: after edge t
            assert not int(dut.in_ready_o.value), f"N={n:#x}: in_ready_o high while busy (after edge {t})"
            ready = 1 if rng is None else int(rng.random() < 0.6)
            dut.out_ready_i.value = ready
            valid = int(dut.out_valid_o.value)
            if valid:
                first = t if first is None else first
                assert int(dut.words_o.value) == exp.m
                last = int(dut.out_last_o.value)
                assert last == (len(got) == exp.m - 1), f"N={n:#x}: out_last_o={last} at word {len(got)}"
                if ready:
                    got.append(int(dut.out_word_o.value))
                else:
                    stalls += 1
            await FallingEdge(dut.clk_i)
            t += 1
            if valid and ready and last:
                break
            assert t < exp.cycles + stalls, f"N={n:#x}: no last word after {t} cycles (a hang)"
        dut.out_ready_i.value = 0
        assert exp.words is None or got == list(exp.words), f"N={n:#x}: M words {got}, model {list(exp.words)}"
        assert len(got) == exp.m
        assert first == exp.first, f"N={n:#x}: first word after {first} cycles, model {exp.first}"
        assert t == exp.cycles + stalls, f"N={n:#x}: last word after {t} cycles, model {exp.cycles} + {stalls}"
        assert int(dut.in_ready_o.value) and not int(dut.out_valid_o.value)
        return stalls

    @cocotb.test()
    async def test_moduli(dut):
        """Directed and random moduli, the stream taken every cycle."""
        await start(dut)
        rng = random.Random(int(os.environ.get("MONTMUL_SEED", "1")))
        mods = ws_directed_moduli(K, W, D) + [rng.randrange(1 << (K - 1), 1 << K) | 1 for _ in range(20)]
        for n in mods:
            await run(dut, n)

    @cocotb.test()
    async def test_backpressure(dut):
        """Random out_ready_i: the words wait, each stall adds one cycle."""
        await start(dut)
        rng = random.Random(2)
        stalls = 0
        for n in ws_directed_moduli(K, W, D) + [rng.randrange(3, 1 << K) | 1 for _ in range(8)]:
            stalls += await run(dut, n, rng)
        assert stalls > 0

    @cocotb.test()
    async def test_back_to_back(dut):
        """in_valid_i held high: the next request waits while busy and is
        taken at the edge right after the last word (run() checks both)."""
        await start(dut)
        rng = random.Random(3)
        mods = [rng.randrange(3, 1 << K) | 1 for _ in range(6)]
        for n, nxt in zip(mods, mods[1:] + [None]):
            await run(dut, n, hold_next=nxt)

    @cocotb.test()
    async def test_illegal_modulus(dut):
        """An even N or N = 1 (the adapter's request check keeps them out):
        the stream is not M but has M's timing, the unit returns to idle (no
        hang), and the next legal request is exact."""
        await start(dut)
        rng = random.Random(5)
        for n in (0, 1, 2, (1 << K) - 2, rng.randrange(1 << K) & ~1):
            await run(dut, n)
            await run(dut, rng.randrange(3, 1 << K) | 1)

    @cocotb.test()
    async def test_reset_mid_operation(dut):
        """A reset during the steps or the stream returns the unit to idle;
        the next request is computed from scratch."""
        await start(dut)
        rng = random.Random(4)
        exp_cycles = ws_core.prep_cycles(K, W, D)
        for cut in (1, exp_cycles // 2, exp_cycles - 1):
            dut.n_i.value = rng.randrange(3, 1 << K) | 1
            dut.in_valid_i.value = 1
            dut.out_ready_i.value = 1
            await FallingEdge(dut.clk_i)  # accepted
            dut.in_valid_i.value = 0
            for _ in range(cut):
                await FallingEdge(dut.clk_i)
            dut.rst_ni.value = 0
            await FallingEdge(dut.clk_i)
            dut.rst_ni.value = 1
            dut.out_ready_i.value = 0
            assert int(dut.in_ready_o.value) and not int(dut.out_valid_o.value)
            await run(dut, rng.randrange(3, 1 << K) | 1)
else:
    import pytest
    from bench_util import WS_UNIT_CASES, WS_UNIT_IDS

    @pytest.mark.parametrize("sim,k,w,d", WS_UNIT_CASES, ids=WS_UNIT_IDS)
    def test_mm_ws_prep(sim, k, w, d):
        from bench_util import ws_unit_bench

        ws_unit_bench(__file__, TOP, sim, k, w, d)
