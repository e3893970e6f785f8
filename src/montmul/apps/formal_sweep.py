# SPDX-License-Identifier: Apache-2.0
"""Prove every registered core, mm_modexp and mm_modexp_crt (make formal): for each, the
handshake properties by k-induction and every property (function, range,
latency bound) by BMC, at the width given (default 3), one run at a time.
Besides each core's default formal parameters, the parameter sets of
VARIANTS run too (the interleaved mm_dsp_redundant: Interleave 2 and 3, on
the shell mm_req_pipe).  Prints one line per run and a Markdown table
(docs/formal.md) at the end; writes build/formal/summary.json.  Exit status
1 if a property failed
(FAIL) or a run did not finish (ERROR, TIMEOUT); an induction that does not
close (UNKNOWN: not proved, no counterexample from reset) is reported in the
table and in docs/formal.md's limits, but does not fail the sweep."""

from __future__ import annotations

import argparse
import json
import sys

from montmul import cores
from montmul.flows import formal

#: Parameter sets run besides each core's defaults (``--param``): the
#: interleaved configurations of mm_dsp_redundant keep 2 or 3 products in
#: flight on another shell (mm_req_pipe), so they are proved on their own.
VARIANTS: dict[str, list[dict[str, int]]] = {
    "dsp_redundant": [{"Interleave": 2}, {"Interleave": 3}],
    "dsp_redundant_ecp5": [{"Interleave": 2}, {"Interleave": 3}],
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--width", type=int, default=3)
    ap.add_argument("--core", default="all", help="comma-separated targets or 'all'")
    ap.add_argument("--mode", default="prove,bmc")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per run")
    ap.add_argument("--solver", default=formal.DEFAULT_SOLVER)
    args = ap.parse_args(argv)
    names = list(cores.CORES) + list(formal.ENGINES) if args.core == "all" else args.core.split(",")
    runs = [(name, params) for name in names for params in [{}, *VARIANTS.get(name, [])]]
    results = []
    for name, params in runs:
        for mode in args.mode.split(","):
            job = formal.make_job(name, args.width, mode, solver=args.solver, timeout=args.timeout,
                                  params=params)
            res = formal.run(job)
            results.append(res)
            ps = " ".join(f"{k}={v}" for k, v in params.items())
            print(f"{res.target:22} k={res.width} {ps:12} {mode:5} depth {res.depth:3} {res.status:7} "
                  f"{res.seconds:8.1f} s {' '.join(res.failed)} {res.trace or ''}", flush=True)
    (formal.formal_root() / "summary.json").write_text(json.dumps([r.as_json() for r in results], indent=2))
    print()
    print("| core | width | parameters | k-induction (handshake) | s | BMC (all properties) | s |")
    print("|---|---|---|---|---|---|---|")
    by = {}
    for r in results:
        by.setdefault((r.target, r.width, tuple(sorted(r.params.items()))), {})[r.mode] = r
    for (target, width, _), rs in by.items():
        any_r = next(iter(rs.values()))
        ps = ", ".join(f"{k}={v}" for k, v in sorted(any_r.params.items()) if k not in ("Width", "CheckRange"))
        cells = []
        for mode in ("prove", "bmc"):
            r = rs.get(mode)
            if r is None:
                cells += ["-", "-"]
                continue
            verdict = {"PASS": "proved" if mode == "prove" else f"pass, depth {r.depth}"}.get(
                r.status, f"{r.status} (depth {r.depth})")
            if r.status == "TIMEOUT" and r.reached is not None:
                verdict = f"TIMEOUT, no failure to step {r.reached} of {r.depth}"
            if mode == "prove" and r.status == "PASS":
                verdict += f" (depth {r.depth})"
            cells += [verdict, f"{r.seconds:.0f}"]
        print(f"| `{target}` | {width} | {ps or '-'} | " + " | ".join(cells) + " |")
    bad = [r for r in results if r.status not in ("PASS", "UNKNOWN")]
    open_ = [r for r in results if r.status == "UNKNOWN"]
    print(f"\n{len(results)} runs: {len(results) - len(bad) - len(open_)} passed, {len(open_)} not proved "
          f"(induction open), {len(bad)} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
