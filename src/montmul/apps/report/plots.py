# SPDX-License-Identifier: Apache-2.0
"""PNG figures of the report (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path

from . import papers
from .results import target_result, pareto


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def place_labels(ax, pts: list[tuple[float, float, str]], fontsize: float = 7) -> None:
    """Annotate each (x, y, label) point where its text overlaps no other
    label, no point and stays inside the axes: greedy, widest labels first,
    over candidate offsets around the point; a leader line when the label
    had to move away from its point."""
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    axbox = ax.get_window_extent(renderer)
    disp = [ax.transData.transform((x, y)) for x, y, _ in pts]
    dots = [(dx - 4, dy - 4, dx + 4, dy + 4) for dx, dy in disp]
    placed: list[tuple[float, float, float, float]] = []
    # offsets in points: beside, above/below, then further away
    cands = [(5, 3), (5, -10), (-5, 3), (-5, -10), (0, 7), (0, -14)]
    cands += [(dx * f, dy * f) for f in (2, 3, 4) for dx, dy in ((8, 6), (8, -12), (-8, 6), (-8, -12), (0, 10), (0, -16))]
    order = sorted(range(len(pts)), key=lambda i: -len(pts[i][2]))
    scale = fig.dpi / 72.0

    def hits(b, others):
        return any(b[0] < o[2] and o[0] < b[2] and b[1] < o[3] and o[1] < b[3] for o in others)

    for i in order:
        x, y, lab = pts[i]
        t = ax.text(0, 0, lab, fontsize=fontsize)
        ext = t.get_window_extent(renderer)
        t.remove()
        w, h = ext.width, ext.height
        best = None
        for ox, oy in cands:
            dx, dy = disp[i][0] + ox * scale, disp[i][1] + oy * scale
            x0 = dx - w if ox < 0 else (dx - w / 2 if ox == 0 else dx)
            pad = 4 * scale  # a gap, so two labels never read as one
            box = (x0 - pad, dy, x0 + w + pad, dy + h)
            inside = axbox.x0 <= box[0] and box[2] <= axbox.x1 and axbox.y0 <= box[1] and box[3] <= axbox.y1
            if inside and not hits(box, placed) and not hits(box, [d for j, d in enumerate(dots) if j != i]):
                best = (ox, oy, box)
                break
        if best is None:  # nowhere free: the first candidate inside the axes
            best = (5, 3, (disp[i][0], disp[i][1], disp[i][0] + w, disp[i][1] + h))
        ox, oy, box = best
        placed.append(box)
        far = abs(ox) > 10 or abs(oy) > 14
        ax.annotate(lab, (x, y), textcoords="offset points", xytext=(ox, oy), fontsize=fontsize,
                    ha="right" if ox < 0 else ("center" if ox == 0 else "left"), va="bottom",
                    arrowprops=dict(arrowstyle="-", lw=0.5, color="0.5", shrinkA=0, shrinkB=3) if far else None)


def log_ticks(axis) -> None:
    """Readable log-axis ticks: 1-2-5 steps as plain numbers, no minor labels."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(NullFormatter())


