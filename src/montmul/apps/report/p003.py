# SPDX-License-Identifier: Apache-2.0
"""Paper 003's Table I rebuilt: the DSP-based redundant high-radix multiplier
(``dsp_redundant``, ``dsp_redundant_ecp5``) beside the paper's figures.

    python -m montmul.apps.report.p003 [--out docs/results_p003.md] [--jobs J]

:func:`build` runs (or takes from the synthesis cache) Yosys ``synth_xilinx``
(7 series) for ``dsp_redundant`` at 256 and 504 bits and nextpnr-ecp5 place
and route for ``dsp_redundant_ecp5`` at 256 and 1024 bits, each for
Interleave = 1, 2, 3, and measures the cycles on the model the way
``montmul cycles`` does (a batch of Interleave requests back to back);
:func:`markdown` renders the section.  A failed or timed-out synthesis job
is shown with its reason in the table's cells.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ... import cores
from .. import stats
from ...models import dsp
from ...flows import executor as sweep
from ...flows import synth
from ...flows.synth import Job, run_many, tuning
from .papers import FPGA_PAPERS
from . import render

INTERLEAVES = (1, 2, 3)
XILINX = ("dsp_redundant", (256, 504))
ECP5 = ("dsp_redundant_ecp5", (256, 1024))
#: ECP5 flow options per width: the flow's tuning of the DSP cores
#: (montmul.flows.synth.tuning.DSP: share=0, two hours, router2 and one seed
#: at 1024 bits; docs/dsp.md says why)
ECP5_OPTIONS = {k: tuning.ecp5_options(ECP5[0], k) for k in ECP5[1]}
#: the measurement behind share=0: the 256-bit I = 1 build with and without
#: `share` (both cheap), compared in the section
SHARE_CHECK = (256, 1)
#: model samples per configuration (the core is constant time; a few
#: batches confirm it)
SAMPLES = 4

#: An open comparable, not one of the project's papers (docs/references.md): its figures are
#: the implementation results published in the README of the HOST 2023
#: submission's repository (github.com/anonymHost2023/Scalable-DSP-opt-FIOS-MM,
#: README.md at commit 04bc176b3087f277a1e2a192d1fa8a67bfdc5be5), the design
#: later published as github.com/LOUISNOYEZ/FIOS_DSP_MM.  Zynq UltraScale+
#: xczu7ev-2 (DSP48E2, 27x18), Vivado; latency in cycles for one product.
FIOS_SOURCE = ("FIOS_DSP_MM (Scalable DSP optimized Montgomery Multiplier, HOST 2023), README of "
               "github.com/anonymHost2023/Scalable-DSP-opt-FIOS-MM (later github.com/LOUISNOYEZ/FIOS_DSP_MM); "
               "published, other device (Zynq UltraScale+ xczu7ev-2, Vivado)")
FIOS_DEVICE = "Zynq US+ xczu7ev-2"
FIOS_DSP_MM = (  # width, MHz, latency cycles, time us, DSP, LUT
    (256, 700, 172, 0.246, 5, 902),
    (1024, 700, 667, 0.953, 15, 2653),
    (2048, 700, 1327, 1.90, 28, 4985),
)

COMMANDS = {
    "xilinx": "montmul synth --core dsp_redundant --width {k} --target xilinx --param Interleave={i}",
    "ecp5": "montmul synth --core dsp_redundant_ecp5 --width {k} --target ecp5 --param Interleave={i}{o}",
    "cycles": "montmul cycles --core {core} --width {k} --param Interleave={i} --sim model",
}


def _cycles(core: str, k: int, ilv: int) -> dict:
    """Batch cycles on the model, as ``montmul cycles`` reports them."""
    c = cores.get(core)
    p = {"Interleave": ilv}
    if ilv > 1:
        out = stats.batch_stats(c, k, SAMPLES, 1, "model", params=p)
        batch = out["batch"]["avg"]
    else:
        out = stats.cycle_stats(c, k, SAMPLES, 1, "model", params=p)
        batch = out["avg"]
    g = dsp.geometry(k, *(c.hdl_params(k, **p)[x] for x in ("R1", "R2")))
    return {"latency": out["avg"], "batch": batch, "kernel": out["kernel_avg"],
            "paper_cycles": dsp.paper_batch_cycles(k, g.r1, ilv), "m": g.m, "db": g.db, "dm": g.dm,
            "newton": g.newton, "r1": g.r1, "r2": g.r2}


def _bound(k: int, r1: int, r2: int, multipliers: int) -> dict:
    """(2 s_a s_b + s_a) / P: the digit products of one Montgomery product
    (s_a x s_b for A*B, as many for Q*M, s_a for the quotient digits) with
    s_a = ceil(k/r1) digits of A and s_b = ceil(k/r2) of B on P digit
    multipliers; the square form (2s^2 + s)/P when r1 = r2."""
    sa, sb = -(-k // r1), -(-k // r2)
    return {"s_a": sa, "s_b": sb, "products": 2 * sa * sb + sa, "P": multipliers,
            "cycles": (2 * sa * sb + sa) / multipliers}


#: Why a job may be missing from the cache (shown in its cells with --cached).
NOT_RUN: dict[tuple[str, int, int], str] = {}


def options_text(opts: dict) -> str:
    return "".join(f" --option {o}={v}" for o, v in opts.items())


def jobs() -> list[Job]:
    """The section's synthesis jobs (the table rows; :func:`share_job` apart)."""
    out = [Job(XILINX[0], k, "xilinx", {"Interleave": i}) for k in XILINX[1] for i in INTERLEAVES]
    return out + [Job(ECP5[0], k, "ecp5", {"Interleave": i}, dict(ECP5_OPTIONS[k]))
                  for k in ECP5[1] for i in INTERLEAVES]


