# SPDX-License-Identifier: Apache-2.0
"""montmul.flows.synth.tools: the YoWASP tools open files anywhere through
:func:`tools.tool_path`, also under the system temp directory, which their
sandbox maps to a folder of its own (issue 47)."""
from __future__ import annotations

from montmul.flows.synth import tools

MODULE = "module mm_t (input logic [3:0] a_i, output logic [3:0] y_o);\n  assign y_o = ~a_i;\nendmodule\n"


def test_yosys_reads_a_file_beside_its_work_folder(tmp_path):
    # pytest's tmp_path lies under the system temp directory, as a clone in /tmp does
    (tmp_path / "rtl").mkdir()
    src = tmp_path / "rtl" / "mm_t.sv"
    src.write_text(MODULE)
    work = tmp_path / "work" / "deeper"
    work.mkdir(parents=True)
    script = f"read_verilog -sv {tools.tool_path(src, work)}; hierarchy -top mm_t; stat"
    tools.run("yosys", ["-p", script], work, "yosys.out")
    assert "mm_t" in (work / "yosys.out").read_text()


def test_tool_path_is_relative():
    assert tools.tool_path("/a/b/c.sv", "/a/d") == "../b/c.sv"
