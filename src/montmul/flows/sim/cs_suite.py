# SPDX-License-Identifier: Apache-2.0
"""cocotb tests of the full-carry-save cores mm_fcs1 and mm_fcs2 (shared by
tb/mm_fcs1 and tb/mm_fcs2; runs inside the simulator).

The cores take carry-save operands (AS, AC), (BS, BC) and answer with a
carry-save result (SS, SC).  Every response is checked against the model
(``fcs1_cs`` / ``fcs2_cs``): both result words bit for bit, SS + SC in
[0, 2N), the latency exactly, and the model's value against pow().

Test points (besides the common suite, which the binary wrappers run):
carry-save operands split every way (all in one word, half and half,
disjoint bits, long carry chains through the BRFA), results chained back as
carry-save operands, back-pressure, reset mid-operation, a request while
busy, and rejected requests (including pairs whose words are each below 2N
but whose sum is not).
"""
from __future__ import annotations

import os
import random

import cocotb

from ...models import InputError, radix2
from .driver import CsDriver, CsResponse, config
from .suite import P001_A, P001_B, P001_N, P001_S, n_random, random_count, rng_from_env


#: The carry-save models: (AS, AC, BS, BC, N, k) -> (SS, SC, MMResult).
MODELS = {"fcs1": radix2.fcs1_cs, "fcs2": radix2.fcs2_cs}


def cs_config():
    """(carry-save model, width k, HDL parameters) of this simulation."""
    core, k, params = config()
    return MODELS[core.name], k, params


def verify(resp: CsResponse, op: tuple[int, int, int, int, int]) -> CsResponse:
    """Check one response against the model: both words, range, latency."""
    model, k, _ = cs_config()
    a_s, a_c, b_s, b_c, n = op
    try:
        ss, sc, want = model(a_s, a_c, b_s, b_c, n, k)
    except InputError as exc:
        assert resp.err == 1, f"core accepted a request the model rejects ({exc}): {op}"
        assert resp.ss == 0 and resp.sc == 0, "a rejected request must answer ss_o = sc_o = 0"
        return resp
    assert resp.err == 0, f"core rejected a legal request {op}"
    assert (resp.ss, resp.sc) == (ss, sc), (
        f"result mismatch {[hex(x) for x in op]}: core ({resp.ss:#x}, {resp.sc:#x}) model ({ss:#x}, {sc:#x})"
    )
    assert resp.ss + resp.sc < 2 * n, "SS + SC outside [0, 2N)"
    assert resp.cycles == want.cycles, f"cycle mismatch {op}: core {resp.cycles} model {want.cycles}"
    # The model itself must be right.
    assert (ss + sc) % n == (a_s + a_c) * (b_s + b_c) * pow(2, -(k + 2), n) % n
    return resp


async def check(drv: CsDriver, op: tuple[int, int, int, int, int], ready_after: int = 0) -> CsResponse:
    return verify(await drv.mul(op, ready_after), op)


async def start(dut) -> CsDriver:
    drv = CsDriver(dut)
    await drv.start()
    return drv