def share_job() -> Job:
    """The SHARE_CHECK build without `share` (its twin with `share` is a row)."""
    k, i = SHARE_CHECK
    return Job(ECP5[0], k, "ecp5", {"Interleave": i}, {**ECP5_OPTIONS[k], "share": 0})


def build(workers: int | None = None, run: bool = True, executor=None) -> dict:
    """Synthesis results and model cycles for every row.  ``run=False`` takes
    only what the synthesis cache holds (a job not in it is reported as not
    run), for writing the doc while long place-and-route jobs are elsewhere
    under way."""
    todo = jobs() + [share_job()]
    if run:
        results = run_many(todo, workers=workers, on_error="return", executor=executor)
    else:
        results = []
        for job in todo:
            why = NOT_RUN.get((job.target, job.width, job.params["Interleave"]))
            results.append(synth.cached(job) or {"error": why or "not run (not in the synthesis cache)"})
    share = {"no_share": _keep(results[-1])}
    todo, results = todo[:-1], results[:-1]
    rows = []
    for job, res in zip(todo, results):
        ilv = job.params["Interleave"]
        cyc = _cycles(job.core, job.width, ilv)
        keep = _keep(res)
        if (job.target, job.width, ilv) == ("ecp5", *SHARE_CHECK):
            share["share"] = keep
        rows.append({"core": job.core, "target": job.target, "width": job.width, "interleave": ilv,
                     "synth": keep, "cycles": cyc,
                     "paper_dsp": dsp.paper_dsp_count(job.width, cyc["r2"]),
                     "bound": _bound(job.width, cyc["r1"], cyc["r2"], cyc["db"] + cyc["dm"])})
    paper = [{"width": p.width, "interleave": int(p.design.split(", ")[1].split()[0]), "dsps": p.dsps,
              "luts": p.luts, "ffs": p.ffs, "fmax_mhz": p.fmax_mhz, "cycles": p.cycles, "ns": p.mult_ns}
             for p in FPGA_PAPERS if p.paper == "003"]
    fios = [{"width": w, "fmax_mhz": f, "cycles": c, "time_us": t, "dsps": d, "luts": lut}
            for w, f, c, t, d, lut in FIOS_DSP_MM]
    return {"rows": rows, "paper": paper, "fios": fios, "fios_source": FIOS_SOURCE, "fios_device": FIOS_DEVICE,
            "share_check": share}


