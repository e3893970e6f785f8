# SPDX-License-Identifier: Apache-2.0
"""Prove every registered core, mm_modexp and mm_modexp_crt (make formal): for each, the
handshake properties by k-induction and every property (function, range,
latency bound) by BMC, at the width given (default 3), one run at a time.
Besides each core's default formal parameters, the parameter sets of
VARIANTS run too (the interleaved mm_dsp_redundant: Interleave 2 and 3, on
the shell mm_req_pipe).  Prints one line per run and a Markdown table
(docs/formal.md) at the end; writes build/formal/summary.json.  Exit status
1 if a property failed
(FAIL) or a run did not finish (ERROR, TIMEOUT); an induction that does not
close (UNKNOWN: not proved, no counterexample from reset) is reported in the
table and in docs/formal.md's limits, but does not fail the sweep.

The runs go through montmul's executor (montmul.flows.executor): one at a
time here by default, ``--jobs N`` side by side, or on Dask with
``--scheduler ADDRESS`` / ``--cluster local:N`` (docs/cluster.md).  A run on
a Dask worker gets the RTL it reads as a bundle and returns its verdict, its
``sby.out`` log and any counterexample trace as data; this machine files
them in ``build/formal/<run>/`` where a local run leaves them, so the
summary, the table and the trace paths are the same wherever the runs went."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from montmul import cores, progress
from montmul.flows import executor as sweep
from montmul.flows import formal

#: Parameter sets run besides each core's defaults (``--param``): the
#: interleaved configurations of mm_dsp_redundant keep 2 or 3 products in
#: flight on another shell (mm_req_pipe), so they are proved on their own.
VARIANTS: dict[str, list[dict[str, int]]] = {
    "dsp_redundant": [{"Interleave": 2}, {"Interleave": 3}],
    "dsp_redundant_ecp5": [{"Interleave": 2}, {"Interleave": 3}],
}


def _error_result(job: formal.Job, message: str) -> formal.FormalResult:
    """The row of a run that could not start (a tool missing, a worker of
    other code): status ERROR, the reason as its failing item."""
    return formal.FormalResult(
        target=job.target if job.target not in formal.ENGINES else f"{job.target}({job.inner})",
        width=job.width, params=dict(job.params), mode=job.mode, depth=job.depth, solver=job.solver,
        status="ERROR", seconds=0.0, workdir=str(formal.formal_root() / job.name), failed=[message])


def _run_local(job: formal.Job) -> formal.FormalResult:
    try:
        return formal.run(job)
    except formal.FormalError as exc:
        return _error_result(job, str(exc))


def _run_remote(job: formal.Job, bundle) -> dict:
    """A Dask task: run ``job`` on this worker with the client's RTL
    (``bundle``) and return its result and the files a local run leaves for
    its reader (``sby.out``, the counterexample trace) as data, named
    relative to the run's folder; ``{"error"}`` when the run cannot start."""
    try:
        with sweep.use_bundle(bundle):
            res = formal.run(job)
    except (formal.FormalError, sweep.WorkerMismatch) as exc:
        return {"error": f"worker {sweep.worker_name()}: {exc}"}
    d = Path(res.workdir)
    files = {}
    for p in [d / "sby.out", *([Path(res.trace)] if res.trace else [])]:
        if p.is_file() and p.resolve().is_relative_to(d.resolve()):
            files[p.resolve().relative_to(d.resolve()).as_posix()] = p.read_bytes()
    return {"result": asdict(res), "files": files}


def _file_remote(job: formal.Job, out: dict) -> formal.FormalResult:
    """File a worker's run under this machine's ``build/formal/<run>/`` as a
    local run leaves it; its result with the paths of this machine."""
    if "error" in out:
        return _error_result(job, out["error"])
    r = dict(out["result"])
    here, there = formal.formal_root() / job.name, Path(r["workdir"])
    for name, data in out["files"].items():
        if ".." in Path(name).parts or Path(name).is_absolute():
            raise ValueError(f"formal run {job.name}: a returned file {name!r} is not a relative path")
        (here / name).parent.mkdir(parents=True, exist_ok=True)
        (here / name).write_bytes(data)
    r["workdir"] = str(here)
    if r["trace"] and Path(r["trace"]).is_relative_to(there):
        r["trace"] = str(here / Path(r["trace"]).relative_to(there))
    return formal.FormalResult(**r)


