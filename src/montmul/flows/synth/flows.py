# SPDX-License-Identifier: Apache-2.0
"""The three synthesis flows.  Each takes a prepared work directory (inside
the repository: the YoWASP tools cannot see ``/tmp``) and returns the parsed
figures as a flat dict.

ecp5    Yosys ``synth_ecp5``, nextpnr-ecp5 out of context on an 85k device;
        LUT4, TRELLIS_FF, MULT18X18D, CCU2C and post-route Fmax of clk_i.
asic    Yosys generic synthesis mapped to a liberty library (OSU 0.18 um):
        ``dfflibmap``, ABC with a delay target and fanout buffering; cell area
        from ``stat -liberty``; OpenSTA register-to-register critical path,
        also in full-adder delays T_FA of the library.
xilinx  Yosys ``synth_xilinx`` resource counts (7 series by default, any
        Yosys family by the ``family`` option); no timing.

Every target also reports a per-instance breakdown (:func:`run_hier`): a
second Yosys run of the same script without flattening, whose per-module
statistics give each submodule instance's own cost (``instances``).  The
flat run, and so every flat figure and the place and route, is unchanged.

The scripts are the templates in ``syn/`` with their ``@NAME@`` fields
filled in.
"""

from __future__ import annotations

import collections
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from ... import resources
from ...cores import Core
from . import parse, tools
from .tools import ToolError, ToolTimeout


def __getattr__(name: str) -> Path:
    if name == "SYN":  # the syn/ templates (montmul.resources), resolved when used
        return resources.syn_dir()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Flow options per target, with their defaults.  Every option is part of the
#: cache key.
DEFAULTS: dict[str, dict[str, object]] = {
    "ecp5": {
        "device": "85k",          # nextpnr-ecp5 --85k (LFE5U-85F)
        "package": "CABGA381",
        "freq_mhz": 200.0,        # clock constraint on clk_i (timing-driven placement)
        "seed": 1,                # placer seed: fixed, so a run is reproducible
        "seeds": 3,               # Fmax = median over this many seeds (seed, seed+1, ...) when the run is short
        "short_s": 300,           # a run is short when the first seed's nextpnr took less (seconds)
        "budget_s": 3600,         # time budget of the whole job (Yosys + nextpnr); past it: a "timed out" result
        "placer": "heap",         # nextpnr --placer (heap, sa)
        "router": "router1",      # nextpnr --router (router1, router2)
        "share": 1,               # 0: synth_ecp5 without its `share` pass (ecp5_synth; SAT-based sharing of multipliers)
    },
    "asic": {
        "liberty": ".tools/osu018/osu018_stdcells.lib",  # relative to the checkout (montmul.resources.liberty)
        "period_ps": 2000,        # ABC delay target and the STA clock period
        "max_fanout": 8,          # ABC `buffer -N`: nets above it get a buffer tree
        "driver": "BUFX2",        # driving cell of every data input
        "load_pf": 0.02,          # load on every output (and ABC's output load)
        "fa_cell": "FAX1",        # the library's full adder, for T_FA and A_FA
        "fa_sum": "YS",           # its sum output
    },
    "xilinx": {
        "family": "xc7",
    },
}

#: Flow options a run may set that have no default here: unset, the tool's
#: own default applies and the option is not in the resolved options (so not
#: in the cache key of a run without it).
OPTIONAL: dict[str, dict[str, str]] = {
    "ecp5": {
        # nextpnr --placer-heap-timingweight (nextpnr's default: 10); a higher
        # weight pulls timing-critical cells closer (docs/synthesis.md)
        "timing_weight": "int",
    },
    "asic": {},
    "xilinx": {},
}


#: Flow options that take one of a few words.
CHOICES: dict[str, tuple[str, ...]] = {"placer": ("heap", "sa"), "router": ("router1", "router2")}


def check_options(target: str, opts: dict[str, object]) -> None:
    """ValueError unless every option of ``opts`` is one ``target``'s flow
    has, with a value of its kind (a number where the default is a float or
    seconds, an integer where it is an integer, one of :data:`CHOICES`): checked before
    any tool runs, not by the tool minutes later."""
    known = known_options(target)
    bad = sorted(set(opts) - set(known))
    if bad:
        raise ValueError(f"unknown {target} flow option(s) {', '.join(bad)}; known: {', '.join(known)}")
    for name, value in opts.items():
        default = DEFAULTS[target].get(name)
        want = OPTIONAL[target].get(name)
        if name in CHOICES:
            ok, kind = value in CHOICES[name], f"one of {', '.join(CHOICES[name])}"
        elif want == "int":
            ok, kind = isinstance(value, int) and value >= 1, "a positive integer"
        elif isinstance(default, float) or name.endswith("_s"):  # a float, or seconds
            ok, kind = isinstance(value, (int, float)) and value > 0, "a number above 0"
        elif isinstance(default, int):
            ok, kind = isinstance(value, int) and value >= 0, "an integer"
        else:
            ok, kind = isinstance(value, str) and value != "", "a word"
        if not ok or isinstance(value, bool):
            raise ValueError(f"{target} flow option {name} takes {kind}, got {value!r}")


