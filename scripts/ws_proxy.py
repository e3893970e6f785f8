#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Timing proxy of the ws array: the ring of processing elements
(rtl/ws/mm_ws_ring.sv), or the whole array with its sequencer and result
paths (rtl/ws/mm_ws_array.sv, ``--top array``), synthesized and placed and
routed out of context on
the LFE5U-85F with montmul's ECP5 flow (the same Yosys script template,
synth_ecp5 steps, nextpnr-ecp5 arguments and option defaults as
``montmul synth --target ecp5``, montmul.flows.synth.flows), one placement seed
per run.  Prints Fmax, LUT4/FF/DSP/EBR use, run times and the critical path
mapped to the RTL (montmul.flows.synth.critpath), and stores the result as
``syn/proxy/ws_<tag>.json``.

    python scripts/ws_proxy.py run --pe 68 --width 16 --seed 1
    python scripts/ws_proxy.py run --pe 68 --width 17 --clear-mode 0 --seed 2
    python scripts/ws_proxy.py run --top array --pe 66 --width 17 --seed 1
    python scripts/ws_proxy.py run --top pke --pe 66 --width 17 --seed 1
    python scripts/ws_proxy.py table     # rewrites the tables in docs/ws_proxy.md

The ring's MULT18X18D are the ECP5 primitive (the RTL's MM_ECP5_DSP
branch), read with Yosys's ECP5 cell declarations.  Work folders (scripts,
logs, netlists, reports) go to ``build/ws_proxy/<tag>`` (the YoWASP tools see
no path outside the repository).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import statistics
import sys
import time
from pathlib import Path

from montmul import design, resources
from montmul.flows.sim.pke_sim import PROG_WORDS
from montmul.flows.synth import critpath, flows, parse, tools
from montmul.flows.synth.proxy import clear_mode, tag, top_of

ROOT = resources.data_root()
RTL = ("ws/mm_ws_mul.sv", "ws/mm_ws_pe.sv", "ws/mm_ws_ring.sv")
#: the two tops a run can place: the ring alone, or the array (the ring, its
#: sequencer, quotient, result and out paths: what a user instantiates)
TOPS = {"ring": ("mm_ws_ring", RTL), "array": ("mm_ws_array", RTL + ("ws/mm_ws_array.sv",)),
        "pke": (design.PKE.top, design.PKE.rtl)}
STORE = ROOT / "syn" / "proxy"
DOC = ROOT / "docs" / "ws_proxy.md"
BEGIN, END = "<!-- ws_proxy table: begin -->", "<!-- ws_proxy table: end -->"
SIZES_BEGIN, SIZES_END = "<!-- ws_proxy sizes: begin -->", "<!-- ws_proxy sizes: end -->"
MEDIAN_BEGIN, MEDIAN_END = "<!-- ws_proxy medians: begin -->", "<!-- ws_proxy medians: end -->"
#: mm_ws_pe's ClearMode: how the loop's clears act (results stored before the
#: parameter existed were made with 0).
CLEAR_MODES = {0: "sync reset", 1: "zero flags"}


def latency(p: dict) -> int:
    """Cycles from a PE's token register to its add (mm_ws_pe's Latency)."""
    return p["DspRegs"] + 3 + p.get("LoopRegs", 0)


def ff_paired(log: Path) -> int | None:
    """The flip-flops nextpnr-ecp5's packer placed in the slice of the LUT or
    carry-chain cell driving them (its "FFs paired with LUTs" line)."""
    for line in log.read_text(errors="replace").splitlines():
        if "FFs paired with LUTs" in line:
            return int(line.split()[1])
    return None