def area_vs_time(data: dict, w: int, path: Path) -> list[str]:
    """Area against time per multiplication (ASIC), Pareto front marked; the
    paper's published points (other technology) in a second panel.  Returns
    the labels on our front."""
    plt = _plt()
    pts = []
    for row in data["rows"]:
        a = target_result(row, w, "asic")
        if a:
            pts.append((a["figures"]["time_us"], a["figures"]["area"] / 1e6, row["label"]))
    pub = [(p.time_us, p.area_um2 / 1e6, p.label) for p in papers.ASIC_000.get(w, [])]
    panels = [("montmul, OSU 0.18 um (Yosys/ABC + OpenSTA)", pts)]
    if pub:
        panels.append(("paper 000, TSMC 90 nm (post-layout)", pub))
    fig, axes = plt.subplots(1, len(panels), figsize=(6.4 * len(panels), 4.8), squeeze=False)
    fronts = []
    for ax, (title, ps) in zip(axes[0], panels):
        front = pareto(ps)
        fronts.append(front)
        for x, y, lab in ps:
            on = lab in front
            ax.scatter([x], [y], s=40 if on else 25, c="tab:red" if on else "tab:blue", zorder=3)
        fp = sorted((x, y) for x, y, lab in ps if lab in front)
        if len(fp) > 1:
            ax.step([p[0] for p in fp], [p[1] for p in fp], where="post", c="tab:red", lw=1, label="Pareto front")
            ax.legend(fontsize=8, loc="upper right")
        xs = [x for x, _, _ in ps]
        if xs and max(xs) > 10 * min(xs):  # e.g. the basic multiplier's long adder
            ax.set_xscale("log")
            log_ticks(ax.xaxis)
        if ps:  # room for the labels beside the outermost points
            ys = [y for _, y, _ in ps]
            lo, hi = min(ys), max(ys)
            ax.set_ylim(lo - 0.08 * (hi - lo or 1), hi + 0.12 * (hi - lo or 1))
            if ax.get_xscale() == "log":
                ax.set_xlim(min(xs) / 1.4, max(xs) * 2.5)
            else:
                ax.set_xlim(min(xs) - 0.08 * (max(xs) - min(xs) or 1), max(xs) + 0.3 * (max(xs) - min(xs) or 1))
        ax.set_xlabel("time per multiplication (us) = cycles x delay")
        ax.set_ylabel("cell area (mm^2)")
        ax.set_title(f"{title}\n{w}-bit", fontsize=9)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    for ax, (_, ps) in zip(axes[0], panels):
        place_labels(ax, ps)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return fronts[0]


def cycles(data: dict, path: Path) -> None:
    """Average cycles per multiplication, per design and width; the paper's
    1024-bit counts as markers."""
    plt = _plt()
    widths = data["widths"]
    rows = data["rows"]
    fig, ax = plt.subplots(figsize=(10, 4.8))
    n = len(widths)
    bw = 0.8 / max(n, 1)
    pub = {w: {p.label: p.cycles for p in papers.ASIC_000.get(w, [])} for w in widths}
    for i, w in enumerate(widths):
        ys = [row["widths"][str(w)]["cycles"]["avg"] / w for row in rows]
        xs = [j + (i - (n - 1) / 2) * bw for j in range(len(rows))]
        ax.bar(xs, ys, bw, label=f"montmul {w}-bit (cycles / k)")
        px = [x for x, row in zip(xs, rows) if row.get("paper_label") in pub[w]]
        py = [pub[w][row["paper_label"]] / w for row in rows if row.get("paper_label") in pub[w]]
        if px:
            ax.scatter(px, py, marker="_", s=200, c="k", zorder=3, label=f"paper 000 {w}-bit" if i == 0 else None)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r["label"] for r in rows], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("average cycles per multiplication / k")
    ax.set_title(f"cycles per multiplication ({data['samples']} random operand sets, model)", fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def atp(data: dict, path: Path) -> None:
    """Area-time product relative to FCS-MM-1 (ours per width; the paper's
    at 1024 bits), so technologies compare."""
    from .results import relative_to_fcs1

    plt = _plt()
    widths = data["widths"]
    series = []
    base = None
    for w in widths:
        rel = relative_to_fcs1(data, w)
        base = base or next((e["label"] for e in rel if e["ours"]["atp"] == 1.0), None)
        if rel:
            series.append((f"montmul {w}-bit", {e["label"]: e["ours"]["atp"] for e in rel}))
            pub = {e["label"]: e["paper"]["atp"] for e in rel if "paper" in e}
            if pub:
                series.append((f"paper 000 {w}-bit", pub))
    labels = [r["label"] for r in data["rows"]]
    fig, ax = plt.subplots(figsize=(10, 4.8))
    n = max(len(series), 1)
    bw = 0.8 / n
    for i, (name, vals) in enumerate(series):
        xs = [j + (i - (n - 1) / 2) * bw for j, lab in enumerate(labels) if lab in vals]
        ys = [vals[lab] for lab in labels if lab in vals]
        ax.bar(xs, ys, bw, label=name, hatch="//" if name.startswith("paper") else None)
    base = base or "FCS-MM-1"
    ax.axhline(1.0, c="k", lw=0.8, label=f"baseline: {base} = 1")
    allv = [v for _, vals in series for v in vals.values()]
    if allv and max(allv) > 10 * min(allv):
        ax.set_yscale("log")
        log_ticks(ax.yaxis)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(f"area x time, relative to {base}")
    ax.set_title("area-time product (lower is better)", fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
