# SPDX-License-Identifier: Apache-2.0
"""Smoke bench of mm_ws_ring (rtl/ws), the ws array's timing-proxy ring,
with the behavioural MULT18X18D twin: two interleaved Montgomery products
(a different random modulus each) run through the ring, and every quotient
word on q_o, in the cycle it appears, is checked against the word loop of
the scaled-modulus, delayed-quotient algorithm (docs/ws_proxy.md):

    X = H + b_i A + q_(i-d) M 2^w,  q_i = X mod 2^w,  H = X >> w.

Every quotient depends on every PE's sum (through the left-moving h words and
the right-moving carries), on both DSP products of every PE, on the slots'
loads and flags, the idle tokens' clears and the quotient delay line, so the
check
covers the PE datapath and the ring's timing: the quotient of a wave
injected at a clock edge is on q_o after edge + Latency + 1 (Latency =
DspRegs + 3 + LoopRegs).  The loop's own
bound is checked too: the final U = H 2^(wd) + (the last d quotients) is
congruent to A B R^-1 mod N and below 2 N~.  The result paths and the
sequencer are checked by tb/mm_ws_array.
"""
from __future__ import annotations

import json
import os
import random

#: (NumPe, WordWidth, DspRegs, LoopRegs, QuotDelay, ClearMode) per run: the
#: least legal quotient delay for each latency (so 0 or 1 stage of delay
#: line), and larger ones; both ways of clearing the loop (mm_ws_pe's
#: ClearMode).
CASES = [(12, 16, 3, 0, 4, 1), (10, 17, 2, 0, 3, 0), (11, 16, 3, 0, 5, 1), (12, 17, 3, 1, 4, 0),
         (13, 16, 3, 2, 5, 1)]


