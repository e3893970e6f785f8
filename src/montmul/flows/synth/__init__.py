# SPDX-License-Identifier: Apache-2.0
"""Synthesis flows for the registered cores: ECP5 (Yosys + nextpnr), ASIC
(Yosys + ABC to the OSU 0.18 um library, OpenSTA) and Xilinx 7 series
(Yosys resource counts).

    from montmul.flows.synth import Job, synth, run_many
    r = synth(Job("scs_new", 64, "asic"))
    r["area_um2"], r["delay_ps"], r["delay_fa"], r["startpoint"], r["endpoint"]
    rs = run_many([Job(c, k, t) for c in ("r2_basic", "scs_new") for k in (16, 64)
                   for t in ("ecp5", "asic", "xilinx")])

Every result is cached as JSON in ``build/synth/cache/`` (finished results
are also kept in git in ``syn/results/``, read after the build cache:
:mod:`montmul.flows.synth.store`), keyed by the core,
all its HDL parameters, the target, the flow options, the tool versions, and
the SHA-256 of the RTL files, the ``syn/`` templates and the flow code
(``flows.py``, ``parse.py``; :data:`FLOW_VERSION` for the rest): unchanged
work is never redone, and any change that could alter a result reruns it.  The tools' files of each run stay in
``build/synth/work/<core>_w<k>_<target>_<key>/`` (logs, netlists, reports).

Every result has ``instances``: the cost of the top and of every submodule
instance (its whole subtree), from a second, hierarchical Yosys run
(``docs/synthesis.md``); :func:`instance_costs` selects instances, e.g. a
processing element's own cost:

    instance_costs(r, "mm_sys_pe")          # every instance of a module
    instance_costs(r, "*/gen_pe[0].u_pe")   # one instance, by its path

Derived figures (time, throughput, ATP) as paper 000 defines them:
:mod:`montmul.flows.synth.figures`.
"""

from __future__ import annotations

import contextlib
import fnmatch
import hashlib
import json
import os
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ... import cores, design, resources
from ... import progress as bars
from . import flows, tools, tuning
from .figures import derived, figures
from .flows import DEFAULTS, TARGETS
from .tools import ToolError

__all__ = [
    "Job", "synth", "run_many", "cache_key", "derived", "figures", "instance_costs", "carry_chains",
    "TARGETS", "DEFAULTS", "ToolError", "BUILD",
]

def __getattr__(name: str) -> Path:
    if name == "BUILD":
        return resources.build_root() / "synth"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def default_build() -> Path:
    """Default build directory (results cache and work directories):
    ``<build folder>/synth`` (montmul.resources.build_root); the environment
    variable MONTMUL_SYNTH_DIR overrides it (the YoWASP tools cannot see
    /tmp, so keep it under the current directory)."""
    env = os.environ.get("MONTMUL_SYNTH_DIR")
    return Path(env).resolve() if env else resources.build_root() / "synth"


#: Bumped when the meaning of a cached result changes without any hashed
#: file (RTL, syn/ templates, flows.py, parse.py) changing, e.g. a new key
#: assembled in synth() below.  2: RTL hashed as montmul.flows.synth.flows.rtl_text
#: (comments and MM_FORMAL blocks do not count).
FLOW_VERSION = 2


