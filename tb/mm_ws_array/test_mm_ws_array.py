# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_ws_array (rtl/ws), the ws word-serial systolic Montgomery
array, against its cycle model ``montmul.models.ws.simulate``.

The bench plays the engine on the native word-stream interface (docs/ws.md,
"Native interface"): it starts jobs back to back, answers every load and B
request ReqLatency = 2 cycles after it, and records the result stream.  For
every job the model runs the same products (``ws.simulate`` on an
``ws.Array`` of the build's P, w, d, L) and the bench checks

* every result word equals the model's, and appears on the result stream in
  the cycle the model says it is readable at PE 0 (``arrive``), counted from
  the cycle the job is accepted plus the array's lead of ReqLatency + 1;
  no other cycle has a valid result word;
* the next job is accepted exactly the model's cycle count (``cycles``,
  ``ws.chain_cycles``) after the previous one (the array is ready again in
  the cycle of its last result word);
* the products are Montgomery products: U = A B R^-1 (mod N), U < 2Ñ
  (through the model's own checks and, for an exponentiation, x^e mod N).

Builds: one to four laps of the ring (c, ``Chunks``), the quotient bypass
(2cd = L), d and L over their ranges.  Jobs: bad ones first (dropped with
``job_err_o``); one product per half with loads, two halves and one, random
operands
and the worst case (largest Ñ, A = B = 2Ñ - 1), word counts m below the
build's maximum; chains as ``ws.exponent_chains`` builds them (B from the
stream, ``SQUARE`` fed back inside the array, ``ResultOf`` replayed by the
bench from the result stream as an engine would from its memory), and a job
without a load that continues from the results left in place.

