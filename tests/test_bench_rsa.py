# SPDX-License-Identifier: Apache-2.0
"""montmul.apps.bench_rsa (``python -m montmul.apps.bench_rsa``): its Pareto front and budget table, its JSON schema
(bench/rsa.json) and its errors."""

from __future__ import annotations

import json

import pytest

from montmul.apps import rsa


@pytest.fixture(scope="module")
def bench():
    from montmul.apps import bench_rsa

    return bench_rsa


def _row(name, ms, luts, dsp):
    return {"core": name, "params": {}, "ms": ms, "luts": luts, "dsp": dsp}


def test_pareto_front(bench):
    rows = [_row("fast_big", 1.0, 50_000, 100), _row("slow_small", 9.0, 5_000, 0),
            _row("beaten", 9.5, 6_000, 0), _row("mid", 3.0, 20_000, 0), _row("tie", 3.0, 20_000, 0),
            _row("no_time", None, 1_000, 0), _row("no_area", 0.5, None, None)]
    names = [r["core"] for r in bench.pareto(rows)]
    assert names == ["slow_small", "mid", "tie", "fast_big"]  # sorted by LUTs; equal rows both stay


def test_best_per_budget(bench):
    rows = [_row("dsp", 1.0, 15_000, 100), _row("lut", 4.0, 9_000, 0), _row("big", 2.0, 30_000, 0)]
    got = {(b["lut_budget"], b["dsp_budget"]): (b["best"] or {}).get("core") for b in bench.best_per_budget(rows)}
    assert got[(10_000, 0)] == "lut" and got[(40_000, 0)] == "big" and got[(20_000, 156)] == "dsp"
    assert got[(83_640, 156)] == "dsp"
    assert all(v is None for (luts, _), v in got.items() if luts < 9_000)


def test_json_schema_and_cycles(bench, tmp_path, capsys):
    out = tmp_path / "rsa.json"
    rc = bench.main(["--cores", "none", "--config", "r2_basic", "--bits", "1024", "--sw-reps", "0",
                     "--cache", str(tmp_path / "cache"), "--json-out", str(out)])
    assert rc == 0
    data = json.loads(out.read_text())
    (row,) = data["rows"]
    for k in ("core", "params", "bits", "crt", "cycles", "ecp5_fmax_mhz", "ms", "fits_lfe5u_85f"):
        assert k in row
    assert (row["core"], row["bits"], row["crt"]) == ("r2_basic", 1024, True)
    # the cycles are the engine model's for the same signature
    key = bench.nist_key(1024)
    ref = rsa.sign(key, b"montmul bench message 0", rsa.Hardware(core="r2_basic"), crt=True)
    assert row["cycles"] == ref.cycles and row["mults"] == ref.mults
    assert (row["ms"] is None) == (row["ecp5_fmax_mhz"] is None)
    # a second run comes from the model cache, with the same numbers
    again = bench.run_core("r2_basic", {}, 1024, True, "model", 1, str(tmp_path / "cache"))
    assert again["cached"] and again["cycles"] == row["cycles"]
    page = capsys.readouterr().out  # the row's section if it has a time, else the not-measured line
    assert ("RSA-1024 with the CRT, Pareto front" in page) == (row["ms"] is not None)
    assert ("Not measured yet" in page) == (row["ms"] is None)


@pytest.mark.parametrize("argv, msg", [
    (["--config", "no_such_core"], "no_such_core"),
    (["--config", "r2_basic:Nope=3"], "has no parameter Nope"),
    (["--config", "r2_basic:Width"], "expected P=V"),
    (["--cores", "none"], "no configuration"),
    (["--bits", "1000"], "no 1000-bit key"),
    (["--bits", "2048", "--confirm", "verilator", "--confirm-bits", "3072"], "--confirm-bits 3072 names a size not in"),
    (["--bits", "2048", "--confirm-cached-only"], "--confirm-cached-only needs --confirm"),
    (["--bits", "2048", "--ecp5-option", "router"], "--ecp5-option takes NAME=VALUE"),
    (["--bits", "2048", "--ecp5-option", "routr=router2"], "the ECP5 flow has no option 'routr'"),
])
def test_errors(bench, argv, msg, capsys):
    assert bench.main(argv + ["--sw-reps", "0"]) == 2
    assert msg in capsys.readouterr().err


