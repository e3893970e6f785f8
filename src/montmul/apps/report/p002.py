# SPDX-License-Identifier: Apache-2.0
"""Paper 002's Tables II and III rebuilt (the scalable radix-4 Booth cores
``r4booth_right`` and ``r4booth_left``), a family section of ``montmul
report``.

    python -m montmul.apps.report.p002 [--out docs/results_p002.md] [--workers N]

Table II (LUTs and registers per PE, critical path, clock): Yosys
``synth_xilinx -family xc2v`` (Virtex-II, the paper's 4-input-LUT family) of a
small kernel, the per-PE figure read from the per-instance breakdown
(:func:`montmul.flows.synth.instance_costs`) and averaged over the kernel's PEs;
the clock from ECP5 place and route of the same build (nextpnr-ecp5,
post-route Fmax).  The paper's critical paths come from a p = 2 kernel; the
left-shifting core needs w | 2p, so its w = 8 and 16 builds have p = 4 and 8.

Table III (total LUTs and registers for p = 16, 32, 64 at w = 16; 256- and
1024-bit exponentiation times): xc2v synthesis of the core at Width = 1024
for each p, split by the breakdown into the kernel (PEs), the word memories
and FIFO (which the paper leaves out), and the rest (controller, operand and
result registers, request shell); the kernel derived from the Table II
breakdown (p/p' copies of its kernel) is kept as a cross-check of the
measured one; times = (2n + 2) products of the model's cycles,
at the paper's clock (kernel cycles: the paper's count) and at our ECP5 Fmax
(the core's whole latency).  docs/scalable.md explains every difference.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from ...flows import executor as sweep
from ...flows import synth
from ...models import scalable
from . import papers
from . import render

#: Tables II and III as printed (resources; times: montmul.models.scalable.TABLE3)
TABLE2_PAPER = papers.TABLE2_002
TABLE3_PAPER = papers.TABLE3_002
#: the printed critical paths
CRITICAL_PATH_PAPER = {
    "right": "INV + MUX5 + 2CSA + MUX2 + REG",
    "left": "ENC + INV + MUX5 + 2CSA + AND + 2MUX2 + REG",
}
KINDS = ("right", "left")
T2_WORDS = (4, 8, 16)
T2_WIDTH = 64  #: build width of the Table II kernels (the PE does not depend on it)
T3_WIDTH = 1024  #: build width of the Table III cores (n up to 1024)
T3_PES = (16, 32, 64)  #: each synthesized at Width = 1024
T3_WORD = 16
T3_BITS = (256, 1024)


def t2_pes(kind: str, w: int) -> int:
    """The Table II kernel's p: 2 as in the paper, or the smallest p with
    w | 2p for the left-shifting core."""
    return 2 if kind == "right" else max(2, w // 2)


def jobs() -> dict[str, list[synth.Job]]:
    t2 = [synth.Job(f"r4booth_{k}", T2_WIDTH, "xilinx", {"WordWidth": w, "NumPes": t2_pes(k, w)}, {"family": "xc2v"})
          for k in KINDS for w in T2_WORDS]
    fmax = [synth.Job(f"r4booth_{k}", T2_WIDTH, "ecp5", {"WordWidth": w, "NumPes": t2_pes(k, w)})
            for k in KINDS for w in T2_WORDS]
    t3 = [synth.Job(f"r4booth_{k}", T3_WIDTH, "xilinx", {"WordWidth": T3_WORD, "NumPes": p},
                    {"family": "xc2v"}) for k in KINDS for p in T3_PES]
    return {"t2": t2, "fmax": fmax, "t3": t3}


#: the top module of both cores (ShiftLeft chooses the PE) and their PE
TOP = "mm_r4booth"
PE = "mm_r4booth_pe"


def _pes(result: dict) -> dict[str, dict]:
    return synth.instance_costs(result, PE)


def _sum(costs, key: str) -> int:
    return sum(c[key] for c in costs)


def _t2_row(kind: str, w: int, xr: dict, er: dict) -> dict:
    row: dict = {"shift": kind, "w": w, "p": t2_pes(kind, w), "paper": TABLE2_PAPER[(kind, w)]}
    if "error" in xr:
        row["error"] = xr["error"]
    else:
        try:
            pes = list(_pes(xr).values())
            row["luts_pe"] = _sum(pes, "luts") / len(pes)
            row["ff_pe"] = _sum(pes, "ff") / len(pes)
            row["luts_pe_range"] = (min(c["luts"] for c in pes), max(c["luts"] for c in pes))
        except ValueError as exc:
            row["error"] = str(exc)
    if "error" in er:
        row["fmax_error"] = er["error"]
    else:
        row["fmax_mhz"] = er["fmax_mhz"]
    return row


def _latency(kind: str, n_bits: int, w: int, p: int) -> int:
    """The core's latency for one n-bit product (the model's; it depends on
    the modulus length only)."""
    n = random.Random(n_bits).getrandbits(n_bits) | (1 << (n_bits - 1)) | 1
    model = scalable.r4booth_right if kind == "right" else scalable.r4booth_left
    return model(1, 1, n, T3_WIDTH, word_width=w, num_pes=p).cycles


def _kernel(t2: dict, kind: str, p: int) -> tuple[int, int] | None:
    """LUTs and FFs of a p-PE kernel at w = 16 from the Table II build's
    breakdown: the hierarchical run synthesizes each PE module once, so an
    instance's cost depends only on its module and parameters; a right PE
    has none besides w, a left PE its position 2i mod w, which repeats with
    period w/2 = the Table II build's p.  So the p-PE kernel is exactly
    p / p_t2 copies of the Table II kernel."""
    if "error" in t2:
        return None
    pes = list(_pes(t2).values())
    if p % len(pes):
        return None
    m = p // len(pes)
    return m * _sum(pes, "luts"), m * _sum(pes, "ff")


def _breakdown(kind: str, r: dict) -> dict:
    """A Width-1024 build split by its per-instance breakdown: kernel (the
    PEs), word memories and FIFO, the request shell, the whole top, and the
    rest (top minus kernel, memories and FIFO); ``error`` when it failed."""
    if "error" in r:
        return {"error": r["error"]}
    try:
        inst = synth.instance_costs(r)
        top = inst[TOP]
        pes = list(_pes(r).values())
        mem = list(synth.instance_costs(r, "mm_r4booth_mem").values()) + \
            list(synth.instance_costs(r, "mm_r4booth_fifo").values())
        ctrl = inst[f"{TOP}/u_ctrl"]
    except (ValueError, KeyError) as exc:
        return {"error": f"no breakdown: {exc}"}
    out = {
        "flat": (r["luts"], r["ff"]),
        "lutram": sum(v for c, v in r["cells"].items() if c.startswith("RAM")),
        "kernel": (_sum(pes, "luts"), _sum(pes, "ff")),
        "pes": len(pes),
        "mem_fifo": (_sum(mem, "luts"), _sum(mem, "ff")),
        "shell": (ctrl["luts"], ctrl["ff"]),
        "top": (top["luts"], top["ff"]),
        "seconds": r.get("seconds", {}).get("total"),
    }
    out["rest"] = tuple(out["top"][i] - out["kernel"][i] - out["mem_fifo"][i] for i in (0, 1))
    out["paper_scope"] = tuple(out["rest"][i] + out["kernel"][i] for i in (0, 1))
    return out


def _t3_rows(built: dict[tuple[str, int], dict], t2w16: dict[str, dict], fmax: dict[str, float | None]) -> list[dict]:
    """One row per (kind, p) from its own Width-1024 build ``built[(kind,
    p)]``; ``derived`` = the kernel from the Table II breakdown, a
    cross-check of the measured kernel."""
    rebuilt = {(r["shift"], r["p"], r["n"]): r for r in scalable.table3()}
    rows = []
    for kind in KINDS:
        for p in T3_PES:
            row: dict = {"shift": kind, "p": p, "paper": TABLE3_PAPER[(kind, p)], "times": []}
            k = _kernel(t2w16[kind], kind, p)
            if k is not None:
                row["derived"] = k
            b = _breakdown(kind, built[(kind, p)])
            if "error" in b:
                row["error"] = b["error"]
            else:
                row.update(b)
                row["scope_vs_paper"] = tuple(b["paper_scope"][i] / row["paper"][i] for i in (0, 1))
            for n in T3_BITS:
                t = rebuilt[(kind, p, n)]
                lat = _latency(kind, n, T3_WORD, p)
                f = fmax.get(kind)
                row["times"].append({
                    "n": n, "case": t["case"], "kernel_cycles": t["kernel_cycles"], "latency": lat,
                    "paper_mhz": t["mhz"], "ms_paper_clock": t["ms"], "printed": t["printed"], "match": t["match"],
                    "implied_cycles": t["implied_cycles"],
                    "ms_ecp5": (2 * n + 2) * lat / (f * 1e3) if f else None,
                })
            rows.append(row)
    return rows


def _in_cache(job: synth.Job) -> bool:
    return synth.cached(job) is not None  # the build cache or the tracked store


def build(workers: int | None = None, cached_only: bool = False, executor=None) -> dict:
    """Run (or read from the cache) the synthesis jobs and assemble both
    tables; failed runs keep their reason.  ``cached_only``: run nothing,
    report a job missing from the synthesis cache as not run."""
    js = jobs()
    flat = js["t2"] + js["fmax"] + js["t3"]
    todo = [j for j in flat if not cached_only or _in_cache(j)]
    done = iter(synth.run_many(todo, workers=workers, on_error="return", executor=executor))
    res = [next(done) if j in todo else {"core": j.core, "width": j.width, "target": j.target,
                                         "error": "not run (--cached-only and not in the synthesis cache)"}
           for j in flat]
    n2, n3 = len(js["t2"]), len(js["fmax"])
    t2x, t2e, t3 = res[:n2], res[n2:n2 + n3], res[n2 + n3:]
    table2 = [_t2_row(j.core.split("_")[1], j.params["WordWidth"], xr, er) for j, xr, er in zip(js["t2"], t2x, t2e)]
    fmax = {r["shift"]: r.get("fmax_mhz") for r in table2 if r["w"] == T3_WORD}
    t2w16 = {j.core.split("_")[1]: r for j, r in zip(js["t2"], t2x) if j.params["WordWidth"] == T3_WORD}
    table3 = _t3_rows({(j.core.split("_")[1], j.params["NumPes"]): r for j, r in zip(js["t3"], t3)}, t2w16, fmax)
    return {
        "table2": table2,
        "table3": table3,
        "fmax_for_table3": fmax,
        "settings": {"t2_width": T2_WIDTH, "t3_width": T3_WIDTH, "word": T3_WORD,
                     "yosys": next((r["tools"].get("yosys") for r in res if "tools" in r), None),
                     "nextpnr": next((r["tools"].get("nextpnr-ecp5") for r in t2e if "tools" in r), None)},
    }


def _f(x, fmt: str = ",.0f") -> str:
    return "—" if x is None else format(x, fmt)


def _t(header: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + ["| " + " | ".join(r) + " |" for r in rows]


def _t3_differences(table3: list[dict]) -> list[str]:
    """The differences from the paper's Table III, with the numbers of the
    rows that have a build (the reasons: docs/scalable.md, Table III)."""
    ok = [r for r in table3 if "error" not in r]
    if not ok:
        return []
    L = ["Differences from the paper (reasons in docs/scalable.md, Table III):", ""]
    for kind in KINDS:
        rs = [r for r in ok if r["shift"] == kind]
        if not rs:
            continue
        ker = ", ".join(f"p = {r['p']}: {r['kernel'][0] / r['p']:.0f} / {r['kernel'][1] / r['p']:.0f}" for r in rs)
        rest = ", ".join(f"{r['rest'][0]:,} / {r['rest'][1]:,}" for r in rs)
        L.append(f"* {kind}-shifting: kernel LUTs / FFs per PE {ker} (Table II's per-PE difference: binary Z word, "
                 f"carry-propagate adds); rest {rest} LUTs / FFs for p = " + ", ".join(str(r["p"]) for r in rs)
                 + f", of which the shell (two {T3_WIDTH + 1}-bit range comparators) {rs[0]['shell'][0]:,} LUTs, "
                 "and about 3 × 1024 operand flip-flops (X window, N, Y/result) the paper keeps in external RAM.")
        if len(rs) > 1:
            a, b = rs[0], rs[-1]
            grow = [(b["paper_scope"][i] - a["paper_scope"][i]) / (b["p"] - a["p"]) for i in (0, 1)]
            pg = [(b["paper"][i] - a["paper"][i]) / (b["p"] - a["p"]) for i in (0, 1)]
            L.append(f"  From p = {a['p']} to {b['p']} our paper's scope grows by {grow[0]:.0f} LUTs / {grow[1]:.0f} "
                     f"FFs per added PE, the paper's by {pg[0]:.0f} / {pg[1]:.0f}: the p-independent rest is where "
                     "most of the gap at small p comes from.")
    return L + [""]


def _not_run(err) -> bool:
    return str(err or "").startswith("not run")


def _missing(missing: list[str]) -> list[str]:
    """The one line naming the rows a table leaves out: no synthesis result yet."""
    return ["", "Not measured yet: " + ", ".join(missing) + "."] if missing else []


def markdown(data: dict) -> str:
    s = data["settings"]
    L = ["## Paper 002: scalable radix-4 Booth (r4booth_right, r4booth_left)", "",
         "Generated by `python -m montmul.apps.report.p002 --out docs/results_p002.md` (`--cached-only`: from "
         "stored results only).", ""]
    yosys = f" ({s['yosys']})" if s.get("yosys") else ""
    nextpnr = f"{s['nextpnr']}, " if s.get("nextpnr") else ""
    L += ["Paper 002 used Synplify Pro on a Xilinx XC2V2000-6 (Virtex-II). Ours: Yosys "
          f"`synth_xilinx -family xc2v`{yosys} for LUTs and registers, nextpnr-ecp5 ({nextpnr}LFE5U-85F) "
          "for the clock. Differences explained in docs/scalable.md.", ""]
    L += ["### Table II: per PE", "",
          f"`montmul synth --core r4booth_right --width {s['t2_width']} --target xilinx --option family=xc2v "
          "--param WordWidth=W --param NumPes=P --instances` (and `--target ecp5` for Fmax); per PE = the PE "
          f"instances of the kernel (`{PE}`) averaged over its p PEs (left: the PEs differ by "
          "their bit position; the range is given).", ""]
    rows, missing = [], []
    for r in data["table2"]:
        pl, pr, pf = r["paper"]
        if _not_run(r.get("error")) or _not_run(r.get("fmax_error")):
            missing.append(f"{r['shift'][0].upper()} w = {r['w']} p = {r['p']}")
            continue
        if "error" in r:
            lut = ff = f"failed: {r['error'][:80]}"
        else:
            lo, hi = r["luts_pe_range"]
            lut = f"{r['luts_pe']:.0f}" + (f" ({lo}–{hi})" if lo != hi else "")
            ff = f"{r['ff_pe']:.0f}"
        fm = f"{r['fmax_mhz']:.0f}" if "fmax_mhz" in r else f"failed: {r.get('fmax_error', '')[:80]}"
        rows.append([r["shift"][0].upper(), str(r["w"]), str(r["p"]), lut, str(pl), ff, str(pr), fm, str(pf)])
    L += _t(["shift", "w", "p", "LUTs/PE (xc2v)", "paper", "regs/PE", "paper", "ECP5 Fmax MHz", "paper MHz"],
            rows) if rows else []
    L += _missing(missing)
    L += ["", "Paper's critical paths (p = 2): R " + CRITICAL_PATH_PAPER["right"] + "; L "
          + CRITICAL_PATH_PAPER["left"] + ".", ""]
    L += ["### Table III: totals and exponentiation times", "",
          f"`montmul synth --core r4booth_right --width {s['t3_width']} --target xilinx --option family=xc2v "
          f"--param WordWidth={s['word']} --param NumPes=P --instances` (P = "
          + ", ".join(str(p) for p in T3_PES) + "; and r4booth_left), one build per p. The paper "
          "counts kernel + controller without the memories and FIFO; our 'paper's scope' is the breakdown's "
          "total minus the word memories and FIFO, i.e. the kernel (PEs) plus the rest, which holds our "
          "controller, operand and result registers and the request shell ('shell', the input range check; "
          "the paper's operands stay in external RAM). 'Table II × p/p′' is the kernel derived from the "
          "Table II breakdown (the hierarchical run costs each PE module once, so a p-PE kernel is p/p′ copies "
          "of the p′-PE Table II kernel): a cross-check of the measured kernel. 'flat' is the flat run's "
          "count, the memories and FIFO as LUT-RAM cells. 'ours / paper' = our paper's scope over the "
          "printed figure (LUTs, registers).", ""]
    rows, missing = [], []
    for r in data["table3"]:
        pl, pr = r["paper"]
        d = r.get("derived")
        if _not_run(r.get("error")):
            missing.append(f"{r['shift'][0].upper()} p = {r['p']}")
            continue
        if "error" in r:
            cells = [f"failed: {r['error'][:80]}", "—", "—", f"{d[0]:,} / {d[1]:,}" if d else "—", "—", "—", "—"]
        else:
            km = tuple(r["kernel"])
            check = "—" if d is None else ("= measured" if tuple(d) == km else f"{d[0]:,} / {d[1]:,}")
            cells = [f"{r['flat'][0]:,} / {r['flat'][1]:,} (+{r['lutram']} RAM)",
                     f"{r['paper_scope'][0]:,} / {r['paper_scope'][1]:,}",
                     f"{km[0]:,} / {km[1]:,}",
                     check,
                     f"{r['rest'][0]:,} / {r['rest'][1]:,}",
                     f"{r['shell'][0]:,} / {r['shell'][1]:,}",
                     f"{r['scope_vs_paper'][0]:.2f} / {r['scope_vs_paper'][1]:.2f}"]
        rows.append([r["shift"][0].upper(), str(r["p"])] + cells + [f"{pl:,} / {pr:,}"])
    L += _t(["shift", "p", "flat LUTs / FFs", "paper's scope", "kernel (PEs)", "Table II × p/p′", "rest",
             "of which shell", "ours / paper", "paper LUTs / REGs"], rows) if rows else []
    L += _missing(missing)
    L += [""] + _t3_differences(data["table3"])
    fm = data["fmax_for_table3"]
    L += ["", "Times: (2n + 2) products. 'paper clock' = the paper's counted kernel cycles (Sec. IV-C's equations, "
          "`montmul.models.scalable.table3()`) at its clock (R 248 MHz, L 186 MHz); 'implied' = the range of "
          "cycles per product the printed time allows; 'ECP5' = our core's whole latency (kernel + the last "
          f"pass's drain, the model's, checked against the RTL) at our w = 16 ECP5 Fmax (R {_f(fm.get('right'), '.0f')}, "
          f"L {_f(fm.get('left'), '.0f')} MHz).", ""]
    rows = []
    for r in data["table3"]:
        for t in r["times"]:
            lo, hi = t["implied_cycles"]
            rows.append([r["shift"][0].upper(), str(r["p"]), str(t["n"]), t["case"], str(t["kernel_cycles"]),
                         f"{lo:.1f}–{hi:.1f}", f"{t['ms_paper_clock']:.3f}", t["printed"],
                         "=" if t["match"] else f"{100 * (t['ms_paper_clock'] / float(t['printed']) - 1):+.1f} %",
                         str(t["latency"]), _f(t["ms_ecp5"], ".3f")])
    L += _t(["shift", "p", "n", "case", "kernel cycles", "implied", "ms, paper clock", "printed ms", "",
             "latency", "ms, ECP5"], rows)
    L += [""]
    return "\n".join(L)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m montmul.apps.report.p002", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=None, help="write the section here (default: stdout)")
    ap.add_argument("--workers", type=int, default=None, help="parallel synthesis processes")
    sweep.add_arguments(ap)
    ap.add_argument("--cached-only", action="store_true", help="run no synthesis; report missing runs as not run")
    args = ap.parse_args(argv)
    data, code = sweep.run_cli(ap.prog, args, args.workers,
                               lambda ex: build(args.workers, cached_only=args.cached_only, executor=ex))
    if code:
        return code
    render.emit(markdown(data), args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