def known_options(target: str) -> tuple[str, ...]:
    """Every flow option ``target`` takes: :data:`DEFAULTS`, then :data:`OPTIONAL`."""
    return (*DEFAULTS[target], *OPTIONAL[target])


#: Template files of each target (their contents are part of the cache key).
FLOW_FILES = {
    "ecp5": ("ecp5.ys.in", "hier.ys.in"),
    "asic": ("asic.ys.in", "asic_abc.script.in", "asic_abc.constr.in", "asic_sta.tcl.in", "asic_tfa.tcl.in",
             "hier.ys.in"),
    "xilinx": ("xilinx.ys.in", "hier.ys.in"),
}

TARGETS = tuple(DEFAULTS)
CLOCK = "clk_i"
RESET = "rst_ni"


def fill(template: str, **fields: object) -> str:
    """The template ``syn/<template>`` with every ``@NAME@`` replaced."""
    text = (resources.syn_dir() / template).read_text()

    def sub(m: re.Match) -> str:
        key = m.group(1)
        if key not in fields:
            raise KeyError(f"syn/{template}: no value for @{key}@")
        return str(fields[key])

    return re.sub(r"@([A-Z_]+)@", sub, text)


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


_RTL_TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|//[^\n]*|/\*.*?\*/', re.S)
_RTL_DIRECTIVE = re.compile(r"^\s*`(ifdef|ifndef|elsif|else|endif)\b\s*(\w*)")


def rtl_text(text: str) -> str:
    """The part of an RTL file that synthesis reads: comments removed, the
    ``ifdef MM_FORMAL`` blocks (assertions, never defined for synthesis) left
    out (their ``else`` branch kept, the reverse for ``ifndef``), spaces
    within a line collapsed, blank lines dropped.  Line breaks stay (they end
    a `define)."""
    text = _RTL_TOKEN.sub(lambda m: m.group(0) if m.group(0).startswith('"') else
                          "\n" * m.group(0).count("\n"), text)
    out, stack = [], []  # stack: per open `if*, whether this branch is dropped, and whether it is MM_FORMAL's
    for line in text.splitlines():
        m = _RTL_DIRECTIVE.match(line)
        if m:
            kind, name = m.groups()
            if kind in ("ifdef", "ifndef"):
                formal = name == "MM_FORMAL"
                stack.append((formal and kind == "ifdef", formal))
                if formal:
                    continue
            elif stack and stack[-1][1]:
                if kind == "endif":
                    stack.pop()
                elif kind == "else":
                    stack[-1] = (not stack[-1][0], True)
                continue
            elif kind == "endif" and stack:
                stack.pop()
        if any(dropped for dropped, _ in stack):
            continue
        line = " ".join(line.split())
        if line:
            out.append(line)
    return "\n".join(out) + "\n"


def rtl_digest(path: Path) -> str:
    """SHA-256 of :func:`rtl_text` of ``path``: a synthesis cache key that a
    comment or a formal-only assertion does not change."""
    return hashlib.sha256(rtl_text(Path(path).read_text()).encode()).hexdigest()


def rtl_files(core: Core) -> list[Path]:
    """Every file the core's elaboration can read: its sources and the headers
    in its include directories."""
    files = list(core.sources())
    for inc in core.includes():
        files += sorted(p for p in inc.iterdir() if p.suffix in (".svh", ".vh"))
    return files


rel = tools.tool_path  # every path in a tool's script or command line (YoWASP's sandbox)


def read_block(core: Core, hdl: dict[str, int], cwd: Path, seg_width: int | None = None,
               target: str | None = None) -> str:
    """Yosys commands that read the core's RTL and set its parameters;
    ``seg_width`` overrides mm_seg_add's default SegWidth (carry-chain
    checks at small widths); ``target``: the Verilog macros the core
    defines for it (``Core.synth_defines``), and for ECP5 then the vendor
    cells' declarations (MULT18X18D)."""
    incs = " ".join(f"-I{rel(p, cwd)}" for p in core.includes())
    srcs = " ".join(rel(p, cwd) for p in core.sources())
    sets = " ".join(f"-set {k} {int(v)}" for k, v in sorted(hdl.items()))
    defines = core.synth_defines.get(target, ()) if target else ()
    lines = ["read_verilog -lib +/ecp5/cells_bb.v"] if defines and target == "ecp5" else []
    lines += [f"read_verilog -sv {''.join(f'-D{d} ' for d in defines)}{incs} {srcs}", f"chparam {sets} {core.top}"]
    if seg_width is not None:
        lines.append(f"chparam -set SegWidth {int(seg_width)} mm_seg_add")
    return "\n".join([*lines, f"hierarchy -check -top {core.top}"])


