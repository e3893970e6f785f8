# SPDX-License-Identifier: Apache-2.0
"""Parsers for the files the tools write: Yosys ``stat -json``, nextpnr's
JSON report, OpenSTA's ``report_checks -format full`` text, liberty headers.

Each parser raises :class:`~montmul.flows.synth.tools.ToolError` when the file does
not hold what the flow needs, naming the file.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .tools import ToolError


def yosys_stat(path: Path) -> dict:
    """``stat -json`` of a flat design: cell counts by type (Yosys-internal
    ``$scopeinfo`` cells left out) and, with ``-liberty``, area."""
    try:
        data = json.loads(path.read_text())
        design = data["design"]
    except (OSError, ValueError, KeyError) as exc:
        raise ToolError(f"cannot read Yosys statistics {path}: {exc}") from None
    cells = {k: v for k, v in design.get("num_cells_by_type", {}).items() if not k.startswith("$scopeinfo")}
    out = {"cells": dict(sorted(cells.items())), "num_cells": sum(cells.values())}
    if "area" in design:
        out["area"] = float(design["area"])
        out["sequential_area"] = float(design.get("sequential_area", 0.0))
    unmapped = sorted(k for k in cells if k.startswith("$"))
    if unmapped:
        raise ToolError(f"{path}: cells left unmapped to the target: {', '.join(unmapped)}")
    return out


def module_name(yosys_name: str) -> str:
    """The source module of a Yosys module name: ``$paramod$<hash>\\mm_x``,
    ``$paramod\\mm_x\\Width=...`` and ``\\mm_x`` all give ``mm_x``."""
    parts = yosys_name.lstrip("\\").split("\\")
    return parts[1] if parts[0].startswith("$paramod") and len(parts) > 1 else parts[0]


def yosys_instances(stat_path: Path, inst_path: Path, top: str, counts) -> dict[str, dict]:
    """Per-instance costs of a hierarchical (not flattened) design:
    ``stat_path`` is its ``stat -json`` (cell counts per module, submodule
    instances counted under their module's name), ``inst_path`` a JSON
    netlist holding only the submodule instances.  Returns, for the top and
    every instance below it, ``{path: {"module": name, **counts(cells)}}``
    where ``path`` is ``top/inst/inst...`` and ``cells`` counts the cell
    types of the instance's whole subtree."""
    try:
        mods = {k.lstrip("\\"): v.get("num_cells_by_type", {})
                for k, v in json.loads(stat_path.read_text())["modules"].items()}
        insts = json.loads(inst_path.read_text())["modules"]
    except (OSError, ValueError, KeyError) as exc:
        raise ToolError(f"cannot read the per-instance statistics {stat_path}, {inst_path}: {exc}") from None
    children = {m.lstrip("\\"): sorted((c, cell["type"].lstrip("\\")) for c, cell in v.get("cells", {}).items())
                for m, v in insts.items()}
    own: dict[str, dict[str, int]] = {}
    for m, cells in mods.items():
        sub = {t.lstrip("\\"): n for t, n in cells.items() if t.lstrip("\\") in mods}
        listed: dict[str, int] = {}
        for _, t in children.get(m, []):
            listed[t] = listed.get(t, 0) + 1
        if sub != listed:
            raise ToolError(f"{inst_path}: the instances of {m} ({listed}) differ from its statistics ({sub}); "
                            "is every module named mm_*?")
        own[m] = {t: n for t, n in cells.items() if t.lstrip("\\") not in mods and not t.startswith("$scopeinfo")}
        unmapped = sorted(t for t in own[m] if t.startswith("$"))
        if unmapped:
            raise ToolError(f"{stat_path}: cells of {m} left unmapped to the target: {', '.join(unmapped)}")
    if top not in mods:
        raise ToolError(f"{stat_path}: no module {top}")
    subtree: dict[str, dict[str, int]] = {}

    def total(m: str) -> dict[str, int]:
        if m not in subtree:
            acc = dict(own[m])
            for _, t in children.get(m, []):
                for k, v in total(t).items():
                    acc[k] = acc.get(k, 0) + v
            subtree[m] = acc
        return subtree[m]

    out: dict[str, dict] = {}

    def walk(path: str, m: str) -> None:
        out[path] = {"module": module_name(m), **counts(total(m))}
        for c, t in children.get(m, []):
            walk(f"{path}/{c}", t)

    walk(top, top)
    return out


def _rtl_src(cells) -> str | None:
    """The first RTL location among the cells' ``src`` attributes (leaving
    out the tools' own techmap files), with the path from the RTL root."""
    for c in cells:
        for loc in str(c.get("attributes", {}).get("src", "")).split("|"):
            if loc and not loc.startswith("/share/"):
                return re.sub(r"^(\.\./)+", "", loc)
    return None


def ecp5_carry_chains(path: Path) -> list[dict]:
    """The carry chains of an ECP5 netlist (Yosys JSON, flat): CCU2C cells
    linked COUT -> CIN, longest first, each ``{"cells": n, "bits": 2n,
    "src": the RTL line that made it, or None}`` (a CCU2C is two bits of
    carry)."""
    try:
        mods = json.loads(path.read_text())["modules"]
    except (OSError, ValueError, KeyError) as exc:
        raise ToolError(f"cannot read the netlist {path}: {exc}") from None
    out = []
    for mod in mods.values():
        cells = {n: c for n, c in mod.get("cells", {}).items() if c.get("type") == "CCU2C"}
        cout = {}  # net bit -> cell driving it from COUT
        for n, c in cells.items():
            for b in c["connections"].get("COUT", []):
                if isinstance(b, int):
                    cout[b] = n
        nxt: dict[str, str] = {}
        for n, c in cells.items():
            for b in c["connections"].get("CIN", []):
                if isinstance(b, int) and b in cout:
                    nxt[cout[b]] = n
        heads = set(cells) - set(nxt.values())
        for h in heads:
            chain, n = [h], h
            while n in nxt and nxt[n] not in chain:
                n = nxt[n]
                chain.append(n)
            out.append({"cells": len(chain), "bits": 2 * len(chain), "src": _rtl_src(cells[c] for c in chain)})
    return sorted(out, key=lambda c: -c["cells"])


def nextpnr_report(path: Path, clock: str = "clk_i") -> dict:
    """Fmax of ``clock``, utilisation and the critical path's end points from
    nextpnr's ``--report`` JSON."""
    try:
        data = json.loads(path.read_text())
        fmax = data["fmax"]
    except (OSError, ValueError, KeyError) as exc:
        raise ToolError(f"cannot read nextpnr report {path}: {exc}") from None
    if clock not in fmax:
        raise ToolError(f"{path}: no Fmax for clock {clock!r} (clocks: {', '.join(fmax) or 'none'})")
    used = {k: v["used"] for k, v in data.get("utilization", {}).items() if v.get("used")}
    out = {
        "fmax_mhz": float(fmax[clock]["achieved"]),
        "constraint_mhz": float(fmax[clock]["constraint"]),
        "utilization": used,
    }
    for cp in data.get("critical_paths", []):
        if cp.get("from", "").endswith(clock) and cp.get("to", "").endswith(clock) and cp.get("path"):
            path_ = cp["path"]
            out["critical_path"] = {
                "startpoint": path_[0]["from"]["cell"],
                "endpoint": path_[-1]["to"]["cell"],
                "delay_ns": round(sum(step["delay"] for step in path_), 4),
                "logic_ns": round(sum(step["delay"] for step in path_ if step["type"] != "routing"), 4),
                "routing_ns": round(sum(step["delay"] for step in path_ if step["type"] == "routing"), 4),
                "logic_levels": sum(1 for step in path_ if step["type"] == "logic"),
            }
            break
    return out


def sections(text: str) -> dict[str, str]:
    """Split a tool's output at ``@@SECTION name`` marker lines."""
    out: dict[str, str] = {}
    name = None
    buf: list[str] = []
    for line in text.splitlines():
        if line.startswith("@@SECTION "):
            if name is not None:
                out[name] = "\n".join(buf)
            name, buf = line.split(None, 1)[1].strip(), []
        else:
            buf.append(line)
    if name is not None and name != "end":
        out[name] = "\n".join(buf)
    return out


_STEP = re.compile(r"^\s*(?:[-\d.]+\s+)*?(-?\d+\.\d+)\s+(-?\d+\.\d+)\s+([v^])\s+(\S+)\s+\((\S+)\)\s*$")


def sta_path(text: str, unit_ps: float) -> dict | None:
    """One path of OpenSTA's ``report_checks -format full``: start and end
    points, arrival, setup, slack, and the cells on the path.  Times are
    returned in ps (``unit_ps`` is the library time unit in ps).  None if
    the report found no path."""
    if "No paths found" in text or "Startpoint:" not in text:
        return None

    def grab(pattern: str) -> str:
        m = re.search(pattern, text, re.M)
        if not m:
            raise ToolError(f"OpenSTA report without {pattern!r}:\n{text[:2000]}")
        return m.group(1)

    start = grab(r"^Startpoint:\s*(\S+)")
    end = grab(r"^Endpoint:\s*(\S+)")
    start_kind = grab(r"^Startpoint:\s*\S+\s*\((.*)\)")
    end_kind = grab(r"^Endpoint:\s*\S+\s*\((.*)\)")
    arrival = float(grab(r"^\s*(-?\d+\.\d+)\s+data arrival time"))
    slack = float(grab(r"^\s*(-?\d+\.\d+)\s+slack"))
    m = re.search(r"(-?\d+\.\d+)\s+(-?\d+\.\d+)\s+library setup time", text)
    setup = -float(m.group(1)) if m else 0.0
    m = re.search(r"^\s*(-?\d+\.\d+)\s+data required time", text, re.M)
    required = float(m.group(1)) if m else None
    # Steps of the data path: the lines before the first "data arrival time".
    data_part = text.split("data arrival time", 1)[0]
    steps = []
    for line in data_part.splitlines():
        mm = _STEP.match(line)
        if mm:
            delay, time_, edge, pin, cell = mm.groups()
            steps.append({"pin": pin, "cell": cell, "delay_ps": round(float(delay) * unit_ps, 2),
                          "arrival_ps": round(float(time_) * unit_ps, 2), "edge": "rise" if edge == "^" else "fall"})
    ends = {start, end}
    comb = {s["pin"].rsplit("/", 1)[0] for s in steps if "/" in s["pin"]} - ends
    return {
        "startpoint": pretty_name(start),
        "endpoint": pretty_name(end),
        "startpoint_instance": start,
        "endpoint_instance": end,
        "startpoint_kind": start_kind,
        "endpoint_kind": end_kind,
        "arrival_ps": round(arrival * unit_ps, 2),
        "setup_ps": round(setup * unit_ps, 2),
        "slack_ps": round(slack * unit_ps, 2),
        "required_ps": None if required is None else round(required * unit_ps, 2),
        #: the shortest clock period this path allows (ideal clock): arrival + setup
        "delay_ps": round((arrival + setup) * unit_ps, 2),
        "logic_levels": len(comb),
        "cells": steps,
    }


_REG = re.compile(r"^(.*?)_(\d+)__reg$")


def pretty_name(inst: str) -> str:
    """``ss_q_12__reg`` (a flip-flop named after the bit it holds) ->
    ``ss_q[12]``; ``state_q_reg`` -> ``state_q``; ports stay as they are."""
    m = _REG.match(inst)
    if m:
        return f"{m.group(1)}[{m.group(2)}]"
    if inst.endswith("_reg"):
        return inst[: -len("_reg")]
    m = re.match(r"^(.*?)_(\d+)_$", inst)  # split port bit: a_i_3_ -> a_i[3]
    if m:
        return f"{m.group(1)}[{m.group(2)}]"
    return inst


def liberty_time_unit_ps(path: Path) -> float:
    """The liberty's ``time_unit`` in ps."""
    with open(path, errors="replace") as fh:
        head = fh.read(20000)
    m = re.search(r'time_unit\s*:\s*"?\s*(\d+(?:\.\d+)?)\s*(ps|ns|us)"?', head)
    if not m:
        raise ToolError(f"{path}: no time_unit in the library header")
    return float(m.group(1)) * {"ps": 1.0, "ns": 1000.0, "us": 1e6}[m.group(2)]


_LIB_AREAS: dict[str, dict[str, float]] = {}


def liberty_areas(path: Path) -> dict[str, float]:
    """Cell name -> area of every cell of a liberty file: the first ``area``
    attribute inside each ``cell (...) {`` group, wherever it stands in the
    group (OSU's BUFX2 puts ``cell_footprint`` first)."""
    key = str(path)
    if key not in _LIB_AREAS:
        text = Path(path).read_text(errors="replace")
        area = re.compile(r"\barea\s*:\s*([\d.]+)")
        out = {}
        for m in re.finditer(r"\bcell\s*\(\s*\"?([\w$]+)\"?\s*\)\s*\{", text):
            a = area.search(text, m.end(), m.end() + 2000)
            if a:
                out[m.group(1)] = float(a.group(1))
        _LIB_AREAS[key] = out
    return _LIB_AREAS[key]


def liberty_cell_area(path: Path, cell: str) -> float:
    try:
        return liberty_areas(path)[cell]
    except KeyError:
        raise ToolError(f"{path}: no area for cell {cell}") from None
