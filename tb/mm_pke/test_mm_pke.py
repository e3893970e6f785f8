# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_pke (rtl/ws), the public-key engine: sequencer, program
memory, two banks and ALUs around mm_ws_array, against the engine's model
montmul.models.pke.

The bench loads the RSA-CRT program ``pke.rsa_crt_program(build)`` through
the program port and both banks as ``pke.host_images`` lays them out
(every word of every region of ``pke.layout``), starts the engine and
checks

* the total cycles from start to done equal ``pke.run``'s exactly;
* each main-timeline instruction is dispatched (``dbg_disp_o``, with its
  PC) in the cycle the model issues it, less the fetch cycle, and each
  product's first B request (``dbg_prod_o``) is in the model's cycle;
* every word of every region of both banks equals the model's afterwards,
  and the result m at MQ is message^d mod pq (an RSA-CRT signature with a
  real key matches ``pow``);
* bad programs (an unknown opcode, a PROD outside a JOB, END without REP,
  REP nested three deep, a program without HALT) raise err_o with its code
  and done_o, and do not hang.

Builds: one lap of the ring (c = 1) and two (c = 2) at ℓ = 64 on Icarus in
``make test`` (one message and a signature each); on Verilator, and ℓ = 128,
with three messages, under the ``full`` mark (``make test-full``).
"""
from __future__ import annotations

import json
import os
import random

import pytest

#: (bits ℓ, P, w, simulators, full)
CASES = [
    (64, 12, 17, ("icarus",), False),  # c = 1, d = 4, m = 9
    (64, 6, 16, ("icarus",), False),  # c = 2, d = 2, m = 8
    # Verilator: its C++ build alone takes about a minute (make test-full)
    (64, 12, 17, ("verilator",), True),
    (64, 6, 16, ("verilator",), True),
    (128, 10, 17, ("icarus", "verilator"), True),  # c = 2, larger m
]
TOP = "mm_pke"
SOURCES = ["ws/mm_ws_mul.sv", "ws/mm_ws_pe.sv", "ws/mm_ws_ring.sv", "ws/mm_ws_array.sv", "ws/mm_pke_bank.sv",
           "ws/mm_pke_alu.sv", "ws/mm_pke_prog.sv", "ws/mm_pke_seq.sv", f"ws/{TOP}.sv"]
PROG_WORDS = 64


def hdl_params(bits: int, pes: int, w: int) -> dict[str, int]:
    """mm_pke's parameters for pke.Build(bits, pes=pes, w=w) (L = 6: DspRegs 3, LoopRegs 0)."""
    from montmul.models import pke, ws

    b = pke.Build(bits, pes=pes, w=w)
    k = ws.precompute(3, w, b.d, bits)
    return {"NumPe": pes, "WordWidth": w, "DspRegs": 3, "LoopRegs": b.latency - 6, "Chunks": b.array.chunks(k),
            "QuotDelay": b.d, "MaxWords": b.m, "ProgWords": PROG_WORDS, "Bits": bits}


