# SPDX-License-Identifier: Apache-2.0
"""The ``montmul`` command line.

    montmul cores [--json]
    montmul mul --core NAME --width K --a A --b B --n N [--sim model|icarus|verilator] [--json]
    montmul cycles --core NAME --width K --samples S [--seed X] [--sim ...] [--jobs J] [--json]
    montmul table3 [--samples S] [--widths 1024,2048] [--json]
    montmul leak --core NAME --width K [--samples S] [--sim ...] [--json]
    montmul demo [--samples S] [--sim ...]
    montmul synth --core NAME[,..] --width K[,..] --target ecp5|asic|xilinx[,..] [--param P=V] [--option O=V] [--json]
    montmul modexp --core NAME --width K --base X --exp E --mod N [--ladder] [--sim ...] [--json]
    montmul rsa [--core NAME] (--bits B | --key PEM) [--crt|--no-crt] [--sim ...] [--json] {sign,verify,encrypt,decrypt} ...

Operands are decimal or 0x-hex.  ``--json`` prints one JSON object.
Exit status: 0 on success, 2 on a rejected input or bad usage, 1 if the RTL
disagrees with the model.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import cores
from .cli_rsa import add_parsers as add_rsa_parsers
from .cli_util import SIMS, core_and_width, fail, hdl_params, parse_csv, parse_int
from .models import InputError
from .sim.api import simulate
from .stats import cycle_stats, model_cycles

# --------------------------------------------------------------------------
def cmd_cores(args) -> int:
    rows = []
    for c in cores.CORES.values():
        w = c.all_params["Width"]
        rows.append(
            {
                "name": c.name,
                "family": c.family,
                "paper": c.paper,
                "top": c.top,
                "width_range": [w.lo, w.hi],
                "r_log2": f"k+{c.radix_log2(1024) - 1024}",
                "input_range": f"[0, {c.in_bound}N)",
                "output_range": f"[0, {c.out_bound}N)",
                "latency_bound_1024": c.bound(1024),
                "data_dependent": c.data_dependent,
                "params": {k: [p.default, p.lo, p.hi] for k, p in c.tunable.items()},
                "description": c.description,
            }
        )
    if args.json:
        print(json.dumps({"cores": rows}, indent=2))
        return 0
    hdr = ("name", "family", "R", "in", "out", "bound@1024", "data-dep", "paper")
    table = [
        (r["name"], r["family"], "2^" + r["r_log2"], r["input_range"], r["output_range"],
         str(r["latency_bound_1024"]), "yes" if r["data_dependent"] else "no", r["paper"])
        for r in rows
    ]
    widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(hdr)]
    print("  ".join(h.ljust(w) for h, w in zip(hdr, widths)))
    print("  ".join("-" * w for w in widths))
    for t in table:
        print("  ".join(v.ljust(w) for v, w in zip(t, widths)))
    return 0


# --------------------------------------------------------------------------
def cmd_mul(args) -> int:
    core, k = core_and_width(args)
    a, b, n = args.a, args.b, args.n
    params = hdl_params(args)
    try:
        want = core.run_model(a, b, n, k, params)
    except InputError as exc:
        if args.sim != "model":
            (r,) = simulate(core, k, [(a, b, n)], sim=args.sim, params=params)
            if not r.err:
                return fail(f"the RTL accepted a request the model rejects: {exc}", 1)
        return fail(f"rejected input: {exc}")
    result, cycles = want.result, want.cycles
    if args.sim != "model":
        (r,) = simulate(core, k, [(a, b, n)], sim=args.sim, params=params)
        if r.err or r.s != want.result or r.cycles != want.cycles:
            return fail(
                f"RTL ({args.sim}) disagrees with the model: rtl s={r.s:#x} err={r.err} "
                f"cycles={r.cycles}, model s={want.result:#x} cycles={want.cycles}",
                1,
            )
        result, cycles = r.s, r.cycles
    out = {
        "core": core.name,
        "width": k,
        "sim": args.sim,
        "a": a,
        "b": b,
        "n": n,
        "result": result,
        "r_log2": core.radix_log2(k, params, n),
        "cycles": cycles,
        "breakdown": want.breakdown,
        "reduced": result % n,
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"core      {core.name} (width {k}, {args.sim})")
        print(f"result    {result} ({result:#x})  = A*B*R^-1 mod N, in [0, {core.out_bound}N)")
        print(f"reduced   {result % n}")
        print(f"R         2^{core.radix_log2(k, params, n)}")
        print(f"cycles    {cycles}  {want.breakdown}")
    return 0


# --------------------------------------------------------------------------
def cmd_cycles(args) -> int:
    core, k = core_and_width(args)
    if args.samples < 1:
        return fail("--samples must be at least 1")
    try:
        out = cycle_stats(core, k, args.samples, args.seed, args.sim, args.jobs, hdl_params(args),
                          modulus_bits=args.modulus_bits)
    except RuntimeError as exc:
        return fail(str(exc), 1)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{core.name} width {k}: {args.samples} random multiplications with {out['modulus_bits']}-bit moduli, "
          f"{args.sim} (seed {args.seed})")
    print(f"  measured  avg {out['avg']:.2f}  min {out['min']}  max {out['max']}  std {out['std']:.2f}")
    print(f"  model     avg {out['model_avg']:.2f}  min {out['model_min']}  max {out['model_max']}")
    if "kernel" in out["model_breakdown_avg"]:
        print(f"  kernel    avg {out['kernel_avg']:.2f}  (the cycles the core's paper counts)")
    print("  model phases (avg): " + ", ".join(f"{k2} {v:.2f}" for k2, v in out["model_breakdown_avg"].items()))
    if args.sim != "model":
        print(f"  every RTL result and latency equals the model's ({out['seconds_sim']} s simulation)")
    return 0


# --------------------------------------------------------------------------
def cmd_leak(args) -> int:
    from .leak import audit, format_report

    core, k = core_and_width(args)
    try:
        rep = audit(core, k, args.samples, args.seed, args.sim, args.jobs, params=hdl_params(args))
    except RuntimeError as exc:
        return fail(str(exc), 1)
    print(json.dumps(rep.as_dict()) if args.json else format_report(rep))
    return 0


def cmd_table3(args) -> int:
    from .report import table3

    widths = tuple(int(w) for w in args.widths.split(","))
    try:
        data = table3.build(widths, args.samples, args.seed, args.sim, args.jobs,
                            progress=None if args.json else (lambda m: print(f"  measuring {m} ...", file=sys.stderr)))
    except RuntimeError as exc:
        return fail(str(exc), 1)
    print(json.dumps(data) if args.json else table3.format_table(data))
    return 0


# --------------------------------------------------------------------------
P001 = (1073741826, 1876543286, 2147483659, 1567508594)


def cmd_demo(args) -> int:
    """The main job: every core on paper 001's 32-bit example and on a batch of
    random 1024-bit multiplications in RTL simulation, beside the models."""
    a, b, n, paper = P001
    print("montmul demo: every registered core in RTL simulation, beside its model\n")
    print(f"Paper 001's 32-bit example (Icarus): A={a} B={b} N={n}, paper's R = 2^32, result {paper}")
    for core in cores.CORES.values():
        k = 32
        # Icarus: a 32-bit build takes a second, a Verilator build much longer.
        (r,) = simulate(core, k, [(a, b, n)], sim="icarus")
        m = core.run_model(a, b, n, k)
        as_paper = r.s * pow(2, core.radix_log2(k, n=n) - 32, n) % n
        ok = r.s == m.result and r.cycles == m.cycles and as_paper == paper
        print(
            f"  {core.name:10s} s={r.s:<11d} (R=2^{core.radix_log2(k, n=n)})  x 2^{core.radix_log2(k, n=n) - 32} mod N = {as_paper:<11d}"
            f" cycles {r.cycles:5d} (model {m.cycles:5d})  {'OK' if ok else 'MISMATCH'}"
        )
        if not ok:
            return 1
    k = args.width
    print(f"\n{args.samples} random {k}-bit multiplications per core (seed {args.seed}), {args.sim}:")
    print(f"  {'core':10s} {'avg':>9s} {'min':>6s} {'max':>6s} {'std':>7s} {'model avg':>10s}  phases (model avg)")
    rows = {}
    for core in cores.CORES.values():
        try:
            st = cycle_stats(core, k, args.samples, args.seed, args.sim, args.jobs)
        except RuntimeError as exc:
            return fail(f"{core.name}: {exc}", 1)
        rows[core.name] = st
        ph = ", ".join(f"{key} {v:.1f}" for key, v in st["model_breakdown_avg"].items())
        print(
            f"  {core.name:10s} {st['avg']:9.2f} {st['min']:6d} {st['max']:6d} {st['std']:7.2f}"
            f" {st['model_avg']:10.2f}  {ph}"
        )
    print("\nEvery RTL result equals its model's bit for bit and every latency its model's cycle count.")
    return 0


# --------------------------------------------------------------------------
def _option_value(text: str):
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def cmd_synth(args) -> int:
    """Synthesis (ECP5, ASIC, Xilinx) of cores x widths x targets, cached, in
    parallel; derived figures (time, throughput, ATP) from the cycle models."""
    from . import synth as sy

    names = list(cores.CORES) if args.core == "all" else parse_csv(args.core)
    targets = list(sy.TARGETS) if args.target == "all" else parse_csv(args.target)
    widths = [int(w) for w in parse_csv(args.width)]
    params: dict[str, int] = {}
    for item in args.param or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--param takes NAME=VALUE, got {item!r}")
        params[name] = parse_int(value)
    options: dict[str, object] = {}
    for item in args.option or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--option takes NAME=VALUE, got {item!r}")
        if not any(name in sy.DEFAULTS[t] for t in targets):
            raise ValueError(f"no target among {', '.join(targets)} has a flow option {name!r}")
        options[name] = _option_value(value)
    jobs = [
        sy.Job(c, k, t, params, {o: v for o, v in options.items() if o in sy.DEFAULTS[t]})
        for c in names for k in widths for t in targets
    ]
    for j in jobs:
        j.resolve()  # unknown core, target, parameter or option: status 2 before any run

    def progress(job, res):
        if not args.json:
            state = "FAILED" if "error" in res else ("cached" if res.get("cached") else f"{res['seconds']['total']} s")
            print(f"  {job.core} width {job.width} {job.target}: {state}", file=sys.stderr)

    try:
        results = sy.run_many(jobs, workers=args.jobs, force=args.force, on_error="return", progress=progress)
    except sy.ToolError as exc:
        return fail(str(exc), 1)
    if args.samples > 0:
        cycles: dict[tuple[str, int], float] = {}
        for r in results:
            if "error" not in r and r["target"] in ("asic", "ecp5"):
                ck = (r["core"], r["width"])
                if ck not in cycles:
                    cycles[ck] = model_cycles(r["core"], r["width"], args.samples, args.seed, params or None)
                r["figures"] = sy.figures(r, cycles[ck])
    if args.json:
        print(json.dumps({"results": results, "samples": args.samples, "seed": args.seed}))
    else:
        from .synth.text import format_results

        print(format_results(results))
        if args.samples > 0:
            print(f"\ncycles: model average over {args.samples} random operand sets (seed {args.seed}); "
                  "time = cycles x delay, throughput = k / time, ATP = area x time (paper 000)")
    return 1 if any("error" in r for r in results) else 0


def cmd_report(args) -> int:
    """Measure (or take from the caches) cycles, area, delay and FPGA
    resources of every core; write results.md, results.json and the plots."""
    from . import synth as sy
    from .report import render, results

    widths = tuple(int(w) for w in parse_csv(args.widths))
    fpga = tuple(int(w) for w in parse_csv(args.fpga_widths)) if args.fpga_widths else ()
    only = parse_csv(args.core) if args.core else None
    out = Path(args.out) if args.out else cores.ROOT / "docs"
    if not widths:
        raise ValueError("--widths needs at least one width")
    argv = ["montmul report"]
    if args.widths != "1024,2048":
        argv.append(f"--widths {args.widths}")
    if args.fpga_widths != "256":
        argv.append(f"--fpga-widths {args.fpga_widths}")
    if args.core:
        argv.append(f"--core {args.core}")
    if args.samples != 10000:
        argv.append(f"--samples {args.samples}")

    def progress(job, res):
        state = "FAILED" if "error" in res else ("cached" if res.get("cached") else f"{res['seconds']['total']} s")
        print(f"  {job.core} {job.params or ''} width {job.width} {job.target}: {state}", file=sys.stderr)

    try:
        data = results.build(widths, fpga, only, args.samples, args.seed, args.jobs, args.force, progress)
    except sy.ToolError as exc:
        return fail(str(exc), 1)
    readme = cores.ROOT / "README.md" if args.out is None and only is None else None
    paths = render.write(data, out, " ".join(argv), readme)
    for pth in paths:
        print(f"wrote {pth}")
    print(f"report: {data['synth_jobs']} synthesis jobs ({data['synth_fresh']} fresh), "
          f"{data['seconds']['total']} s wall")
    return 1 if any("error" in v for r in data["rows"] for ws in r["widths"].values()
                    for v in ws.values() if isinstance(v, dict)) else 0


# --------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="montmul", description="Montgomery multiplier cores: models, RTL simulation, statistics")
    sub = p.add_subparsers(dest="cmd", required=True)

    c = sub.add_parser("cores", help="list the registered cores")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_cores)

    def core_args(sp):
        sp.add_argument("--core", required=True, help="core name (see `montmul cores`)")
        sp.add_argument("--param", action="append", metavar="P=V", help="HDL parameter (repeatable)")
        sp.add_argument("--width", type=int, required=True, help="modulus width k in bits")
        sp.add_argument("--json", action="store_true", help="print one JSON object")

    m = sub.add_parser("mul", help="one Montgomery multiplication")
    core_args(m)
    m.add_argument("--a", type=parse_int, required=True)
    m.add_argument("--b", type=parse_int, required=True)
    m.add_argument("--n", type=parse_int, required=True)
    m.add_argument("--sim", choices=SIMS, default="model")
    m.set_defaults(func=cmd_mul)

    cy = sub.add_parser("cycles", help="random-input cycle statistics from RTL simulation")
    core_args(cy)
    cy.add_argument("--samples", type=int, default=1000)
    cy.add_argument("--seed", type=int, default=1)
    cy.add_argument("--modulus-bits", type=int, metavar="L",
                    help="draw random moduli of exactly L bits (default: the width)")
    cy.add_argument("--sim", choices=SIMS, default="verilator")
    cy.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel simulator processes")
    cy.set_defaults(func=cmd_cycles)

    lk = sub.add_parser("leak", help="timing-leak audit: how the latency varies with the data")
    core_args(lk)
    lk.add_argument("--samples", type=int, default=200)
    lk.add_argument("--seed", type=int, default=1)
    lk.add_argument("--sim", choices=SIMS, default="verilator")
    lk.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    lk.set_defaults(func=cmd_leak)

    t3 = sub.add_parser("table3", help="paper 000's Table III cycle columns rebuilt from RTL")
    t3.add_argument("--samples", type=int, default=10000)
    t3.add_argument("--widths", default="1024,2048")
    t3.add_argument("--seed", type=int, default=1)
    t3.add_argument("--sim", choices=SIMS, default="verilator")
    t3.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    t3.add_argument("--json", action="store_true")
    t3.set_defaults(func=cmd_table3)

    d = sub.add_parser("demo", help="the main job (make demo)")
    d.add_argument("--width", type=int, default=1024)
    d.add_argument("--samples", type=int, default=200)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--sim", choices=("icarus", "verilator"), default="verilator")
    d.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    d.set_defaults(func=cmd_demo)

    sy = sub.add_parser("synth", help="synthesis: ECP5 (nextpnr Fmax), ASIC (OSU 0.18 um, OpenSTA), Xilinx counts")
    sy.add_argument("--core", required=True, help="core name(s), comma-separated, or 'all'")
    sy.add_argument("--width", required=True, help="width(s) k, comma-separated")
    sy.add_argument("--target", required=True, help="ecp5, asic, xilinx (comma-separated) or 'all'")
    sy.add_argument("--param", action="append", metavar="P=V", help="HDL parameter for every core (repeatable)")
    sy.add_argument("--option", action="append", metavar="O=V",
                    help="flow option, e.g. freq_mhz=250, seed=2, period_ps=1500, max_fanout=6 (repeatable)")
    sy.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel synthesis processes")
    sy.add_argument("--force", action="store_true", help="rerun even when a cached result exists")
    sy.add_argument("--samples", type=int, default=1000,
                    help="random operand sets for the model's average cycles (0: no derived figures)")
    sy.add_argument("--seed", type=int, default=1)
    sy.add_argument("--json", action="store_true", help="print one JSON object")
    sy.set_defaults(func=cmd_synth)

    rp = sub.add_parser("report", help="cycles, area, delay and FPGA resources of every core beside the papers "
                                        "(docs/results.md, plots)")
    rp.add_argument("--widths", default="1024,2048", help="widths for cycles and the ASIC flow (comma-separated)")
    rp.add_argument("--fpga-widths", default="256", help="widths for the ECP5 and Xilinx flows ('' for none)")
    rp.add_argument("--core", help="only these cores or row labels (comma-separated); default every core")
    rp.add_argument("--out", help="output directory (default docs/; the README's headline table is refreshed "
                                  "only then)")
    rp.add_argument("--samples", type=int, default=10000, help="random operand sets per cycle average")
    rp.add_argument("--seed", type=int, default=1)
    rp.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel processes")
    rp.add_argument("--force", action="store_true", help="rerun synthesis even when cached")
    rp.set_defaults(func=cmd_report)

    add_rsa_parsers(sub, core_args)  # modexp, rsa (src/montmul/cli_rsa.py)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (KeyError, ValueError) as exc:
        msg = exc.args[0] if exc.args else str(exc)
        return fail(str(msg))


if __name__ == "__main__":
    sys.exit(main())
