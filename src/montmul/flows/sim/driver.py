# SPDX-License-Identifier: Apache-2.0
"""cocotb drivers for the valid/ready handshake of docs/interface.md.

One protocol, one implementation: :class:`Handshake` presents requests on a
DUT's request ports and takes responses from its response ports, checking the
AXI-Stream rules on the way (a response is held, unchanged, under
back-pressure).  The three DUT kinds differ only in their port names:

* :class:`CoreDriver`: every core on the common interface (a_i, b_i, n_i ->
  s_o, err_o);
* :class:`CsDriver`: the carry-save FCS cores (as_i, ac_i, bs_i, bc_i, n_i ->
  ss_o, sc_o, err_o);
* :class:`ModexpDriver`: the exponentiation engine mm_modexp (base_i, exp_i,
  exp_len_i, n_i, r2_i, ladder_i -> result_o, err_o), which also counts the
  products it hands to its core.

Python wakes only at handshake events (never once per clock cycle), so bulk
runs of thousands of 1024-bit multiplications stay fast; latencies are read
from simulation time.  Runs inside the simulator only.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly, RisingEdge, with_timeout
from cocotb.utils import get_sim_time

from ... import cores

PERIOD_NS = 10


def config() -> tuple[cores.Core, int, dict[str, int]]:
    """The core, width and HDL parameters this simulation was built with."""
    core = cores.lookup(os.environ["MONTMUL_CORE"])
    width = int(os.environ["MONTMUL_WIDTH"])
    params = json.loads(os.environ.get("MONTMUL_PARAMS", "{}"))
    return core, width, params


class Handshake:
    """Requests and responses on named ports of ``dut``.

    ``timeout_cycles``: no acceptance or response within that many cycles is
    a hang (AssertionError).  ``single``: the DUT keeps one request in
    flight, so ``in_ready_o`` must stay low while a response is held.
    """

    request_ports: tuple[str, ...] = ()
    response_ports: tuple[str, ...] = ()

    def __init__(self, dut, timeout_cycles: int, single: bool = True) -> None:
        self.dut = dut
        self.clk = dut.clk_i
        self.timeout_cycles = timeout_cycles
        self.single = single

    async def start(self) -> None:
        """Start the clock, idle every input, and reset."""
        Clock(self.clk, PERIOD_NS, unit="ns").start()
        self.dut.in_valid_i.value = 0
        self.dut.out_ready_i.value = 0
        self.drive((0,) * len(self.request_ports))
        await self.reset()

    async def reset(self, cycles: int = 2) -> None:
        dut = self.dut
        await FallingEdge(self.clk)
        dut.rst_ni.value = 0
        for _ in range(cycles):
            await FallingEdge(self.clk)
        dut.rst_ni.value = 1
        await FallingEdge(self.clk)

    def now_cycles(self) -> float:
        return get_sim_time(unit="ns") / PERIOD_NS

    def drive(self, values) -> None:
        for port, v in zip(self.request_ports, values, strict=True):
            getattr(self.dut, port).value = v

    def sample(self) -> tuple[int, ...]:
        return tuple(int(getattr(self.dut, port).value) for port in self.response_ports)

    async def request(self, *values: int) -> float:
        """Present a request and hold it until accepted; return the
        accepting edge's time in cycles."""
        await FallingEdge(self.clk)
        t = await self.present(values)
        self.accepted(t)
        await FallingEdge(self.clk)
        self.dut.in_valid_i.value = 0
        return t

    async def present(self, values) -> float:
        """Drive a request with in_valid_i high (after a falling edge) until a
        rising edge accepts it; return that edge's time in cycles (in_valid_i
        stays high)."""
        dut = self.dut
        self.drive(values)
        dut.in_valid_i.value = 1
        for _ in range(self.timeout_cycles):
            await ReadOnly()
            ready = int(dut.in_ready_o.value)
            await RisingEdge(self.clk)
            if ready:
                return self.now_cycles()
        raise AssertionError("request never accepted (in_ready_o stuck low)")

    async def request_while_busy(self, first, second, check, ready_after: int = 0) -> None:
        """Present ``first``, then at once ``second``, held valid while the
        DUT is busy with ``first``: ``in_ready_o`` must stay low (the second
        request not taken) until the first response is valid, be high once
        that response is read (``ready_after`` cycles of back-pressure on it),
        and the held request is taken, unchanged, at the next edge.
        ``check(response, request)`` is called on each response as soon as
        it is read (this driver's ``response``), before the next one runs."""
        dut = self.dut
        t1 = await self.request(*first)
        self.drive(second)
        dut.in_valid_i.value = 1
        assert await cycles_refused(dut) > 0, "the second request was not presented while busy"
        check(await self.response(t1, ready_after=ready_after, t_valid=self.now_cycles()), first)
        await ReadOnly()
        assert int(dut.in_ready_o.value) == 1, "not idle after its response was read"
        await RisingEdge(self.clk)
        t2 = self.now_cycles()
        self.accepted(t2)
        await FallingEdge(self.clk)
        dut.in_valid_i.value = 0
        check(await self.response(t2), second)

    async def reset_during(self, values, cycles: int, what: str = "core") -> None:
        """Present ``values`` and, ``cycles`` cycles (at least one) after the
        falling edge that follows its accepting edge, reset the DUT for one
        cycle (:func:`reset_pulse`: the response drops, the DUT is idle
        right after; ``what`` names it in the message)."""
        await self.request(*values)
        await ClockCycles(self.clk, max(1, cycles))
        await reset_pulse(self.dut, what)

    def accepted(self, t: float) -> None:
        """Hook: a request was accepted at time ``t``."""

    def holding(self) -> None:
        """Hook: one more cycle of a held response (in the ReadOnly phase)."""

    async def wait_valid(self) -> float:
        """Wait for out_valid_o to rise; returns that edge's time in cycles."""
        await with_timeout(RisingEdge(self.dut.out_valid_o), self.timeout_cycles * PERIOD_NS, "ns")
        return self.now_cycles()

    async def take(self, t_accept: float, ready_after: int = 0, t_valid: float | None = None):
        """Wait for the response, hold out_ready_i low for ``ready_after``
        cycles (checking that the response stays put), take it; returns
        (response port values, latency in cycles).

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
                t_valid = await self.wait_valid()
                await ReadOnly()
        first = self.sample()
        for _ in range(ready_after):
            await FallingEdge(self.clk)
            await ReadOnly()
            assert int(dut.out_valid_o.value) == 1, "out_valid_o dropped before out_ready_i"
            assert self.sample() == first, "response changed under back-pressure"
            if self.single:
                assert int(dut.in_ready_o.value) == 0, "in_ready_o high while a response is held"
            self.holding()
        await FallingEdge(self.clk)
        dut.out_ready_i.value = 1
        await RisingEdge(self.clk)
        await FallingEdge(self.clk)
        dut.out_ready_i.value = 0
        return first, round(t_valid - t_accept)


# --- the common core interface ----------------------------------------------
@dataclass
class Response:
    s: int
    err: int
    cycles: int


async def reset_pulse(dut, what: str = "core") -> None:
    """Reset the DUT for one cycle, between falling edges: its response must
    drop at once, and it must be idle (``in_ready_o`` high) right after."""
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 0
    await ReadOnly()
    assert int(dut.out_valid_o.value) == 0, "out_valid_o must drop at reset"
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    await ReadOnly()
    assert int(dut.in_ready_o.value) == 1, f"{what} must be idle after reset"


async def cycles_refused(dut) -> int:
    """With a request held valid while the DUT is busy: the cycles until its
    response is valid, each with ``in_ready_o`` low (the request not taken)."""
    waited = 0
    while True:
        await RisingEdge(dut.clk_i)
        await ReadOnly()
        if int(dut.out_valid_o.value):
            return waited
        assert int(dut.in_ready_o.value) == 0, "in_ready_o high while busy"
        waited += 1


def core_timeout(core: cores.Core, width: int, params: dict[str, int]) -> int:
    """Twice the latency bound (plus slack) is a hang."""
    return 2 * core.bound(width, params) + 100


class CoreDriver(Handshake):
    """A core on the common interface; core, width and parameters from the
    simulation's environment (:func:`config`)."""

    request_ports = ("a_i", "b_i", "n_i")
    response_ports = ("s_o", "err_o")

    def __init__(self, dut) -> None:
        core, width, params = config()
        super().__init__(dut, core_timeout(core, width, params), single=core.in_flight(params) == 1)

    async def response(self, t_accept: float, ready_after: int = 0, t_valid: float | None = None) -> Response:
        (s, err), cycles = await self.take(t_accept, ready_after, t_valid)
        return Response(s, err, cycles)

    async def mul(self, a: int, b: int, n: int, ready_after: int = 0) -> Response:
        t = await self.request(a, b, n)
        return await self.response(t, ready_after)

    async def batch_row(self, a: int, b: int, n: int) -> list[int]:
        r = await self.mul(a, b, n)
        return [r.s, r.err, r.cycles]


