# SPDX-License-Identifier: Apache-2.0
"""Paper 004's section of the report: the systolic and multiplexed systolic
multipliers (``systolic``, ``systolic_mux``; docs/systolic.md) at 1024 bits.

    from montmul.apps.report import p004
    data = p004.build()          # synthesis (cached) + model cycles + RSA-1024 cycles
    text = p004.markdown(data)   # "## Paper 004: ..." section

    python -m montmul.apps.report.p004 [--out docs/results_p004.md] [--workers N]

What it rebuilds of the paper's lost Tables 1-2, as far as the text allows:

* resources of both cores at k = 1024, w = 16 and 32: Yosys ``synth_xilinx
  -family xc5v`` (Virtex-5, as the paper; LUT, FF, DSP48E, BRAM, no place
  and route) and ECP5 after place and route (LUT, FF, MULT18X18D, Fmax);
* the multiplexed core's saving against the systolic one (the paper: "saves
  up to 28 % of logical resources");
* RSA-1024 cycles through the ``mm_modexp`` engine's model
  (:func:`montmul.engine.modexp_model`, exact cycles) on a fixed,
  reproducible 1024-bit key: encryption (e = 65537), decryption by
  left-to-right square-and-multiply (the paper's method), with the
  Montgomery powering ladder, and with the CRT; times at our ECP5 Fmax and
  the clock at which our cycles give the paper's 3.23 ms / 4.36 ms (the
  paper's own clock was in its lost Table 1);
* the paper's suggestion (a parallel Montgomery ladder, "33 % faster" than
  square-and-multiply) checked against the engine's ladder mode.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import math
import random
import sys
import time
from pathlib import Path

import gmpy2

from ... import cores, engine, progress, resources
from ...flows import executor as sweep
from ...flows import synth
from ...flows.synth import tuning
from ...models import systolic as model
from . import papers

CORES = ("systolic", "systolic_mux")
LABEL = {"systolic": "systolic", "systolic_mux": "multiplexed"}
WIDTH = 1024
WORD_WIDTHS = (16, 32)
XILINX_OPTIONS = {"family": "xc5v"}
#: ECP5 flow options of the 1024-bit runs: the flow's tuning of the systolic cores (tuning.SYSTOLIC)
ECP5_OPTIONS = tuning.ecp5_options(CORES[0], WIDTH)
#: MULT18X18D blocks of the ECP5 device the flow places on (LFE5U-85F,
#: synth.DEFAULTS["ecp5"]["device"] = "85k"; Lattice DS1044 table 1-1).
ECP5_85K_MULT18 = 156
#: Seed of the reproducible RSA-1024 key (see :func:`rsa_key`).
KEY_SEED = 4
#: Bump when :func:`rsa_cycles` or :func:`rsa_key` change what they compute
#: (part of the RSA cache key, with the models' and the engine's sources).
RSA_VERSION = 1
E = 65537
MODULE_CMD = "python -m montmul.apps.report.p004 --out docs/results_p004.md"


def ecp5_mult18_needed(width: int, word_width: int, core: str) -> int:
    """MULT18X18D blocks the core's w x w products need if each is tiled by
    18 x 18 blocks: multipliers x ceil(w/18)^2 (an upper bound: synthesis
    trims the products of the top word, which is narrow)."""
    return model.multipliers(width, word_width, core) * math.ceil(word_width / 18) ** 2


def jobs(width: int = WIDTH) -> tuple[list[synth.Job], list[dict]]:
    """The synthesis jobs, and the ECP5 runs left out (with the reason): a
    design whose products need more MULT18X18D blocks than the device has
    cannot be placed, so its (long) synthesis is not started."""
    js, skipped = [], []
    for w in WORD_WIDTHS:
        for c in CORES:
            js.append(synth.Job(c, width, "xilinx", params={"WordWidth": w}, options=dict(XILINX_OPTIONS)))
            need = ecp5_mult18_needed(width, w, c)
            if need > ECP5_85K_MULT18:
                skipped.append({"core": c, "word_width": w, "target": "ecp5",
                                "reason": f"its {model.multipliers(width, w, c)} "
                                          f"{w}x{w} products need up to {need} MULT18X18D "
                                          f"(4 per product), the LFE5U-85F has {ECP5_85K_MULT18}"})
            else:
                js.append(synth.Job(c, width, "ecp5", params={"WordWidth": w}, options=dict(ECP5_OPTIONS)))
    return js, skipped


def xilinx_dsp(res: dict) -> int:
    """DSP blocks of a Xilinx result from its cell counts: DSP48E (Virtex-5),
    DSP48E1 (7 series), DSP48A1 (Spartan-6)."""
    return sum(v for k, v in res.get("cells", {}).items() if k.startswith("DSP48"))


def xilinx_bram(res: dict) -> int:
    return sum(v for k, v in res.get("cells", {}).items() if k.startswith("RAMB"))


def rsa_key(bits: int = 1024, seed: int = KEY_SEED) -> dict[str, int]:
    """A reproducible RSA key (cryptography's key generation takes no seed):
    p, q = next primes after random (bits/2)-bit numbers with their two top
    bits set (so n has exactly ``bits`` bits), gcd(e, p-1) = gcd(e, q-1) = 1;
    d = e^-1 mod lcm(p-1, q-1)."""
    rnd = random.Random(seed)
    half = bits // 2

    def prime() -> int:
        while True:
            p = int(gmpy2.next_prime(rnd.getrandbits(half) | (3 << (half - 2))))
            if p.bit_length() == half and math.gcd(E, p - 1) == 1:
                return p

    p = prime()
    q = prime()
    while q == p:
        q = prime()
    n = p * q
    assert n.bit_length() == bits
    lam = math.lcm(p - 1, q - 1)
    d = pow(E, -1, lam)
    return {"n": n, "e": E, "d": d, "p": p, "q": q, "dp": d % (p - 1), "dq": d % (q - 1)}


def _exp(core: str, w: int, base: int, exp: int, n: int, width: int, ladder: bool) -> dict:
    r = engine.modexp_model(base, exp, n, core=core, width=width, params={"WordWidth": w}, ladder=ladder)
    assert not r.err and r.result == pow(base, exp, n)
    return {"cycles": r.cycles, "mults": r.mults, "exp_len": max(1, exp.bit_length())}


def rsa_cycles(core: str, w: int, key: dict[str, int]) -> dict:
    """Exact engine cycles of RSA operations with ``key`` on ``core`` (the
    engine's model; every result checked against pow()): cores as wide as n
    (CRT halves: as wide as p and q)."""
    n, p, q = key["n"], key["p"], key["q"]
    width = n.bit_length()
    m = random.Random(KEY_SEED + 1).randrange(2, n - 1)
    c = pow(m, key["e"], n)
    out = {
        "encrypt": _exp(core, w, m, key["e"], n, width, ladder=False),
        "decrypt_sm": _exp(core, w, c, key["d"], n, width, ladder=False),
        "decrypt_ladder": _exp(core, w, c, key["d"], n, width, ladder=True),
    }
    for name, lad in (("decrypt_crt_sm", False), ("decrypt_crt_ladder", True)):
        hp = _exp(core, w, c % p, key["dp"], p, p.bit_length(), ladder=lad)
        hq = _exp(core, w, c % q, key["dq"], q, q.bit_length(), ladder=lad)
        out[name] = {"cycles": hp["cycles"] + hq["cycles"], "mults": hp["mults"] + hq["mults"],
                     "halves": [hp, hq]}
    out["decrypt_parallel_ladder"] = parallel_ladder(core, w, width, out["decrypt_ladder"]["exp_len"])
    return out


def parallel_ladder(core: str, w: int, width: int, bits: int) -> dict:
    """The paper's parallel ladder: both products of a ladder step at once on
    two cores, so each exponent bit costs one product time.  Not a mode of
    our engine (one core): computed from its product cost, L + 2 cycles,
    with the engine's three set-up products, the final one and the two
    one-cycle reductions."""
    lat = cores.get(core).latency_bound(width, {"WordWidth": w})
    return {"cycles": (3 + bits + 1) * (lat + engine.MUL_OVERHEAD) + 2 * engine.REDUCE_CYCLES,
            "mults": 3 + 2 * bits + 1, "computed": True}


def _sources_hash() -> str:
    """Hash of what the RSA cycles depend on: the registry, the engine and
    the models, as code (comments do not count)."""
    pkg = resources.package_dir()
    return resources.code_digest([pkg / "cores.py", pkg / "engine.py", *(pkg / "models").rglob("*.py")], pkg)


def _rsa_file(core: str, w: int, src_hash: str, bits: int = WIDTH) -> Path:
    """The cache file in ``build/report/`` of :func:`rsa_cycles` of (core, w)
    for the models, registry and engine of ``src_hash`` and the key."""
    what = [core, w, KEY_SEED, RSA_VERSION, src_hash] + ([bits] if bits != WIDTH else [])
    key = hashlib.sha256(json.dumps(what).encode()).hexdigest()[:20]
    return resources.build_root() / "report" / f"p004_rsa_{key}.json"


def _rsa_task(core: str, w: int, bits: int = WIDTH, client_stamp: str | None = None) -> dict:
    """:func:`rsa_cycles` of one (core, w) with the reproducible key of
    ``bits`` bits, as data (in a local process, or on a Dask worker that
    must run the client's montmul: ``client_stamp``)."""
    if client_stamp is not None:
        if client_stamp != sweep.stamp():
            raise sweep.WorkerMismatch(f"a Dask worker runs montmul {sweep.stamp()}, the client montmul "
                                       f"{client_stamp}: install the same montmul on the workers")
    return rsa_cycles(core, w, rsa_key(bits, seed=KEY_SEED))


def rsa_all(items: list[tuple[str, int]], workers: int = 1, executor: sweep.Executor | None = None,
            bits: int = WIDTH) -> list[dict]:
    """:func:`rsa_cycles` of (core, w) items with the reproducible key
    (``bits``: the report's 1024; smaller in the tests), cached in
    ``build/report/`` by the hash of the models, the registry and the engine
    (one set takes minutes on the models); the missing ones computed on
    ``executor`` (:class:`montmul.flows.executor.Executor`; default
    ``workers`` local processes) and cached here."""
    src_hash = _sources_hash()
    files = [_rsa_file(c, w, src_hash, bits) for c, w in items]
    out: list[dict | None] = [json.loads(f.read_text()) if f.is_file() else None for f in files]
    todo = [i for i, r in enumerate(out) if r is None]
    if todo:
        with contextlib.ExitStack() as stack, progress.phase("model"):
            ex = executor or stack.enter_context(sweep.Executor(jobs=max(1, min(workers, len(todo)))))
            tag = sweep.stamp() if ex.remote else None
            for n, ok, res in ex.map(_rsa_task, [(*items[i], bits, tag) for i in todo], "RSA-1024 model runs",
                                     unit="set", name="montmul-p004-rsa"):
                i = todo[n]
                if not ok:
                    raise RuntimeError(f"RSA model run of {items[i]}: {res}")
                files[i].parent.mkdir(parents=True, exist_ok=True)
                files[i].write_text(json.dumps(res))
                out[i] = json.loads(files[i].read_text())  # as a cached run reads it (JSON keys, lists)
    return out  # type: ignore[return-value]


def _latency(core: str, w: int, samples: int = 3) -> dict:
    """Model latency at WIDTH over a few random operand sets (it is data
    independent; checked here against the closed formula)."""
    c = cores.get(core)
    rnd = random.Random(1)
    seen = set()
    for _ in range(samples):
        n = rnd.getrandbits(WIDTH) | 1 | (1 << (WIDTH - 1))
        a, b = rnd.randrange(2 * n), rnd.randrange(2 * n)
        r = c.run_model(a, b, n, WIDTH, {"WordWidth": w})
        seen.add(r.cycles)
    formula = c.latency_bound(WIDTH, {"WordWidth": w})
    assert seen == {formula}, (core, w, seen, formula)
    return {"latency": formula, "breakdown": dict(r.breakdown)}


def build(workers: int | None = None, cached_only: bool = False, executor=None) -> dict:
    """Synthesis (cached; failures kept as {"error": ...}), model latencies,
    RSA-1024 engine cycles.  JSON-serialisable.  ``cached_only``: synthesis
    results from the cache only (a job not in it is reported as not run)."""
    t0 = time.monotonic()
    js, skipped = jobs()
    todo = [j for j in js if not cached_only or synth.cached(j) is not None]
    done = dict(zip(map(id, todo), synth.run_many(todo, workers=workers or 1, on_error="return", executor=executor) if todo else []))
    results = [done.get(id(j), {"core": j.core, "width": j.width, "target": j.target,
                                "error": "not run: not in the synthesis cache (--cached-only)"}) for j in js]
    by = {(j.core, j.params["WordWidth"], j.target): r for j, r in zip(js, results)}
    key = rsa_key()
    items = [(c, w) for w in WORD_WIDTHS for c in CORES]
    rsa = dict(zip(items, rsa_all(items, workers=workers or 1, executor=executor)))
    designs = []
    for w in WORD_WIDTHS:
        for c in CORES:
            x = by[(c, w, "xilinx")]
            if "error" not in x:
                x = {k: x[k] for k in ("luts", "ff", "carry4", "lutram", "cells", "key", "work_dir", "tools")
                     } | {"dsp": xilinx_dsp(x), "bram": xilinx_bram(x)}
            e = by.get((c, w, "ecp5"))
            if e is None:
                e = {"error": "not run: " + next(s["reason"] for s in skipped if s["core"] == c and s["word_width"] == w)}
            elif "error" not in e:
                e = {k: e[k] for k in ("lut4", "ccu2c", "luts", "ff", "dsp", "ebr", "fmax_mhz", "constraint_mhz",
                                       "critical_path", "seconds", "key", "work_dir", "tools")}
            designs.append({
                "core": c, "label": LABEL[c], "word_width": w,
                "words": model.words(WIDTH, w), "arith_cores": model.arith_cores(WIDTH, w) if c == "systolic_mux" else None,
                "multipliers": model.multipliers(WIDTH, w, c),
                **_latency(c, w),
                "xc5v": x, "ecp5": e,
                "rsa": rsa[(c, w)],
            })
    return {
        "width": WIDTH, "word_widths": list(WORD_WIDTHS),
        "designs": designs,
        "skipped": skipped,
        "key": {"seed": KEY_SEED, "e": key["e"], "n_bits": key["n"].bit_length(),
                "d_bits": key["d"].bit_length(), "d_weight": bin(key["d"]).count("1"),
                "n_hex": hex(key["n"])},
        "paper": {**papers.RSA_004, **papers.P004_CLAIMS},
        "cached_only": cached_only,
        "seconds": round(time.monotonic() - t0, 1),
    }


# --------------------------------------------------------------------------
def _n(x, fmt=",.0f") -> str:
    return "–" if x is None else format(x, fmt)


def _t(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return out + ["| " + " | ".join(r) + " |" for r in rows]


def _ok(r: dict) -> bool:
    return isinstance(r, dict) and "error" not in r


def _err(r: dict) -> str:
    return r.get("error", "not run").replace("|", "/").replace("\n", " ")[:160]


def _pair(data: dict, w: int) -> tuple[dict, dict]:
    d = {x["core"]: x for x in data["designs"] if x["word_width"] == w}
    return d["systolic"], d["systolic_mux"]


def _saving(a, b) -> str:
    """(a - b) / a as a signed percentage: positive = the multiplexed core uses less."""
    if a is None or b is None or a == 0:
        return "–"
    return f"{100 * (a - b) / a:+.1f} %"


def markdown(data: dict) -> str:
    k = data["width"]
    P = data["paper"]
    L = [
        f"## Paper 004: systolic and multiplexed systolic multipliers at {k} bits",
        "",
        f"Generated by `{MODULE_CMD}{' --cached-only' if data.get('cached_only') else ''}` "
        "(`src/montmul/apps/report/p004.py`); do not edit by hand — rerun it. "
        "Reconstruction and decisions: `docs/systolic.md`. The paper's Tables 1–3 (resources, clock, "
        "cycles) were lost in the extraction; what survives is the RSA-1024 decryption time "
        f"({P['systolic']} ms systolic, {P['multiplexed']} ms multiplexed, {P['device']}) and the "
        f"multiplexed core's saving (\"up to {P['saving_percent']} % of logical resources\").",
        "",
        "### Cycles and multipliers (models)",
        "",
        "Latency per product from the cycle-exact models (data independent; every RTL bench checks it), "
        "`montmul cycles --core NAME --width 1024 --param WordWidth=W`:",
        "",
    ]
    rows = []
    for x in data["designs"]:
        b = x["breakdown"]
        rows.append([f"`{x['core']}`", str(x["word_width"]), str(x["words"]), _n(x["arith_cores"]),
                     str(x["multipliers"]), str(x["latency"]),
                     " + ".join(f"{v} {n}" for n, v in b.items())])
    L += _t(["core", "w", "words m", "arithmetic cores", "w×w multipliers", "latency (cycles)", "breakdown"], rows)
    L += ["",
          "### Resources",
          "",
          f"Yosys `synth_xilinx -family xc5v -flatten` (Virtex-5, out of context, no place and route): "
          f"`montmul synth --core NAME --width {k} --target xilinx --option family=xc5v --param WordWidth=W`. "
          "ECP5 (LFE5U-85F) after nextpnr place and route, clock constraint "
          f"200 MHz: `montmul synth --core NAME --width {k} --target ecp5 --param WordWidth=W "
          + " ".join(f"--option {o}={v}" for o, v in ECP5_OPTIONS.items())
          + "` (a two-hour budget per job; one placement seed, the Fmax of seed 1). "
          "DSP48E counted from Yosys' cell list (every DSP48* cell). "
          "ECP5 LUT = LUT4 + 2 × CCU2C (slice LUT sites).",
          ""]
    rows = []
    for x in data["designs"]:
        v, e = x["xc5v"], x["ecp5"]
        rows.append([
            f"`{x['core']}`", str(x["word_width"]),
            *( [_n(v["luts"]), _n(v["ff"]), _n(v["carry4"]), _n(v["dsp"]), _n(v["bram"])] if _ok(v)
               else [("" if _err(v).startswith("not run") else "failed: ") + _err(v), "", "", "", ""]),
            *( [_n(e["luts"]), _n(e["ff"]), _n(e["dsp"]), _n(e["fmax_mhz"], ".1f")] if _ok(e)
               else [("" if _err(e).startswith("not run") else "failed: ") + _err(e), "", "", ""]),
        ])
    L += _t(["core", "w", "xc5v LUT", "FF", "CARRY4", "DSP48E", "BRAM",
             "ECP5 LUT", "FF", "MULT18X18D", "Fmax MHz"], rows)
    L += ["",
          "Saving of the multiplexed core against the systolic one, same w "
          f"((systolic − multiplexed) / systolic; the paper: up to {P['saving_percent']} % of logic), and "
          "its multiplier count as a fraction of the systolic one's (must be ≤ 1/2):",
          ""]
    rows = []
    for w in data["word_widths"]:
        s, m = _pair(data, w)
        sv, mv, se, me = s["xc5v"], m["xc5v"], s["ecp5"], m["ecp5"]
        g = lambda r, f: r[f] if _ok(r) else None  # noqa: E731
        frac = lambda a, b: "–" if a is None or b is None or not a else f"{b / a:.2f}"  # noqa: E731
        rows.append([str(w),
                     _saving(g(sv, "luts"), g(mv, "luts")), _saving(g(sv, "ff"), g(mv, "ff")),
                     frac(g(sv, "dsp"), g(mv, "dsp")),
                     _saving(g(se, "luts"), g(me, "luts")), _saving(g(se, "ff"), g(me, "ff")),
                     frac(g(se, "dsp"), g(me, "dsp")),
                     f"{m['multipliers']}/{s['multipliers']} = {m['multipliers'] / s['multipliers']:.2f}"])
    L += _t(["w", "xc5v LUT saving", "FF saving", "DSP48E mux/sys", "ECP5 LUT saving", "FF saving",
             "MULT18X18D mux/sys", "w×w multipliers mux/sys (RTL)"], rows)
    # ---- RSA
    key = data["key"]
    L += ["",
          "### RSA-1024 through `mm_modexp`",
          "",
          f"Exact engine cycles from its model (`montmul.engine.modexp_model`, which runs each product on "
          f"the core's cycle-exact model and checks the result against `pow()`) on a reproducible "
          f"{key['n_bits']}-bit key (`montmul.apps.report.p004.rsa_key(seed={key['seed']})`: e = {key['e']}, "
          f"d of {key['d_bits']} bits with {key['d_weight']} ones). Each product costs L + "
          f"{engine.MUL_OVERHEAD} cycles (`docs/modexp.md`). Decryption S&M = left-to-right "
          "square-and-multiply modulo n, the paper's method; ladder = the engine's Montgomery powering ladder "
          "(one core, two products per bit); CRT = two 512-bit exponentiations on 512-bit cores. "
          "Times at our ECP5 Fmax of the 1024-bit core; f for paper = the clock at which our S&M "
          "decryption cycles take the paper's time (its own clock, in Table 1, was lost).",
          ""]
    rows = []
    for x in data["designs"]:
        r = x["rsa"]
        e = x["ecp5"]
        f = e["fmax_mhz"] if _ok(e) else None
        paper_ms = P["systolic"] if x["core"] == "systolic" else P["multiplexed"]
        ms = lambda cyc: None if f is None else cyc / f / 1e3  # noqa: E731
        rows.append([
            f"`{x['core']}`", str(x["word_width"]),
            _n(r["encrypt"]["cycles"]), _n(r["decrypt_sm"]["cycles"]), _n(r["decrypt_ladder"]["cycles"]),
            _n(r["decrypt_crt_sm"]["cycles"]), _n(r["decrypt_crt_ladder"]["cycles"]),
            _n(f, ".1f"), _n(ms(r["encrypt"]["cycles"]), ".3f"), _n(ms(r["decrypt_sm"]["cycles"]), ".2f"),
            f"{paper_ms}", f"{r['decrypt_sm']['cycles'] / paper_ms / 1e3:.1f}",
        ])
    L += _t(["core", "w", "encrypt cycles", "decrypt S&M", "decrypt ladder", "CRT S&M", "CRT ladder",
             "ECP5 Fmax MHz", "encrypt ms", "decrypt S&M ms", "paper decrypt ms",
             "f for paper (MHz)"], rows)
    # ---- ladder
    L += ["",
          f"The paper's suggestion: a Montgomery powering ladder \"{P['ladder_claim']}\". "
          "Measured on the engine (decryption modulo n, same key):",
          ""]
    rows = []
    for x in data["designs"]:
        r = x["rsa"]
        sm, lad, par = (r[n]["cycles"] for n in ("decrypt_sm", "decrypt_ladder", "decrypt_parallel_ladder"))
        rows.append([f"`{x['core']}`", str(x["word_width"]),
                     f"{r['decrypt_sm']['mults']:,} / {_n(sm)}", f"{r['decrypt_ladder']['mults']:,} / {_n(lad)}",
                     f"{100 * (lad - sm) / sm:+.1f} %", _n(par), f"{100 * (par - sm) / sm:+.1f} %"])
    L += _t(["core", "w", "S&M products / cycles", "ladder (engine) products / cycles", "ladder vs S&M",
             "parallel ladder cycles (computed)", "parallel ladder vs S&M"], rows)
    L += ["",
          "The engine has one core, so its ladder performs both products of every exponent bit one after "
          "the other: 2 products per bit against square-and-multiply's 1 + (weight of d)/(bits of d) ≈ 1.5, "
          "i.e. about a third *more* cycles. What the ladder buys on our engine is a sequence of products "
          "(and, on these data-independent cores, a run time) that does not depend on the exponent's bits "
          "(`docs/security.md`): the default of `montmul rsa sign/decrypt`. The paper's 33 % comes from running the "
          "ladder's two independent products in parallel on two multipliers (one product time per bit, "
          "k against about 1.5 k); the last column computes that from the engine's product cost "
          f"((3 + bits + 1)(L + {engine.MUL_OVERHEAD}) + {2 * engine.REDUCE_CYCLES} cycles, as the engine counts set-up, final product and reductions) — "
          "it needs a second core (twice the area), which the engine does not have.",
          ""]
    if data["skipped"]:
        L += ["Not run: " + "; ".join(f"`{s['core']}` w = {s['word_width']} on {s['target']}: {s['reason']}"
                                     for s in data["skipped"]) + ".", ""]
    errs = [(x["core"], x["word_width"], t, x[t]["error"]) for x in data["designs"] for t in ("xc5v", "ecp5")
            if not _ok(x[t]) and not x[t]["error"].startswith("not run")]
    if errs:
        L += ["Failed runs: " + "; ".join(f"`{c}` w = {w} {t}: {e}" for c, w, t, e in errs) + ".", ""]
    L += [f"Section built in {data['seconds']} s (synthesis from the cache when it holds the result).", ""]
    return "\n".join(L)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m montmul.apps.report.p004", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, help="write the section here (default: stdout)")
    ap.add_argument("--json", type=Path, help="also write the data as JSON here")
    ap.add_argument("--workers", type=int, default=1, help="parallel local processes: synthesis jobs and RSA model runs (default: 1)")
    sweep.add_arguments(ap)
    ap.add_argument("--cached-only", action="store_true",
                    help="take synthesis results from the cache only; report the others as not run")
    args = ap.parse_args(argv)
    progress.enable()
    try:
        with sweep.from_args(args, args.workers) as ex:
            data = build(workers=args.workers, cached_only=args.cached_only, executor=ex)
    except (sweep.ClusterError, ValueError) as exc:
        print(f"{ap.prog}: {exc}", file=sys.stderr)
        return 4 if isinstance(exc, sweep.ClusterError) else 2
    except RuntimeError as exc:  # a model run lost on the cluster, a worker of other code
        print(f"{ap.prog}: {exc}", file=sys.stderr)
        return 4
    except KeyboardInterrupt:
        print(f"{ap.prog}: interrupted", file=sys.stderr)
        return 130
    text = markdown(data)
    if args.json:
        args.json.write_text(json.dumps(data, indent=1))
    if args.out:
        args.out.write_text(text)
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
