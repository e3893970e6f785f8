# SPDX-License-Identifier: Apache-2.0
"""montmul.apps.report.render: the results page shows measured rows only and
names the others in one line (rendered from the stored docs/results.json,
with results taken away)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from montmul.apps.report import render

DATA = json.loads((Path(__file__).resolve().parents[1] / "docs" / "results.json").read_text())


def test_unmeasured_designs_get_no_row():
    data = copy.deepcopy(DATA)
    gone = data["rows"][0]
    del gone["widths"]["1024"]["asic"]
    gone["widths"]["2048"]["asic"] = {"error": "timed out", "status": "timed_out"}
    for t in ("ecp5", "xilinx"):
        gone["widths"]["256"].pop(t, None)
    md = render.markdown(data, "montmul report (test)")
    lab = gone["label"]
    rows = [line for line in md.splitlines() if line.startswith(f"| {lab} |")]
    assert f"Not measured yet at 1024 bits: {lab} (not run)." in md
    assert f"Not measured yet at 2048 bits: {lab} (timed out)." in md
    assert f"Not measured yet at 256 bits: {lab} (not run)." in md
    head = render.headline(data, 1024)
    assert not any(line.startswith(f"| {lab} |") for line in head)
    assert all("not available" not in r and "| – | – | – |" not in r for r in rows)


def test_measured_page_has_no_not_measured_line():
    md = render.markdown(copy.deepcopy(DATA), "montmul report (test)")
    assert "Not measured yet" not in md
