# SPDX-License-Identifier: Apache-2.0
"""montmul.apps.report.p002: the family section tolerates failed synthesis runs,
reads Table III from one build per p (the Table II derivation as a
cross-check), and keeps the printed numbers beside ours (no synthesis is run
here)."""
from __future__ import annotations

import json

from montmul.apps.report import p002, papers
from montmul.models import scalable


def _fake_t2(kind: str, w: int, luts: list[int], ffs: list[int]) -> dict:
    inst = {"mm_r4booth": {"module": "mm_r4booth", "luts": 9999, "ff": 9999}}
    for i, (lut, ff) in enumerate(zip(luts, ffs)):
        inst[f"mm_r4booth/gen_pe[{i}].u_pe"] = {"module": "mm_r4booth_pe", "luts": lut, "ff": ff,
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
    table3 = p002._t3_rows({(k, p): failed for k in p002.KINDS for p in p002.T3_PES}, t2w16, fmax)
    data = {"table2": table2, "table3": table3, "fmax_for_table3": fmax,
            "settings": {"t2_width": 64, "t3_width": 1024, "word": 16, "yosys": None, "nextpnr": None}}
    json.dumps(data)
    md = p002.markdown(data)
    assert md.startswith("## Paper 002:")
    assert "failed: timed out" in md
    # the cross-check needs no Width-1024 build: p = 32 right is 16 copies of the p = 2 kernel
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


def _fake_t3(kind: str, p: int, pe: tuple[int, int], mem: tuple[int, int], top: tuple[int, int]) -> dict:
    inst = {"mm_r4booth": {"module": "mm_r4booth", "luts": top[0], "ff": top[1]},
            "mm_r4booth/u_ctrl": {"module": "mm_req_ctrl", "luts": 7, "ff": 3},
            "mm_r4booth/u_ymem": {"module": "mm_r4booth_mem", "luts": mem[0], "ff": mem[1]}}
    for i in range(p):
        inst[f"mm_r4booth/gen_pe[{i}].u_pe"] = {"module": "mm_r4booth_pe", "luts": pe[0], "ff": pe[1]}
    return {"core": f"r4booth_{kind}", "width": 1024, "target": "xilinx", "luts": 5000 + p, "ff": 4000 + p,
            "cells": {"RAM16X1S": 4, "LUT4": 1}, "instances": inst}


def test_table3_from_one_build_per_p():
    t2w16 = {"right": _fake_t2("right", 16, [100, 100], [50, 50]), "left": {"error": "x"}}
    built = {(k, p): _fake_t3(k, p, (100 if p < 64 else 101, 50), (30, 2), (100 * p + 1000, 50 * p + 500))
             for k in p002.KINDS for p in p002.T3_PES}
    built[("left", 32)] = {"error": "timed out"}
    rows = {(r["shift"], r["p"]): r for r in p002._t3_rows(built, t2w16, {"right": 100.0, "left": 50.0})}
    r = rows[("right", 32)]
    assert r["kernel"] == (3200, 1600) and r["pes"] == 32
    assert r["rest"] == (1000 - 30, 500 - 2)  # top minus kernel minus memories
    assert r["paper_scope"] == (3200 + 970, 1600 + 498)
    assert r["scope_vs_paper"][0] == (3200 + 970) / papers.TABLE3_002[("right", 32)][0]
    assert r["derived"] == r["kernel"]
    assert rows[("right", 64)]["derived"] != rows[("right", 64)]["kernel"]  # the cross-check can disagree
    assert "derived" not in rows[("left", 16)] and rows[("left", 32)]["error"] == "timed out"
    data = {"table2": [], "table3": list(rows.values()), "fmax_for_table3": {"right": 100.0, "left": 50.0},
            "settings": {"t2_width": 64, "t3_width": 1024, "word": 16, "yosys": None, "nextpnr": None}}
    md = p002.markdown(data)
    assert "| R | 32 | 5,032 / 4,032 (+4 RAM) | 4,170 / 2,098 | 3,200 / 1,600 | = measured |" in md
    assert "| R | 64 |" in md and "6,400 / 3,200 |" in md  # the derived kernel, unlike the measured 6,464
    assert "| L | 32 | failed: timed out" in md
