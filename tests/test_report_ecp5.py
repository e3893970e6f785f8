# SPDX-License-Identifier: Apache-2.0
"""The ECP5 report (montmul.apps.report.ecp5) on hand-made synthesis results, and
the registry's per-width ECP5 flow options that it and `montmul synth` share."""

from __future__ import annotations

import json

import pytest

from montmul import cores
from montmul.flows import synth
from montmul.flows.synth import tuning
from montmul.apps.report import ecp5


def test_ecp5_options_by_width():
    """The flow's tuning (montmul.flows.synth.tuning) by width, core and engine."""
    c = cores.get("r2_basic")
    assert tuning.ecp5_options(c, 256) == {}
    assert tuning.ecp5_options(c, 1024) == dict(tuning.DEFAULT[1024])
    assert tuning.ecp5_options("r2_basic", 4096) == dict(tuning.DEFAULT[1024])  # the largest key not above the width
    assert tuning.ecp5_options("dsp_redundant_ecp5", 1024)["share"] == 0
    # an engine adds its own from 1024 bits
    assert tuning.ecp5_options(c, 1024, engine=True) == {**tuning.DEFAULT[1024], **tuning.ENGINE[1024]}
    assert tuning.ecp5_options(c, 256, engine=True) == {}
    # a job takes them unless it overrides them
    _, _, opts = synth.Job("r2_basic", 1024, "ecp5").resolve()
    assert opts["seeds"] == tuning.DEFAULT[1024]["seeds"]
    _, _, opts = synth.Job("r2_basic", 1024, "ecp5", engine=True).resolve()
    assert opts["router"] == tuning.ENGINE[1024]["router"]
    _, _, opts = synth.Job("r2_basic", 1024, "ecp5", engine=True, options={"router": "router1"}).resolve()
    assert opts["router"] == "router1"
    _, _, opts = synth.Job("r2_basic", 256, "ecp5").resolve()
    assert opts == synth.DEFAULTS["ecp5"]
    # other targets are untouched
    _, _, opts = synth.Job("r2_basic", 1024, "xilinx").resolve()
    assert opts == synth.DEFAULTS["xilinx"]


def test_jobs_cover_every_core_and_the_engine_rows():
    js = ecp5.jobs((256, 1024))
    alone = {(j.core, j.width) for r, j in js if r == "core"}
    assert alone == {(c, w) for c in cores.CORES for w in (256, 1024)}
    eng = {(j.core, j.width): j for r, j in js if r == "engine"}
    assert set(eng) == {(c, w) for c in ecp5.ENGINE_CORES for w in ecp5.ENGINE_WIDTHS}
    # the engine's core-alone partner runs with the engine's flow options
    for r, j in js:
        if r in ("pair", "regs"):
            assert j.resolve()[2] == eng[(j.core, j.width)].resolve()[2]
        assert (j.engine_kind == "regs") == (r.split("@")[0] == "regs")
    # one seed per run (1024 bits): the engine, its core alone and between
    # registers with the extra seeds too, the same jobs but for the seed;
    # none at 256 bits
    seeded = [(r, j) for r, j in js if "@" in r]
    assert {(j.core, j.width) for _, j in seeded} == {(c, 1024) for c in ecp5.ENGINE_CORES}
    for r, j in seeded:
        role, seed = r.split("@")
        base = next(b for rb, b in js if rb == role and (b.core, b.width) == (j.core, j.width))
        assert j.resolve()[2] == {**base.resolve()[2], "seed": int(seed)} and j.engine_kind == base.engine_kind
        assert ecp5.command(j) == ecp5.command(base) + f" --option seed={seed}"
    # an engine width outside --widths still gets its core-alone partner
    js = ecp5.jobs((2048,))
    assert ("scs_new", 256) in {(j.core, j.width) for r, j in js if r == "pair"}


