# SPDX-License-Identifier: Apache-2.0
"""``montmul report``: cycles, area, delay and FPGA resources of every
registered core, beside the source papers' published numbers.

    from montmul.apps.report import results
    data = results.build(widths=(1024, 2048), fpga_widths=(256, 1024, 2048))
    results.write(data, out_dir)          # results.md, results.json, figures/*.png

Rows follow paper 000's Table III (:data:`montmul.apps.report.table3.ROWS`: one
row per design and parameter set); cores of the registry that no row names
get a row of their own, so a new core shows up without editing this file.
Cycles come from the cycle-exact models (every RTL bench checks each latency
against them) over random operands; synthesis through
:mod:`montmul.flows.synth` (cached, parallel).  Both caches make a second run
cheap.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import json
import os
import time
from dataclasses import dataclass, field

from ... import cores, progress, resources
from ...flows import synth
from . import papers
from .table3 import FCS1_LABEL, ROWS


def __getattr__(name: str):
    if name == "CACHE":  # model statistics cache: <build folder>/report
        return resources.build_root() / "report"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Design:
    label: str
    core: str
    params: dict[str, int] = field(default_factory=dict)
    note: str = ""
    #: phase of the cycle breakdown that our binary interface adds to a
    #: design the paper counts without it (see report.table3.Row)
    wrapper_phase: str = ""
    #: the paper-000 design this row is compared with ("" for none)
    paper_label: str = ""


def designs(only: list[str] | None = None) -> list[Design]:
    """The report's rows: paper 000's designs, then every other registered core."""
    out: list[Design] = []
    for r in ROWS:
        if r.core not in cores.CORES:
            continue
        cs = r.core.removesuffix("_bin")
        if cs in cores.UNITS:
            # The paper measures the carry-save core alone: synthesize it too
            # and compare that row with the paper.
            out.append(Design(f"{r.label} (carry-save core)", cs, {}, cores.UNITS[cs].description, "", r.label))
            out.append(Design(r.label, r.core, dict(r.params), r.note, r.wrapper_phase, ""))
        else:
            out.append(Design(r.label, r.core, dict(r.params), r.note, r.wrapper_phase, r.label))
    named = {d.core for d in out}
    out += [Design(c.name, c.name, {}, c.description) for c in cores.CORES.values() if c.name not in named]
    if only:
        unknown = sorted(set(only) - {d.core for d in out} - {d.label for d in out})
        if unknown:
            raise ValueError(f"no core or row named {', '.join(unknown)}; see `montmul cores`")
        out = [d for d in out if d.core in only or d.label in only]
    return out


# --------------------------------------------------------------------------
# Cycles (model statistics, cached)

def _model_hash() -> str:
    """Hash of what the cycle statistics depend on: the registry, the
    statistics and the models, as code (comments do not count)."""
    src = resources.package_dir()
    return resources.code_digest([src / "cores.py", src / "apps" / "stats.py", *(src / "models").rglob("*.py")], src)


def _cycles_one(args, client_stamp: str | None = None) -> dict:
    core_name, params, width, samples, seed = args
    from ..stats import cycle_stats

    if client_stamp is not None:  # a Dask task: the worker must run the client's models
        from ...flows.executor import WorkerMismatch, stamp

        if client_stamp != stamp():
            raise WorkerMismatch(f"a Dask worker runs montmul {stamp()}, the client montmul {client_stamp}: "
                                 "install the same montmul on the workers")

    s = cycle_stats(cores.lookup(core_name), width, samples, seed, "model", params=params or None)
    return {k: s[k] for k in ("avg", "min", "max", "std", "model_breakdown_avg")}


def cycles(items: list[tuple[str, dict, int]], samples: int, seed: int, jobs: int = 1, executor=None) -> list[dict]:
    """Model cycle statistics for (core, params, width) items, cached in
    ``build/report/`` by the model sources' hash; computed by ``executor``
    (:class:`montmul.flows.executor.Executor`; default ``jobs`` local
    processes)."""
    mh = _model_hash()
    out: list[dict | None] = []
    todo = []
    for i, (c, p, w) in enumerate(items):
        key = hashlib.sha256(json.dumps([c, sorted(p.items()), w, samples, seed, mh]).encode()).hexdigest()[:20]
        f = resources.build_root() / "report" / f"cycles_{key}.json"
        if f.is_file():
            out.append(json.loads(f.read_text()))
        else:
            out.append(None)
            todo.append((i, f, (c, p, w, samples, seed)))
    if todo:
        (resources.build_root() / "report").mkdir(parents=True, exist_ok=True)
        from ...flows.executor import Executor, stamp

        with contextlib.ExitStack() as stack, progress.phase("model"):
            ex = executor or stack.enter_context(Executor(jobs=max(1, min(jobs, len(todo)))))
            tag = stamp() if ex.remote else None
            for n, ok, res in ex.map(_cycles_one, [(t[2], tag) for t in todo], "model cycle averages", unit="set",
                                     name="montmul-cycles"):
                if not ok:
                    raise RuntimeError(f"model cycles of {todo[n][2][:3]}: {res}")
                i, f, _ = todo[n]
                f.write_text(json.dumps(res))
                out[i] = res
    return out  # type: ignore[return-value]


# --------------------------------------------------------------------------
# Netlist facts behind a number

def _cell_areas(result: dict) -> dict[str, float]:
    from ...flows.synth import parse

    areas = parse.liberty_areas(resources.liberty(result["options"]["liberty"]))
    missing = sorted(set(result["cells"]) - set(areas))
    if missing:
        raise ValueError(f"{result['options']['liberty']}: no area for cell(s) {', '.join(missing)}")
    return {c: areas[c] for c in result["cells"]}


def asic_facts(result: dict) -> dict:
    """What the ASIC netlist says: area split (sequential, by cell type) and
    the critical path's cells."""
    areas = _cell_areas(result)
    by_cell = sorted(((n * areas[c], c, n) for c, n in result["cells"].items()), reverse=True)
    total = result["area_um2"]
    cp = result.get("critical_path") or {}
    path_cells: dict[str, int] = {}
    for step in cp.get("cells", [])[1:]:
        path_cells[step["cell"]] = path_cells.get(step["cell"], 0) + 1
    return {
        "seq_share": result.get("sequential_area_um2", 0.0) / total if total else 0.0,
        "top_cells": [{"cell": c, "count": n, "area_um2": a, "share": a / total} for a, c, n in by_cell[:4]],
        "path": {"start": cp.get("startpoint", result.get("startpoint")),
                 "end": cp.get("endpoint", result.get("endpoint")),
                 "levels": cp.get("logic_levels"), "cells": path_cells},
    }


