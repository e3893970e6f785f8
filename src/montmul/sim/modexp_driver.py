# SPDX-License-Identifier: Apache-2.0
"""cocotb driver for mm_modexp (docs/modexp.md): requests, responses, and a
monitor of the products the engine hands to its core.

Like :mod:`montmul.sim.driver`, Python wakes at handshake events, never once
per clock cycle; the latency is read from simulation time.  Runs inside the
simulator only.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, with_timeout
from cocotb.utils import get_sim_time

from .driver import PERIOD_NS, config


@dataclass
class ExpResponse:
    result: int
    err: int
    cycles: int
    mults: int


@dataclass
class Product:
    """One core product seen at the engine/core boundary."""

    a: int
    b: int
    s: int
    err: int


class ProductMonitor:
    """Records every product: operands at the core's accepting edge, result
    at the edge that raises the core's out_valid.  Reads the engine's own
    nets (core_in_valid, op_a, ...), visible in both simulators."""

    def __init__(self, dut) -> None:
        self.dut = dut
        self.products: list[Product] = []
        self._pending: tuple[int, int] | None = None
        self._task = None

    def start(self) -> None:
        self._task = cocotb.start_soon(self._run())

    async def _run(self) -> None:
        dut = self.dut
        while True:
            await RisingEdge(dut.core_in_valid)
            # in_valid stays high until the core's in_ready (the edge that
            # accepts); the operands are stable meanwhile.
            await ReadOnly()
            a, b = int(dut.op_a.value), int(dut.op_b.value)
            await RisingEdge(dut.core_out_valid)
            await ReadOnly()
            self.products.append(Product(a, b, int(dut.core_s.value), int(dut.core_err.value)))

    def take(self) -> list[Product]:
        out, self.products = self.products, []
        return out


class ModexpDriver:
    """Drives requests into mm_modexp and collects its responses."""

    def __init__(self, dut) -> None:
        self.dut = dut
        self.clk = dut.clk_i
        self.mults = 0
        self._count_task = None

    async def start(self) -> None:
        Clock(self.clk, PERIOD_NS, unit="ns").start()
        dut = self.dut
        dut.in_valid_i.value = 0
        dut.out_ready_i.value = 0
        for port in ("base_i", "exp_i", "exp_len_i", "n_i", "r2_i", "ladder_i"):
            getattr(dut, port).value = 0
        await self.reset()
        self._count_task = cocotb.start_soon(self._count())

    async def _count(self) -> None:
        """Count the products handed to the core (rising core_in_valid)."""
        while True:
            await RisingEdge(self.dut.core_in_valid)
            self.mults += 1

    async def reset(self, cycles: int = 2) -> None:
        dut = self.dut
        await FallingEdge(self.clk)
        dut.rst_ni.value = 0
        for _ in range(cycles):
            await FallingEdge(self.clk)
        dut.rst_ni.value = 1
        await FallingEdge(self.clk)

    def timeout_cycles(self) -> int:
        t = os.environ.get("MONTMUL_MODEXP_TIMEOUT")
        if t:
            return int(t)
        core, width, params = config()
        return 2 * (4 + 2 * width) * ((core.bound(width, params) or 64 * width) + 2) + 100

    def now_cycles(self) -> float:
        return get_sim_time(unit="ns") / PERIOD_NS

    def drive(self, base: int, exp: int, exp_len: int, n: int, r2: int, ladder: int) -> None:
        dut = self.dut
        dut.base_i.value = base
        dut.exp_i.value = exp
        dut.exp_len_i.value = exp_len
        dut.n_i.value = n
        dut.r2_i.value = r2
        dut.ladder_i.value = int(ladder)

    async def request(self, base: int, exp: int, exp_len: int, n: int, r2: int, ladder: int) -> float:
        """Present a request; return the accepting edge's time in cycles."""
        dut = self.dut
        await FallingEdge(self.clk)
        self.drive(base, exp, exp_len, n, r2, ladder)
        dut.in_valid_i.value = 1
        for _ in range(self.timeout_cycles()):
            await ReadOnly()
            ready = int(dut.in_ready_o.value)
            await RisingEdge(self.clk)
            if ready:
                t = self.now_cycles()
                break
        else:
            raise AssertionError("request never accepted (in_ready_o stuck low)")
        self.mults_at_accept = self.mults
        await FallingEdge(self.clk)
        dut.in_valid_i.value = 0
        return t

    async def wait_valid(self) -> float:
        await with_timeout(RisingEdge(self.dut.out_valid_o), self.timeout_cycles() * PERIOD_NS, "ns")
        return self.now_cycles()

    async def response(self, t_accept: float, ready_after: int = 0, t_valid: float | None = None) -> ExpResponse:
        """Wait for out_valid_o, hold out_ready_i low ``ready_after`` cycles
        (checking the response stays stable), take it and return it."""
        dut = self.dut
        if t_valid is None:
            await ReadOnly()
            if int(dut.out_valid_o.value):
                # A rejected request: valid right after the accepting edge.
                t_valid = float(math.floor(self.now_cycles()))
            else:
                t_valid = await self.wait_valid()
                await ReadOnly()
        # (A caller passing t_valid is in the ReadOnly phase of that edge.)
        res, err = int(dut.result_o.value), int(dut.err_o.value)
        mults = self.mults - self.mults_at_accept
        for _ in range(ready_after):
            await FallingEdge(self.clk)
            await ReadOnly()
            assert int(dut.out_valid_o.value) == 1, "out_valid_o dropped before out_ready_i"
            assert int(dut.result_o.value) == res and int(dut.err_o.value) == err, (
                "response changed under back-pressure"
            )
            assert int(dut.in_ready_o.value) == 0, "in_ready_o high while a response is held"
            assert self.mults - self.mults_at_accept == mults, "core started while a response is held"
        await FallingEdge(self.clk)
        dut.out_ready_i.value = 1
        await RisingEdge(self.clk)
        await FallingEdge(self.clk)
        dut.out_ready_i.value = 0
        return ExpResponse(res, err, round(t_valid - t_accept), mults)

    async def modexp(
        self, base: int, exp: int, exp_len: int, n: int, r2: int, ladder: int, ready_after: int = 0
    ) -> ExpResponse:
        t = await self.request(base, exp, exp_len, n, r2, ladder)
        return await self.response(t, ready_after)
