# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_modexp_crt (RSA-CRT in the engine, docs/modexp.md) on Icarus
and Verilator: a one-slot core and dsp_redundant with Interleave 1, 2, 3.
Every response (m_q, h, err) and every latency against the engine's model
(montmul.engine.crt_engine_model), every result against pow() and Garner;
exponents of different lengths (one thread ends first), both modes, the
corner values of c (0, 1, 2^(2k) - 1 >= pq), short exponents (StPre's
alignment longer than its checks), every rejection rule, a wrong
R^2 mod p / mod q and a wrong qInv*R (err after the check), back-pressure, and
reset in the middle of a request.

Default grid: Icarus only, r2_basic and dsp_redundant Interleave=2 (builds
in seconds); the other rows with MONTMUL_CRT_FULL=1.  RTL at 256 bits on
Verilator: tests/test_rsa.py (RSA signatures through the CRT engine).
"""
from __future__ import annotations

import os

if os.environ.get("MONTMUL_IN_SIM"):
    import random

    import cocotb
    import gmpy2
    from cocotb.triggers import ClockCycles, FallingEdge

    from montmul.engine import CrtRequest, crt_engine_model, crt_pre_cycles, crt_rejects, crt_request
    from montmul.flows.sim.driver import CrtDriver, config, reset_pulse
    from montmul.flows.sim.suite import rng_from_env as _rng

    def _prime(rng: random.Random, k: int) -> int:
        while True:
            p = int(gmpy2.next_prime(rng.getrandbits(k) | 1 << (k - 1)))
            if p.bit_length() == k:
                return p

    class Bench:
        def __init__(self, dut) -> None:
            self.dut = dut
            self.core, self.k, self.params = config()
            self.params = {k: v for k, v in self.params.items() if k != "Width"}
            self.drv = CrtDriver(dut)

        async def start(self) -> Bench:
            await self.drv.start()
            return self

        def primes(self, rng: random.Random) -> tuple[int, int]:
            while True:
                p, q = _prime(rng, self.k), _prime(rng, self.k)
                if p != q:
                    return max(p, q), min(p, q)

        def request(self, c, p, q, dp, dq, **over) -> CrtRequest:
            r = crt_request(c, p, q, dp, dq, core=self.core.name, width=self.k, params=self.params)
            return CrtRequest(**{**r.__dict__, **over})

        async def check(self, req: CrtRequest, ladder: int, ready_after: int = 0):
            want = crt_engine_model(req, core=self.core.name, width=self.k, params=self.params, ladder=bool(ladder))
            got = await self.drv.crt(*req.ports(), ladder, ready_after=ready_after)
            what = f"{req} ladder={ladder}"
            assert got == [want.mq, want.h, want.err, want.cycles], f"RTL {got}, model {want}: {what}"
            if not want.err:
                p, q = req.p, req.q
                m = want.m(q)
                assert m < p * q and m % p == pow(req.c, req.dp, p) and m % q == pow(req.c, req.dq, q), what
            return want

    @cocotb.test()
    async def test_random(dut):
        """Random primes, c and exponents (full and shorter lengths, so that
        one thread leaves the loop before the other), both modes."""
        b = await Bench(dut).start()
        rng = _rng()
        for i in range(2):
            p, q = b.primes(rng)
            dp = rng.randrange(1, 1 << b.k)
            dq = rng.randrange(1, 1 << max(1, b.k // (1 + i)))
            c = rng.randrange(p * q)
            for ladder in (0, 1):
                await b.check(b.request(c, p, q, dp, dq), ladder)
                await b.check(b.request(c, p, q, dq, dp), ladder)  # the other thread longer

    @cocotb.test()
    async def test_corners(dut):
        """c = 0, 1, pq - 1 and 2^(2k) - 1 (above pq: reduced on the core),
        exponents 1 and all ones, a length above the exponent's bit length
        (leading zero bits)."""
        b = await Bench(dut).start()
        rng = _rng()
        p, q = b.primes(rng)
        full = (1 << b.k) - 1
        for c in (0, 1, p * q - 1, (1 << 2 * b.k) - 1):
            await b.check(b.request(c, p, q, 1, full), c & 1)
        await b.check(b.request(p * q - 1, p, q, 1, 1), 0)
        await b.check(b.request(p * q - 2, p, q, full, 1), 1)
        r = b.request(rng.randrange(p * q), p, q, 5, 3)
        await b.check(CrtRequest(**{**r.__dict__, "dp_len": b.k, "dq_len": 4}), 1)
        # StPre's alignment longer than its checks: a k-bit length with short
        # exponents, one length 1
        await b.check(r, 0)
        await b.check(CrtRequest(**{**r.__dict__, "dq": 1, "dq_len": 1}), 1)

    @cocotb.test()
    async def test_rejects(dut):
        """Every rejection rule answers err: a bad p, q or exponent length at
        the accepting edge (latency 0), the range checks and exponent bits at
        or above the length after StPre (latency crt_pre_cycles); a wrong
        R^2 (mod p or mod q) or qInv*R after its check, with the model's
        latency; the next request is exact."""
        b = await Bench(dut).start()
        rng = _rng()
        k = b.k
        p, q = b.primes(rng)
        c = rng.randrange(p * q)
        good = b.request(c, p, q, rng.randrange(1, p), rng.randrange(1, q))
        top = 1 << (k - 1)
        at_accept = [
            {"p": p - 1}, {"q": q ^ top},
            {"dp_len": 0}, {"dq_len": k + 1} if k + 1 < 1 << k.bit_length() else {"dq_len": 0},
        ]
        after_pre = [
            {"p": q, "q": p}, {"q": p},
            {"dp": good.dp | 1 << (good.dp_len)} if good.dp_len < k else {"dp": 1 << (k - 1), "dp_len": k - 1},
            {"dq": 1 << (k - 1), "dq_len": 1},
            {"r2p": p}, {"r2q": q + 1 if q + 1 < 1 << k else q}, {"qinvr": p},
        ]
        for later, bad in ((0, at_accept), (1, after_pre)):
            for over in bad:
                req = CrtRequest(**{**good.__dict__, **over})
                assert crt_rejects(req, k), over
                want = await b.check(req, rng.randrange(2))
                assert want.err and want.cycles == (crt_pre_cycles(req, k) if later else 0), over
        for over in ({"r2p": (good.r2p + 1) % p}, {"r2q": (good.r2q + 1) % q}, {"qinvr": (good.qinvr + 1) % p}):
            req = CrtRequest(**{**good.__dict__, **over})
            assert not crt_rejects(req, k)
            want = await b.check(req, 0)
            assert want.err and want.cycles > 0
        await b.check(good, 1)

    @cocotb.test()
    async def test_backpressure_and_reset(dut):
        """A response held under back-pressure stays put; reset in the middle
        of a request returns to idle with no response; the next is exact."""
        b = await Bench(dut).start()
        rng = _rng()
        p, q = b.primes(rng)
        req = b.request(rng.randrange(p * q), p, q, rng.randrange(1, p), rng.randrange(1, q))
        want = await b.check(req, 0, ready_after=5)
        for frac in (0.1, 0.6, 0.97):
            await b.drv.request(*req.ports(), 0)
            await ClockCycles(dut.clk_i, max(1, int(want.cycles * frac)))
            await reset_pulse(dut, "engine")
            await FallingEdge(dut.clk_i)
            await b.check(req, 1)

else:
    import pytest
    from bench_util import SIMS

    from montmul.flows.sim import crt_sim

    # (simulator, core, width, core parameters): by default a one-slot core
    # and dsp_redundant with 2 products in flight on Icarus (about 15 s);
    # with MONTMUL_CRT_FULL=1 also scs_new at an odd width, Interleave 1 and
    # 3 on Icarus and all five at 64 bits on Verilator.
    _GRID = [
        ("icarus", "r2_basic", 8, {}),
        ("icarus", "dsp_redundant", 16, {"Interleave": 2}),
    ]
    _FULL = [
        ("icarus", "scs_new", 13, {}),
        ("icarus", "dsp_redundant", 16, {"Interleave": 1}),
        ("icarus", "dsp_redundant", 16, {"Interleave": 3}),
        ("verilator", "r2_basic", 64, {}),
        ("verilator", "scs_new", 64, {}),
        ("verilator", "dsp_redundant", 64, {"Interleave": 1}),
        ("verilator", "dsp_redundant", 64, {"Interleave": 2}),
        ("verilator", "dsp_redundant", 64, {"Interleave": 3}),
    ]
    FULL = os.environ.get("MONTMUL_CRT_FULL", "") not in ("", "0")

    def _id(sim, core, width, params):
        tag = "-".join(f"{k}{v}" for k, v in params.items())
        return f"{sim}-{core}-w{width}" + (f"-{tag}" if tag else "")

    @pytest.mark.parametrize(
        "sim,core,width,params",
        [pytest.param(*g, id=_id(*g)) for g in _GRID + (_FULL if FULL else []) if g[0] in SIMS],
    )
    def test_mm_modexp_crt(sim, core, width, params):
        from pathlib import Path

        from montmul import cores
        from montmul.flows.sim import runner

        here = Path(__file__).resolve()
        c = cores.get(core)
        env = {
            "MONTMUL_CORE": c.name,
            "MONTMUL_MODEXP_TIMEOUT": str(crt_sim.timeout_cycles(core, width, width, params)),
        }
        runner.run(crt_sim.crt_engine(core, params), sim, width, test_module=here.stem, test_dir=here.parent,
                   extra_env={**env, "MONTMUL_PARAMS": __import__("json").dumps(c.hdl_params(width, **params))})