def _keep(res: dict) -> dict:
    keep = {key: res.get(key) for key in ("luts", "ff", "dsp", "fmax_mhz", "carry4", "ccu2c", "error")}
    secs = res.get("seconds") or {}
    keep["seconds"] = secs.get("total")
    keep["yosys_s"] = secs.get("yosys")
    return keep


def _cell(v, fmt: str = "{}") -> str:
    return "–" if v is None else fmt.format(v)


def _failed(row: dict) -> str | None:
    err = row["synth"].get("error")
    if not err:
        return None
    text = " ".join(str(err).split())[:160].replace("|", "/")
    return text if text.startswith(("not run", "stopped")) else "failed: " + text


def _unmeasured(row: dict | None) -> bool:
    """No synthesis result for this row (not run, or not in the cache with
    ``--cached``): the tables leave it out and name it in one line."""
    if not row:
        return True
    err = row["synth"].get("error") if "synth" in row else row.get("error")
    return str(err or "").startswith("not run")


def _split(data: dict, target: str) -> tuple[list[dict], list[str]]:
    """The rows of ``target`` with a synthesis result, and "(k, I)" of the others."""
    rows = [r for r in data["rows"] if r["target"] == target]
    return ([r for r in rows if not _unmeasured(r)],
            [f"({r['width']}, {r['interleave']})" for r in rows if _unmeasured(r)])


def _missing_line(missing: list[str], what: str = " (k, I)") -> list[str]:
    return ["", f"Not measured yet{what}: " + ", ".join(missing) + "."] if missing else []


def _paper(data: dict, k: int, ilv: int) -> dict | None:
    for p in data["paper"]:
        if p["width"] == k and p["interleave"] == ilv:
            return p
    return None


def _share_section(data: dict) -> list[str]:
    """Why the 1024-bit ECP5 runs leave Yosys's `share` pass out, with the
    256-bit measurement (both builds from the cache or run)."""
    k, i = SHARE_CHECK
    sc = data.get("share_check", {})
    a, b = sc.get("share", {}), sc.get("no_share", {})
    cmd = COMMANDS["ecp5"].format(k=k, i=i, o=options_text(ECP5_OPTIONS[k]))
    out = ["", "#### Yosys's `share` pass and the 1024-bit runs", "",
           "synth_ecp5's coarse step runs `share` (SAT-based sharing of multipliers and other wide cells "
           "whose results are never needed in the same cycle). With I = 1 every digit product is unused while "
           "a request is loaded, so at 1024 bits it SAT-checks the 132 multipliers pairwise (~8 600 pairs, "
           "each a large SAT problem) and does not finish in useful time (docs/dsp.md). The fix "
           "is a flow option, not an RTL change: `--option share=0` runs the same synth_ecp5 steps with the "
           "coarse step spelled out without `share` (`montmul.flows.synth.flows.ecp5_synth`; the spelled-out script "
           "with `share` gives the same cells as synth_ecp5, checked by `tests/test_synth_share.py`), default "
           "unchanged so every other result stays comparable. An RTL restructuring (a register in front of "
           "the multipliers' operand multiplexers, as in `mm_sys_pe`) would change the verified cycle-exact "
           "core for a synthesis-tool problem. The 1024-bit column uses share=0 for I = 1, 2, 3 alike "
           "(with I ≥ 2 `share` finds no candidates: the products go straight into the register layer). "
           f"Measured at {k} bits, I = {i}: `{cmd}` with and without `--option share=0`:", "",
           "| share | Yosys s | LUT | FF | MULT18X18D | Fmax MHz | wall s |", "|---|---|---|---|---|---|---|"]
    missing = []
    for name, r in (("1 (default)", a), ("0", b)):
        if _unmeasured(r):
            missing.append(f"share = {name.split()[0]}")
            continue
        if r.get("error"):
            out.append(f"| {name} | {r['error']} | | | | | |")
            continue
        out.append(f"| {name} | {_cell(r.get('yosys_s'), '{:.0f}')} | {_cell(r['luts'])} | {_cell(r['ff'])} | "
                   f"{_cell(r['dsp'])} | {_cell(r['fmax_mhz'], '{:.1f}')} | {_cell(r['seconds'], '{:.0f}')} |")
    if a.get("dsp") is not None and b.get("dsp") is not None and not a.get("error") and not b.get("error"):
        out += ["", f"Without `share`: {b['dsp'] - a['dsp']:+d} MULT18X18D, {b['luts'] - a['luts']:+,} LUTs, "
                    f"{b['ff'] - a['ff']:+,} FFs at {k} bits."]
    return out + _missing_line(missing, "")