def _yosys(script: str, cwd: Path, name: str = "synth", timeout: float | None = None) -> float:
    (cwd / f"{name}.ys").write_text(script)
    return tools.run("yosys", ["-q", "-l", f"{name}.log", f"{name}.ys"], cwd, f"{name}.out", timeout=timeout)


# --------------------------------------------------------------------------
# Resource counts from Yosys cell counts, one function per target, used for
# the flat result and for every instance of the breakdown alike.
def ecp5_counts(c: dict[str, int]) -> dict[str, int]:
    """LUT4 sites (every CCU2C is two LUT4s of a slice), FF, CCU2C carry
    cells (two bits each), DSP (MULT18X18D, ALU54B), BRAM (DP16KD)."""
    return {
        "luts": c.get("LUT4", 0) + 2 * c.get("CCU2C", 0),
        "ff": c.get("TRELLIS_FF", 0),
        "carry": c.get("CCU2C", 0),
        "dsp": c.get("MULT18X18D", 0) + c.get("ALU54B", 0),
        "bram": c.get("DP16KD", 0),
    }


def xilinx_counts(c: dict[str, int]) -> dict[str, int]:
    """LUTs (LUT1..LUT6, and Yosys' INV cells, which implementation packs into
    LUT1s), FF (FD*), carry cells (CARRY4/CARRY8: 4/8 bits each; MUXCY of the
    families before Virtex-5: one bit each), DSP (DSP48*, Virtex-II's
    MULT18X18*), BRAM (RAMB*)."""
    return {
        "luts": sum(c.get(f"LUT{i}", 0) for i in range(1, 7)) + c.get("INV", 0),
        "ff": sum(v for k, v in c.items() if k.startswith("FD")),
        "carry": c.get("CARRY4", 0) + c.get("CARRY8", 0) + c.get("MUXCY", 0),
        "dsp": sum(v for k, v in c.items() if k.startswith(("DSP48", "MULT18X18"))),
        "bram": sum(v for k, v in c.items() if k.startswith("RAMB")),
    }


def asic_counts(c: dict[str, int], areas: dict[str, float]) -> dict[str, object]:
    """Cell area (liberty areas), FF (DFF*/LATCH* cells), number of cells."""
    return {
        "area_um2": round(sum(n * areas[t] for t, n in c.items()), 2),
        "ff": sum(v for k, v in c.items() if k.startswith(("DFF", "LATCH"))),
        "cells": sum(c.values()),
    }


def run_hier(core: Core, hdl: dict[str, int], synth_cmds: str, counts, cwd: Path, pre: str = "",
             timeout: float | None = None, target: str | None = None) -> tuple[dict, float]:
    """The per-instance breakdown: ``syn/hier.ys.in`` runs ``synth_cmds`` (the
    target's synthesis without flattening) and writes per-module statistics
    and the submodule instances; :func:`parse.yosys_instances` sums each
    instance's subtree.  Returns (instances, Yosys seconds)."""
    seconds = _yosys(fill("hier.ys.in", PRE=pre, READ=read_block(core, hdl, cwd, target=target), SYNTH=synth_cmds), cwd, "hier",
                     timeout)
    inst = parse.yosys_instances(cwd / "hier_stat.json", cwd / "hier_inst.json", core.top, counts)
    return inst, seconds


# --------------------------------------------------------------------------
#: ECP5 devices (LFE5U-<n>F): LUT4s (= flip-flops), MULT18X18D, DP16KD.
ECP5_DEVICES = {
    "25k": {"name": "LFE5U-25F", "luts": 24288, "ff": 24288, "dsp": 28, "bram": 56},
    "45k": {"name": "LFE5U-45F", "luts": 43848, "ff": 43848, "dsp": 72, "bram": 108},
    "85k": {"name": "LFE5U-85F", "luts": 83640, "ff": 83640, "dsp": 156, "bram": 208},
}

#: nextpnr log lines that mean the design does not fit the device: too many
#: cells of a kind, a cell without a legal site, or the placer giving up at
#: the utilisation limit ("Unable to find legal placement for all cells",
#: the CRT engine around dsp_redundant_ecp5 at 1024 bits: 83,155 of 83,640
#: LUT sites).
_NO_FIT = re.compile(r"^.*(?:but only \d+ (?:are )?available|[Uu]nable to place cell"
                     r"|Unable to find legal placement).*$", re.M)