class CoreBatchDriver(CoreDriver):
    """A core that keeps several products in flight (``in_flight`` > 1):
    each batch row is a group of requests (a, b, n, a, b, n, ...) presented
    back to back (in_valid_i held high, the next request driven right after
    each accepting edge) on an idle core, with out_ready_i held high until
    every response is taken.  Used by ``montmul cycles`` (montmul.apps.stats)."""

    async def batch_row(self, *flat: int) -> list[int]:
        """Returns, per request in order: s, err, the accepting edge and the
        edge that presented its response (cycles since the clock started)."""
        dut = self.dut
        reqs = [flat[i:i + 3] for i in range(0, len(flat), 3)]
        got: list[tuple[int, ...]] = []

        async def collect() -> None:
            for _ in range(self.timeout_cycles * len(reqs)):
                await RisingEdge(self.clk)
                await ReadOnly()
                if int(dut.out_valid_o.value):  # taken at the next edge (out_ready_i = 1)
                    got.append((*self.sample(), round(self.now_cycles())))
                    if len(got) == len(reqs):
                        return
            raise AssertionError(f"{len(got)} of {len(reqs)} responses arrived")

        await FallingEdge(self.clk)
        dut.out_ready_i.value = 1
        responses = cocotb.start_soon(collect())
        accepts = []
        for req in reqs:
            accepts.append(round(await self.present(req)))
            await FallingEdge(self.clk)
        dut.in_valid_i.value = 0
        await responses
        await FallingEdge(self.clk)
        dut.out_ready_i.value = 0
        return [x for (s, err, edge), t in zip(got, accepts) for x in (s, err, t, edge)]


