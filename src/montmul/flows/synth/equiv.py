# SPDX-License-Identifier: Apache-2.0
"""Is today's RTL of a design the same function as at another git revision?

A refactor of the RTL (a shared macro or module, a package of constants, a
register written another way) must change nothing: the same registers, the
same next-state and output functions.  This check proves it with Yosys at
one small width: each side (the design's files at revision ``REV``, and in
the working tree) is read, elaborated with the same HDL parameters,
flattened and turned into a flat netlist of the same top; ``equiv_make``
pairs the two netlists' signals by name, ``equiv_simple`` and
``equiv_induct`` prove the pairs (by induction over the registers, so for
every reachable and unreachable state alike), and ``equiv_status -assert``
fails unless every pair is proved.  A file the design reads today that
``REV`` does not have (a design that gained a file) is read on today's side
only; the generated engine wrapper (not in git) is the same on both sides.

    python -m montmul.flows.synth.equiv REV CORE [CORE ...] [--width 8] [--kind modexp]
    python scripts/rtl_equiv.py REV -- CORE WIDTH          # the same, one core

Exit 0 when every design checked is equivalent, 1 when one is not (its
unproved signals are listed), 2 for bad arguments (an unknown core or
revision).  The store's ``rekey --equiv REV`` runs it
(:mod:`montmul.flows.synth.store`).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

from ... import cores, design, resources
from . import tools

#: The widths the check runs at by default: small enough for seconds, wide
#: enough that every word/segment parameter has more than one word.
DEFAULT_WIDTH = 8
#: Cycles of ``equiv_simple``/``equiv_induct`` look-back.
SEQ = 4


@dataclass
class Result:
    """One design's check: ``equivalent`` when Yosys proved every pair."""

    name: str
    width: int
    equivalent: bool
    proved: int
    unproved: list[str]
    gained: list[str]  #: files today's side reads that REV does not have
    log: Path

    def line(self) -> str:
        gained = f"; gained {', '.join(self.gained)}" if self.gained else ""
        if self.equivalent:
            return f"{self.name} w{self.width}: equivalent ({self.proved} signals proved{gained})"
        return (f"{self.name} w{self.width}: NOT equivalent ({len(self.unproved)} of "
                f"{self.proved + len(self.unproved)} unproved: {', '.join(self.unproved[:8])}{gained}; log {self.log})")


def _rev_tree(rev: str, dest: Path) -> Path:
    """The repository's ``rtl/`` at ``rev``, written below ``dest``."""
    root = resources.data_root()
    rtl = resources.rtl_dir().relative_to(root)
    try:
        data = subprocess.run(["git", "-C", str(root), "archive", "--format=tar", rev, str(rtl)],
                              check=True, capture_output=True).stdout
    except subprocess.CalledProcessError as exc:
        raise ValueError(f"git archive {rev}: {exc.stderr.decode(errors='replace').strip()}") from None
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")
    return dest / rtl


def _side(script: str, files: list[Path], incs: list[Path], top: str, hdl: dict[str, int], out: str,
          cwd: Path) -> str:
    rel = tools.tool_path
    sets = " ".join(f"-set {k} {int(v)}" for k, v in sorted(hdl.items()))
    return "\n".join([
        f"# {script}",
        f"read_verilog -sv {' '.join(f'-I{rel(p, cwd)}' for p in incs)} {' '.join(rel(p, cwd) for p in files)}",
        f"chparam {sets} {top}",
        f"hierarchy -check -top {top}",
        "proc", "flatten", "opt_clean", "memory", "opt_clean", "async2sync",
        f"rename {top} {out}",
        f"write_rtlil {out}.il",
        "",
    ])


def check(rev: str, target, width: int = DEFAULT_WIDTH, params: dict[str, int] | None = None,
          work: Path | None = None, hdl: dict[str, int] | None = None) -> Result:
    """Prove ``target`` (a :class:`~montmul.cores.Core` or a
    :class:`~montmul.design.Design`) at ``width`` and HDL parameters
    ``params`` (or the top's complete parameters ``hdl``) equivalent to its
    RTL at git revision ``rev``."""
    root = resources.rtl_dir()
    params = dict(params or {})
    hdl = dict(hdl) if hdl is not None else target.hdl_params(width, **params)
    tag = "".join(f"_{k}{v}" for k, v in sorted(params.items()))
    # one folder per process (two checks of the same design may run at once);
    # kept only when the check fails, for its logs
    work = Path(work or resources.build_root() / "equiv" / f"{target.name}_w{width}{tag}_{os.getpid()}")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    old_root = _rev_tree(resolve_rev(rev), work / "rev")

    def at_rev(p: Path) -> Path | None:
        p = Path(p).resolve()
        if not p.is_relative_to(root):
            return p  # generated (the engine wrapper): the same on both sides
        q = old_root / p.relative_to(root)
        return q if q.is_file() or q.is_dir() else None

    new_files = [Path(p) for p in target.sources()]
    old_files = [q for q in map(at_rev, new_files) if q is not None]
    gained = [str(Path(p).resolve().relative_to(root.parent)) for p in new_files if at_rev(p) is None]
    old_incs = [q for q in map(at_rev, target.includes()) if q is not None]
    (work / "gold.ys").write_text(_side(f"{target.name} at {rev}", old_files, old_incs, target.top, hdl, "gold", work))
    (work / "gate.ys").write_text(_side(f"{target.name} today", new_files, target.includes(), target.top, hdl, "gate",
                                        work))
    (work / "equiv.ys").write_text("\n".join([
        "read_rtlil gold.il", "read_rtlil gate.il",
        "equiv_make gold gate equiv", "hierarchy -top equiv",
        f"equiv_simple -seq {SEQ}", f"equiv_induct -seq {SEQ}",
        "equiv_status -assert", "",
    ]))
    for name in ("gold", "gate"):
        tools.run("yosys", ["-l", f"{name}.log", f"{name}.ys"], work, f"{name}.out")
    try:
        tools.run("yosys", ["-l", "equiv.log", "equiv.ys"], work, "equiv.out")
    except tools.ToolError:
        pass  # equiv_status -assert: the log lists the unproved pairs
    text = (work / "equiv.log").read_text(errors="replace")
    m = re.search(r"Found (\d+) \$equiv cells", text)
    total = int(m.group(1)) if m else 0
    unproved = re.findall(r"Unproven \$equiv \S+: (\S+) (\S+)", text)
    names = sorted({a.lstrip("\\") for a, _ in unproved})
    ok = total > 0 and not unproved and "Equivalence successfully proven!" in text
    if ok:
        shutil.rmtree(work, ignore_errors=True)
    label = target.name + "".join(f" {k}={v}" for k, v in sorted(params.items()))
    return Result(label, width, ok, total - len(unproved), names, gained, work / "equiv.log")