def operand_words(n: int, w: int, d: int, pe: int, rng: random.Random):
    """Host precomputation for modulus ``n``: M, N~ and the word count m (so
    that V = m + 1 <= pe), and random A, B in [0, 2 N~)."""
    mod = 1 << (w * (d + 1))
    n_prime = (-pow(n, -1, mod)) % mod
    n_tilde = n_prime * n
    m_big = (n_tilde + 1) >> (w * (d + 1))
    m = -(-(n.bit_length() + w * (d + 1) + 2) // w)
    assert m + 1 <= pe, (m, pe)
    a = rng.randrange(2 * n_tilde)
    b = rng.randrange(2 * n_tilde)
    return a, b, m_big, n_tilde, m


def word_loop(a: int, b: int, m_big: int, w: int, d: int, m: int):
    """The quotients q_0 .. q_(s-1) and the final H; asserts that every X
    fits the V = m + 1 PEs of the product (its words above V - 1 are zero,
    so the top PE's cleared carry loses nothing)."""
    mask = (1 << w) - 1
    s = m + d
    h, qs = 0, []
    for i in range(s):
        bi = (b >> (w * i)) & mask
        qd = qs[i - d] if i >= d else 0
        x = h + bi * a + (qd * m_big << w)
        assert x >> (w * (m + 1)) == 0
        qs.append(x & mask)
        h = x >> w
    return qs, h


if os.environ.get("MONTMUL_IN_SIM"):
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

    @cocotb.test()
    async def test_two_products(dut):
        p = json.loads(os.environ["WS_PARAMS"])
        pe, w, regs, d = p["NumPe"], p["WordWidth"], p["DspRegs"], p["QuotDelay"]
        latency = regs + 3 + p["LoopRegs"]
        rng = random.Random(int(os.environ.get("MONTMUL_SEED", "1")))
        mask = (1 << w) - 1
        prods = []
        for _ in range(2):
            bits = pe * w - w * (d + 2) - 2 - rng.randrange(w)  # V = m + 1 <= pe
            n = rng.randrange(1 << (bits - 1), 1 << bits) | 1
            a, b, m_big, n_tilde, m = operand_words(n, w, d, pe, rng)
            qs, h = word_loop(a, b, m_big, w, d, m)
            s = m + d
            u = (h << (w * d)) + sum(qs[s - d + f] << (w * f) for f in range(d))
            r = 1 << (w * m)
            assert u % n == a * b * pow(r, -1, n) % n and u < 2 * n_tilde
            prods.append({"a": a, "b": b, "M": m_big, "m": m, "s": s, "qs": qs})

        def token(**kw):
            t = {"b": 0, "q": 0, "slot": 0, "wave": 0, "last": 0, "tail": 0, "load": 0, "dest": 0, "flags": 0,
                 "qown": 1}
            t.update(kw)
            return t

        tokens = []
        for slot, pr in enumerate(prods):  # loads: a_v, M_(v-1), flags {result, top, first}
            v_top = pr["m"]  # V - 1
            for v in range(pe):
                a_v = (pr["a"] >> (w * v)) & mask if v <= v_top else 0
                m_v = (pr["M"] >> (w * (v - 1))) & mask if 1 <= v <= v_top else 0
                flags = (2 if v == v_top else 0) | (1 if v == 0 else 0)
                tokens.append(token(b=a_v, q=m_v, slot=slot, load=1, dest=v, flags=flags))
        # idle tokens: their adds send h = 0 and carry 0, so H = 0 for wave 0
        tokens += [token(slot=k % 2) for k in range(pe + latency + 4)]
        if len(tokens) % 2:
            tokens.append(token(slot=1))
        expect = {}  # edge -> quotient on q_o after it
        s_max = max(pr["s"] for pr in prods)
        for i in range(s_max):
            for slot, pr in enumerate(prods):
                if i < pr["s"]:
                    bi = (pr["b"] >> (w * i)) & mask
                    expect[len(tokens) + latency + 1] = (slot, i, pr["qs"][i])
                    tokens.append(token(b=bi, slot=slot, wave=1, last=int(i == pr["s"] - 1),
                                        tail=int(i >= pr["m"]), qown=int(i < d)))
                else:
                    tokens.append(token(slot=slot))
        tokens += [token(slot=k % 2) for k in range(latency + 4)]

        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
        dut.rst_ni.value = 0
        dut.inj_valid_i.value = 0
        await RisingEdge(dut.clk_i)
        await FallingEdge(dut.clk_i)
        dut.rst_ni.value = 1
        seen = 0
        for edge, t in enumerate(tokens):
            await FallingEdge(dut.clk_i)
            dut.inj_valid_i.value = 1
            dut.inj_b_i.value = t["b"]
            dut.inj_q_i.value = t["q"]
            dut.inj_slot_i.value = t["slot"]
            dut.inj_wave_i.value = t["wave"]
            dut.inj_last_i.value = t["last"]
            dut.inj_tail_i.value = t["tail"]
            dut.inj_load_i.value = t["load"]
            dut.inj_dest_i.value = t["dest"]
            dut.inj_dchunk_i.value = 0
            dut.inj_flags_i.value = t["flags"]
            dut.inj_qown_i.value = t["qown"]
            await RisingEdge(dut.clk_i)
            await ReadOnly()
            if edge in expect:
                slot, i, q = expect[edge]
                got = dut.q_o.value
                assert got.is_resolvable and int(got) == q, \
                    f"product {slot} wave {i}: q_o = {got}, expected {q:#x} (edge {edge})"
                seen += 1
        assert seen == sum(pr["s"] for pr in prods)
else:
    import pytest

    #: Icarus runs every case, Verilator the first (ClearMode 1; tb/mm_ws_array
    #: covers the ring, with ClearMode 0, on both simulators too).
    RUNS = [pytest.param(sim, *c, id=f"{sim}-P{c[0]}-w{c[1]}-r{c[2]}-t{c[3]}-d{c[4]}-clr{c[5]}")
            for c in CASES for sim in (("icarus", "verilator") if c == CASES[0] else ("icarus",))]

    @pytest.mark.parametrize("sim,pe,w,regs,loop,d,clr", RUNS)
    def test_mm_ws_ring(sim, pe, w, regs, loop, d, clr):
        from bench_util import unit_bench

        params = {"NumPe": pe, "WordWidth": w, "DspRegs": regs, "LoopRegs": loop, "QuotDelay": d, "ClearMode": clr}
        unit_bench(__file__, "mm_ws_ring", [f"ws/{f}" for f in ("mm_ws_mul.sv", "mm_ws_pe.sv", "mm_ws_ring.sv")],
                   params, sim)
