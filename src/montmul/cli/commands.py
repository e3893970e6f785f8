# SPDX-License-Identifier: Apache-2.0
"""The ``montmul`` command line.

    montmul cores [--json]
    montmul mul --core NAME --width K --a A --b B --n N [--sim model|icarus|verilator] [--json]
    montmul cycles --core NAME --width K --samples S [--seed X] [--sim ...] [--jobs J] [--json]
    montmul table3 [--samples S] [--widths 1024,2048] [--json]
    montmul leak --core NAME --width K [--samples S] [--sim ...] [--json]
    montmul leak --core ws --engine pke (--width K | --ecc CURVE [--ecc-op kp|double|kg] [--mod-alu] [--rtl-samples R])
                 [--pes P] [--samples S] [--sim ...] [--json]
    montmul demo [--samples S] [--sim ...]
    montmul synth --core NAME[,..] --width K[,..] --target ecp5|asic|xilinx[,..] [--param P=V] [--option O=V] [--engine [modexp|crt|regs]] [--instances] [--critical-path]
                  [--jobs J | --scheduler ADDRESS | --cluster local:N] [--json]
    montmul modexp --core NAME --width K --base X --exp E --mod N [--ladder] [--sim ...] [--json]
    montmul rsa [--core NAME] (--bits B | --key PEM) [--save-key PEM [--force]] [--crt|--no-crt] [--sim ...]
                [--ladder|--no-ladder] [--allow-timing-leak] [--json] {sign,verify,encrypt,decrypt} ...
    montmul formal --core NAME|modexp [--width K] [--depth D] [--mode all|prove|bmc] [--solver S] [--json]
    montmul report [--widths 1024,2048] [--fpga-widths 256,1024,2048] [--core ...] [--out build/report] ...
    montmul verify --core NAME[,..]|all --width K[,..] [--count N [--chunk C] | --exhaustive] [--seed S] [--param P=V]
                   [--jobs J | --scheduler ADDRESS | --cluster local:N] [--json]

Operands are decimal or 0x-hex.  ``--json`` prints one JSON object, big
integers as 0x-hex strings.  Long jobs draw a progress bar on stderr.
Exit statuses (:mod:`montmul.cli.util`): 0 success, 1 verification failure,
2 bad usage, 3 rejected input, 4 tool failure, 130 interrupted, 141 closed pipe.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from .. import VERSION, cores, progress
from .rsa import add_parsers as add_rsa_parsers
from .ecc import add_parsers as add_ecc_parsers
from .formal import add_parser as add_formal_parser
from .util import (
    DEFAULT_SIM, EXIT_CHECK, EXIT_INPUT, EXIT_INTERRUPT, EXIT_OK, EXIT_PIPE, EXIT_TOOL, EXIT_USAGE, SIMS, CliError,
    core_and_width, fail, hdl_params, nonneg_int, parse_csv, parse_int, parse_widths,
    positive_int,
)
from ..models import InputError
from ..flows.sim.api import simulate
from ..flows.synth import parse_option_value
from ..apps.stats import batch_stats, cycle_stats, model_cycles

#: Default output directory of ``montmul report`` (tracked docs/ only when asked).
REPORT_OUT = "build/report"

# --------------------------------------------------------------------------
def _r_text(c) -> str:
    """R as the table prints it: "k+c" when log2 R - k is the same at every
    width (radix-2 cores), else R at k = 1024 (word-level cores round k + 2
    up to whole words)."""
    offsets = {c.radix_log2(k) - k for k in range(1017, 1025)}
    if len(offsets) == 1:
        return f"k+{offsets.pop()}"
    return f"{c.radix_log2(1024)} at k=1024"


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
                "r_log2": _r_text(c),
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
        # The RTL must reject it too; values wider than its ports cannot even be driven.
        if args.sim != "model" and all(0 <= v < 1 << k for v in (a, b, n)):
            (r,) = simulate(core, k, [(a, b, n)], sim=args.sim, params=params)
            if not r.err:
                return fail(f"the RTL accepted a request the model rejects: {exc}", EXIT_CHECK)
        return fail(f"rejected input: {exc}", EXIT_INPUT)
    result, cycles = want.result, want.cycles
    if args.sim != "model":
        (r,) = simulate(core, k, [(a, b, n)], sim=args.sim, params=params)
        if r.err or r.s != want.result or r.cycles != want.cycles:
            return fail(
                f"RTL ({args.sim}) disagrees with the model: rtl s={r.s:#x} err={r.err} "
                f"cycles={r.cycles}, model s={want.result:#x} cycles={want.cycles}",
                EXIT_CHECK,
            )
        result, cycles = r.s, r.cycles
    out = {
        "core": core.name,
        "width": k,
        "sim": args.sim,
        "a": hex(a),
        "b": hex(b),
        "n": hex(n),
        "result": hex(result),
        "r_log2": core.radix_log2(k, params, n),
        "cycles": cycles,
        "breakdown": want.breakdown,
        "reduced": hex(result % n),
    }
    if args.json:
        out["wall_seconds"] = progress.wall_seconds(args._t0)
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
    params = hdl_params(args)
    in_flight = core.in_flight(core.hdl_params(k, **params))
    try:
        if in_flight > 1:  # batches of in_flight requests back to back
            out = batch_stats(core, k, args.samples, args.seed, args.sim, args.jobs, params,
                              modulus_bits=args.modulus_bits)
        else:
            out = cycle_stats(core, k, args.samples, args.seed, args.sim, args.jobs, params,
                              modulus_bits=args.modulus_bits)
    except RuntimeError as exc:
        return fail(str(exc), EXIT_CHECK)
    if args.json:
        out["wall_seconds"] = progress.wall_seconds(args._t0)
        print(json.dumps(out))
        return 0
    if in_flight > 1:
        b = out["batch"]
        print(f"{core.name} width {k}: {args.samples} batches of {in_flight} random multiplications (each with its "
              f"own {out['modulus_bits']}-bit modulus) requested back to back, {args.sim} (seed {args.seed})")
        print(f"  batch     avg {b['avg']:.2f}  min {b['min']}  max {b['max']}  (first request accepted to last "
              f"response)")
        print(f"  kernel    avg {out['kernel_avg']:.2f}  (the batch as the core's paper counts it: accept spread "
              f"+ the last product's kernel phase)")
        print(f"  latency   avg {out['avg']:.2f}  min {out['min']}  max {out['max']}  (per product)")
    else:
        print(f"{core.name} width {k}: {args.samples} random multiplications with {out['modulus_bits']}-bit "
              f"moduli, {args.sim} (seed {args.seed})")
        print(f"  measured  avg {out['avg']:.2f}  min {out['min']}  max {out['max']}  std {out['std']:.2f}")
    print(f"  model     avg {out['model_avg']:.2f}  min {out['model_min']}  max {out['model_max']}")
    if in_flight == 1 and "kernel" in out["model_breakdown_avg"]:
        print(f"  kernel    avg {out['kernel_avg']:.2f}  (the cycles the core's paper counts)")
    print("  model phases (avg): " + ", ".join(f"{k2} {v:.2f}" for k2, v in out["model_breakdown_avg"].items()))
    if args.sim != "model":
        what = "result, accepting edge and latency" if in_flight > 1 else "result and latency"
        print(f"  every RTL {what} equals the model's ({out['seconds_sim']} s simulation)")
    return 0


# --------------------------------------------------------------------------
def cmd_verify(args) -> int:
    from ..flows import verify

    names = sorted(cores.CORES) if args.core == "all" else parse_csv(args.core)
    if not names:
        raise CliError("--core needs a core name, a comma-separated list or 'all'")
    widths = parse_widths(str(args.width), "--width")
    if args.exhaustive and args.count is not None:
        raise CliError("--exhaustive runs every odd N < 2^k with every A, B < 2N: drop --count")
    params = {}
    for item in args.param or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise CliError(f"--param takes NAME=VALUE, got {item!r}")
        params[name] = parse_int(value)
    runs = [(cores.get(n), k) for n in names for k in widths]
    for core, k in runs:  # every combination checked before the first build
        core.hdl_params(k, **params)
        if args.exhaustive and k > verify.EXHAUSTIVE_MAX_WIDTH:
            raise CliError(f"--exhaustive: width at most {verify.EXHAUSTIVE_MAX_WIDTH} (got {k})")

    if args.chunk is not None and args.exhaustive:
        raise CliError("--chunk splits random runs (--count); an exhaustive run is one task")
    todo = [verify.Run(core.name, k, params, args.count or verify.DEFAULT_COUNT, args.exhaustive, args.seed,
                       args.model_sample) for core, k in runs]
    try:
        with executor(args, args.jobs) as ex:
            results = verify.run_many(todo, chunk=args.chunk, executor=ex)
    except verify.HarnessError as exc:
        return fail(str(exc), EXIT_TOOL)
    bad = sum(r.mismatches for r in results)
    if args.json:
        out = results[0].as_dict() if len(results) == 1 else {
            **verify.totals(results), "runs": [r.as_dict() for r in results]}
        out["wall_seconds"] = progress.wall_seconds(args._t0)
        print(json.dumps(out))
    else:
        for r in results:
            print(verify.format_result(r))
        if len(results) > 1:
            t = verify.totals(results)
            print(f"total: {len(results)} runs, {t['products']:,} products, {t['mismatches']} mismatches, "
                  f"{t['products_per_s']:,.0f} products/s")
    if bad:
        return fail(f"{bad} mismatches (the failing vectors are printed above)", EXIT_CHECK)
    return EXIT_OK


# --------------------------------------------------------------------------
def cmd_leak(args) -> int:
    from ..apps.leak import audit, format_report

    if args.ecc is not None:
        return _leak_ecc(args)
    args.samples = 200 if args.samples is None else args.samples
    if args.width is None:
        return fail("leak needs --width (or, with --engine pke, --ecc CURVE)", EXIT_USAGE)
    if args.ecc_op or args.mod_alu or args.rtl_samples is not None:
        return fail("--ecc-op, --mod-alu and --rtl-samples belong to --ecc", EXIT_USAGE)
    core, k = core_and_width(args)
    try:
        if args.engine == "pke":
            from ..apps.leak import audit_pke

            if core.name != "ws" or args.param or args.sim != "model":
                return fail("leak --engine pke audits the ws array's public-key engine mm_pke on its model: "
                            "--core ws, --sim model, no --param (--pes sets its PEs)", EXIT_USAGE)
            try:
                rep = audit_pke(k, args.samples, args.seed, args.pes)
            except ValueError as exc:
                return fail(f"rejected input: {exc}", EXIT_INPUT)
        else:
            rep = audit(core, k, args.samples, args.seed, args.sim, args.jobs, params=hdl_params(args))
    except RuntimeError as exc:
        return fail(str(exc), EXIT_CHECK)
    if args.json:
        print(json.dumps({**rep.as_dict(), "wall_seconds": progress.wall_seconds(args._t0)}))
    else:
        print(format_report(rep))
    return 0


#: --ecc-op's names of the ECC operations (montmul.apps.leak.ECC_OPS)
ECC_LEAK_OPS = {"kp": "k·P", "double": "u1·G + u2·Q", "kg": "k·G"}


def _leak_ecc(args) -> int:
    """montmul leak --engine pke --ecc CURVE: the engine's ECC programs."""
    from ..apps.ecc.curves import get as get_curve
    from ..apps.leak import audit_pke_ecc, format_report

    if args.engine != "pke" or args.core != "ws" or args.param:
        return fail("leak --ecc audits the ECC programs of the ws array's public-key engine mm_pke: "
                    "--core ws --engine pke, no --param (--pes sets its PEs)", EXIT_USAGE)
    try:
        curve = get_curve(args.ecc)
    except ValueError as exc:
        return fail(f"rejected input: {exc}", EXIT_INPUT)
    if args.width is not None and args.width != curve.p.bit_length():
        return fail(f"--width {args.width} is not {curve.name}'s field length {curve.p.bit_length()} "
                    "(leave --width out with --ecc)", EXIT_USAGE)
    if args.rtl_samples is not None and args.sim == "model":
        return fail("--rtl-samples needs --sim icarus or verilator", EXIT_USAGE)
    ops = [ECC_LEAK_OPS[o] for o in args.ecc_op] if args.ecc_op else list(ECC_LEAK_OPS.values())
    try:
        reps = audit_pke_ecc(curve, 20 if args.samples is None else args.samples, args.seed, args.pes, args.mod_alu, ops, args.sim,
                             3 if args.rtl_samples is None else args.rtl_samples)
    except ValueError as exc:
        return fail(f"rejected input: {exc}", EXIT_INPUT)
    except RuntimeError as exc:
        return fail(str(exc), EXIT_CHECK)
    const = all(r.constant_time for r in reps)
    if args.json:
        print(json.dumps({"curve": curve.name, "constant_time": const, "audits": [r.as_dict() for r in reps],
                          "wall_seconds": progress.wall_seconds(args._t0)}))
    else:
        print("\n\n".join(format_report(r) for r in reps))
    return EXIT_OK if const else EXIT_CHECK


