# SPDX-License-Identifier: Apache-2.0
"""RSA private-key operations on every registered core, beside papers 002 and
004, FIOS_DSP_MM and OpenSSL (through ``cryptography``) on this machine.

    python -m montmul.apps.bench_rsa [--cores all|none|a,b] [--config CORE:P=V,...] [--bits 1024,2048,3072,4096]
                              [--crt yes|no|both] [--sim model|icarus|verilator] [--confirm verilator]
                              [--samples S] [--sw-reps R] [--jobs J] [--synth] [--ecp5-option O=V] [--json]
                              [--out FILE] [--json-out FILE] [--from-json FILE]

For each configuration (every registered core with its defaults and the
configurations of :data:`EXTRA_CONFIGS`, or those given) and each key size
(the keys of NIST's SigGen15_186-2 file, so the run is reproducible) it signs
``samples`` fixed messages (RSASSA-PKCS1-v1_5, SHA-256) through
``montmul.apps.rsa`` on the mm_modexp engine (square-and-multiply), with the CRT
by default, and reports the engine's cycles: from the cycle-exact model
(cached in ``--cache``, keyed on the model code), or from RTL simulation with
``--sim``; ``--confirm SIM`` also runs one signature per row in RTL
simulation, which must give the model's result and cycles.

Time = cycles / the post-route ECP5 Fmax of the engine itself (``montmul
synth --core NAME --width K --target ecp5 --engine``: mm_modexp around the
core) at the width the exponentiation uses (k/2 with the CRT, k without),
with its LUT/FF/DSP/BRAM use and whether it fits the LFE5U-85F, taken from
the synthesis cache only; the bench starts no synthesis unless ``--synth``.
The page shows the rows with a time and names the others in one line.  For
each key size: the Pareto front (time against LUTs and DSPs) and the fastest
configuration within each area budget.  ``--from-json FILE`` renders a
stored run again with today's ECP5 figures, running no signature but those
of the stored command's configurations the file has no row for (a core
registered since), on the model.

Core ``ws`` signs with the CRT on its CRT engine, the public-key engine
``mm_pke`` (``docs/pke.md``; montmul.apps.rsa): its rows' figures are those
``scripts/ws_proxy.py run --top pke`` stored in ``syn/proxy/`` for the
build that runs the size (P = 66, w = 17; one lap of the ring, c = 1, up to
RSA-2048, two laps for RSA-3072 and -4096), the median Fmax of the seeds
stored (:func:`pke_ecp5`).

``make bench-rsa`` writes ``build/bench/rsa.md`` and ``build/bench/rsa.json``;
``make bench-rsa UPDATE=1`` refreshes the tracked ``bench/rsa.md`` and
``bench/rsa.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import time
from pathlib import Path

from montmul import cores, progress, resources
from montmul.apps import rsa
from montmul.apps.stats import cpu_name as _cpu
from montmul.apps.stats import median_ms
from montmul.flows import executor as sweep
from montmul.flows.synth import parse_flow_options, proxy

#: Published figures (docs/references.md), exactly as printed.
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


def ecp5_result(core: str, params: dict[str, int], width: int, run_synth: bool = False,
                engine: str = "modexp", options: dict[str, object] | None = None) -> dict:
    """The engine's post-route ECP5 figures at ``width`` (``montmul synth
    --core NAME --width K --target ecp5 --engine modexp|crt``, with
    ``options`` as ``--option`` on top of the flow's tuning, montmul.flows.synth.tuning) from
    the synthesis cache, or run now with ``run_synth``: fmax_mhz, luts, ff,
    dsp, bram, fits (True/False/None: unknown), result (a synthesis result
    exists, with an Fmax or, timed out or too big, without) and a note
    saying where they come from or why they are missing."""
    out = {"fmax_mhz": None, "luts": None, "ff": None, "dsp": None, "bram": None, "fits": None, "note": "",
           "result": False}  # result: a synthesis result exists (with an Fmax or not)
    options = dict(options or {})
    cmd = (f"montmul synth --core {core} --width {width} --target ecp5 --engine {engine}"
           + "".join(f" --param {k}={v}" for k, v in sorted(params.items()))
           + "".join(f" --option {k}={v}" for k, v in sorted(options.items())))
    try:
        from montmul.flows.synth import Job, ToolError, cached, synth

        job = Job(core, width, "ecp5", params=params, options=options, engine=engine)
        res = cached(job)  # the build cache, then the tracked store syn/results/
    except Exception as exc:  # tools missing, unknown core, ...
        return {**out, "note": f"no synthesis cache key: {exc}"}
    from_cache = res is not None
    if res is None and run_synth:
        try:
            res = synth(job)
        except ToolError as exc:
            return {**out, "note": f"synthesis failed: {str(exc)[:80]}"}
    if res is None:
        return {**out, "note": f"not synthesized ({cmd})"}
    out["result"] = True
    for k in ("luts", "ff", "dsp"):
        out[k] = res.get(k)
    out["bram"] = res.get("ebr", res.get("bram"))  # synthesis results count the EBR blocks as "ebr"
    status = res.get("status", "ok")
    out["fits"] = False if status == "does_not_fit" else (True if res.get("fmax_mhz") else None)
    if res.get("fmax_mhz") is None:
        return {**out, "note": str(res.get("error", "no Fmax"))[:100]}
    note = "synthesis cache" if from_cache else "synthesized now"
    if "seed" not in options:
        # a one-seed run: where the cache holds the report's extra seeds of the
        # same job (montmul.apps.report.ecp5), the median run, as the report takes it
        from montmul.apps.report.ecp5 import seed_median, seeded_jobs

        more = [r for r in map(cached, seeded_jobs(job)) if r and r.get("fmax_mhz")]
        if more:
            res = seed_median([res, *more])
            out["fmax_seeds"] = res["fmax_seeds"]
            note += f", median of seeds {', '.join(res['fmax_seeds'])}"
    out["fmax_mhz"] = float(res["fmax_mhz"])
    out["note"] = note
    return out


#: Where scripts/ws_proxy.py stores its post-route results (the engine mm_pke's: ``--top pke``).
PROXY_STORE = proxy.STORE


def pke_build(bits: int):
    """The mm_pke build that signs with RSA-``bits`` keys (halves of bits/2
    bits; montmul.apps.rsa's default engine: P = 66, w = 17)."""
    from montmul.flows.sim import pke_sim

    return pke_sim.engine_build(bits // 2, pes=rsa.PKE_PES)


def pke_ecp5(bits: int, store: Path | None = None) -> dict:
    """The post-route ECP5 figures of the mm_pke build that runs RSA-``bits``
    (:func:`pke_build`), from the results ``scripts/ws_proxy.py run --top pke``
    stored in ``store`` (default :data:`PROXY_STORE`) for exactly its HDL
    parameters: the median Fmax over the seeds stored, LUTs, FFs, DSPs and
    EBR of the median run (the lower one of an even count); the same keys
    as :func:`ecp5_result`, ``bram`` = EBR.  A stored result whose RTL
    digests differ from today's files is used and named in the note."""
    from montmul import design
    from montmul.flows.sim import pke_sim

    out = {"fmax_mhz": None, "luts": None, "ff": None, "dsp": None, "bram": None, "fits": None, "note": "",
           "result": False}
    b = pke_build(bits)
    hdl = pke_sim.hdl_params(b)
    c = hdl["Chunks"]
    cmd = (f"python scripts/ws_proxy.py run --top pke --pe {b.pes} --width {b.w}"
           + (f" --chunks {c}" if c > 1 else "") + " --seed S")
    runs = proxy.lookup(design.PKE.top, hdl, store or PROXY_STORE)
    if not runs:
        return {**out, "note": f"not measured ({cmd})"}
    mid, stale = proxy.median_run(runs), proxy.stale(runs)
    note = (f"syn/proxy, median of seed{'s' if len(runs) > 1 else ''} " + ", ".join(map(str, proxy.seeds(runs)))
            + (f"; RTL changed since seed(s) {', '.join(map(str, stale))}" if stale else ""))
    return {"fmax_mhz": proxy.median_fmax(runs), "luts": mid.get("luts"), "ff": mid.get("ff"), "dsp": mid.get("dsp"),
            "bram": mid.get("ebr"), "fits": proxy.fits(mid), "note": note, "result": True,
            "fmax_seeds": [str(r["seed"]) for r in runs]}


def config_name(core: str, params: dict[str, int]) -> str:
    """``core`` or ``core:P=V,P=V`` (the form ``--config`` takes)."""
    return core + (":" + ",".join(f"{k}={v}" for k, v in sorted(params.items())) if params else "")


def parse_config(text: str) -> tuple[str, dict[str, int]]:
    """``core[:P=V,...]`` -> (core, params); ValueError naming the problem."""
    core, _, rest = text.partition(":")
    cores.get(core.strip())
    params: dict[str, int] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        k, eq, v = item.partition("=")
        if not eq:
            raise ValueError(f"--config {text!r}: expected P=V, got {item!r}")
        try:
            params[k.strip()] = int(v, 0)
        except ValueError:
            raise ValueError(f"--config {text!r}: {k.strip()} must be an integer, got {v!r}") from None
    known = cores.get(core.strip()).all_params
    bad = sorted(set(params) - set(known))
    if bad:
        raise ValueError(f"--config {text!r}: {core.strip()} has no parameter {', '.join(bad)} "
                         f"(it has {', '.join(sorted(known)) or 'none'})")
    return core.strip(), params


def code_digest(root: Path) -> str:
    """Hash of the Python that decides the cycles (``root``'s models and its
    top-level modules: engine, rsa, cores) as code (:func:`montmul.resources.
    code_digest`), so a reworded comment keeps the model-result cache below
    (hours of model runs) valid."""
    return resources.code_digest([*root.glob("models/*.py"), *root.glob("*.py")], root)


def _model_files_digest() -> str:
    import montmul

    return code_digest(Path(montmul.__file__).parent)


def _cache_file(folder: Path, tag: str) -> Path:
    """A cache file for ``tag`` (a configuration name with its digests) in ``folder``."""
    return folder / (tag.replace(":", "_").replace(",", "_").replace("=", "") + ".json")


def _model_cache(cache_dir: str | None, core: str, params: dict[str, int], bits: int, crt: bool, sim: str,
                 samples: int, crt_engine: bool) -> Path | None:
    """The model-result cache file of a row (keyed on the model code), or
    None (no cache, or an RTL simulation)."""
    if not cache_dir or sim != "model":
        return None
    tag = f"{config_name(core, params)}_{bits}_{int(crt)}{int(crt_engine)}_{samples}_{_model_files_digest()}"
    return _cache_file(Path(cache_dir), tag)


def sign_row(core: str, params: dict[str, int], bits: int, crt: bool, sim: str, samples: int,
             crt_engine: bool = True, key: rsa.RsaKey | None = None) -> dict:
    """Average cycles of ``samples`` signatures on ``core`` (with ``params``)
    with ``key`` (default: the NIST key of ``bits`` bits), computed now (no
    cache)."""
    key = key or nist_key(bits)
    hw = rsa.Hardware(core=core, sim=sim, params=params or None, crt_engine=crt_engine)
    one, mults, secs = [], [], 0.0
    for i in range(samples):
        r = rsa.sign(key, f"montmul bench message {i}".encode(), hw, crt=crt)
        one.append(r.cycles)
        mults.append(r.mults)
        secs += r.seconds
    return {
        "core": core, "params": dict(params), "bits": bits, "crt": crt, "sim": sim, "samples": samples,
        "engine": ("pke" if hw.on_pke(crt) else "crt" if crt_engine else "modexp") if crt else "modexp",
        "width": bits // 2 if crt else bits,
        "cycles": statistics.fmean(one),
        "cycles_min": min(one), "cycles_max": max(one),
        "mults": statistics.fmean(mults), "seconds": round(secs, 2),
    }


def run_core(core: str, params: dict[str, int], bits: int, crt: bool, sim: str, samples: int,
             cache_dir: str | None = None, crt_engine: bool = True) -> dict:
    """Average cycles of ``samples`` signatures on ``core`` (with ``params``);
    with the CRT on the CRT engine mm_modexp_crt (``crt_engine``) or as two
    mm_modexp jobs.  Model results are cached in ``cache_dir`` (keyed on the
    model code)."""
    cache = _model_cache(cache_dir, core, params, bits, crt, sim, samples, crt_engine)
    if cache is not None and cache.is_file():
        return {**json.loads(cache.read_text()), "cached": True}
    row = sign_row(core, params, bits, crt, sim, samples, crt_engine)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps(row))
    return {**row, "cached": False}


def rtl_digest(core: str, params: dict[str, int], crt: bool, crt_engine: bool) -> str:
    """Hash of the RTL one confirmation compiles: the engine that runs it
    (``mm_modexp_crt`` for a CRT signature on the CRT engine, else
    ``mm_modexp``), its core's files, the generated core wrapper and the
    headers, each by :func:`montmul.flows.synth.flows.rtl_digest` (comments and
    ``MM_FORMAL`` blocks out).  So an edit to one engine or one core leaves
    the others' confirmations valid."""
    import hashlib

    from montmul import design
    from montmul.flows.sim import crt_sim, modexp_sim
    from montmul.flows.synth import flows

    if rsa.Hardware(core=core, crt_engine=crt_engine).on_pke(crt):  # the public-key engine mm_pke
        files = design.PKE.sources()
    else:
        unit = (crt_sim.crt_engine(core, params or None) if (crt and crt_engine)
                else modexp_sim.engine(core, params or None))
        files = flows.rtl_files(unit)
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode() + b"\0" + flows.rtl_digest(f).encode() + b"\0")
    return h.hexdigest()[:16]


