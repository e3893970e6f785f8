# SPDX-License-Identifier: Apache-2.0
"""Build a registered core and run cocotb test modules on it.

One build directory per (simulator, core, HDL parameters), so parallel
pytest workers never share one and repeated runs reuse the build.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import fcntl
import json
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ... import progress, resources
from ...cores import Core

SIMULATORS = ("icarus", "verilator")


def tools_path() -> str:
    """PATH with the project's tools folder and venv first (montmul.resources)."""
    return resources.tools_path()


def build_root() -> Path:
    """Simulator builds: ``<build folder>/sim`` (montmul.resources.build_root)."""
    return resources.build_root() / "sim"


def param_tag(params: dict[str, int]) -> str:
    """Parameters as a folder-name fragment: ``CheckRange1_Width64``."""
    return "_".join(f"{k}{v}" for k, v in sorted(params.items()))


#: Environment variable: 1 builds Verilator with line and toggle coverage
#: (``--coverage-line --coverage-toggle``, in ``<build>/sim/verilator_cov/``)
#: and writes one ``coverage_<test>.dat`` per run into the build folder
#: (``montmul.flows.sim.coverage``, ``make coverage``).
COVERAGE_ENV = "MONTMUL_COVERAGE"


def coverage_on(sim: str) -> bool:
    return sim == "verilator" and os.environ.get(COVERAGE_ENV, "") not in ("", "0")


def build_dir(core: Core, sim: str, params: dict[str, int]) -> Path:
    folder = sim + ("_cov" if coverage_on(sim) else "")
    return build_root() / folder / f"{core.name}_{param_tag(params)}"


def _prepare(core: Core, sim: str, width: int, params: dict[str, int] | None):
    if sim not in SIMULATORS:
        raise ValueError(f"unknown simulator {sim!r}; use one of {', '.join(SIMULATORS)}")
    resources.setup_tool_env()
    hdl = core.hdl_params(width, **(params or {}))
    return hdl, build_dir(core, sim, hdl)


def build(core: Core, sim: str, width: int, params: dict[str, int] | None = None, waves: bool = False) -> Path:
    """Build ``core`` at ``width`` for ``sim`` (reused when up to date)."""
    hdl, bdir = _prepare(core, sim, width, params)
    build_args: list[str] = []
    if sim == "verilator":
        build_args = [
            "-Wno-fatal", "-Werror-USERFATAL", "-O3", "--x-assign", "fast", "--x-initial", "fast",
        ]
        # cocotb runs `make -f Vtop.mk` itself; variable definitions in
        # MAKEFLAGS act as command-line overrides.  The PyPI wheel's
        # verilated.mk leaves the precompiled-header include flag empty, which
        # breaks every model split over several C++ files (wide cores).
        os.environ["MAKEFLAGS"] = "CFG_CXXFLAGS_PCH_I=-include OPT_FAST=-O2"
        if coverage_on(sim):
            build_args += ["--coverage-line", "--coverage-toggle"]
    bdir.mkdir(parents=True, exist_ok=True)
    # Parallel pytest workers and CLI runs may ask for the same build: one
    # builds, the others wait and then find it up to date.
    with _locked(bdir, fcntl.LOCK_EX), progress.phase("build"), \
            progress.Bar(None, f"{sim} build of {core.name} (width {width})", unit="s"):
        _build(core, sim, hdl, bdir, build_args, waves)
    return bdir


@contextlib.contextmanager
def _locked(bdir: Path, mode: int):
    """Hold the build directory's lock: exclusive to build, shared to run a
    simulation, so no build replaces a simulator a test is running."""
    with open(bdir / ".lock", "a") as lock:
        fcntl.flock(lock, mode)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _build(core: Core, sim: str, hdl: dict[str, int], bdir: Path, build_args: list[str], waves: bool) -> None:
    from cocotb_tools.runner import get_runner

    get_runner(sim).build(
        sources=[str(p) for p in core.sources()],
        hdl_toplevel=core.top,
        includes=[str(p) for p in core.includes()],
        parameters=hdl,
        build_dir=str(bdir),
        build_args=build_args,
        timescale=("1ns", "1ps"),
        waves=waves,
        log_file=str(bdir / "build.log"),
    )


