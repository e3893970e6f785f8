#!/usr/bin/env python3
"""Place and route a finished ECP5 job's netlist again, with extra
nextpnr-ecp5 arguments: an experiment on a flow option before it becomes one.

The job is named as for ``montmul synth`` (core, width, engine, flow
options); its result must be in the synthesis cache (run ``montmul synth``
first).  Its Yosys netlist is copied to ``--out`` and nextpnr-ecp5 runs there
with the flow's own arguments (``montmul.flows.synth.flows.nextpnr_args``) followed
by ``--extra``.  Nothing is cached and no stored result changes; the script
prints the run's Fmax beside the cached result's and writes ``try.json``.

    python scripts/nextpnr_try.py --core scs_new --width 1024 --engine modexp \\
        --extra "--placer-heap-critexp 4" --out build/try/scs_new_critexp4
"""
from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
from pathlib import Path

from montmul.flows import synth as sy
from montmul.flows.synth import parse_flow_options
from montmul.flows.synth import flows, parse, tools


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--core", required=True)
    ap.add_argument("--width", type=int, required=True)
    ap.add_argument("--engine", choices=("modexp", "crt", "regs"), default=None,
                    help="the engine around the core, as montmul synth --engine KIND")
    ap.add_argument("--option", action="append", default=[], metavar="O=V",
                    help="a flow option of the cached job (repeatable), as montmul synth --option")
    ap.add_argument("--extra", default="", help="extra nextpnr-ecp5 arguments, one string")
    ap.add_argument("--out", required=True, help="a new folder for the run (any location)")
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds before the run is stopped")
    ap.add_argument("--build-dir", default=None,
                    help="the synthesis build folder holding the job's result (default: montmul's, build/synth)")
    args = ap.parse_args(argv)

    try:
        options = parse_flow_options(args.option, "ecp5")
        job = sy.Job(args.core, args.width, "ecp5", {}, options, engine=args.engine or False)
        _, _, opts = job.resolve()
    except (ValueError, KeyError) as exc:
        ap.error(str(exc))
    result = sy.cached(job, args.build_dir)
    if result is None:
        ap.error("this job has no cached result: run montmul synth for it first")
    netlist = sy.result_dir(job, result, args.build_dir) / "netlist.json"
    if not netlist.is_file():
        ap.error(f"the cached result's netlist is gone: {netlist}")
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(netlist, out / "netlist.json")

    seed = int(opts["seed"])
    extra = shlex.split(args.extra)
    try:
        secs = tools.run("nextpnr-ecp5", [*flows.nextpnr_args(opts, seed), *extra], out, "nextpnr.out",
                         timeout=args.timeout)
    except tools.ToolTimeout as exc:
        print(f"timed out: {exc}", file=sys.stderr)
        return 1
    except tools.ToolError as exc:
        print(exc, file=sys.stderr)
        return 1
    rep = parse.nextpnr_report(out / "report.json", flows.CLOCK)
    summary = {
        "job": {"core": job.core, "width": job.width, "engine": args.engine, "options": options},
        "seed": seed,
        "extra": extra,
        "fmax_mhz": round(rep["fmax_mhz"], 3),
        "nextpnr_seconds": round(secs, 1),
        "cached_fmax_mhz_seed": (result.get("fmax_seeds") or {}).get(str(seed)),
        "cached_nextpnr_seconds": (result.get("seconds") or {}).get("nextpnr"),
    }
    (out / "try.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