def _confirm_cache(cache_dir: str | None, core: str, params: dict[str, int], bits: int, crt: bool, sim: str,
                   crt_engine: bool) -> Path | None:
    """The cache file of a confirmation (keyed on the model code and the RTL
    it compiles), or None without a cache."""
    if not cache_dir:
        return None
    tag = (f"{config_name(core, params)}_{bits}_{int(crt)}{int(crt_engine)}_{sim}_"
           f"{_model_files_digest()}_{rtl_digest(core, params, crt, crt_engine)}")
    return _cache_file(Path(cache_dir) / "confirm", tag)


def confirm_row(core: str, params: dict[str, int], bits: int, crt: bool, sim: str, crt_engine: bool = True,
                key: rsa.RsaKey | None = None) -> dict:
    """One signature in RTL simulation with ``key`` (default: the NIST key
    of ``bits`` bits), run now (RuntimeError if its result or cycles differ
    from the model's)."""
    key = key or nist_key(bits)
    hw = rsa.Hardware(core=core, sim=sim, params=params or None, check=True, crt_engine=crt_engine)
    t0 = time.perf_counter()
    r = rsa.sign(key, b"montmul bench message 0", hw, crt=crt)
    return {"sim": sim, "cycles": r.cycles, "seconds": round(time.perf_counter() - t0, 1)}


