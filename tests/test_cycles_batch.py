# SPDX-License-Identifier: Apache-2.0
"""`montmul cycles` on a core that keeps several products in flight
(montmul.apps.stats.batch_stats): batches of in_flight requests back to back, the
batch's cycles and the batch as the paper counts it (paper 003's Table I)."""

from __future__ import annotations

import json
import shutil

import pytest

from montmul import cores
from montmul.apps import stats
from montmul.cli import main
from montmul.models import dsp


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("width", [256, 504])
@pytest.mark.parametrize("ilv", [1, 2, 3])
def test_model_batches_reproduce_table1(capsys, width, ilv):
    """On the model: the paper's 15/31/47 (256 bits) and 26/53/80 (504 bits)
    as kernel_avg, our own batch count beside it."""
    code, out, _ = run(capsys, "cycles", "--core", "dsp_redundant", "--width", str(width),
                       "--param", f"Interleave={ilv}", "--samples", "4", "--sim", "model", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["kernel_avg"] == dsp.paper_batch_cycles(width, 22, ilv)
    assert d["avg"] == d["model_avg"] == ilv * dsp.latency(width)
    if ilv == 1:
        assert "batch" not in d  # one product in flight: the per-product statistics
    else:
        assert d["batch"]["size"] == ilv and d["batch"]["count"] == 4 and d["samples"] == 4 * ilv
        assert d["batch"]["avg"] == dsp.batch_cycles(width, interleave=ilv)


def test_batch_check_catches_a_late_request(monkeypatch):
    """A request accepted one edge late (not back to back) is a disagreement."""
    core = cores.get("dsp_redundant")
    params = {"Interleave": 2}

    def fake(core_, sim, k, kind, requests, jobs, params_):
        assert kind == "core_group"
        rows = []
        for flat in requests:
            row = []
            for i in range(0, len(flat), 3):
                m = core.run_model(*flat[i:i + 3], k, params)
                t = i // 3 * 2  # every other edge
                row += [m.result, 0, t, t + m.cycles]
            rows.append(row)
        return rows

    monkeypatch.setattr(stats.runner, "run_batch", fake)
    with pytest.raises(RuntimeError, match="accepted 2 edges after the first"):
        stats.batch_stats(core, 16, 2, 1, "verilator", params=params)


@pytest.mark.skipif(shutil.which("verilator") is None, reason="needs Verilator")
def test_verilator_batches(capsys):
    """On the RTL: every result, accepting edge and latency against the model
    (256 bits, Interleave = 3: the build tb/mm_dsp_redundant's default
    Verilator run makes too)."""
    code, out, err = run(capsys, "cycles", "--core", "dsp_redundant", "--width", "256",
                         "--param", "Interleave=3", "--samples", "2", "--sim", "verilator", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["batch"]["avg"] == dsp.batch_cycles(256, interleave=3)
    assert d["kernel_avg"] == dsp.paper_batch_cycles(256, 22, 3)