def end_hop(report: Path) -> dict | None:
    """The critical path's last hop into its end register: the delay of the
    routing into it and the tile distance (|dx| + |dy|) from the cell that
    drives it (0: the register sits in its driver's tile)."""
    paths = json.loads(report.read_text()).get("critical_paths", [])
    steps = next((p["path"] for p in paths if p.get("from", "").endswith("clk_i") and p.get("to", "").endswith("clk_i")),
                 None)
    if not steps or steps[-1].get("type") != "setup":
        return None
    last = next((s for s in reversed(steps) if s.get("type") == "routing"), None)
    if last is None:
        return None
    a, b = last["from"].get("loc"), last["to"].get("loc")
    tiles = abs(a[0] - b[0]) + abs(a[1] - b[1]) if a and b else None
    return {"routing_ns": round(last["delay"], 3), "tiles": tiles}


def loop_paths(netlist: Path, pe: int = 1, top: str = "mm_ws_ring") -> dict[str, int]:
    """The logic between the registers PE ``pe``'s add reads (h from its
    right neighbour, c from its left one and, with ClearMode 1, its zero-flag
    registers hz_q, cz_q) and the carry chains they feed, in the Yosys
    netlist (found by the names Yosys keeps for their nets): for each
    register bit, the cell types on each path from it to the first CCU2C
    ("LUT4": one LUT level, "LUT4>PFUMX": a five-input LUT in one slice,
    "LUT4>LUT4": two levels), counted per operand and path."""
    mod = json.loads(netlist.read_text())["modules"][top]
    names: dict[int, list[str]] = {}
    for n, info in mod["netnames"].items():
        for b in info["bits"]:
            if isinstance(b, int):
                names.setdefault(b, []).append(n)
    users: dict[int, list[dict]] = {}
    for c in mod["cells"].values():
        for port, way in c["port_directions"].items():
            if way == "input":
                for b in c["connections"][port]:
                    if isinstance(b, int):
                        users.setdefault(b, []).append(c)
    pats = {"h": [rf"gen_pe\[{pe}\]\.u_pe\.h_i", rf"gen_pe\[{pe + 1}\]\.u_pe\.(?:h_q|h_o|lo_q)"],
            "c": [rf"gen_pe\[{pe}\]\.u_pe\.c_i", rf"gen_pe\[{pe - 1}\]\.u_pe\.(?:c_q|c_o)"],
            "h flag": [rf"gen_pe\[{pe}\]\.u_pe\.gen_clear_flags\.hz_q"],
            "c flag": [rf"gen_pe\[{pe}\]\.u_pe\.gen_clear_flags\.cz_q"]}
    want = re.compile("|".join(f"(?P<{k.replace(' ', '_')}>{'|'.join(v)})\\b" for k, v in pats.items()))
    out: dict[str, int] = {}
    for c in mod["cells"].values():
        if c["type"] != "TRELLIS_FF":
            continue
        m = next((m for m in map(want.search, names.get(c["connections"]["Q"][0], [])) if m), None)
        if m is None:
            continue
        found, todo = set(), [(c["connections"]["Q"][0], ())]
        while todo:
            bit, path = todo.pop()
            for u in users.get(bit, []):
                if u["type"] == "CCU2C":
                    found.add(path)
                elif u["type"] in ("LUT4", "PFUMX", "L6MUX21") and len(path) < 3:
                    todo += [(b, (*path, u["type"])) for port, way in u["port_directions"].items()
                             if way == "output" for b in u["connections"][port] if isinstance(b, int)]
        for path in found:
            key = f"{m.lastgroup.replace('_', ' ')}: {'>'.join(path) or 'direct'}"
            out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items()))


def read_block(params: dict, cwd: Path) -> str:
    """Yosys commands that read the ring's (or the array's) RTL with the ECP5
    MULT18X18D and set its parameters (the flow's read block,
    montmul.flows.synth.flows.read_block, plus the vendor cell declarations
    and the MM_ECP5_DSP define)."""
    top, files = TOPS[top_of(params)]
    rtl = resources.rtl_dir()
    srcs = " ".join(flows.rel(rtl / f, cwd) for f in files)
    sets = " ".join(f"-set {k} {int(v)}" for k, v in params.items())
    return "\n".join([
        "read_verilog -lib +/ecp5/cells_bb.v",
        f"read_verilog -sv -DMM_ECP5_DSP -I{flows.rel(rtl / 'common', cwd)} {srcs}",
        f"chparam {sets} {top}",
        f"hierarchy -check -top {top}",
        # a top whose ports wait for a submodule is derived again under a
        # $paramod name; synth_ecp5 -top wants the plain one
        f"rename -top {top}",
    ])