``make test`` runs the small builds below; ``make test-ws-full`` also the
larger ones (pytest marker ``ws_full``).
"""
from __future__ import annotations

import json
import os
import random

import pytest

#: (NumPe, WordWidth, DspRegs, LoopRegs, QuotDelay, MaxWords, simulators[, Chunks])
CASES = [
    (12, 8, 3, 0, 4, 11, ("icarus", "verilator")),
    (10, 17, 2, 0, 3, 9, ("icarus",)),
    (13, 16, 3, 1, 4, 12, ("icarus",)),
    (11, 8, 3, 0, 3, 10, ("icarus",)),  # d = L/2: the quotient bypass (model qlat = -1)
    (6, 8, 3, 0, 2, 11, ("icarus",), 2),  # two laps (P = 2 mod 4)
    (4, 8, 3, 0, 2, 11, ("icarus",), 3),  # three laps
]
#: Larger builds (``make test-ws-full``): the chosen word width, a larger
#: ring, every legal d at L = 6 and 7.
FULL_CASES = [
    (24, 17, 3, 0, 4, 23, ("icarus", "verilator")),
    (20, 16, 3, 0, 5, 19, ("verilator",)),
    (18, 12, 3, 1, 4, 17, ("verilator",)),
    (16, 9, 2, 0, 3, 15, ("verilator",)),
    (14, 11, 3, 2, 6, 13, ("icarus",)),
    (6, 8, 3, 0, 2, 11, ("verilator",), 2),
    (10, 8, 3, 2, 2, 19, ("icarus",), 2),  # two laps, 2cd = L: the bypass
    (22, 17, 3, 0, 2, 43, ("verilator",), 2),
    (10, 16, 3, 0, 2, 39, ("icarus",), 4),
]

REQ_LATENCY = 2  #: mm_ws_array's ReqLatency
LEAD = REQ_LATENCY + 1  #: accepting edge to the model's cycle 0 (PE 0's token register)


def min_bits(w: int, d: int, words: int) -> int:
    """The shortest modulus ℓ whose word count m is at least ``words``."""
    return max(2, w * (words - 1) - w * (d + 1) - 1)


def max_bits(w: int, d: int, words: int) -> int:
    """The longest modulus ℓ whose word count m = ceil((ℓ + w(d+1) + 2)/w)
    is at most ``words``."""
    return w * words - w * (d + 1) - 2


def worst_modulus(bits: int, w: int, d: int) -> int:
    """The largest Ñ of ``bits`` bits: N = 1 mod 2^(w(d+1)) (n' = 2^(w(d+1)) - 1)."""
    low = 1 << (w * (d + 1))
    n = ((1 << bits) - 1) // low * low + 1
    return n if n >= 3 and n.bit_length() == bits else (1 << bits) - 1


def random_modulus(bits: int, rng: random.Random) -> int:
    return rng.randrange(1 << (bits - 1), 1 << bits) | 1 if bits > 2 else 3


if os.environ.get("MONTMUL_IN_SIM"):
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

    from montmul.models import ws

    def scenarios(p: dict, rng: random.Random) -> list[list]:
        """Lists of jobs: each job is [Job] (half 0) or [Job, Job]; a job
        with load=False continues from the previous job's results."""
        w, d = p["WordWidth"], p["QuotDelay"]
        top = max_bits(w, d, p["MaxWords"])
        low = min_bits(w, d, max(d + 2, (p.get("Chunks", 1) - 1) * p["NumPe"]))
        small = max(low, top - 2 * w)  # a word count below the build's maximum
        out = []

        def pair(bits, count):
            return [ws.precompute(random_modulus(bits, rng), w, d, bits) for _ in range(count)]

        # bad jobs first: a word count below d + 2, above the build's
        # maximum (if the port can carry it), no product; each is dropped
        # with job_err_o and the array stays ready
        out.append(("illegal", max(d + 2, (p.get("Chunks", 1) - 1) * p["NumPe"]) - 1, 1))
        if (p["MaxWords"] + 1).bit_length() == p["MaxWords"].bit_length():
            out.append(("illegal", p["MaxWords"] + 1, 1))
        out.append(("illegal", p["MaxWords"], 0))
        # (a) one product per half, loads: two halves, one half, worst case
        for bits, two in ((top, True), (small, True), (top, False)):
            ks = pair(bits, 2 if two else 1)
            out.append([ws.Job(k, rng.randrange(2 * k.ntilde), [rng.randrange(2 * k.ntilde)], load=True)
                        for k in ks])
        kw = ws.precompute(worst_modulus(top, w, d), w, d, top)
        kr = pair(top, 1)[0]
        out.append([ws.Job(kw, 2 * kw.ntilde - 1, [2 * kw.ntilde - 1], load=True),
                    ws.Job(kr, 2 * kr.ntilde - 1, [2 * kr.ntilde - 1], load=True)])
        # (b) chains: squarings and memory B, then a job without a load that
        # continues from the results in place (its A: the last results)
        ks = pair(top, 2)
        out.append([ws.Job(k, rng.randrange(2 * k.ntilde), [ws.SQUARE, rng.randrange(2 * k.ntilde), ws.SQUARE,
                                                             ws.ResultOf(0), ws.SQUARE, ws.ResultOf(4)], load=True)
                    for k in ks])
        out.append([ws.Job(k, None, [ws.SQUARE, ws.SQUARE, rng.randrange(2 * k.ntilde)], load=False) for k in ks])
        # exponentiation (both halves), as exponent_chains builds it, where
        # the build's shortest legal modulus keeps it short (ℓ/4 windows)
        bits = max(low, min(top, 16))
        if bits > 64:
            return out
        ks = pair(bits, 2)
        xs = [rng.randrange(k.n) for k in ks]
        es = [rng.randrange(1 << bits) for _ in ks]
        chains = [ws.exponent_chains(k, x, e) for k, x, e in zip(ks, xs, es)]
        out.append([chains[0][0], chains[1][0]])
        out.append([chains[0][1], chains[1][1]])
        out[-1].append(("expect_pow", [(k, x, e) for k, x, e in zip(ks, xs, es)]))
        return out

    class Running:
        """A job the bench has presented: its model run and the bench's
        counters of the words it has supplied and received."""

        def __init__(self, spec: list, arr, w: int):
            self.jobs = [j for j in spec if isinstance(j, ws.Job)]
            self.pow = [x for x in spec if isinstance(x, tuple)]
            self.model = ws.simulate(arr, self.jobs)
            self.m = self.jobs[0].k.m
            assert arr.chunks(self.jobs[0].k) == int(json.loads(os.environ["WS_PARAMS"]).get("Chunks", 1))
            self.w = w
            self.ld = [0, 0]
            self.b = [0, 0]
            self.got: list[dict] = [{}, {}]  # half -> product -> word -> value
            self.start = None  # accepting edge (the cycle it begins)

        def expected(self) -> dict:
            mask = (1 << self.w) - 1
            out = {}
            for h, hr in enumerate(self.model.halves):
                for j, times in enumerate(hr.arrive):
                    for x, t in enumerate(times):
                        out[self.start + LEAD + t] = (self, h, j, x, hr.results[j] >> (self.w * x) & mask)
            return out

        def check(self) -> None:
            for h, hr in enumerate(self.model.halves):
                for j, res in enumerate(hr.results):
                    got = self.got[h].get(j, {})
                    assert sorted(got) == list(range(self.m)), f"half {h} product {j}: words {sorted(got)}"
                    assert sum(v << (self.w * x) for x, v in got.items()) == res
            for _, items in self.pow:
                for h, (k, x, e) in enumerate(items):
                    assert self.model.halves[h].results[-1] % k.n == pow(x, e, k.n), f"half {h}: x^e mod N"

    def setup(dut):
        p = json.loads(os.environ["WS_PARAMS"])
        d, latency, c = p["QuotDelay"], p["DspRegs"] + 3 + p["LoopRegs"], p.get("Chunks", 1)
        # 2cd = L: the ring's quotient bypass, the model's qlat = -1
        arr = ws.Array(pes=p["NumPe"], w=p["WordWidth"], d=d, latency=latency,
                       qlat=-1 if 2 * c * d == latency else 0)
        return p, arr, random.Random(int(os.environ.get("MONTMUL_SEED", "1")))

    async def reset(dut, cycles: int = 1):
        await FallingEdge(dut.clk_i)
        dut.rst_ni.value = 0
        for name in ("job_valid_i", "job_words_i", "job_prods_i", "job_load_i", "job_two_i",
                     "ld_a_i", "ld_m_i", "b_i", "b_sq_i"):
            getattr(dut, name).value = 0
        for _ in range(cycles):
            await RisingEdge(dut.clk_i)
        await FallingEdge(dut.clk_i)
        dut.rst_ni.value = 1

    @cocotb.test()
    async def test_jobs(dut):
        """Every job of :func:`scenarios`, back to back, against the model."""
        p, arr, rng = setup(dut)
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
        await reset(dut)
        await drive(dut, scenarios(p, rng), arr, p["WordWidth"], rng)

    @cocotb.test()
    async def test_reset_mid_job(dut):
        """A reset in the middle of a chain (tokens, results and requests in
        flight) leaves the array idle and ready; the next job is exact."""
        p, arr, rng = setup(dut)
        w, d = p["WordWidth"], p["QuotDelay"]
        bits = max_bits(w, d, p["MaxWords"])
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
        await reset(dut)
        for stop in (7, 3 * p["MaxWords"] + 11):
            ks = [ws.precompute(random_modulus(bits, rng), w, d, bits) for _ in range(2)]
            spec = [ws.Job(k, rng.randrange(2 * k.ntilde), [ws.SQUARE, ws.SQUARE], load=True) for k in ks]
            await drive(dut, [spec], arr, w, rng, stop_after=stop)
            await reset(dut, 2)
            assert int(dut.job_ready_o.value) and not int(dut.res_valid_o.value)
        ks = [ws.precompute(random_modulus(bits, rng), w, d, bits) for _ in range(2)]
        spec = [ws.Job(k, rng.randrange(2 * k.ntilde), [rng.randrange(2 * k.ntilde), ws.SQUARE], load=True)
                for k in ks]
        await drive(dut, [spec], arr, w, rng)

    async def drive(dut, specs: list, arr, w: int, rng: random.Random, stop_after: int | None = None) -> None:
        """Present ``specs`` back to back as the engine would, answer the
        requests, check the result stream cycle by cycle (see the module's
        docstring); ``stop_after``: return that many cycles after the first
        job is accepted, unchecked (for a reset)."""
        latency = arr.latency
        cycle = 0
        expect: dict[int, tuple] = {}  # absolute cycle -> (job, half, product, word, value)
        reqs: dict[int, list] = {}  # cycle -> [(job, kind, half)]
        presented = None  # the job on job_valid_i
        last = None  # the last accepted job
        done = []
        ready_before = False
        seen = 0
        queue = list(specs)
        idle_after = None
        while True:
            # ---- inputs of this cycle
            await FallingEdge(dut.clk_i)
            dut.b_sq_i.value = 0
            if presented is None:
                dut.job_valid_i.value = 0
            for job, kind, h in reqs.pop(cycle - REQ_LATENCY, []):
                hj = job.jobs[h]
                if kind == "ld":
                    v = job.ld[h]
                    job.ld[h] += 1
                    k = hj.k
                    dut.ld_a_i.value = k.word(hj.a, v)
                    dut.ld_m_i.value = k.word(k.mscaled, v - 1) if v else 0
                    continue
                j, i = divmod(job.b[h], job.m)
                job.b[h] += 1
                src = hj.bs[j]
                if isinstance(src, int):
                    dut.b_i.value = hj.k.word(src, i)
                elif src == ws.SQUARE and j == 0:  # B = A: the engine streams A
                    dut.b_i.value = hj.k.word(hj.a, i)
                elif src == ws.SQUARE:
                    dut.b_sq_i.value = 1
                    dut.b_i.value = rng.randrange(1 << w)  # must be ignored
                else:  # ResultOf: the engine replays a result it has stored
                    words = job.got[h].get(src.product, {})
                    assert i in words, f"B word {i} = result word of product {src.product}: not out yet"
                    dut.b_i.value = words[i]
            while presented is None and queue and isinstance(queue[0], tuple):
                _, words, prods = queue.pop(0)
                dut.job_valid_i.value = 1
                dut.job_words_i.value = words
                dut.job_prods_i.value = prods
                dut.job_load_i.value = 1
                dut.job_two_i.value = 1
                assert int(dut.job_ready_o.value), "not ready for a job"
                await RisingEdge(dut.clk_i)
                await ReadOnly()
                cycle += 1
                assert int(dut.job_err_o.value), f"job with m={words}, {prods} products: no job_err_o"
                await FallingEdge(dut.clk_i)
                dut.job_valid_i.value = 0
                assert int(dut.job_ready_o.value), "not ready after a dropped job"
            if presented is None and queue:
                spec = queue.pop(0)
                for h, hj in enumerate(j for j in spec if isinstance(j, ws.Job)):
                    if not hj.load:  # A is the previous job's last result, in place
                        hj.a = last.model.halves[h].results[-1]
                presented = Running(spec, arr, w)
                dut.job_valid_i.value = 1
                dut.job_words_i.value = presented.m
                dut.job_prods_i.value = len(presented.jobs[0].bs)
                dut.job_load_i.value = int(presented.jobs[0].load)
                dut.job_two_i.value = int(len(presented.jobs) == 2)
            ready_before = bool(int(dut.job_ready_o.value))

            # ---- the edge, then the outputs of the new cycle
            await RisingEdge(dut.clk_i)
            await ReadOnly()
            cycle += 1
            if presented is not None and ready_before:  # accepted by this edge
                presented.start = cycle
                if last is not None:
                    assert cycle - last.start == last.model.cycles, \
                        f"job accepted {cycle - last.start} cycles after the previous one, model {last.model.cycles}"
                expect.update(presented.expected())
                last, presented = presented, None
                done.append(last)
            if stop_after is not None and last is not None and cycle - last.start >= stop_after:
                return
            assert not int(dut.job_err_o.value), "job_err_o on a legal job"
            exp = expect.pop(cycle, None)
            valid = int(dut.res_valid_o.value)
            if exp is None:
                assert not valid, f"cycle {cycle}: a result word the model does not have"
            else:
                job, h, j, x, word = exp
                tau = cycle - job.start - LEAD
                assert valid, f"half {h} product {j} word {x}: no result word in model cycle {tau}"
                got = (int(dut.res_half_o.value), int(dut.res_word_o.value))
                assert got == (h, word), (f"half {h} product {j} word {x} (model cycle {tau}): "
                                          f"got half {got[0]} word {got[1]:#x}, model {word:#x}")
                job.got[h].setdefault(j, {})[x] = word
                seen += 1
            if int(dut.ld_req_o.value):
                reqs.setdefault(cycle, []).append((last, "ld", int(dut.ld_half_o.value)))
            if int(dut.b_req_o.value):
                reqs.setdefault(cycle, []).append((last, "b", int(dut.b_half_o.value)))
            if not queue and presented is None and not expect:
                idle_after = cycle if idle_after is None else idle_after
                if cycle - idle_after > 2 * latency:
                    break
        assert not reqs, f"requests never answered: {reqs}"
        for job in done:
            job.check()
        assert seen == sum(len(t) for job in done for hr in job.model.halves for t in hr.arrive)

else:
    from montmul import resources

    def _params(case):
        pe, w, regs, loop, d, words = case[:6]
        p = {"NumPe": pe, "WordWidth": w, "DspRegs": regs, "LoopRegs": loop, "QuotDelay": d, "MaxWords": words}
        if len(case) > 7:
            p["Chunks"] = case[7]
        return p

    def _cases(cases, marks=()):
        return [pytest.param(sim, _params(c), marks=marks,
                             id=f"{sim}-P{c[0]}-w{c[1]}-r{c[2]}-t{c[3]}-d{c[4]}" + (f"-c{c[7]}" if len(c) > 7 else ""))
                for c in cases for sim in c[6]]

    def _run(sim: str, params: dict) -> None:
        from bench_util import unit_bench

        unit_bench(__file__, "mm_ws_array",
                   [f"ws/{f}" for f in ("mm_ws_mul.sv", "mm_ws_pe.sv", "mm_ws_ring.sv", "mm_ws_array.sv")],
                   params, sim)

    #: ``make test-ws-full`` sets MONTMUL_WS_FULL=1; ``make test`` skips the larger builds.
    FULL_MARKS = (pytest.mark.ws_full,
                  pytest.mark.skipif(not os.environ.get("MONTMUL_WS_FULL"), reason="larger builds: make test-ws-full"))

    @pytest.mark.parametrize("sim,params", _cases(CASES) + _cases(FULL_CASES, FULL_MARKS))
    def test_mm_ws_array(sim, params):
        _run(sim, params)

    #: Illegal builds and the message that stops them (mm_ws_array's MM_FATAL).
    ILLEGAL = [
        ({"NumPe": 8, "MaxWords": 8}, "MaxWords must be in [max(QuotDelay + 2, (c-1) P), c P - 1]"),
        ({"NumPe": 8, "MaxWords": 5}, "MaxWords must be in [max(QuotDelay + 2, (c-1) P), c P - 1]"),
        ({"NumPe": 6, "Chunks": 2, "QuotDelay": 2, "MaxWords": 5},
         "MaxWords must be in [max(QuotDelay + 2, (c-1) P), c P - 1]"),
        ({"QuotDelay": 2}, "QuotDelay must be in [2, 8] with 2 Chunks QuotDelay >= Latency"),
        ({"NumPe": 2, "MaxWords": 1, "QuotDelay": 3}, "NumPe must be in [3, 512]"),
        ({"NumPe": 8, "Chunks": 2, "QuotDelay": 2, "MaxWords": 12},
         "Chunks must be in [1, 4]; Chunks > 1 needs P even, gcd(P/2, c) = 1"),
        ({"NumPe": 12, "Chunks": 3, "QuotDelay": 2, "MaxWords": 30},
         "Chunks must be in [1, 4]; Chunks > 1 needs P even, gcd(P/2, c) = 1"),
        ({"Chunks": 5}, "Chunks must be in [1, 4]; Chunks > 1 needs P even, gcd(P/2, c) = 1"),
    ]

    @pytest.mark.parametrize("bad,msg", ILLEGAL, ids=[str(i) for i in range(len(ILLEGAL))])
    def test_illegal_params_verilator(bad, msg, tmp_path):
        """An illegal build stops Verilator's elaboration with the module's message."""
        import subprocess

        from montmul.flows.sim.runner import tools_path

        rtl = resources.rtl_dir()
        params = {"NumPe": 8, "WordWidth": 8, "QuotDelay": 4, "MaxWords": 6, **bad}
        cmd = ["verilator", "--lint-only", f"-I{rtl / 'common'}", "--top-module", "mm_ws_array"]
        cmd += [f"-G{k}={v}" for k, v in params.items()]
        cmd += [str(rtl / "ws" / f) for f in ("mm_ws_mul.sv", "mm_ws_pe.sv", "mm_ws_ring.sv", "mm_ws_array.sv")]
        env = {**os.environ, "PATH": os.pathsep.join([str(tools_path()), os.environ.get("PATH", "")])}
        proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
        out = proc.stdout + proc.stderr
        assert proc.returncode != 0 and f"mm_ws_array: {msg}" in out, out

