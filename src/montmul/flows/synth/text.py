# SPDX-License-Identifier: Apache-2.0
"""Plain-text tables of synthesis results (``montmul synth`` without
``--json``)."""

from __future__ import annotations


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    out = ["  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip(), "  ".join("-" * w for w in widths)]
    out += ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows]
    return out


def _fig(f: dict | None, key: str, fmt: str) -> str:
    return "-" if not f else format(f[key], fmt)


def _name(r: dict) -> str:
    engine = r.get("engine")
    if not engine:
        return r["core"]
    return {"crt": f"mm_modexp_crt({r['core']})", "regs": f"mm_core_regs({r['core']})"}.get(
        engine, f"mm_modexp({r['core']})")


def _params(r: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in r["params"].items() if k != "Width")


def format_results(results: list[dict]) -> str:
    """One table per target; ``figure`` entries (derived figures) where the
    caller added them; failed jobs listed at the end."""
    lines: list[str] = []
    ok = [r for r in results if "error" not in r]
    for target in ("ecp5", "asic", "xilinx"):
        rs = [r for r in ok if r["target"] == target]
        if not rs:
            continue
        if target == "ecp5":
            o = rs[0]["options"]
            lines.append(f"ECP5 (LFE5U-{o['device']}, {o['package']}, out of context, clk_i constraint "
                         f"{o['freq_mhz']} MHz; Fmax = median over seeds {o['seed']}.. (up to {o['seeds']}) when the "
                         f"first nextpnr run takes under {o['short_s']} s; budget {o['budget_s']} s per job)")
            hdr = ("core", "k", "LUT4", "CCU2C", "LUTs", "FF", "DSP", "Fmax MHz", "seeds", "flow s", "cycles",
                   "time ns", "Mbit/s", "ATP LUT*us", "params", "cache")
            rows = [
                (_name(r), str(r["width"]), str(r["lut4"]), str(r["ccu2c"]), str(r["luts"]), str(r["ff"]),
                 str(r["dsp"]), f"{r['fmax_mhz']:.1f}", str(len(r.get("fmax_seeds", {})) or 1),
                 f"{r['seconds']['total']:.0f}", _fig(r.get("figures"), "cycles", ".1f"),
                 _fig(r.get("figures"), "time_ns", ".1f"), _fig(r.get("figures"), "throughput_mbps", ".1f"),
                 _fig(r.get("figures"), "atp", ".1f"), _params(r), "hit" if r.get("cached") else "run")
                for r in rs
            ]
        elif target == "asic":
            o = rs[0]["options"]
            lines.append(f"ASIC ({o['liberty'].rsplit('/', 1)[-1]}, ABC delay target {o['period_ps']} ps, max fanout "
                         f"{o['max_fanout']}; T_FA = {rs[0]['t_fa_ps']} ps, A_FA = {rs[0]['a_fa_um2']} um^2)")
            hdr = ("core", "k", "area um^2", "A/A_FA", "FF", "delay ps", "T_FA", "critical path", "cycles",
                   "time ns", "Mbit/s", "ATP um^2*us", "params", "cache")
            rows = [
                (_name(r), str(r["width"]), f"{r['area_um2']:.0f}", f"{r['area_fa']:.1f}", str(r["ff"]),
                 f"{r['delay_ps']:.1f}", f"{r['delay_fa']:.2f}", f"{r['startpoint']} -> {r['endpoint']}",
                 _fig(r.get("figures"), "cycles", ".1f"), _fig(r.get("figures"), "time_ns", ".1f"),
                 _fig(r.get("figures"), "throughput_mbps", ".1f"), _fig(r.get("figures"), "atp", ".4g"),
                 _params(r), "hit" if r.get("cached") else "run")
                for r in rs
            ]
        else:
            lines.append(f"Xilinx ({rs[0]['options']['family']}, Yosys synth_xilinx, resources only; DSP: DSP48* or "
                         "MULT18X18*, carry: CARRY4/CARRY8 cells or MUXCY bits)")
            hdr = ("core", "k", "LUTs", "LUT1..6", "FF", "DSP", "carry", "MUXF7/8", "params", "cache")
            rows = [
                (_name(r), str(r["width"]), str(r["luts"]), "/".join(str(r[f"lut{i}"]) for i in range(1, 7)),
                 str(r["ff"]), str(r["dsp"]), str(r["carry"]), f"{r['muxf7']}/{r['muxf8']}", _params(r),
                 "hit" if r.get("cached") else "run")
                for r in rs
            ]
        lines += _table(hdr, rows) + [""]
    for r in results:
        if "error" in r:
            lines.append(f"FAILED {_name(r)} width {r['width']} {r['target']}: {r['error']}")
    return "\n".join(lines).rstrip()


def format_instances(results: list[dict]) -> str:
    """Per-instance breakdown of each result (``montmul synth --instances``):
    one table per run, every instance indented under its parent, each row the
    cost of the instance's whole subtree."""
    lines: list[str] = []
    for r in results:
        if "error" in r or "instances" not in r:
            continue
        asic = r["target"] == "asic"
        keys = ("area_um2", "ff", "cells") if asic else ("luts", "ff", "carry", "dsp", "bram")
        cols = ("area um^2", "FF", "cells") if asic else ("LUTs", "FF", "carry", "DSP", "BRAM")
        hdr = ("instance", "module", *cols)
        rows = []
        for path, v in r["instances"].items():
            depth = path.count("/")
            name = path.rsplit("/", 1)[-1]
            rows.append(("  " * depth + name, v["module"], *(str(v[k]) for k in keys)))
        family = f" {r['options']['family']}" if r["target"] == "xilinx" else ""
        lines.append(f"{_name(r)} width {r['width']} {r['target']}{family}: per instance (subtree totals)")
        lines += _table(hdr, rows) + [""]
    return "\n".join(lines).rstrip()

