# SPDX-License-Identifier: Apache-2.0
"""cocotb tests of mm_dsp_redundant with several products in flight
(Interleave = 1, 2, 3): requests back to back that fill every slot, a
different modulus in every slot, rejected requests between them, random
back-pressure on the output while slots are busy, and a reset with every slot
busy.

At Interleave > 1 the shared suite's one-request-at-a-time tests (corners,
random, chaining, reset mid-operation, rejected inputs, paper 001's known
answer) run here too.

The bench wakes every cycle and checks the whole handshake against
montmul.models.dsp.RingSchedule: in_ready_o in every cycle, the edge at which
every response is presented (so every latency), and every result and error
flag against the model, in request order.
"""
from __future__ import annotations

import json
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from montmul.models import InputError
from montmul.models.dsp import RingSchedule, batch_cycles
from montmul.flows.sim.driver import PERIOD_NS, config, reset_pulse

if json.loads(os.environ.get("MONTMUL_PARAMS", "{}")).get("Interleave", 1) > 1:
    # With several slots the shared suite's tests apply (each latency is
    # Interleave times longer), except the two that expect in_ready_o low
    # while a product is under way (the suite skips those itself).
    from montmul.flows.sim.suite import (
        test_chained_squarings, test_corners, test_known_answer_paper001, test_random, test_rejected_inputs,
        test_reset_mid_operation, test_slots_in_order,
    )


def _rng() -> random.Random:
    return random.Random(int(os.environ.get("MONTMUL_SEED", "1")))


def _requests(rng: random.Random, k: int, count: int, bad_every: int = 0) -> list[tuple[int, int, int]]:
    """A different random modulus per request (full-width, small, 2^k - 1),
    operands in [0, 2N) with the extremes; every ``bad_every``-th request is
    one the core must reject."""
    out = []
    for i in range(count):
        kind = i % 4
        if kind == 0:
            n = (1 << k) - 1
        elif kind == 1:
            n = rng.randrange(1 << (k - 1), 1 << k) | 1
        else:
            n = rng.randrange(3, 1 << k) | 1
        a = 2 * n - 1 if i % 3 == 0 else rng.randrange(2 * n)
        b = 2 * n - 1 if i % 5 == 0 else rng.randrange(2 * n)
        if bad_every and i % bad_every == bad_every - 1:
            a, b, n = (1, 1, n - 1) if i % 2 else (2 * n, b, n)  # even modulus / A >= 2N
        out.append((a, b, n))
    return out


class Bench:
    def __init__(self, dut):
        self.dut = dut
        self.core, self.k, self.params = config()
        self.ilv = self.params["Interleave"]
        self.edge = 0

    async def start(self):
        dut = self.dut
        Clock(dut.clk_i, PERIOD_NS, unit="ns").start()
        dut.in_valid_i.value = 0
        dut.out_ready_i.value = 0
        dut.a_i.value = dut.b_i.value = dut.n_i.value = 0
        await self.reset()

    async def reset(self):
        """A one-cycle reset (the suite's: the response drops, the core is idle after it)."""
        await reset_pulse(self.dut)
        self.sched = RingSchedule(self.k, self.params["R1"], self.params["R2"], self.ilv)

    def model(self, a, b, n):
        try:
            return self.core.run_model(a, b, n, self.k, self.params)
        except InputError:
            return None

    async def run(self, reqs, ready=lambda t: True, stop_after=None):
        """Present ``reqs`` back to back (valid held until accepted), take
        responses when ``ready(cycle)``; check every cycle.  Returns
        (accept edges, presentation edges); with ``stop_after`` cycles it
        returns early (for the reset test)."""
        dut = self.dut
        sched = self.sched
        want = [self.model(*r) for r in reqs]
        nxt, got = 0, 0
        accepts, shown = [], []
        t = 0  # cycles since this run began; edge t ends cycle t
        limit = (len(reqs) + 2) * (sched.lat + 4) + 50
        while got < len(reqs):
            t += 1
            assert t < limit, "bench timed out"
            if stop_after is not None and t > stop_after:
                break
            await FallingEdge(dut.clk_i)
            if nxt < len(reqs):
                a, b, n = reqs[nxt]
                dut.a_i.value, dut.b_i.value, dut.n_i.value = a, b, n
                dut.in_valid_i.value = 1
            else:
                dut.in_valid_i.value = 0
            take_ready = ready(t)
            dut.out_ready_i.value = int(take_ready)
            await ReadOnly()
            e = self.edge + t
            rdy = int(dut.in_ready_o.value)
            assert rdy == int(sched.ready(e)), f"cycle {t}: in_ready_o {rdy}, model {sched.ready(e)}"
            valid = int(dut.out_valid_o.value)
            pending = len(sched.taken) < len(sched.filled)
            exp_valid = pending and sched.valid_edge() <= e - 1
            assert valid == int(exp_valid), f"cycle {t}: out_valid_o {valid}, model {exp_valid}"
            if valid:
                if len(shown) == got:
                    shown.append(e - 1)
                w = want[got]
                s, err = int(dut.s_o.value), int(dut.err_o.value)
                if w is None:
                    assert err == 1 and s == 0, f"response {got}: request {reqs[got]} not rejected"
                else:
                    assert err == 0, f"response {got}: legal request {reqs[got]} rejected"
                    assert s == w.result, f"response {got}: s {s:#x}, model {w.result:#x} for {reqs[got]}"
                    lat = shown[got] - accepts[got]
                    assert lat >= w.cycles
                    if lat != w.cycles:
                        # only a response held behind an older one waits
                        assert shown[got] == sched.taken[-1], f"response {got}: latency {lat}, model {w.cycles}"
            accepted = nxt < len(reqs) and rdy
            taken = valid and take_ready
            await RisingEdge(dut.clk_i)
            if accepted:
                sched.accept(e, want[nxt] is not None)
                accepts.append(e)
                nxt += 1
            if taken:
                sched.take(e)
                got += 1
        self.edge += t
        return accepts, shown