# --- the carry-save FCS cores ---------------------------------------------------
@dataclass
class CsResponse:
    ss: int
    sc: int
    err: int
    cycles: int


class CsDriver(Handshake):
    """The carry-save cores mm_fcs1 / mm_fcs2: (AS, AC, BS, BC, N) -> (SS, SC)."""

    request_ports = ("as_i", "ac_i", "bs_i", "bc_i", "n_i")
    response_ports = ("ss_o", "sc_o", "err_o")

    def __init__(self, dut) -> None:
        core, width, params = config()
        super().__init__(dut, core_timeout(core, width, params))

    async def response(self, t_accept: float, ready_after: int = 0, t_valid: float | None = None) -> CsResponse:
        (ss, sc, err), cycles = await self.take(t_accept, ready_after, t_valid)
        return CsResponse(ss, sc, err, cycles)

    async def mul(self, op: tuple[int, int, int, int, int], ready_after: int = 0) -> CsResponse:
        t = await self.request(*op)
        return await self.response(t, ready_after)


# --- the exponentiation engine ------------------------------------------------------
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
    nets (core_in_valid, opa_q, ...), visible in both simulators."""

    def __init__(self, dut) -> None:
        self.dut = dut
        self.products: list[Product] = []
        self._task = None

    def start(self) -> None:
        self._task = cocotb.start_soon(self._run())

    def stop(self) -> None:
        """Stop recording (e.g. before a reset cuts a product short)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        dut = self.dut
        while True:
            await RisingEdge(dut.core_in_valid)
            # in_valid stays high until the core's in_ready (the edge that
            # accepts); the operands are stable meanwhile.
            await ReadOnly()
            a, b = int(dut.opa_q.value), int(dut.opb_q.value)
            await RisingEdge(dut.core_out_valid)
            await ReadOnly()
            self.products.append(Product(a, b, int(dut.core_s.value), int(dut.core_err.value)))

    def take(self) -> list[Product]:
        out, self.products = self.products, []
        return out