def splits(v: int) -> list[tuple[int, int]]:
    """Directed carry-save forms of v: all in one word, halves, and a long
    carry chain (AS all ones below v's top bit, AC the rest) for the BRFA."""
    out = {(v, 0), (0, v), (v - v // 2, v // 2)}
    if v >= 2:
        ones = (1 << (v.bit_length() - 1)) - 1
        out.add((ones, v - ones))
    return sorted(out)


def random_split(rng: random.Random, v: int) -> tuple[int, int]:
    """A random carry-save form of v (both words < 2^(k+1) since v < 2N)."""
    mode = rng.randrange(4)
    if mode == 0:
        return (v, 0) if rng.randrange(2) else (0, v)
    if mode == 1:  # disjoint bit sets, like a freshly loaded register pair
        m = rng.getrandbits(max(v.bit_length(), 1))
        return v & m, v & ~m
    if mode == 2:  # overlapping words: many carries in the BRFA
        s = rng.randrange(v // 2, v + 1) if v else 0
        return s, v - s
    s = rng.randrange(v + 1)
    return s, v - s


def moduli(k: int) -> list[int]:
    mods = {3, 5, 7, (1 << k) - 1, (1 << (k - 1)) + 1, (1 << (k - 1)) - 1, (1 << k) - 3,
            0x5555555555555555 & ((1 << k) - 1) | 1}
    return sorted(m for m in mods if 3 <= m < (1 << k))


@cocotb.test()
async def test_corners(dut):
    """Directed moduli and operand values 0, 1, N-1, N, 2N-1, each split every
    directed way, against directed partners."""
    _, k, _ = cs_config()
    drv = await start(dut)
    for n in moduli(k):
        vals = sorted({0, 1, n - 1, n, 2 * n - 1})
        pairs = [p for v in vals for p in splits(v)]
        for i, (a_s, a_c) in enumerate(pairs):
            b_s, b_c = pairs[(7 * i + 3) % len(pairs)]
            await check(drv, (a_s, a_c, b_s, b_c, n))
        # the largest operands, every split against every split
        top = splits(2 * n - 1)
        for a_s, a_c in top:
            for b_s, b_c in top:
                await check(drv, (a_s, a_c, b_s, b_c, n))


@cocotb.test()
async def test_random(dut):
    """Random odd moduli (full width and shorter), values below 2N (or N),
    random carry-save splits of both operands."""
    _, k, _ = cs_config()
    rng = rng_from_env()
    drv = await start(dut)
    for i in range(random_count(k)):
        n = n_random(rng, k) if i % 4 else (rng.randrange(1 << (k - 1), 1 << k) | 1)
        bound = 2 * n if i % 2 else n
        a = random_split(rng, rng.randrange(bound))
        b = random_split(rng, rng.randrange(bound))
        await check(drv, (*a, *b, n))


@cocotb.test()
async def test_chained(dut):
    """Carry-save results fed back unchanged as carry-save operands (the
    squarings and multiplications of an exponentiation), N mod 4 = 1 and 3:
    they stay legal inputs and the value follows pow()."""
    _, k, _ = cs_config()
    rng = rng_from_env()
    drv = await start(dut)
    for residue in (1, 3):
        n = n_random(rng, k)
        while n % 4 != residue or n < 5:
            n = n_random(rng, k)
        rinv = pow(2, -(k + 2), n)
        x = random_split(rng, rng.randrange(2 * n))
        y = random_split(rng, rng.randrange(2 * n))
        value = sum(x) % n
        for step in range(12):
            r = await check(drv, (*x, *x, n))
            x, value = (r.ss, r.sc), value * value * rinv % n
            if step % 3 == 0:
                r = await check(drv, (*y, *x, n))
                x, value = (r.ss, r.sc), sum(y) * value * rinv % n
            assert sum(x) % n == value


@cocotb.test()
async def test_backpressure(dut):
    """out_valid_o, ss_o, sc_o and err_o hold steady while out_ready_i is low."""
    _, k, _ = cs_config()
    rng = rng_from_env()
    drv = await start(dut)
    for i in range(6):
        n = n_random(rng, k)
        a = random_split(rng, rng.randrange(2 * n))
        b = random_split(rng, rng.randrange(2 * n))
        await check(drv, (*a, *b, n), ready_after=1 + 3 * i)
    resp = await drv.mul((1, 1, 1, 1, 4), ready_after=5)  # an error response, held too
    assert resp.err == 1


@cocotb.test()
async def test_reset_mid_operation(dut):
    """An asynchronous reset mid-operation returns the core to idle with no
    response pending; the next request is computed correctly."""
    model, k, _ = cs_config()
    rng = rng_from_env()
    drv = await start(dut)
    n = n_random(rng, k)
    op = (*random_split(rng, rng.randrange(2 * n)), *random_split(rng, rng.randrange(2 * n)), n)
    cycles = model(*op, k)[2].cycles
    for frac in (0.0, 0.1, 0.5, 0.9):
        await drv.reset_during(op, int(cycles * frac) - 1)
        await check(drv, op)


@cocotb.test()
async def test_request_while_busy(dut):
    """A request presented while the core is busy is not taken, and is taken
    intact at the edge after the previous response was read."""
    _, k, _ = cs_config()
    rng = rng_from_env()
    drv = await start(dut)
    n = n_random(rng, k)
    op1 = (*random_split(rng, rng.randrange(2 * n)), *random_split(rng, rng.randrange(2 * n)), n)
    op2 = (*random_split(rng, rng.randrange(2 * n)), *random_split(rng, rng.randrange(2 * n)), n)
    await drv.request_while_busy(op1, op2, verify)


@cocotb.test()
async def test_rejected_inputs(dut):
    """Even modulus, modulus below 3, and carry-save operands whose value is
    2N or more, even when each word alone is below 2N: err_o = 1, ss_o = sc_o
    = 0 at the accepting edge, and the core goes on working."""
    _, k, params = cs_config()
    rng = rng_from_env()
    drv = await start(dut)
    n = n_random(rng, k)
    while n < 5:
        n = n_random(rng, k)
    bad = []
    if params.get("CheckMod", 1):
        bad += [(1, 0, 1, 0, 0), (1, 0, 1, 0, 1), (0, 0, 0, 0, 2), (1, 0, 1, 0, n - 1),
                (1, 0, 1, 0, (1 << k) - 2)]
    if params.get("CheckRange", 1):
        top = (1 << (k + 1)) - 1
        bad += [
            (n, n, 1, 0, n),            # AS + AC = 2N, each word below 2N
            (2 * n - 1, 1, 1, 0, n),
            (1, 0, n + 1, n - 1, n),    # BS + BC = 2N
            (0, 2 * n, 0, 0, n),
            (0, 0, 2 * n, 0, n),
            (top, top, 0, 0, n),        # both words at their maximum
            (0, 0, top, top, n),
        ]
    for op in bad:
        t = await drv.request(*op)
        resp = verify(await drv.response(t), op)
        assert resp.err == 1 and resp.cycles == 0, f"{op} not rejected at the accepting edge"
        await check(drv, (n, n - 1, 2 * n - 2, 1, n))  # the legal extreme


@cocotb.skipif(int(os.environ.get("MONTMUL_WIDTH", "0")) < 32, reason="the example's modulus needs 32 bits")
@cocotb.test()
async def test_known_answer_paper001(dut):
    """Paper 001's 32-bit example with carry-save operands (paper R = 2^32,
    core R = 2^(k+2))."""
    _, k, _ = cs_config()
    drv = await start(dut)
    for a, b in (((P001_A, 0), (P001_B, 0)), ((P001_A // 3, P001_A - P001_A // 3), (1, P001_B - 1))):
        resp = await check(drv, (*a, *b, P001_N))
        paper = (resp.ss + resp.sc) * pow(2, k + 2 - 32, P001_N) % P001_N
        assert paper == P001_S, f"paper 001's example: got {paper}, paper says {P001_S}"
