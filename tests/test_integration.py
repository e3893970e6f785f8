# SPDX-License-Identifier: Apache-2.0
"""montmul.apps.integration: every core's instantiation template, inside a user's
top module whose ports carry the template's signal names (``clk``, ``a``,
``n``, ``s``, ...), lints clean with Verilator ``-Wall`` (issue 47: a port
named ``n`` was hidden by a function argument inside mm_scs_new)."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from montmul import cores, resources
from montmul.apps import integration

WIDTH = 64


def _user_top(name: str) -> str:
    w = WIDTH
    return (
        "module user_top (\n"
        "  input  logic clk, input logic rst_n, input logic req_valid, output logic req_ready,\n"
        f"  input  logic [{w}:0] a, input logic [{w}:0] b, input logic [{w - 1}:0] n,\n"
        f"  output logic rsp_valid, input logic rsp_ready, output logic [{w}:0] s, output logic err\n"
        ");\n" + integration.template(name, w) + "\nendmodule\n"
    )


@pytest.mark.parametrize("name", list(cores.CORES))
def test_template_in_a_user_top_lints_clean_on_verilator(name, tmp_path):
    verilator = shutil.which("verilator", path=resources.tools_path())
    assert verilator, "verilator not found; run make setup"
    core = cores.get(name)
    (tmp_path / "user_top.sv").write_text(_user_top(name))
    waivers = resources.data_root() / "lint" / "verilator.vlt"
    cmd = [verilator, "--lint-only", "-Wall", *(f"-I{d}" for d in core.includes()), "--top-module", "user_top",
           str(waivers), "user_top.sv", *(str(p) for p in core.sources())]
    proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "%Warning" not in out, out
