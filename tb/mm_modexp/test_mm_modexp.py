# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_modexp (docs/modexp.md) on Icarus and Verilator: every
registered core at a small width, scs_new and the carry-save cores at larger
widths, both modes.  Every result against pow(), every latency and every
product the engine hands to its core (operands, result, range) against the
engine model (montmul.engine.engine_model); corner cases, random requests,
rejected requests, a wrong R^2, requests while busy, back-pressure, reset in
the middle of an exponentiation.

The pytest side parametrises (simulator, core, width, core parameters); the
simulator side (MONTMUL_IN_SIM) runs the cocotb tests below.
"""
from __future__ import annotations

import os

if os.environ.get("MONTMUL_IN_SIM"):
    import random

    import cocotb
    from cocotb.triggers import FallingEdge

    from montmul.engine import Mult, engine_model, exp_len_width, r2_mod
    from montmul.flows.sim.driver import ModexpDriver, ProductMonitor, config
    from montmul.flows.sim.suite import rng_from_env as _rng

    def _odd(rng: random.Random, k: int, residue: int | None = None) -> int:
        while True:
            n = rng.randrange(3, 1 << k) | 1
            if residue is None or (n % 4 == residue and n > 3):
                return n

    class Bench:
        def __init__(self, dut) -> None:
            self.dut = dut
            self.core, self.k, self.params = config()
            self.drv = ModexpDriver(dut)
            self.mon = ProductMonitor(dut)

        async def start(self) -> Bench:
            await self.drv.start()
            self.mon.start()
            return self

        def r2(self, n: int) -> int:
            return r2_mod(n, self.core.name, self.k, self.params)

        def model(self, base, exp, exp_len, n, r2, ladder, trace=None):
            return engine_model(
                base, exp, n, r2, exp_len,
                core=self.core.name, width=self.k, params=self.params, ladder=bool(ladder), trace=trace,
            )

        def verify(self, resp, base, exp, exp_len, n, r2, ladder):
            """One response against the model: result, error flag, latency,
            and every product (operands, result) in order."""
            trace: list[Mult] = []
            want = self.model(base, exp, exp_len, n, r2, ladder, trace)
            what = f"base={base:#x} exp={exp:#x} t={exp_len} n={n:#x} r2={r2:#x} ladder={ladder}"
            got = self.mon.take()
            assert resp.err == want.err, f"err {resp.err}, model {want.err}: {what}"
            assert resp.result == want.result, f"result {resp.result:#x}, model {want.result:#x}: {what}"
            if not want.err:
                assert resp.result == pow(base, exp, n) and resp.result < n
            assert resp.cycles == want.cycles, f"cycles {resp.cycles}, model {want.cycles}: {what}"
            assert resp.mults == want.mults == len(trace), f"products {resp.mults}, model {want.mults}: {what}"
            assert [(p.a, p.b, p.s) for p in got] == [(m.a, m.b, m.s) for m in trace], f"products differ: {what}"
            for p in got:
                assert p.err == 0 and p.a < 2 * n and p.b < 2 * n and p.s < 2 * n, f"product out of range: {what}"
            return resp

        async def check(self, base, exp, n, ladder, exp_len=None, r2=None, ready_after=0):
            exp_len = max(1, exp.bit_length()) if exp_len is None else exp_len
            r2 = self.r2(n) if r2 is None else r2
            resp = await self.drv.modexp(base, exp, exp_len, n, r2, ladder, ready_after)
            return self.verify(resp, base, exp, exp_len, n, r2, ladder)

    def _moduli(k: int) -> list[int]:
        """3, 2^(k-1) + 1 and 2^k - 3 (both 1 mod 4), 2^k - 1 (3 mod 4)."""
        return sorted({3, (1 << (k - 1)) + 1, (1 << k) - 3, (1 << k) - 1})

    def _tlen(k: int) -> int:
        """Exponent length for the tests that are not about the exponent
        (rejections, handshake, reset): full length up to 64 bits, shorter
        above (wall time; the corner and random tests use full lengths)."""
        return k if k <= 64 else 24

    def _budget(k: int) -> int:
        """Exponentiations per test, fewer at large widths (wall time)."""
        return max(2, 256 // k)

    @cocotb.test()
    async def test_corners(dut):
        """Bases 0, 1, N-1; exponents 0, 1, top bit only, all ones, leading
        zero bits inside exp_len; moduli 3, 2^k - 1, N = 1 and 3 mod 4."""
        b = await Bench(dut).start()
        k = b.k
        exps = [(0, 1), (1, 1), (1 << (k - 1), k), ((1 << k) - 1, k), (5, k)]
        mods = _moduli(k)
        assert {m % 4 for m in mods} == {1, 3}
        for ladder in (0, 1):
            for n in mods:
                for base in sorted({0, 1, n - 1}):
                    # Wide: full-length exponents with base N-1 and the
                    # extreme moduli only.
                    full = k <= 16 or (base == n - 1 and (k <= 64 or n == (1 << k) - 1))
                    for exp, t in exps if full else exps[:2]:
                        await b.check(base, exp, n, ladder, exp_len=t)
        # N = 3^j (the largest below 2^k), base 3: N divides the power, so
        # products reach exactly N and the final subtraction is needed.
        n, j = 3, 1
        while n * 3 < 1 << k:
            n, j = n * 3, j + 1
        for ladder in (0, 1):
            for exp in (j, (1 << k) - 1) if k <= 64 else (j,):
                r = await b.check(3, exp, n, ladder)
                assert r.result == 0
        # A random base, all-ones exponent, N = 1 and 3 mod 4.
        rng = _rng()
        for n in ((1 << (k - 1)) + 1, (1 << k) - 1) if k <= 64 else ((1 << (k - 1)) + 1,):
            for ladder in (0, 1):
                await b.check(rng.randrange(n), (1 << k) - 1, n, ladder)

    @cocotb.test()
    async def test_random(dut):
        """Random moduli, bases and exponents in both modes; on a
        constant-time core the ladder's latency depends only on exp_len."""
        b = await Bench(dut).start()
        k, rng = b.k, _rng()
        ladder_cycles: dict[int, set[int]] = {}
        for i in range(_budget(k)):
            n = _odd(rng, k, residue=1 + 2 * (i % 2))
            t = rng.randrange(1, k + 1) if i % 3 else k
            exp = rng.randrange(1 << t)
            for ladder in (0, 1):
                r = await b.check(rng.randrange(n), exp, n, ladder, exp_len=t)
                if ladder:
                    ladder_cycles.setdefault(t, set()).add(r.cycles)
        if not b.core.data_dependent:
            for t, seen in ladder_cycles.items():
                assert len(seen) == 1, f"ladder latency varies at exp_len={t}: {seen}"

    @cocotb.test()
    async def test_rejected(dut):
        """Rejected at the accepting edge (err_o, result 0, latency 0): even
        N, N < 3, base >= N, exp_len 0 or > Width, exponent bits at or above
        exp_len, R^2 >= N.  A wrong R^2 below N: err after the check product.
        The engine goes on working after each."""
        b = await Bench(dut).start()
        k, rng = b.k, _rng()
        n = _odd(rng, k)
        r2 = b.r2(n)
        top = (1 << k) - 1
        bad = [
            (1, 1, 1, top - 1, 0),  # even modulus
            (1, 1, 1, 2, 0),
            (0, 1, 1, 1, 0),  # N < 3
            (0, 1, 1, 0, 0),
            (n, 1, 1, n, r2),  # base not below N
            (top, 1, 1, n, r2),
            (1, 1, 0, n, r2),  # exp_len 0
            (1, 0b100, 2, n, r2),  # a bit above exp_len
            (1, 1 << (k - 1), k - 1, n, r2),
            (1, 1, 1, n, n),  # R^2 not below N
            (1, 1, 1, n, top),
        ]
        if k + 1 < 1 << exp_len_width(k):
            bad.append((1, 1, k + 1, n, r2))  # exp_len above Width
            bad.append((1, 1, (1 << exp_len_width(k)) - 1, n, r2))
        good = (rng.randrange(n), rng.randrange(1 << _tlen(k)), n)
        for ladder in (0, 1):
            for base, exp, t, m, rr in bad:
                resp = await b.drv.modexp(base, exp, t, m, rr, ladder)
                assert resp.err == 1 and resp.result == 0 and resp.cycles == 0, (base, exp, t, m, rr)
                b.verify(resp, base, exp, t, m, rr, ladder)
                await b.check(good[0], good[1], good[2], ladder, exp_len=_tlen(k))
            # A wrong R^2 in range: caught by the check product.
            for rr in {0, 1, (r2 + 1) % n, n - 1} - {r2}:
                resp = await b.drv.modexp(3 % n, 5, 3, n, rr, ladder)
                assert resp.err == 1 and resp.result == 0 and resp.mults == 2
                b.verify(resp, 3 % n, 5, 3, n, rr, ladder)
            await b.check(good[0], good[1], good[2], ladder, exp_len=_tlen(k))

    @cocotb.test()
    async def test_busy_and_backpressure(dut):
        """A request presented while busy is not taken (in_ready_o low) and is
        taken intact after the response; a held response stays stable with
        in_ready_o low and the core idle."""
        b = await Bench(dut).start()
        k, rng = b.k, _rng()
        n = _odd(rng, k)
        r2 = b.r2(n)
        t = _tlen(k)
        x1 = (rng.randrange(n), rng.randrange(1 << t), t, n, r2, 0)
        x2 = (rng.randrange(n), rng.randrange(1 << t), t, n, r2, 1)
        await b.drv.request_while_busy(x1, x2, lambda resp, x: b.verify(resp, *x), ready_after=5)
        # Back-pressure on results and on rejections.
        for i, ladder in enumerate((0, 1, 0)):
            await b.check(rng.randrange(n), rng.randrange(1 << t), n, ladder, exp_len=t, ready_after=1 + 4 * i)
        resp = await b.drv.modexp(n, 1, 1, n, r2, 0, ready_after=3)
        b.verify(resp, n, 1, 1, n, r2, 0)

    @cocotb.test()
    async def test_reset_mid_operation(dut):
        """Reset in the middle of an exponentiation: the engine (and its core)
        return to idle with no response; the next request is exact."""
        b = await Bench(dut).start()
        k, rng = b.k, _rng()
        dut_ = b.dut
        n = _odd(rng, k)
        t = _tlen(k)
        job = (rng.randrange(n), rng.randrange(1 << t), n)
        want = b.model(job[0], job[1], t, n, b.r2(n), 1)
        for frac in (0.05, 0.5, 0.95):
            await b.drv.reset_during((job[0], job[1], t, n, b.r2(n), 1), int(want.cycles * frac), "engine")
            await FallingEdge(dut_.clk_i)
            b.mon.take()
            # The monitor may sit between a product's request and response.
            b.mon.stop()
            b.mon = ProductMonitor(dut_)
            b.mon.start()
            await b.check(job[0], job[1], n, 1, exp_len=t)