def run_jobs(jobs: list[formal.Job], executor: sweep.Executor, echo=None) -> list[formal.FormalResult]:
    """Run formal ``jobs`` on ``executor``; the results in the order of
    ``jobs``.  ``echo(index, result)`` is called as each run finishes."""
    results: list[formal.FormalResult | None] = [None] * len(jobs)
    if not executor.remote:
        # the solver shims and the YoWASP caches, once, before runs share them
        for solver in dict.fromkeys(job.solver for job in jobs):
            try:
                formal.warm(solver)
            except formal.FormalError:
                pass  # each run reports it as its ERROR row
    if executor.remote:
        bundle = executor.ship(f for job in jobs for f in formal.sources(job))
        items, fn = [(job, bundle) for job in jobs], _run_remote
    else:
        items, fn = [(job,) for job in jobs], _run_local
    for i, ok, out in executor.map(fn, items, "formal runs", unit="run", local="thread", name="montmul-formal"):
        if not ok:
            res = _error_result(jobs[i], out)
        elif executor.remote:
            res = _file_remote(jobs[i], out)
        else:
            res = out
        results[i] = res
        if echo:
            echo(i, res)
    return results  # type: ignore[return-value]


def _line(res: formal.FormalResult, params: dict[str, int]) -> str:
    """One run's line (``params``: the sweep's parameters of the run, beside the defaults)."""
    ps = " ".join(f"{k}={v}" for k, v in params.items())
    return (f"{res.target:22} k={res.width} {ps:12} {res.mode:5} depth {res.depth:3} {res.status:7} "
            f"{res.seconds:8.1f} s {' '.join(res.failed)} {res.trace or ''}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m montmul.apps.formal_sweep", description=__doc__.split("\n\n")[0])
    ap.add_argument("--width", type=int, default=3)
    ap.add_argument("--core", default="all", help="comma-separated targets or 'all'")
    ap.add_argument("--mode", default="prove,bmc")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per run")
    ap.add_argument("--solver", default=formal.DEFAULT_SOLVER)
    ap.add_argument("--jobs", type=int, default=1, help="runs side by side on this machine (default: 1)")
    sweep.add_arguments(ap)
    args = ap.parse_args(argv)
    names = list(cores.CORES) + list(formal.ENGINES) if args.core == "all" else args.core.split(",")
    runs = [(name, params) for name in names for params in [{}, *VARIANTS.get(name, [])]]
    try:
        if args.jobs < 1:
            raise ValueError(f"--jobs must be at least 1, got {args.jobs}")
        todo = [(name, params, mode) for name, params in runs for mode in args.mode.split(",")]
        jobs = [formal.make_job(name, args.width, mode, solver=args.solver, timeout=args.timeout, params=params)
                for name, params, mode in todo]
    except (KeyError, ValueError) as exc:
        print(f"{ap.prog}: error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    progress.enable()
    try:
        with sweep.from_args(args, args.jobs) as ex:
            results = run_jobs(jobs, ex, echo=lambda i, r: print(_line(r, todo[i][1]), flush=True))
    except (sweep.ClusterError, ValueError) as exc:
        print(f"{ap.prog}: error: {exc}", file=sys.stderr)
        return 4 if isinstance(exc, sweep.ClusterError) else 2
    except KeyboardInterrupt:
        print(f"{ap.prog}: interrupted", file=sys.stderr)
        return 130
    formal.formal_root().mkdir(parents=True, exist_ok=True)
    (formal.formal_root() / "summary.json").write_text(json.dumps([r.as_json() for r in results], indent=2))
    print()
    print("| core | width | parameters | k-induction (handshake) | s | BMC (all properties) | s |")
    print("|---|---|---|---|---|---|---|")
    by = {}
    for r in results:
        by.setdefault((r.target, r.width, tuple(sorted(r.params.items()))), {})[r.mode] = r
    for (target, width, _), rs in by.items():
        any_r = next(iter(rs.values()))
        ps = ", ".join(f"{k}={v}" for k, v in sorted(any_r.params.items()) if k not in ("Width", "CheckRange"))
        cells = []
        for mode in ("prove", "bmc"):
            r = rs.get(mode)
            if r is None:
                cells += ["-", "-"]
                continue
            verdict = {"PASS": "proved" if mode == "prove" else f"pass, depth {r.depth}"}.get(
                r.status, f"{r.status} (depth {r.depth})")
            if r.status == "TIMEOUT" and r.reached is not None:
                verdict = f"TIMEOUT, no failure to step {r.reached} of {r.depth}"
            if mode == "prove" and r.status == "PASS":
                verdict += f" (depth {r.depth})"
            cells += [verdict, f"{r.seconds:.0f}"]
        print(f"| `{target}` | {width} | {ps or '-'} | " + " | ".join(cells) + " |")
    bad = [r for r in results if r.status not in ("PASS", "UNKNOWN")]
    open_ = [r for r in results if r.status == "UNKNOWN"]
    print(f"\n{len(results)} runs: {len(results) - len(bad) - len(open_)} passed, {len(open_)} not proved "
          f"(induction open), {len(bad)} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
