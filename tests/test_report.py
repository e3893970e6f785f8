# SPDX-License-Identifier: Apache-2.0
"""`montmul report` (montmul.apps.report.results/render/plots): a real, cold run
at 8 bits on three cores and all three targets into a fresh build directory,
then a warm rerun; plus the pure functions (Pareto front, ratios, README
refresh) on hand-made data."""

from __future__ import annotations

import json
import os
import re
import shutil
import uuid

import pytest

from montmul.cli import commands as cli
from montmul.cores import ROOT
from montmul.apps.report import papers, render, results

CORES = "fcs1,fcs1_bin,scs_new,fcs_mmm42"  # fcs1: the carry-save unit behind fcs1_bin


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Cold run, then warm rerun, of the report at 8 bits (the YoWASP tools
    need a build directory inside the repository)."""
    build = ROOT / "build" / "test_report" / uuid.uuid4().hex[:12]
    out = build / "out"
    old = os.environ.get("MONTMUL_SYNTH_DIR")
    os.environ["MONTMUL_SYNTH_DIR"] = str(build / "synth")
    try:
        argv = ["report", "--widths", "8", "--fpga-widths", "8", "--core", CORES, "--samples", "64",
                "--jobs", "2", "--out", str(out)]
        rc1 = cli.main(argv)
        first = json.loads((out / "results.json").read_text())
        md1 = (out / "results.md").read_text()
        rc2 = cli.main(argv)
        second = json.loads((out / "results.json").read_text())
    finally:
        if old is None:
            os.environ.pop("MONTMUL_SYNTH_DIR", None)
        else:
            os.environ["MONTMUL_SYNTH_DIR"] = old
    yield {"rc": (rc1, rc2), "first": first, "second": second, "md": md1, "out": out}
    shutil.rmtree(build, ignore_errors=True)


def test_report_runs_cold_then_warm(run):
    assert run["rc"] == (0, 0)
    first, second = run["first"], run["second"]
    assert first["synth_jobs"] == 12 and first["synth_fresh"] == 12
    assert second["synth_fresh"] == 0  # everything from the cache
    strip = ("seconds", "synth_fresh", "figures")
    a = {k: v for k, v in first.items() if k not in strip}
    b = {k: v for k, v in second.items() if k not in strip}
    for d in (a, b):  # the cache flag differs between the runs, nothing else
        for row in d["rows"]:
            for ws in row["widths"].values():
                for v in ws.values():
                    if isinstance(v, dict):
                        v.pop("cached", None)
    assert a == b


def test_report_rows_match_synthesis(run):
    data = run["first"]
    labels = {r["label"] for r in data["rows"]}
    assert labels == {"FCS-MM-1 (carry-save core)", "FCS-MM-1", "SCS-MM-New", "FCS-MMM42"}
    paper = {r["label"]: r["paper_label"] for r in data["rows"]}
    # the paper's FCS-MM-1 is the carry-save core; our wrapper row is ours only
    assert paper["FCS-MM-1 (carry-save core)"] == "FCS-MM-1" and paper["FCS-MM-1"] == ""
    for row in data["rows"]:
        slot = row["widths"]["8"]
        for t in ("asic", "ecp5", "xilinx"):
            assert "error" not in slot[t], slot[t]
        a = slot["asic"]
        f = a["figures"]
        # figures as paper 000 defines them, from the measured inputs
        assert f["cycles"] == slot["cycles"]["avg"]
        assert f["time_ns"] == pytest.approx(f["cycles"] * a["delay_ps"] / 1e3)
        assert f["atp"] == pytest.approx(a["area_um2"] * f["time_ns"] / 1e3)
        assert f["throughput_mbps"] == pytest.approx(8 * 1e3 / f["time_ns"])
        facts = a["facts"]
        assert 0 < facts["seq_share"] < 1
        assert sum(c["share"] for c in facts["top_cells"]) <= 1 + 1e-9
        assert facts["path"]["levels"] >= 1 and facts["path"]["cells"]


def test_report_markdown_and_figures(run):
    md, data = run["md"], run["first"]
    assert "ASIC, 8 bits" in md and "FPGA, 8 bits" in md
    for row in data["rows"]:
        a = row["widths"]["8"]["asic"]
        line = next(ln for ln in md.splitlines() if ln.startswith(f"| {row['label']} |"))
        assert f"{a['area_um2']:,.0f}" in line and f"{a['delay_fa']:.2f}" in line
    for name in ("area_vs_time_8.png", "cycles.png", "atp.png"):
        png = (run["out"] / "figures" / name).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
    assert re.search(r"12 synthesis jobs, 12 run fresh", md)


def test_pareto():
    pts = [(1.0, 5.0, "a"), (2.0, 4.0, "b"), (2.5, 4.5, "c"), (3.0, 1.0, "d"), (3.0, 2.0, "e"), (0.5, 9.0, "f")]
    assert results.pareto(pts) == ["f", "a", "b", "d"]
    assert results.pareto([]) == []


def _fake(label, delay_ns, area, cycles):
    f = {"delay_ns": delay_ns, "area": area, "cycles": cycles, "time_ns": cycles * delay_ns,
         "throughput_mbps": 1024 * 1e3 / (cycles * delay_ns), "atp": area * cycles * delay_ns / 1e3}
    return {"label": label, "widths": {"1024": {"asic": {"figures": f}}}}


def test_ratios_and_relative():
    data = {"widths": [1024], "rows": [_fake("SCS-MM-New", 3.0, 600.0, 800.0), _fake("FCS-MMM42", 4.0, 800.0, 800.0),
                                       _fake("FCS-MM-1", 2.0, 400.0, 1000.0)]}
    (r,) = results.ratio_new_vs_mmm42(data)
    assert r["ours"]["delay"] == pytest.approx(-25.0) and r["ours"]["area"] == pytest.approx(-25.0)
    assert r["ours"]["atp"] == pytest.approx((0.75 * 0.75 - 1) * 100)
    assert r["paper"] == papers.RATIO_NEW_VS_MMM42[1024]
    rel = {e["label"]: e for e in results.relative_to_fcs1(data, 1024)}
    assert rel["FCS-MM-1"]["ours"]["atp"] == pytest.approx(1.0)
    assert rel["SCS-MM-New"]["ours"]["delay_ns"] == pytest.approx(1.5)
    # the paper's own relative numbers come from the published table
    assert rel["FCS-MMM42"]["paper"]["cycles"] == pytest.approx(822 / 1029)


def test_paper_points_consistent():
    """The published points reproduce paper 001's printed time and throughput
    (a typo in the data would show here)."""
    printed = {"SCS-MM-1(32)": (5.285, 193.8), "SCS-MM-2": (5.8744, 174.3), "FCS-MM-1": (5.9682, 171.6),
               "FCS-MM-2": (6.1843, 165.6), "FCS-MMM42": (4.5703, 224.1)}
    for p in papers.ASIC_000[1024]:
        if p.label in printed:
            t, thr = printed[p.label]
            assert p.time_us == pytest.approx(t, rel=2e-3)
            assert p.throughput_mbps(1024) == pytest.approx(thr, rel=2e-3)
    new = next(p for p in papers.ASIC_000[1024] if p.label == "SCS-MM-New")
    mmm = next(p for p in papers.ASIC_000[1024] if p.label == "FCS-MMM42")
    # the paper's throughput claim (+29.8 %) follows from the derived point
    assert results.pct(new.throughput_mbps(1024), mmm.throughput_mbps(1024)) == pytest.approx(29.8, abs=0.5)


def test_readme_refresh(run, tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{render.README_BEGIN}\nold table\n{render.README_END}\noutro\n")
    data = dict(run["first"])
    render.write(data, tmp_path / "out", "montmul report (test)", readme)
    text = readme.read_text()
    assert "old table" not in text and text.startswith("intro\n") and text.endswith("outro\n")
    assert "| SCS-MM-New |" in text


def test_report_rejects_unknown_core():
    with pytest.raises(ValueError, match="no core or row named"):
        results.designs(["nope"])


def test_fpga_cells_give_the_reason():
    """A run that timed out or does not fit is a cell with the reason, not a
    blank or a crash (montmul report at 1024 and 2048 bits)."""
    row = {"widths": {"1024": {"ecp5": {"error": "timed out: nextpnr-ecp5 past the 3600 s budget",
                                        "status": "timed_out"}},
                      "2048": {"ecp5": {"error": "does not fit LFE5U-85F: ...", "status": "does_not_fit"},
                               "xilinx": {"error": "yosys failed"}}}}
    assert render._why(row, 1024, "ecp5") == "timed out"
    assert render._why(row, 2048, "ecp5") == "does not fit"
    assert render._why(row, 2048, "xilinx") == "failed"
    assert render._why(row, 256, "ecp5") == "–"
    assert results.target_result(row, 1024, "ecp5") is None


def test_family_sections_skip_missing_modules(monkeypatch):
    """montmul.apps.report.FAMILIES: a family module not written yet is skipped;
    one that exists is built."""
    import sys
    import types

    from montmul.apps import report

    fake = types.ModuleType("montmul.apps.report.p999")
    fake.build = lambda workers=None, executor=None: {"workers": workers, "executor": executor}
    fake.markdown = lambda data: "## Paper 999: test\n"
    monkeypatch.setitem(sys.modules, "montmul.apps.report.p999", fake)
    monkeypatch.setattr(report, "FAMILIES", ("p998_missing", "p999"))
    fake.__spec__ = types.SimpleNamespace(name="montmul.apps.report.p999")
    assert results.families(3) == {"p999": {"workers": 3, "executor": None}}
    assert results.families(3, "the report's executor") == {"p999": {"workers": 3, "executor": "the report's executor"}}
