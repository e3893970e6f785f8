# SPDX-License-Identifier: Apache-2.0
"""The report's figures stay legible: on the tracked results
(docs/results.json) no two labels of an area-vs-time plot overlap, none
leaves the axes, and the ATP plot names its real baseline."""
from __future__ import annotations

import json
from pathlib import Path

import matplotlib
import pytest

from montmul.apps.report import plots

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from montmul.apps.report.results import target_result

DATA = json.loads((Path(__file__).resolve().parents[1] / "docs" / "results.json").read_text())


def _boxes(ax):
    r = ax.figure.canvas.get_renderer()
    return [t.get_window_extent(r) for t in ax.texts]


@pytest.mark.parametrize("w", DATA["widths"])
def test_area_vs_time_labels_do_not_overlap(w):
    pts = []
    for row in DATA["rows"]:
        a = target_result(row, w, "asic")
        if a:
            pts.append((a["figures"]["time_us"], a["figures"]["area"] / 1e6, row["label"]))
    assert len(pts) >= 10
    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    ax.scatter([p[0] for p in pts], [p[1] for p in pts])
    ax.set_xscale("log")
    ax.set_xlim(min(p[0] for p in pts) / 1.4, max(p[0] for p in pts) * 2.5)
    plots.place_labels(ax, pts)
    fig.canvas.draw()
    boxes = _boxes(ax)
    assert len(boxes) == len(pts)
    axbox = ax.get_window_extent(fig.canvas.get_renderer())
    for i, b in enumerate(boxes):
        assert axbox.x0 - 1 <= b.x0 and b.x1 <= axbox.x1 + 1, ax.texts[i].get_text()
        for j in range(i):
            assert not b.overlaps(boxes[j]), (ax.texts[i].get_text(), ax.texts[j].get_text())
    plt.close(fig)


def test_atp_names_its_baseline(tmp_path, monkeypatch):
    seen = {}
    real_savefig = plt.Figure.savefig

    def spy(fig, path, **kw):
        ax = fig.axes[0]
        seen["ylabel"] = ax.get_ylabel()
        seen["legend"] = [t.get_text() for t in ax.get_legend().get_texts()]
        return real_savefig(fig, path, **kw)

    monkeypatch.setattr(plt.Figure, "savefig", spy)
    plots.atp(DATA, tmp_path / "atp.png")
    assert seen["ylabel"] == "area x time, relative to FCS-MM-1 (carry-save core)"
    assert "baseline: FCS-MM-1 (carry-save core) = 1" in seen["legend"]