def run(
    core: Core,
    sim: str,
    width: int,
    test_module: str,
    test_dir: Path,
    extra_env: dict[str, str] | None = None,
    testcase: str | None = None,
    params: dict[str, int] | None = None,
    waves: bool = False,
    tag: str = "",
    build_first: bool = True,
) -> Path:
    """Build ``core`` at ``width`` for ``sim`` and run ``test_module``.

    Returns the results.xml path.  Raises if any cocotb test failed.
    """
    from cocotb_tools.check_results import get_results

    hdl, bdir = _prepare(core, sim, width, params)
    if build_first:
        build(core, sim, width, params, waves)
    test_dir = Path(test_dir)
    test_dir.mkdir(parents=True, exist_ok=True)
    env = {
        "MONTMUL_IN_SIM": "1",
        "MONTMUL_CORE": core.name,
        "MONTMUL_WIDTH": str(width),
        "MONTMUL_PARAMS": json.dumps(hdl),
        "PYTHONPATH": os.pathsep.join(
            [str(test_dir), resources.python_path(), os.environ.get("PYTHONPATH", "")]
        ),
    }
    env.update(extra_env or {})
    name = test_module.rsplit(".", 1)[-1] + (f"_{tag}" if tag else "")
    log = bdir / f"{name}.log"
    with _locked(bdir, fcntl.LOCK_SH):
        results = _test(sim, core, testcase, bdir, test_dir, env, waves, name, log, test_module)
    _, failed = get_results(Path(results))
    if failed:
        raise AssertionError(f"{failed} cocotb test(s) failed; see {log}")
    return Path(results)


def _test(sim, core, testcase, bdir, test_dir, env, waves, name, log, test_module):
    from cocotb_tools.runner import get_runner

    plusargs = [f"+verilator+coverage+file+{bdir / ('coverage_' + name + '.dat')}"] if coverage_on(sim) else []
    return get_runner(sim).test(
        test_module=test_module,
        plusargs=plusargs,
        hdl_toplevel=core.top,
        hdl_toplevel_lang="verilog",
        testcase=testcase,
        build_dir=str(bdir),
        test_dir=str(test_dir),
        extra_env=env,
        waves=waves,
        results_xml=str(bdir / f"results_{name}.xml"),
        log_file=str(log),
    )


def _stop_children() -> None:
    """SIGTERM to this process's own child processes (the simulators it started)."""
    import signal

    for task in Path(f"/proc/{os.getpid()}/task").glob("*/children"):
        try:
            pids = [int(p) for p in task.read_text().split()]
        except OSError:
            continue
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)


def _done_count(path: Path) -> int:
    """Requests a batch shard reports done (its progress file), 0 before it starts."""
    try:
        return int(path.read_text() or 0)
    except (OSError, ValueError):
        return 0


def run_batch(
    core: Core,
    sim: str,
    width: int,
    kind: str,
    requests: list[list[int]],
    procs: int = 1,
    params: dict[str, int] | None = None,
    extra_env: dict[str, str] | None = None,
) -> list[list[int]]:
    """Drive every request of ``requests`` through one build of ``core`` with
    the batch driver ``kind`` (:mod:`montmul.flows.sim.batch`); returns one response
    row per request, in order.  Builds once, then runs ``procs`` simulator
    processes in parallel on shards of the requests."""
    if not requests:
        return []
    build(core, sim, width, params)
    procs = max(1, min(procs, len(requests)))
    shards = [requests[i::procs] for i in range(procs)]
    with tempfile.TemporaryDirectory(prefix="montmul_") as tmp:
        tmpd = Path(tmp)

        def one(idx: int) -> list[list[int]]:
            vin, vout = tmpd / f"in{idx}.json", tmpd / f"out{idx}.json"
            vin.write_text(json.dumps([[hex(v) for v in req] for req in shards[idx]]))
            env = {"MONTMUL_BATCH_KIND": kind, "MONTMUL_BATCH_IN": str(vin), "MONTMUL_BATCH_OUT": str(vout),
                   "MONTMUL_BATCH_PROGRESS": str(tmpd / f"done{idx}")}
            env.update(extra_env or {})
            run(core, sim, width, test_module="montmul.flows.sim.batch", test_dir=tmpd / f"shard{idx}",
                extra_env=env, params=params, tag=f"shard{idx}", build_first=False)
            return [[int(v, 16) for v in row] for row in json.loads(vout.read_text())]

        with progress.phase("simulate"), \
                progress.Bar(len(requests), f"{sim}: {core.name} width {width}", unit="req") as bar:
            with ThreadPoolExecutor(procs) as pool:
                futs = [pool.submit(one, i) for i in range(procs)]
                try:
                    while not all(f.done() for f in futs):
                        if bar.active:
                            bar.set(sum(_done_count(tmpd / f"done{i}") for i in range(procs)))
                        concurrent.futures.wait(futs, timeout=0.5)
                except KeyboardInterrupt:
                    # Ctrl-C: the simulators run in worker threads, which never see it
                    # (and Icarus answers SIGINT with an interactive prompt): stop them.
                    _stop_children()
                    raise
                parts = [f.result() for f in futs]
            bar.set(len(requests))
    out: list[list[int]] = [[] for _ in requests]
    for i, part in enumerate(parts):
        out[i::procs] = part
    return out