def no_fit_line(log: str) -> str | None:
    """The line of a failed nextpnr run's output saying that the design
    does not fit the device, or None when it failed for another reason."""
    m = _NO_FIT.search(log)
    return m.group(0).strip() if m else None


#: synth_ecp5's `coarse` step (Yosys 0.70, `help synth_lattice`, ECP5
#: family, DSPs allowed), spelled out so that `share` can be left out.
ECP5_COARSE = (
    "proc -latches error",
    "check",
    "flatten",
    "tribuf -logic",
    "deminout",
    "opt_expr",
    "check",
    "opt_clean",
    "opt -nodffe -nosdff",
    "fsm",
    "opt",
    "wreduce",
    "peepopt",
    "opt_clean",
    "share",
    "techmap -map +/cmp2lut.v -D LUT_WIDTH=4",
    "opt_expr",
    "opt_clean",
    "techmap -map +/mul2dsp.v -map +/lattice/dsp_map_18x18.v -D DSP_A_MAXWIDTH=18 -D DSP_B_MAXWIDTH=18 "
    "-D DSP_A_MINWIDTH=2 -D DSP_B_MINWIDTH=2 -D DSP_NAME=$__MUL18X18",
    "chtype -set $mul t:$__soft_mul",
    "alumacc",
    "opt",
    "memory -nomap",
    "opt_clean",
)


def ecp5_synth(top: str, opts: dict, flatten: bool = True, end: str = "check", spell: bool = False) -> str:
    """The Yosys commands of synth_ecp5 up to (not including) the label
    ``end``.  With the flow option ``share`` = 0 (or ``spell``) the coarse
    step is spelled out (:data:`ECP5_COARSE`), without `share` when the option
    is 0: on a core with many multipliers behind operand multiplexers share's
    SAT search on their activation patterns can run for hours (docs/dsp.md)."""
    nf = "" if flatten else " -noflatten"
    share = int(opts.get("share", 1))
    if share not in (0, 1):
        raise ValueError(f"ECP5 flow option share must be 0 or 1, not {opts.get('share')!r}")
    if share and not spell:
        return f"synth_ecp5 -top {top}{nf} -run :{end}"
    steps = [s for s in ECP5_COARSE if (flatten or s != "flatten") and (share or s != "share")]
    return "\n".join([f"synth_ecp5 -top {top}{nf} -run :coarse", *steps, f"synth_ecp5 -top {top}{nf} -run map_ram:{end}"])


def _no_fit(name: str, counts: dict[str, int], dev: dict, why: str = "") -> str:
    return (f"does not fit {name}: {counts['luts']} LUTs / {counts['ff']} FFs / {counts['dsp']} DSPs / "
            f"{counts['bram']} BRAMs needed, {dev['luts']} / {dev['ff']} / {dev['dsp']} / {dev['bram']} available"
            + (f" ({why})" if why else ""))


def nextpnr_args(opts: dict, seed: int, sfx: str = "") -> list[str]:
    """nextpnr-ecp5's arguments for one placement seed (``sfx`` names its
    report and logs) under the resolved flow options ``opts``."""
    return [
        f"--{opts['device']}", "--package", str(opts["package"]), "--out-of-context",
        "--json", "netlist.json", "--freq", str(opts["freq_mhz"]), "--seed", str(seed),
        "--placer", str(opts["placer"]), "--router", str(opts["router"]),
        *(["--placer-heap-timingweight", str(opts["timing_weight"])] if "timing_weight" in opts else []),
        "--timing-allow-fail", "--report", f"report{sfx}.json", "-l", f"nextpnr{sfx}.log", "-q",
    ]


