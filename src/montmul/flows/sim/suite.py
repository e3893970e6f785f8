# SPDX-License-Identifier: Apache-2.0
"""The test suite every core passes (docs/testplan.md maps test points to
tests).  A bench ``tb/<module>/test_<module>.py`` imports these tests; the
core, width and parameters come from the environment set by
:func:`montmul.flows.sim.runner.run`.

Every response is checked against the core's model: the result bit for bit,
and the latency exactly, for every multiplication.
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly

from ...models import InputError
from .driver import CoreDriver, config

#: paper 001's 32-bit known-answer example (R = 2^32 there).
P001_A, P001_B, P001_N, P001_S = 1073741826, 1876543286, 2147483659, 1567508594


def _slots() -> int:
    """Products the simulated core keeps in flight (1 outside a simulation)."""
    if "MONTMUL_CORE" not in os.environ:
        return 1
    core, _, params = config()
    return core.in_flight(params)


#: Tests that hold for a core with one product in flight only.
ONE_SLOT = _slots() == 1


def rng_from_env() -> random.Random:
    """The suite's random source (seed ``MONTMUL_SEED``, default 1)."""
    return random.Random(int(os.environ.get("MONTMUL_SEED", "1")))


def n_random(rng: random.Random, k: int) -> int:
    """A random odd modulus in [3, 2^k)."""
    return rng.randrange(3, 1 << k) | 1