if os.environ.get("MONTMUL_IN_SIM"):
    import cocotb
    import gmpy2
    from cocotb.clock import Clock
    from cocotb.triggers import FallingEdge, RisingEdge

    from montmul.models import pke

    P = json.loads(os.environ["WS_PARAMS"])
    BITS, W = int(os.environ["MONTMUL_PKE_BITS"]), P["WordWidth"]
    BUILD = pke.Build(BITS, pes=P["NumPe"], w=W)
    LAY = pke.layout(BUILD)

    async def start(dut):
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
        dut.rst_ni.value = 0
        for name in ("start_i", "prog_we_i", "prog_addr_i", "prog_wdata_i", "host_we_i", "host_re_i",
                     "host_half_i", "host_addr_i", "host_wdata_i"):
            getattr(dut, name).value = 0
        await RisingEdge(dut.clk_i)
        await FallingEdge(dut.clk_i)
        dut.rst_ni.value = 1
        await FallingEdge(dut.clk_i)

    async def load_program(dut, words: list[int]):
        assert len(words) <= PROG_WORDS
        for i, x in enumerate(words):
            dut.prog_we_i.value = 1
            dut.prog_addr_i.value = i
            dut.prog_wdata_i.value = x
            await FallingEdge(dut.clk_i)
        dut.prog_we_i.value = 0
        await FallingEdge(dut.clk_i)

    def region_addrs() -> list[int]:
        return sorted(a for addr, size in LAY.values() for a in range(addr, addr + size))

    async def load_banks(dut, banks):
        for h in (0, 1):
            for a in region_addrs():
                dut.host_we_i.value = 1
                dut.host_half_i.value = h
                dut.host_addr_i.value = a
                dut.host_wdata_i.value = banks[h][a]
                await FallingEdge(dut.clk_i)
        dut.host_we_i.value = 0

    async def read_banks(dut) -> list[dict[int, int]]:
        out = [{}, {}]
        for h in (0, 1):
            addrs = region_addrs()
            for idx, a in enumerate(addrs + [None, None]):
                if idx >= 2:
                    out[h][addrs[idx - 2]] = int(dut.host_rdata_o.value)
                dut.host_re_i.value = int(a is not None)
                dut.host_half_i.value = h
                dut.host_addr_i.value = a or 0
                await FallingEdge(dut.clk_i)
        dut.host_re_i.value = 0
        return out

    async def run_engine(dut, limit: int):
        """Start the engine; return (cycles start->done, [(cycle, pc) dispatches], [product cycles], err)."""
        dut.start_i.value = 1
        await FallingEdge(dut.clk_i)  # cycle S ends
        dut.start_i.value = 0
        disp, prods = [], []
        for t in range(1, limit):
            if int(dut.dbg_disp_o.value):
                disp.append((t, int(dut.dbg_pc_o.value)))
            if int(dut.dbg_prod_o.value):
                prods.append(t)
            if int(dut.done_o.value):
                await FallingEdge(dut.clk_i)
                assert not int(dut.busy_o.value)
                return t, disp, prods, (int(dut.err_o.value), int(dut.err_code_o.value))
            await FallingEdge(dut.clk_i)
        raise AssertionError(f"no done_o within {limit} cycles")

    def random_prime(bits: int, rng: random.Random) -> int:
        while True:
            p = int(gmpy2.next_prime(rng.randrange(1 << (bits - 1), 1 << bits)))
            if p.bit_length() == bits:
                return p

    async def check_crt(dut, p, q, dp, dq, c):
        """One RSA-CRT operation on the engine against pke.run: cycles, the
        dispatch and product cycles, every region word; returns the result."""
        if q > p:
            p, q, dp, dq = q, p, dq, dp
        banks, ks = pke.host_images(BUILD, p, q, dp, dq, c)
        prog = pke.rsa_crt_program(BUILD)
        model_banks = [bank[:] for bank in banks]
        res = pke.run(prog, model_banks, pke.Machine(BUILD.array, ks))
        await load_program(dut, pke.encode(prog))
        await load_banks(dut, banks)
        cycles, disp, prods, err = await run_engine(dut, res.cycles + 100)
        assert err == (0, 0), f"engine error code {err[1]}"
        assert cycles == res.cycles, f"start to done {cycles} cycles, pke.run {res.cycles}"
        want_disp = [(issue, pc) for pc, text, issue, _ in res.trace if not text.startswith("PROD")]
        want_prods = [issue + 1 for _, text, issue, _ in res.trace if text.startswith("PROD")]
        assert disp == want_disp, f"dispatches (cycle, pc) differ: RTL {disp[:12]}..., model {want_disp[:12]}..."
        assert prods == want_prods, f"products' first B requests differ: RTL {prods[:8]}, model {want_prods[:8]}"
        got = await read_banks(dut)
        for h in (0, 1):
            bad = [(a, got[h][a], model_banks[h][a]) for a in region_addrs() if got[h][a] != model_banks[h][a]]
            assert not bad, f"bank {h}: words (address, RTL, model) differ: {bad[:8]}"
        addr, size = LAY["MQ"]
        return sum(got[0][addr + i] << (W * i) for i in range(size))

    @cocotb.test()
    async def test_rsa_crt(dut):
        """Random primes, exponents and messages, and the message extremes."""
        await start(dut)
        rng = random.Random(int(os.environ.get("MONTMUL_SEED", "1")))
        for c_kind in ("max",) if os.environ.get("MONTMUL_PKE_QUICK") else ("random", 0, "max"):
            p, q = random_prime(BITS, rng), random_prime(BITS - rng.randint(0, 3), rng)
            while q == p:
                q = random_prime(BITS, rng)
            n = p * q
            c = rng.randrange(n) if c_kind == "random" else (0 if c_kind == 0 else n - 1)
            dp, dq = rng.randrange(1, p - 1), rng.randrange(1, q - 1)
            m = await check_crt(dut, p, q, dp, dq, c)
            assert m % p == pow(c, dp, p) and m % q == pow(c, dq, q) and m < n

    @cocotb.test()
    async def test_signature(dut):
        """An RSA-CRT signature with a real key (e = 65537) equals pow(m, d, n) and verifies."""
        await start(dut)
        rng = random.Random(7)
        e = 65537
        while True:
            p, q = random_prime(BITS, rng), random_prime(BITS, rng)
            if p != q and gmpy2.gcd(e, (p - 1) * (q - 1)) == 1:
                break
        n, d = p * q, pow(e, -1, (p - 1) * (q - 1))
        msg = rng.randrange(2, n)
        sig = await check_crt(dut, p, q, d % (p - 1), d % (q - 1), msg)
        assert sig == pow(msg, d, n) and pow(sig, e, n) == msg

    @cocotb.test()
    async def test_bad_programs(dut):
        """Each bad program ends with done_o and err_o with its code (reset between them)."""
        Op, I = pke.Op, pke.Instr
        cases = [
            ([pke.Instr(Op.CLR, 0, 10, n=2).encode() | (31 << 67)], 1),  # opcode 31
            ([I(Op.PROD, pke.F_STORE, 0, 0, 100).encode(), I(Op.HALT).encode()], 2),
            ([I(Op.END).encode(), I(Op.HALT).encode()], 3),
            ([I(Op.REP, n=2).encode(), I(Op.REP, n=2).encode(), I(Op.REP, n=2).encode(), I(Op.HALT).encode()], 3),
            ([I(Op.REP, n=0).encode(), I(Op.HALT).encode()], 3),
            ([I(Op.JOB, 0, 0, 0, 1, pke.GROUP_WORDS, BUILD.m).encode(), I(Op.HALT).encode()], 4),  # no LOAD
            ([I(Op.CLR, 0, 10, n=0).encode(), I(Op.HALT).encode()], 11),
            ([I(Op.CLR, 0, 10, n=1).encode()] * PROG_WORDS, 9),  # no HALT: runs past the end
        ]
        for words, code in cases:
            await start(dut)
            await load_program(dut, words + [0] * (PROG_WORDS - len(words)) if code != 9 else words)
            cycles, _, _, err = await run_engine(dut, 10 * PROG_WORDS)
            assert err == (1, code), f"program {[hex(x) for x in words]}: error {err}, want (1, {code})"
else:
    @pytest.mark.parametrize(
        "sim,bits,pes,w,full",
        [pytest.param(sim, bits, pes, w, full, marks=[pytest.mark.full] if full else [], id=f"{sim}-l{bits}-p{pes}-w{w}")
         for bits, pes, w, sims, full in CASES for sim in sims])
    def test_mm_pke(sim, bits, pes, w, full):
        from bench_util import unit_bench

        params = hdl_params(bits, pes, w)
        hdl = {k: v for k, v in params.items() if k != "Bits"}
        os.environ["MONTMUL_PKE_BITS"] = str(bits)
        # make test: the largest message only (the signature test runs a random one)
        os.environ["MONTMUL_PKE_QUICK"] = "" if full else "1"
        unit_bench(__file__, TOP, SOURCES, hdl, sim, opt=False)