@dataclass(frozen=True)
class Job:
    """One synthesis run: a core at a width for a target.  ``params`` are
    extra HDL parameters (the core's defaults and fixed overrides apply
    otherwise); ``options`` override the target's flow options
    (:data:`DEFAULTS`, then for ECP5 the registry's options for the width
    and for an engine, :func:`montmul.flows.synth.tuning.ecp5_options`).  ``engine``: synthesize the exponentiation engine
    ``mm_modexp`` around the core (its generated wrapper,
    :func:`montmul.design.core_wrapper`) instead of the core alone."""

    core: str
    width: int
    target: str
    params: dict[str, int] = field(default_factory=dict)
    options: dict[str, object] = field(default_factory=dict)
    engine: bool | str = False

    @property
    def engine_kind(self) -> str:
        """"" (the core alone), "modexp", "crt" or "regs" (the core between
        registers, :data:`montmul.design.REGS_RTL`)."""
        kind = {False: "", True: "modexp", "": "", "modexp": "modexp", "crt": "crt", "regs": "regs"}.get(self.engine)
        if kind is None:
            raise ValueError(f"unknown engine {self.engine!r}; use modexp, crt or regs")
        return kind

    def resolve(self) -> tuple[cores.Core, dict[str, int], dict[str, object]]:
        if self.target not in TARGETS:
            raise ValueError(f"unknown target {self.target!r}; use one of {', '.join(TARGETS)}")
        core = cores.lookup(self.core)
        hdl = core.hdl_params(self.width, **self.params)
        flows.check_options(self.target, self.options)
        engine = self.engine_kind in ("modexp", "crt")  # "regs" takes the core's own flow options
        width_opts = tuning.ecp5_options(core, self.width, engine=engine) if self.target == "ecp5" else {}
        opts = {**DEFAULTS[self.target], **width_opts, **self.options}
        return core, hdl, opts

    def design(self, build: Path | None = None) -> tuple[object, dict[str, int]]:
        """What Yosys reads: the core, or (``engine``) its design of that kind
        (:func:`montmul.design.build`: mm_modexp, mm_modexp_crt or
        mm_core_regs on the core's generated wrapper, written under
        ``<build>/engine/``), with the top's HDL parameters."""
        core, hdl, _ = self.resolve()
        kind = self.engine_kind
        if not kind:
            return core, hdl
        # The wrapper's folder is named after the core's own parameters (it is
        # part of the cache key: GENERATED), with a suffix for mm_core_regs,
        # which wraps the core as registered (its own checks on).
        tag = design.param_tag({k: v for k, v in hdl.items() if k != "Width"})
        folder = (build or default_build()) / "engine" / f"{core.name}_{tag}{'_regs' if kind == 'regs' else ''}"
        d = design.build(kind, core, self.params or None, folder)
        return d, {"Width": self.width}


def parse_option_value(text: str) -> int | float | str:
    """A flow option's value as ``montmul synth --option O=V`` reads it: an
    integer, else a float, else the text (so equal options give equal cache
    keys wherever they are read)."""
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def parse_flow_options(items: list[str], target: str, flag: str = "--option") -> dict[str, object]:
    """``flag O=V`` items as a flow-option dict for ``target``, each value
    read by :func:`parse_option_value` (so the cache keys match
    ``montmul synth --option``'s); ValueError for a malformed item or an
    option the target's flow does not have."""
    known = flows.known_options(target)
    out: dict[str, object] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise ValueError(f"{flag} takes NAME=VALUE, got {item!r}")
        if name not in known:
            raise ValueError(f"{flag}: the {target.upper()} flow has no option {name!r} "
                             f"(it has {', '.join(sorted(known))})")
        out[name] = parse_option_value(value)
    try:
        flows.check_options(target, out)
    except ValueError as exc:
        raise ValueError(f"{flag}: {exc}") from None
    return out


#: How a hashed file under the build folder (an engine's generated core
#: wrapper) is named in the key: by its own folder and name, so the key does
#: not depend on where the build folder is.
GENERATED = "generated/"


def _hashes(paths, digest=flows.sha256_file) -> dict[str, str]:
    root = resources.data_root().resolve()
    build = default_build()
    out = {}
    for p in paths:
        path = Path(p).resolve()
        name = (f"{GENERATED}{path.parent.name}/{path.name}" if path.is_relative_to(build)
                else os.path.relpath(path, root))
        out[name] = digest(path)
    return out


def cache_key(job: Job) -> tuple[str, dict]:
    """The cache key of ``job`` and the data it hashes."""
    core, hdl, opts = job.resolve()
    design, _ = job.design()
    flow_files = [flows.SYN / f for f in flows.FLOW_FILES[job.target]]
    flow_files += [Path(flows.__file__), Path(flows.parse.__file__)]  # script generation and parsing
    data = {
        "flow_version": FLOW_VERSION,
        "core": core.name,
        "top": design.top,
        "width": job.width,
        "params": dict(sorted(hdl.items())),
        "target": job.target,
        "options": opts,
        "tools": tools.versions(job.target),
        "rtl": _hashes(flows.rtl_files(design), flows.rtl_digest),  # what synthesis reads: no comments, no MM_FORMAL
        "flow_files": _hashes(flow_files),
    }
    if job.target == "asic":
        data["liberty"] = flows.sha256_file(flows.liberty_path(opts))
    if design.synth_defines.get(job.target):
        data["defines"] = list(design.synth_defines[job.target])
    if job.engine_kind:
        data["engine"] = True if job.engine_kind == "modexp" else job.engine_kind
    key = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:24]
    return key, data


