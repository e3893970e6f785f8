# SPDX-License-Identifier: Apache-2.0
"""The volume harness (montmul.flows.verify, ``montmul verify``) at reduced counts.

``make verify-volume`` runs the full counts over every core (README); here:
one exhaustive width and one random run on Verilator, a deliberately wrong
expectation (latency, radix) that the harness must report, two faults
injected into a copy of the RTL (a response dropped under back-pressure, a
lost carry in the datapath) that it must catch, and the command's JSON and
bad arguments.  Four small Verilator builds (about 4 s of CPU each once the
Verilator runtime is cached).
"""
from __future__ import annotations

import json
import shutil

import pytest

from montmul import cores, resources
from montmul.cli import commands as cli
from montmul.flows import verify
from montmul.cli.util import EXIT_CHECK, EXIT_USAGE

R2 = cores.get("r2_basic")


def _all_odd_products(k: int) -> int:
    return sum((2 * n) ** 2 for n in range(3, 1 << k, 2))


def test_verilator_exhaustive_width5():
    """Every odd N < 32 with every A, B < 2N, each also against the model."""
    r = verify.verify(R2, 5, exhaustive=True, model_sample=1 << 30)
    assert r.mismatches == 0, r.failures
    assert r.products == _all_odd_products(5) and r.rejected == 0
    assert r.model_checked == r.products and r.latency_exact == r.products


def test_verilator_random_data_dependent_core():
    """scs_new (operand-dependent latency): value, range and bound on every
    product, the model's exact latency on the sample; corner cases, back-
    pressure, gaps and rejected requests all exercised."""
    r = verify.verify(cores.get("scs_new"), 16, count=6000, seed=3, model_sample=2000)
    assert r.mismatches == 0, r.failures
    assert r.products + r.rejected == 6000 and r.rejected > 0
    assert r.latency_bounded == r.products and r.latency_exact == 0
    assert r.model_checked >= 1900 and r.latency_model == r.model_checked
    assert r.corner_requests > 0 and r.backpressure > 0 and r.gaps > 0


def test_verilator_wrong_expectation_is_caught():
    """The checks can fail: one cycle off in the latency table, R off by one bit."""
    k = 5
    hdl = R2.hdl_params(k)
    lat = verify.latency_table(R2, k, hdl)
    r = verify.verify(R2, k, count=500, lat_override=[x + 1 if x >= 0 else x for x in lat])
    assert r.mismatches > 0 and {f["kind"] for f in r.failures} == {"latency"}
    radix = verify.radix_table(R2, k, hdl)
    r = verify.verify(R2, k, count=500, radix_override=[x + 1 for x in radix])
    assert r.mismatches > 0 and "value" in {f["kind"] for f in r.failures}


#: (file, original text, faulty text, failure kind the harness must report)
FAULTS = {
    "drop": ("common/mm_req_ctrl.sv",
             "idle_d = idle_q | (done_q & out_ready_i);\n      busy_d = busy_q & ~done_i;\n"
             "      done_d = (done_q & ~out_ready_i) | (busy_q & done_i);",
             "idle_d = idle_q | done_q;\n      busy_d = busy_q & ~done_i;\n      done_d = busy_q & done_i;",
             "protocol"),
    "carry": ("radix2/mm_r2_basic.sv", "s_d   = sum[Width+2:1];", "s_d   = {1'b0, sum[Width+1:1]};", "value"),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_verilator_injected_fault_is_caught(fault, tmp_path, monkeypatch):
    """A copy of the RTL with one fault (MONTMUL_SOURCE points the build at
    it): the harness reports it and the command exits 1 with the vector."""
    rel, good, bad, kind = FAULTS[fault]
    src = resources.rtl_dir()
    shutil.copytree(src, tmp_path / "rtl")
    f = tmp_path / "rtl" / rel
    text = f.read_text()
    assert text.count(good) == 1
    f.write_text(text.replace(good, bad))
    # share the cached Verilator runtime with the normal builds
    for cache in (resources.build_root() / "verify").glob("_runtime_*"):
        shutil.copytree(cache, tmp_path / "build" / "verify" / cache.name)
    monkeypatch.setenv(resources.SOURCE_ENV, str(tmp_path))
    monkeypatch.setenv(resources.BUILD_ENV, str(tmp_path / "build"))
    r = verify.verify(R2, 8, count=3000)
    assert r.mismatches > 0 and kind in {f["kind"] for f in r.failures}, r.failures
    code = cli.main(["verify", "--core", "r2_basic", "--width", "8", "--count", "3000"])
    assert code == EXIT_CHECK


def test_verify_refuses_a_core_without_its_modulus_check():
    """CheckMod=0 leaves illegal moduli to the host, and the harness sends
    them: a clear refusal, not a run full of false mismatches."""
    with pytest.raises(ValueError, match="CheckMod=0"):
        verify.verify(R2, 5, count=10, params={"CheckMod": 0})


def test_verilator_cli_json(capsys):
    code = cli.main(["verify", "--core", "r2_basic", "--width", "5", "--count", "2000", "--seed", "7", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["products"] + out["rejected"] == 2000 and out["mismatches"] == 0 and out["products_per_s"] > 0
    assert out["seed"] == 7 and out["params"] == {"Width": 5, "CheckRange": 1, "CheckMod": 1}


@pytest.mark.parametrize("argv, needle", [
    (["--core", "nope", "--width", "8"], "unknown core"),
    (["--core", "r2_basic", "--width", "2"], "Width"),
    (["--core", "r2_basic", "--width", "x"], "not a width"),
    (["--core", "r2_basic", "--width", "16", "--exhaustive"], "width at most 8"),
    (["--core", "r2_basic", "--width", "6", "--exhaustive", "--count", "9"], "drop --count"),
    (["--core", "r2_basic", "--width", "8", "--count", "0"], "must be at least 1"),
    (["--core", "r2_basic", "--width", "8", "--param", "Foo=1"], "no parameter Foo"),
    (["--core", "r2_basic", "--width", "8", "--param", "Foo"], "NAME=VALUE"),
    (["--core", "dsp_redundant", "--width", "64", "--param", "R1=40"], "R2 <= R1"),
])
def test_bad_arguments(capsys, argv, needle):
    """Refused before any build: one line, status 2."""
    code = cli.main(["verify", *argv])
    err = capsys.readouterr().err
    assert code == EXIT_USAGE and needle in err and err.count("\n") == 1, err