def run(params: dict, seed: int, variant: str, timeout: float, router: str | None = None) -> dict:
    """Yosys and nextpnr-ecp5 for one ring (or array) and seed; the result
    dict (its ``options`` name the router: the flow's default unless given)."""
    top, files = TOPS[top_of(params)]
    opts = {**flows.DEFAULTS["ecp5"], "seed": seed, "seeds": 1, **({"router": router} if router else {})}
    name = tag(params, seed, variant)
    cwd = ROOT / "build" / "ws_proxy" / name
    if cwd.exists():
        shutil.rmtree(cwd)  # no file of an earlier run may pass for this one's
    cwd.mkdir(parents=True)
    t0 = time.monotonic()
    rtl = {f: flows.rtl_digest(resources.rtl_dir() / f) for f in files}  # what this run reads
    script = flows.fill("ecp5.ys.in", READ=read_block(params, cwd), SYNTH=flows.ecp5_synth(top, opts))
    (cwd / "synth.ys").write_text(script)
    secs = {"yosys": tools.run("yosys", ["-q", "-l", "synth.log", "synth.ys"], cwd, "synth.out", timeout=timeout)}
    cells = parse.yosys_stat(cwd / "stat.json")["cells"]
    counts = flows.ecp5_counts(cells)
    chains = parse.ecp5_carry_chains(cwd / "netlist.json")
    secs["nextpnr"] = tools.run("nextpnr-ecp5", flows.nextpnr_args(opts, seed), cwd, "nextpnr.out",
                                timeout=max(1.0, timeout - secs["yosys"]))
    rep = parse.nextpnr_report(cwd / "report.json", flows.CLOCK)
    dev = flows.ECP5_DEVICES[str(opts["device"])]
    result = {
        "design": top,
        "variant": variant,
        "params": params,
        "seed": seed,
        "options": opts,
        "tools": tools.versions("ecp5"),
        "rtl": rtl,
        "status": "ok",
        "fmax_mhz": round(rep["fmax_mhz"], 3),
        "constraint_mhz": rep["constraint_mhz"],
        "lut4": cells.get("LUT4", 0),
        "ccu2c": cells.get("CCU2C", 0),
        "luts": counts["luts"],
        "ff": counts["ff"],
        "dsp": counts["dsp"],
        "ebr": counts["bram"],
        "lutram": cells.get("TRELLIS_DPR16X4", 0),
        "carry_chain_bits": max((c["bits"] for c in chains), default=0),
        "device_utilization": {k: round(counts[k] / dev[k], 4) for k in ("luts", "ff", "dsp", "bram")},
        "critical_path": rep.get("critical_path"),
        "ff_paired": ff_paired(cwd / "nextpnr.log"),
        "end_hop": end_hop(cwd / "report.json"),
    }
    secs["trace_yosys"] = 0.0
    t1 = time.monotonic()
    result["trace"] = critpath.trace(cwd, result, seed_opt=seed, timeout=timeout)
    secs["trace_yosys"] = time.monotonic() - t1
    secs["total"] = time.monotonic() - t0
    result["seconds"] = {k: round(v, 1) for k, v in secs.items()}
    result["work_dir"] = os.path.relpath(cwd, ROOT)
    return result


