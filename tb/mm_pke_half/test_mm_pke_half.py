# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_pke_half (rtl/ws): one half's bank and word ALU of the
public-key engine against the engine's model montmul.models.pke: every
instruction's memory effect bit for bit and its cycles (done_o in the op's
last cycle, I + X - 1, X from pke.Timing).

Programs of MOV, CLR, ADD, SUB, SEL (after the flag of an ADD or SUB), MACR
in REDC mode (a real modulus and its -N^-1 mod 2^w) and in MUL mode, the
lengths 1 and longer, operands in both EBR groups; the bank is loaded and
read back through the host port (after every instruction, and once after a
program run back to back, each instruction dispatched the cycle after the
previous one's done_o); the model runs the same program on half 0.  Also:
commands that do nothing (n = 0, no rows, another opcode) take one cycle.
Icarus at w = 8 and 17, Verilator at 17.
"""
from __future__ import annotations

import json
import os
import random

#: (simulator, WordWidth)
CASES = [("icarus", 8), ("icarus", 17), ("verilator", 17)]
TOP = "mm_pke_half"
SOURCES = ["ws/mm_pke_pkg.sv", "ws/mm_ws_mul.sv", "ws/mm_pke_bank.sv", "ws/mm_pke_alu.sv", f"ws/{TOP}.sv"]


if os.environ.get("MONTMUL_IN_SIM"):
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import FallingEdge, RisingEdge

    from montmul.models import pke, ws

    P = json.loads(os.environ["WS_PARAMS"])
    W = P["WordWidth"]
    G1 = pke.GROUP_WORDS
    Op = pke.Op

    async def start(dut):
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
        dut.rst_ni.value = 0
        for name in ("cmd_valid_i", "cmd_op_i", "cmd_redc_i", "cmd_dst_i", "cmd_a_i", "cmd_b_i", "cmd_rows_i",
                     "cmd_n_i", "host_we_i", "host_re_i", "host_addr_i", "host_wdata_i"):
            getattr(dut, name).value = 0
        await RisingEdge(dut.clk_i)
        await FallingEdge(dut.clk_i)
        dut.rst_ni.value = 1
        await FallingEdge(dut.clk_i)

    async def host_write(dut, bank, addrs):
        for a in addrs:
            dut.host_we_i.value = 1
            dut.host_addr_i.value = a
            dut.host_wdata_i.value = bank[a]
            await FallingEdge(dut.clk_i)
        dut.host_we_i.value = 0

    async def host_read(dut, addrs) -> dict[int, int]:
        """Read words through the host port: a word addressed in cycle t is on host_rdata_o in t + 2."""
        addrs = list(addrs)
        out = {}
        for idx, a in enumerate(addrs + [None, None]):
            if idx >= 2:  # here: the cycle two after addrs[idx - 2] was addressed
                out[addrs[idx - 2]] = int(dut.host_rdata_o.value)
            dut.host_re_i.value = int(a is not None)
            dut.host_addr_i.value = a or 0
            await FallingEdge(dut.clk_i)
        dut.host_re_i.value = 0
        return out

    async def execute(dut, ins: pke.Instr) -> int:
        """Present ins in cycle T, return k with done_o in cycle I + k (I = T + 1)."""
        assert int(dut.cmd_ready_o.value)
        dut.cmd_valid_i.value = 1
        dut.cmd_op_i.value = int(ins.op)
        dut.cmd_redc_i.value = int(bool(ins.flags & pke.F_REDC))
        dut.cmd_dst_i.value = ins.dst
        dut.cmd_a_i.value = ins.a
        dut.cmd_b_i.value = ins.b
        dut.cmd_rows_i.value = ins.c
        dut.cmd_n_i.value = ins.n
        await FallingEdge(dut.clk_i)  # now in cycle I
        dut.cmd_valid_i.value = 0
        for k in range(100000):
            if int(dut.done_o.value):
                await FallingEdge(dut.clk_i)
                assert int(dut.cmd_ready_o.value)
                return k
            assert not int(dut.cmd_ready_o.value)
            await FallingEdge(dut.clk_i)
        raise AssertionError(f"{ins}: no done_o")

    def program(rng: random.Random) -> tuple[list[pke.Instr], list[int], set[int]]:
        """A random program over regions in both groups, the initial bank and
        the addresses it touches."""
        bank = [0] * pke.MEM_WORDS
        mask = (1 << W) - 1
        x0, x1 = 0, G1  # operands
        touched = set()
        for base in (x0, x1):
            for i in range(40):
                bank[base + i] = rng.getrandbits(W)
                touched.add(base + i)
        # A modulus for REDC at G1 + 100 (its -N^-1 mod 2^w just below) and an accumulator at 200.
        cols = rng.randint(1, 6)
        n = rng.getrandbits(W * cols) | 1 | (1 << (W * cols - 1))
        bank[G1 + 99] = -pow(n, -1, 1 << W) % (1 << W)
        for i in range(cols):
            bank[G1 + 100 + i] = (n >> (W * i)) & mask
        touched |= set(range(G1 + 99, G1 + 100 + cols))
        rows = rng.randint(1, 5)
        for i in range(rows + cols):  # Y_0: rows + cols words; Y[rows+cols] is written
            bank[200 + i] = rng.getrandbits(W)
        touched |= set(range(200, 201 + rows + cols))
        prog = []
        for _ in range(8):
            k = rng.choice([1, 2, rng.randint(1, 30)])
            kind = rng.choice(["ADD", "SUB", "MOV", "CLR", "SELADD", "SELSUB"])
            dst = rng.choice([300, G1 + 300, 400, G1 + 400])
            a, b = rng.choice([(x0, x1), (x1, x0)])
            a += rng.randint(0, 5)
            b += rng.randint(0, 5)
            if kind in ("ADD", "SUB"):
                prog.append(pke.Instr(Op[kind], 0, dst, a, b, n=k))
            elif kind == "MOV":
                prog.append(pke.Instr(Op.MOV, 0, dst, a, n=k))
            elif kind == "CLR":
                prog.append(pke.Instr(Op.CLR, 0, dst, n=k))
            else:  # the flag of an ADD or SUB, then SEL on it
                prog.append(pke.Instr(Op[kind[3:]], 0, dst, a, b, n=k))
                prog.append(pke.Instr(Op.SEL, 0, G1 + 500 if dst < G1 else 500, a, b, n=k))
            touched |= set(range(dst, dst + k)) | set(range(500, 500 + k)) | set(range(G1 + 500, G1 + 500 + k))
        prog.append(pke.Instr(Op.MACR, pke.F_REDC, 200, 0, G1 + 100, rows, cols))
        rows2, cols2 = rng.randint(1, 6), rng.randint(1, 6)
        for i in range(rows2 + cols2):
            bank[600 + i] = rng.getrandbits(W)
        touched |= set(range(600, 601 + rows2 + cols2))
        prog.append(pke.Instr(Op.MACR, 0, 600, rng.choice([x0, x1]), G1 + rng.randint(0, 10), rows2, cols2))
        return prog, bank, touched

    def model(prog, bank):
        """Run prog on half 0 of the engine model: (bank after, cycles X of each instruction)."""
        banks = [bank[:], [0] * pke.MEM_WORDS]
        arr = ws.Array(10, W, 2)
        k = ws.precompute(101, W, 2, 64)
        res = pke.run([pke.Instr(i.op, i.flags | pke.F_H0, i.dst, i.a, i.b, i.c, i.n) for i in prog]
                      + [pke.Instr(Op.HALT)], banks, pke.Machine(arr, [k, k]))
        return banks[0], [t[3] for t in res.trace[:-1]]

    async def check(dut, prog, bank, touched):
        """Load the bank, run prog instruction by instruction; after each,
        the touched words and the cycles equal the model's."""
        await host_write(dut, bank, sorted(touched))
        _, cycles = model(prog, bank)
        for i, (ins, x) in enumerate(zip(prog, cycles)):
            k = await execute(dut, ins)
            assert k == x - 1, f"{ins}: done_o {k} cycles after the first, model X - 1 = {x - 1}"
            want, _ = model(prog[: i + 1], bank)
            got = await host_read(dut, sorted(touched))
            bad = [(a, got[a], want[a]) for a in sorted(touched) if got[a] != want[a]]
            assert not bad, f"after {ins} (op {i} of {prog}): words (address, RTL, model) differ: {bad[:8]}"

    async def check_back_to_back(dut, prog, bank, touched):
        """The same, instructions back to back (each presented in the cycle
        after the previous one's done_o, as the sequencer dispatches them)."""
        await host_write(dut, bank, sorted(touched))
        want, cycles = model(prog, bank)
        for ins, x in zip(prog, cycles):
            k = await execute(dut, ins)
            assert k == x - 1, f"{ins}: done_o {k} cycles after the first, model X - 1 = {x - 1}"
        got = await host_read(dut, sorted(touched))
        bad = [(a, got[a], want[a]) for a in sorted(touched) if got[a] != want[a]]
        assert not bad, f"{[str(i) for i in prog]}: words (address, RTL, model) differ: {bad[:8]}"

    @cocotb.test()
    async def test_back_to_back(dut):
        await start(dut)
        rng = random.Random(int(os.environ.get("MONTMUL_SEED", "1")))
        for _ in range(4):
            await check_back_to_back(dut, *program(rng))

    @cocotb.test()
    async def test_directed(dut):
        """n = 1, the largest carry chains (all-ones words), SEL on both flags, MACR with one column."""
        await start(dut)
        mask = (1 << W) - 1
        bank = [0] * pke.MEM_WORDS
        for i in range(8):
            bank[i], bank[G1 + i] = mask, mask if i else 1
        bank[G1 + 20] = 1  # N = 1 word... odd: REDC with -N^-1 = mask
        bank[G1 + 19] = mask
        for i in range(3):
            bank[100 + i] = mask
        touched = set(range(8)) | set(range(G1, G1 + 8)) | {G1 + 19, G1 + 20} | set(range(100, 103))
        prog = [pke.Instr(Op.ADD, 0, 300, 0, G1, n=8), pke.Instr(Op.SEL, 0, G1 + 300, 0, G1, n=8),
                pke.Instr(Op.SUB, 0, 310, G1, 0, n=8), pke.Instr(Op.SEL, 0, G1 + 310, 0, G1, n=8),
                pke.Instr(Op.SUB, 0, 320, 1, G1, n=1), pke.Instr(Op.MOV, 0, G1 + 330, 0, n=1),
                pke.Instr(Op.CLR, 0, 340, n=1), pke.Instr(Op.MACR, pke.F_REDC, 100, 0, G1 + 20, 2, 1),
                pke.Instr(Op.MACR, 0, 100, 0, G1 + 1, 1, 1)]
        touched |= set(range(300, 308)) | set(range(G1 + 300, G1 + 308)) | set(range(310, 318))
        touched |= set(range(G1 + 310, G1 + 318)) | {320, G1 + 330, 340, 103}
        await check(dut, prog, bank, touched)
        # n = 0, rows = 0 and an opcode that is not the ALU's: one cycle, no write.
        for ins in (pke.Instr(Op.ADD, 0, 300, 0, G1, n=0), pke.Instr(Op.MACR, 0, 300, 0, G1, 0, 3),
                    pke.Instr(Op.JOB, 0, 300, 0, G1, n=3)):
            assert await execute(dut, ins) == 0, f"{ins}: more than one cycle"
        got = await host_read(dut, sorted(touched))
        want, _ = model(prog, bank)
        assert all(got[a] == want[a] for a in touched), "a command that does nothing wrote a word"

    @cocotb.test()
    async def test_random_programs(dut):
        await start(dut)
        rng = random.Random(int(os.environ.get("MONTMUL_SEED", "1")))
        for _ in range(4):
            await check(dut, *program(rng))
else:
    import pytest

    @pytest.mark.parametrize("sim,w", CASES, ids=[f"{c[0]}-w{c[1]}" for c in CASES])
    def test_mm_pke_half(sim, w):
        from bench_util import unit_bench

        unit_bench(__file__, TOP, SOURCES, {"WordWidth": w, "AddrBits": 13, "LenBits": 10}, sim, opt=False)