def test_confirm_bits_restricts_the_rtl_runs(bench, monkeypatch, tmp_path):
    """--confirm-bits: only the rows of the named sizes run in RTL; the other
    rows keep their model figures and no confirmation."""
    def fake_run(core, params, bits, crt, sim, samples, cache_dir=None, crt_engine=True):
        return {"core": core, "params": dict(params), "bits": bits, "crt": crt, "sim": sim, "samples": samples,
                "engine": "crt" if crt and crt_engine else "modexp", "width": bits // 2 if crt else bits,
                "cycles": float(bits), "cycles_min": bits,
                "cycles_max": bits, "mults": 1.0, "seconds": 0.0, "cached": False}

    confirmed = []

    def fake_confirm(core, params, bits, crt, sim, crt_engine=True, cache_dir=None, run=True):
        if not run:  # --confirm-cached-only: nothing cached here
            return None
        confirmed.append((core, bits, sim) + (() if crt_engine else ("modexp",)))
        return {"sim": sim, "cycles": bits, "seconds": 0.0}

    monkeypatch.setattr(bench, "run_core", fake_run)
    monkeypatch.setattr(bench, "confirm", fake_confirm)
    monkeypatch.setattr(bench, "ecp5_result", lambda *a, **k: {
        "fmax_mhz": None, "luts": None, "ff": None, "dsp": None, "bram": None, "fits": None, "note": "stub"})
    out = tmp_path / "rsa.json"
    assert bench.main(["--cores", "r2_basic,scs_new", "--bits", "2048,3072", "--confirm", "verilator",
                       "--confirm-bits", "2048", "--sw-reps", "0", "--json-out", str(out)]) == 0
    assert sorted(confirmed) == [("r2_basic", 2048, "verilator"), ("scs_new", 2048, "verilator")]
    rows = json.loads(out.read_text())["rows"]
    assert {(r["core"], r["bits"]): r["rtl_confirmed"] for r in rows} == {
        ("r2_basic", 2048): True, ("scs_new", 2048): True, ("r2_basic", 3072): False, ("scs_new", 3072): False}
    confirmed.clear()  # without --confirm-bits: every size
    assert bench.main(["--cores", "r2_basic", "--bits", "2048,3072", "--confirm", "verilator",
                       "--sw-reps", "0"]) == 0
    assert sorted(confirmed) == [("r2_basic", 2048, "verilator"), ("r2_basic", 3072, "verilator")]
    # --crt-engine both: each configuration on the CRT engine and as two mm_modexp jobs, each
    # confirmed on its own engine; without the CRT there is one engine, so one row
    confirmed.clear()
    assert bench.main(["--cores", "r2_basic", "--bits", "2048", "--crt", "both", "--crt-engine", "both",
                       "--confirm", "verilator", "--sw-reps", "0", "--json-out", str(out)]) == 0
    assert sorted(confirmed) == [("r2_basic", 2048, "verilator"), ("r2_basic", 2048, "verilator", "modexp"),
                                 ("r2_basic", 2048, "verilator", "modexp")]
    rows = json.loads(out.read_text())["rows"]
    assert sorted((r["crt"], r["engine"]) for r in rows) == [(False, "modexp"), (True, "crt"), (True, "modexp")]
    confirmed.clear()  # --no-crt-engine is --crt-engine no
    assert bench.main(["--cores", "r2_basic", "--bits", "2048", "--no-crt-engine", "--confirm", "verilator",
                       "--sw-reps", "0"]) == 0
    assert confirmed == [("r2_basic", 2048, "verilator", "modexp")]
    confirmed.clear()  # --confirm-cached-only runs nothing new, and rows stay unconfirmed
    assert bench.main(["--cores", "r2_basic", "--bits", "2048", "--confirm", "verilator", "--confirm-cached-only",
                       "--sw-reps", "0", "--json-out", str(out)]) == 0
    assert confirmed == [] and not json.loads(out.read_text())["rows"][0]["rtl_confirmed"]