def confirm(core: str, params: dict[str, int], bits: int, crt: bool, sim: str, crt_engine: bool = True,
            cache_dir: str | None = None, run: bool = True) -> dict | None:
    """One signature in RTL simulation; montmul.apps.rsa checks every result and
    every cycle count against the model (RuntimeError if they differ).  A
    confirmation is cached in ``cache_dir``/confirm, keyed on the model code
    and the RTL it compiles (:func:`rtl_digest`), so the RTL column of a long bench fills in over several runs
    (``--cores`` subsets) and a later full run reuses it.  ``run=False``:
    only a cached confirmation, else None."""
    cache = _confirm_cache(cache_dir, core, params, bits, crt, sim, crt_engine)
    if cache is not None and cache.is_file():
        return {**json.loads(cache.read_text()), "cached": True}
    if not run:
        return None
    out = confirm_row(core, params, bits, crt, sim, crt_engine)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps(out))
    return {**out, "cached": False}


# ---------------------------------------------------------------------------
# The sweeps on montmul's executor (montmul.flows.executor; docs/cluster.md)
def _local_sign(task: tuple, sim: str, samples: int, cache_dir: str | None) -> dict:
    """A local task: :func:`run_core` (it caches the model result itself),
    or ``{"error"}`` for a configuration the core cannot run."""
    c, p, b, crt, ce = task
    try:
        return run_core(c, p, b, crt, sim, samples, cache_dir, ce)
    except (ValueError, RuntimeError) as exc:  # e.g. a width the core's parameters do not allow
        return {"error": str(exc)}


def _key_numbers(bits: int) -> tuple[int, ...]:
    """The NIST key of ``bits`` bits as the integers a task carries (so a
    worker needs no copy of the NIST files)."""
    k = nist_key(bits)
    return (k.n, k.e, k.d, k.p, k.q)


def _remote_sign(task: tuple, sim: str, samples: int, client_stamp: str, bundle, key: tuple[int, ...]) -> dict:
    """A Dask task: :func:`sign_row` on this worker with the client's key
    (its integers) and, for an RTL simulation, the client's RTL
    (``bundle``), returned as data for the client to cache, or ``{"error"}``."""
    from montmul.flows.executor import WorkerMismatch, stamp, use_bundle

    c, p, b, crt, ce = task
    try:
        if client_stamp != stamp():
            raise WorkerMismatch(f"a Dask worker runs montmul {stamp()}, the client montmul {client_stamp}: "
                                 "install the same montmul on the workers")
        with use_bundle(bundle) if bundle is not None else contextlib.nullcontext():
            return sign_row(c, p, b, crt, sim, samples, ce, rsa.from_numbers(*key))
    except (ValueError, RuntimeError) as exc:
        return {"error": str(exc)}