def cmd_table3(args) -> int:
    from ..apps.report import table3

    widths = parse_widths(args.widths)
    rows = sum(1 for r in table3.ROWS if r.core in cores.CORES) * len(widths)
    with progress.Bar(rows, "table3", unit="row") as bar:
        seen: list[str] = []

        def step(m):  # called before each row is measured
            if seen:
                bar.update()
            seen.append(m)
            if not args.json:
                progress.write(f"  measuring {m} ...")

        try:
            data = table3.build(widths, args.samples, args.seed, args.sim, args.jobs, progress=step)
        except RuntimeError as exc:
            return fail(str(exc), EXIT_CHECK)
    if args.json:
        print(json.dumps({**data, "wall_seconds": progress.wall_seconds(args._t0)}))
    else:
        print(table3.format_table(data))
    return 0


# --------------------------------------------------------------------------
P001 = (1073741826, 1876543286, 2147483659, 1567508594)


def cmd_demo(args) -> int:
    """The main job: every core on paper 001's 32-bit example and on a batch of
    random 1024-bit multiplications in RTL simulation, beside the models."""
    a, b, n, paper = P001
    cores.WIDTH.check("Width", args.width)  # before the first simulation, not after it
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
            return EXIT_CHECK
    k = args.width
    print(f"\n{args.samples} random {k}-bit multiplications per core (seed {args.seed}), {args.sim}:")
    print(f"  {'core':10s} {'avg':>9s} {'min':>6s} {'max':>6s} {'std':>7s} {'model avg':>10s}  phases (model avg)")
    rows = {}
    for core in cores.CORES.values():
        try:
            st = cycle_stats(core, k, args.samples, args.seed, args.sim, args.jobs)
        except RuntimeError as exc:
            return fail(f"{core.name}: {exc}", EXIT_CHECK)
        rows[core.name] = st
        ph = ", ".join(f"{key} {v:.1f}" for key, v in st["model_breakdown_avg"].items())
        print(
            f"  {core.name:10s} {st['avg']:9.2f} {st['min']:6d} {st['max']:6d} {st['std']:7.2f}"
            f" {st['model_avg']:10.2f}  {ph}"
        )
    print("\nEvery RTL result equals its model's bit for bit and every latency its model's cycle count.")
    return 0


