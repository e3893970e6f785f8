# SPDX-License-Identifier: Apache-2.0
"""The montmul CLI: output formats, operand parsing, exit codes."""
from __future__ import annotations

import json
import shutil

import pytest

from montmul.cli import main

P001 = dict(a=1073741826, b=1876543286, n=2147483659)


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cores_table_and_json(capsys):
    code, out, _ = run(capsys, "cores")
    assert code == 0 and "scs_new" in out and "r2_basic" in out
    code, out, _ = run(capsys, "cores", "--json")
    names = {c["name"] for c in json.loads(out)["cores"]}
    assert {"scs_new", "r2_basic"} <= names


@pytest.mark.parametrize("core", ["r2_basic", "scs_new"])
def test_mul_model_json(capsys, core):
    code, out, _ = run(capsys, "mul", "--core", core, "--width", "32", "--a", str(P001["a"]),
                       "--b", hex(P001["b"]), "--n", str(P001["n"]), "--json")
    assert code == 0
    d = json.loads(out)
    assert d["r_log2"] == 34
    n = P001["n"]
    assert d["n"] == hex(n)  # big integers as 0x-hex strings (exact in any JSON tool)
    d["result"] = int(d["result"], 16)
    assert d["result"] % n == P001["a"] * P001["b"] * pow(2, -34, n) % n
    # paper 001's value with its R = 2^32
    assert d["result"] * 4 % n == 1567508594
    assert d["cycles"] > 0


@pytest.mark.parametrize("argv,needle", [
    (("--a", "1", "--b", "1", "--n", "16"), "even"),
    (("--a", "1", "--b", "1", "--n", "1"), "below 3"),
    (("--a", "22", "--b", "1", "--n", "11"), "outside"),
    (("--a", "0x1", "--b", "1", "--n", "0x1001"), "does not fit"),
])
def test_mul_rejects(capsys, argv, needle):
    code, _, err = run(capsys, "mul", "--core", "scs_new", "--width", "8", *argv)
    assert code == 3 and needle in err  # rejected input


def test_bad_core_and_width(capsys):
    code, _, err = run(capsys, "mul", "--core", "nope", "--width", "8", "--a", "1", "--b", "1", "--n", "3")
    assert code == 2 and "unknown core" in err
    code, _, err = run(capsys, "mul", "--core", "scs_new", "--width", "2", "--a", "1", "--b", "1", "--n", "3")
    assert code == 2 and "Width" in err


def test_cycles_model_json(capsys):
    code, out, _ = run(capsys, "cycles", "--core", "scs_new", "--width", "64", "--samples", "50",
                       "--sim", "model", "--json")
    d = json.loads(out)
    assert code == 0
    assert d["min"] <= d["avg"] <= d["max"] and d["std"] > 0
    assert d["model_avg"] == d["avg"]
    assert d["kernel_avg"] == d["avg"]  # no separately counted kernel in this core's model
    assert d["modulus_bits"] == 64


def test_cycles_modulus_bits(capsys):
    """--modulus-bits draws moduli of exactly that length; the radix-2 cores'
    latency follows the width, not the modulus."""
    code, out, _ = run(capsys, "cycles", "--core", "r2_basic", "--width", "64", "--modulus-bits", "20",
                       "--samples", "20", "--sim", "model", "--json")
    d = json.loads(out)
    assert code == 0 and d["modulus_bits"] == 20 and d["avg"] == 66
    from montmul.apps.stats import random_vectors

    assert all(n.bit_length() == 20 for _, _, n in random_vectors(64, 50, 3, 20))
    code, _, err = run(capsys, "cycles", "--core", "r2_basic", "--width", "64", "--modulus-bits", "65",
                       "--samples", "5", "--sim", "model")
    assert code == 2 and "modulus bits 65 outside [2, 64]" in err


@pytest.mark.skipif(shutil.which("iverilog") is None, reason="needs Icarus Verilog")
@pytest.mark.parametrize("sim", ["icarus", "verilator"])
def test_rtl_paths(capsys, sim):
    """mul and cycles through RTL simulation agree with the model."""
    code, out, _ = run(capsys, "mul", "--core", "scs_new", "--width", "16", "--a", "0x1234",
                       "--b", "77", "--n", "0xfff1", "--sim", sim, "--json")
    assert code == 0, out
    d = json.loads(out)
    assert int(d["result"], 16) % 0xFFF1 == 0x1234 * 77 * pow(2, -18, 0xFFF1) % 0xFFF1
    code, _, err = run(capsys, "mul", "--core", "scs_new", "--width", "16", "--a", "1", "--b", "1",
                       "--n", "8", "--sim", sim)
    assert code == 3 and "even" in err
    # wider than --width: the model's clean rejection, no attempt to drive the RTL's ports
    code, _, err = run(capsys, "mul", "--core", "scs_new", "--width", "16", "--a", "1", "--b", "1",
                       "--n", "0x10001", "--sim", sim)
    assert code == 3 and "does not fit" in err
    code, out, _ = run(capsys, "cycles", "--core", "scs_new", "--width", "16", "--samples", "40",
                       "--sim", sim, "--jobs", "2", "--json")
    d = json.loads(out)
    assert code == 0 and d["avg"] == d["model_avg"] and d["samples"] == 40


def test_table3_model(capsys):
    """table3 from the models at a small width: every row measured, FCS-MM-1
    is its own baseline, FCS rows compared without the wrapper conversion."""
    code, out, _ = run(capsys, "table3", "--samples", "5", "--widths", "16", "--sim", "model", "--json")
    assert code == 0
    rows = {r["label"]: r for r in json.loads(out)["rows"]}
    fcs1 = rows["FCS-MM-1"]["widths"]["16"]
    assert fcs1["rel_fcs1_pct"] == 0.0
    assert fcs1["compared"] == 16 + 2  # the carry-save core alone: k + 2
    assert fcs1["avg"] > fcs1["compared"]  # the binary wrapper converts
    assert rows["SCS-MM-New"]["paper_rel_fcs1_pct"]["1024"] == -14.5
    code, out, _ = run(capsys, "table3", "--samples", "5", "--widths", "16", "--sim", "model")
    assert code == 0 and "| SCS-MM-New |" in out


def test_leak_model(capsys):
    code, out, _ = run(capsys, "leak", "--core", "scs_new_ct", "--width", "16", "--samples", "20",
                       "--sim", "model", "--json")
    d = json.loads(out)
    assert code == 0 and d["constant_time"] and d["random"]["std"] == 0