def test_model_cache_key_covers_the_models_and_top_level_modules(bench, tmp_path):
    """The model-result cache is keyed on the code (montmul.resources.
    code_digest, tests/test_resources.py) of the package's top-level modules
    and its models: a comment edit keeps it, a code edit or a new model file
    in either place does not."""
    pkg = tmp_path / "montmul"
    (pkg / "models").mkdir(parents=True)
    (pkg / "cores.py").write_text('"""Registry."""\nWIDTH = 8  # bits\n')
    (pkg / "models" / "m.py").write_text("def step(x):\n    return x >> 1\n")
    base = bench.code_digest(pkg)
    (pkg / "cores.py").write_text('"""The registry, reworded."""\n# a new comment\nWIDTH = 8\n')
    assert bench.code_digest(pkg) == base
    (pkg / "cores.py").write_text("WIDTH = 9\n")
    assert bench.code_digest(pkg) != base
    (pkg / "cores.py").write_text("WIDTH = 8\n")
    assert bench.code_digest(pkg) == base
    (pkg / "models" / "m2.py").write_text("X = 1\n")  # a new model file counts
    assert bench.code_digest(pkg) != base


def _rtl_copy(monkeypatch, tmp_path):
    """The RTL tree copied to ``tmp_path`` (and the build root there), so a
    test can edit it."""
    import shutil

    from montmul import resources

    rtl = tmp_path / "rtl"
    shutil.copytree(resources.rtl_dir(), rtl)
    monkeypatch.setattr(resources, "rtl_dir", lambda: rtl)
    monkeypatch.setattr(resources, "build_root", lambda: tmp_path / "build")
    return rtl


def test_confirmations_are_cached_on_the_code_and_the_rtl(bench, monkeypatch, tmp_path):
    """A confirmed row is cached (so the RTL column fills in over several
    runs); an RTL change, another engine or another size runs again."""
    from types import SimpleNamespace

    rtl = _rtl_copy(monkeypatch, tmp_path)
    runs = []

    def fake_sign(key, msg, hw, crt=True):
        runs.append((hw.core, hw.crt_engine))
        return SimpleNamespace(cycles=1234)

    monkeypatch.setattr(bench.rsa, "sign", fake_sign)
    cache = str(tmp_path / "cache")
    first = bench.confirm("r2_basic", {}, 2048, True, "verilator", True, cache)
    assert (first["cycles"], first["cached"]) == (1234, False) and len(runs) == 1
    again = bench.confirm("r2_basic", {}, 2048, True, "verilator", True, cache)
    assert again["cached"] and again["cycles"] == 1234 and len(runs) == 1
    bench.confirm("r2_basic", {}, 2048, True, "verilator", False, cache)  # two mm_modexp jobs: its own run
    bench.confirm("r2_basic", {}, 3072, True, "verilator", True, cache)
    assert len(runs) == 3
    crt = rtl / "modexp" / "mm_modexp_crt.sv"
    crt.write_text(crt.read_text() + "module mm_extra; endmodule\n")  # the RTL changed
    assert not bench.confirm("r2_basic", {}, 2048, True, "verilator", True, cache)["cached"]
    assert len(runs) == 4
    bench.confirm("r2_basic", {}, 2048, True, "verilator", True, None)  # no cache: always runs
    assert len(runs) == 5
    # run=False (--confirm-cached-only): a cached one, or None without running
    assert bench.confirm("r2_basic", {}, 2048, True, "verilator", True, cache, run=False)["cached"]
    assert bench.confirm("r2_basic", {}, 3072, True, "verilator", True, cache, run=False) is None  # older RTL
    assert bench.confirm("r2_basic", {}, 4096, True, "verilator", True, cache, run=False) is None
    assert len(runs) == 5