# --------------------------------------------------------------------------
def cmd_synth(args) -> int:
    """Synthesis (ECP5, ASIC, Xilinx) of cores x widths x targets, cached, in
    parallel; derived figures (time, throughput, ATP) from the cycle models."""
    from ..flows import synth as sy

    names = list(cores.CORES) if args.core == "all" else parse_csv(args.core)
    targets = list(sy.TARGETS) if args.target == "all" else parse_csv(args.target)
    if not names:
        raise CliError("--core needs at least one core name (or 'all')")
    if not targets:
        raise CliError("--target needs at least one of ecp5, asic, xilinx (or 'all')")
    widths = list(parse_widths(args.width, "--width"))
    params: dict[str, int] = {}
    for item in args.param or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--param takes NAME=VALUE, got {item!r}")
        try:
            params[name] = parse_int(value)
        except argparse.ArgumentTypeError as exc:
            raise CliError(f"--param {name}: {exc}") from None
    options: dict[str, object] = {}
    for item in args.option or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--option takes NAME=VALUE, got {item!r}")
        if not any(name in sy.flows.known_options(t) for t in targets):
            raise ValueError(f"no target among {', '.join(targets)} has a flow option {name!r}")
        options[name] = parse_option_value(value)
    jobs = [
        sy.Job(c, k, t, params, {o: v for o, v in options.items() if o in sy.flows.known_options(t)}, engine=args.engine)
        for c in names for k in widths for t in targets
    ]
    for j in jobs:
        j.resolve()  # unknown core, target, parameter or option: status 2 before any run
    # say up front what an ECP5 job costs: a short first run is placed with more seeds
    multi = [o for j in jobs if j.target == "ecp5" and (o := j.resolve()[2])["seeds"] > 1
             and (args.force or sy.cached(j) is None)]
    if multi:
        progress.write(f"montmul: ECP5 Fmax is the median of {multi[0]['seeds']} placement seeds when the first "
                       f"nextpnr run takes under {multi[0]['short_s']} s (about {multi[0]['seeds']}x its time); "
                       "--option seeds=1 places once")

    def done(job, res):
        state = "FAILED" if "error" in res else ("cached" if res.get("cached") else f"{res['seconds']['total']} s")
        progress.write(f"  {job.core} width {job.width} {job.target}: {state}")

    try:
        with executor(args, args.jobs) as ex:
            results = sy.run_many(jobs, force=args.force, on_error="return", progress=done, executor=ex)
    except sy.ToolError as exc:
        return fail(str(exc), EXIT_TOOL)
    if args.critical_path:
        from ..flows.synth import critpath

        for job, r in zip(jobs, results):
            if job.target == "ecp5" and r.get("status") == "ok":
                try:
                    r["critical_path_rtl"] = critpath.trace(sy.result_dir(job, r), r, int(job.resolve()[2]["seed"]))
                except (OSError, ValueError) as exc:
                    r["critical_path_rtl"] = {"error": str(exc)}
    if args.samples > 0:
        cycles: dict[tuple[str, int], float] = {}
        for r in results:
            if "error" not in r and r["target"] in ("asic", "ecp5"):
                ck = (r["core"], r["width"])
                if ck not in cycles:
                    cycles[ck] = model_cycles(r["core"], r["width"], args.samples, args.seed, params or None)
                r["figures"] = sy.figures(r, cycles[ck])
    if args.json:
        print(json.dumps({"results": results, "samples": args.samples, "seed": args.seed,
                          "wall_seconds": progress.wall_seconds(args._t0)}))
    else:
        from ..flows.synth.text import format_results

        print(format_results(results))
        if args.instances:
            from ..flows.synth.text import format_instances

            print("\n" + format_instances(results))
        for job, r in zip(jobs, results):
            tr = r.get("critical_path_rtl")
            if tr:
                title = f"\ncritical path of {job.core}{' ' + job.engine_kind if job.engine_kind else ''} at {job.width} bits"
                print(f"{title}: {tr['error']}" if "error" in tr else critpath.format_trace(title, tr))
        if args.samples > 0:
            print(f"\ncycles: model average over {args.samples} random operand sets (seed {args.seed}); "
                  "time = cycles x delay, throughput = k / time, ATP = area x time (paper 000)")
    return EXIT_TOOL if any("error" in r for r in results) else EXIT_OK


