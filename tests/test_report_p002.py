# SPDX-License-Identifier: Apache-2.0
"""montmul.report.p002: the family section tolerates failed synthesis runs,
derives a p-PE kernel from the Table II breakdown, and keeps the printed
numbers beside ours (no synthesis is run here)."""
from __future__ import annotations

import json

from montmul.report import p002, papers
from montmul.models import scalable


def _fake_t2(kind: str, w: int, luts: list[int], ffs: list[int]) -> dict:
    inst = {f"mm_r4booth_{kind}": {"module": f"mm_r4booth_{kind}", "luts": 9999, "ff": 9999}}
    for i, (lut, ff) in enumerate(zip(luts, ffs)):
        inst[f"mm_r4booth_{kind}/gen_pe[{i}].u_pe"] = {"module": f"mm_r4booth_{kind}_pe", "luts": lut, "ff": ff,
                                                       "carry": 0, "dsp": 0, "bram": 0}
    return {"core": f"r4booth_{kind}", "width": 64, "target": "xilinx", "instances": inst}


def test_kernel_is_copies_of_the_table2_kernel():
    t2 = _fake_t2("left", 16, [10 * (i + 1) for i in range(8)], [5] * 8)
    assert p002._kernel(t2, "left", 8) == (360, 40)
    assert p002._kernel(t2, "left", 32) == (4 * 360, 4 * 40)
    assert p002._kernel(t2, "left", 12) is None  # not a whole number of copies
    assert p002._kernel({"error": "x"}, "left", 16) is None


def test_markdown_with_failed_runs():
    failed = {"error": "timed out"}
    table2 = [p002._t2_row(k, w, failed, failed) for k in p002.KINDS for w in p002.T2_WORDS]
    t2w16 = {"right": _fake_t2("right", 16, [100, 100], [50, 50]), "left": failed}
    fmax = {"right": 100.0, "left": None}
    table3 = p002._t3_rows({"right": failed, "left": failed}, t2w16, fmax)
    data = {"table2": table2, "table3": table3, "fmax_for_table3": fmax,
            "settings": {"t2_width": 64, "t3_width": 1024, "word": 16, "yosys": None, "nextpnr": None}}
    json.dumps(data)
    md = p002.markdown(data)
    assert md.startswith("## Paper 002:")
    assert "failed: timed out" in md
    # the kernel needs no Width-1024 build: p = 32 right is 16 copies of the p = 2 kernel
    assert "3,200 / 1,600" in md
    # every printed number of both tables is there
    for (kind, w), (lut, reg, mhz) in papers.TABLE2_002.items():
        assert f"| {kind[0].upper()} | {w} | {p002.t2_pes(kind, w)} |" in md
    for kind, mhz, w, p, n, printed in scalable.TABLE3:
        assert f"| {printed} |" in md
    # ECP5 times: (2n + 2) products of the latency at our clock; none without a clock
    row = next(r for r in table3 if r["shift"] == "right" and r["p"] == 32)
    t = row["times"][1]
    assert t["ms_ecp5"] == (2 * 1024 + 2) * t["latency"] / (100.0 * 1e3)
    assert all(t["ms_ecp5"] is None for r in table3 if r["shift"] == "left" for t in r["times"])
