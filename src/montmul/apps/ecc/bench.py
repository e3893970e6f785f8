# SPDX-License-Identifier: Apache-2.0
"""ECC on the public-key engine beside software and a published FPGA core:
``bench/ecc.md`` and ``bench/ecc.json`` (``python -m montmul.apps.ecc.bench``,
``make bench-ecc``).

* **Engine rows**: the cycles of k·P, ECDSA signing (k·G, the scalar split
  over the two halves), verification (u1·G + u2·Q) and ECDH from the
  engine's cycle-exact model (``montmul.apps.ecc.engine``, cycles only: they
  do not depend on the data) on the engine build whose post-route results
  the repository stores (the RSA-2048 build of ``scripts/ws_proxy.py run
  --top pke``: P = 66, w = 17, the quotient bypass), with and without the
  modular ALU (``pke.Build.mod_alu``).  Its clock is read at run time from
  the results stored for that build's HDL parameters
  (``syn/proxy/ws_pke_P66_w17_r3_d3_c1_m65_*.json``,
  :func:`montmul.flows.synth.proxy.lookup`): the median ``fmax_mhz`` of the
  seeds stored, or "not measured" when none is; the same files say whether
  the build fits the LFE5U-85F and how many program words it has.
* **Software**: OpenSSL through ``cryptography`` on this machine, timed in
  the same run (median of ``reps`` operations).
* **Published**: IPECC (an open-source VHDL ECC core) as its README
  reports it: libecc's ECDSA-SHA224 performance test with IPECC's driver on
  a Zynq (Arty Z7 board), software included; another device.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ...models import pke
from ..stats import cpu_name as _cpu
from ..stats import median_ms
from . import engine as E
from .curves import get as get_curve

__all__ = ["CURVES", "OPERATIONS", "ENGINE", "IPECC", "engine_build", "stored_fmax", "engine_rows",
           "software_rows", "published_rows", "generate", "format_md", "main"]

CURVES = ("secp256r1", "secp384r1")
OPERATIONS = ("scalar_mul", "ecdsa_sign", "ecdsa_verify", "ecdh")
#: The engine build of the stored post-route results: the RSA-2048 engine
#: (1024-bit halves) on P = 66 PEs, w = 17, L = 6 and the quotient bypass.
ENGINE = {"pes": 66, "w": 17, "latency": 6, "qlat": -1, "rsa_half_bits": 1024}
#: IPECC's README (github.com/ANSSI-FR/IPECC, "The IPECC integration with
#: libecc"): operations per second of libecc's ECDSA-SHA224 performance test
#: with IPECC's driver on a Zynq (Arty Z7 board).  Published figures.
IPECC = (("secp256r1", "ecdsa_sign", 34), ("secp256r1", "ecdsa_verify", 32),
         ("secp384r1", "ecdsa_sign", 16), ("secp384r1", "ecdsa_verify", 15))
IPECC_NOTE = "published (IPECC README): Zynq (Arty Z7) with IPECC's driver and libecc, software included; other device"
HASHES = {"secp256r1": "sha256", "secp384r1": "sha384"}


def engine_build() -> pke.Build:
    """The RSA build whose post-route results are stored (its d, c and m
    name the result files; the ECC programs run on its array)."""
    return pke.Build(ENGINE["rsa_half_bits"], pes=ENGINE["pes"], w=ENGINE["w"], latency=ENGINE["latency"],
                     qlat=ENGINE["qlat"])


def _pattern(prog_words: int | None = None) -> str:
    """The stored results' file names (a glob) of the engine build with ``prog_words`` program words (default: the RSA build's)."""
    from ... import design
    from ...flows.sim.pke_sim import PROG_WORDS
    from ...flows.synth import proxy

    return f"ws_{proxy.tag(design.pke_hdl_params(engine_build(), prog_words or PROG_WORDS), '*', '*')}.json"


def stored_fmax(proxy_dir: Path) -> dict:
    """The engine's stored post-route results (:func:`montmul.flows.synth.proxy.lookup`
    for its HDL parameters) of the largest program memory stored (the build
    most likely to hold the ECC programs; the RSA build has 512 words): median
    Fmax over its seeds, whether every seed fits the device, its program
    words; ``fmax_mhz`` None when no result is stored."""
    from ... import design
    from ...flows.synth import proxy

    hdl = design.pke_hdl_params(engine_build(), 0)
    runs = proxy.lookup(design.PKE.top, hdl, proxy_dir, ignore=("ProgWords",))
    if not runs:
        return {"fmax_mhz": None, "seeds": [], "fits": None, "prog_words": None, "pattern": _pattern()}
    pw = max(d["params"].get("ProgWords", 0) for d in runs)
    runs = [d for d in runs if d["params"].get("ProgWords", 0) == pw]
    return {"fmax_mhz": proxy.median_fmax(runs), "seeds": proxy.seeds(runs), "fits": all(map(proxy.fits, runs)),
            "prog_words": pw or None, "pattern": _pattern(pw)}


def _cycles(curve: str, op: str, mod_alu: bool) -> tuple[int, int]:
    """(cycles, program words) of one operation on the engine build."""
    c = get_curve(curve)
    b = engine_build()
    arr = dict(pes=b.pes, w=b.w, latency=b.latency, qlat=b.qlat, d=b.d, mod_alu=mod_alu)
    nb = c.n.bit_length()
    if op in ("scalar_mul", "ecdh"):
        r = E.run_scalar_mult(c, 0, (0, 0), compute=False, **arr)
        eb = E.EccBuild(c, E.scalar_windows(nb), **arr)
    elif op == "ecdsa_sign":
        V, _ = E.split_base(c)
        r = E.run_double(c, 0, (0, 0), 0, (0, 0), 4 * V, compute=False, **arr)
        eb = E.EccBuild(c, V, True, **arr)
    else:
        r = E.run_double(c, 0, (0, 0), 0, (0, 0), nb, compute=False, **arr)
        eb = E.EccBuild(c, E.scalar_windows(nb), True, **arr)
    return r.cycles, len(E.program(eb).program)


def engine_rows(proxy_dir: Path, curves=CURVES) -> list[dict]:
    st = stored_fmax(proxy_dir)
    fmax = st["fmax_mhz"]
    rows = []
    for mod_alu in (False, True):
        core = "mm_pke, ModAlu = 1" if mod_alu else "mm_pke"
        for curve in curves:
            for op in OPERATIONS:
                cyc, words = _cycles(curve, op, mod_alu)
                notes = []
                f = fmax
                fits = st["fits"]
                if fmax is None:
                    notes.append("Fmax not measured")
                    fits = None
                elif mod_alu:
                    notes.append("clock of the placed ModAlu = 0 build (ModAlu = 1 not placed)")
                    fits = None
                if fits is not None and st["prog_words"] is not None and st["prog_words"] < words:
                    notes.append(f"program of {words:,} words; the placed build has ProgWords {st['prog_words']}")
                    fits = None
                ms = cyc / (f * 1e3) if f else None
                rows.append({"curve": curve, "operation": op, "core": core, "cycles": cyc,
                             "ecp5_fmax_mhz": f, "ms": ms, "ops_per_s": 1e3 / ms if ms else None,
                             "fits_lfe5u_85f": fits, "program_words": words, "source": "model",
                             "note": "; ".join(notes)})
    return rows


def software_rows(reps: int, curves=CURVES) -> list[dict]:
    """OpenSSL through cryptography, timed now: median ms of ``reps`` runs."""
    from cryptography.hazmat.backends.openssl import backend
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec

    core = f"{backend.openssl_version_text()} (cryptography), {_cpu()}, one thread"
    rows = []
    for curve in curves:
        ecurve = {"secp256r1": ec.SECP256R1(), "secp384r1": ec.SECP384R1()}[curve]
        halg = {"sha256": hashes.SHA256(), "sha384": hashes.SHA384()}[HASHES[curve]]
        key = ec.generate_private_key(ecurve)
        peer = ec.generate_private_key(ecurve).public_key()
        sig = key.sign(b"bench", ec.ECDSA(halg))
        pub = key.public_key()
        times = {"ecdsa_sign": median_ms(lambda: key.sign(b"bench", ec.ECDSA(halg)), reps),
                 "ecdsa_verify": median_ms(lambda: pub.verify(sig, b"bench", ec.ECDSA(halg)), reps),
                 "ecdh": median_ms(lambda: key.exchange(ec.ECDH(), peer), reps)}
        times["scalar_mul"] = times["ecdh"]
        for op in OPERATIONS:
            ms = times[op]
            rows.append({"curve": curve, "operation": op, "core": core, "cycles": None, "ecp5_fmax_mhz": None,
                         "ms": ms, "ops_per_s": 1e3 / ms, "fits_lfe5u_85f": None, "source": "measured",
                         "note": "k·P as ECDH" if op == "scalar_mul" else ""})
    return rows


def published_rows(curves=CURVES) -> list[dict]:
    return [{"curve": c, "operation": op, "core": "IPECC", "cycles": None, "ecp5_fmax_mhz": None, "ms": 1e3 / n,
             "ops_per_s": float(n), "fits_lfe5u_85f": None, "source": "published", "note": IPECC_NOTE}
            for c, op, n in IPECC if c in curves]


def generate(proxy_dir: Path | None = None, reps: int = 50, curves=CURVES) -> dict:
    from ... import resources

    proxy_dir = Path(proxy_dir) if proxy_dir is not None else resources.syn_dir() / "proxy"
    st = stored_fmax(proxy_dir)
    b = engine_build()
    rows = engine_rows(proxy_dir, curves) + software_rows(reps, curves) + published_rows(curves)
    return {"command": "python -m montmul.apps.ecc.bench",
            "engine": {"pes": b.pes, "w": b.w, "latency": b.latency, "qlat": b.qlat, "d": b.d, "m": b.m,
                       "results": st["pattern"], "seeds": st["seeds"], "fmax_mhz": st["fmax_mhz"],
                       "prog_words": st["prog_words"]},
            "rows": rows}


def _f(x, fmt: str) -> str:
    return "—" if x is None else format(x, fmt)


def format_md(data: dict) -> str:
    eng = data["engine"]
    fm = eng["fmax_mhz"]
    pw = f" of the build with a {eng['prog_words']}-word program" if eng.get("prog_words") else ""
    seeds = f"seed{'s' if len(eng['seeds']) > 1 else ''} {', '.join(map(str, eng['seeds']))}"
    clock = (f"the median Fmax of {seeds}{pw} stored as syn/proxy/{eng['results']}"
             if fm is not None else f"not measured: no post-route result syn/proxy/{eng['results']} is stored")
    out = ["# ECC: the public-key engine, OpenSSL and IPECC", "",
           f"Generated by `{data['command']}` (`make bench-ecc`).", "",
           f"Engine rows: cycles from the engine's cycle-exact model (`montmul.apps.ecc.engine`) on the build of "
           f"the stored post-route results (P = {eng['pes']}, w = {eng['w']}, L = {eng['latency']}, d = {eng['d']}, "
           f"m ≤ {eng['m']}); clock: {clock}. OpenSSL: measured in the same run on this machine. "
           f"IPECC: {IPECC_NOTE}.", "",
           "| curve | operation | core | cycles | ECP5 Fmax (MHz) | ms | operations/s | fits LFE5U-85F | source "
           "| note |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in data["rows"]:
        fits = {None: "—", True: "yes", False: "no"}[r["fits_lfe5u_85f"]]
        out.append("| " + " | ".join([r["curve"], r["operation"], r["core"], _f(r["cycles"], ","),
                                      _f(r["ecp5_fmax_mhz"], ".1f"), _f(r["ms"], ".3f"), _f(r["ops_per_s"], ",.0f"),
                                      fits, r["source"], r["note"]]) + " |")
    missing = []
    if fm is None:
        missing.append("the engine's clock (no post-route result stored)")
    missing.append("the engine with ModAlu = 1 placed and routed")
    missing.append("the mod-n steps of ECDSA and the host's hashing and transfers (on the host in the engine rows)")
    out += ["", "Not measured yet: " + "; ".join(missing) + ".", ""]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m montmul.apps.ecc.bench", description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="write the Markdown table here (default: print it)")
    ap.add_argument("--json-out", type=Path, help="write the JSON rows here")
    ap.add_argument("--proxy-dir", type=Path, help="stored post-route results (default: the checkout's syn/proxy)")
    ap.add_argument("--reps", type=int, default=50, help="OpenSSL timing repetitions (default 50)")
    ap.add_argument("--curves", nargs="+", default=list(CURVES), choices=list(CURVES))
    args = ap.parse_args(argv)
    if args.reps < 1:
        print("error: --reps must be at least 1", file=sys.stderr)
        return 2
    data = generate(args.proxy_dir, args.reps, tuple(args.curves))
    md = format_md(data)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(md)
    else:
        print(md)
    if args.json_out:
        args.json_out.parent.mkdir(parents=True, exist_ok=True)
        args.json_out.write_text(json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
