"""montmul.flows.synth.critpath: the routed critical path mapped to RTL sources
(pure Python on small hand-made netlists and reports; no tools run)."""
import json

import pytest

from montmul.flows.synth import critpath

FLOW_TAIL = "blackbox =A:whitebox\nsetattr -unset src\ntee -q -o stat.json stat -json\nwrite_json netlist.json\n"


def test_src_script_keeps_attributes():
    out = critpath.src_script("read_verilog x.sv\n" + FLOW_TAIL)
    assert "setattr -unset src" not in out
    assert out.endswith("write_json netlist_src.json\n")
    assert "write_json netlist.json" not in out
    with pytest.raises(ValueError, match="netlist-writing"):
        critpath.src_script("read_verilog x.sv\nwrite_json netlist.json\n")


def _cell(kind, src, ins, outs):
    dirs = {**{p: "input" for p in ins}, **{p: "output" for p in outs}}
    return {"type": kind, "attributes": {"src": src}, "port_directions": dirs, "connections": {**ins, **outs}}


TECH = "/share/lattice/cells_map_trellis.v:63.1-63.2"


def _design(tmp_path):
    # r1 (mm_a.sv:10) and r2 (a re-encoded state, no RTL src) -> lut1 -> lut2 -> r3 (mm_b.sv:20)
    cells = {
        "r1": _cell("TRELLIS_FF", f"../rtl/mm_a.sv:10.3-12.4|{TECH}", {"DI": [2]}, {"Q": [10]}),
        "r2": _cell("TRELLIS_FF", TECH, {"DI": [3]}, {"Q": [11]}),
        "lut1": _cell("LUT4", TECH, {"A": [10], "B": [11]}, {"Z": [12]}),
        "lut2": _cell("LUT4", TECH, {"A": [12], "B": [10]}, {"Z": [13]}),
        "r3": _cell("TRELLIS_FF", f"../rtl/mm_b.sv:20.3-22.4|{TECH}", {"DI": [13]}, {"Q": [14]}),
    }
    nl = {"modules": {"top": {"attributes": {"top": 1}, "cells": cells, "netnames": {}}}}
    (tmp_path / "synth.ys").write_text("x\n" + FLOW_TAIL)
    (tmp_path / "netlist_src.json").write_text(json.dumps(nl))

    def step(kind, a, b, delay):
        return {"type": kind, "delay": delay, "from": {"cell": a}, "to": {"cell": b}}

    path = [step("clk-to-q", "r2", "r2", 0.5), step("routing", "r2", "lut1", 1.0), step("logic", "lut1", "lut1", 0.25),
            step("routing", "lut1", "lut2$packed", 2.0), step("logic", "lut2$packed", "lut2$packed", 0.25),
            step("routing", "lut2$packed", "r3", 0.5), step("setup", "r3", "r3", 0.1)]
    report = {"critical_paths": [{"from": "posedge clk_i", "to": "posedge clk_i", "path": path}]}
    (tmp_path / "report_seed2.json").write_text(json.dumps(report))
    (tmp_path / "report.json").write_text(json.dumps({"critical_paths": []}))


def test_trace_maps_cells_cones_and_seed(tmp_path):
    _design(tmp_path)
    res = {"status": "ok", "fmax_mhz": 97.5, "fmax_seeds": {"1": 103.2, "2": 97.5, "3": 94.9}}
    tr = critpath.trace(tmp_path, res, seed_opt=1)
    assert tr["report"] == "report_seed2.json"  # the median seed's path
    assert tr["logic_levels"] == 2
    assert tr["routing_ns"] == 3.5 and tr["logic_ns"] == 1.1
    assert tr["start"]["src"] == "fsm state"
    assert tr["end"]["src"] == "mm_b.sv:20"
    assert tr["end"]["cone"] == {"mm_a.sv:10": 1, "fsm state": 1}
    assert [h["cell"] for h in tr["hops"]] == ["r2", "lut1", "lut2", "r3"]
    text = critpath.format_trace("t", tr)
    assert "2 logic levels" in text and "mm_b.sv:20" in text


def test_trace_refuses_a_run_without_a_routed_design(tmp_path):
    _design(tmp_path)
    with pytest.raises(ValueError, match="timed_out"):
        critpath.trace(tmp_path, {"status": "timed_out", "fmax_mhz": None})
    with pytest.raises(ValueError, match="no clk_i"):
        critpath.trace(tmp_path, {"status": "ok", "fmax_mhz": 103.2, "fmax_seeds": {"1": 103.2}}, seed_opt=1)