def markdown(data: dict) -> str:
    out = ["## Paper 003: DSP-based redundant high-radix multiplier (Table I rebuilt)", "",
           "Generated by `python -m montmul.apps.report.p003 --out docs/results_p003.md` (`--cached`: from "
           "stored results only).", ""]
    out.append(
        "`mm_dsp_redundant` (docs/dsp.md) beside paper 003's Table I (Virtex-7, Vivado; their 40 / 72 DSPs "
        "= 2·mb + 4 digit multipliers, M~ given precomputed). Ours computes M' and M~ itself (two r1×r1 "
        "low-half products, P Newton steps), takes B binary and returns S binary. Cycles: `batch` = first "
        "request accepted to last response for Interleave requests back to back on an idle core; `as paper` "
        "= the same batch counted as Table I counts it (accept spread + the last product's m+3 iterations), "
        "from `montmul cycles` on the model (RTL = model cycle for cycle, `tb/mm_dsp_redundant`). "
        "ns per product = batch cycles / Interleave / Fmax.")
    out += ["", "### Xilinx 7 series: Yosys `synth_xilinx` (resources only, no place and route)", ""]
    out.append("| k | I | DSP48E1 | paper DSP | 2·mb+4 | LUT | paper LUT | FF | paper FF | cycles: batch | "
               "as paper | paper | paper ns/product |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    rows, missing = _split(data, "xilinx")
    for r in rows:
        k, i, s, c = r["width"], r["interleave"], r["synth"], r["cycles"]
        p = _paper(data, k, i) or {}
        bad = _failed(r)
        res = [bad, "", "", "", ""] if bad else [_cell(s["dsp"]), "", _cell(s["luts"]), "", _cell(s["ff"])]
        out.append(f"| {k} | {i} | {res[0]} | {_cell(p.get('dsps'))} | {r['paper_dsp']} | {res[2]} | "
                   f"{_cell(p.get('luts'))} | {res[4]} | {_cell(p.get('ffs'))} | {c['batch']:.0f} | "
                   f"{c['kernel']:.0f} | {_cell(p.get('cycles'))} | {_cell(p.get('ns'), '{:.1f}')} |")
    out += _missing_line(missing)
    out += ["", "Commands: `" + COMMANDS["xilinx"].format(k="K", i="I") + "` (K = 256, 504; I = 1, 2, 3) and `"
            + COMMANDS["cycles"].format(core="dsp_redundant", k="K", i="I") + "`. DSP48E1 = "
            "⌈(k+1)/r2⌉ digit multipliers for a_i·B + ⌈(k+r1)/r2⌉ for q·M~ + 4 for M' (two 22×22 low-half "
            "products, 2 DSP48E1 each); docs/dsp.md, \"DSP count\"."]
    out += ["", "### ECP5 (LFE5U-85F): Yosys + nextpnr-ecp5, placed and routed, r1 = r2 = 16 (18×18)", ""]
    out.append("| k | I | LUT | FF | MULT18X18D | Fmax MHz | latency | batch cycles | ns/product | wall s |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    rows, missing = _split(data, "ecp5")
    for r in rows:
        k, i, s, c = r["width"], r["interleave"], r["synth"], r["cycles"]
        bad = _failed(r)
        if bad:
            out.append(f"| {k} | {i} | {bad} | | | | {c['latency']:.0f} | {c['batch']:.0f} | | |")
            continue
        ns = c["batch"] / i / s["fmax_mhz"] * 1000 if s.get("fmax_mhz") else None
        out.append(f"| {k} | {i} | {_cell(s['luts'])} | {_cell(s['ff'])} | {_cell(s['dsp'])} | "
                   f"{_cell(s['fmax_mhz'], '{:.1f}')} | {c['latency']:.0f} | {c['batch']:.0f} | "
                   f"{_cell(ns, '{:.0f}')} | {_cell(s['seconds'], '{:.0f}')} |")
    out += _missing_line(missing)
    out += ["", "Commands: " + "; ".join(
        "`" + COMMANDS["ecp5"].format(k=k, i="I", o=options_text(ECP5_OPTIONS[k])) + "`" for k in ECP5[1])
        + " (I = 1, 2, 3); Fmax from nextpnr's timing report at the default 200 MHz constraint (the median "
        "of three placement seeds when the first run took under 300 s, else seed 1's)."]
    out += _share_section(data)
    out += ["", "### Distance to the bound", ""]
    out.append("A Montgomery product of s_a × s_b digits needs 2·s_a·s_b + s_a digit products (s_a·s_b for "
               "A·B, as many for Q·M, s_a quotient digits; (2s² + s) when s_a = s_b = s), so P digit "
               "multipliers need at least (2·s_a·s_b + s_a)/P cycles per product (s_a = ⌈k/r1⌉, "
               "s_b = ⌈k/r2⌉, P = our digit multipliers). Cycles per product = batch cycles / I.")
    out += ["", "| core | k | I | s_a | s_b | P | bound | ours: cycles/product | × bound | "
            "as paper counts | × bound |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in data["rows"]:
        k, i, c, b = r["width"], r["interleave"], r["cycles"], r["bound"]
        per, kper = c["batch"] / i, c["kernel"] / i
        out.append(f"| {r['core']} | {k} | {i} | {b['s_a']} | {b['s_b']} | {b['P']} | {b['cycles']:.2f} | "
                   f"{per:.2f} | {per / b['cycles']:.2f} | {kper:.2f} | {kper / b['cycles']:.2f} |")
    out += ["", "### An open comparable: FIOS_DSP_MM (published, other device)", ""]
    out.append(f"Source: {data['fios_source']}.")
    out += ["", "| k | device | DSP | LUT | Fmax MHz | cycles | ns/product |", "|---|---|---|---|---|---|---|"]
    for f in data["fios"]:
        out.append(f"| {f['width']} | {data['fios_device']} | {f['dsps']} | {f['luts']} | {f['fmax_mhz']} | "
                   f"{f['cycles']} | {f['time_us'] * 1000:.0f} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m montmul.apps.report.p003", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, help="write the section here (default: stdout)")
    ap.add_argument("--jobs", type=int, default=None, help="parallel synthesis processes")
    sweep.add_arguments(ap)
    ap.add_argument("--cached", action="store_true",
                    help="use only cached synthesis results (missing jobs are reported as not run)")
    args = ap.parse_args(argv)
    data, code = sweep.run_cli(ap.prog, args, args.jobs, lambda ex: build(args.jobs, run=not args.cached, executor=ex))
    if code:
        return code
    render.emit(markdown(data), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
