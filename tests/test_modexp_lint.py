# SPDX-License-Identifier: Apache-2.0
"""Lint mm_modexp on every registered core (its generated mm_modexp_core
wrapper): Verilator -Wall and Icarus -Wall clean at several widths, and an
illegal Width stops elaboration with the engine's MM_FATAL message.
(tests/test_lint.py lints the checked-in files on their own.)"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from montmul import cores
from montmul.design import ENGINE_RTL, LEN_CHECK_RTL, write_core_wrapper
from montmul.flows.sim.runner import tools_path

WAIVERS = cores.ROOT / "lint" / "verilator.vlt"
ICARUS_SORRY = re.compile(r"\bsorry:")


def _tool(name: str) -> str:
    path = shutil.which(name, path=tools_path())
    if path is None:
        pytest.fail(f"{name} not found on {tools_path()}")
    return path


def _sources(core: str, tmp: Path) -> list[str]:
    c = cores.get(core)
    wrapper = write_core_wrapper(tmp / "mm_modexp_core.sv", core)
    return [str(p) for p in c.sources()] + [str(wrapper), str(cores.RTL / LEN_CHECK_RTL), str(cores.RTL / ENGINE_RTL)]


def _verilator(core: str, width: int, tmp: Path, wall: bool = True) -> subprocess.CompletedProcess[str]:
    cmd = [_tool("verilator"), "--lint-only", *(["-Wall"] if wall else [])]
    cmd += [f"-I{cores.RTL / 'common'}", f"-GWidth={width}", "--top-module", "mm_modexp"]
    if WAIVERS.exists():
        cmd.append(str(WAIVERS))
    cmd += _sources(core, tmp)
    return subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("width", [3, 8, 64])
@pytest.mark.parametrize("core", sorted(cores.CORES))
def test_verilator_engine(core: str, width: int, tmp_path: Path) -> None:
    proc = _verilator(core, width, tmp_path)
    out = proc.stdout + proc.stderr
    findings = [ln for ln in out.splitlines() if ln.startswith(("%Warning", "%Error"))]
    assert proc.returncode == 0 and not findings, out


@pytest.mark.parametrize("core", sorted(cores.CORES))
def test_icarus_engine(core: str, tmp_path: Path) -> None:
    cmd = [_tool("iverilog"), "-g2012", "-Wall", "-s", "mm_modexp", "-o", str(tmp_path / "sim.vvp")]
    cmd += [f"-I{cores.RTL / 'common'}", "-Pmm_modexp.Width=8"] + _sources(core, tmp_path)
    proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    findings = [ln for ln in out.splitlines() if ln.strip() and not ICARUS_SORRY.search(ln)]
    assert proc.returncode == 0 and not findings, out


@pytest.mark.parametrize("bad", [2, 8193])
def test_illegal_width(bad: int, tmp_path: Path) -> None:
    proc = _verilator("r2_basic", bad, tmp_path, wall=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "mm_modexp: Width must be in [3, 8192]" in out, out


@pytest.mark.parametrize("core", ["r2_basic", "scs_new_ct"])
def test_verilator_core_regs(core: str, tmp_path: Path) -> None:
    """mm_core_regs (the timing harness of `montmul synth --engine regs`)
    around the core as registered: Verilator -Wall clean."""
    from montmul.design import REGS_RTL

    c = cores.get(core)
    wrapper = write_core_wrapper(tmp_path / "mm_modexp_core.sv", core, checks=True)
    cmd = [_tool("verilator"), "--lint-only", "-Wall", f"-I{cores.RTL / 'common'}", "-GWidth=8",
           "--top-module", "mm_core_regs", *([str(WAIVERS)] if WAIVERS.exists() else [])]
    cmd += [str(p) for p in c.sources()] + [str(wrapper), str(cores.RTL / REGS_RTL)]
    proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and not [ln for ln in out.splitlines() if ln.startswith(("%Warning", "%Error"))], out