# --------------------------------------------------------------------------

def build(
    widths=(1024, 2048),
    fpga_widths=(256, 1024, 2048),
    only: list[str] | None = None,
    samples: int = 10000,
    seed: int = 1,
    jobs: int | None = None,
    force: bool = False,
    progress=None,
    executor=None,
) -> dict:
    """Measure (or take from the caches) everything the report shows; the
    model runs and the synthesis jobs run on ``executor``
    (:class:`montmul.flows.executor.Executor`; default ``jobs`` local
    processes)."""
    t0 = time.monotonic()
    jobs = jobs or os.cpu_count() or 1
    rows = designs(only)
    all_widths = sorted(set(widths) | set(fpga_widths))
    # cycles
    items = [(d.core, d.params, w) for d in rows for w in all_widths]
    cyc = dict(zip([(c, json.dumps(p, sort_keys=True), w) for c, p, w in items], cycles(items, samples, seed, jobs, executor)))
    t_cycles = time.monotonic() - t0
    # synthesis
    sjobs: list[synth.Job] = []
    skipped: list[dict] = []
    for d in rows:
        for w in widths:
            sjobs.append(synth.Job(d.core, w, "asic", d.params))
        for w in fpga_widths:
            sjobs.append(synth.Job(d.core, w, "xilinx", d.params))
            # Every ECP5 run has a time budget (flow option budget_s); a run
            # past it, or a design too big for the device, is a cached
            # result with the reason, shown in its cell.
            sjobs.append(synth.Job(d.core, w, "ecp5", d.params))
    res = synth.run_many(sjobs, workers=jobs, force=force, on_error="return", progress=progress, executor=executor)
    table: list[dict] = []
    for d in rows:
        entry = {"label": d.label, "core": d.core, "params": d.params, "note": d.note,
                 "wrapper_phase": d.wrapper_phase, "paper_label": d.paper_label,
                 "unit": d.core not in cores.CORES, "widths": {}}
        for w in all_widths:
            c = dict(cyc[(d.core, json.dumps(d.params, sort_keys=True), w)])
            # as the paper counts it: without the conversion our interface adds
            c["paper_avg"] = c["avg"] - c["model_breakdown_avg"].get(d.wrapper_phase, 0.0)
            entry["widths"][str(w)] = {"cycles": c}
        table.append(entry)
    by_label = {e["label"]: e for e in table}
    fresh = 0
    tool_seconds = 0.0
    for j, r in zip(sjobs, res):
        label = next(d.label for d in rows if d.core == j.core and d.params == j.params)
        slot = by_label[label]["widths"][str(j.width)]
        if "error" in r:
            slot[j.target] = {"error": r["error"], "status": r.get("status", "failed"),
                              "seconds": r.get("seconds", {})}
            continue
        fresh += 0 if r.get("cached") else 1
        tool_seconds += r["seconds"]["total"]
        r = dict(r)
        r["figures"] = synth.figures(r, slot["cycles"]["avg"])
        r["figures_paper"] = synth.figures(r, slot["cycles"]["paper_avg"])
        if j.target == "asic":
            r["facts"] = asic_facts(r)
            r.pop("critical_path", None)
        slot[j.target] = r
    return {
        "widths": list(widths),
        "fpga_widths": list(fpga_widths),
        "families": families(jobs, executor) if only is None else {},  # a subset report has no family sections
        "samples": samples,
        "seed": seed,
        "rows": table,
        "skipped": skipped,
        "synth_jobs": len(sjobs),
        "synth_fresh": fresh,
        "synth_tool_seconds": round(tool_seconds, 1),
        "seconds": {"cycles": round(t_cycles, 1), "total": round(time.monotonic() - t0, 1)},
        "tools": _tool_versions(res),
    }


