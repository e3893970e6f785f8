# SPDX-License-Identifier: Apache-2.0
"""Paper 003's report section (montmul.apps.report.p003) on hand-made synthesis
results: every row's cycles from the model, the paper's figures beside
them, a failed job's reason in its cells."""

from __future__ import annotations

import json

from montmul.models import dsp
from montmul.apps.report import p003


def test_build_and_markdown(monkeypatch):
    def fake_run_many(jobs, workers=None, on_error="raise"):
        assert on_error == "return"
        out = []
        for n, job in enumerate(jobs):
            if job.target == "ecp5" and job.width == 1024 and job.params["Interleave"] == 3:
                out.append({"core": job.core, "width": job.width, "target": job.target,
                            "error": "nextpnr-ecp5 timed | out"})
            else:
                out.append({"luts": 1000 + n, "ff": 500 + n, "dsp": 40 + n, "fmax_mhz": 50.0 + n,
                            "seconds": {"total": 12.5}})
        return out

    monkeypatch.setattr(p003, "run_many", fake_run_many)
    data = p003.build()
    json.dumps(data)  # serialisable
    assert len(data["rows"]) == len(p003.jobs()) == 12
    for r in data["rows"]:
        k, i, c = r["width"], r["interleave"], r["cycles"]
        assert c["batch"] == dsp.batch_cycles(k, c["r1"], c["r2"], i)
        # Table I's structure, i*(m+3) + i-1, with our m = ceil((k+1)/r1) (the
        # paper's ceil(k/r1) agrees for r1 = 22 at 256 and 504 bits)
        assert c["kernel"] == i * (c["m"] + 3) + i - 1
        if c["r1"] == 22:
            assert c["kernel"] == dsp.paper_batch_cycles(k, 22, i)
    md = p003.markdown(data)
    assert md.startswith("## Paper 003: ")
    assert "failed: nextpnr-ecp5 timed / out" in md  # the reason, table-safe
    lines = md.splitlines()
    row256 = next(ln for ln in lines if ln.startswith("| 256 | 3 | 42 |"))  # xilinx 256, I = 3: job 2
    cells = [c.strip() for c in row256.split("|")[1:-1]]
    assert cells[3] == "40" and cells[4] == str(dsp.paper_dsp_count(256))  # paper's DSPs, 2mb+4
    assert cells[10] == "47" and cells[11] == "47"  # as the paper counts it, and the paper's own
    # the share=0 measurement: the 256-bit I = 1 row (job 6) against the share=0 build (job 12)
    assert data["share_check"]["share"]["dsp"] == 46 and data["share_check"]["no_share"]["dsp"] == 52
    assert "| 0 | – | 1012 | 512 | 52 | 62.0 | 12 |" in md and "Without `share`: +6 MULT18X18D, +6 LUTs" in md
    assert ("--target ecp5 --param Interleave=I --option share=0 --option budget_s=7200 --option router=router2"
            " --option seeds=1`") in md
    assert "| 1024 | 700 |" not in md and "| 1024 | Zynq US+ xczu7ev-2 | 15 | 2653 | 700 | 667 | 953 |" in md