@cocotb.test()
async def test_batch_fills_every_slot(dut):
    """Interleave requests with different moduli on consecutive edges; all
    responses exact; the batch takes (I-1) + I*L cycles (the paper's Table I
    counts I*(ma+3) + I-1 for its loop alone)."""
    bench = Bench(dut)
    await bench.start()
    rng = _rng()
    reqs = _requests(rng, bench.k, bench.ilv)
    accepts, shown = await bench.run(reqs)
    assert accepts == list(range(accepts[0], accepts[0] + bench.ilv)), "slots not filled back to back"
    p = bench.params
    assert shown[-1] - accepts[0] == batch_cycles(bench.k, p["R1"], p["R2"], bench.ilv)


@cocotb.test()
async def test_stream_with_backpressure(dut):
    """A long stream, rejected requests among legal ones, random
    back-pressure: in_ready_o, every presentation edge and every result
    against the model."""
    bench = Bench(dut)
    await bench.start()
    rng = _rng()
    reqs = _requests(rng, bench.k, 4 * bench.ilv + 3, bad_every=5)
    pattern = [rng.random() < 0.4 for _ in range(4096)]
    await bench.run(reqs, ready=lambda t: pattern[t % len(pattern)])
    # and a stream with the consumer always ready
    await bench.run(_requests(rng, bench.k, 3 * bench.ilv, bad_every=4))


@cocotb.test()
async def test_long_stall_then_drain(dut):
    """The consumer stalls until every slot has finished: the core accepts
    exactly Interleave requests, then holds in_ready_o low; the responses
    drain in order."""
    bench = Bench(dut)
    await bench.start()
    rng = _rng()
    reqs = _requests(rng, bench.k, 2 * bench.ilv)
    stall = bench.ilv * bench.sched.lat + 3 * bench.ilv + 5
    accepts, _ = await bench.run(reqs, ready=lambda t: t > stall)
    assert accepts[bench.ilv] > stall, "a request was accepted while every slot's response waited"


@cocotb.test()
async def test_reset_with_every_slot_busy(dut):
    """An asynchronous reset with every slot busy drops every product and
    response; the core is then idle and computes the next batch exactly."""
    bench = Bench(dut)
    await bench.start()
    rng = _rng()
    await bench.run(_requests(rng, bench.k, bench.ilv), stop_after=bench.ilv + bench.sched.lat // 2)
    dut.in_valid_i.value = 0
    await bench.reset()  # in_ready_o high after it (reset_pulse checks)
    assert int(dut.out_valid_o.value) == 0
    bench.edge = 0
    await bench.run(_requests(rng, bench.k, 2 * bench.ilv, bad_every=3))
