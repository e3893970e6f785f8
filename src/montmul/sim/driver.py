# SPDX-License-Identifier: Apache-2.0
"""cocotb driver for the common montmul core interface (docs/interface.md).

Python wakes only at handshake events (never once per clock cycle), so bulk
runs of thousands of 1024-bit multiplications stay fast; the latency is read
from simulation time.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass

from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, with_timeout
from cocotb.utils import get_sim_time

from .. import cores

PERIOD_NS = 10


@dataclass
class Response:
    s: int
    err: int
    cycles: int


def config() -> tuple[cores.Core, int, dict[str, int]]:
    """The core, width and HDL parameters this simulation was built with."""
    core = cores.get(os.environ["MONTMUL_CORE"])
    width = int(os.environ["MONTMUL_WIDTH"])
    params = json.loads(os.environ.get("MONTMUL_PARAMS", "{}"))
    return core, width, params


class CoreDriver:
    """Drives requests into a core and collects its responses."""

    def __init__(self, dut) -> None:
        self.dut = dut
        self.clk = dut.clk_i

    async def start(self) -> None:
        Clock(self.clk, PERIOD_NS, unit="ns").start()
        dut = self.dut
        dut.in_valid_i.value = 0
        dut.out_ready_i.value = 0
        dut.a_i.value = 0
        dut.b_i.value = 0
        dut.n_i.value = 0
        await self.reset()

    async def reset(self, cycles: int = 2) -> None:
        dut = self.dut
        await FallingEdge(self.clk)
        dut.rst_ni.value = 0
        for _ in range(cycles):
            await FallingEdge(self.clk)
        dut.rst_ni.value = 1
        await FallingEdge(self.clk)

    def timeout_ns(self) -> int:
        """No response within twice the latency bound (plus slack) is a hang."""
        core, width, params = config()
        bound = core.bound(width, params) or 64 * width
        return (2 * bound + 100) * PERIOD_NS

    def now_cycles(self) -> float:
        return get_sim_time(unit="ns") / PERIOD_NS

    async def request(self, a: int, b: int, n: int) -> float:
        """Present a request; return the accepting edge's time in cycles."""
        dut = self.dut
        await FallingEdge(self.clk)
        dut.a_i.value = a
        dut.b_i.value = b
        dut.n_i.value = n
        dut.in_valid_i.value = 1
        for _ in range(self.timeout_ns() // PERIOD_NS):
            await ReadOnly()
            ready = int(dut.in_ready_o.value)
            await RisingEdge(self.clk)
            if ready:
                t = self.now_cycles()
                break
        else:
            raise AssertionError("request never accepted (in_ready_o stuck low)")
        await FallingEdge(self.clk)
        dut.in_valid_i.value = 0
        return t

    async def response(self, t_accept: float, ready_after: int = 0, t_valid: float | None = None) -> Response:
        """Wait for out_valid_o, accept it (after ``ready_after`` extra cycles of
        back-pressure, checking the response stays stable) and return it.

        A caller that already saw out_valid_o high (in the ReadOnly phase of
        the edge that raised it) passes that edge's time as ``t_valid``.
        """
        dut = self.dut
        if t_valid is None:
            await ReadOnly()
            if int(dut.out_valid_o.value):
                # Already valid (a rejected request answers at the accepting
                # edge): it rose at the latest rising clock edge.
                t_valid = float(math.floor(self.now_cycles()))
            else:
                await with_timeout(RisingEdge(dut.out_valid_o), self.timeout_ns(), "ns")
                t_valid = self.now_cycles()
                await ReadOnly()
        s, err = int(dut.s_o.value), int(dut.err_o.value)
        for _ in range(ready_after):
            await FallingEdge(self.clk)
            await ReadOnly()
            assert int(dut.out_valid_o.value) == 1, "out_valid_o dropped before out_ready_i"
            assert int(dut.s_o.value) == s and int(dut.err_o.value) == err, "response changed under back-pressure"
        await FallingEdge(self.clk)
        dut.out_ready_i.value = 1
        await RisingEdge(self.clk)
        await FallingEdge(self.clk)
        dut.out_ready_i.value = 0
        cycles = round(t_valid - t_accept)
        return Response(s, err, cycles)

    async def wait_valid(self) -> float:
        """Wait for out_valid_o to rise; returns that edge's time in cycles."""
        await with_timeout(RisingEdge(self.dut.out_valid_o), self.timeout_ns(), "ns")
        return self.now_cycles()

    async def mul(self, a: int, b: int, n: int, ready_after: int = 0) -> Response:
        t = await self.request(a, b, n)
        return await self.response(t, ready_after)
