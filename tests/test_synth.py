# SPDX-License-Identifier: Apache-2.0
"""Synthesis flows (montmul.flows.synth): the paper-000 derived figures, and a real
run of every target on r2_basic and scs_new at a small width, with the
parsed figures checked for sanity and the cache checked for hits.

The runs use a fresh build directory under build/, so every test session
exercises the tools; a missing tool fails the test with the message saying how to get it.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import re
import shutil
import time
import uuid

import pytest

from montmul import cores
from montmul.cli import commands as cli
from montmul.flows import synth as sy
from montmul.cores import ROOT
from montmul.apps.stats import model_cycles
from montmul.flows.synth import flows, parse, tools

WIDTH = 16
CORES = ("r2_basic", "scs_new")
JOBS = [sy.Job(c, WIDTH, t) for c in CORES for t in sy.TARGETS]


# ---------------------------------------------------------------- figures
def test_derived_figures_paper_definitions():
    f = sy.derived(width=1024, cycles=1000.0, delay_ns=2.0, area=5000.0)
    assert f["time_ns"] == pytest.approx(2000.0)  # #Cycle x Delay
    assert f["time_us"] == pytest.approx(2.0)
    assert f["frequency_mhz"] == pytest.approx(500.0)
    assert f["throughput_mbps"] == pytest.approx(1024 * 500.0 / 1000.0)  # k x (1/Delay) / #Cycle
    assert f["throughput_mbps"] == pytest.approx(1024 / f["time_us"])  # = k / Time
    assert f["atp"] == pytest.approx(5000.0 * 2.0)  # Area x Time (us)


@pytest.mark.parametrize("bad", [dict(width=0), dict(cycles=0), dict(delay_ns=0.0), dict(area=-1.0)])
def test_derived_figures_reject_nonpositive(bad):
    args = dict(width=16, cycles=18.0, delay_ns=1.0, area=10.0)
    args.update(bad)
    with pytest.raises(ValueError):
        sy.derived(**args)


def test_figures_per_target():
    asic = {"target": "asic", "width": 64, "delay_ps": 2500.0, "area_um2": 1.0e5, "delay_fa": 8.0, "area_fa": 833.3}
    f = sy.figures(asic, cycles=66.0)
    assert f["delay_ns"] == pytest.approx(2.5)
    assert f["time_ns"] == pytest.approx(165.0)
    assert f["atp"] == pytest.approx(1.0e5 * 0.165)
    assert f["delay_fa"] == 8.0 and f["area_unit"] == "um^2"
    ecp5 = {"target": "ecp5", "width": 64, "fmax_mhz": 125.0, "luts": 700}
    f = sy.figures(ecp5, cycles=66.0)
    assert f["delay_ns"] == pytest.approx(8.0)  # 1 / Fmax
    assert f["throughput_mbps"] == pytest.approx(64 * 125.0 / 66.0)
    assert f["atp"] == pytest.approx(700 * 66.0 * 8.0 / 1e3)
    assert sy.figures({"target": "xilinx", "width": 64}, 66.0) is None


def test_synth_defines_reach_only_their_target(tmp_path):
    """ws_ecp5's ECP5 synthesis reads the RTL with MM_ECP5_DSP and the ECP5
    cells' declarations (the MULT18X18D primitive); its other targets, and
    ws on every target, without; the define is part of the cache key."""
    for name, target, want in (("ws_ecp5", "ecp5", True), ("ws_ecp5", "asic", False), ("ws", "ecp5", False)):
        core = cores.get(name)
        text = flows.read_block(core, core.hdl_params(64), tmp_path, target=target)
        assert ("-DMM_ECP5_DSP " in text) == want and ("+/ecp5/cells_bb.v" in text) == want, (name, target, text)
    key_ws = sy.cache_key(sy.Job("ws", 64, "ecp5"))
    key_ecp5 = sy.cache_key(sy.Job("ws_ecp5", 64, "ecp5"))
    assert key_ecp5[1]["defines"] == ["MM_ECP5_DSP"] and "defines" not in key_ws[1]
    assert key_ws[0] != key_ecp5[0]


def test_model_cycles_match_latency():
    assert model_cycles("r2_basic", 16, samples=20) == 18  # k + 2, constant
    c = model_cycles("scs_new", 16, samples=200)
    assert 0 < c <= cores.get("scs_new").bound(16)


# ---------------------------------------------------------------- parsers
def test_pretty_register_names():
    assert parse.pretty_name("ss_q_12__reg") == "ss_q[12]"
    assert parse.pretty_name("state_q_reg") == "state_q"
    assert parse.pretty_name("n_i_3_") == "n_i[3]"
    assert parse.pretty_name("rst_ni") == "rst_ni"


def test_sta_path_parser():
    text = """Startpoint: a_q_1__reg (rising edge-triggered flip-flop clocked by clk_i)