def work_dir(job: Job, build_dir: Path | str | None = None, key: str | None = None) -> Path:
    """The job's work directory (tool scripts, logs, netlists of its last
    run); ``key``: the job's cache key when the caller has it already."""
    build = Path(build_dir).resolve() if build_dir else default_build()
    key = key or cache_key(job)[0]
    design, _ = job.design(build)
    return build / "work" / f"{design.name}_w{job.width}_{job.target}_{key[:12]}"


def result_dir(job: Job, result: dict, build_dir: Path | str | None = None) -> Path:
    """Where ``result`` of ``job`` was made (its tool scripts, logs and
    netlists): the folder it records when that still exists (a result
    re-filed under a new key, ``montmul.flows.synth.store rekey``, keeps its old
    folder), else the job's work directory (under ``build_dir``)."""
    rel = result.get("work_dir")
    if rel and (resources.data_root() / rel).is_dir():
        return resources.data_root() / rel
    return work_dir(job, build_dir)


def _cache_file(build: Path, key: str) -> Path:
    return build / "cache" / f"{key}.json"


def _hit(build: Path, key: str) -> Path | None:
    """Where a finished result of ``key`` is: the build's cache, else the
    tracked store (:func:`montmul.flows.synth.store.store_dir`), else None."""
    from . import store

    for path in (_cache_file(build, key), store.entry(key)):
        if path is not None and path.is_file():
            return path
    return None


def _load(found: Path) -> dict:
    result = json.loads(found.read_text())
    result["cached"] = True
    return result


def synth(job: Job, build_dir: Path | str | None = None, force: bool = False) -> dict:
    """Run (or fetch from the cache) one synthesis job; returns the parsed
    figures as a dict, with ``cached`` telling whether it came from the cache.
    Raises ToolError when a tool is missing or fails.  An ECP5 run that does
    not fit the device or runs past its time budget is a result, not an
    exception: ``status`` "does_not_fit" or "timed_out", ``error`` saying
    so, ``fmax_mhz`` None; it is cached like any result, so a report never
    redoes it (``force`` or a larger ``budget_s`` does)."""
    build = Path(build_dir).resolve() if build_dir else default_build()
    tools.check(job.target)
    key, data = cache_key(job)
    found = _hit(build, key)
    if found is not None and not force:
        return _load(found)
    result = _execute(job, build, key, data)
    _file(build, key, result)
    result["cached"] = False
    return result


def _execute(job: Job, build: Path, key: str, data: dict) -> dict:
    """Run the tools of ``job`` in its work directory under ``build``; the
    result as synth() files it (``key`` and ``data``: its cache key and the
    data hashed into it)."""
    core, _, opts = job.resolve()
    design, hdl = job.design(build)
    work_root = build / "work"
    cwd = work_dir(job, build, key)
    if cwd.exists():
        shutil.rmtree(cwd)
    cwd.mkdir(parents=True)
    (build / "cache").mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    if job.target == "ecp5":
        figs = flows.run_ecp5(design, hdl, opts, cwd)
    elif job.target == "asic":
        figs = flows.run_asic(design, hdl, opts, cwd, build / "cache", work_root)
    else:
        figs = flows.run_xilinx(design, hdl, opts, cwd)
    seconds = figs.pop("seconds")
    seconds["total"] = round(time.monotonic() - t0, 2)
    return {
        "core": core.name,
        "top": design.top,
        "width": job.width,
        "target": job.target,
        "engine": job.engine_kind or False,
        "params": data["params"],
        "options": opts,
        "tools": data["tools"],
        "key": key,
        "hashes": {"rtl": data["rtl"], "flow_files": data["flow_files"]},
        **figs,
        "seconds": {k: round(v, 2) for k, v in seconds.items()},
        "work_dir": os.path.relpath(cwd, resources.data_root()),
    }