def test_confirmation_key_is_the_rtl_the_run_compiles(bench, monkeypatch, tmp_path):
    """The key covers the engine that runs the signature and its core's
    files, nothing else: an edit to mm_modexp leaves the CRT engine's
    confirmations valid and the other way round, a core's edit touches only
    its own rows, and a comment touches none."""
    rtl = _rtl_copy(monkeypatch, tmp_path)
    rows = [("r2_basic", True, True), ("r2_basic", True, False), ("r2_basic", False, False),
            ("scs_new", True, True), ("scs_new", True, False)]

    def keys():
        return {r: bench.rtl_digest(r[0], {}, r[1], r[2]) for r in rows}

    def edit(rel, text):
        f = rtl / rel
        f.write_text(f.read_text() + text)
        return keys()

    k0 = keys()
    # the same engine on the same core compiles the same files, whatever the job
    assert k0[("r2_basic", True, False)] == k0[("r2_basic", False, False)]
    assert len(set(k0.values())) == len(rows) - 1
    assert edit("modexp/mm_modexp.sv", "// a comment\n") == k0
    k1 = edit("modexp/mm_modexp.sv", "module mm_extra; endmodule\n")
    assert [r for r in rows if k1[r] != k0[r]] == [r for r in rows if not (r[1] and r[2])]
    k2 = edit("modexp/mm_modexp_crt.sv", "module mm_extra; endmodule\n")
    assert [r for r in rows if k2[r] != k1[r]] == [r for r in rows if r[1] and r[2]]
    k3 = edit("radix2/mm_scs_new.sv", "module mm_extra; endmodule\n")
    assert [r for r in rows if k3[r] != k2[r]] == [r for r in rows if r[0] == "scs_new"]


def test_missing_figures_are_told_apart_from_results_without_an_fmax(bench, monkeypatch, capsys):
    """A configuration with no synthesis result is "missing" (--synth runs
    it); one whose result has no Fmax (timed out, does not fit) is not
    called missing: it is a result, and the table's note says which."""
    def fake_run(core, params, bits, crt, sim, samples, cache_dir=None, crt_engine=True):
        return {"core": core, "params": dict(params), "bits": bits, "crt": crt, "sim": sim, "samples": samples,
                "engine": "crt" if crt and crt_engine else "modexp", "width": bits // 2 if crt else bits,
                "cycles": float(bits), "cycles_min": bits, "cycles_max": bits, "mults": 1.0, "seconds": 0.0,
                "cached": False}

    notes = {"r2_basic": "timed out: nextpnr-ecp5 (seed 1) past the 3600 s budget",
             "scs_new": "not synthesized (montmul synth ...)"}
    monkeypatch.setattr(bench, "run_core", fake_run)
    monkeypatch.setattr(bench, "ecp5_result", lambda core, *a, **k: {
        "fmax_mhz": None, "luts": 1 if core == "r2_basic" else None, "ff": None, "dsp": None, "bram": None,
        "fits": None, "note": notes[core], "result": core == "r2_basic"})
    assert bench.main(["--cores", "r2_basic,scs_new", "--bits", "2048", "--sw-reps", "0"]) == 0
    err = capsys.readouterr().err
    missing = next(line for line in err.splitlines() if "missing" in line)
    without = next(line for line in err.splitlines() if "without an Fmax" in line)
    assert "scs_new at 1024 bits" in missing and "r2_basic" not in missing
    assert "r2_basic at 1024 bits" in without and "scs_new" not in without