def cmd_report(args) -> int:
    """Measure (or take from the caches) cycles, area, delay and FPGA
    resources of every core; write results.md, results.json and the plots."""
    from ..flows import synth as sy
    from ..apps.report import render, results

    widths = parse_widths(args.widths)
    fpga = parse_widths(args.fpga_widths, "--fpga-widths", allow_empty=True)
    only = parse_csv(args.core) if args.core else None
    out = Path(args.out)
    docs = out.resolve() == (cores.ROOT / "docs").resolve()
    argv = ["montmul report"]
    if args.widths != "1024,2048":
        argv.append(f"--widths {args.widths}")
    if args.fpga_widths != "256,1024,2048":
        argv.append(f"--fpga-widths {args.fpga_widths}")
    if args.core:
        argv.append(f"--core {args.core}")
    if args.samples != 10000:
        argv.append(f"--samples {args.samples}")
    argv.append(f"--out {'docs' if docs else args.out}")

    def done(job, res):
        if res.get("cached"):
            return
        state = "FAILED" if "error" in res else f"{res['seconds']['total']} s"
        progress.write(f"  {job.core} {job.params or ''} width {job.width} {job.target}: {state}")

    try:
        with executor(args, args.jobs) as ex:
            data = results.build(widths, fpga, only, args.samples, args.seed, args.jobs, args.force, done, ex)
    except sy.ToolError as exc:
        return fail(str(exc), EXIT_TOOL)
    # The README's headline table is refreshed only with the tracked docs (make report).
    readme = cores.ROOT / "README.md" if docs and only is None else None
    paths = render.write(data, out, " ".join(argv), readme)
    for pth in paths:
        print(f"wrote {pth}")
    print(f"report: {data['synth_jobs']} synthesis jobs ({data['synth_fresh']} fresh), "
          f"{data['seconds']['total']} s wall")
    return EXIT_TOOL if any("error" in v for r in data["rows"] for ws in r["widths"].values()
                    for v in ws.values() if isinstance(v, dict)) else 0