def _remote_confirm(row: tuple, sim: str, bundle, key: tuple[int, ...]) -> dict:
    """A Dask task: :func:`confirm_row` on this worker with the client's key
    (its integers) and RTL (``bundle``); a mismatch with the model raises,
    as locally."""
    from montmul.flows.executor import WorkerMismatch, use_bundle, worker_name

    c, p, b, crt, ce = row
    try:
        with use_bundle(bundle):
            return confirm_row(c, p, b, crt, sim, ce, rsa.from_numbers(*key))
    except WorkerMismatch as exc:
        return {"error": f"worker {worker_name()}: {exc}"}


def _rtl_bundle(ex):
    """The RTL tree a simulation on a worker reads (shipped once per sweep)."""
    return ex.ship(p for p in resources.rtl_dir().rglob("*") if p.is_file())


def sign_all(tasks: list[tuple], sim: str, samples: int, cache_dir: str | None, ex) -> list[dict]:
    """The rows of ``tasks`` ((core, params, bits, crt, crt_engine)), in
    their order, each a row or ``{"error"}``, computed on ``ex`` (a
    :class:`montmul.flows.executor.Executor`).  Model results are cached in
    ``cache_dir`` by this process, wherever they were computed."""
    out: list[dict | None] = [None] * len(tasks)
    if not ex.remote:
        items = [(t, sim, samples, cache_dir) for t in tasks]
        for i, ok, res in ex.map(_local_sign, items, "bench_rsa: signatures per configuration", unit="config",
                                 local="process" if ex.jobs and ex.jobs > 1 else "thread", name="montmul-rsa"):
            out[i] = res if ok else {"error": res}
        return out  # type: ignore[return-value]
    from montmul.flows.executor import stamp

    todo = []
    for i, t in enumerate(tasks):
        f = _model_cache(cache_dir, t[0], t[1], t[2], t[3], sim, samples, t[4])
        if f is not None and f.is_file():
            out[i] = {**json.loads(f.read_text()), "cached": True}
        else:
            todo.append((i, f))
    bundle = _rtl_bundle(ex) if sim != "model" else None
    keys = {b: _key_numbers(b) for b in sorted({tasks[i][2] for i, _ in todo})}
    items = [(tasks[i], sim, samples, stamp(), bundle, keys[tasks[i][2]]) for i, _ in todo]
    for n, ok, res in ex.map(_remote_sign, items, "bench_rsa: signatures per configuration", unit="config",
                             name="montmul-rsa"):
        i, f = todo[n]
        if not ok:
            res = {"error": res}
        elif "error" not in res:
            if f is not None:
                f.parent.mkdir(parents=True, exist_ok=True)
                f.write_text(json.dumps(res))
            res = {**res, "cached": False}
        out[i] = res
    return out  # type: ignore[return-value]


def _crt_engine(r: dict) -> bool:
    """Whether a row ran on a CRT engine (mm_modexp_crt, or mm_pke for ws)."""
    return r["engine"] in ("crt", "pke")


def confirm_all(rows: list[dict], sim: str, cache_dir: str | None, run: bool, ex) -> None:
    """Each row's RTL confirmation (:func:`confirm`) into ``row["confirmed"]``:
    locally one after the other, on Dask as tasks whose results this process
    caches as a local run does."""
    if not ex.remote:
        with progress.Bar(len(rows), f"bench_rsa: one signature per row on {sim}", unit="row") as bar:
            for r in rows:
                r["confirmed"] = confirm(r["core"], r["params"], r["bits"], r["crt"], sim, _crt_engine(r),
                                         cache_dir, run)
                bar.update()
        return
    todo = []
    for r in rows:
        ce = _crt_engine(r)
        r["confirmed"] = confirm(r["core"], r["params"], r["bits"], r["crt"], sim, ce, cache_dir, run=False)
        if r["confirmed"] is None and run:
            todo.append(r)
    if not todo:
        return
    bundle = _rtl_bundle(ex)
    keys = {b: _key_numbers(b) for b in sorted({r["bits"] for r in todo})}
    items = [((r["core"], r["params"], r["bits"], r["crt"], _crt_engine(r)), sim, bundle, keys[r["bits"]])
             for r in todo]
    for n, ok, res in ex.map(_remote_confirm, items, f"bench_rsa: one signature per row on {sim}", unit="row",
                             name="montmul-rsa-confirm"):
        r = todo[n]
        if not ok or "error" in res:
            print(f"bench_rsa: {config_name(r['core'], r['params'])} RSA-{r['bits']}: no confirmation: "
                  f"{res if not ok else res['error']}", file=sys.stderr)
            continue
        f = _confirm_cache(cache_dir, r["core"], r["params"], r["bits"], r["crt"], sim, _crt_engine(r))
        if f is not None:
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(json.dumps(res))
        r["confirmed"] = {**res, "cached": False}


def software(bits: int, reps: int) -> dict:
    """OpenSSL through cryptography: median time of one private-key
    operation (PKCS#1 v1.5 SHA-256 sign; OAEP decrypt), CRT as OpenSSL does."""
    from cryptography.hazmat.backends.openssl import backend
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding as cpad

    ck = nist_key(bits).cryptography_key()
    oaep = cpad.OAEP(cpad.MGF1(hashes.SHA256()), hashes.SHA256(), None)
    ct = ck.public_key().encrypt(b"bench", oaep)

    return {
        "bits": bits,
        "sign_ms": median_ms(lambda: ck.sign(b"bench", cpad.PKCS1v15(), hashes.SHA256()), reps),
        "decrypt_ms": median_ms(lambda: ck.decrypt(ct, oaep), reps),
        "library": backend.openssl_version_text(),
        "cpu": _cpu(),
        "reps": reps,
    }


# ---------------------------------------------------------------------------
#: One row per registered core (its defaults) plus these configurations:
#: paper 002's p = 32 kernels, paper 003's interleaved cores, paper 004's
#: 32-bit words.
EXTRA_CONFIGS = (
    ("r4booth_right", {"WordWidth": 16, "NumPes": 32}),
    ("r4booth_left", {"WordWidth": 16, "NumPes": 32}),
    ("dsp_redundant_ecp5", {"Interleave": 2}),
    ("dsp_redundant_ecp5", {"Interleave": 3}),
    ("systolic", {"WordWidth": 32}),
    ("systolic_mux", {"WordWidth": 32}),
)