Endpoint: s_q_2__reg (rising edge-triggered flip-flop clocked by clk_i)
Path Group: clk_i
Path Type: max

      Cap      Slew     Delay      Time   Description
-------------------------------------------------------------------------------
             0.0000    0.0000    0.0000   clock clk_i (rise edge)
                       0.0000    0.0000   clock network delay (ideal)
             0.0000    0.0000    0.0000 ^ a_q_1__reg/CLK (DFFSR)
   0.0093    0.0288    0.2367    0.2367 v a_q_1__reg/Q (DFFSR)
   0.0568    0.0784    0.1227    0.3594 v _6566_/Y (BUFX2)
   0.0151    0.0911    0.1084    0.4678 ^ _6612_/Y (OAI21X1)
             0.0911    0.0000    0.4678 ^ s_q_2__reg/D (DFFSR)
                                 0.4678   data arrival time

             0.0000    2.0000    2.0000   clock clk_i (rise edge)
                      -0.0870    1.9130   library setup time
                                 1.9130   data required time
-------------------------------------------------------------------------------
                                 1.9130   data required time
                                -0.4678   data arrival time
-------------------------------------------------------------------------------
                                 1.4452   slack (MET)
"""
    p = parse.sta_path(text, 1000.0)
    assert p["startpoint"] == "a_q[1]" and p["endpoint"] == "s_q[2]"
    assert p["arrival_ps"] == pytest.approx(467.8)
    assert p["setup_ps"] == pytest.approx(87.0)
    assert p["delay_ps"] == pytest.approx(554.8)
    assert p["slack_ps"] == pytest.approx(1445.2)
    assert p["logic_levels"] == 2
    assert [c["cell"] for c in p["cells"]] == ["DFFSR", "DFFSR", "BUFX2", "OAI21X1", "DFFSR"]
    assert parse.sta_path("No paths found.", 1000.0) is None


# ---------------------------------------------------------------- cache keys
def test_cache_key_covers_params_options_and_files():
    base = sy.Job("scs_new", 16, "asic")
    k0, data = sy.cache_key(base)
    assert sy.cache_key(sy.Job("scs_new", 16, "asic"))[0] == k0
    assert sy.cache_key(sy.Job("scs_new", 17, "asic"))[0] != k0
    assert sy.cache_key(sy.Job("scs_new", 16, "asic", params={"SkipEnable": 0}))[0] != k0
    assert sy.cache_key(sy.Job("scs_new", 16, "asic", options={"max_fanout": 6}))[0] != k0
    assert sy.cache_key(sy.Job("scs_new", 16, "ecp5"))[0] != k0
    # every RTL file and header, every syn/ template of the target, the flow code, the tools
    assert "rtl/radix2/mm_scs_new.sv" in data["rtl"] and "rtl/common/mm_macros.svh" in data["rtl"]
    assert all(f"syn/{f}" in data["flow_files"] for f in flows.FLOW_FILES["asic"])
    assert "src/montmul/flows/synth/flows.py" in data["flow_files"]
    assert set(data["tools"]) == {"yosys", "sta"} and data["liberty"]
    assert data["params"] == {"CheckMod": 1, "CheckRange": 1, "ConstTime": 0, "SkipEnable": 1, "Width": 16}


def test_bad_jobs_rejected():
    with pytest.raises(ValueError, match="unknown target"):
        sy.Job("scs_new", 16, "gowin").resolve()
    with pytest.raises(ValueError, match="has no parameter SkipEnable"):
        sy.Job("r2_basic", 16, "asic", params={"SkipEnable": 0}).resolve()
    with pytest.raises(ValueError, match="flow option"):
        sy.Job("r2_basic", 16, "xilinx", options={"freq_mhz": 100}).resolve()
    with pytest.raises(ValueError, match="fixes"):
        sy.Job("scs_new_ct", 16, "asic", params={"ConstTime": 0}).resolve()
    with pytest.raises(KeyError):
        sy.Job("nope", 16, "asic").resolve()


def test_optional_flow_option_timing_weight():
    """An option of flows.OPTIONAL is in a job's resolved options (and so its
    key) only when set, reaches nextpnr when set, and takes positive
    integers only."""
    plain = sy.Job("r2_basic", 16, "ecp5")
    opts = plain.resolve()[2]
    assert "timing_weight" not in opts and "--placer-heap-timingweight" not in flows.nextpnr_args(opts, 1)
    weighted = sy.Job("r2_basic", 16, "ecp5", options={"timing_weight": 60})
    wopts = weighted.resolve()[2]
    args = flows.nextpnr_args(wopts, 2, "_seed2")
    assert args[args.index("--placer-heap-timingweight") + 1] == "60" and "report_seed2.json" in args
    assert sy.cache_key(weighted)[0] != sy.cache_key(plain)[0]
    assert sy.cache_key(plain)[1]["options"] == {k: v for k, v in wopts.items() if k != "timing_weight"}
    for bad in (0, -5, "60", True, 2.5):
        with pytest.raises(ValueError, match="timing_weight takes a positive integer"):
            sy.Job("r2_basic", 16, "ecp5", options={"timing_weight": bad}).resolve()
    with pytest.raises(ValueError, match="flow option"):
        sy.Job("r2_basic", 16, "asic", options={"timing_weight": 60}).resolve()


def test_missing_tool_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(tools.TOOLS, "sta", ("sta-not-installed-here", "the Debian package opensta"))
    tools.find.cache_clear()
    try:
        with pytest.raises(tools.ToolError, match="sta-not-installed-here.*opensta"):
            sy.synth(sy.Job("r2_basic", 8, "asic"), build_dir=ROOT / "build" / "never-created")
    finally:
        tools.find.cache_clear()
    assert not (ROOT / "build" / "never-created").exists()


# ---------------------------------------------------------------- real runs
@pytest.fixture(scope="module")
def build_dir():
    """One fresh build directory per test session, shared by pytest-xdist
    workers (keyed by the run's id), so the six runs happen once."""
    for t in sy.TARGETS:
        tools.check(t)  # a missing tool fails here, with how to install it
    top = ROOT / "build" / "test_synth"
    top.mkdir(parents=True, exist_ok=True)
    for old in top.iterdir():  # leftovers of earlier sessions
        if old.is_dir() and time.time() - old.stat().st_mtime > 6 * 3600:
            shutil.rmtree(old, ignore_errors=True)
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex
    d = top / run_id[:16]
    d.mkdir(exist_ok=True)
    return d


@pytest.fixture(scope="module")
def results(build_dir):
    """All six runs, cold, in parallel: done by the first worker to take the
    lock, whose results every worker then reads."""
    first = build_dir / "first_run.json"
    with open(build_dir / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not first.exists():
            t0 = time.monotonic()
            rs = sy.run_many(JOBS, build_dir=build_dir)
            first.write_text(json.dumps({"results": rs, "seconds": time.monotonic() - t0}))
        data = json.loads(first.read_text())
    return {(r["core"], r["target"]): r for r in data["results"]}, data["seconds"]


def _ok_path(name):
    assert isinstance(name, str) and name


@pytest.mark.parametrize("core", CORES)
def test_ecp5(results, core):
    r = results[0][(core, "ecp5")]
    assert r["cached"] is False and r["width"] == WIDTH
    assert r["lut4"] > 0 and r["ff"] > 0 and r["ccu2c"] > 0 and r["dsp"] == 0
    assert r["luts"] == r["lut4"] + 2 * r["ccu2c"]
    assert 20.0 < r["fmax_mhz"] < 1000.0
    seeds = r["fmax_seeds"]
    assert len(seeds) == r["options"]["seeds"]  # a 16-bit run is short: every seed ran
    assert r["fmax_mhz"] == sorted(seeds.values())[(len(seeds) - 1) // 2]  # the (low) median
    assert r["status"] == "ok" and 0 < r["device_utilization"]["luts"] < 0.05
    assert 0 < r["carry_chain_bits"] <= 2 * WIDTH
    assert r["utilization"]["TRELLIS_FF"] == r["ff"]
    cp = r["critical_path"]
    _ok_path(cp["startpoint"]), _ok_path(cp["endpoint"])
    assert cp["delay_ns"] == pytest.approx(1e3 / r["fmax_mhz"], rel=0.05)


@pytest.mark.parametrize("core", CORES)
def test_asic(results, core):
    r = results[0][(core, "asic")]
    assert r["area_um2"] > 0 and 0 < r["sequential_area_um2"] < r["area_um2"]
    assert r["delay_ps"] > 0 and r["ff"] > 0
    _ok_path(r["startpoint"]), _ok_path(r["endpoint"])
    # the register-to-register path starts and ends at flip-flops, named after their registers
    cp = r["critical_path"]
    assert "flip-flop" in cp["startpoint_kind"] and "flip-flop" in cp["endpoint_kind"]
    assert cp["logic_levels"] >= 1 and cp["delay_ps"] == pytest.approx(cp["arrival_ps"] + cp["setup_ps"], abs=0.1)
    # T_FA of the OSU 0.18 um full adder: a few hundred ps
    assert 100 < r["t_fa_ps"] < 1000 and r["a_fa_um2"] > 0
    assert r["delay_fa"] == pytest.approx(r["delay_ps"] / r["t_fa_ps"], rel=1e-3)
    assert 1 < r["delay_fa"] < 100
    # buffering: no net (but clock, reset, constants) above the fanout limit
    assert r["netlist_fanout"]["max_fanout"] <= r["options"]["max_fanout"]


@pytest.mark.parametrize("core", CORES)
def test_xilinx(results, core):
    r = results[0][(core, "xilinx")]
    assert r["luts"] == sum(r[f"lut{i}"] for i in range(1, 7)) > 0
    assert r["ff"] > 0 and r["carry4"] > 0 and r["carry"] == r["carry4"] and r["dsp"] == 0


@pytest.mark.parametrize("core", CORES)
def test_same_registers_on_every_target(results, core):
    ffs = {t: results[0][(core, t)]["ff"] for t in sy.TARGETS}
    assert len(set(ffs.values())) == 1, ffs


def test_cache_hit_is_fast_and_identical(results, build_dir):
    first, _ = results
    t0 = time.monotonic()
    again = sy.run_many(JOBS, build_dir=build_dir)
    seconds = time.monotonic() - t0
    assert seconds < 10, f"cache hits took {seconds:.1f} s"
    for r in again:
        assert r["cached"] is True
        old = dict(first[(r["core"], r["target"])])
        new = dict(r)
        old.pop("cached"), new.pop("cached")
        assert new == old
    # single call too
    r = sy.synth(JOBS[0], build_dir=build_dir)
    assert r["cached"] is True


def test_cli_synth_json(results, build_dir, monkeypatch, capsys):
    monkeypatch.setenv("MONTMUL_SYNTH_DIR", str(build_dir))
    assert cli.main(["synth", "--core", ",".join(CORES), "--width", str(WIDTH), "--target", "all",
                     "--samples", "50", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rs = out["results"]
    assert len(rs) == 6 and all(r["cached"] for r in rs)
    for r in rs:
        if r["target"] == "xilinx":
            assert "figures" not in r  # no timing, no derived figures
            continue
        f = r["figures"]
        assert f["cycles"] > 0 and f["time_ns"] > 0 and f["throughput_mbps"] > 0 and f["atp"] > 0
        assert math.isclose(f["time_ns"], f["cycles"] * f["delay_ns"])


def test_cli_synth_text_and_errors(results, build_dir, monkeypatch, capsys):
    monkeypatch.setenv("MONTMUL_SYNTH_DIR", str(build_dir))
    assert cli.main(["synth", "--core", "scs_new", "--width", str(WIDTH), "--target", "asic"]) == 0
    text = capsys.readouterr().out
    assert "ASIC" in text and "scs_new" in text and "->" in text and "per instance" not in text
    assert cli.main(["synth", "--core", "scs_new", "--width", str(WIDTH), "--target", "ecp5", "--instances",
                     "--samples", "0"]) == 0
    text = capsys.readouterr().out
    table = text.split("per instance (subtree totals)", 1)[1].splitlines()
    rows = {line.split()[0]: line.split() for line in table[3:] if line.strip()}
    r = results[0][("scs_new", "ecp5")]
    for path, v in r["instances"].items():
        row = rows[path.rsplit("/", 1)[-1]]
        assert row[1:] == [v["module"], str(v["luts"]), str(v["ff"]), str(v["carry"]), str(v["dsp"]), str(v["bram"])]
    assert cli.main(["synth", "--core", "scs_new", "--width", "16", "--target", "gowin"]) == 2
    assert cli.main(["synth", "--core", "scs_new", "--width", "16", "--target", "asic", "--option", "bogus=1"]) == 2


# ---------------------------------------------------------------- per-instance breakdown
@pytest.mark.parametrize("target", sy.TARGETS)
@pytest.mark.parametrize("core", CORES)
def test_instances(results, core, target):
    """The hierarchical run's breakdown: the top is the core's module, every
    instance's subtree holds at least its children's cells, the registers are
    those of the flat run (flattening merges logic, not flip-flops), and the
    request checker's two operand comparators are found by instance_costs."""
    r = results[0][(core, target)]
    inst = r["instances"]
    top = cores.get(core).top
    assert next(iter(inst)) == top and inst[top]["module"] == top
    assert inst[top]["ff"] == r["ff"]
    keys = ("area_um2", "ff", "cells") if target == "asic" else ("luts", "ff", "carry", "dsp", "bram")
    for path, v in inst.items():
        kids = [c for p, c in inst.items() if p.rsplit("/", 1)[0] == path and p != path]
        for k in keys:
            assert v[k] >= sum(c[k] for c in kids) - 1e-6, (path, k)
    cmps = sy.instance_costs(r, "*/u_in_check/*")
    assert sorted(p.rsplit("/", 1)[-1] for p in cmps) == ["gen_range.u_cmp_a", "gen_range.u_cmp_b"]
    assert {c["module"] for c in cmps.values()} == {"mm_seg_add"}
    assert set(cmps) <= set(sy.instance_costs(r, "mm_seg_add"))
    if target != "asic":
        assert all(c["carry"] > 0 and c["ff"] == 0 for c in cmps.values())  # a comparator: carry logic, no registers
    assert sy.instance_costs(r, "*/u_ctrl") == {f"{top}/u_ctrl": inst[f"{top}/u_ctrl"]}
    assert sy.instance_costs(r, "no_such_module") == {}


def test_ecp5_budget_and_fit_are_results(build_dir, monkeypatch):
    """A run past its budget and a design too big for the device are cached
    results with a clear error line, not exceptions."""
    d = build_dir / "limits"
    job = sy.Job("r2_basic", WIDTH, "ecp5", options={"budget_s": 0.5})
    r = sy.synth(job, build_dir=d)
    assert r["status"] == "timed_out" and r["fmax_mhz"] is None and r["cached"] is False
    # every tool call gets at least 1 s (flows.run_ecp5), so on a quiet machine with a warm Yosys the
    # flat run, then the per-instance run, may finish inside it and nextpnr is the one stopped
    assert re.match(r"timed out: (Yosys( \(per-instance run\))?|nextpnr-ecp5 \(seed 1\)) past the 0 s budget",
                    r["error"]), r["error"]
    again = sy.run_many([job], build_dir=d, on_error="return")[0]
    assert again["cached"] is True and again["status"] == "timed_out"
    with pytest.raises(tools.ToolError, match="timed out"):
        sy.run_many([job], build_dir=d)
    monkeypatch.setitem(flows.ECP5_DEVICES, "85k", {**flows.ECP5_DEVICES["85k"], "luts": 10, "dsp": 0})
    r = sy.synth(sy.Job("r2_basic", WIDTH, "ecp5", options={"seeds": 1}), build_dir=d)
    assert r["status"] == "does_not_fit" and r["fmax_mhz"] is None and "nextpnr" not in r["seconds"]
    assert r["error"].startswith(f"does not fit LFE5U-85F: {r['luts']} LUTs / {r['ff']} FFs / 0 DSPs")


@pytest.mark.parametrize("log, line", [
    ("Info: placing\nERROR: Unable to find legal placement for all cells, design is probably at utilisation limit.\n"
     "0 warnings, 1 error", "ERROR: Unable to find legal placement for all cells, design is probably at utilisation limit."),
    ("ERROR: Unable to place cell 'u_mul', no BELs remaining to implement cell type 'MULT18X18D'\n",
     "ERROR: Unable to place cell 'u_mul', no BELs remaining to implement cell type 'MULT18X18D'"),
    ("Error: wasm trap: out of bounds memory access\n", None),
    ("ERROR: Failed to route arc 2 of net 'x'.\n", None),
])
def test_nextpnr_no_fit_lines(log, line):
    """nextpnr's ways of saying a design does not fit (the first: our CRT
    engine's log at 1024 bits; the second: nextpnr's placer) are told from
    other failures (a does-not-fit run is a cached result, the others errors)."""
    assert flows.no_fit_line(log) == line


def test_engine_job_design(build_dir):
    """--engine: mm_modexp on the core's generated wrapper (core without its
    range check), a cache key of its own."""
    job = sy.Job("scs_new", 32, "ecp5", engine=True)
    design, hdl = job.design(build_dir)
    assert design.top == "mm_modexp" and hdl == {"Width": 32}
    assert [p.name for p in design.sources()][-3:] == ["mm_modexp_core.sv", "mm_len_check.sv", "mm_modexp.sv"]
    text = design.sources()[-3].read_text()
    assert "mm_scs_new" in text and ".CheckRange(1'b0)" in text and ".CheckMod  (1'b0)" in text
    assert sy.cache_key(job)[0] != sy.cache_key(sy.Job("scs_new", 32, "ecp5"))[0]
    crt = sy.Job("scs_new", 32, "ecp5", engine="crt")
    design, hdl = crt.design(build_dir)
    assert design.top == "mm_modexp_crt" and hdl == {"Width": 32}
    assert [p.name for p in design.sources()][-3:] == ["mm_modexp_core.sv", "mm_len_check.sv", "mm_modexp_crt.sv"]
    assert len({sy.cache_key(j)[0] for j in (job, crt, sy.Job("scs_new", 32, "ecp5", engine="modexp"))}) == 2
    with pytest.raises(ValueError, match="unknown engine 'rsa'"):
        sy.Job("scs_new", 32, "ecp5", engine="rsa").design(build_dir)


def test_regs_job_design(build_dir):
    """--engine regs: the core as registered (its own checks on) inside
    mm_core_regs, with the core's own flow options, a cache key of its own;
    Yosys keeps the registers."""
    job = sy.Job("scs_new", 32, "ecp5", engine="regs")
    design, hdl = job.design(build_dir)
    assert design.top == "mm_core_regs" and hdl == {"Width": 32}
    assert [p.name for p in design.sources()][-2:] == ["mm_modexp_core.sv", "mm_core_regs.sv"]
    text = design.sources()[-2].read_text()
    assert "mm_scs_new" in text and ".CheckRange(1'b1)" in text and ".CheckMod  (1'b1)" in text
    engine = sy.Job("scs_new", 32, "ecp5", engine="modexp")
    assert engine.design(build_dir)[0].sources()[-3] != design.sources()[-2]  # the engine's wrapper is not overwritten
    alone = sy.Job("scs_new", 32, "ecp5")
    assert len({sy.cache_key(j)[0] for j in (job, engine, alone)}) == 3
    for width in (256, 1024):
        assert sy.Job("scs_new", width, "ecp5", engine="regs").resolve()[2] == \
            sy.Job("scs_new", width, "ecp5").resolve()[2]
    assert sy.Job("scs_new", 1024, "ecp5", engine="regs").resolve()[2] != \
        sy.Job("scs_new", 1024, "ecp5", engine=True).resolve()[2]
    regs, core = sy.run_many([sy.Job("r2_basic", 8, "xilinx", engine="regs"), sy.Job("r2_basic", 8, "xilinx")],
                             build_dir=build_dir / "regs")
    # at least the result register (9 bits) and the handshake's four
    assert regs["engine"] == "regs" and regs["ff"] >= core["ff"] + 9 + 4


def test_resource_counts_per_family():
    """Cell names of the older Xilinx families (Virtex-II: MUXCY carry,
    MULT18X18 multipliers, FDCPE) count like the 7 series'."""
    xc2v = {"FDCE": 7, "FDCPE": 1, "INV": 2, "LUT2": 5, "LUT4": 3, "MUXCY": 9, "XORCY": 9, "MULT18X18S": 2,
            "RAMB16_S36": 1, "MUXF5": 4}
    assert flows.xilinx_counts(xc2v) == {"luts": 10, "ff": 8, "carry": 9, "dsp": 2, "bram": 1}
    xc7 = {"FDRE": 3, "LUT6": 4, "CARRY4": 2, "DSP48E1": 1}
    assert flows.xilinx_counts(xc7) == {"luts": 4, "ff": 3, "carry": 2, "dsp": 1, "bram": 0}
    assert flows.ecp5_counts({"LUT4": 5, "CCU2C": 3, "TRELLIS_FF": 2, "MULT18X18D": 1, "DP16KD": 1}) == \
        {"luts": 11, "ff": 2, "carry": 3, "dsp": 1, "bram": 1}


def test_instance_costs_rejects_results_without_breakdown():
    with pytest.raises(ValueError, match="the run failed: boom"):
        sy.instance_costs({"core": "x", "width": 8, "target": "ecp5", "error": "boom"}, "*")
    with pytest.raises(ValueError, match="no per-instance breakdown"):
        sy.instance_costs({"core": "x", "width": 8, "target": "ecp5"}, "*")


def test_yosys_instances_parser(tmp_path):
    """Subtree sums over a shared module (two instances of one module), names
    of parameterised modules, and a mismatch between the statistics and the
    instance list as a clear error."""
    stat = {"modules": {
        "\\top": {"num_cells_by_type": {"LUT4": 3, "$paramod$ab\\mm_pe": 2, "$scopeinfo": 1}},
        "$paramod$ab\\mm_pe": {"num_cells_by_type": {"LUT4": 5, "TRELLIS_FF": 2, "$paramod\\mm_add\\W=4": 1}},
        "$paramod\\mm_add\\W=4": {"num_cells_by_type": {"CCU2C": 2}},
    }}
    insts = {"modules": {
        "top": {"cells": {"pe_1": {"type": "$paramod$ab\\mm_pe"}, "pe_0": {"type": "$paramod$ab\\mm_pe"}}},
        "$paramod$ab\\mm_pe": {"cells": {"u_add": {"type": "$paramod\\mm_add\\W=4"}}},
    }}
    (tmp_path / "s.json").write_text(json.dumps(stat))
    (tmp_path / "i.json").write_text(json.dumps(insts))
    got = parse.yosys_instances(tmp_path / "s.json", tmp_path / "i.json", "top", flows.ecp5_counts)
    assert list(got) == ["top", "top/pe_0", "top/pe_0/u_add", "top/pe_1", "top/pe_1/u_add"]
    assert got["top/pe_0"] == {"module": "mm_pe", "luts": 5 + 4, "ff": 2, "carry": 2, "dsp": 0, "bram": 0}
    assert got["top/pe_1/u_add"]["module"] == "mm_add"
    assert got["top"]["luts"] == 3 + 2 * (5 + 4) and got["top"]["ff"] == 4
    del insts["modules"]["top"]["cells"]["pe_1"]
    (tmp_path / "i.json").write_text(json.dumps(insts))
    with pytest.raises(tools.ToolError, match="instances of top"):
        parse.yosys_instances(tmp_path / "s.json", tmp_path / "i.json", "top", flows.ecp5_counts)


def test_liberty_areas_wherever_area_stands(tmp_path):
    """Cell areas are found also when other attributes come first in the
    group (OSU's BUFX2 starts with cell_footprint), and a missing cell is a
    clear error."""
    lib = tmp_path / "t.lib"
    lib.write_text('library (t) {\n  cell (A1) {\n    area : 12;\n  }\n'
                   '  cell ("B2") {\n    cell_footprint : buf;\n    cell_leakage_power : 0.1;\n    area : 24.5;\n'
                   '    pin (Y) { direction : output; }\n  }\n}\n')
    assert parse.liberty_areas(lib) == {"A1": 12.0, "B2": 24.5}
    assert parse.liberty_cell_area(lib, "B2") == 24.5
    with pytest.raises(tools.ToolError, match="no area for cell C3"):
        parse.liberty_cell_area(lib, "C3")


def test_rtl_digest_ignores_comments_and_formal(tmp_path):
    """The synthesis cache key hashes what synthesis reads: a comment, spacing
    or an `ifdef MM_FORMAL block leaves it alone; any change to the logic, or
    to an `else branch synthesis does read, changes it."""
    base = ("module m (input logic a_i, output logic y_o);\n"
            "  assign y_o = ~a_i;  // invert\n"
            "`ifdef MM_FORMAL\n  always_comb assert (y_o != a_i);\n`else\n  logic unused;\n`endif\n"
            "`ifdef OTHER\n  logic other;\n`endif\n"
            "endmodule\n")
    variants = {
        "comment": base.replace("// invert", "/* flip\n it */"),
        "spacing": base.replace("  assign y_o = ~a_i;", "\tassign   y_o   =   ~a_i;  ").replace("\n", "\n\n"),
        "formal": base.replace("assert (y_o != a_i);", "assert (y_o == ~a_i);\n  cover (a_i);"),
    }
    changed = {
        "logic": base.replace("~a_i", "a_i"),
        "else branch": base.replace("logic unused;", "logic unused2;"),
        "other ifdef": base.replace("logic other;", "logic other2;"),
        "string": base.replace("endmodule", 'initial $display("a // b");\nendmodule'),
    }

    def digest(text: str) -> str:
        p = tmp_path / "m.sv"
        p.write_text(text)
        return flows.rtl_digest(p)

    ref = digest(base)
    for name, text in variants.items():
        assert digest(text) == ref, name
    for name, text in changed.items():
        assert digest(text) != ref, name
    assert "assert" not in flows.rtl_text(base) and "unused" in flows.rtl_text(base)
