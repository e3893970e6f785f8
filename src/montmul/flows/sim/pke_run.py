# SPDX-License-Identifier: Apache-2.0
"""cocotb test module that drives mm_pke's host ports (runs inside the
simulator; the host side is :func:`montmul.flows.sim.pke_sim.simulate`).

Environment: ``MONTMUL_PKE_IN`` (a JSON list of runs: ``program``, the
instruction words; ``writes``, per bank the (address, word) pairs to
write; ``reads``, (bank, address, words) triples; ``limit``, the cycles to
wait for done_o; ``trace``, record the dispatches), ``MONTMUL_PKE_OUT``
(one row per run: ``cycles``, ``err``, ``words``, and with ``trace``
``disp``, the (cycle, pc) of every main-timeline dispatch).

Per run: reset; the program through ``prog_we_i`` one word a cycle; the
banks through the bank word port one word a cycle; ``start_i`` for one
cycle (taken at the edge ending cycle S); then the simulation runs without
waking Python until ``done_o`` rises (cycle S + cycles, ``docs/pke.md``);
then the reads, each word on ``host_rdata_o`` two cycles after its
address.  With ``trace`` the run wakes Python only at rising edges of
``dbg_disp_o`` and samples it and ``dbg_pc_o`` at every falling edge while
it is high (cycle t counted as the cycles are: 1 is the cycle after S).
"""

from __future__ import annotations

import json
import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, First, RisingEdge, Timer
from cocotb.utils import get_sim_time

PERIOD_NS = 10
INPUTS = ("start_i", "prog_we_i", "prog_addr_i", "prog_wdata_i", "host_we_i", "host_re_i", "host_half_i",
          "host_addr_i", "host_wdata_i")


async def reset(dut) -> None:
    for name in INPUTS:
        getattr(dut, name).value = 0
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 2)
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    await FallingEdge(dut.clk_i)


async def load_program(dut, words: list[int]) -> None:
    for i, x in enumerate(words):
        dut.prog_we_i.value = 1
        dut.prog_addr_i.value = i
        dut.prog_wdata_i.value = x
        await FallingEdge(dut.clk_i)
    dut.prog_we_i.value = 0
    await FallingEdge(dut.clk_i)


async def write_banks(dut, writes: list[list[tuple[int, int]]]) -> None:
    for h, pairs in enumerate(writes):
        for addr, x in pairs:
            dut.host_we_i.value = 1
            dut.host_half_i.value = h
            dut.host_addr_i.value = addr
            dut.host_wdata_i.value = x
            await FallingEdge(dut.clk_i)
    dut.host_we_i.value = 0
    await FallingEdge(dut.clk_i)


async def read_addrs(dut, half: int, addrs: list[int]) -> list[int]:
    """The words at ``addrs`` of bank ``half``, one address a cycle (each
    word on ``host_rdata_o`` two cycles after its address)."""
    out = []
    for idx, a in enumerate([*addrs, None, None]):
        if idx >= 2:
            out.append(int(dut.host_rdata_o.value))
        dut.host_re_i.value = int(a is not None)
        dut.host_half_i.value = half
        dut.host_addr_i.value = a or 0
        await FallingEdge(dut.clk_i)
    dut.host_re_i.value = 0
    return out


async def read_words(dut, half: int, addr: int, n: int) -> list[int]:
    """Words addr .. addr+n-1 of bank ``half``."""
    return await read_addrs(dut, half, list(range(addr, addr + n)))


async def _dispatches(dut, t0: float, out: list[list[int]]) -> None:
    """Append [cycle, pc] for every cycle dbg_disp_o is high at the falling
    edge (the settled value; a rising edge inside a time step may be a
    glitch).  Started at a falling edge."""
    while True:
        while int(dut.dbg_disp_o.value):
            out.append([round((get_sim_time(unit="ns") - t0) / PERIOD_NS) + 1, int(dut.dbg_pc_o.value)])
            await FallingEdge(dut.clk_i)
        await RisingEdge(dut.dbg_disp_o)
        await FallingEdge(dut.clk_i)


async def run_engine(dut, limit: int, disp: list | None = None) -> tuple[int, int]:
    """Start the engine; (cycles from start to done_o, err_code_o).
    ``disp``: a list to which the dispatches are appended ([cycle, pc])."""
    dut.start_i.value = 1
    await FallingEdge(dut.clk_i)  # the edge ending cycle S took start_i
    dut.start_i.value = 0
    t0 = get_sim_time(unit="ns")  # the middle of cycle S + 1
    end = t0 + limit * PERIOD_NS
    watch = None
    if disp is not None:
        watch = cocotb.start_soon(_dispatches(dut, t0, disp))
    # done_o is combinational: a rising edge inside a time step may not last
    # (a glitch); the settled value at the next falling edge decides.
    while not int(dut.done_o.value):
        left = end - get_sim_time(unit="ns")
        if left <= 0:
            raise AssertionError(f"mm_pke: no done_o within {limit} cycles")
        fired = await First(RisingEdge(dut.done_o), Timer(left, unit="ns"))
        if isinstance(fired, Timer):
            raise AssertionError(f"mm_pke: no done_o within {limit} cycles")
        await FallingEdge(dut.clk_i)
    cycles = round((get_sim_time(unit="ns") - t0) / PERIOD_NS) + 1
    assert int(dut.done_o.value), "done_o is a one-cycle pulse seen at the falling edge"
    if watch is not None:  # the watcher may or may not have sampled this edge yet: sample it here once
        watch.cancel()
        if int(dut.dbg_disp_o.value) and (not disp or disp[-1][0] < cycles):
            disp.append([cycles, int(dut.dbg_pc_o.value)])
    await FallingEdge(dut.clk_i)  # err_o and err_code_o (sticky) are registered: read a cycle after done_o
    err = int(dut.err_code_o.value) if int(dut.err_o.value) else 0
    return cycles, err


@cocotb.test()
async def run_programs(dut):
    with open(os.environ["MONTMUL_PKE_IN"]) as f:
        runs = json.load(f)
    Clock(dut.clk_i, PERIOD_NS, unit="ns").start()
    rows = []
    for r in runs:
        await reset(dut)
        await load_program(dut, [int(x, 16) for x in r["program"]])
        await write_banks(dut, [[(a, int(x, 16)) for a, x in pairs] for pairs in r["writes"]])
        disp = [] if r.get("trace") else None
        cycles, err = await run_engine(dut, int(r["limit"]), disp)
        words = [[hex(x) for x in await read_words(dut, h, a, n)] for h, a, n in r["reads"]]
        rows.append({"cycles": cycles, "err": err, "words": words, **({"disp": disp} if r.get("trace") else {})})
    with open(os.environ["MONTMUL_PKE_OUT"], "w") as f:
        json.dump(rows, f)