def device() -> dict:
    from montmul.flows.synth import flows

    return flows.ECP5_DEVICES["85k"]


def pareto(rows: list[dict]) -> list[dict]:
    """The rows no other row beats: none has a time, LUTs and DSPs all at
    most this row's with one strictly below.  Rows without a time or LUT
    count take no part."""
    pts = [r for r in rows if r.get("ms") is not None and r.get("luts") is not None]

    def key(r: dict) -> tuple:
        return (r["ms"], r["luts"], r.get("dsp") or 0)

    front = [r for r in pts
             if not any(all(x <= y for x, y in zip(key(o), key(r))) and key(o) != key(r) for o in pts)]
    return sorted(front, key=lambda r: r["luts"])


#: Area budgets of the "best core per budget" table: LUTs, and DSP blocks.
LUT_BUDGETS = (10_000, 20_000, 40_000, 83_640)
DSP_BUDGETS = (0, 156)


def best_per_budget(rows: list[dict]) -> list[dict]:
    """For every (LUT budget, DSP budget): the fastest row within it."""
    out = []
    for dsp in DSP_BUDGETS:
        for luts in LUT_BUDGETS:
            fit = [r for r in rows if r.get("ms") is not None and r.get("luts") is not None
                   and r["luts"] <= luts and (r.get("dsp") or 0) <= dsp]
            best = min(fit, key=lambda r: r["ms"], default=None)
            out.append({"lut_budget": luts, "dsp_budget": dsp, "best": best})
    return out


def _fmt_int(x: float | None) -> str:
    return "n/a" if x is None else f"{x:,.0f}"


def _fmt_ms(ms: float | None) -> str:
    return "n/a" if ms is None else f"{ms:.2f}"


def _fmt_params(params: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(params.items())) or "defaults"


def _engine_text(r: dict) -> str:
    return {"crt": "CRT (`mm_modexp_crt`)", "pke": f"CRT (`mm_pke`, P = {rsa.PKE_PES}, w = 17)",
            "modexp": "CRT, 2 x `mm_modexp` in series" if r["crt"] else "no CRT (`mm_modexp`)"}[r["engine"]]


def _label(r: dict, mixed: bool) -> str:
    two = mixed and r["crt"] and r["engine"] == "modexp"
    return config_name(r["core"], r["params"]) + (" (2 x mm_modexp)" if two else "") + (
        " (mm_pke)" if r["engine"] == "pke" else "")


def _not_measured(rows: list[dict]) -> str:
    """One line naming the rows without an ECP5 time, per RSA size: the
    configurations, or "every configuration"."""
    parts = []
    mixed = len({(r["crt"], r["engine"]) for r in rows}) > 1
    for bits in sorted({r["bits"] for r in rows}):
        here = [r for r in rows if r["bits"] == bits]
        todo = [_label(r, mixed) for r in here if r.get("ms") is None]
        if todo:
            parts.append(f"RSA-{bits}: " + ("every configuration" if len(todo) == len(here) > 1 else ", ".join(todo)))
    return "; ".join(parts)