class ModexpDriver(Handshake):
    """mm_modexp: (base, exp, exp_len, N, R^2 mod N, ladder) -> result; counts
    the products handed to the core (rising core_in_valid)."""

    request_ports = ("base_i", "exp_i", "exp_len_i", "n_i", "r2_i", "ladder_i")
    response_ports = ("result_o", "err_o")

    def __init__(self, dut) -> None:
        super().__init__(dut, int(os.environ["MONTMUL_MODEXP_TIMEOUT"]))
        self.mults = 0
        self.mults_at_accept = 0

    async def start(self) -> None:
        await super().start()
        cocotb.start_soon(self._count())

    async def _count(self) -> None:
        while True:
            await RisingEdge(self.dut.core_in_valid)
            self.mults += 1

    def accepted(self, t: float) -> None:
        self.mults_at_accept = self.mults

    def holding(self) -> None:
        assert self.mults == self._mults_held, "core started while a response is held"

    async def response(self, t_accept: float, ready_after: int = 0, t_valid: float | None = None) -> ExpResponse:
        self._mults_held = None
        # The count is read when the response is first seen (before any
        # back-pressure cycle); holding() checks it does not move.
        if t_valid is None:
            await ReadOnly()
            if not int(self.dut.out_valid_o.value):
                t_valid = await self.wait_valid()
                await ReadOnly()
            else:
                t_valid = float(math.floor(self.now_cycles()))
        self._mults_held = self.mults
        (result, err), cycles = await self.take(t_accept, ready_after, t_valid)
        return ExpResponse(result, err, cycles, self._mults_held - self.mults_at_accept)

    async def modexp(
        self, base: int, exp: int, exp_len: int, n: int, r2: int, ladder: int, ready_after: int = 0
    ) -> ExpResponse:
        t = await self.request(base, exp, exp_len, n, r2, ladder)
        return await self.response(t, ready_after)

    async def batch_row(self, base: int, exp: int, exp_len: int, n: int, r2: int, ladder: int) -> list[int]:
        r = await self.modexp(base, exp, exp_len, n, r2, ladder)
        return [r.result, r.err, r.cycles, r.mults]


class CrtDriver(Handshake):
    """mm_modexp_crt: (c, p, q, dP, dQ, their lengths, R^2 mod p, R^2 mod q,
    qInv*R mod p, ladder) -> (m_q, h, err) and the latency."""

    request_ports = ("c_i", "p_i", "q_i", "dp_i", "dq_i", "dp_len_i", "dq_len_i", "r2p_i", "r2q_i", "qinvr_i",
                     "ladder_i")
    response_ports = ("mq_o", "h_o", "err_o")

    def __init__(self, dut) -> None:
        super().__init__(dut, int(os.environ["MONTMUL_MODEXP_TIMEOUT"]))

    async def crt(self, *req: int, ready_after: int = 0) -> list[int]:
        t = await self.request(*req)
        (mq, h, err), cycles = await self.take(t, ready_after)
        return [mq, h, err, cycles]

    async def batch_row(self, *req: int) -> list[int]:
        return await self.crt(*req)


#: The batch module's drivers, by kind (:func:`montmul.flows.sim.runner.run_batch`).
BATCH_DRIVERS = {"core": CoreDriver, "core_group": CoreBatchDriver, "modexp": ModexpDriver, "crt": CrtDriver}
