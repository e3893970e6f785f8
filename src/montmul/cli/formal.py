# SPDX-License-Identifier: Apache-2.0
"""The ``montmul formal`` subcommand (registered by
:func:`montmul.cli.build_parser`): SymbiYosys proofs of one core or of
mm_modexp at a small width (:mod:`montmul.flows.formal`, docs/formal.md).

    montmul formal --core NAME|modexp [--width K] [--depth D] [--mode all|prove|bmc]
                   [--param P=V] [--solver boolector|z3] [--timeout S] [--json]

Exit status: 0 every run passed, 1 a property failed or the induction did
not close (the counterexample VCD is printed), 2 bad usage, 4 a tool failed.
"""

from __future__ import annotations

import json

from .. import cores
from .util import EXIT_CHECK, EXIT_OK, EXIT_TOOL, CliError, positive_int
from ..flows.formal import DEFAULT_SOLVER, ENGINES, MODES, MODEXP, MODEXP_CRT, SOLVERS, FormalError, make_job, run


def _targets() -> str:
    return ", ".join(sorted(cores.CORES)) + f", {MODEXP}, {MODEXP_CRT}"


def cmd_formal(args) -> int:
    params: dict[str, int] = {}
    for item in args.param or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise CliError(f"--param takes NAME=VALUE, got {item!r}")
        try:
            params[name] = int(value, 0)
        except ValueError:
            raise CliError(f"--param {item}: not an integer") from None
    if args.core not in ENGINES and args.core not in cores.CORES:
        raise CliError(f"unknown core {args.core!r}; formal targets: {_targets()}")
    modes = MODES if args.mode == "all" else (args.mode,)
    if args.depth is not None and len(modes) > 1:
        raise CliError("--depth needs --mode prove or --mode bmc (the two modes have different depths)")
    jobs = [make_job(args.core, args.width, m, args.depth, args.solver, params, args.modexp_core, args.timeout)
            for m in modes]
    results = []
    for job in jobs:
        try:
            res = run(job)
        except FormalError as exc:
            raise CliError(str(exc), EXIT_TOOL) from None
        results.append(res)
        if not args.json:
            what = {"prove": "k-induction", "bmc": "BMC"}[res.mode]
            verdict = {
                "PASS": "proved (unbounded)" if res.mode == "prove" else f"no failure to depth {res.depth}",
                "FAIL": "FAILED",
                "UNKNOWN": f"not proved: induction fails at depth {res.depth} (raise --depth)",
                "TIMEOUT": "timed out" + (f" (no failure to step {res.reached})"
                                          if res.reached is not None and res.reached >= 0 else ""),
                "ERROR": "tool error",
            }.get(res.status, res.status)
            ps = ", ".join(f"{k}={v}" for k, v in sorted(res.params.items()) if k != "Width")
            print(f"{res.target} k={res.width} ({ps or 'defaults'}) {what} depth {res.depth} "
                  f"[{res.solver}]: {verdict} in {res.seconds:.1f} s")
            if res.failed:
                print(f"  failing assertion(s): {', '.join(res.failed)}")
            if res.trace:
                print(f"  counterexample trace: {res.trace}")
            if res.status == "ERROR":
                print(f"  log: {res.workdir}/sby.out")
    if args.json:
        print(json.dumps({"results": [r.as_json() for r in results]}, indent=2))
    if any(r.status == "ERROR" for r in results):
        return EXIT_TOOL
    return EXIT_OK if all(r.ok for r in results) else EXIT_CHECK


def add_parser(sub, subparser) -> None:
    """Register ``montmul formal`` on the CLI's subparsers."""
    f = subparser(sub, "formal", help="formal proofs with SymbiYosys: handshake by k-induction, "
                                      "function and latency by BMC (docs/formal.md)")
    f.add_argument("--core", required=True, help=f"core name (see `montmul cores`), '{MODEXP}' (mm_modexp) or "
                                              f"'{MODEXP_CRT}' (mm_modexp_crt)")
    f.add_argument("--width", type=int, default=3, help="modulus width k (small: 3 .. 8)")
    f.add_argument("--depth", type=positive_int,
                   help="induction depth (prove) or BMC depth (bmc); default from the latency bound")
    f.add_argument("--mode", choices=("all",) + MODES, default="all",
                   help="prove: handshake properties by k-induction; bmc: every property incl. the "
                        "functional ones and the latency bound, bounded; all: both")
    f.add_argument("--param", action="append", metavar="P=V", help="HDL parameter (repeatable)")
    f.add_argument("--solver", choices=SOLVERS, default=DEFAULT_SOLVER, help="SMT solver")
    f.add_argument("--modexp-core", default="r2_basic", help=f"with --core {MODEXP}: the core under mm_modexp")
    f.add_argument("--timeout", type=positive_int, help="seconds per run (sby's timeout; verdict TIMEOUT)")
    f.add_argument("--json", action="store_true", help="print one JSON object")
    f.set_defaults(func=cmd_formal)