def test_ecp5_option_selects_the_synthesis_result_montmul_synth_option_files(bench, monkeypatch):
    """--ecp5-option: the engine figures are looked up for the job ``montmul
    synth ... --option O=V`` builds (values read by the CLI's own reader),
    and the "not synthesized" note gives that command."""
    from montmul.flows import synth as cli_util
    from montmul.flows import synth as sy

    items = ["router=router2", "budget_s=7200", "freq_mhz=150.5", "timing_weight=60"]
    opts = cli_util.parse_flow_options(items, "ecp5", "--ecp5-option")
    assert opts == {i.split("=")[0]: cli_util.parse_option_value(i.split("=")[1]) for i in items}
    assert opts == {"router": "router2", "budget_s": 7200, "freq_mhz": 150.5, "timing_weight": 60}
    looked_up = []
    monkeypatch.setattr(sy, "cached", lambda job, *a, **k: looked_up.append(job))
    e = bench.ecp5_result("r2_basic", {}, 40, engine="crt", options={"router": "router2"})
    assert [(j.core, j.width, j.engine, j.options) for j in looked_up] == [("r2_basic", 40, "crt", {"router": "router2"})]
    assert sy.cache_key(looked_up[0])[0] != sy.cache_key(sy.Job("r2_basic", 40, "ecp5", {}, {}, engine="crt"))[0]
    assert e["fmax_mhz"] is None and not e["result"]
    assert "montmul synth --core r2_basic --width 40 --target ecp5 --engine crt --option router=router2" in e["note"]


def test_ecp5_result_takes_the_median_of_the_report_seeds(bench, monkeypatch):
    """A one-seed engine run whose seeds 2 and 3 the cache also holds (the
    report's extra seeds) gives the median run's Fmax; without them, its own."""
    from montmul.flows import synth as sy

    width = 1024
    assert int(sy.Job("scs_new", width, "ecp5", engine="modexp").resolve()[2]["seeds"]) == 1
    fmax = {1: 54.0, 2: 48.0, 3: 50.0}

    def cached(job, *a, **k):
        seed = job.options.get("seed", 1)
        if seed not in fmax:
            return None
        return {"status": "ok", "fmax_mhz": fmax[seed], "luts": 40_000, "ff": 1, "dsp": 0, "bram": 0,
                "options": {**job.resolve()[2], "seed": seed}}

    monkeypatch.setattr(sy, "cached", cached)
    e = bench.ecp5_result("scs_new", {}, width)
    assert e["fmax_mhz"] == 50.0 and e["luts"] == 40_000 and e["fmax_seeds"] == {"1": 54.0, "2": 48.0, "3": 50.0}
    assert "median of seeds 1, 2, 3" in e["note"]
    del fmax[2], fmax[3]
    e = bench.ecp5_result("scs_new", {}, width)
    assert e["fmax_mhz"] == 54.0 and "fmax_seeds" not in e and "median" not in e["note"]
    fmax.update({2: 48.0, 3: 50.0})
    assert bench.ecp5_result("scs_new", {}, width, options={"seed": 2})["fmax_mhz"] == 48.0  # a seed asked for


def _stub_ecp5(measured):
    """ecp5_result standing in for the store: figures for ``measured``
    (core, width) pairs only."""
    def fake(core, params, width, run_synth=False, engine="modexp", options=None):
        if (core, width) in measured:
            return {"fmax_mhz": 50.0, "luts": 30_000, "ff": 10_000, "dsp": 0, "bram": 0, "fits": True,
                    "note": "stub", "result": True}
        return {"fmax_mhz": None, "luts": None, "ff": None, "dsp": None, "bram": None, "fits": None,
                "note": "not synthesized (stub)", "result": False}
    return fake


def test_page_shows_measured_rows_only(bench, monkeypatch, tmp_path):
    """The page lists rows with an ECP5 time only; the rest are named in one
    "Not measured yet" line, and no table cell reads n/a or "none measured"."""
    monkeypatch.setattr(bench, "ecp5_result", _stub_ecp5({("r2_basic", 512)}))
    out = tmp_path / "rsa.md"
    assert bench.main(["--cores", "r2_basic,scs1", "--bits", "1024,2048", "--sw-reps", "0",
                       "--cache", str(tmp_path / "cache"), "--out", str(out)]) == 0
    text = out.read_text()
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert [r.split("|")[1:4] for r in rows if "CRT (`mm_modexp_crt`) | 512" in r] == [
        [" `r2_basic` ", " defaults ", " 1024 "]]
    assert all("n/a" not in r for r in rows) and "none measured" not in text
    (line,) = [line for line in text.splitlines() if line.startswith("Not measured yet")]
    assert line.endswith("RSA-1024: scs1; RSA-2048: every configuration.")
    assert "RSA-2048 with the CRT" not in text  # no section for a size with no measured row


