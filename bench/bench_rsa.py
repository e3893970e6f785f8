# SPDX-License-Identifier: Apache-2.0
"""RSA private-key operations on every registered core, beside papers 002 and
004 and OpenSSL (through ``cryptography``) on this machine.

    python bench/bench_rsa.py [--cores all|a,b] [--bits 1024,2048] [--sim model|icarus|verilator]
                              [--samples S] [--sw-reps R] [--jobs J] [--synth] [--json] [--out FILE]
                              [--tracked bench/rsa.md]

For RSA-1024 and RSA-2048 (the keys of NIST's SigGen15_186-2 file, so the
run is reproducible) it signs ``samples`` fixed messages (RSASSA-PKCS1-v1_5,
SHA-256) with and without the CRT on each core, through ``montmul.rsa`` on the
mm_modexp engine (square-and-multiply), and reports the engine's cycles: from
the cycle-exact model by default, from RTL simulation with ``--sim``.

Time = cycles / Fmax, with the post-route ECP5 Fmax of the engine itself
(``montmul synth --core NAME --engine``: mm_modexp around the core) at the
width the exponentiation uses (k/2 with the CRT, k without), taken from the
synthesis cache (``build/synth/cache``) only; the bench starts no synthesis
unless ``--synth`` (each run within the flow's time budget; a run that timed
out or does not fit is cached with its reason).  Missing figures print "n/a"
with the reason.  With ``--tracked FILE`` (the tracked
``bench/rsa.md``), an Fmax the cache cannot give is carried over from that
file and marked "not recomputed", and the bench lists on stderr every
number it could not recompute (``--synth`` reruns them, about two minutes
per ECP5 job): a fresh clone, whose synthesis cache is empty, loses none.

``make bench-rsa`` writes ``build/bench/rsa.md``; ``make bench-rsa UPDATE=1``
refreshes the tracked ``bench/rsa.md``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from montmul import cores, progress, rsa

#: Published figures (../shared/papers), exactly as printed.
PAPERS = [
    {
        "paper": "002", "design": "parallel radix-4 scalable Booth, right-shifting (w=16, v=2, p=32)",
        "device": "Xilinx XC2V2000-6 (Virtex II), Synplify Pro", "clock_mhz": 248,
        "resources": "5959 LUTs, 5079 REGs",
        "operation": "1024-bit modular exponentiation (2n+2 Montgomery multiplications; no CRT)",
        "time_ms": 9.1,
    },
    {
        "paper": "002", "design": "parallel radix-4 scalable Booth, left-shifting (w=16, v=2, p=32)",
        "device": "Xilinx XC2V2000-6 (Virtex II), Synplify Pro", "clock_mhz": 186,
        "resources": "4852 LUTs, 2887 REGs",
        "operation": "1024-bit modular exponentiation (2n+2 Montgomery multiplications; no CRT)",
        "time_ms": 13,
    },
    {
        "paper": "004", "design": "systolic high-radix (radix 2^16 / 2^32)",
        "device": "Xilinx Virtex-4 / Virtex-5 (Table 2 lost in the text extraction)", "clock_mhz": None,
        "resources": "n/a (tables lost)",
        "operation": "1024-bit RSA decryption (left-to-right square-and-multiply; CRT not mentioned)",
        "time_ms": 3.23,
    },
    {
        "paper": "004", "design": "multiplexed systolic (radix 2^16 / 2^32), up to 28% fewer resources",
        "device": "Xilinx Virtex-4 / Virtex-5 (Table 2 lost in the text extraction)", "clock_mhz": None,
        "resources": "n/a (tables lost)",
        "operation": "1024-bit RSA decryption (left-to-right square-and-multiply; CRT not mentioned)",
        "time_ms": 4.36,
    },
]


# ---------------------------------------------------------------------------
def nist_key(bits: int) -> rsa.RsaKey:
    """The SigGen15_186-2 key of ``bits`` bits (n, e, d; primes recovered)."""
    import cryptography_vectors

    path = Path(cryptography_vectors.__file__).parent / "asymmetric/RSA/FIPS_186-2/SigGen15_186-2.txt"
    section, fields = None, {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("[mod"):
            section = int(line.split("=")[1].strip(" ]"))
        elif section == bits and line[:4] in ("n = ", "e = ", "d = "):
            fields[line[0]] = int(line[4:], 16)
        if len(fields) == 3:
            return rsa.from_numbers(fields["n"], fields["e"], fields["d"])
    raise ValueError(f"no {bits}-bit key in {path}")


def ecp5_fmax(core: str, width: int, run_synth: bool = False) -> tuple[float | None, str]:
    """(the engine's Fmax in MHz, where it comes from) or (None, why not)."""
    try:
        from montmul.synth import Job, ToolError, cache_key, default_build, synth

        job = Job(core, width, "ecp5", engine=True)
        key, _ = cache_key(job)
    except Exception as exc:  # tools missing, unknown core, ...
        return None, f"no synthesis cache key: {exc}"
    hit = default_build() / "cache" / f"{key}.json"
    res = json.loads(hit.read_text()) if hit.is_file() else None
    if res is None and run_synth:
        try:
            res = synth(job)
        except ToolError as exc:
            return None, f"synthesis failed: {str(exc)[:80]}"
    if res is not None:
        if res.get("fmax_mhz") is None:
            return None, str(res.get("error", "no Fmax"))[:80]
        return float(res["fmax_mhz"]), "synthesis cache" if hit.is_file() else "synthesized now"
    stale = any(
        (d.get("core"), d.get("width"), d.get("target"), d.get("engine")) == (core, width, "ecp5", True)
        for d in (json.loads(f.read_text()) for f in (default_build() / "cache").glob("*.json"))
    ) if (default_build() / "cache").is_dir() else False
    if stale:
        return None, "only a stale cached result (older RTL or flow); rerun montmul synth"
    return None, f"not synthesized (montmul synth --core {core} --width {width} --target ecp5 --engine)"


def tracked_fmax(path: str | None) -> dict[tuple[str, int, bool], float]:
    """The ECP5 Fmax column of a previous run's Markdown (the tracked
    bench/rsa.md): {(core, bits, crt): MHz} for the rows that have one; none
    from a file whose Fmax was the bare core's (written before the bench
    used the engine's own Fmax)."""
    out: dict[tuple[str, int, bool], float] = {}
    if not path or not Path(path).is_file():
        return out
    text = Path(path).read_text()
    if "engine's own ECP5 Fmax" not in text:
        return out
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 10 or not cells[0].startswith("`"):
            continue
        try:
            out[(cells[0].strip("`"), int(cells[1]), cells[2] == "yes")] = float(cells[7].split()[0])
        except ValueError:
            continue
    return out


def run_core(core: str, bits: int, crt: bool, sim: str, samples: int) -> dict:
    """Average cycles of ``samples`` signatures on ``core``."""
    key = nist_key(bits)
    # the CRT as two mm_modexp jobs (one engine / two engines columns); the
    # CRT engine mm_modexp_crt: montmul.engine.crt_model
    hw = rsa.Hardware(core=core, sim=sim, crt_engine=False)
    one, two, mults, secs = [], [], [], 0.0
    for i in range(samples):
        r = rsa.sign(key, f"montmul bench message {i}".encode(), hw, crt=crt)
        one.append(r.cycles)
        two.append(r.cycles_parallel)
        mults.append(r.mults)
        secs += r.seconds
    return {
        "core": core, "bits": bits, "crt": crt, "sim": sim, "samples": samples,
        "width": bits // 2 if crt else bits,
        "cycles": statistics.fmean(one), "cycles_parallel": statistics.fmean(two),
        "cycles_min": min(one), "cycles_max": max(one),
        "mults": statistics.fmean(mults), "seconds": round(secs, 2),
    }


def software(bits: int, reps: int) -> dict:
    """OpenSSL through cryptography: median time of one private-key
    operation (PKCS#1 v1.5 SHA-256 sign; OAEP decrypt), CRT as OpenSSL does."""
    from cryptography.hazmat.backends.openssl import backend
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding as cpad

    ck = nist_key(bits).cryptography_key()
    oaep = cpad.OAEP(cpad.MGF1(hashes.SHA256()), hashes.SHA256(), None)
    ct = ck.public_key().encrypt(b"bench", oaep)

    def med(fn) -> float:
        fn()
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t0)
        return statistics.median(ts) * 1e3

    return {
        "bits": bits,
        "sign_ms": med(lambda: ck.sign(b"bench", cpad.PKCS1v15(), hashes.SHA256())),
        "decrypt_ms": med(lambda: ck.decrypt(ct, oaep)),
        "library": backend.openssl_version_text(),
        "cpu": _cpu(),
        "reps": reps,
    }


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


