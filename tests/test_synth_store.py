# SPDX-License-Identifier: Apache-2.0
"""The tracked store of synthesis results (montmul.flows.synth.store): a result
saved there is found by a fresh build folder, a stale one is pruned, and the
store can be turned off."""
from __future__ import annotations

import json
import os
import shutil
import uuid

import pytest

from montmul import resources
from montmul.flows import synth
from montmul.flows.synth import store

JOB = synth.Job("r2_basic", 8, "ecp5")


def _result(job: synth.Job, **extra) -> dict:
    key, data = synth.cache_key(job)
    return {"core": job.core, "width": job.width, "target": job.target, "engine": False, "key": key,
            "params": data["params"], "options": data["options"],
            "tools": data["tools"], "hashes": {"rtl": data["rtl"], "flow_files": data["flow_files"]},
            "status": "ok", "fmax_mhz": 123.4, "luts": 10, **extra}


@pytest.fixture
def dirs(tmp_path, monkeypatch):
    build, st = tmp_path / "build", tmp_path / "store"
    (build / "cache").mkdir(parents=True)
    st.mkdir()
    monkeypatch.setenv("MONTMUL_SYNTH_DIR", str(build))
    monkeypatch.setenv(store.STORE_ENV, str(st))
    return build, st


def _write(folder, res):
    path = folder / f"{res['key']}.json"
    path.write_text(json.dumps(res))
    return path


def test_store_result_found_without_build_cache(dirs):
    _, st = dirs
    _write(st, _result(JOB))
    got = synth.cached(JOB)
    assert got is not None and got["cached"] and got["fmax_mhz"] == 123.4


def test_build_cache_wins_over_store(dirs):
    build, st = dirs
    _write(st, _result(JOB))
    _write(build / "cache", _result(JOB, fmax_mhz=99.0))
    assert synth.cached(JOB)["fmax_mhz"] == 99.0


def test_store_off(dirs, monkeypatch):
    _, st = dirs
    _write(st, _result(JOB))
    monkeypatch.setenv(store.STORE_ENV, "off")
    assert store.store_dir() is None
    assert synth.cached(JOB) is None
    with pytest.raises(ValueError, match="off"):
        store.save()
    assert store.main(["list"]) == 2


def test_save_copies_new_results_only(dirs):
    build, st = dirs
    res = _result(JOB)
    _write(build / "cache", res)
    (build / "cache" / "junk.json").write_text("{not json")
    stale = _result(synth.Job("r2_basic", 9, "ecp5"))
    stale["hashes"]["rtl"][next(iter(stale["hashes"]["rtl"]))] = "0" * 64
    _write(build / "cache", stale)
    added = store.save(cache=build / "cache")
    assert [p.name for p in added] == [f"{res['key']}.json"]
    assert json.loads((st / added[0].name).read_text()) == res
    assert store.save(cache=build / "cache") == []


def test_prune_removes_stale_keeps_current(dirs, capsys):
    _, st = dirs
    good = _write(st, _result(JOB))
    other = _result(synth.Job("r2_basic", 9, "ecp5"))
    rel = next(iter(other["hashes"]["rtl"]))
    other["hashes"]["rtl"][rel] = "0" * 64
    stale = _write(st, other)
    old = _result(synth.Job("r2_basic", 10, "ecp5"))
    del old["hashes"]
    older = _write(st, old)
    why = {e["path"].name: e["stale"] for e in store.entries(st)}
    assert why[good.name] is None
    assert why[stale.name] == f"{rel} changed"
    assert "older flow" in why[older.name]
    assert {e["path"] for e in store.prune(st, dry_run=True)} == {stale, older}
    assert stale.is_file()
    assert store.main(["prune"]) == 0
    assert "deleted 2 stale" in capsys.readouterr().out
    assert good.is_file() and not stale.exists() and not older.exists()


def test_tool_version_change_is_stale(dirs):
    res = _result(JOB)
    res["tools"] = {k: v + "-old" for k, v in res["tools"].items()}
    assert store.why_stale(res) == "tool versions changed"


def test_engine_key_does_not_depend_on_build_folder(tmp_path, monkeypatch):
    """An engine's generated core wrapper is hashed under a name of its own,
    so a result made in one build folder is found from another."""
    job = synth.Job("r2_basic", 8, "ecp5", engine="modexp")
    keys = []
    for sub in ("a", "b"):
        monkeypatch.setenv("MONTMUL_SYNTH_DIR", str(tmp_path / sub))
        key, data = synth.cache_key(job)
        keys.append(key)
        gen = [k for k in data["rtl"] if k.startswith(synth.GENERATED)]
        assert len(gen) == 1 and str(tmp_path) not in gen[0]
    assert keys[0] == keys[1]


def _flows_rel(res: dict) -> str:
    return next(rel for rel in res["hashes"]["flow_files"] if rel.endswith("synth/flows.py"))


