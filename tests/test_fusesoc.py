# SPDX-License-Identifier: Apache-2.0
"""FuseSoC: montmul.core and the per-core engine wrappers are what the
registry implies (montmul.flows.fusesoc), and ``fusesoc`` runs them: Verilator
lint at the smallest and largest legal Width (the waivers are a fileset of
the core file, so 8192 passes), and the Icarus smoke simulation of every
registered core inside mm_modexp (self-checking: result and latency from
the model).  Each run works in a temporary folder outside the checkout."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from montmul import cores, resources
from montmul.flows import fusesoc

ROOT = resources.source_root()
pytestmark = pytest.mark.skipif(ROOT is None, reason="needs a source checkout")


def _fusesoc(tmp_path: Path, target: str, *params: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("fusesoc", path=resources.tools_path())
    if exe is None:
        pytest.fail("fusesoc not found; install the montmul[fusesoc] extra (requirements.txt)")
    env_path = resources.tools_path()
    cmd = [exe, "--cores-root", str(ROOT), "run", "--target", target, fusesoc.VLNV.rsplit(":", 1)[0], *params]
    return subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          env={"PATH": env_path, "HOME": str(tmp_path)})


def test_core_file_is_generated_from_the_registry():
    bad = fusesoc.stale(ROOT)
    assert not bad, f"out of date: {bad}; run `python -m montmul.flows.fusesoc`"


def test_every_target_has_a_description():
    text = (ROOT / fusesoc.CORE_FILE).read_text()
    targets = text.split("\ntargets:\n", 1)[1]
    names = [ln.strip()[:-1] for ln in targets.splitlines() if ln.startswith("  ") and not ln.startswith("   ")]
    assert {f"lint_{c}" for c in cores.CORES} | {f"sim_{c}" for c in cores.CORES} <= set(names)
    for block in re.split(r"\n  (?=\w)", "\n" + targets)[1:]:
        name = block.split(":", 1)[0]
        assert "\n    description: " in block, f"target {name} has no description"


LINT = [(t, w) for t in ("lint_r2_basic", "lint_scs_new_ct", "lint_modexp_axil", "lint_modexp_crt")
        for w in (cores.WIDTH.lo, cores.WIDTH.hi)]


@pytest.mark.parametrize("target,width", LINT, ids=[f"{t}-w{w}" for t, w in LINT])
def test_fusesoc_lint(target, width, tmp_path):
    proc = _fusesoc(tmp_path, target, f"--Width={width}")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "%Warning" not in out and "%Error" not in out, out[-4000:]


def test_fusesoc_lint_pke_axil(tmp_path):
    proc = _fusesoc(tmp_path, "lint_pke_axil")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "%Warning" not in out and "%Error" not in out, out[-4000:]


@pytest.mark.parametrize("core", sorted(cores.CORES))
def test_fusesoc_smoke_sim(core, tmp_path):
    proc = _fusesoc(tmp_path, f"sim_{core}")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "mm_modexp_smoke: PASS" in out, out[-4000:]
