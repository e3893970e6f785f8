# SPDX-License-Identifier: Apache-2.0
"""ECP5 cell counts of a synthesis job after Yosys alone (`synth_ecp5`,
flat, then `stat`), in minutes where place and route takes an hour; with
``--replace`` one RTL file swapped for another (an earlier revision), so a
change's effect on area is measured on the same job:

    python scripts/yosys_cells.py --core scs_new_ct --width 1024 --engine modexp
    git show REV:rtl/modexp/mm_modexp.sv > build/old_mm_modexp.sv
    python scripts/yosys_cells.py --core scs_new_ct --width 1024 --engine modexp \\
        --replace mm_modexp.sv=build/old_mm_modexp.sv --drop mm_len_check.sv

Prints LUT4, CCU2C, PFUMX, L6MUX21, TRELLIS_FF, MULT18X18D and LUT sites
(LUT4 + 2 x CCU2C, as nextpnr counts them).  The same numbers `montmul
synth --target ecp5` reports after place and route come from nextpnr's
packing and may differ slightly; this is for comparing RTL variants.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from montmul import resources
from montmul.flows import synth
from montmul.flows.synth import parse, tools

CELLS = ("LUT4", "CCU2C", "PFUMX", "L6MUX21", "TRELLIS_FF", "MULT18X18D")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--core", required=True)
    ap.add_argument("--width", type=int, required=True)
    ap.add_argument("--engine", choices=("modexp", "crt"), default=None)
    ap.add_argument("--param", action="append", default=[], metavar="P=V")
    ap.add_argument("--replace", action="append", default=[], metavar="NAME=PATH",
                    help="read PATH instead of the source file named NAME")
    ap.add_argument("--drop", action="append", default=[], metavar="NAME", help="leave the source file NAME out")
    args = ap.parse_args(argv)
    params = {k: int(v, 0) for k, v in (p.split("=", 1) for p in args.param)}
    job = synth.Job(args.core, args.width, "ecp5", params=params, engine=args.engine or False)
    design, hdl = job.design()
    repl = dict(r.split("=", 1) for r in args.replace)
    files = []
    for src in design.sources():
        src = Path(src)
        if src.name in args.drop:
            continue
        files.append(Path(repl.pop(src.name)).resolve() if src.name in repl else src.resolve())
    if repl:
        ap.error(f"--replace: no source file named {', '.join(repl)}")
    work = resources.build_root() / "yosys_cells" / f"{design.name}_w{args.width}_{os.getpid()}"
    work.mkdir(parents=True, exist_ok=True)
    rel = [tools.tool_path(f, work) for f in files]
    inc = " ".join(f"-I{tools.tool_path(i, work)}" for i in design.includes())
    sets = " ".join(f"-set {k} {v}" for k, v in hdl.items())
    (work / "cells.ys").write_text(f"read_verilog -sv {inc} {' '.join(rel)}\nchparam {sets} {design.top}\n"
                                   f"synth_ecp5 -top {design.top}\ntee -q -o stat.json stat -json\n")
    r = subprocess.run([tools.find("yosys"), "-q", "-l", "cells.log", "cells.ys"], cwd=work,
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(f"yosys failed, see {work / 'cells.log'}\n{r.stderr[-2000:]}", file=sys.stderr)
        return 1
    cells = parse.yosys_stat(work / "stat.json")["cells"]
    counts = {c: cells.get(c, 0) for c in CELLS}
    eng = f" --engine {args.engine}" if args.engine else ""
    print(f"{args.core} w{args.width}{eng} {params or ''} {' '.join(args.replace)}".rstrip())
    for c in CELLS:
        print(f"  {c:<11} {counts[c]:>8,}")
    print(f"  {'LUT sites':<11} {counts['LUT4'] + 2 * counts['CCU2C']:>8,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