def test_rekey_refiles_only_results_whose_sole_change_is_named(dirs, capsys):
    """A result made before a change to the named file only is filed again
    under today's key, with the change recorded; one whose RTL changed too
    stays stale."""
    _, st = dirs
    res = _result(JOB)
    today = res["key"]
    rel = _flows_rel(res)
    res["hashes"]["flow_files"][rel] = "0" * 64
    res["key"] = "f" * 24
    old = _write(st, res)
    both = _result(synth.Job("r2_basic", 9, "ecp5"))
    both["hashes"]["flow_files"][rel] = "0" * 64
    both["hashes"]["rtl"][next(iter(both["hashes"]["rtl"]))] = "1" * 64
    both["key"] = "e" * 24
    other = _write(st, both)
    assert synth.cached(JOB) is None
    assert store.rekey(["src/montmul/flows/synth/parse.py"], st) == []
    assert [e["path"] for e in store.rekey([rel], st, dry_run=True)] == [old] and old.is_file()
    assert store.main(["rekey", "--same-results", rel]) == 0
    assert "re-filed 1 result" in capsys.readouterr().out
    assert not old.exists() and other.is_file()
    got = synth.cached(JOB)
    assert got is not None and got["key"] == today and got["fmax_mhz"] == 123.4
    assert got["rekeyed"] == [{"from": "f" * 24, "files": {rel: {"was": "0" * 64, "now": got["hashes"]["flow_files"][rel]}}}]
    assert store.why_stale(got) is None
    assert store.main(["rekey"]) == 2


def test_rekey_follows_renamed_files(dirs, capsys):
    """A result made before a file moved is filed again under today's key
    when the move is named: with the same content no further claim is
    needed; an edited moved file must also be named by --same-results."""
    _, st = dirs
    res = _result(JOB)
    today = res["key"]
    rel = _flows_rel(res)
    old_rel = "src/montmul/old_place/flows.py"
    h = res["hashes"]["flow_files"].pop(rel)
    res["hashes"]["flow_files"][old_rel] = h
    res["key"] = "c" * 24
    old = _write(st, res)
    assert synth.cached(JOB) is None
    assert store.rekey([], st, dry_run=True) == []  # without the rename the old file is gone
    assert store.main(["rekey", "--renamed", "nonsense"]) == 2
    assert store.main(["rekey", "--renamed", f"{old_rel}={rel}"]) == 0
    assert "re-filed 1 result" in capsys.readouterr().out and not old.exists()
    got = synth.cached(JOB)
    assert got is not None and got["key"] == today and got["rekeyed"][-1]["renamed"] == {old_rel: rel}
    assert store.why_stale(got) is None
    # moved and edited: the rename alone is not enough
    res2 = _result(synth.Job("r2_basic", 9, "ecp5"))
    h2 = res2["hashes"]["flow_files"].pop(rel)
    res2["hashes"]["flow_files"][old_rel] = "0" * 64 if h2 != "0" * 64 else "1" * 64
    res2["key"] = "b" * 24
    old2 = _write(st, res2)
    assert store.rekey([], st, renames={old_rel: rel}) == [] and old2.is_file()
    assert [e["path"] for e in store.rekey([rel], st, renames={old_rel: rel})] == [old2]


def test_rekey_keeps_a_result_whose_job_now_resolves_to_other_options(dirs, monkeypatch):
    """A result whose only changed file is named, but whose job today
    resolves to other flow options (the registry added one for the width),
    stays stale: re-filed, it would answer a question it was not run for."""
    _, st = dirs
    res = _result(JOB)
    rel = _flows_rel(res)
    res["hashes"]["flow_files"][rel] = "0" * 64
    res["key"] = "d" * 24
    old = _write(st, res)
    with monkeypatch.context() as m:
        m.setattr(synth.tuning, "ecp5_options", lambda core, width, engine=False: {"timing_weight": 60})
        assert synth.cache_key(JOB)[1]["options"]["timing_weight"] == 60
        assert store.rekey([rel], st) == [] and old.is_file()
    assert [e["path"] for e in store.rekey([rel], st, dry_run=True)] == [old]


def test_result_dir_follows_a_refiled_result(dirs):
    """A re-filed result keeps the folder it was made in (its key changed,
    so the job's work directory name did too); without it, the job's."""
    made = dirs[0] / "work" / "r2_basic_w8_ecp5_old"
    res = _result(JOB, work_dir=os.path.relpath(made, resources.data_root()))
    assert synth.result_dir(JOB, res) == synth.work_dir(JOB)
    made.mkdir(parents=True)
    assert synth.result_dir(JOB, res).resolve() == made.resolve()