def summary(r: dict) -> str:
    p = r["params"]
    cp = r.get("critical_path") or {}
    lines = [
        f"ws {top_of(p)} P={p['NumPe']} w={p['WordWidth']} DspRegs={p['DspRegs']} LoopRegs={p.get('LoopRegs', 0)} "
        f"ClearMode={clear_mode(p)} d={p['QuotDelay']} {_size_text(p)} "
        f"({r['variant']}), seed {r['seed']}: Fmax {r['fmax_mhz']:.1f} MHz "
        f"(constraint {r['constraint_mhz']:.0f})",
        f"  LUT4 {r['lut4']:,} + CCU2C {r['ccu2c']:,} (= {r['luts']:,} LUT sites), FF {r['ff']:,}, "
        f"MULT18X18D {r['dsp']}, EBR {r['ebr']}; longest carry chain {r['carry_chain_bits']} bits",
        f"  time: Yosys {r['seconds']['yosys']:.0f} s, nextpnr {r['seconds']['nextpnr']:.0f} s",
        f"  critical path {cp.get('delay_ns')} ns = {cp.get('logic_ns')} logic + {cp.get('routing_ns')} routing; "
        f"into its end register {_end_text(r)}; FFs paired with their LUT or carry cell: {r.get('ff_paired')}",
        critpath.format_trace("  traced", r["trace"]),
    ]
    return "\n".join(lines)


def store(r: dict) -> Path:
    STORE.mkdir(parents=True, exist_ok=True)
    path = STORE / f"ws_{tag(r['params'], r['seed'], r['variant'])}.json"
    path.write_text(json.dumps(r, indent=1) + "\n")
    return path


def _path_text(r: dict) -> str:
    tr = r.get("trace") or {}
    start = (tr.get("start") or {}).get("src") or "?"
    end = (tr.get("end") or {}).get("src") or "?"
    return (f"{start} → {end}: {tr.get('logic_levels', '?')} levels, "
            f"{tr.get('logic_ns', '?')} ns logic + {tr.get('routing_ns', '?')} ns routing")


def _end_text(r: dict) -> str:
    e = r.get("end_hop")
    if not e:
        return "not recorded"
    return f"{e['routing_ns']} ns, {e['tiles']} tiles"


def _size_text(p: dict) -> str:
    if top_of(p) != "ring":
        return (f"chunks={p['Chunks']} MaxWords={p['MaxWords']}"
                + (f" ProgWords={p['ProgWords']}" if "ProgWords" in p else ""))
    return f"slots={p['Slots']}"


def _size_cell(p: dict) -> str:
    """The table's size column: laps c and the longest operand m (array,
    engine) with the program memory's words (engine), or the slots (ring)."""
    if top_of(p) == "ring":
        return f"{p['Slots']} slots"
    return f"c = {p['Chunks']}, m ≤ {p['MaxWords']}" + (f", {p['ProgWords']}-word program" if "ProgWords" in p else "")


def _design(r: dict) -> tuple:
    p = r["params"]
    size = (p["Chunks"], p["MaxWords"], p.get("ProgWords", 0)) if top_of(p) != "ring" else (p["Slots"],)
    return (r["variant"], p["WordWidth"], p["NumPe"], latency(p), p["QuotDelay"], clear_mode(p), p["DspRegs"],
            top_of(p), size)


