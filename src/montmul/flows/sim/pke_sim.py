# SPDX-License-Identifier: Apache-2.0
"""Build the public-key engine ``mm_pke`` (``docs/pke.md``) and run programs
on it in RTL simulation (Icarus or Verilator).

Safe to import outside a simulation, like :mod:`montmul.flows.sim.modexp_sim`
for mm_modexp: :func:`simulate` builds the engine for a
:class:`montmul.models.pke.Build` (one build directory per set of HDL
parameters, through :mod:`montmul.flows.sim.runner`, so its locking and
up-to-date checks apply) and runs the cocotb module
:mod:`montmul.flows.sim.pke_run`, which drives the engine's host ports: it
writes the program through the program port and both banks through the
bank word port, pulses ``start_i``, waits for ``done_o`` and reads the
words asked for.  Each :class:`Request` is one such run (the engine is
reset before each); :class:`Response` has the cycles from start to done,
counted as ``pke.run`` counts them (``docs/pke.md``, "The RTL": ``done_o``
is high in cycle S + ``run().cycles``), the error code and the words read.

    from montmul.models import pke
    from montmul.flows.sim import pke_sim
    b = pke.Build(256, pes=22, w=17, qlat=-1)
    banks, ks = pke.host_images(b, p, q, dp, dq, c)
    req = pke_sim.Request(pke.encode(pke.rsa_crt_program(b)), banks, reads=[(0, *pke.layout(b)["MQ"])])
    (resp,) = pke_sim.simulate(b, [req], sim="icarus")
    resp.cycles, resp.err, resp.words[0]          # the result m's words at MQ of bank 0
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ... import design, progress
from ...models import pke, ws
from . import runner

TOP = design.PKE.top
#: Program memory words of the builds made here (mm_pke's ProgWords; the
#: synthesized builds' size): room for the RSA-CRT program with base
#: blinding's unrolled public exponent.
PROG_WORDS = 512
#: The engine build RSA runs on by default, the one placed and routed on the
#: LFE5U-85F (``scripts/ws_proxy.py run --top pke --pe 66 --width 17``):
#: P = 66 PEs, w = 17, L = 6 (DspRegs 3, LoopRegs 0).
PES = 66
W = 17
LATENCY = 6


def engine_build(bits: int, exp_bits: int | None = None, *, pes: int = PES, w: int = W, latency: int = LATENCY,
                 base_blind: bool = False, e: int = 65537) -> pke.Build:
    """The engine build for halves of ``bits`` bits (:func:`montmul.design.pke_build`
    with the least quotient delay d) on the default array."""
    return design.pke_build(bits, exp_bits, pes=pes, w=w, latency=latency, base_blind=base_blind, e=e)


def hdl_params(b: pke.Build, prog_words: int = PROG_WORDS) -> dict[str, int]:
    """mm_pke's HDL parameters for the build ``b`` (:func:`montmul.design.pke_hdl_params`)."""
    return design.pke_hdl_params(b, prog_words)


def check_build(b: pke.Build) -> None:
    """ValueError unless the RTL runs ``b`` as the model does: the array's
    quotient bypass (qlat = -1) exactly when 2cd = L, as mm_ws_array builds
    it (``docs/ws.md``)."""
    k = ws.precompute(3, b.w, b.d, b.bits)
    bypass = 2 * b.array.chunks(k) * b.d == b.latency
    if bypass != (b.qlat == -1) or b.qlat > 0:
        raise ValueError(f"mm_pke builds the quotient bypass exactly when 2cd = L: this build has "
                         f"2cd = {2 * b.array.chunks(k) * b.d}, L = {b.latency}, qlat = {b.qlat}")


@dataclass
class Request:
    """One run of the engine: the program (instruction words, at most the
    build's program memory), the two banks as the host writes them (every
    word of ``addrs``, default every region of ``pke.layout``), and the
    words to read afterwards: (bank, address, words) per read.  ``trace``:
    record the main-timeline dispatches (mm_pke's debug port)."""

    program: list[int]
    banks: list[list[int]]
    reads: list[tuple[int, int, int]] = field(default_factory=list)
    addrs: list[int] | None = None
    trace: bool = False


