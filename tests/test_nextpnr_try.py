# SPDX-License-Identifier: Apache-2.0
"""scripts/nextpnr_try.py: a cached job's netlist placed and routed again
gives the flow's own Fmax when no argument is added, and bad requests are
clear errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from montmul.flows import synth as sy
from montmul.flows.synth import tools

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def script(load_script):
    return load_script("scripts/nextpnr_try.py")


def test_errors(script, tmp_path, capsys):
    for argv, want in ((["--core", "nope", "--width", "8"], "unknown core"),
                       (["--core", "r2_basic", "--width", "8", "--option", "foo=1"], "the ECP5 flow has no option 'foo'"),
                       (["--core", "r2_basic", "--width", "8", "--option", "seed"], "--option takes NAME=VALUE"),
                       (["--core", "r2_basic", "--width", "8", "--build-dir", str(tmp_path)], "no cached result")):
        with pytest.raises(SystemExit) as exc:
            script.main([*argv, "--out", "build/try/never"])
        assert exc.value.code == 2
        assert want in capsys.readouterr().err


def test_rerun_reproduces_the_flow(script, capsys, tmp_path):
    """Without extra arguments the rerun is the flow's own nextpnr run on the
    same netlist and seed, so it reaches the cached Fmax exactly."""
    tools.check("ecp5")
    build = ROOT / "build" / "test_nextpnr_try"
    out = ROOT / "build" / "test_nextpnr_try_out"
    shutil.rmtree(build, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    job = sy.Job("r2_basic", 8, "ecp5", options={"seeds": 1})
    r = sy.synth(job, build_dir=build)
    assert script.main(["--core", "r2_basic", "--width", "8", "--option", "seeds=1", "--build-dir", str(build),
                        "--out", str(out)]) == 0
    got = json.loads((out / "try.json").read_text())
    assert got["fmax_mhz"] == pytest.approx(r["fmax_mhz"], abs=1e-3)
    assert got["cached_fmax_mhz_seed"] == r["fmax_seeds"]["1"]
    assert got["extra"] == []
    # an output folder under the system temp directory works too (tools.tool_path)
    tmp_out = tmp_path / "try"
    assert script.main(["--core", "r2_basic", "--width", "8", "--option", "seeds=1", "--build-dir", str(build),
                        "--out", str(tmp_out)]) == 0
    assert json.loads((tmp_out / "try.json").read_text())["fmax_mhz"] == pytest.approx(r["fmax_mhz"], abs=1e-3)
