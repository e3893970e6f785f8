# SPDX-License-Identifier: Apache-2.0
"""The ECP5 flow option ``share`` (montmul.flows.synth.flows.ecp5_synth): share=0
leaves Yosys's `share` pass out of synth_ecp5; the spelled-out coarse step
with `share` is exactly synth_ecp5 (same cells on a core with multipliers),
so share=0 differs from the default flow in that one pass only."""

from __future__ import annotations

import shutil
import uuid

import pytest

from montmul import cores
from montmul.cores import ROOT
from montmul.flows.synth import DEFAULTS, flows, parse, tools


def test_default_flow_unchanged():
    assert DEFAULTS["ecp5"]["share"] == 1
    assert flows.ecp5_synth("mm_x", DEFAULTS["ecp5"]) == "synth_ecp5 -top mm_x -run :check"
    assert flows.ecp5_synth("mm_x", {"share": 1}, flatten=False) == "synth_ecp5 -top mm_x -noflatten -run :check"


def test_share_0_drops_only_share():
    spelled = flows.ecp5_synth("mm_x", {"share": 1}, spell=True).splitlines()
    off = flows.ecp5_synth("mm_x", {"share": 0}).splitlines()
    assert spelled[0] == "synth_ecp5 -top mm_x -run :coarse" and spelled[-1] == "synth_ecp5 -top mm_x -run map_ram:check"
    assert "share" in spelled and [s for s in spelled if s != "share"] == off
    hier = flows.ecp5_synth("mm_x", {"share": 0}, flatten=False).splitlines()
    assert "flatten" not in hier and all("-noflatten" in s for s in hier if s.startswith("synth_ecp5"))
    with pytest.raises(ValueError, match="share must be 0 or 1"):
        flows.ecp5_synth("mm_x", {"share": 2})


def test_spelled_out_coarse_step_is_synth_ecp5():
    """Yosys on dsp_redundant_ecp5 (multipliers that `share` can merge) at a
    small width: synth_ecp5 and the spelled-out script give the same cells;
    without `share` the cells differ (so the option does something)."""
    tools.check("ecp5")
    core = cores.lookup("dsp_redundant_ecp5")
    hdl = core.hdl_params(16, Interleave=1)
    top = ROOT / "build" / "test_synth_share" / uuid.uuid4().hex[:16]
    cells = {}
    try:
        for name, opts, spell in (("default", {"share": 1}, False), ("spelled", {"share": 1}, True),
                                  ("off", {"share": 0}, False)):
            cwd = top / name
            cwd.mkdir(parents=True)
            flows._yosys(flows.fill("ecp5.ys.in", READ=flows.read_block(core, hdl, cwd),
                                    SYNTH=flows.ecp5_synth(core.top, opts, spell=spell)), cwd)
            cells[name] = parse.yosys_stat(cwd / "stat.json")["cells"]
    finally:
        shutil.rmtree(top, ignore_errors=True)
    assert cells["default"] == cells["spelled"]
    assert cells["off"] != cells["default"]