def random_count(k: int) -> int:
    """Random products per test: ``MONTMUL_RANDOM`` if set, else the core's
    registry budget (test_random / k, in [8, 200])."""
    given = int(os.environ.get("MONTMUL_RANDOM", "0"))
    if given:
        return given
    core, _, _ = config()
    return min(max(8, core.test_random // k), 200)


async def _check(drv: CoreDriver, a: int, b: int, n: int, ready_after: int = 0):
    return _verify(await drv.mul(a, b, n, ready_after), a, b, n)


def _verify(resp, a: int, b: int, n: int):
    """Check one response against the model: result, range, exact latency."""
    core, k, params = config()
    try:
        want = core.run_model(a, b, n, k, params)
    except InputError as exc:
        assert resp.err == 1, f"core accepted a request the model rejects ({exc}): a={a} b={b} n={n}"
        assert resp.s == 0, "a rejected request must answer s_o = 0"
        return resp
    assert resp.err == 0, f"core rejected a legal request a={a} b={b} n={n}"
    assert resp.s == want.result, (
        f"result mismatch a={a:#x} b={b:#x} n={n:#x}: core {resp.s:#x} model {want.result:#x}"
    )
    assert resp.s < core.out_bound * n, "result outside the documented output range"
    assert resp.cycles == want.cycles, (
        f"cycle mismatch a={a:#x} b={b:#x} n={n:#x}: core {resp.cycles} model {want.cycles} {want.breakdown}"
    )
    assert resp.cycles <= core.bound(k, params), "latency above the documented bound"
    # The model itself must be right: compare with pow().
    r = core.radix_log2(k, params, n)
    assert want.result % n == a * b * pow(2, -r, n) % n
    return resp


async def _start(dut) -> CoreDriver:
    drv = CoreDriver(dut)
    await drv.start()
    return drv


def corner_cases(k: int) -> list[tuple[int, int, int]]:
    """Directed operands: smallest modulus, 2^k - 1, sparse and dense moduli,
    operands 0, 1, N-1, N, 2N-1, and long carry chains."""
    mods = {3, (1 << k) - 1, (1 << (k - 1)) + 1, (1 << k) - 3}
    mods |= {m for m in (5, 7, (1 << (k - 1)) - 1, 0x5555555555555555 & ((1 << k) - 1) | 1) if 3 <= m < (1 << k)}
    vecs = []
    for n in sorted(mods):
        ops = sorted({0, 1, 2 % (2 * n), n - 1, n, n + 1, 2 * n - 1, (2 * n - 1) & ~1})
        ops = [x for x in ops if 0 <= x < 2 * n]
        for a in ops:
            for b in (0, 1, n - 1, 2 * n - 1):
                vecs.append((a, b, n))
    return vecs


@cocotb.skipif(int(os.environ.get("MONTMUL_WIDTH", "0")) < 32, reason="the example's modulus needs 32 bits")
@cocotb.test()
async def test_known_answer_paper001(dut):
    """Paper 001's 32-bit example: the paper's R is 2^32, the core's is
    2^r, so the paper's value is core_result * 2^(r-32) mod N."""
    core, k, params = config()
    drv = await _start(dut)
    resp = await _check(drv, P001_A, P001_B, P001_N)
    paper = resp.s * pow(2, core.radix_log2(k, params, P001_N) - 32, P001_N) % P001_N
    assert paper == P001_S, f"paper 001's example: got {paper}, paper says {P001_S}"


@cocotb.test()
async def test_corners(dut):
    _, k, _ = config()
    drv = await _start(dut)
    for a, b, n in corner_cases(k):
        await _check(drv, a, b, n)


@cocotb.test()
async def test_random(dut):
    """Random odd moduli of every size, operands in [0, 2N), half of them
    below N; the latency of each one checked against the model."""
    _, k, _ = config()
    rng = rng_from_env()
    drv = await _start(dut)
    for i in range(random_count(k)):
        n = n_random(rng, k) if i % 4 else (rng.randrange(1 << (k - 1), 1 << k) | 1)
        bound = 2 * n if i % 2 else n
        await _check(drv, rng.randrange(bound), rng.randrange(bound), n)


@cocotb.test()
async def test_chained_squarings(dut):
    """Outputs fed back as inputs (an exponentiation's squarings and
    multiplications) never leave the documented range; N mod 4 = 1 and 3."""
    _, k, _ = config()
    rng = rng_from_env()
    drv = await _start(dut)
    for residue in (1, 3):
        n = n_random(rng, k)
        while n % 4 != residue or n < 5:
            n = n_random(rng, k)
        x, y = rng.randrange(2 * n), rng.randrange(2 * n)
        for step in range(12):
            x = (await _check(drv, x, x, n)).s
            if step % 3 == 0:
                x = (await _check(drv, x, y, n)).s


@cocotb.skipif(not ONE_SLOT, reason="one product in flight: test_slots_in_order covers several")
@cocotb.test()
async def test_backpressure(dut):
    """out_valid_o and the response hold steady while out_ready_i is low."""
    _, k, _ = config()
    rng = rng_from_env()
    drv = await _start(dut)
    for i in range(6):
        n = n_random(rng, k)
        await _check(drv, rng.randrange(2 * n), rng.randrange(2 * n), n, ready_after=1 + 3 * i)
    # While a response waits, the core takes no new request.
    t = await drv.request(1, 1, n)
    t_valid = await drv.wait_valid()
    for _ in range(4):
        await FallingEdge(dut.clk_i)
        await ReadOnly()
        assert int(dut.in_ready_o.value) == 0, "in_ready_o high while a response is held"
    _verify(await drv.response(t, t_valid=t_valid), 1, 1, n)


@cocotb.test()
async def test_reset_mid_operation(dut):
    """An asynchronous reset in the middle of an operation returns the core to
    idle with no response pending; the next request is computed correctly."""
    core, k, _params = config()
    rng = rng_from_env()
    drv = await _start(dut)
    n = n_random(rng, k)
    a, b = rng.randrange(2 * n), rng.randrange(2 * n)
    want = core.run_model(a, b, n, k, _params)
    for frac in (0.1, 0.5, 0.9):
        await drv.reset_during((a, b, n), int(want.cycles * frac) - 1)
        await _check(drv, a, b, n)


@cocotb.skipif(not ONE_SLOT, reason="one product in flight: test_slots_in_order covers several")
@cocotb.test()
async def test_request_while_busy(dut):
    """A request presented while the core is busy is not taken (in_ready_o
    low) and is taken, intact, once the previous response has been read."""
    _, k, _ = config()
    rng = rng_from_env()
    drv = await _start(dut)
    n = n_random(rng, k)
    a1, b1, a2, b2 = (rng.randrange(2 * n) for _ in range(4))
    await drv.request_while_busy((a1, b1, n), (a2, b2, n), lambda resp, op: _verify(resp, *op))


@cocotb.test()
async def test_rejected_inputs(dut):
    """Even modulus, modulus below 3, operands >= 2N: err_o = 1, s_o = 0, and
    the core goes on working."""
    core, k, params = config()
    rng = rng_from_env()
    drv = await _start(dut)
    n = n_random(rng, k)
    bad = []
    if params.get("CheckMod", 1):
        bad += [(1, 1, 0), (1, 1, 1), (0, 0, 2), (1, 1, n - 1 if n > 3 else 4), (1, 1, (1 << k) - 2)]
    if params.get("CheckRange", 1):
        top = (1 << (k + 1)) - 1
        bad += [(2 * n, 1, n), (1, 2 * n, n), (top, 0, n), (0, top, n)]
        if 2 * n + 5 <= top:
            bad.append((2 * n + 5, 2 * n + 5, n))
    for a, b, m in bad:
        resp = await drv.mul(a, b, m)
        assert resp.err == 1 and resp.s == 0, f"request a={a} b={b} n={m} not rejected"
        await _check(drv, 1, 1, n)


@cocotb.test()
async def test_slots_in_order(dut):
    """As many requests as the core keeps in flight, plus one, presented back
    to back, each with its own modulus: all accepted (the last once a slot
    frees), the responses in request order, each result right and in range,
    with back-pressure on every other response."""
    core, k, params = config()
    rng = rng_from_env()
    drv = await _start(dut)
    slots = core.in_flight(params)
    reqs = []
    for _ in range(slots + 1):
        n = n_random(rng, k)
        reqs.append((rng.randrange(2 * n), rng.randrange(2 * n), n))
    pending = cocotb.start_soon(_present_all(drv, reqs))
    for i, (a, b, n) in enumerate(reqs):
        (s, err), _ = await drv.take(0.0, ready_after=2 * (i % 2))
        want = core.run_model(a, b, n, k, params)
        assert err == 0 and s == want.result, (
            f"response {i} (in request order): got {s:#x} err {err}, model {want.result:#x}"
        )
    await pending


async def _present_all(drv, reqs) -> None:
    for a, b, n in reqs:
        await drv.request(a, b, n)