else:
    import pytest
    from bench_util import SIMS

    from montmul import cores
    from montmul.flows.sim import modexp_sim

    # (simulator, core, width, core parameters).  Icarus: every registered
    # core at width 8 (its builds take seconds), scs_new at 16.  Verilator
    # (builds take ~30 s, simulations are fast): scs_new at 64 and 256, the
    # carry-save FCS-MM-1 with a word-serial converter at 64.  About 2.5
    # minutes on 2 cores.
    _GRID = (
        [("icarus", c, 8, {}) for c in sorted(cores.CORES)]
        + [("icarus", "scs_new", 16, {})]
        + [
            ("verilator", "scs_new", 64, {}),
            ("verilator", "scs_new", 256, {}),
            ("verilator", "fcs1_bin", 64, {"CpaWidth": 16}),
        ]
    )

    def _id(sim, core, width, params):
        tag = "-".join(f"{k}{v}" for k, v in params.items())
        return f"{sim}-{core}-w{width}" + (f"-{tag}" if tag else "")

    @pytest.mark.parametrize(
        "sim,core,width,params",
        [pytest.param(*g, id=_id(*g)) for g in _GRID if g[0] in SIMS],
    )
    def test_mm_modexp(sim, core, width, params):
        from pathlib import Path

        here = Path(__file__).resolve()
        modexp_sim.run(core, sim, width, test_module=here.stem, test_dir=here.parent, params=params)