def _fake(job):
    core, w = job.core, job.width
    if job.engine_kind == "regs":
        return {"status": "ok", "fmax_mhz": 90.0, "luts": 1300, "ff": 900, "seconds": {"total": 50.0}} \
            if (core, w) == ("scs_new", 256) else None
    if job.engine_kind:
        fmax = {"r2_basic": 95.0, "scs_new": 80.0}.get(core)  # -5.0 % and -20 %
        return None if fmax is None or w != 256 else {"status": "ok", "fmax_mhz": fmax, "luts": 9000, "ff": 2000,
                                                      "seconds": {"total": 300.0}}
    if w == 2048 and core == "dsp_redundant_ecp5":
        return {"status": "does_not_fit", "fmax_mhz": None, "luts": 150_000, "ff": 1, "error": "does not fit",
                "seconds": {"total": 9.0}}
    if w == 2048 and core == "dsp_redundant":
        return {"status": "does_not_fit", "fmax_mhz": None, "luts": 31_655, "ff": 1, "dsp": 284,
                "error": "does not fit", "seconds": {"total": 9.0}}
    if w == 2048 and core == "mscs":
        return {"status": "timed_out", "fmax_mhz": None, "luts": 50_000, "ff": 1, "error": "timed out",
                "seconds": {"total": 3600.0}}
    if w == 2048:
        return None
    return {"status": "ok", "fmax_mhz": 100.0, "fmax_seeds": {"1": 99.0, "2": 100.0, "3": 101.0},
            "luts": 1234, "lut4": 1000, "ccu2c": 117, "ff": 500, "dsp": 0, "seconds": {"total": 42.0},
            "options": job.resolve()[2]}


def test_build_markdown_readme(monkeypatch, tmp_path):
    monkeypatch.setattr(synth, "cached", lambda job, build_dir=None: _fake(job))
    data = ecp5.build((256, 2048), run=False)
    json.dumps(data)  # serialisable
    md = ecp5.markdown(data)
    assert "| `r2_basic` | 1,234 / 500 / 100.0 | not run |" in md
    assert "| `dsp_redundant_ecp5` | 1,234 / 500 / 100.0 | does not fit (150,000 of 83,640 LUTs) |" in md
    assert "| `dsp_redundant` | 1,234 / 500 / 100.0 | does not fit (284 of 156 MULT18X18D) |" in md  # what is short
    assert "| `mscs` | 1,234 / 500 / 100.0 | timed out (3,600 s) |" in md
    assert "100.0 (median of 99.0, 100.0, 101.0)" in md
    rows = {(r["core"], r["width"]): r for r in ecp5.engine_rows(data)}
    assert rows[("r2_basic", 256)]["ratio"] == pytest.approx(-0.05) and rows[("r2_basic", 256)]["within"]
    assert rows[("scs_new", 256)]["ratio"] == pytest.approx(-0.20) and rows[("scs_new", 256)]["within"] is False
    assert rows[("scs_new_ct", 256)]["within"] is None  # no engine result: not judged
    assert "| 1,234 / 500 / 100.0 (median of 99.0, 100.0, 101.0) | 9,000 / 2,000 / 80.0 " \
           "| -20.0 % | no | 1,300 / 900 / 90.0 | -11.1 % |" in md
    assert rows[("r2_basic", 256)]["ratio_regs"] is None and "| -5.0 % | yes | not run | – |" in md
    assert "`montmul synth --core r2_basic --width 2048 --target ecp5`" in md  # listed as not run
    assert "`montmul synth --core r2_basic --width 1024 --target ecp5 --engine`" in md
    pair = next(j for r, j in ecp5.jobs((256,)) if r == "pair" and j.core == "r2_basic" and j.width == 1024)
    eng = "".join(f" --option {k}={v}" for k, v in tuning.ENGINE[1024].items())  # the engine's own
    assert eng and ecp5.command(pair) == f"montmul synth --core r2_basic --width 1024 --target ecp5{eng}"
    regs = next(j for r, j in ecp5.jobs((256,)) if r == "regs" and j.core == "r2_basic" and j.width == 1024)
    assert ecp5.command(regs) == ("montmul synth --core r2_basic --width 1024 --target ecp5 --engine regs "
                                  f"--param CheckRange=0 --param CheckMod=0{eng}")
    readme = tmp_path / "README.md"
    readme.write_text(f"head\n{ecp5.README_BEGIN}\nold\n{ecp5.README_END}\ntail\n")
    ecp5.refresh_readme(readme, data)
    text = readme.read_text()
    assert "old" not in text and text.startswith("head\n") and text.endswith("tail\n")
    assert "| `r2_basic` | 1,234 / 100.0 | not run |" in text
    readme.write_text("no markers\n")
    with pytest.raises(ValueError, match="markers"):
        ecp5.refresh_readme(readme, data)


def test_cli_bad_widths(capsys):
    with pytest.raises(SystemExit) as e:
        ecp5.main(["--widths", "12x", "--cached"])
    assert e.value.code == 2
    assert "--widths" in capsys.readouterr().err


def test_does_not_fit_cell_names_what_is_short():
    assert ecp5.cell({"status": "does_not_fit", "luts": 90_000, "dsp": 200}) == \
        "does not fit (90,000 of 83,640 LUTs, 200 of 156 MULT18X18D)"
    # nextpnr found no legal placement though both counts are within the device
    assert ecp5.cell({"status": "does_not_fit", "luts": 80_000, "dsp": 10}) == "does not fit (80,000 LUTs)"