def _file(build: Path, key: str, result: dict) -> None:
    """File ``result`` in the build's cache under ``key`` (atomically)."""
    hit = _cache_file(build, key)
    hit.parent.mkdir(parents=True, exist_ok=True)
    tmp = hit.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(json.dumps(result, indent=1, sort_keys=False))
    os.replace(tmp, hit)


def instance_costs(result: dict, pattern: str = "*") -> dict[str, dict]:
    """The instances of a synthesis result whose hierarchical path
    (``top/inst/...``) or module name matches the glob ``pattern``:
    ``{path: {"module", "luts", "ff", "carry", "dsp", "bram"}}`` (ASIC:
    ``{"module", "area_um2", "ff", "cells"}``), each the cost of the
    instance's whole subtree, in hierarchy order.  ValueError for a failed
    result or one without a breakdown (a cache entry of an older flow)."""
    if "error" in result:
        raise ValueError(f"{result.get('core')} w{result.get('width')} {result.get('target')}: no breakdown "
                         f"(the run failed: {result['error']})")
    if "instances" not in result:
        raise ValueError(f"{result.get('core')} w{result.get('width')} {result.get('target')}: no per-instance "
                         "breakdown in this result")
    return {p: dict(v) for p, v in result["instances"].items()
            if fnmatch.fnmatchcase(p, pattern) or fnmatch.fnmatchcase(v["module"], pattern)}


def carry_chains(core: str, width: int, params: dict[str, int] | None = None, seg_width: int | None = None,
                 build_dir: Path | str | None = None) -> list[dict]:
    """The ECP5 carry chains (CCU2C cells linked COUT -> CIN) of ``core`` at
    ``width`` after Yosys' mapping, longest first: ``[{"cells", "bits",
    "src"}, ...]`` where ``src`` is the RTL line of the chain's first cell.
    ``seg_width`` overrides mm_seg_add's SegWidth, so that a small width
    already tells segmented adders from long chains.  Yosys only (seconds),
    not cached."""
    tools.check("ecp5")
    c = cores.lookup(core)
    hdl = c.hdl_params(width, **(params or {}))
    build = Path(build_dir).resolve() if build_dir else default_build()
    cwd = build / "chains" / f"{c.name}_w{width}_s{seg_width}_{os.getpid()}"
    if cwd.exists():
        shutil.rmtree(cwd)
    cwd.mkdir(parents=True)
    return flows.carry_chains(c, hdl, cwd, seg_width)


def cached(job: Job, build_dir: Path | str | None = None) -> dict | None:
    """The cached result of ``job``, or None when the cache does not hold it
    (never runs a tool)."""
    build = Path(build_dir).resolve() if build_dir else default_build()
    found = _hit(build, cache_key(job)[0])
    return None if found is None else _load(found)


def _run_one(job: Job, build: str | None, force: bool) -> dict:
    """A local task: synth() (it files its result in the cache itself)."""
    try:
        return synth(job, build, force)
    except (ToolError, ValueError, KeyError) as exc:
        return _failed(job, exc)


def _failed(job: Job, exc: BaseException | str) -> dict:
    return {"core": job.core, "width": job.width, "target": job.target, "error": str(exc)}


def ship_files(job: Job) -> list[Path]:
    """The files under the data root that ``job``'s tools read: the RTL the
    cache key hashes and the target's ``syn/`` templates (an engine's
    generated wrapper is made again on the worker, and checked by its
    hash)."""
    design, _ = job.design()
    root = resources.data_root().resolve()
    files = [flows.SYN / f for f in flows.FLOW_FILES[job.target]] + flows.rtl_files(design)
    return [p for p in files if Path(p).resolve().is_relative_to(root)]


def _comparable(data: dict) -> dict:
    """Key data as a worker and the client can compare it: the flow's Python
    files by name alone (their path relative to the data root depends on
    how montmul is installed)."""
    return {**data, "flow_files": {(Path(n).name if n.endswith(".py") else n): h
                                   for n, h in data["flow_files"].items()}}