def families(workers: int | None = None, executor=None) -> dict[str, dict]:
    """Each paper-family section's data (montmul.apps.report.FAMILIES): the
    module's ``build(workers, executor=executor)`` (its synthesis jobs and
    model runs on the report's executor); a module not written yet is skipped."""
    from . import FAMILIES

    out: dict[str, dict] = {}
    for name in FAMILIES:
        mod = f"{__package__}.{name}"
        if importlib.util.find_spec(mod) is None:
            continue
        out[name] = importlib.import_module(mod).build(workers=workers, executor=executor)
    return out


def _tool_versions(results: list[dict]) -> dict[str, str]:
    out: dict[str, str] = {}
    for r in results:
        out.update(r.get("tools", {}))
    return out


# --------------------------------------------------------------------------
# Derived comparisons

def target_result(row: dict, w: int, target: str) -> dict | None:
    r = row["widths"].get(str(w), {}).get(target)
    return r if r and "error" not in r else None


def _pf(result: dict) -> dict:
    """Figures with the cycles as the paper counts them (falls back to the
    interface figures)."""
    return result.get("figures_paper") or result["figures"]


def pct(new: float, old: float) -> float:
    return (new / old - 1) * 100


def ratio_new_vs_mmm42(data: dict) -> list[dict]:
    """SCS-MM-New against FCS-MMM42, ours and paper 000's, per width."""
    rows = {r.get("paper_label", r["label"]): r for r in data["rows"] if r.get("paper_label", r["label"])}
    out = []
    if "SCS-MM-New" not in rows or "FCS-MMM42" not in rows:
        return out
    for w in data["widths"]:
        a, b = target_result(rows["SCS-MM-New"], w, "asic"), target_result(rows["FCS-MMM42"], w, "asic")
        if not a or not b:
            continue
        fa, fb = _pf(a), _pf(b)
        ours = {
            "delay": pct(fa["delay_ns"], fb["delay_ns"]),
            "area": pct(fa["area"], fb["area"]),
            "throughput": pct(fa["throughput_mbps"], fb["throughput_mbps"]),
            "atp": pct(fa["atp"], fb["atp"]),
            "cycles": pct(fa["cycles"], fb["cycles"]),
        }
        out.append({"width": w, "ours": ours, "paper": papers.RATIO_NEW_VS_MMM42.get(w, {})})
    return out


def relative_to_fcs1(data: dict, w: int) -> list[dict]:
    """Every paper-000 design relative to FCS-MM-1 (= 1.00), ours and the
    paper's, at width ``w``: the technology-independent comparison."""
    by_paper = {r.get("paper_label", r["label"]): r for r in data["rows"] if r.get("paper_label", r["label"])}
    ref = by_paper.get(FCS1_LABEL)
    ref_asic = target_result(ref, w, "asic") if ref else None
    if not ref_asic:
        return []
    pub = {p.label: p for p in papers.ASIC_000.get(w, [])}
    pref = pub.get(FCS1_LABEL)
    out = []
    for row in data["rows"]:
        label = row["label"]
        a = target_result(row, w, "asic")
        if not a:
            continue
        f, fr = _pf(a), _pf(ref_asic)
        e = {"label": label,
             "ours": {k: f[k] / fr[k] for k in ("cycles", "delay_ns", "area", "time_ns", "atp")}}
        p = pub.get(row.get("paper_label", label))
        if p and pref:
            e["paper"] = {"cycles": p.cycles / pref.cycles, "delay_ns": p.delay_ns / pref.delay_ns,
                          "area": p.area_um2 / pref.area_um2, "time_ns": p.time_us / pref.time_us,
                          "atp": p.atp / pref.atp}
        out.append(e)
    return out


def pareto(points: list[tuple[float, float, str]]) -> list[str]:
    """Labels of the points no other point beats in both coordinates
    (smaller is better in both), sorted by the first coordinate."""
    front = []
    for x, y, lab in sorted(points):
        if not front or y < front[-1][1]:
            front.append((x, y, lab))
    return [lab for _, _, lab in front]
