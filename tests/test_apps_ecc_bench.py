# SPDX-License-Identifier: Apache-2.0
"""montmul.apps.ecc.bench: the ECC bench's generator (bench/ecc.md, bench/ecc.json)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from montmul.apps.ecc import bench as B
from montmul.flows.synth import proxy
from montmul.apps.ecc import engine as E
from montmul.apps.ecc.curves import get

FIELDS = ("curve", "operation", "core", "cycles", "ecp5_fmax_mhz", "ms", "fits_lfe5u_85f")
ROOT = Path(__file__).resolve().parents[1]


def _store(tmp_path: Path, fmaxes, prog_words=4096, util=0.5, **params):
    """Results as scripts/ws_proxy.py stores them, of the RSA-2048 build (P = 66, w = 17, d = 3, c = 1, m = 65)
    or, with ``params``, of another build."""
    p = {"NumPe": 66, "WordWidth": 17, "DspRegs": 3, "Chunks": 1, "QuotDelay": 3, "MaxWords": 65,
         "ProgWords": prog_words, **params}
    for seed, f in enumerate(fmaxes, 1):
        (tmp_path / f"ws_{proxy.tag(p, seed, 'base')}.json").write_text(json.dumps({
            "design": "mm_pke", "variant": "base", "params": p, "seed": seed, "status": "ok", "fmax_mhz": f,
            "device_utilization": {"luts": util, "ff": 0.2, "dsp": 0.9, "bram": 0.3}}))


def test_rows_from_the_model_and_no_clock_when_none_is_stored(tmp_path):
    rows = B.engine_rows(tmp_path, ("secp256r1",))
    assert {(r["operation"], r["core"]) for r in rows} == {(op, c) for op in B.OPERATIONS
                                                          for c in ("mm_pke", "mm_pke, ModAlu = 1")}
    c = get("secp256r1")
    b = B.engine_build()
    arr = dict(pes=b.pes, w=b.w, latency=b.latency, qlat=b.qlat, d=b.d)
    kp = E.run_scalar_mult(c, 0, (0, 0), compute=False, **arr).cycles
    V, _ = E.split_base(c)
    sign = E.run_double(c, 0, (0, 0), 0, (0, 0), 4 * V, compute=False, mod_alu=True, **arr).cycles
    by = {(r["operation"], r["core"]): r for r in rows}
    assert by["scalar_mul", "mm_pke"]["cycles"] == by["ecdh", "mm_pke"]["cycles"] == kp
    assert by["ecdsa_sign", "mm_pke, ModAlu = 1"]["cycles"] == sign
    assert all(r["ecp5_fmax_mhz"] is None and r["ms"] is None and "not measured" in r["note"] for r in rows)
    md = B.format_md({"command": "x", "engine": {**arr, "m": b.m, "latency": 6, "results": B._pattern(), "seeds": [],
                                                 "fmax_mhz": None}, "rows": rows})
    assert "not measured" in md


def test_clock_is_the_median_of_the_stored_seeds(tmp_path):
    _store(tmp_path, [90.0, 110.0, 97.5])
    _store(tmp_path, [150.0, 160.0], NumPe=70)  # another build: not used
    _store(tmp_path, [150.0], LoopRegs=1)
    st = B.stored_fmax(tmp_path)
    assert st["fmax_mhz"] == 97.5 and st["seeds"] == [1, 2, 3] and st["fits"] is True
    rows = B.engine_rows(tmp_path, ("secp384r1",))
    for r in rows:
        assert r["ecp5_fmax_mhz"] == 97.5
        assert r["ms"] == pytest.approx(r["cycles"] / 97.5e3)
        assert r["ops_per_s"] == pytest.approx(1e3 / r["ms"])
    default = [r for r in rows if r["core"] == "mm_pke"]
    assert all(r["fits_lfe5u_85f"] is True for r in default)
    assert all(r["fits_lfe5u_85f"] is None for r in rows if r["core"] != "mm_pke")  # ModAlu 1: not placed


def test_a_placed_build_too_small_for_the_program_or_the_device(tmp_path):
    _store(tmp_path, [100.0], prog_words=512)
    rows = B.engine_rows(tmp_path, ("secp256r1",))
    assert all(r["fits_lfe5u_85f"] is None and "ProgWords 512" in r["note"] for r in rows if r["core"] == "mm_pke")
    _store(tmp_path, [100.0], util=1.2)
    assert B.stored_fmax(tmp_path)["fits"] is False


def test_the_build_with_the_largest_program_memory_sets_the_clock(tmp_path):
    """The RSA build (512-word program) and an ECC build (4096 words) stored side by side: the rows take the
    ECC build's seeds only."""
    _store(tmp_path, [70.0, 72.0, 71.0], prog_words=512)
    _store(tmp_path, [66.0], prog_words=4096)
    assert len(list(tmp_path.glob("*.json"))) == 4  # under names of their own
    st = B.stored_fmax(tmp_path)
    assert st["fmax_mhz"] == 66.0 and st["seeds"] == [1] and st["prog_words"] == 4096
    assert [f.name for f in tmp_path.glob(st["pattern"])] == ["ws_pke_P66_w17_r3_d3_c1_m65_pw4096_base_seed1.json"]
    rows = [r for r in B.engine_rows(tmp_path, ("secp256r1",)) if r["core"] == "mm_pke"]
    assert all(r["ecp5_fmax_mhz"] == 66.0 and r["fits_lfe5u_85f"] is True for r in rows)


def test_generate_fields_software_and_published(tmp_path):
    data = B.generate(tmp_path, reps=1, curves=("secp256r1",))
    assert data["command"] == "python -m montmul.apps.ecc.bench"
    for r in data["rows"]:
        assert all(k in r for k in FIELDS)
        assert r["operation"] in B.OPERATIONS
    soft = [r for r in data["rows"] if r["source"] == "measured"]
    assert {r["operation"] for r in soft} == set(B.OPERATIONS) and all(r["ms"] > 0 for r in soft)
    pub = [r for r in data["rows"] if r["source"] == "published"]
    assert [(r["operation"], r["ops_per_s"]) for r in pub] == [(op, n) for c, op, n in B.IPECC if c == "secp256r1"]


def test_tracked_bench_matches_the_model():
    """bench/ecc.json's engine cycles are the model's (`make bench-ecc UPDATE=1` regenerates it)."""
    data = json.loads((ROOT / "bench" / "ecc.json").read_text())
    assert data["command"] == "python -m montmul.apps.ecc.bench"
    rows = [r for r in data["rows"] if r["source"] == "model"]
    assert {r["curve"] for r in rows} == set(B.CURVES)
    for r in rows:
        assert all(k in r for k in FIELDS)
    for r in rows[:: 4]:  # one operation per curve and core (the model runs take seconds each)
        assert all(k in r for k in FIELDS)
        cyc, _ = B._cycles(r["curve"], r["operation"], r["core"] != "mm_pke")
        assert r["cycles"] == cyc, (r["curve"], r["operation"], r["core"])
    assert (ROOT / "bench" / "ecc.md").read_text().startswith("# ECC")


def test_cli(tmp_path, capsys):
    assert B.main(["--reps", "0"]) == 2
    assert "error:" in capsys.readouterr().err
    assert B.main(["--reps", "1", "--curves", "secp256r1", "--proxy-dir", str(tmp_path),
                   "--out", str(tmp_path / "e.md"), "--json-out", str(tmp_path / "e.json")]) == 0
    assert json.loads((tmp_path / "e.json").read_text())["rows"]