def markdown(data: dict) -> str:
    """The Markdown page: rows with an ECP5 time only, then one line naming
    the rest (their cycles stay in the JSON)."""
    out = []
    sim = data["sim"]
    dev = data["device"]
    opts = "".join(f" --option {k}={v}" for k, v in sorted(data["ecp5_options"].items()))
    out.append(f"Generated by `{data['command']}`"
               + (f", rendered by `{data['rendered_by']}`" if data.get("rendered_by") else "") + ".")
    out.append("")
    out.append(f"RSA private-key operation (RSASSA-PKCS1-v1_5 SHA-256 sign, NIST SigGen15_186-2 keys), "
               f"square-and-multiply, with the CRT on the RSA-CRT engine `mm_modexp_crt` or as two `mm_modexp` "
               f"exponentiations in series (column \"engine\"), without it on `mm_modexp` (`docs/modexp.md`). "
               f"Cycles from the {'cycle-exact model' if sim == 'model' else sim + ' RTL simulation'}, mean of "
               f"{data['samples']} message(s); \"RTL\": one signature on that simulator gave the model's result "
               f"and cycles. Time = cycles / the engine's post-route ECP5 Fmax at the width it runs at "
               f"(`montmul synth --core NAME --width K --target ecp5 --engine crt|modexp{opts}`, the median of "
               f"seeds 1-3 where the store holds them); \"fits\" = fits the {dev['name']} ({dev['luts']:,} LUTs, "
               f"{dev['dsp']} MULT18X18D)."
               + (f" Core `ws` signs on the public-key engine `mm_pke` (`docs/pke.md`: P = {rsa.PKE_PES}, w = 17, "
                  f"fixed 4-bit windows, both CRT halves and Garner's step on the engine), with the figures "
                  f"`scripts/ws_proxy.py run --top pke` stored in `syn/proxy/` for the build that runs the size "
                  f"(the median Fmax of its seeds)." if any(r["engine"] == "pke" for r in data["rows"]) else ""))
    out.append("")
    measured = [r for r in data["rows"] if r.get("ms") is not None]
    if measured:
        out.append("| core | parameters | RSA | engine | core width | mults | cycles | RTL | ECP5 Fmax (MHz) "
                   "| LUTs | FFs | DSPs | EBR | fits | time (ms) | signatures/s |")
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in measured:
        spread = ("" if r.get("cycles_min", r["cycles"]) == r.get("cycles_max", r["cycles"])
                  else f" ({_fmt_int(r['cycles_min'])}-{_fmt_int(r['cycles_max'])})")
        conf = f"{r['confirmed']['sim']} = model" if r.get("confirmed") else "-"
        fits = {True: "yes", False: "no", None: "?"}[r["fits"]]
        out.append(f"| `{r['core']}` | {_fmt_params(r['params'])} | {r['bits']} | {_engine_text(r)} "
                   f"| {r['width']} | {_fmt_int(r['mults'])} | {_fmt_int(r['cycles'])}{spread} "
                   f"| {conf} | {r['fmax_mhz']:.1f} | {_fmt_int(r['luts'])} "
                   f"| {_fmt_int(r['ff'])} | {_fmt_int(r['dsp'])} | {_fmt_int(r.get('bram'))} | {fits} "
                   f"| {_fmt_ms(r['ms'])} | {_fmt_int(1e3 / r['ms'])} |")
    missing = _not_measured(data["rows"])
    if missing:
        out += ["", f"Not measured yet (no ECP5 engine result; their cycles are in the JSON): {missing}."]
    for bits in sorted({r["bits"] for r in measured}):
        rows = [r for r in measured if r["bits"] == bits and r["crt"]]
        if not rows:
            continue
        front = pareto(rows)
        out += ["", f"RSA-{bits} with the CRT, Pareto front (time against LUTs and DSPs; a core off the front is "
                    f"beaten by one on it in all three):", "",
                "| core | parameters | engine | time (ms) | LUTs | DSPs |", "|---|---|---|---|---|---|"]
        out += [f"| `{r['core']}` | {_fmt_params(r['params'])} | {_engine_text(r)} | {r['ms']:.2f} "
                f"| {_fmt_int(r['luts'])} | {_fmt_int(r['dsp'])} |" for r in front]
        budgets = best_per_budget(rows)
        found = [b for b in budgets if b["best"]]
        out += ["", f"RSA-{bits} with the CRT, fastest core within an area budget:", "",
                "| LUT budget | DSP budget | core | parameters | engine | time (ms) |", "|---|---|---|---|---|---|"]
        for b in found:
            best = b["best"]
            out.append(f"| {b['lut_budget']:,} | {b['dsp_budget']} | `{best['core']}` | {_fmt_params(best['params'])} "
                       f"| {_engine_text(best)} | {best['ms']:.2f} |")
        empty = [f"{b['lut_budget']:,} LUTs x {b['dsp_budget']} DSPs" for b in budgets if not b["best"]]
        if empty:
            out += ["", f"No measured configuration within: {', '.join(empty)}."]
    out.append("")
    out.append("Published (papers 002, 004), as printed:")
    out.append("")
    out.append("| paper | design | device | clock (MHz) | resources | operation | time (ms) |")
    out.append("|---|---|---|---|---|---|---|")
    for p in PAPERS:
        clk = p["clock_mhz"] if p["clock_mhz"] else "not available"
        out.append(f"| {p['paper']} | {p['design']} | {p['device']} | {clk} | {p['resources']} | {p['operation']} "
                   f"| {p['time_ms']} |")
    fios = data.get("fios")
    if fios:
        out += ["", f"FIOS_DSP_MM, one modular multiplication, published figures, **other device** "
                    f"({fios['device']}): {fios['source']}.", "",
                "| width | Fmax (MHz) | cycles | time (µs) | DSPs | LUTs |", "|---|---|---|---|---|---|"]
        out += [f"| {w} | {f} | {c} | {t} | {d} | {lut} |" for w, f, c, t, d, lut in fios["rows"]]
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


def json_rows(data: dict) -> dict:
    """bench/rsa.json: the rows in the issue's schema (and the rest)."""
    keep = ("core", "params", "bits", "crt", "engine", "cycles", "mults", "width", "luts", "ff", "dsp", "bram")
    rows = [{**{k: r[k] for k in keep}, "ecp5_fmax_mhz": r["fmax_mhz"], "ms": r["ms"],
             "sig_per_s": 1e3 / r["ms"] if r["ms"] else None,
             "fits_lfe5u_85f": r["fits"], "rtl_confirmed": bool(r.get("confirmed"))} for r in data["rows"]]
    return {"command": data["command"], "sim": data["sim"], "rows": rows, "software": data["software"]}


def _synth_key(r: dict) -> tuple:
    return r["core"], json.dumps(r["params"], sort_keys=True), r["width"], r["engine"]


def synth_missing(rows: list[dict], options: dict, ex) -> dict[tuple, str]:
    """``--synth`` on a cluster: the engines of ``rows`` that the synthesis
    cache lacks, as one synthesis sweep on ``ex`` (filed in the cache by
    this process, montmul.flows.synth.run_many); the failed ones' errors by
    row (:func:`_synth_key`)."""
    from montmul.flows.synth import Job, cached, run_many

    todo: dict[tuple, Job] = {}
    for r in rows:
        if r["engine"] == "pke":  # placed and routed by scripts/ws_proxy.py, not montmul synth
            continue
        try:
            job = Job(r["core"], r["width"], "ecp5", params=r["params"], options=dict(options), engine=r["engine"])
            if _synth_key(r) not in todo and cached(job) is None:
                todo[_synth_key(r)] = job
        except Exception:  # no cache key (tools missing, ...): ecp5_result says so
            continue
    if not todo:
        return {}
    res = run_many(list(todo.values()), on_error="return", executor=ex)
    return {k: r["error"] for k, r in zip(todo, res) if "error" in r and "status" not in r}


def add_ecp5(rows: list[dict], run_synth: bool, options: dict,
             failed: dict[tuple, str] | None = None) -> tuple[list[str], list[str]]:
    """Each row's engine figures (:func:`ecp5_result`) and time; returns the
    configurations with no synthesis result and those with a result but no
    Fmax (timed out, does not fit).  ``failed``: the errors of syntheses
    already run for these rows (:func:`synth_missing`)."""
    missing, no_fmax = [], []
    for r in rows:
        e = (pke_ecp5(r["bits"], PROXY_STORE) if r["engine"] == "pke" else
             ecp5_result(r["core"], r["params"], r["width"], run_synth, r["engine"], options))
        if failed and _synth_key(r) in failed and not e.get("result"):
            e = {**e, "note": f"synthesis failed: {failed[_synth_key(r)][:80]}"}
        r.update({k: e[k] for k in ("luts", "ff", "dsp", "bram", "fits")})
        r["fmax_mhz"], r["fmax_note"] = e["fmax_mhz"], e["note"]
        if e["fmax_mhz"] is None:
            what = f"{config_name(r['core'], r['params'])} at {r['width']} bits"
            (no_fmax if e.get("result") else missing).append(what)
        f = r["fmax_mhz"]
        r["ms"] = r["cycles"] / (f * 1e3) if f else None
        r["sig_per_s"] = 1e3 / r["ms"] if r["ms"] else None
    return missing, no_fmax


