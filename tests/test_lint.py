# SPDX-License-Identifier: Apache-2.0
"""Lint the RTL and check that illegal parameters stop elaboration.

* Verilator ``--lint-only -Wall`` on every registered core, at the smallest and
  largest legal ``Width``, at 8 and 64, and with each on/off parameter flipped;
* Verilator on every ``rtl/**/*.sv`` file as its own top at its default
  parameters, so leaf cells are also linted outside the cores that use them;
* Icarus ``-Wall`` on every core (the subset must stay inside Icarus 11);
* Verible (default rule set) on every RTL source and header;
* an out-of-range ``Width`` stops Verilator and Icarus with the core's
  ``MM_FATAL`` message.

Any warning fails.  Deliberate exceptions are waived narrowly, each with its
reason, in ``lint/verilator.vlt`` and (if present) ``lint/verible.rules``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from montmul.cores import CORES, ROOT, RTL, Core
from montmul.sim.runner import tools_path

LINT_DIR = ROOT / "lint"
VERILATOR_WAIVERS = LINT_DIR / "verilator.vlt"
VERIBLE_RULES = LINT_DIR / "verible.rules"

RTL_FILES = sorted(RTL.rglob("*.sv"))
RTL_HEADERS = sorted(RTL.rglob("*.svh"))
#: Every folder holding RTL: include path for headers, library path for modules.
RTL_DIRS = sorted({p.parent for p in RTL_FILES + RTL_HEADERS})

#: Widths every core is linted at, besides the ends of its legal range.
LINT_WIDTHS = (8, 64)


def _tool(name: str) -> str:
    path = shutil.which(name, path=tools_path())
    if path is None:
        pytest.fail(f"{name} not found on {tools_path()}; run the project set-up script")
    return path


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300)


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _verilator_lint(
    sources: list[Path], top: str, params: dict[str, int], cwd: Path, wall: bool = True
) -> subprocess.CompletedProcess[str]:
    cmd = [_tool("verilator"), "--lint-only"]
    if wall:
        cmd.append("-Wall")
    cmd += [f"-I{d}" for d in RTL_DIRS]  # -I also searches for missing modules
    cmd += [f"-G{k}={v}" for k, v in params.items()]
    cmd += ["--top-module", top]
    if VERILATOR_WAIVERS.exists():
        cmd.append(str(VERILATOR_WAIVERS))
    cmd += [str(s) for s in sources]
    return _run(cmd, cwd)


def _assert_clean(proc: subprocess.CompletedProcess[str], what: str) -> None:
    out = proc.stdout + proc.stderr
    findings = [ln for ln in out.splitlines() if ln.startswith(("%Warning", "%Error"))]
    assert proc.returncode == 0 and not findings, f"{what}:\n{out}"


# --------------------------------------------------------------------------
# Verilator on the registered cores


def _core_builds() -> list:
    """(core, params) pairs: each lint width, then each 0/1 parameter flipped."""
    cases = []
    for core in CORES.values():
        width = core.all_params["Width"]
        widths = sorted({width.lo, *LINT_WIDTHS, width.hi})
        for w in widths:
            cases.append(pytest.param(core, core.hdl_params(w), id=f"{core.name}-w{w}"))
        for name, p in core.params.items():
            if (p.lo, p.hi) == (0, 1) and name not in core.fixed:
                flipped = {name: 1 - p.default}
                for w in LINT_WIDTHS:
                    cases.append(
                        pytest.param(
                            core,
                            core.hdl_params(w, **flipped),
                            id=f"{core.name}-w{w}-{name}{1 - p.default}",
                        )
                    )
    return cases


@pytest.mark.parametrize("core,params", _core_builds())
def test_verilator_core(core: Core, params: dict[str, int], tmp_path: Path) -> None:
    proc = _verilator_lint(core.sources(), core.top, params, tmp_path)
    _assert_clean(proc, f"verilator -Wall {core.top} {params}")


# --------------------------------------------------------------------------
# Verilator on every RTL file as its own top (leaf cells at their defaults)


@pytest.mark.parametrize("path", RTL_FILES, ids=_rel)
def test_verilator_file(path: Path, tmp_path: Path) -> None:
    # Modules the file instantiates are found through the -I library path.
    proc = _verilator_lint([path], path.stem, {}, tmp_path)
    _assert_clean(proc, f"verilator -Wall {_rel(path)}")


# --------------------------------------------------------------------------
# Icarus: the cores compile without warnings under -g2012 -Wall

#: Icarus 11 "sorry" notes on constructs it accepts but handles conservatively
#: (constant selects in always_* sensitivity, unique case): not defects.
ICARUS_SORRY = re.compile(r"\bsorry:")


def _iverilog(
    core: Core, params: dict[str, int], out: Path, extra: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    cmd = [_tool("iverilog"), "-g2012", *extra, "-s", core.top, "-o", str(out)]
    cmd += [f"-I{d}" for d in core.includes()]
    cmd += [f"-P{core.top}.{k}={v}" for k, v in params.items()]
    cmd += [str(s) for s in core.sources()]
    return _run(cmd, out.parent)


@pytest.mark.parametrize("core", list(CORES.values()), ids=lambda c: c.name)
@pytest.mark.parametrize("width", LINT_WIDTHS, ids=lambda w: f"w{w}")
def test_icarus_core(core: Core, width: int, tmp_path: Path) -> None:
    proc = _iverilog(core, core.hdl_params(width), tmp_path / "sim.vvp", ("-Wall",))
    out = proc.stdout + proc.stderr
    findings = [ln for ln in out.splitlines() if ln.strip() and not ICARUS_SORRY.search(ln)]
    assert proc.returncode == 0 and not findings, f"iverilog -Wall {core.top}:\n" + "\n".join(
        findings or [out]
    )


# --------------------------------------------------------------------------
# Verible


@pytest.mark.parametrize("path", RTL_FILES + RTL_HEADERS, ids=_rel)
def test_verible(path: Path, tmp_path: Path) -> None:
    cmd = [_tool("verible-verilog-lint")]
    if VERIBLE_RULES.exists():
        cmd.append(f"--rules_config={VERIBLE_RULES}")
    proc = _run(cmd + [str(path)], tmp_path)
    out = (proc.stdout + proc.stderr).strip()
    assert proc.returncode == 0 and not out, f"verible-verilog-lint {_rel(path)}:\n{out}"


# --------------------------------------------------------------------------
# Illegal parameters stop elaboration


def _bad_widths() -> list:
    cases = []
    for core in CORES.values():
        width = core.all_params["Width"]
        for bad in (width.lo - 1, width.hi + 1):
            cases.append(pytest.param(core, bad, id=f"{core.name}-w{bad}"))
    return cases


def _bad_params(core: Core, bad: int) -> tuple[dict[str, int], re.Pattern[str]]:
    """The core's parameters with an illegal Width, and the message expected.

    The message states the registry's legal range, so this also checks that
    the RTL guard and the registry agree.
    """
    width = core.all_params["Width"]
    params = {**core.hdl_params(width.lo), "Width": bad}
    msg = re.compile(re.escape(f"{core.top}: Width must be in [{width.lo}, {width.hi}]"))
    return params, msg


@pytest.mark.parametrize("core,bad", _bad_widths())
def test_illegal_width_verilator(core: Core, bad: int, tmp_path: Path) -> None:
    params, msg = _bad_params(core, bad)
    # Without -Wall: the run must fail on the MM_FATAL guard alone.
    proc = _verilator_lint(core.sources(), core.top, params, tmp_path, wall=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, f"verilator accepted {core.top} Width={bad}:\n{out}"
    assert re.search(r"%(Warning-USERFATAL|Error)", out) and msg.search(out), out


@pytest.mark.parametrize("core,bad", _bad_widths())
def test_illegal_width_icarus(core: Core, bad: int, tmp_path: Path) -> None:
    params, msg = _bad_params(core, bad)
    vvp = tmp_path / "sim.vvp"
    proc = _iverilog(core, params, vvp)
    out = proc.stdout + proc.stderr
    if proc.returncode == 0:
        # Icarus 11 has no elaboration-time $fatal: MM_FATAL stops at time 0.
        proc = _run([_tool("vvp"), "-n", str(vvp)], tmp_path)
        out = proc.stdout + proc.stderr
    assert proc.returncode != 0, f"icarus ran {core.top} Width={bad}:\n{out}"
    assert msg.search(out), out


#: Illegal build parameters of the scalable cores other than Width: the
#: registry's check rejects them, and the RTL stops elaboration with this
#: MM_FATAL message.
SCALABLE_BAD = [
    ("r4booth_right", {"WordWidth": 6}, "WordWidth must be a power of two"),
    ("r4booth_right", {"NumPes": 0}, "NumPes must be in"),
    ("r4booth_right", {"FifoLatency": 0}, "FifoLatency must be in"),
    ("r4booth_left", {"WordWidth": 8, "NumPes": 3}, "2*NumPes must be a multiple of WordWidth"),
]


@pytest.mark.parametrize("name,bad,msg", SCALABLE_BAD, ids=lambda v: str(v))
def test_illegal_scalable_params_verilator(name: str, bad: dict[str, int], msg: str, tmp_path: Path) -> None:
    core = CORES[name]
    params = {**core.hdl_params(16), **bad}
    with pytest.raises(ValueError):
        core.hdl_params(16, **bad)
    proc = _verilator_lint(core.sources(), core.top, params, tmp_path, wall=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, f"verilator accepted {core.top} {bad}:\n{out}"
    assert f"{core.top}: {msg}" in out, out