@pytest.mark.rtl
def test_rekey_same_netlist(tmp_path, monkeypatch):
    """A result whose RTL changed is re-filed when Yosys, rerun on the new
    RTL with the result's own scripts, writes the same netlist (an unused
    declaration added), and stays stale when the netlist differs (the range
    check's segment width changed)."""
    from montmul.flows.synth import tools

    tools.check("ecp5")
    src = resources.data_root() / "build" / "test_store" / uuid.uuid4().hex
    try:
        for sub in ("rtl", "syn"):
            shutil.copytree(resources.data_root() / sub, src / sub)
        monkeypatch.setenv(resources.SOURCE_ENV, str(src))
        monkeypatch.setenv("MONTMUL_SYNTH_DIR", str(src / "build" / "synth"))
        monkeypatch.setenv(store.STORE_ENV, str(src / "store"))
        job = synth.Job("r2_basic", 8, "ecp5", options={"seeds": 1})
        made = synth.synth(job)
        assert made["status"] == "ok"
        store.save()
        check = src / "rtl" / "common" / "mm_in_check.sv"
        text = check.read_text()
        check.write_text(text.replace("  localparam int CmpSeg = 32;",
                                      "  localparam int CmpSeg = 32;\n  localparam int UnusedProbe = 7;"))
        assert synth.cached(job) is None  # the key changed with the RTL
        (moved,) = store.rekey_same_netlist()
        got = synth.cached(job)
        assert got is not None and got["fmax_mhz"] == made["fmax_mhz"] and got["key"] != made["key"]
        assert got["rekeyed"][-1]["by"] == "netlist" and "netlist.json" in got["rekeyed"][-1]["sha256"]
        assert store.why_stale(got) is None and moved["files"] == ["rtl/common/mm_in_check.sv"]
        check.write_text(text.replace("localparam int CmpSeg = 32;", "localparam int CmpSeg = 2;"))
        assert synth.cached(job) is None and store.rekey_same_netlist() == []
        assert [e["stale"] for e in store.entries()] == ["rtl/common/mm_in_check.sv changed"]
    finally:
        shutil.rmtree(src, ignore_errors=True)


@pytest.mark.rtl
def test_rekey_equiv(tmp_path, monkeypatch):
    """A result is re-filed when Yosys proves its design's RTL today
    equivalent to the RTL at the named revision, also when the design gained
    a file (a package of constants), and stays stale when the function
    changed or when it was made from other RTL than the revision's."""
    import dataclasses
    import subprocess

    from montmul import cores

    src = resources.data_root() / "build" / "test_store" / uuid.uuid4().hex
    try:
        for sub in ("rtl", "syn"):
            shutil.copytree(resources.data_root() / sub, src / sub)
        git = ["git", "-C", str(src), "-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run([*git, "init", "-q"], check=True)
        subprocess.run([*git, "add", "rtl"], check=True)
        subprocess.run([*git, "commit", "-q", "-m", "rtl"], check=True)
        monkeypatch.setenv(resources.SOURCE_ENV, str(src))
        monkeypatch.setenv("MONTMUL_SYNTH_DIR", str(src / "build" / "synth"))
        monkeypatch.setenv(store.STORE_ENV, str(src / "store"))
        monkeypatch.setenv(resources.BUILD_ENV, str(src / "build"))
        (src / "store").mkdir()
        made = _result(JOB)
        _write(src / "store", made)
        older = _result(synth.Job("r2_basic", 9, "ecp5"))
        older["hashes"]["rtl"]["rtl/radix2/mm_r2_basic.sv"] = "2" * 64  # made from RTL before the revision
        older["key"] = "d" * 24
        _write(src / "store", older)
        # an equivalent change: a register written without the macro, and
        # a package the core now reads first
        core = src / "rtl" / "radix2" / "mm_r2_basic.sv"
        core.write_text(core.read_text().replace(
            "`MM_FF(cnt_q, cnt_d, '0)",
            "always_ff @(posedge clk_i or negedge rst_ni) if (!rst_ni) cnt_q <= '0; else cnt_q <= cnt_d;"))
        (src / "rtl" / "common" / "mm_probe_pkg.sv").write_text(
            "package mm_probe_pkg;\n  localparam int Probe = 3;\nendpackage\n")
        c = cores.CORES["r2_basic"]
        monkeypatch.setitem(cores.CORES, "r2_basic", dataclasses.replace(c, rtl=("common/mm_probe_pkg.sv", *c.rtl)))
        assert synth.cached(JOB) is None
        with pytest.raises(ValueError):
            store.rekey_equiv("no-such-rev")
        (moved,) = store.rekey_equiv("HEAD")
        got = synth.cached(JOB)
        assert got is not None and got["fmax_mhz"] == made["fmax_mhz"] and got["key"] != made["key"]
        rec = got["rekeyed"][-1]
        assert rec["by"] == "equiv" and rec["signals"] > 0 and rec["params"]["Width"] == 8
        assert sorted(rec["files"]) == ["rtl/common/mm_probe_pkg.sv", "rtl/radix2/mm_r2_basic.sv"]
        assert (src / "store" / f"{older['key']}.json").is_file()  # not made from the revision's RTL
        # a change of function: the counter's reset value
        _write(src / "store", made)
        core.write_text(core.read_text().replace("cnt_q <= '0;", "cnt_q <= 1;"))
        assert store.rekey_equiv("HEAD") == []
    finally:
        shutil.rmtree(src, ignore_errors=True)