def _from_json(args: argparse.Namespace, argv: list[str] | None) -> int:
    """--from-json: the page of a stored run, with today's ECP5 figures."""
    import shlex

    try:
        stored = json.loads(Path(args.from_json).read_text())
        words = shlex.split(stored["command"])  # "python -m montmul.apps.bench_rsa ARGS" (or an older launcher)
        args_run = words[next((i for i, w in enumerate(words) if w.startswith("--")), len(words)):]
        run = _parser().parse_args(args_run)
        ecp5_opts = parse_flow_options(run.ecp5_option, "ecp5", "--ecp5-option")
    except (OSError, ValueError, KeyError, SystemExit) as exc:
        print(f"bench_rsa: error: --from-json {args.from_json}: not a stored bench run ({exc})", file=sys.stderr)
        return 2
    keep = ("core", "params", "bits", "crt", "engine", "width", "cycles", "mults")
    rows = [{**{k: r[k] for k in keep}, "confirmed": {"sim": run.confirm} if r.get("rtl_confirmed") else None}
            for r in stored["rows"]]
    # the stored command's configurations it has no row for (a core registered since): on the model now
    have = {(r["core"], json.dumps(r["params"], sort_keys=True), r["bits"], r["crt"], r["engine"] != "modexp")
            for r in rows}
    try:
        tasks = _tasks(run)
    except (KeyError, ValueError) as exc:
        print(f"bench_rsa: error: --from-json {args.from_json}: {exc}", file=sys.stderr)
        return 2
    for c, p, b, crt, ce in tasks:
        if (c, json.dumps(p, sort_keys=True), b, crt, ce and crt) not in have:
            try:
                row = run_core(c, p, b, crt, "model", run.samples, run.cache or None, ce)
            except (ValueError, RuntimeError) as exc:
                print(f"bench_rsa: {config_name(c, p)} RSA-{b}: {exc}", file=sys.stderr)
                continue
            rows.append({**{k: row[k] for k in keep}, "confirmed": None})
    add_ecp5(rows, False, ecp5_opts)
    from montmul.apps.report import p003

    data = {
        "command": " ".join(["python -m montmul.apps.bench_rsa", *map(shlex.quote, args_run)]),  # today's launcher
        "rendered_by": "python -m montmul.apps.bench_rsa " + " ".join(argv if argv is not None else sys.argv[1:]),
        "sim": run.sim, "samples": run.samples, "ecp5_options": ecp5_opts, "rows": rows, "papers": PAPERS,
        "software": stored.get("software", []),
        "fios": {"rows": p003.FIOS_DSP_MM, "source": p003.FIOS_SOURCE, "device": p003.FIOS_DEVICE},
        "device": device(),
    }
    text = markdown(data)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n")
    if args.json_out:
        Path(args.json_out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json_out).write_text(json.dumps(json_rows(data), indent=1) + "\n")
    return 0


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cores", default="all",
                    help="comma-separated core names, or all (every registered core with its defaults, plus "
                         "EXTRA_CONFIGS), or none (only --config)")
    ap.add_argument("--config", action="append", default=[], metavar="CORE:P=V,...",
                    help="one more configuration, e.g. dsp_redundant_ecp5:Interleave=2 (repeatable)")
    ap.add_argument("--bits", default="1024,2048,3072,4096",
                    help="RSA sizes (NIST SigGen15_186-2 keys): 1024 is the papers' own operation size (002, 004)")
    ap.add_argument("--crt", choices=("yes", "no", "both"), default="yes")
    ap.add_argument("--crt-engine", choices=("yes", "no", "both"), default="yes",
                    help="the CRT on the CRT engine mm_modexp_crt (yes, the default), as two mm_modexp jobs in "
                         "series on one engine (no; fits where the CRT engine does not), or each configuration "
                         "both ways (both)")
    ap.add_argument("--no-crt-engine", dest="crt_engine", action="store_const", const="no",
                    help="the same as --crt-engine no")
    ap.add_argument("--sim", choices=("model", "icarus", "verilator"), default="model")
    ap.add_argument("--samples", type=int, default=1, help="messages per core and key (data-dependent cores vary)")
    ap.add_argument("--confirm", choices=("none", "icarus", "verilator"), default="none",
                    help="also run one signature per row in RTL simulation and check it against the model")
    ap.add_argument("--confirm-bits", default="",
                    help="with --confirm: only the rows of these RSA sizes (comma-separated; default: every "
                         "size in --bits), e.g. 2048 where a 4096-bit signature on a slow core would take hours")
    ap.add_argument("--confirm-cached-only", action="store_true",
                    help="with --confirm: show the confirmations cached by earlier runs (same model code and "
                         "RTL), run none; the other rows show '-'")
    ap.add_argument("--sw-reps", type=int, default=200, help="repetitions of each software operation")
    ap.add_argument("--jobs", type=int, default=1, help="parallel processes for the cores")
    sweep.add_arguments(ap)
    ap.add_argument("--synth", action="store_true", help="run missing ECP5 engine synthesis (hours at 1024 bits)")
    ap.add_argument("--ecp5-option", action="append", default=[], metavar="O=V",
                    help="an ECP5 flow option on top of the registry's for every engine's figures (as montmul "
                         "synth --option; repeatable), e.g. router=router2")
    ap.add_argument("--cache", default=str(Path("build") / "bench" / "cache"),
                    help="model results cache (keyed on the model code); '' for none")
    ap.add_argument("--json", action="store_true", help="print the whole result as JSON")
    ap.add_argument("--out", help="also write the Markdown (or JSON) to this file (make bench-rsa: "
                                  "build/bench/rsa.md)")
    ap.add_argument("--json-out", help="write the rows in bench/rsa.json's schema to this file")
    ap.add_argument("--from-json", metavar="FILE",
                    help="run no signature: take the rows, cycles and RTL confirmations of a stored --json-out "
                         "file (bench/rsa.json), look their ECP5 figures up again in the synthesis cache and "
                         "store, and print (--out, --json-out) the page; only the stored command's "
                         "configurations the file has no row for (a core registered since) run, on the model")
    return ap