def run_ecp5(core: Core, hdl: dict[str, int], opts: dict, cwd: Path) -> dict:
    """Yosys, then nextpnr-ecp5 within ``budget_s`` seconds for the whole
    job; the Fmax is the median over ``seeds`` placement seeds when the first
    seed's run took less than ``short_s`` seconds (and the budget allows).
    A design too big for the device, or a run past the budget, gives a
    result with ``status`` "does_not_fit" or "timed_out" and an ``error``
    line (a result, cached like any other, not an exception)."""
    t0 = time.monotonic()
    budget = float(opts["budget_s"])
    dev = ECP5_DEVICES.get(str(opts["device"]))
    if dev is None:
        raise ValueError(f"unknown ECP5 device {opts['device']!r}; use one of {', '.join(ECP5_DEVICES)}")

    def left() -> float:
        return budget - (time.monotonic() - t0)

    def timed_out(what: str, partial: dict) -> dict:
        return {**partial, "status": "timed_out", "fmax_mhz": None, "seconds": seconds,
                "error": f"timed out: {what} past the {budget:.0f} s budget (--option budget_s=...)"}

    seconds: dict[str, float] = {}
    try:
        seconds["yosys"] = _yosys(fill("ecp5.ys.in", READ=read_block(core, hdl, cwd, target="ecp5"), SYNTH=ecp5_synth(core.top, opts)), cwd,
                                  timeout=max(1.0, left()))
    except ToolTimeout:
        return timed_out("Yosys", {})
    stat = parse.yosys_stat(cwd / "stat.json")
    c = stat["cells"]
    counts = ecp5_counts(c)
    lut4, ccu2c = c.get("LUT4", 0), c.get("CCU2C", 0)
    out = {
        "lut4": lut4,
        "ff": counts["ff"],
        "dsp": counts["dsp"],
        "ccu2c": ccu2c,
        "pfumx": c.get("PFUMX", 0),
        "l6mux21": c.get("L6MUX21", 0),
        "ebr": counts["bram"],
        "lutram": c.get("TRELLIS_DPR16X4", 0),
        #: LUT4 sites: every CCU2C is two LUT4s of a slice (area for ATP)
        "luts": counts["luts"],
        "cells": c,
        "carry_chain_bits": max((ch["bits"] for ch in parse.ecp5_carry_chains(cwd / "netlist.json")), default=0),
    }
    try:
        instances, seconds["yosys_hier"] = run_hier(
            core, hdl, ecp5_synth(core.top, opts, flatten=False), ecp5_counts, cwd, timeout=max(1.0, left()),
            target="ecp5")
    except ToolTimeout:
        return timed_out("Yosys (per-instance run)", out)
    out["instances"] = instances
    if any(counts[k] > dev[k] for k in ("luts", "ff", "dsp", "bram")):
        return {**out, "status": "does_not_fit", "fmax_mhz": None, "seconds": seconds,
                "error": _no_fit(dev["name"], counts, dev)}
    runs = []
    for i in range(max(1, int(opts["seeds"]))):
        if i == 1 and runs[0]["seconds"] >= float(opts["short_s"]):
            break  # a long run: one seed
        if i > 0 and left() < 1.2 * runs[0]["seconds"]:
            break  # no time for another seed within the budget
        seed = int(opts["seed"]) + i
        sfx = "" if i == 0 else f"_seed{seed}"
        args = nextpnr_args(opts, seed, sfx)
        try:
            secs = tools.run("nextpnr-ecp5", args, cwd, f"nextpnr{sfx}.out", timeout=max(1.0, left()))
        except ToolTimeout:
            if not runs:
                return timed_out(f"nextpnr-ecp5 (seed {seed})", out)
            break  # keep the seeds that finished
        except ToolError as exc:
            log = (cwd / f"nextpnr{sfx}.out").read_text(errors="replace") if (cwd / f"nextpnr{sfx}.out").exists() else ""
            why = no_fit_line(log)
            if why:
                return {**out, "status": "does_not_fit", "fmax_mhz": None, "seconds": seconds,
                        "error": _no_fit(dev["name"], counts, dev, why)}
            if "wasm trap" in str(exc):
                raise ToolError(
                    f"nextpnr-ecp5 (WebAssembly build) crashed on {core.name} at width {hdl['Width']}: "
                    f"a wasm trap, typically its call stack overflowing on a very long carry chain "
                    f"(longest here: {out['carry_chain_bits']} bits; see {cwd / f'nextpnr{sfx}.out'})"
                ) from None
            raise
        rep = parse.nextpnr_report(cwd / f"report{sfx}.json", CLOCK)
        runs.append({"seed": seed, "seconds": secs, "report": rep})
    seconds["nextpnr"] = sum(r["seconds"] for r in runs)
    fmaxes = [r["report"]["fmax_mhz"] for r in runs]
    med = statistics.median_low(fmaxes)  # an Fmax some seed reached; its run's path and utilisation
    rep = next(r["report"] for r in runs if r["report"]["fmax_mhz"] == med)
    out.update({
        "status": "ok",
        "fmax_mhz": round(med, 3),
        "fmax_seeds": {str(r["seed"]): round(r["report"]["fmax_mhz"], 3) for r in runs},
        "constraint_mhz": rep["constraint_mhz"],
        "utilization": rep["utilization"],
        "device_utilization": {k: round(counts[k] / dev[k], 4) for k in ("luts", "ff", "dsp", "bram")},
        "critical_path": rep.get("critical_path"),
        "seconds": seconds,
    })
    return out


def carry_chains(core: Core, hdl: dict[str, int], cwd: Path, seg_width: int | None = None) -> list[dict]:
    """The CCU2C carry chains of the core after Yosys' ECP5 mapping
    (``syn/ecp5_chains.ys.in``; no LUT mapping, no place and route), longest
    first (:func:`parse.ecp5_carry_chains`)."""
    _yosys(fill("ecp5_chains.ys.in", READ=read_block(core, hdl, cwd, seg_width, target="ecp5"), TOP=core.top), cwd, "chains")
    return parse.ecp5_carry_chains(cwd / "chains.json")