def resolve_rev(rev: str) -> str:
    """The commit ``rev`` names (ValueError when git does not know it)."""
    try:
        return subprocess.run(["git", "-C", str(resources.data_root()), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                              check=True, capture_output=True, text=True).stdout.strip()
    except subprocess.CalledProcessError:
        raise ValueError(f"unknown git revision {rev!r}") from None


def rev_digest(commit: str, rel: str) -> str | None:
    """:func:`montmul.flows.synth.flows.rtl_digest` of the file ``rel``
    (relative to the repository) at ``commit``; None when it has none."""
    from .flows import rtl_text

    proc = subprocess.run(["git", "-C", str(resources.data_root()), "show", f"{commit}:{rel}"], capture_output=True)
    if proc.returncode != 0:
        return None
    return hashlib.sha256(rtl_text(proc.stdout.decode()).encode()).hexdigest()


#: top -> HDL parameters of a smaller instance that :func:`store_target`
#: proves instead of the stored one: mm_dsp_redundant's digit multipliers
#: (24x17, 18x18) take the SAT proof hours, at R1 = R2 = 6 seconds; the RTL
#: is the same text at every parameter set.
SMALL = {"mm_dsp_redundant": {"R1": 6, "R2": 6}}


def store_target(r: dict, width: int = DEFAULT_WIDTH):
    """``(design, hdl)``: what to prove for the stored synthesis result
    ``r`` (:mod:`montmul.flows.synth.store`): its core or engine design with
    its HDL parameters at ``width`` (:data:`SMALL` applied)."""
    from . import Job

    core = cores.lookup(r["core"])
    params = {k: v for k, v in r["params"].items() if k != "Width"}
    small = SMALL.get(core.top, {})
    if small:
        if set(small) & set(core.fixed):  # a variant that pins them: its base entry, same RTL
            core = next(c for c in (*cores.CORES.values(), *cores.UNITS.values())
                        if c.top == core.top and c.rtl == core.rtl and not set(small) & set(c.fixed))
        params.update(small)
    if r.get("engine"):
        params = {k: v for k, v in params.items() if k not in core.fixed}
    return Job(core.name, width, r["target"], params, {}, r.get("engine") or False).design()


def target_of(name: str, kind: str = "core"):
    """The core or unit ``name`` (``kind`` "core"), or the design of that
    kind around it (:func:`montmul.design.build`)."""
    if kind == "core":
        return cores.lookup(name)
    return design.build(kind, name)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m montmul.flows.synth.equiv", description=__doc__.split("\n\n")[0])
    ap.add_argument("rev", help="the git revision to compare with (e.g. main, HEAD~3)")
    ap.add_argument("names", nargs="+", metavar="CORE",
                    help="registered cores or units; 'all' for every one; a trailing number is the width")
    ap.add_argument("--width", type=int, default=None, help=f"modulus width (default {DEFAULT_WIDTH})")
    ap.add_argument("--kind", default="core", choices=("core", *design.KINDS),
                    help="the design around the core (default: the core alone)")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="an HDL parameter of the core (e.g. R1=6: a smaller DSP digit proves faster); repeatable")
    args = ap.parse_args(argv)
    names = list(args.names)
    width = args.width
    if names and names[-1].isdigit():
        width = width or int(names.pop())
    width = width or DEFAULT_WIDTH
    if names == ["all"]:
        names = [*cores.CORES, *cores.UNITS]
    try:
        targets = [target_of(n, args.kind) for n in names]
        if not targets:
            raise ValueError("no core named")
        params = {}
        for item in args.param:
            k, sep, v = item.partition("=")
            if not sep or not v.lstrip("-").isdigit():
                raise ValueError(f"--param takes NAME=VALUE, got {item!r}")
            params[k] = int(v)
    except (KeyError, ValueError) as exc:
        print(f"{ap.prog}: error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    bad = 0
    for t in targets:
        try:
            r = check(args.rev, t, width, params)
        except (KeyError, ValueError) as exc:
            print(f"{ap.prog}: error: {exc}", file=sys.stderr)
            return 2
        except tools.ToolError as exc:
            print(f"{t.name} w{width}: Yosys failed: {str(exc).splitlines()[0]}")
            bad += 1
            continue
        print(r.line(), flush=True)
        bad += not r.equivalent
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