def test_from_json_renders_a_stored_run(bench, monkeypatch, tmp_path):
    """--from-json runs no signature: the stored cycles and confirmations,
    today's ECP5 figures; rendering its own output again gives the same page."""
    monkeypatch.setattr(bench, "ecp5_result", _stub_ecp5({("r2_basic", 512)}))
    stored = tmp_path / "stored.json"
    assert bench.main(["--cores", "r2_basic", "--bits", "1024", "--sw-reps", "0",
                       "--cache", str(tmp_path / "cache"), "--json-out", str(stored)]) == 0
    data = json.loads(stored.read_text())
    data["rows"][0]["cycles"] = 12_345.0  # proves the page takes the stored cycles
    data["rows"][0]["rtl_confirmed"] = True
    stored.write_text(json.dumps(data))
    monkeypatch.setattr(bench, "run_core", lambda *a, **k: pytest.fail("--from-json ran a signature"))
    page, again = tmp_path / "a.md", tmp_path / "again.json"
    assert bench.main(["--from-json", str(stored), "--out", str(page), "--json-out", str(again)]) == 0
    row = next(line for line in page.read_text().splitlines() if line.startswith("| `r2_basic`"))
    assert "| 12,345 |" in row and "| 0.25 |" in row  # 12,345 cycles / 50 MHz
    assert json.loads(again.read_text())["command"] == data["command"]
    assert bench.main(["--from-json", str(again), "--out", str(tmp_path / "b.md")]) == 0
    strip = lambda p: p.read_text().split("\n", 1)[1]  # the first line names the rendering command
    assert strip(tmp_path / "b.md") == strip(page)