def test_intro_names_each_core_with_its_own_flow_options(monkeypatch):
    """The report's intro names the cores whose flow options differ from the
    shared ones, with those options, from the flow's tuning itself."""
    text = ecp5._own_options_text()
    for name in cores.CORES:
        assert (f"`{name}`" in text) == (dict(tuning.table(name)) != dict(tuning.DEFAULT)), name
    assert "router=router2" in text  # the DSP family's
    # a core tuned otherwise shows up with its options
    monkeypatch.setitem(tuning.BY_CORE, "scs1", {1024: {"seeds": 1, "router": "router9"}})
    assert "`scs1`: seeds=1, router=router9 from 1024 bits" in ecp5._own_options_text()


def test_engine_against_core_by_the_median_of_the_seeds(monkeypatch):
    """From 1024 bits each seed is its own job; the comparison takes the
    median run of each role's seeds (engine, core alone, core between
    registers), and lists them."""
    fm = {("modexp", 1): 50.0, ("modexp", 2): 60.0, ("modexp", 3): 55.0,
          ("", 1): 70.0, ("", 2): 62.0, ("", 3): 66.0, ("regs", 1): 40.0, ("regs", 3): 44.0}

    def fake(job, build_dir=None):
        opts = job.resolve()[2]
        f = fm.get((job.engine_kind, opts["seed"])) if (job.core, job.width) == ("scs_new", 1024) else None
        if f is None or (job.engine_kind == "" and job.options == {}):
            return None
        return {"status": "ok", "fmax_mhz": f, "fmax_seeds": {str(opts["seed"]): f}, "luts": 5, "ff": 6,
                "options": opts, "seconds": {"total": 1.0}}

    monkeypatch.setattr(synth, "cached", fake)
    data = ecp5.build((1024,), run=False)
    row = next(r for r in ecp5.engine_rows(data) if (r["core"], r["width"]) == ("scs_new", 1024))
    assert row["engine_result"]["fmax_mhz"] == 55.0 and row["core_result"]["fmax_mhz"] == 66.0
    assert row["ratio"] == pytest.approx(55 / 66 - 1) and row["within"] is False
    # the core between registers too; its seed 2 not run: the lower of the two
    assert row["regs_result"]["fmax_mhz"] == 40.0 and row["ratio_regs"] == pytest.approx(55 / 40 - 1)
    md = ecp5.markdown(data)
    assert "| 5 / 6 / 66.0 (median of 70.0, 62.0, 66.0) | 5 / 6 / 55.0 (median of 50.0, " \
           "60.0, 55.0) | -16.7 % | no |" in md
    line = next(x for x in md.splitlines() if x.startswith("| `scs_new` | 1024 |"))
    col = line.split(" | ")[2]  # the engine's flow options in their own column
    assert all(f"{k}={v}" in col for k, v in tuning.ENGINE[1024].items())
    # a seed not run yet: the median of those that ran (the lower of two), named
    del fm[("modexp", 3)]
    row = next(r for r in ecp5.engine_rows(ecp5.build((1024,), run=False)) if r["core"] == "scs_new"
               and r["width"] == 1024)
    assert row["engine_result"]["fmax_mhz"] == 50.0 and row["engine_result"]["fmax_seeds"] == {"1": 50.0, "2": 60.0}
    md = ecp5.markdown(ecp5.build((1024,), run=False))
    assert "--engine --option seed=3`" in md  # listed as not run
    eng = "".join(f" --option {k}={v}" for k, v in tuning.ENGINE[1024].items())
    assert ("`montmul synth --core scs_new --width 1024 --target ecp5 --engine regs --param CheckRange=0 "
            f"--param CheckMod=0{eng} --option seed=2`") in md


def test_unmeasured_core_has_no_row(monkeypatch):
    """A core without any result is named in the "Not run yet" line only,
    in the page and in the README table."""
    none = ("mscs", "scs_new_ct")  # scs_new_ct: no core, engine or between-registers result either
    monkeypatch.setattr(synth, "cached", lambda job, build_dir=None: None if job.core in none else _fake(job))
    data = ecp5.build((256,), run=False)
    md = ecp5.markdown(data)
    assert "| `mscs` |" not in md and "| `mscs` |" not in ecp5.readme_table(data)
    assert "| `scs_new_ct` |" not in md and "| `scs_new` | 256 |" in md  # the engine table too
    assert "| `r2_basic` |" in md
    (line,) = [x for x in md.splitlines() if x.startswith("Not run yet")]
    assert "`montmul synth --core mscs --width 256 --target ecp5`" in line