def _configs(args: argparse.Namespace) -> list[tuple[str, dict[str, int]]]:
    if args.cores == "all":
        configs = [(c, {}) for c in cores.CORES] + [(c, dict(p)) for c, p in EXTRA_CONFIGS]
    elif args.cores == "none":
        configs = []
    else:
        configs = [parse_config(c.strip()) for c in args.cores.split(",") if c.strip()]
    configs += [parse_config(c) for c in args.config]
    if not configs:
        raise ValueError("no configuration to run (--cores none and no --config)")
    return configs


def _tasks(args: argparse.Namespace) -> list[tuple]:
    """(core, params, bits, crt, crt_engine) of every row a run makes."""
    configs = _configs(args)
    bits = [int(b) for b in args.bits.split(",")]
    crts = {"yes": (True,), "no": (False,), "both": (True, False)}[args.crt]
    engines = {"yes": (True,), "no": (False,), "both": (True, False)}[args.crt_engine]
    # without the CRT there is one engine (mm_modexp): one task, whatever --crt-engine says
    return [(c, p, b, crt, ce) for c, p in configs for b in bits for crt in crts
            for ce in (engines if crt else engines[:1])]


def main(argv: list[str] | None = None) -> int:
    ap = _parser()
    args = ap.parse_args(argv)
    if args.from_json:
        return _from_json(args, argv)
    try:
        _configs(args)  # a bad --cores/--config is an error before any run
        bits = [int(b) for b in args.bits.split(",")]
        for b in bits:
            nist_key(b)
        confirm_bits = [int(b) for b in args.confirm_bits.split(",") if b.strip()] or bits
        if args.confirm_cached_only and (args.confirm == "none" or not args.cache):
            raise ValueError("--confirm-cached-only needs --confirm SIM and a --cache")
        if not set(confirm_bits) <= set(bits):
            raise ValueError(f"--confirm-bits {args.confirm_bits} names a size not in --bits {args.bits}")
        ecp5_opts = parse_flow_options(args.ecp5_option, "ecp5", "--ecp5-option")
    except KeyError as exc:
        print(f"bench_rsa: error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"bench_rsa: error: {exc}", file=sys.stderr)
        return 2
    if args.samples < 1:
        print("bench_rsa: error: --samples must be at least 1", file=sys.stderr)
        return 2
    tasks = _tasks(args)
    t0 = time.perf_counter()
    progress.enable(True)
    rows = []
    try:
        with sweep.from_args(args, args.jobs) as ex:
            for (c, p, b, _, _), res in zip(tasks, sign_all(tasks, args.sim, args.samples, args.cache or None, ex)):
                if "error" in res:
                    print(f"bench_rsa: {config_name(c, p)} RSA-{b}: {res['error']}", file=sys.stderr)
                else:
                    rows.append(res)
            if args.confirm != "none":
                confirm_all([r for r in rows if r["bits"] in confirm_bits], args.confirm, args.cache or None,
                            not args.confirm_cached_only, ex)
            # --synth: on a cluster, the missing engines as one synthesis sweep there; locally one
            # after the other below (ecp5_result), as before
            synth_failed = synth_missing(rows, ecp5_opts, ex) if args.synth and ex.remote else None
    except sweep.ClusterError as exc:
        print(f"bench_rsa: error: {exc}", file=sys.stderr)
        return 4
    except KeyboardInterrupt:
        print("bench_rsa: interrupted", file=sys.stderr)
        return 130
    missing, no_fmax = add_ecp5(rows, args.synth and synth_failed is None, ecp5_opts, synth_failed)
    sw = [software(b, args.sw_reps) for b in bits] if args.sw_reps > 0 else []
    from montmul.apps.report import p003

    data = {
        "command": "python -m montmul.apps.bench_rsa " + " ".join(argv if argv is not None else sys.argv[1:]),
        "sim": args.sim, "samples": args.samples, "ecp5_options": ecp5_opts, "rows": rows, "papers": PAPERS,
        "software": sw,
        "fios": {"rows": p003.FIOS_DSP_MM, "source": p003.FIOS_SOURCE, "device": p003.FIOS_DEVICE},
        "device": device(), "seconds": round(time.perf_counter() - t0, 1), "host": _cpu(), "cpus": os.cpu_count(),
    }
    text = json.dumps(data, indent=1) if args.json else markdown(data)
    print(text)
    if missing:
        print(f"bench_rsa: {len(missing)} ECP5 figure(s) missing (no result in the synthesis cache, "
              f"{os.path.relpath(_cache_dir())}, nor in the store syn/results/): {', '.join(missing)}; --synth runs them", file=sys.stderr)
    if no_fmax:
        print(f"bench_rsa: {len(no_fmax)} synthesis result(s) without an Fmax (timed out or does not fit: the "
              f"table's note says which): {', '.join(no_fmax)}", file=sys.stderr)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n")
        print(f"bench_rsa: wrote {args.out} ({data['seconds']} s)", file=sys.stderr)
    if args.json_out:
        Path(args.json_out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json_out).write_text(json.dumps(json_rows(data), indent=1) + "\n")
        print(f"bench_rsa: wrote {args.json_out}", file=sys.stderr)
    return 0


def _cache_dir() -> Path:
    from montmul.flows.synth import default_build

    return default_build() / "cache"


if __name__ == "__main__":
    sys.exit(main())
