# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_seg_add (rtl/common), the segmented adder behind every wide
addition, subtraction and comparison: random and corner operands (carries
that ripple through every segment, all-ones, zero, a last segment shorter
than SegWidth) at several (Width, SegWidth) on Icarus and Verilator, each sum
and carry against Python's integers."""
from __future__ import annotations

import os

if os.environ.get("MONTMUL_IN_SIM"):
    import random

    import cocotb
    from cocotb.triggers import Timer

    @cocotb.test()
    async def test_sums(dut):
        w = int(os.environ["SEG_WIDTH"])
        seg = int(os.environ["SEG_SEG"])
        mask = (1 << w) - 1
        rng = random.Random(w * 1000 + seg)
        corners = [0, 1, mask, mask - 1, 1 << (w - 1)]
        # Operands whose sum propagates across segment boundaries.
        for k in range(1, w):
            corners += [(1 << k) - 1, 1 << k]
        vecs = [(a, b, c) for a in corners for b in (0, 1, mask) for c in (0, 1)]
        vecs += [(a, mask ^ a, c) for a in corners[:8] for c in (0, 1)]  # all-propagate
        vecs += [(rng.getrandbits(w), rng.getrandbits(w), rng.getrandbits(1)) for _ in range(2000)]
        for a, b, c in vecs:
            dut.a_i.value, dut.b_i.value, dut.ci_i.value = a, b, c
            await Timer(1, "ns")
            t = a + b + c
            got = (int(dut.co_o.value) << w) | int(dut.s_o.value)
            assert got == t, f"W={w} Seg={seg}: {a:#x} + {b:#x} + {c} = {t:#x}, RTL {got:#x}"
else:
    from pathlib import Path

    import pytest

    from montmul import resources

    CASES = [(1, 1), (8, 3), (20, 8), (64, 16), (100, 32), (64, 64), (64, 256)]

    @pytest.mark.parametrize("sim", ["icarus", "verilator"])
    @pytest.mark.parametrize("width,seg", CASES, ids=[f"w{w}-s{s}" for w, s in CASES])
    def test_mm_seg_add(sim, width, seg):
        from cocotb_tools.check_results import get_results
        from cocotb_tools.runner import get_runner

        here = Path(__file__).resolve().parent
        common = resources.rtl_dir() / "common"
        bdir = resources.build_root() / "sim" / "mm_seg_add" / f"{sim}_w{width}_s{seg}"
        runner = get_runner(sim)
        runner.build(sources=[str(common / "mm_seg_add.sv")], hdl_toplevel="mm_seg_add",
                     includes=[str(common)], parameters={"Width": width, "SegWidth": seg},
                     build_dir=str(bdir), timescale=("1ns", "1ps"), log_file=str(bdir / "build.log"))
        env = {"MONTMUL_IN_SIM": "1", "SEG_WIDTH": str(width), "SEG_SEG": str(seg),
               "PYTHONPATH": os.pathsep.join([str(here), resources.python_path(), os.environ.get("PYTHONPATH", "")])}
        res = runner.test(hdl_toplevel="mm_seg_add", test_module="test_mm_seg_add", build_dir=str(bdir),
                          test_dir=str(here), extra_env=env, log_file=str(bdir / "test.log"),
                          results_xml=str(bdir / "results.xml"))
        _, failed = get_results(Path(res))
        assert not failed, f"see {bdir / 'test.log'}"

    EQUIV = [(20, 4), (33, 5), (65, 32), (100, 8), (257, 64)]

    def _equiv(name: str, width: int, seg: int, other: str, other_top: str):
        """Yosys miter of mm_seg_add (Width, SegWidth) against the module
        ``other_top`` (source ``other``), proved by `sat -prove-asserts`:
        (return code, log text, build folder)."""
        from bench_util import yosys_equiv

        return yosys_equiv(f"mm_seg_add_{name}", [resources.rtl_dir() / "common" / "mm_seg_add.sv"], "mm_seg_add",
                           {"Width": width, "SegWidth": seg}, other, other_top)

    @pytest.mark.parametrize("width,seg", EQUIV, ids=[f"w{w}-s{s}" for w, s in EQUIV])
    def test_mm_seg_add_equivalent(width, seg):
        """A proof, not samples: Yosys's SAT solver shows the segmented adder
        equal to `a + b + ci` for every input (miter of the two netlists)."""
        ref = (f"module ref_add (input logic [{width - 1}:0] a_i, b_i, input logic ci_i,\n"
               f"                output logic [{width - 1}:0] s_o, output logic co_o);\n"
               f"  assign {{co_o, s_o}} = a_i + b_i + ci_i;\nendmodule\n")
        rc, log, bdir = _equiv(f"equiv_w{width}_s{seg}", width, seg, ref, "ref_add")
        assert rc == 0 and "SAT proof finished - no model found: SUCCESS!" in log, \
            f"not equivalent or Yosys failed, see {bdir / 'equiv.log'}"

    def test_mm_seg_add_equivalence_can_fail():
        """The same check fails against a wrong adder (the carry into the
        second segment dropped), so its SUCCESS means something."""
        bad = ("module bad_add (input logic [7:0] a_i, b_i, input logic ci_i, output logic [7:0] s_o,\n"
               "                output logic co_o);\n"
               "  logic [4:0] lo; logic [4:0] hi;\n"
               "  assign lo = a_i[3:0] + b_i[3:0] + ci_i;\n"
               "  assign hi = a_i[7:4] + b_i[7:4];  // the carry out of the low half is lost\n"
               "  assign s_o = {hi[3:0], lo[3:0]}; assign co_o = hi[4];\nendmodule\n")
        rc, log, _ = _equiv("equiv_broken", 8, 4, bad, "bad_add")
        assert rc != 0 and "SUCCESS" not in log
