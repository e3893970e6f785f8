# SPDX-License-Identifier: Apache-2.0
"""docs/choosing.md: which core to use, picked from the measured tables.

    python -m montmul.apps.report.choosing --out docs/choosing.md

It reads what the tables are made from, and runs no synthesis:

* ECP5, each core alone with its registry defaults and flow options: the
  synthesis cache and the tracked store ``syn/results/``, as
  ``python -m montmul.apps.report.ecp5 --cached`` reads them
  (docs/results_ecp5.md);
* cycles per product: the cycle-exact model, one product for a core whose
  latency does not depend on the data (exact), the 10,000-product average
  of ``montmul report`` (docs/results.json) for the others;
* ASIC (OSU 0.18 µm): docs/results.json (docs/results.md);
* RSA private-key operations on the ECP5 engines: bench/rsa.json
  (bench/rsa.md);
* constant time: the registry's ``data_dependent`` flag, which
  tests/test_leak.py checks against the RTL (docs/security.md).

Every recommendation is the best row of those figures for its criterion,
so the page changes when a table does (tests/test_report_choosing.py checks
the tracked page against a fresh rendering).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from ... import cores
from . import render

CMD = "python -m montmul.apps.report.choosing --out docs/choosing.md"
WIDTHS = (256, 1024, 2048)


def constant_time(core: str) -> bool:
    """Latency independent of the operands (the registry's flag)."""
    return not cores.get(core).data_dependent


def model_cycles(core: str, width: int, results: dict) -> float | None:
    """Cycles of one ``width``-bit product with the core's defaults: exact
    from the model for a constant-latency core, else the average that
    ``montmul report`` measured (None where it has none)."""
    c = cores.get(core)
    if not c.data_dependent:
        rng = random.Random(width)
        n = rng.getrandbits(width) | (1 << (width - 1)) | 1
        return float(c.run_model(rng.randrange(n), rng.randrange(n), n, width).cycles)
    for row in results.get("rows", []):
        if row["core"] == core and not row.get("unit") and not row["params"]:
            cyc = row["widths"].get(str(width), {}).get("cycles") or {}
            return cyc.get("avg")
    return None


def ecp5_rows(ecp5_data: dict, results: dict) -> list[dict]:
    """One row per core and width with an ECP5 Fmax: LUTs, DSPs, cycles and
    the time of one product (cycles / Fmax)."""
    out = []
    for core, by_width in ecp5_data["rows"].items():
        for w, e in by_width.items():
            if e.get("status") != "ok" or not e.get("fmax_mhz"):
                continue
            cyc = model_cycles(core, int(w), results)
            if cyc is None:
                continue
            out.append({"core": core, "width": int(w), "luts": e["luts"], "dsp": e.get("dsp") or 0,
                        "fmax_mhz": e["fmax_mhz"], "cycles": cyc, "us": cyc / e["fmax_mhz"],
                        "ct": constant_time(core)})
    return out


def ecp5_missing(ecp5_data: dict, rows: list[dict]) -> list[str]:
    have = {(r["core"], r["width"]) for r in rows}
    return [f"{c} at {w}" for c, by_width in ecp5_data["rows"].items() for w in by_width
            if (c, int(w)) not in have]


def asic_rows(results: dict) -> list[dict]:
    """The ASIC rows of docs/results.json (the whole multiplier behind the
    common interface, not the carry-save cores alone)."""
    out = []
    for row in results.get("rows", []):
        if row.get("unit"):
            continue
        for w, by in row["widths"].items():
            f = (by.get("asic") or {}).get("figures")
            if f:
                out.append({"core": row["core"], "label": row["label"], "params": row["params"], "width": int(w),
                            "us": f["time_us"], "area": f["area"], "atp": f["atp"], "ct": constant_time(row["core"])})
    return out


def rsa_rows(bench: dict) -> list[dict]:
    return [{**r, "ct": constant_time(r["core"])} for r in bench.get("rows", []) if r.get("ms") is not None]


def best(rows: list[dict], key: str, **where) -> dict | None:
    """The row with the smallest ``key`` among those matching ``where``
    (a value, or a callable on the row's value)."""
    def ok(r: dict) -> bool:
        return all(v(r[k]) if callable(v) else r[k] == v for k, v in where.items())

    return min((r for r in rows if ok(r)), key=lambda r: r[key], default=None)


def _params(p: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(p.items()))


def _name(r: dict) -> str:
    p = _params(r.get("params") or {})
    return f"`{r['core']}`" + (f" ({p})" if p else "")


def picks(ecp5: list[dict], asic: list[dict], rsa: list[dict]) -> list[tuple[str, dict | None, str]]:
    """(need, chosen row or None, what the figure is) per recommendation."""
    out = []
    rsa_bits = sorted({r["bits"] for r in rsa})
    for bits in rsa_bits:
        out.append((f"RSA-{bits} private key on ECP5, fastest", best(rsa, "ms", bits=bits), "ms"))
        out.append((f"RSA-{bits} private key on ECP5, fastest constant-time core",
                    best(rsa, "ms", bits=bits, ct=True), "ms"))
        out.append((f"RSA-{bits} private key on ECP5, fastest without DSP blocks",
                    best(rsa, "ms", bits=bits, dsp=lambda d: not d), "ms"))
        out.append((f"RSA-{bits} private key on ECP5, fastest constant-time core without DSP blocks",
                    best(rsa, "ms", bits=bits, ct=True, dsp=lambda d: not d), "ms"))
    for w in sorted({r["width"] for r in ecp5}):
        tag = "ECC-sized " if w == 256 else ""
        out.append((f"{tag}{w}-bit product on ECP5, fastest", best(ecp5, "us", width=w), "us"))
        out.append((f"{w}-bit product on ECP5, fastest constant-time", best(ecp5, "us", width=w, ct=True), "us"))
        out.append((f"{w}-bit product on ECP5, fastest constant-time without DSP blocks",
                    best(ecp5, "us", width=w, ct=True, dsp=0), "us"))
        out.append((f"{w}-bit product on ECP5, fewest LUTs", best(ecp5, "luts", width=w), "us"))
    for w in sorted({r["width"] for r in asic}):
        out.append((f"{w}-bit product on ASIC, fastest", best(asic, "us", width=w), "asic"))
        out.append((f"{w}-bit product on ASIC, fastest constant-time", best(asic, "us", width=w, ct=True), "asic"))
        out.append((f"{w}-bit product on ASIC, smallest area", best(asic, "area", width=w), "asic"))
        out.append((f"{w}-bit product on ASIC, lowest area x time", best(asic, "atp", width=w), "asic"))
    return out


def _figure(r: dict, kind: str) -> str:
    if kind == "ms":
        return f"{r['ms']:.2f} ms on the engine; {r['luts']:,} LUTs, {r['dsp']} MULT18X18D"
    if kind == "us":
        return f"{r['us']:,.2f} µs ({r['cycles']:,.0f} cycles at {r['fmax_mhz']:.1f} MHz); {r['luts']:,} LUTs, {r['dsp']} MULT18X18D"
    return f"{r['us']:.3f} µs; {r['area']:,.0f} µm²; area x time {r['atp']:,.0f} µm²·µs"


def markdown(ecp5: list[dict], missing: list[str], asic: list[dict], rsa: list[dict]) -> str:
    L = ["# Choosing a core", "",
         f"Generated by `{CMD}` from the measured tables:",
         "`docs/results_ecp5.md` (ECP5, each core alone with its registry flow options),",
         "`docs/results.md` (ASIC, OSU 0.18 µm), `bench/rsa.md` (RSA on the ECP5 engines)",
         "and the cycle-exact models.",
         "Constant-time = latency independent of the operands: the registry's `data_dependent` flag,",
         "checked against the RTL by `montmul leak` (`docs/security.md`).",
         "Use a constant-time core for secret operands (RSA and ECC private keys).", "",
         "## Recommendations", "",
         "| need | core | figure | from |", "|---|---|---|---|"]
    source = {"ms": "`bench/rsa.md`", "us": "`docs/results_ecp5.md`", "asic": "`docs/results.md`"}
    empty = []
    for need, r, kind in picks(ecp5, asic, rsa):
        if r is None:
            empty.append(need)
            continue
        L.append(f"| {need} | {_name(r)} | {_figure(r, kind)} | {source[kind]} |")
    if empty:
        L += ["", "No measured row yet for: " + "; ".join(empty) + "."]
    L += ["", "The RSA times are square-and-multiply on the CRT engine, as `bench/rsa.md` measures them.",
          "For a private key run the engine's Montgomery ladder with a constant-time core and consider",
          "blinding (`docs/security.md`, `docs/rsa.md`).", ""]
    for w in sorted({r["width"] for r in ecp5}):
        rows = sorted((r for r in ecp5 if r["width"] == w), key=lambda r: r["us"])
        L += [f"## Every core on ECP5 at {w} bits, fastest first", "",
              "| core | constant-time | cycles | Fmax MHz | µs per product | LUTs | MULT18X18D |",
              "|---|---|---|---|---|---|---|"]
        L += [f"| `{r['core']}` | {'yes' if r['ct'] else 'no'} | {r['cycles']:,.0f} | {r['fmax_mhz']:.1f} "
              f"| {r['us']:,.2f} | {r['luts']:,} | {r['dsp']} |" for r in rows]
        L.append("")
    if missing:
        L += ["Not measured yet on ECP5 (no Fmax: not run, timed out or does not fit; `docs/results_ecp5.md` "
              "says which): " + ", ".join(missing) + ".", ""]
    L += ["Data-dependent cycles are averages over 10,000 random products (`montmul report`); a core with "
          "constant latency has one exact count.", ""]
    return "\n".join(L)


def load(root: Path = Path(".")) -> tuple[list[dict], list[str], list[dict], list[dict]]:
    """The rows, from the stored results under ``root`` (no synthesis)."""
    from . import ecp5 as ecp5_report

    results = json.loads((root / "docs" / "results.json").read_text())
    bench = json.loads((root / "bench" / "rsa.json").read_text())
    data = ecp5_report.build(run=False)
    rows = ecp5_rows(data, results)
    return rows, ecp5_missing(data, rows), asic_rows(results), rsa_rows(bench)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m montmul.apps.report.choosing", description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=Path("."), help="the repository (docs/results.json, bench/rsa.json)")
    ap.add_argument("--out", type=Path, help="write the page here (default: stdout)")
    args = ap.parse_args(argv)
    try:
        text = markdown(*load(args.root))
    except (OSError, ValueError, KeyError) as exc:
        print(f"montmul.apps.report.choosing: error: {exc}", file=sys.stderr)
        return 2
    render.emit(text, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