# --------------------------------------------------------------------------
class Parser(argparse.ArgumentParser):
    """argparse with usage errors as one line (status 2) naming the command's help."""

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Every option's help text ends with its default (where it has one)."""

    def _get_help_string(self, action):
        text = action.help or ""
        if action.default in (None, False, argparse.SUPPRESS) or "%(default)" in text or "default" in text:
            return text
        if action.option_strings or action.nargs in (argparse.OPTIONAL, argparse.ZERO_OR_MORE):
            return text + " (default: %(default)s)"
        return text


def subparser(sub, name: str, **kw) -> argparse.ArgumentParser:
    """A subcommand whose help shows every option's default."""
    return sub.add_parser(name, formatter_class=HelpFormatter, **kw)


def sim_arg(sp, choices=SIMS, default: str = DEFAULT_SIM) -> None:
    sp.add_argument("--sim", choices=choices, default=default,
                    help="where to compute: the cycle-exact model, or RTL simulation on Icarus or Verilator "
                         "(every RTL result and latency is checked against the model)")


def jobs_arg(sp, what: str = "parallel simulator processes") -> None:
    sp.add_argument("--jobs", type=positive_int, default=os.cpu_count() or 1, help=what)


def cluster_args(sp) -> None:
    """--scheduler / --cluster: run the sweep's tasks on Dask (docs/cluster.md)."""
    from ..flows.executor import add_arguments

    add_arguments(sp)


def executor(args, jobs: int | None):
    """The sweep's executor from --scheduler/--cluster/--jobs (a CliError,
    status 4, when Dask is missing or the scheduler cannot be reached)."""
    from ..flows.executor import ClusterError, from_args

    try:
        return from_args(args, jobs)
    except ClusterError as exc:
        raise CliError(str(exc), EXIT_TOOL) from None