def _run_remote(job: Job, key: str, data: dict, bundle) -> dict:
    """A Dask task: run ``job`` on this worker with the client's files
    (``bundle``, :func:`montmul.flows.executor.use_bundle`) and return its
    result as data (the client files it).  The worker first computes the
    job's key data itself: a worker whose tools, flow code or generated
    wrapper differ from the client's gives an error row, not a result under
    the client's key."""
    from ..executor import WorkerMismatch, use_bundle, worker_name

    try:
        with use_bundle(bundle):
            tools.check(job.target)
            mine, theirs = _comparable(cache_key(job)[1]), _comparable(data)
            diff = sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
            if diff:
                return _failed(job, f"worker {worker_name()}: its {', '.join(diff)} differ from the client's "
                                    "(install the same montmul and tools on the workers)")
            return _execute(job, default_build(), key, data)
    except (ToolError, ValueError, KeyError, WorkerMismatch) as exc:
        return _failed(job, exc)


def run_many(
    jobs: list[Job],
    workers: int | None = None,
    build_dir: Path | str | None = None,
    force: bool = False,
    on_error: str = "raise",
    progress=None,
    executor=None,
) -> list[dict]:
    """Run ``jobs`` in parallel (cache hits without starting any); results
    in the order of ``jobs``.  ``executor``: where they run
    (:class:`montmul.flows.executor.Executor`: a Dask cluster, or by default
    ``workers`` local processes).  A result made on a Dask worker is filed in
    this machine's cache by the same key, as the same JSON, as a local run's.
    With ``on_error="return"`` a failed job
    gives ``{"core", "width", "target", "error"}`` instead of raising, and a
    run that did not fit or timed out its result with ``error`` (synth()).
    ``progress(job, result)`` is called as each job finishes."""
    from ..executor import Executor

    if on_error not in ("raise", "return"):
        raise ValueError("on_error must be 'raise' or 'return'")
    for t in {j.target for j in jobs}:
        tools.check(t)
    results: list[dict | None] = [None] * len(jobs)
    pending: dict[str, list[int]] = {}
    keys: dict[str, dict] = {}
    errors: list[dict] = []
    build = str(build_dir) if build_dir else None
    build_path = Path(build).resolve() if build else default_build()
    for i, job in enumerate(jobs):
        key, data = cache_key(job)
        found = _hit(build_path, key)
        if found is not None and not force:
            results[i] = _load(found)
            if "error" in results[i]:  # type: ignore[operator]
                errors.append(results[i])
            if progress:
                progress(job, results[i])  # type: ignore[arg-type]
        else:
            pending.setdefault(key, []).append(i)
            keys[key] = data
    if pending:
        order = list(pending)
        with contextlib.ExitStack() as stack:
            ex = executor or stack.enter_context(Executor(jobs=workers or min(len(order), os.cpu_count() or 1)))
            if ex.remote:
                bundle = ex.ship(p for k in order for p in ship_files(jobs[pending[k][0]]))
                items = [(jobs[pending[k][0]], k, keys[k], bundle) for k in order]
                fn = _run_remote
            else:
                items = [(jobs[pending[k][0]], build, force) for k in order]
                fn = _run_one
            with bars.phase("synthesize"):
                for n, ok, res in ex.map(fn, items, "synthesis", unit="job", name="montmul-synth"):
                    key = order[n]
                    job = jobs[pending[key][0]]
                    if not ok:
                        res = _failed(job, res)
                    elif ex.remote and ("error" not in res or "status" in res):
                        # made on a worker: file it here as a local run would have
                        res["work_dir"] = os.path.relpath(work_dir(job, build_path, key), resources.data_root())
                        _file(build_path, key, res)
                        res["cached"] = False
                    if "error" in res:
                        errors.append(res)
                    for i in pending[key]:
                        results[i] = res
                    if progress:
                        progress(job, res)
    if errors and on_error == "raise":
        msg = "; ".join(f"{e['core']} w{e['width']} {e['target']}: {e['error']}" for e in errors)
        raise ToolError(f"{len(errors)} synthesis job(s) failed: {msg}")
    return results  # type: ignore[return-value]