# --------------------------------------------------------------------------
#: Environment variable naming the liberty file of the ASIC flow's default.
LIBERTY_ENV = "MONTMUL_LIBERTY"
#: The Debian package that holds the OSU 0.18 um liberty, and its file name.
LIBERTY_DEB = "qflow-tech-osu018"
LIBERTY_FILE = "osu018_stdcells.lib"


def user_liberty_dir() -> Path:
    """Where ``montmul setup-asic`` puts the liberty outside a checkout:
    ``$XDG_DATA_HOME/montmul/osu018`` (default ``~/.local/share/...``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "montmul" / "osu018"


def liberty_path(opts: dict) -> Path:
    """The liberty file of the ASIC flow.  An explicit ``liberty`` option is
    taken as given (relative: to the checkout, else the current folder); the
    default is ``$MONTMUL_LIBERTY`` when set, else the checkout's
    ``.tools/osu018/`` (``make setup``), ``./.tools/osu018/``, or
    :func:`user_liberty_dir` (``montmul setup-asic``)."""
    opt = str(opts["liberty"])
    env = os.environ.get(LIBERTY_ENV)
    if opt != DEFAULTS["asic"]["liberty"]:
        candidates = [resources.liberty(opt)]
    elif env:
        candidates = [Path(env).expanduser()]
    else:
        candidates = [resources.liberty(opt), user_liberty_dir() / LIBERTY_FILE]
    for lib in candidates:
        if lib.is_file():
            return lib
    looked = ", ".join(str(p) for p in candidates)
    if resources.source_root() is not None and opt == DEFAULTS["asic"]["liberty"] and not env:
        how = "scripts/setup.sh unpacks the OSU 0.18 um library (run `make setup`)"
    else:
        how = (f"run `montmul setup-asic` (unpacks the OSU 0.18 um liberty from Debian's {LIBERTY_DEB} into "
               f"{user_liberty_dir()}), or name a liberty file with {LIBERTY_ENV}=PATH or --option liberty=PATH")
    raise ToolError(f"liberty not found ({looked}); {how}")


def fetch_liberty(dest: Path | str | None = None, deb: Path | str | None = None) -> Path:
    """Unpack the OSU 0.18 um liberty (and the files beside it) from Debian's
    ``qflow-tech-osu018`` package into ``dest`` (default
    :func:`user_liberty_dir`); ``deb``: a downloaded package file, else
    ``apt-get download`` fetches it (no root needed).  Returns the liberty."""
    dest = Path(dest) if dest else user_liberty_dir()
    with tempfile.TemporaryDirectory(prefix="montmul_liberty_") as tmp:
        tmp = Path(tmp)
        if deb is None:
            if shutil.which("apt-get") is None:
                raise ToolError(f"apt-get not found (not Debian/Ubuntu): download the package {LIBERTY_DEB} and "
                                f"give it with --deb FILE, or name a liberty with {LIBERTY_ENV}=PATH")
            r = subprocess.run(["apt-get", "download", LIBERTY_DEB], cwd=tmp, capture_output=True, text=True)
            debs = sorted(tmp.glob("*.deb"))
            if r.returncode != 0 or not debs:
                raise ToolError(f"apt-get download {LIBERTY_DEB} failed (exit {r.returncode}): "
                                f"{(r.stderr or r.stdout).strip()[-300:]} (run `sudo apt-get update` first?)")
            deb = debs[0]
        if shutil.which("dpkg-deb") is None:
            raise ToolError(f"dpkg-deb not found: unpack {deb} by hand and name its {LIBERTY_FILE} with {LIBERTY_ENV}")
        r = subprocess.run(["dpkg-deb", "-x", str(deb), str(tmp / "root")], capture_output=True, text=True)
        if r.returncode != 0:
            raise ToolError(f"dpkg-deb -x {deb} failed: {r.stderr.strip()[-300:]}")
        libs = sorted((tmp / "root").rglob(LIBERTY_FILE))
        if not libs:
            raise ToolError(f"{deb}: no {LIBERTY_FILE} in the package")
        dest.mkdir(parents=True, exist_ok=True)
        for f in libs[0].parent.iterdir():
            if f.is_file():
                shutil.copyfile(f, dest / f.name)
    return dest / LIBERTY_FILE


def netlist_fanout(path: Path, skip: tuple[str, ...] = (CLOCK, RESET)) -> dict:
    """Largest number of cell pins on one net of a flat Yosys netlist (the
    driver included), leaving out the clock, the reset and constants, which
    place and route buffers or ties."""
    text = path.read_text()
    counts = collections.Counter(m.strip() for m in re.findall(r"\.\w+\(([^()]*)\)", text))
    nets = [(n, c - 1) for n, c in counts.items() if n and n not in skip and "'b" not in n]
    if not nets:
        return {"max_fanout": 0, "net": None}
    net, fo = max(nets, key=lambda t: t[1])
    return {"max_fanout": fo, "net": net}


def _sta_sections(text: str) -> dict[str, str]:
    sec = parse.sections(text)
    if not sec:
        raise ToolError("OpenSTA wrote no report sections:\n" + text[-3000:])
    errors = [line for line in text.splitlines() if line.startswith("Error")]
    if errors:
        raise ToolError("OpenSTA errors:\n" + "\n".join(errors[:20]))
    return sec


def t_fa(opts: dict, cache_dir: Path, work_root: Path) -> dict:
    """T_FA: the full-adder cell's delay, measured in OpenSTA as the steady-
    state stage delay of chains of FA cells (syn/asic_tfa.tcl.in); cached per
    liberty, cell, script and OpenSTA version."""
    lib = liberty_path(opts)
    cell, sum_pin = str(opts["fa_cell"]), str(opts["fa_sum"])
    key_data = {
        "what": "t_fa", "liberty": sha256_file(lib), "cell": cell, "sum": sum_pin,
        "script": sha256_file(resources.syn_dir() / "asic_tfa.tcl.in"), "flow": sha256_file(Path(__file__)),
        "sta": tools.version("sta"),
    }
    key = hashlib.sha256(json.dumps(key_data, sort_keys=True).encode()).hexdigest()[:20]
    hit = cache_dir / f"tfa_{key}.json"
    if hit.is_file():
        return json.loads(hit.read_text())
    cwd = work_root / f"tfa_{key}_{os.getpid()}"
    cwd.mkdir(parents=True, exist_ok=True)
    stages = 8
    lines = ["module fa_chain(" + ", ".join(f"x_{p}, y_{p}, b_{p}, c_{p}" for p in "ABC") + ");"]
    for p in "ABC":
        others = [q for q in "ABC" if q != p]
        lines += [f"  input x_{p}, b_{p}, c_{p};", f"  output y_{p};", f"  wire [{stages}:0] w_{p};",
                  f"  wire [{stages - 1}:0] co_{p};", f"  assign w_{p}[0] = x_{p};", f"  assign y_{p} = w_{p}[{stages}];"]
        for i in range(stages):
            lines.append(
                f"  {cell} fa{p}{i} (.{p}(w_{p}[{i}]), .{others[0]}(b_{p}), .{others[1]}(c_{p}), "
                f".{sum_pin}(w_{p}[{i + 1}]), .YC(co_{p}[{i}]));"
            )
    lines.append("endmodule")
    (cwd / "fa_chain.v").write_text("\n".join(lines) + "\n")
    (cwd / "tfa.tcl").write_text(fill("asic_tfa.tcl.in", LIBERTY=rel(lib, cwd), FA_CELL=cell, FA_SUM=sum_pin))
    tools.run("sta", ["-no_init", "-exit", "tfa.tcl"], cwd, "sta.log")
    unit = parse.liberty_time_unit_ps(lib)
    sec = _sta_sections((cwd / "sta.log").read_text())
    per_pin = {}
    for p in "ABC":
        arr = {}
        for line in sec.get(p, "").splitlines():
            m = re.search(r"(-?\d+\.\d+)\s+[v^]\s+fa" + p + r"(\d+)/" + sum_pin + r"\s", line)
            if m:
                arr[int(m.group(2))] = float(m.group(1))
        if 2 not in arr or 6 not in arr:
            raise ToolError(f"T_FA: no arrival times on the {p} chain in {cwd / 'sta.log'}")
        per_pin[p] = round((arr[6] - arr[2]) / 4 * unit, 2)
    out = {
        "t_fa_ps": max(per_pin.values()),
        "t_fa_by_input_ps": per_pin,
        "a_fa_um2": parse.liberty_cell_area(lib, cell),
        "fa_cell": cell,
        "method": f"steady-state stage delay of an 8-stage {cell} chain (input -> {sum_pin}), worst input pin",
    }
    tmp = hit.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(out, indent=1))
    os.replace(tmp, hit)
    return out


def run_asic(core: Core, hdl: dict[str, int], opts: dict, cwd: Path, cache_dir: Path, work_root: Path) -> dict:
    lib = liberty_path(opts)
    librel = rel(lib, cwd)
    period_ps = int(opts["period_ps"])
    (cwd / "abc.script").write_text(fill("asic_abc.script.in", PERIOD_PS=period_ps, MAX_FANOUT=int(opts["max_fanout"])))
    (cwd / "abc.constr").write_text(fill("asic_abc.constr.in", DRIVER=opts["driver"], LOAD_PF=opts["load_pf"]))
    seconds = {"yosys": _yosys(fill("asic.ys.in", READ=read_block(core, hdl, cwd), TOP=core.top, LIBERTY=librel), cwd)}
    stat = parse.yosys_stat(cwd / "stat.json")
    if "area" not in stat:
        raise ToolError(f"{cwd / 'stat.json'}: no area (stat -liberty)")
    areas = parse.liberty_areas(lib)
    instances, seconds["yosys_hier"] = run_hier(
        core, hdl,
        f"synth -top {core.top}\ndfflibmap -liberty {librel}\nabc -liberty {librel} -constr abc.constr -script abc.script\n"
        "opt_clean",
        lambda c: asic_counts(c, areas), cwd, pre=f"read_liberty -lib {librel}")
    (cwd / "sta.tcl").write_text(
        fill("asic_sta.tcl.in", LIBERTY=librel, TOP=core.top, PERIOD_NS=period_ps / 1e3,
             RESET=RESET, DRIVER=opts["driver"], LOAD_PF=opts["load_pf"])
    )
    seconds["sta"] = tools.run("sta", ["-no_init", "-exit", "sta.tcl"], cwd, "sta.log")
    unit = parse.liberty_time_unit_ps(lib)
    sec = _sta_sections((cwd / "sta.log").read_text())
    crit = parse.sta_path(sec.get("reg2reg", ""), unit)
    if crit is None:
        raise ToolError(f"OpenSTA found no register-to-register path ({cwd / 'sta.log'})")
    in2reg = parse.sta_path(sec.get("in2reg", ""), unit)
    reg2out = parse.sta_path(sec.get("reg2out", ""), unit)
    fa = t_fa(opts, cache_dir, work_root)

    def brief(p):
        return None if p is None else {k: p[k] for k in ("startpoint", "endpoint", "delay_ps", "arrival_ps", "logic_levels")}

    return {
        "area_um2": stat["area"],
        "sequential_area_um2": stat["sequential_area"],
        "area_fa": round(stat["area"] / fa["a_fa_um2"], 2),
        "num_cells": stat["num_cells"],
        "ff": sum(v for k, v in stat["cells"].items() if k.startswith(("DFF", "LATCH"))),
        "cells": stat["cells"],
        "delay_ps": crit["delay_ps"],
        "delay_fa": round(crit["delay_ps"] / fa["t_fa_ps"], 3),
        "startpoint": crit["startpoint"],
        "endpoint": crit["endpoint"],
        "t_fa_ps": fa["t_fa_ps"],
        "a_fa_um2": fa["a_fa_um2"],
        "t_fa": fa,
        "critical_path": crit,
        "in2reg": brief(in2reg),
        "reg2out": brief(reg2out),
        "netlist_fanout": netlist_fanout(cwd / "netlist.v"),
        "instances": instances,
        "seconds": seconds,
    }


# --------------------------------------------------------------------------
def run_xilinx(core: Core, hdl: dict[str, int], opts: dict, cwd: Path) -> dict:
    seconds = {"yosys": _yosys(fill("xilinx.ys.in", READ=read_block(core, hdl, cwd), TOP=core.top,
                                    FAMILY=opts["family"]), cwd)}
    c = parse.yosys_stat(cwd / "stat.json")["cells"]
    instances, seconds["yosys_hier"] = run_hier(
        core, hdl, f"synth_xilinx -top {core.top} -family {opts['family']} -noiopad -noclkbuf", xilinx_counts, cwd)
    luts = {f"lut{i}": c.get(f"LUT{i}", 0) for i in range(1, 7)}
    # Yosys leaves single inverters as INV cells; implementation packs each
    # into a LUT1, so they count as LUT1s.
    luts["lut1"] += c.get("INV", 0)
    counts = xilinx_counts(c)
    return {
        **luts,
        "luts": counts["luts"],
        "ff": counts["ff"],
        "dsp": counts["dsp"],
        "carry": counts["carry"],
        "carry4": c.get("CARRY4", 0),
        "muxcy": c.get("MUXCY", 0),
        "muxf5": c.get("MUXF5", 0),
        "muxf6": c.get("MUXF6", 0),
        "muxf7": c.get("MUXF7", 0),
        "muxf8": c.get("MUXF8", 0),
        "srl": sum(v for k, v in c.items() if k.startswith("SRL")),
        "lutram": sum(v for k, v in c.items() if k.startswith(("RAM32", "RAM64", "RAM128", "RAM256"))),
        "bram": counts["bram"],
        "cells": c,
        "instances": instances,
        "seconds": seconds,
    }