def table(results: list[dict]) -> str:
    """The Markdown table of stored results, sorted by variant, word width,
    P, latency, quotient delay, clear mode and seed."""
    rows = sorted(results, key=lambda r: (*_design(r), r["seed"]))
    out = ["| top | variant | P | w | DSP regs | transport regs | L | d | loop clears | seed | MULT18X18D | "
           "LUT4 sites | FF | FFs paired | EBR | Fmax MHz | nextpnr s | critical path (from → to) | "
           "into its end register | size |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        p = r["params"]
        paired = f"{r['ff_paired']:,}" if r.get("ff_paired") is not None else "–"
        out.append(f"| {top_of(p)} | {r['variant']} | {p['NumPe']} | {p['WordWidth']} | {p['DspRegs']} | "
                   f"{p.get('LoopRegs', 0)} | "
                   f"{latency(p)} | {p['QuotDelay']} | {CLEAR_MODES[clear_mode(p)]} | "
                   f"{r['seed']} | {r['dsp']} | {r['luts']:,} | {r['ff']:,} | {paired} | {r['ebr']} | "
                   f"{r['fmax_mhz']:.1f} | {r['seconds']['nextpnr']:.0f} | {_path_text(r)} | {_end_text(r)} | "
                   f"{_size_cell(p)} |")
    return "\n".join(out)


def median_table(results: list[dict]) -> str:
    """Per design (every parameter and the variant): its seeds' Fmax and
    their median."""
    groups: dict[tuple, list[dict]] = {}
    for r in results:
        groups.setdefault(_design(r), []).append(r)
    out = ["| top | variant | P | w | L | d | loop clears | seeds | Fmax MHz per seed | median MHz | size |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for key in sorted(groups):
        rs = sorted(groups[key], key=lambda r: r["seed"])
        p = rs[0]["params"]
        per = ", ".join(f"{r['fmax_mhz']:.1f}" for r in rs)
        out.append(f"| {top_of(p)} | {rs[0]['variant']} | {p['NumPe']} | {p['WordWidth']} | {latency(p)} | {p['QuotDelay']} | "
                   f"{CLEAR_MODES[clear_mode(p)]} | {len(rs)} | {per} | "
                   f"{statistics.median(r['fmax_mhz'] for r in rs):.1f} | {_size_cell(p)} |")
    return "\n".join(out)


def sizes(ell: int, w: int, latency: int, pe: int) -> dict:
    """Word counts of an ell-bit modulus on a ring of ``pe`` PEs
    (docs/ws_proxy.md, Arithmetic): m words, V = m + 1 virtual PEs, c chunks
    (laps of the ring), the least quotient delay d with 2 c d >= L + 1
    (which sets m, so c and d are found together), s = m + d waves, and the
    cycles one interleaved product pair occupies the ring at least:
    2 c s (every wave, each product in every other cycle, c laps)."""
    c = 1
    while True:
        d = -(-(latency + 1) // (2 * c))
        m = -(-(ell + w * (d + 1) + 2) // w)
        if m + 1 <= c * pe:
            break
        c += 1
    s = m + d
    return {"m": m, "V": m + 1, "c": c, "d": d, "s": s, "pair_cycles": 2 * c * s}


#: Modular products per RSA-CRT half with a 4-bit fixed window on an ell-bit
#: exponent: ell squarings, ell / 4 window multiplications, 14 table entries,
#: conversion in and out.
def crt_products(ell: int) -> int:
    return ell + ell // 4 + 14 + 2


def sizes_table(results: list[dict]) -> str:
    """Per measured ring (P, L) and word width w = 16 and 17: the word counts
    of 1024- and 2048-bit halves and the RSA-CRT time they bound from below
    (pair cycles x products per half / Fmax), at the best Fmax measured at
    that w (a design's median over its seeds; the best design), or, where
    that w has no run, at the other w's (marked)."""
    groups: dict[tuple, list[float]] = {}
    for r in results:
        groups.setdefault(_design(r), []).append(r["fmax_mhz"])
    best: dict[tuple, float] = {}
    for d, fs in groups.items():
        key = (d[2], d[3], d[1])  # P, L, w
        best[key] = max(best.get(key, 0.0), statistics.median(fs))
    out = ["| P | L | w | half | m | V | chunks c | d | waves s | cycles per product pair | "
           "Fmax MHz (of the run at w) | RSA-CRT ms (at least) |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for pe, lat in sorted({(k[0], k[1]) for k in best}):
        for w in (16, 17):
            run_w = w if (pe, lat, w) in best else next(x for x in (16, 17) if (pe, lat, x) in best)
            fmax = best[(pe, lat, run_w)]
            for ell in (1024, 2048):
                z = sizes(ell, w, lat, pe)
                ms = z["pair_cycles"] * crt_products(ell) / (fmax * 1e3)
                out.append(f"| {pe} | {lat} | {w} | {ell} | {z['m']} | {z['V']} | {z['c']} | {z['d']} | {z['s']} | "
                           f"{z['pair_cycles']} | {fmax:.1f} (w {run_w}) | {ms:.2f} |")
    return "\n".join(out)


def _between(text: str, begin: str, end: str, body: str, doc: Path) -> str:
    if begin not in text or end not in text:
        raise ValueError(f"{doc}: no table markers ({begin} ... {end})")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n{body}\n{end}{tail}"


def load_store(folder: Path = STORE) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(folder.glob("ws_*.json"))]


def write_table(doc: Path = DOC, folder: Path = STORE) -> None:
    """Replace the tables between the markers of ``doc`` with the stored
    results' (the sizes table only where ``doc`` has its markers)."""
    results = load_store(folder)
    text = _between(doc.read_text(), BEGIN, END, table(results), doc)
    if SIZES_BEGIN in text:
        text = _between(text, SIZES_BEGIN, SIZES_END, sizes_table(results), doc)
    if MEDIAN_BEGIN in text:
        text = _between(text, MEDIAN_BEGIN, MEDIAN_END, median_table(results), doc)
    doc.write_text(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="synthesize, place and route one ring; store and print the result")
    r.add_argument("--top", default="ring", choices=sorted(TOPS),
                   help="ring: the PEs alone; array: mm_ws_array (ring, sequencer, result and out paths); "
                   "pke: the public-key engine mm_pke (the array, banks, ALUs, program memory, sequencer)")
    r.add_argument("--chunks", type=int, default=1, help="array: laps of the ring c (1 .. 4)")
    r.add_argument("--max-words", type=int, default=None,
                   help="array: the largest word count m (default c P - 1, the most the build takes)")
    r.add_argument("--prog-words", type=int, default=PROG_WORDS, help="pke: program memory words (a power of two)")
    r.add_argument("--pe", type=int, required=True, help="processing elements P (2 .. 78 fit the 156 DSPs)")
    r.add_argument("--width", type=int, default=16, choices=(16, 17), help="word width w")
    r.add_argument("--dsp-regs", type=int, default=3, choices=(2, 3), help="MULT18X18D registers")
    r.add_argument("--loop-regs", type=int, default=0, choices=(0, 1, 2),
                   help="transport registers between a PE's pre-add and its loop")
    r.add_argument("--quot-delay", type=int, default=None,
                   help="quotient delay d (default: the least legal, ceil((L + 1) / 2), L = DspRegs + 3 + LoopRegs)")
    r.add_argument("--slots", type=int, default=2, help="operand slots per PE (2 .. 16)")
    r.add_argument("--clear-mode", type=int, default=0, choices=sorted(CLEAR_MODES),
                   help="how the PEs' loop clears act (mm_ws_pe's ClearMode): "
                   + ", ".join(f"{k} {v}" for k, v in CLEAR_MODES.items()))
    r.add_argument("--seed", type=int, default=1, help="placement seed")
    r.add_argument("--router", choices=("router1", "router2"), default=None,
                   help="nextpnr's router (default: the ECP5 flow's); router2 for the congested engine builds")
    r.add_argument("--variant", default="base", help="a label for the RTL variant, part of the stored name")
    r.add_argument("--timeout", type=float, default=float(flows.DEFAULTS["ecp5"]["budget_s"]),
                   help="seconds for the whole run (default: the flow's budget)")
    r.add_argument("--no-store", action="store_true", help="print only")
    rr = sub.add_parser("reread", help="fill a stored result's FFs paired and end-hop fields from its work folder's "
                        "nextpnr log and report (results made before they were recorded)")
    rr.add_argument("result", type=Path, help="a stored result, syn/proxy/ws_*.json")
    lp = sub.add_parser("loop", help="the logic from one PE's loop registers to its carry chain, in a stored "
                        "result's Yosys netlist (its work folder)")
    lp.add_argument("result", type=Path, help="a stored result, syn/proxy/ws_*.json")
    lp.add_argument("--pe", type=int, default=1, help="the PE (default 1)")
    sub.add_parser("table", help=f"rewrite the table in {os.path.relpath(DOC, ROOT)} from {os.path.relpath(STORE, ROOT)}")
    args = ap.parse_args(argv)

    if args.cmd == "reread":
        try:
            res = json.loads(args.result.read_text())
            cwd = ROOT / res["work_dir"]
            res["ff_paired"] = ff_paired(cwd / "nextpnr.log")
            res["end_hop"] = end_hop(cwd / "report.json")
        except (OSError, KeyError, ValueError) as exc:
            print(f"error: {args.result}: {exc}", file=sys.stderr)
            return 1
        args.result.write_text(json.dumps(res, indent=1) + "\n")
        print(f"{args.result}: FFs paired {res['ff_paired']}, into its end register {_end_text(res)}")
        return 0
    if args.cmd == "loop":
        try:
            res = json.loads(args.result.read_text())
            paths = loop_paths(ROOT / res["work_dir"] / "netlist.json", args.pe, res.get("design", "mm_ws_ring"))
        except (OSError, KeyError, ValueError) as exc:
            print(f"error: {args.result}: {exc}", file=sys.stderr)
            return 1
        if not paths:
            print(f"error: {args.result}: no loop registers of PE {args.pe} in its netlist", file=sys.stderr)
            return 1
        for key, n in paths.items():
            print(f"{key}: {n} paths")
        return 0
    if args.cmd == "table":
        write_table()
        print(table(load_store()))
        return 0
    lat = args.dsp_regs + 3 + args.loop_regs
    if not 2 <= args.pe <= 78:
        ap.error(f"--pe must be in [2, 78] (two MULT18X18D per PE, 156 on the LFE5U-85F), not {args.pe}")
    if args.top in ("array", "pke"):
        # mm_ws_array's legal builds (docs/ws.md): 2cd >= L (= L: the quotient bypass)
        c = args.chunks
        if not 1 <= c <= 4 or (c > 1 and (args.pe % 2 or math.gcd(args.pe // 2, c) != 1)):
            ap.error(f"--chunks must be in [1, 4], for c > 1 with P even and gcd(P/2, c) = 1, not {c}")
        least = max(2, -(-lat // (2 * c)))
        d = args.quot_delay if args.quot_delay is not None else least
        if not least <= d <= 8:
            ap.error(f"--quot-delay must be in [{least}, 8] for L = {lat}, c = {c}, not {d}")
        top_m = c * args.pe - 1
        mw = args.max_words if args.max_words is not None else top_m
        if not max(d + 2, (c - 1) * args.pe) <= mw <= top_m:
            ap.error(f"--max-words must be in [{max(d + 2, (c - 1) * args.pe)}, {top_m}], not {mw}")
        if args.clear_mode:
            ap.error("--clear-mode is a ring option (mm_ws_array builds its PEs with ClearMode 0)")
        params = {"NumPe": args.pe, "WordWidth": args.width, "DspRegs": args.dsp_regs, "Chunks": c,
                  "QuotDelay": d, "MaxWords": mw}
        if args.top == "pke":
            if args.prog_words & (args.prog_words - 1) or not 2 <= args.prog_words <= 4096:
                ap.error(f"--prog-words must be a power of two in [2, 4096], not {args.prog_words}")
            params["ProgWords"] = args.prog_words
    else:
        d = args.quot_delay if args.quot_delay is not None else (lat + 2) // 2
        if not (2 * d >= lat + 1 and d <= 8):
            ap.error(f"--quot-delay must be in [{(lat + 2) // 2}, 8] for L = {lat}, not {d}")
        if not 2 <= args.slots <= 16:
            ap.error(f"--slots must be in [2, 16], not {args.slots}")
        params = {"NumPe": args.pe, "WordWidth": args.width, "DspRegs": args.dsp_regs, "QuotDelay": d,
                  "Slots": args.slots, "ClearMode": args.clear_mode}
    if args.loop_regs:
        params["LoopRegs"] = args.loop_regs
    try:
        tools.check("ecp5")
        res = run(params, args.seed, args.variant, args.timeout, args.router)
    except tools.ToolError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(summary(res))
    if not args.no_store:
        print(f"stored {os.path.relpath(store(res), ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
