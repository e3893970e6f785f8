# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_ws (rtl/ws), the ws array behind the common core ports (the
wide-port adapter, docs/ws_core.md), registered as core ``ws``:

* the shared core suite (montmul.flows.sim.suite) at the registry's test
  widths and parameter sets on Icarus and Verilator, every result and latency
  against montmul.models.ws_core (through the registry: ``core_model``); on
  Verilator with the port-level properties of rtl/formal/mm_core_props.sv
  bound and checked as assertions;
* test_largest_scaled_modulus: the moduli with the largest n' (the largest
  scaled modulus Ñ = n'N, so the array's largest U < 2Ñ), 3, 2^k - 1 and
  2^(k-1) + 1 (``bench_util.ws_directed_moduli``), A = B = 2N - 1, A = 0 and
  random operands, with back-pressure on the response;
* test_unchecked_illegal_inputs (test_mm_ws_unchecked: Icarus, 8 bits, both
  request checks off): even N, N < 3 and operands >= 2N are answered with
  the legal latency and the next legal request is exact: no hang."""
from __future__ import annotations

import os

if os.environ.get("MONTMUL_IN_SIM"):
    # Inside the simulator: the cocotb tests.
    import cocotb
    from bench_util import ws_directed_moduli

    from montmul.flows.sim.driver import CoreDriver, config
    from montmul.flows.sim.suite import *
    from montmul.flows.sim.suite import rng_from_env

    @cocotb.test()
    async def test_largest_scaled_modulus(dut):
        core, k, params = config()
        rng = rng_from_env()
        drv = CoreDriver(dut)
        await drv.start()
        for i, n in enumerate(ws_directed_moduli(k, params["WordWidth"], params["QuotDelay"])):
            for a, b in ((2 * n - 1, 2 * n - 1), (0, 2 * n - 1), (rng.randrange(2 * n), rng.randrange(2 * n))):
                want = core.run_model(a, b, n, k, params)
                resp = await drv.mul(a, b, n, ready_after=i % 3)
                assert resp.err == 0, f"N={n:#x} A={a:#x} B={b:#x}: rejected"
                assert resp.s == want.result, f"N={n:#x} A={a:#x} B={b:#x}: S={resp.s:#x}, model {want.result:#x}"
                assert resp.cycles == want.cycles, (
                    f"N={n:#x}: latency {resp.cycles}, model {want.cycles} ({want.breakdown})")

    _, _, _PARAMS = config()

    @cocotb.skipif(bool(_PARAMS["CheckMod"] or _PARAMS["CheckRange"]),
                   reason="a build with both request checks off (test_mm_ws_unchecked)")
    @cocotb.test()
    async def test_unchecked_illegal_inputs(dut):
        """CheckMod = CheckRange = 0 (the host promises legal requests): an
        even N, N = 1, N = 0 and operands up to 2^(k+1) - 1 are not
        rejected; each is answered with err_o = 0 after exactly the core's
        data-independent latency (the driver's timeout catches a hang), and
        the next legal request is exact."""
        core, k, params = config()
        rng = rng_from_env()
        drv = CoreDriver(dut)
        await drv.start()
        bound = core.bound(k, params)
        top = (1 << (k + 1)) - 1
        n_legal = (1 << k) - 1
        bad = [(1, 1, 0), (3, 2, 1), (5, 7, 2), (top, top, (1 << k) - 2), (top, 0, n_legal), (2 * n_legal, top, n_legal),
               (rng.randrange(top + 1), rng.randrange(top + 1), rng.randrange(1 << k) & ~1)]
        for a, b, n in bad:
            resp = await drv.mul(a, b, n, ready_after=1)
            assert resp.err == 0, f"A={a:#x} B={b:#x} N={n:#x}: rejected with the checks off"
            assert resp.cycles == bound, f"A={a:#x} B={b:#x} N={n:#x}: latency {resp.cycles}, not {bound}"
            a2, b2 = rng.randrange(2 * n_legal), rng.randrange(2 * n_legal)
            want = core.run_model(a2, b2, n_legal, k, params)
            resp = await drv.mul(a2, b2, n_legal)
            assert (resp.err, resp.s, resp.cycles) == (0, want.result, want.cycles), (
                f"after the illegal request N={n:#x}: A={a2:#x} B={b2:#x} gave {resp}, model {want}")
else:
    import re
    import shutil
    import subprocess

    import pytest

    from bench_util import core_bench, props_live

    from montmul import cores, resources
    from montmul.models import ws_core

    test_mm_ws = core_bench(__file__, "ws", props=True)
    test_mm_ws_props_live = props_live("ws")

    #: (Width, parameters) of the invariants' runs: the formal flow's build
    #: (montmul.flows.formal.FORMAL_PARAMS), and (make test-full) two laps of
    #: a 6-PE ring with L = 7 and the registry's defaults
    INVARIANT_BUILDS = [(3, {"WordWidth": 2, "QuotDelay": 3, "DspRegs": 2}),
                        (8, {"WordWidth": 4, "QuotDelay": 2, "Chunks": 2, "DspRegs": 2, "LoopRegs": 2}),
                        (8, {})]
    INVARIANT_TESTS = ["test_corners", "test_random", "test_backpressure", "test_reset_mid_operation",
                       "test_request_while_busy", "test_rejected_inputs"]

    @pytest.mark.parametrize("k,params", INVARIANT_BUILDS,
                             ids=[f"w{k}" + "".join(f"-{n}{v}" for n, v in p.items()) for k, p in INVARIANT_BUILDS])
    def test_mm_ws_invariants(k, params):
        """Verilator, built with -DMM_FORMAL --assert: the adapter's MM_FORMAL
        invariants (its whole schedule, the units' own, the array's
        sequencer's; those the k-induction of ``montmul formal --core ws``
        uses) are checked on every cycle of the suite's directed, random,
        back-pressure, reset, busy and rejected requests."""
        import json
        from pathlib import Path

        from cocotb_tools.check_results import get_results
        from cocotb_tools.runner import get_runner

        core = cores.get("ws")
        hdl = core.hdl_params(k, **params)
        here = Path(__file__).resolve()
        resources.setup_tool_env()
        bdir = resources.build_root() / "sim" / "verilator_formal" / ("ws_" + "_".join(f"{n}{v}" for n, v in hdl.items()))
        os.environ["MAKEFLAGS"] = "CFG_CXXFLAGS_PCH_I=-include OPT_FAST=-O0"
        run = get_runner("verilator")
        run.build(sources=[str(p) for p in core.sources()], hdl_toplevel=core.top,
                  includes=[str(p) for p in core.includes()], parameters=hdl, build_dir=str(bdir),
                  build_args=["-Wno-fatal", "-Werror-USERFATAL", "--x-assign", "fast", "--x-initial", "fast",
                              "-DMM_FORMAL", "--assert"],
                  timescale=("1ns", "1ps"), log_file=str(bdir / "build.log"))
        results = run.test(hdl_toplevel=core.top, test_module=here.stem, test_dir=str(here.parent), build_dir=str(bdir),
                           testcase=INVARIANT_TESTS,
                           extra_env={"MONTMUL_IN_SIM": "1", "MONTMUL_CORE": "ws", "MONTMUL_WIDTH": str(k),
                                      "MONTMUL_PARAMS": json.dumps(hdl),
                                      "PYTHONPATH": os.pathsep.join([str(here.parent), resources.python_path()])},
                           log_file=str(bdir / "test.log"), results_xml=str(bdir / "results.xml"))
        total, failed = get_results(Path(results))
        assert total == len(INVARIANT_TESTS) and failed == 0, (bdir / "test.log").read_text()[-3000:]

    def test_mm_ws_unchecked():
        """Icarus, 8 bits, CheckMod = CheckRange = 0: illegal requests are
        answered with the legal latency, never a hang
        (test_unchecked_illegal_inputs)."""
        from pathlib import Path

        from montmul.flows.sim import runner

        here = Path(__file__).resolve()
        runner.run(cores.get("ws"), "icarus", 8, test_module=here.stem, test_dir=here.parent,
                   testcase="test_unchecked_illegal_inputs", params={"CheckMod": 0, "CheckRange": 0})

    #: (Width, parameters): one lap, two laps chosen for 2d < L or for a given
    #: P, three laps given, a P larger than m + 1
    RINGS = [(8, {}), (64, {"WordWidth": 4, "QuotDelay": 2, "DspRegs": 2, "LoopRegs": 2}), (64, {"NumPe": 6}),
             (64, {"QuotDelay": 2}), (8, {"WordWidth": 2, "QuotDelay": 2, "Chunks": 3}), (16, {"WordWidth": 8, "NumPe": 10})]

    def test_ring_matches_the_model(tmp_path):
        """mm_ws.sv sizes the ring (NumPe = 0, Chunks = 0) with the same rule
        as ws_core.build: the P and c it elaborates (Icarus) are the model's."""
        core = cores.get("ws")
        insts = []
        for i, (k, p) in enumerate(RINGS):
            hdl = core.hdl_params(k, **p)
            sets = ", ".join(f".{n}({v})" for n, v in hdl.items())
            insts.append(f"  mm_ws #({sets}) u{i} ();\n"
                         f"  initial $display(\"ring {i} %0d %0d\", u{i}.Pes, u{i}.Laps);")
        top = "module ws_ring_probe;\n" + "\n".join(insts) + "\n  initial #1 $finish;\nendmodule\n"
        (tmp_path / "probe.sv").write_text(top)
        tools = resources.tools_path()
        rtl = resources.rtl_dir()
        vvp = tmp_path / "probe.vvp"
        subprocess.run([shutil.which("iverilog", path=tools), "-g2012", "-s", "ws_ring_probe", "-o", str(vvp),
                        f"-I{rtl / 'common'}", *(str(s) for s in core.sources()), str(tmp_path / "probe.sv")],
                       check=True, capture_output=True, text=True, cwd=tmp_path)
        out = subprocess.run([shutil.which("vvp", path=tools), "-n", str(vvp)], check=True, capture_output=True,
                             text=True, cwd=tmp_path).stdout
        got = {int(i): (int(p), int(c)) for i, p, c in re.findall(r"^ring (\d+) (\d+) (\d+)$", out, re.M)}
        want = {}
        for i, (k, p) in enumerate(RINGS):
            b = ws_core.build_of(k, core.hdl_params(k, **p))
            want[i] = (b.pes, b.chunks)
        assert got == want
        assert {c for _, c in want.values()} == {1, 2, 3}