@dataclass(frozen=True)
class Response:
    cycles: int  #: start to done_o (pke.run's count)
    err: int  #: err_code_o (0: none)
    words: list[list[int]]  #: per read of the request, its words
    #: with ``Request.trace``: (cycle, pc) of every main-timeline dispatch
    #: (``dbg_disp_o``, ``dbg_pc_o``), cycle 1 the one after start, as
    #: ``pke.run`` issues its non-PROD instructions (``tb/mm_pke``)
    dispatches: list[tuple[int, int]] = field(default_factory=list)


def region_addrs(b: pke.Build) -> list[int]:
    """Every address of every region of the build's memory map."""
    return sorted(a for addr, size in pke.layout(b).values() for a in range(addr, addr + size))


def value(words: list[int], w: int) -> int:
    """The integer of little-endian w-bit words."""
    return sum(x << (w * i) for i, x in enumerate(words))


def simulate(b: pke.Build, requests: list[Request], *, sim: str = "verilator", cycle_limit: int | None = None,
             prog_words: int = PROG_WORDS) -> list[Response]:
    """Run every request on one build of mm_pke for ``b``, in one simulator
    process, the engine reset before each.  ``cycle_limit``: a run without
    done_o within that many cycles is a hang (RuntimeError; default: twice
    the program's cycles in the model, plus 1000)."""
    if sim not in runner.SIMULATORS:
        raise ValueError(f"unknown simulator {sim!r}; use one of {', '.join(runner.SIMULATORS)}")
    check_build(b)
    params = hdl_params(b, prog_words)
    if not requests:
        return []
    addrs = region_addrs(b)
    jobs = []
    for r in requests:
        if len(r.program) > prog_words:
            raise ValueError(f"program of {len(r.program)} words; the build's program memory holds {prog_words}")
        if len(r.banks) != 2 or any(len(x) != pke.MEM_WORDS for x in r.banks):
            raise ValueError(f"two banks of {pke.MEM_WORDS} words")
        a = addrs if r.addrs is None else sorted(r.addrs)
        limit = cycle_limit
        if limit is None:
            # the model's count of this program (cycles do not depend on the data)
            ks = [ws.precompute(3, b.w, b.d, b.bits)] * 2
            limit = 2 * pke.run(pke.decode(r.program), [[0] * pke.MEM_WORDS for _ in range(2)],
                                pke.Machine(b.array, ks, mod_alu=b.mod_alu), compute=False).cycles + 1000
        jobs.append({"program": [hex(x) for x in r.program],
                     "writes": [[[addr, hex(bank[addr])] for addr in a] for bank in r.banks],
                     "reads": [list(x) for x in r.reads], "limit": limit, "trace": r.trace})
    runner.build(design.PKE, sim, 0, params)
    with tempfile.TemporaryDirectory(prefix="montmul_pke_") as tmp:
        tmpd = Path(tmp)
        vin, vout = tmpd / "in.json", tmpd / "out.json"
        vin.write_text(json.dumps(jobs))
        env = {"MONTMUL_PKE_IN": str(vin), "MONTMUL_PKE_OUT": str(vout), "MONTMUL_PKE_W": str(b.w)}
        with progress.phase("simulate"):
            try:
                runner.run(design.PKE, sim, 0, test_module="montmul.flows.sim.pke_run", test_dir=tmpd / "run",
                           extra_env=env, params=params, build_first=False)
            except AssertionError as exc:
                raise RuntimeError(f"mm_pke on {sim}: {exc}") from None
        rows = json.loads(vout.read_text())
    return [Response(row["cycles"], row["err"], [[int(x, 16) for x in ws_] for ws_ in row["words"]],
                     [tuple(d) for d in row.get("disp", [])]) for row in rows]
