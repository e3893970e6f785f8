# SPDX-License-Identifier: Apache-2.0
"""The post-route results ``scripts/ws_proxy.py`` stores in ``syn/proxy/``
(the ws ring and array, the public-key engine ``mm_pke``: one JSON file per
build and placement seed), as the benches read them
(:mod:`montmul.apps.bench_rsa`, :mod:`montmul.apps.ecc.bench`).

    runs = proxy.lookup("mm_pke", design.pke_hdl_params(b, 512))
    proxy.median_fmax(runs)        # the median Fmax over the seeds stored
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Iterable, Mapping

from ... import resources
from . import flows

#: Where scripts/ws_proxy.py stores its results.
STORE = resources.data_root() / "syn" / "proxy"
#: Parameter values a stored result leaves out (ws_proxy.py writes LoopRegs
#: only when it is not 0; results made before mm_pke had ModAlu have none).
DEFAULTS = {"LoopRegs": 0, "ModAlu": 0}


def clear_mode(p: Mapping[str, int]) -> int:
    """mm_ws_pe's ClearMode of the parameters ``p`` (results stored before it existed were made with 0)."""
    return int(p.get("ClearMode", 0))


def top_of(p: Mapping[str, int]) -> str:
    """"pke" for the engine's parameters (they hold its program size
    ProgWords), "array" for an array's (its word count MaxWords), else
    "ring"."""
    if "ProgWords" in p:
        return "pke"
    return "array" if "MaxWords" in p else "ring"


def tag(p: Mapping[str, int], seed: int | str, variant: str) -> str:
    """The stored name of a run (``ws_<tag>.json``) of the build with HDL
    parameters ``p``; an engine whose program memory is not the RSA
    build's (:data:`montmul.flows.sim.pke_sim.PROG_WORDS`) says its size
    (``_pw<N>``).  ``seed``/``variant`` "*" make a glob pattern of the build's runs."""
    from ..sim.pke_sim import PROG_WORDS

    loop = p.get("LoopRegs", 0)
    clr = clear_mode(p)
    top = top_of(p)
    if top != "ring":
        size = f"_c{p['Chunks']}_m{p['MaxWords']}"
        if top == "pke" and p["ProgWords"] != PROG_WORDS:
            size += f"_pw{p['ProgWords']}"
    else:
        size = f"_s{p['Slots']}"
    return ((f"{top}_" if top != "ring" else "") + f"P{p['NumPe']}_w{p['WordWidth']}_r{p['DspRegs']}"
            + (f"_t{loop}" if loop else "") + f"_d{p['QuotDelay']}" + size + (f"_clr{clr}" if clr else "")
            + f"_{variant}_seed{seed}")


def lookup(design: str, params: Mapping[str, int], store: Path | None = None, *,
           ignore: Iterable[str] = ()) -> list[dict]:
    """The stored runs of top ``design`` with exactly the HDL parameters
    ``params`` (those named in ``ignore`` aside; a missing one takes its
    :data:`DEFAULTS` value), the base RTL variant, status ok and an Fmax;
    sorted by Fmax.  Unreadable files are passed over."""
    skip = set(ignore)
    runs = []
    for f in sorted(Path(store or STORE).glob("ws_*.json")):
        try:
            r = json.loads(f.read_text())
        except (OSError, ValueError):
            continue
        p = r.get("params") or {}
        if (r.get("design") != design or r.get("variant", "base") != "base" or r.get("status", "ok") != "ok"
                or not r.get("fmax_mhz")):
            continue
        if all(p.get(k, DEFAULTS.get(k)) == params.get(k, DEFAULTS.get(k)) for k in {*p, *params} - skip):
            runs.append(r)
    return sorted(runs, key=lambda r: r["fmax_mhz"])


def median_fmax(runs: list[dict]) -> float | None:
    """The median Fmax of ``runs`` (None for none)."""
    return float(statistics.median(r["fmax_mhz"] for r in runs)) if runs else None


def median_run(runs: list[dict]) -> dict:
    """The run of the median Fmax (the lower one of an even count) of ``runs``, sorted as :func:`lookup` sorts."""
    return runs[(len(runs) - 1) // 2]


def seeds(runs: list[dict]) -> list[int]:
    return sorted(r["seed"] for r in runs)


def fits(run: dict) -> bool:
    """The run's design fits the device (every utilization at most 1; a run without them: True)."""
    return all(v <= 1 for v in (run.get("device_utilization") or {}).values())


def stale(runs: list[dict]) -> list[int]:
    """Seeds of the runs whose RTL digests differ from today's files."""
    return sorted(r["seed"] for r in runs if any(flows.rtl_digest(resources.rtl_dir() / f) != d
                                                 for f, d in (r.get("rtl") or {}).items()))