def cmd_setup_asic(args) -> int:
    from ..flows.synth import flows

    lib = flows.fetch_liberty(args.dir, args.deb)
    print(f"liberty   {lib}")
    try:
        found = flows.liberty_path(flows.DEFAULTS["asic"]).resolve() == lib.resolve()
    except RuntimeError:
        found = False
    print("montmul synth --target asic finds it there" if found else
          f"name it with {flows.LIBERTY_ENV}={lib.resolve()} or --option liberty={lib.resolve()}")
    print("the ASIC flow also runs OpenSTA (`sta`; Debian: apt-get install opensta)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="montmul", formatter_class=HelpFormatter,
                                description="Montgomery multiplier cores: models, RTL simulation, synthesis, "
                                            "statistics, RSA.",
                                epilog="Exit status: 0 success, 1 verification failure, 2 bad usage, "
                                       "3 rejected input, 4 tool failure, 130 interrupted, 141 closed pipe.")
    p.add_argument("--version", action="version", version=f"montmul {VERSION}")
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

    c = subparser(sub, "cores", help="list the registered cores")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.set_defaults(func=cmd_cores)

    def core_args(sp, width_required: bool = True):
        sp.add_argument("--core", required=True, help="core name (see `montmul cores`)")
        sp.add_argument("--param", action="append", metavar="P=V", help="HDL parameter (repeatable)")
        sp.add_argument("--width", type=int, required=width_required, help="modulus width k in bits")
        sp.add_argument("--json", action="store_true", help="print one JSON object (integers as 0x-hex strings)")

    m = subparser(sub, "mul", help="one Montgomery multiplication")
    core_args(m)
    m.add_argument("--a", type=parse_int, required=True, help="operand A, in [0, 2N)")
    m.add_argument("--b", type=parse_int, required=True, help="operand B, in [0, 2N)")
    m.add_argument("--n", type=parse_int, required=True, help="odd modulus N >= 3 that fits --width")
    sim_arg(m)
    m.set_defaults(func=cmd_mul)

    cy = subparser(sub, "cycles", help="random-input cycle statistics (model or RTL simulation)")
    core_args(cy)
    cy.add_argument("--samples", type=positive_int, default=1000,
                    help="random multiplications; on a core with several products in flight, batches of "
                         "that many requests back to back")
    cy.add_argument("--seed", type=int, default=1, help="random seed")
    cy.add_argument("--modulus-bits", type=int, metavar="L",
                    help="draw random moduli of exactly L bits (default: the width)")
    sim_arg(cy)
    jobs_arg(cy)
    cy.set_defaults(func=cmd_cycles)

    lk = subparser(sub, "leak", help="timing-leak audit: how the latency varies with the data")
    core_args(lk, width_required=False)
    lk.add_argument("--samples", type=positive_int, default=None,
                    help="random operand sets per experiment (default 200; with --ecc 20 per operation)")
    lk.add_argument("--seed", type=int, default=1, help="random seed")
    lk.add_argument("--engine", choices=("core", "pke"), default="core",
                    help="core: the core's products (default); pke: with --core ws, the public-key engine "
                         "mm_pke's RSA-CRT program at halves of --width bits (cycles and dispatch trace per key, "
                         "message and exponent; --samples random keys; model)")
    lk.add_argument("--pes", type=positive_int, default=None,
                    help="--engine pke: the array's PEs (default 66 for RSA, 70 for --ecc)")
    lk.add_argument("--ecc", metavar="CURVE", default=None,
                    help="--engine pke: audit the ECC programs on CURVE (secp256r1, secp384r1, ...; --width is its "
                         "field length) instead of RSA-CRT: k·P, u1·G + u2·Q and k·G over --samples random and the "
                         "chosen scalars; exit status 1 unless every run has the same cycles and dispatch trace")
    lk.add_argument("--ecc-op", action="append", choices=tuple(ECC_LEAK_OPS), default=None,
                    help="--ecc: the operation to audit, kp (k·P: ECDH), double (u1·G + u2·Q: ECDSA "
                         "verification) or kg (k·G split over the halves: ECDSA signing); repeatable (default all)")
    lk.add_argument("--mod-alu", action="store_true",
                    help="--ecc: the engine with the modular ALU (mm_pke's ModAlu = 1)")
    lk.add_argument("--rtl-samples", type=positive_int, default=None,
                    help="--ecc with --sim icarus|verilator: chosen scalars also run through mm_pke's RTL "
                         "(default 3; cycles, dispatches and point equal to the model's)")
    sim_arg(lk)
    jobs_arg(lk)
    lk.set_defaults(func=cmd_leak)

    t3 = subparser(sub, "table3", help="paper 000's Table III cycle columns (model or RTL simulation)")
    t3.add_argument("--samples", type=positive_int, default=10000, help="random multiplications per row and width")
    t3.add_argument("--widths", default="1024,2048", help="widths k, comma-separated")
    t3.add_argument("--seed", type=int, default=1, help="random seed")
    sim_arg(t3)
    jobs_arg(t3)
    t3.add_argument("--json", action="store_true", help="print one JSON object")
    t3.set_defaults(func=cmd_table3)

    d = subparser(sub, "demo", help="the main job (make demo): every core in RTL simulation beside its model")
    d.add_argument("--width", type=int, default=1024, help="width of the random multiplications")
    d.add_argument("--samples", type=positive_int, default=200, help="random multiplications per core")
    d.add_argument("--seed", type=int, default=1, help="random seed")
    d.add_argument("--sim", choices=("icarus", "verilator"), default="verilator",
                   help="RTL simulator for the random multiplications (the demo always simulates RTL)")
    jobs_arg(d)
    d.set_defaults(func=cmd_demo)

    sy = subparser(sub, "synth", help="synthesis: ECP5 (nextpnr Fmax), ASIC (OSU 0.18 um, OpenSTA), Xilinx counts")
    sy.add_argument("--core", required=True, help="core name(s), comma-separated, or 'all'")
    sy.add_argument("--width", required=True, help="width(s) k, comma-separated")
    sy.add_argument("--target", required=True, help="ecp5, asic, xilinx (comma-separated) or 'all'")
    sy.add_argument("--param", action="append", metavar="P=V", help="HDL parameter for every core (repeatable)")
    sy.add_argument("--option", action="append", metavar="O=V",
                    help="flow option, e.g. freq_mhz=250, seed=2, period_ps=1500, max_fanout=6 (repeatable)")
    jobs_arg(sy, "parallel synthesis processes")
    cluster_args(sy)
    sy.add_argument("--force", action="store_true", help="rerun even when a cached result exists")
    sy.add_argument("--samples", type=nonneg_int, default=1000,
                    help="random operand sets for the model's average cycles (0: no derived figures)")
    sy.add_argument("--seed", type=int, default=1, help="random seed")
    sy.add_argument("--engine", nargs="?", const="modexp", default="", choices=("modexp", "crt", "regs"),
                    help="synthesize an exponentiation engine around each core instead of the core alone: "
                         "mm_modexp (--engine, --engine modexp) or the RSA-CRT engine mm_modexp_crt (--engine crt; "
                         "--width is the primes' width); or (--engine regs) the core between registers, "
                         "mm_core_regs, which times the paths from its inputs and to its outputs that a core "
                         "alone leaves untimed (nextpnr out of context times no port path)")
    sy.add_argument("--instances", action="store_true",
                    help="also print the per-instance breakdown (every submodule instance's own cost)")
    sy.add_argument("--critical-path", action="store_true",
                    help="ECP5: map the routed critical path to RTL source lines (reruns Yosys once per job "
                         "with source attributes kept; montmul.flows.synth.critpath)")
    sy.add_argument("--json", action="store_true", help="print one JSON object")
    sy.set_defaults(func=cmd_synth)

    rp = subparser(sub, "report", help="cycles, area, delay and FPGA resources of every core beside the papers "
                                        f"(results.md, results.json, plots; into {REPORT_OUT}/)")
    rp.add_argument("--widths", default="1024,2048", help="widths for cycles and the ASIC flow (comma-separated)")
    rp.add_argument("--fpga-widths", default="256,1024,2048",
                    help="widths for the ECP5 and Xilinx flows ('' for none); every ECP5 run has a time budget")
    rp.add_argument("--core", help="only these cores or row labels (comma-separated); default every core")
    rp.add_argument("--out", default=REPORT_OUT,
                    help="output directory; `--out docs` (make report) refreshes the tracked docs and, for "
                         "every core, README's headline table")
    rp.add_argument("--samples", type=positive_int, default=10000, help="random operand sets per cycle average")
    rp.add_argument("--seed", type=int, default=1, help="random seed")
    jobs_arg(rp, "parallel processes")
    cluster_args(rp)
    rp.add_argument("--force", action="store_true", help="rerun synthesis even when cached")
    rp.set_defaults(func=cmd_report)

    vf = subparser(sub, "verify", help="volume verification on Verilator: random and corner-case (or every) "
                                       "product checked in C++ against GMP and the model (docs/verify.md)")
    vf.add_argument("--core", required=True, help="core name(s), comma-separated, or 'all'")
    vf.add_argument("--width", required=True, help="modulus width(s) k, comma-separated")
    vf.add_argument("--param", action="append", metavar="P=V", help="HDL parameter for every core (repeatable)")
    vf.add_argument("--count", type=positive_int,
                    help="requests per run, corner cases first (default 100000; not with --exhaustive)")
    vf.add_argument("--exhaustive", action="store_true",
                    help="every odd N < 2^k with every A, B < 2N (widths up to 8)")
    vf.add_argument("--seed", type=int, default=1, help="random seed")
    vf.add_argument("--model-sample", type=nonneg_int,
                    help="requests also compared with the Python model (default 10000; with --exhaustive every one "
                         "for the cores whose latency depends on the operands)")
    vf.add_argument("--chunk", type=positive_int, metavar="N",
                    help="split each random run into tasks of N requests, chunk i seeded from --seed and i "
                         "(each its own corner cases first); default: one task per run")
    vf.add_argument("--jobs", type=positive_int, default=1, help="parallel builds and runs (tasks)")
    cluster_args(vf)
    vf.add_argument("--json", action="store_true", help="print one JSON object")
    vf.set_defaults(func=cmd_verify)

    sa = subparser(sub, "setup-asic", help="fetch the ASIC flow's liberty (OSU 0.18 um, from Debian's "
                                             "qflow-tech-osu018) for an installed montmul (a checkout: make setup)")
    sa.add_argument("--dir", help="destination folder (default: the user's data folder, where synth looks)")
    sa.add_argument("--deb", metavar="FILE", help="a downloaded qflow-tech-osu018 .deb (default: apt-get download)")
    sa.set_defaults(func=cmd_setup_asic)

    add_rsa_parsers(sub, core_args, subparser)  # modexp, rsa (src/montmul/cli/rsa.py)
    add_formal_parser(sub, subparser)  # formal (src/montmul/cli/formal.py)
    add_ecc_parsers(sub, subparser)  # ecc (src/montmul/cli/ecc.py)
    inherit_options(p)
    for sp in all_parsers(p):
        sp.formatter_class = HelpFormatter
    return p