def test_from_json_rejects_a_file_that_is_not_a_run(bench, tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert bench.main(["--from-json", str(bad)]) == 2
    assert "not a stored bench run" in capsys.readouterr().err


def test_tracked_pages_have_no_unmeasured_rows():
    """bench/rsa*.md, as tracked: every table row is measured."""
    from pathlib import Path

    for page in sorted(Path(__file__).parent.parent.glob("bench/rsa*.md")):
        rows = [line for line in page.read_text().splitlines() if line.startswith("| `")]
        assert rows and not [r for r in rows if "n/a" in r or "none measured" in r], page


def test_synth_on_a_cluster_is_one_sweep(bench, monkeypatch):
    """--synth with --scheduler/--cluster: the engines missing from the
    synthesis cache go to the executor as one synthesis sweep (each engine
    once); a failed one is named in its rows' note, as a local failure is."""
    from montmul.flows import synth

    seen = {}

    def fake_run_many(jobs, on_error="raise", executor=None, **kw):
        seen.update(jobs=jobs, executor=executor, on_error=on_error)
        return [{"core": j.core, "width": j.width, "target": j.target, "error": "nextpnr exploded"}
                if j.core == "scs_new" else {"core": j.core, "fmax_mhz": 100.0} for j in jobs]

    monkeypatch.setattr(synth, "cached", lambda job: None)
    monkeypatch.setattr(synth, "run_many", fake_run_many)
    rows = [{"core": c, "params": {}, "width": 512, "engine": "crt", "cycles": 1000.0} for c in
            ("r2_basic", "scs_new", "r2_basic")]
    failed = bench.synth_missing(rows, {"seeds": 1}, "the executor")
    assert seen["executor"] == "the executor" and seen["on_error"] == "return"
    assert [(j.core, j.width, j.target, j.engine, j.options) for j in seen["jobs"]] == [
        ("r2_basic", 512, "ecp5", "crt", {"seeds": 1}), ("scs_new", 512, "ecp5", "crt", {"seeds": 1})]
    assert failed == {("scs_new", "{}", 512, "crt"): "nextpnr exploded"}
    monkeypatch.setattr(bench, "ecp5_result", lambda *a, **k: {
        "fmax_mhz": None, "luts": None, "ff": None, "dsp": None, "bram": None, "fits": None, "result": False,
        "note": "not synthesized (montmul synth ...)"})
    missing, no_fmax = bench.add_ecp5(rows, False, {}, failed)
    assert [r["fmax_note"] for r in rows] == ["not synthesized (montmul synth ...)",
                                              "synthesis failed: nextpnr exploded",
                                              "not synthesized (montmul synth ...)"]
    assert len(missing) == 3 and not no_fmax


def test_pke_rows_take_the_median_of_the_stored_engine_results(bench, monkeypatch, tmp_path):
    """Core ws's CRT rows run on mm_pke: engine "pke", the engine model's
    cycles, and the figures of syn/proxy's results for the build of that
    size only (RSA-2048: c = 1, d = 3, MaxWords 65; RSA-3072/4096: c = 2,
    d = 2, MaxWords 131): the median Fmax, "not measured" without one."""
    from montmul.flows.sim import pke_sim
    from montmul.models import pke, ws

    def store(name, fmax, **params):
        p = {"NumPe": 66, "WordWidth": 17, "DspRegs": 3, "Chunks": 1, "QuotDelay": 3, "MaxWords": 65,
             "ProgWords": 512, **params}
        (tmp_path / f"ws_pke_{name}.json").write_text(json.dumps({
            "design": "mm_pke", "variant": "base", "params": p, "seed": int(name[-1]), "fmax_mhz": fmax,
            "luts": 20_000 + int(fmax), "ff": 30_000, "dsp": 134, "ebr": 24, "rtl": {},
            "device_utilization": {"luts": 0.3, "ff": 0.4, "dsp": 0.86, "bram": 0.12}}))

    store("c1_seed1", 90.0)
    store("c1_seed2", 100.0)
    store("c1_seed3", 96.0)
    store("other_seed4", 150.0, NumPe=70)  # other builds: not used
    store("other_seed5", 160.0, ProgWords=1024)
    monkeypatch.setattr(bench, "PROXY_STORE", tmp_path)
    row = bench.sign_row("ws", {}, 2048, True, "model", 1)
    # the engine model's cycles of the RSA-CRT program on that build (they do not depend on the data)
    b = bench.pke_build(2048)
    zero = [[0] * pke.MEM_WORDS for _ in range(2)]
    cycles = pke.run(pke.rsa_crt_program(b), zero, pke.Machine(b.array, [ws.precompute(3, b.w, b.d, b.bits)] * 2),
                     compute=False).cycles
    assert (row["engine"], row["width"], row["cycles"]) == ("pke", 1024, cycles)
    rows = [row, bench.sign_row("ws", {}, 4096, True, "model", 1)]
    missing, no_fmax = bench.add_ecp5(rows, False, {})
    r2048, r4096 = rows
    assert r2048["fmax_mhz"] == 96.0 and (r2048["luts"], r2048["bram"], r2048["fits"]) == (20_096, 24, True)
    assert r2048["ms"] == pytest.approx(cycles / 96e3) and r2048["sig_per_s"] == pytest.approx(1e3 / r2048["ms"])
    assert "seeds 1, 2, 3" in r2048["fmax_note"]
    assert r4096["ms"] is None and "--chunks 2" in r4096["fmax_note"] and missing == ["ws at 2048 bits"]
    assert bench.pke_build(4096).d == 2 and pke_sim.hdl_params(bench.pke_build(3072))["MaxWords"] == 131
    page = bench.markdown({"command": "x", "sim": "model", "samples": 1, "ecp5_options": {}, "rows": rows,
                           "software": [], "device": bench.device()})
    line = next(x for x in page.splitlines() if x.startswith("| `ws`"))
    assert "`mm_pke`" in line and "| 24 |" in line and f"| {1e3 / r2048['ms']:,.0f} |" in line
    assert "RSA-4096: ws (mm_pke)" in page
