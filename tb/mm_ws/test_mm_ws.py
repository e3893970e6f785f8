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
  random operands, with back-pressure on the response."""
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
else:
    import re
    import shutil
    import subprocess

    from bench_util import core_bench, props_live

    from montmul import cores, resources
    from montmul.models import ws_core

    test_mm_ws = core_bench(__file__, "ws", props=True)
    test_mm_ws_props_live = props_live("ws")

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