# ---------------------------------------------------------------------------
def _fmt_int(x: float) -> str:
    return f"{x:,.0f}"


def markdown(data: dict) -> str:
    out = []
    sim = data["sim"]
    out.append(f"RSA private-key operation (RSASSA-PKCS1-v1_5 SHA-256 sign) on the mm_modexp engine, "
               f"square-and-multiply; cycles from the {'cycle-exact model' if sim == 'model' else sim + ' RTL simulation'}, "
               f"mean of {data['samples']} message(s), NIST SigGen15 keys; time = cycles / the engine's own ECP5 Fmax (montmul synth --core NAME --engine).")
    out.append("")
    out.append("| core | RSA | CRT | core width | mults | cycles (one engine) | cycles (CRT halves on two engines) "
               "| ECP5 Fmax (MHz) | time, one engine (ms) | time, two engines (ms) |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    for r in data["rows"]:
        f = r["fmax_mhz"]
        fmax = (f"{f:.1f}" + (" (not recomputed: cached synthesis result missing)"
                              if "not recomputed" in r["fmax_note"] else "")) if f else f"n/a: {r['fmax_note']}"
        t1 = f"{r['cycles'] / (f * 1e3):.2f}" if f else "n/a"
        t2 = f"{r['cycles_parallel'] / (f * 1e3):.2f}" if f and r["crt"] else ("n/a" if r["crt"] else "-")
        spread = "" if r["cycles_min"] == r["cycles_max"] else f" ({_fmt_int(r['cycles_min'])}-{_fmt_int(r['cycles_max'])})"
        out.append(f"| `{r['core']}` | {r['bits']} | {'yes' if r['crt'] else 'no'} | {r['width']} | {_fmt_int(r['mults'])} "
                   f"| {_fmt_int(r['cycles'])}{spread} | {_fmt_int(r['cycles_parallel']) if r['crt'] else '-'} "
                   f"| {fmax} | {t1} | {t2} |")
    out.append("")
    out.append("Published (papers 002, 004), as printed:")
    out.append("")
    out.append("| paper | design | device | clock (MHz) | resources | operation | time (ms) |")
    out.append("|---|---|---|---|---|---|---|")
    for p in PAPERS:
        clk = p["clock_mhz"] if p["clock_mhz"] else "not in the extracted text"
        out.append(f"| {p['paper']} | {p['design']} | {p['device']} | {clk} | {p['resources']} | {p['operation']} "
                   f"| {p['time_ms']} |")
    out.append("")
    if data["software"]:
        sw0 = data["software"][0]
        out.append(f"Software on this machine, same run: {sw0['library']} through cryptography, {sw0['cpu']}, "
                   f"one thread, median of {sw0['reps']} (CRT, as OpenSSL always does):")
        out.append("")
        out.append("| RSA | sign PKCS#1 v1.5 SHA-256 (ms) | decrypt OAEP SHA-256 (ms) |")
        out.append("|---|---|---|")
        for s in data["software"]:
            out.append(f"| {s['bits']} | {s['sign_ms']:.3f} | {s['decrypt_ms']:.3f} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cores", default="all", help="comma-separated core names, or all")
    ap.add_argument("--bits", default="1024,2048")
    ap.add_argument("--sim", choices=("model", "icarus", "verilator"), default="model")
    ap.add_argument("--samples", type=int, default=1, help="messages per core and key (data-dependent cores vary)")
    ap.add_argument("--sw-reps", type=int, default=200, help="repetitions of each software operation")
    ap.add_argument("--jobs", type=int, default=1, help="parallel processes for the cores")
    ap.add_argument("--synth", action="store_true", help="run missing ECP5 synthesis (widths <= 512)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--out", help="also write the Markdown (or JSON) to this file (make bench-rsa: "
                                  "build/bench/rsa.md)")
    ap.add_argument("--tracked", metavar="MD",
                    help="a previous run's Markdown (bench/rsa.md): Fmax values the synthesis cache cannot give "
                         "are carried over from it, marked as not recomputed")
    args = ap.parse_args(argv)
    names = list(cores.CORES) if args.cores == "all" else [c.strip() for c in args.cores.split(",") if c.strip()]
    try:
        for c in names:
            cores.get(c)
        bits = [int(b) for b in args.bits.split(",")]
        for b in bits:
            nist_key(b)
    except (KeyError, ValueError) as exc:
        print(f"bench_rsa: error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    if args.samples < 1:
        print("bench_rsa: error: --samples must be at least 1", file=sys.stderr)
        return 2
    tasks = [(c, b, crt) for c in names for b in bits for crt in (True, False)]
    t0 = time.perf_counter()
    progress.enable(True)
    with progress.Bar(len(tasks), "bench_rsa: signatures per core", unit="config") as bar, \
            concurrent.futures.ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = [pool.submit(run_core, c, b, crt, args.sim, args.samples) for c, b, crt in tasks]
        rows = []
        for fut in futs:
            rows.append(fut.result())
            bar.update()
    old = tracked_fmax(args.tracked)
    missing = []
    for r in rows:
        r["fmax_mhz"], r["fmax_note"] = ecp5_fmax(r["core"], r["width"], args.synth)
        if r["fmax_mhz"] is None:
            prev = old.get((r["core"], r["bits"], r["crt"]))
            missing.append(f"{r['core']} at {r['width']} bits" + (" (carried over)" if prev else ""))
            if prev:
                r["fmax_mhz"] = prev
                r["fmax_note"] = f"from {args.tracked}, not recomputed ({r['fmax_note']})"
        f = r["fmax_mhz"]
        r["time_ms"] = r["cycles"] / (f * 1e3) if f else None
        r["time_parallel_ms"] = r["cycles_parallel"] / (f * 1e3) if f and r["crt"] else None
    sw = [software(b, args.sw_reps) for b in bits] if args.sw_reps > 0 else []
    data = {
        "command": "python bench/bench_rsa.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "sim": args.sim, "samples": args.samples, "rows": rows, "papers": PAPERS, "software": sw,
        "seconds": round(time.perf_counter() - t0, 1), "host": _cpu(), "cpus": os.cpu_count(),
    }
    text = json.dumps(data, indent=1) if args.json else markdown(data)
    print(text)
    if missing:
        print(f"bench_rsa: {len(missing)} ECP5 Fmax value(s) not recomputed (no current result in the synthesis "
              f"cache, {os.path.relpath(_cache_dir())}): {', '.join(missing)}"
              + (f"; carried over from {args.tracked} where marked" if args.tracked else "")
              + "; --synth reruns them (about 2 min per job)", file=sys.stderr)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n")
        print(f"bench_rsa: wrote {args.out} ({data['seconds']} s)", file=sys.stderr)
    return 0


def _cache_dir() -> Path:
    from montmul.synth import default_build

    return default_build() / "cache"


if __name__ == "__main__":
    sys.exit(main())