def inherit_options(p: argparse.ArgumentParser) -> None:
    """Let every action of a subcommand (``montmul rsa sign``) take the
    subcommand's own options after it too: each child parser gets a copy of
    the parent's options that sets the value only when given (default
    SUPPRESS), so ``rsa sign --key k.pem`` equals ``rsa --key k.pem sign``
    and, given on both sides, the one after the action wins."""
    import copy

    for parent in all_parsers(p):
        if parent is p:
            continue
        subs = [a for a in parent._actions if isinstance(a, argparse._SubParsersAction)]
        opts = [a for a in parent._actions if a.option_strings and a.dest not in ("help", "version")
                and not isinstance(a, argparse._SubParsersAction)]
        for child in (c for s in subs for c in dict.fromkeys(s.choices.values())):
            have = {o for a in child._actions for o in a.option_strings}
            group = child.add_argument_group(f"options of `{parent.prog}`, also accepted here")
            for a in opts:
                if have & set(a.option_strings):
                    continue
                b = copy.copy(a)
                b.default, b.required = argparse.SUPPRESS, False
                group._add_action(b)


def all_parsers(p: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """``p`` and every subcommand's parser, depth first."""
    out = [p]
    for act in p._actions:
        if isinstance(act, argparse._SubParsersAction):
            for sp in dict.fromkeys(act.choices.values()):
                out += all_parsers(sp)
    return out


def _run(argv: list[str] | None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse: --help, --version (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    args._t0 = time.monotonic()
    progress.reset()
    try:
        code = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        return code
    except CliError as exc:
        return fail(str(exc), exc.code)
    except InputError as exc:
        return fail(f"rejected input: {exc}", EXIT_INPUT)
    except (KeyError, ValueError) as exc:
        msg = exc.args[0] if exc.args else str(exc)
        return fail(str(msg), EXIT_USAGE)
    except RuntimeError as exc:
        if type(exc).__name__ == "ToolError":  # montmul.flows.synth: a tool missing, failing or timing out
            return fail(str(exc), EXIT_TOOL)
        return fail(str(exc), EXIT_CHECK)  # a result differs from its model, pow() or cryptography
    except AssertionError as exc:  # montmul.flows.sim.runner: the simulation itself failed
        return fail(f"simulation failed: {exc}", EXIT_TOOL)
    except SystemExit as exc:  # cocotb's runner exits when a simulator build fails
        return fail(f"simulator build or run failed (status {exc.code}); see the log under build/sim/", EXIT_TOOL)


def main(argv: list[str] | None = None) -> int:
    """The ``montmul`` entry point: runs one subcommand and returns its exit
    status; every failure is one line on stderr, never a traceback (set
    MONTMUL_DEBUG=1 to see one for an unexpected error)."""
    progress.enable(True)
    try:
        return _run(argv)
    except KeyboardInterrupt:
        return fail("interrupted", EXIT_INTERRUPT)
    except BrokenPipeError:
        # The reader went away (`montmul cores | head -1`): stop quietly.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_PIPE
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        return fail(f"{exc.strerror or exc}{':' if where else ''}{where}", EXIT_TOOL)
    except ModuleNotFoundError as exc:
        extra = EXTRAS.get((exc.name or "").split(".")[0])
        if extra is None:
            return _internal(exc)
        return fail(f"the Python package {exc.name.split('.')[0]} is not installed; it comes with "
                    f"pip install 'montmul[{extra}]'", EXIT_TOOL)
    except Exception as exc:  # noqa: BLE001 - the promise: one line, never a traceback
        return _internal(exc)
    finally:
        progress.enable(False)


#: Top-level modules of the optional dependencies (pyproject.toml's extras):
#: a missing one is named with the extra that installs it.
EXTRAS = {
    "cocotb": "sim", "cocotb_tools": "sim", "verilator": "sim", "gmpy2": "rsa", "cryptography": "rsa",
    "cocotbext": "bus", "matplotlib": "report", "systemrdl": "rdl", "peakrdl": "rdl", "peakrdl_regblock": "rdl",
    "peakrdl_cheader": "rdl", "peakrdl_markdown": "rdl", "fusesoc": "fusesoc",
}


def _internal(exc: BaseException) -> int:
    """An unexpected error: one line (the traceback with MONTMUL_DEBUG=1)."""
    if os.environ.get("MONTMUL_DEBUG"):
        raise exc
    name = getattr(exc, "__module__", "") + "." + type(exc).__name__
    tool = "ToolError" in name or "subprocess" in name
    return fail(f"{'tool failure' if tool else 'internal error'}: {type(exc).__name__}: {exc} "
                "(MONTMUL_DEBUG=1 shows the traceback)", EXIT_TOOL)


if __name__ == "__main__":
    sys.exit(main())
